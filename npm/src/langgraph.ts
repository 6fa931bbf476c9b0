// `chronograph/langgraph`: Chronograph's checkpoint store as a drop-in
// checkpointer for LangGraph.js graphs (checkpoint/langgraph_saver.ts), and a
// persistent one on SQLite whose size grows linearly (checkpoint/sqlite_saver.ts).
export * from "./checkpoint/langgraph_saver.js";
export { SqliteSaver } from "./checkpoint/sqlite_saver.js";
export type { DeltaOptions } from "./checkpoint/delta.js";
export type { SqliteDatabase, SqliteStatement } from "./checkpoint/sqlite_driver.js";
