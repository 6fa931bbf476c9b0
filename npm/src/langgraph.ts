// `chronograph/langgraph`: Chronograph's checkpoint store as a drop-in
// checkpointer for LangGraph.js graphs (checkpoint/langgraph_saver.ts), and a
// persistent one on SQLite and one on PostgreSQL whose sizes grow linearly
// (checkpoint/sqlite_saver.ts, checkpoint/postgres_saver.ts: their drivers are
// loaded only by the Node entry).
export * from "./checkpoint/langgraph_saver.js";
export { SqliteSaver } from "./checkpoint/sqlite_saver.js";
export { PostgresSaver } from "./checkpoint/postgres_saver.js";
export type { PostgresSaverOptions } from "./checkpoint/postgres_saver.js";
export type { DeltaOptions } from "./checkpoint/delta.js";
export type { PruneKeep, PruneOptions, PruneResult } from "./checkpoint/prune.js";
export type { SqliteDatabase, SqliteStatement } from "./checkpoint/sqlite_driver.js";
export type { PostgresPool, PostgresPoolClient, PostgresQueryable, PostgresResult } from "./checkpoint/postgres_driver.js";
