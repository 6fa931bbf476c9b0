// Node entry of `chronograph/langgraph`: loads the wasm module (node.js),
// registers how SqliteSaver and PostgresSaver load their drivers
// (better-sqlite3 and pg, optional peers, required on first use from the
// application, then beside the package: internal/peers.ts; only this entry
// registers them, so no browser bundle does), then exports the LangGraph.js
// checkpointers over Chronograph's store.
import "./node.js";
import { requireDriver } from "./internal/peers.js";
import { registerSqliteDriver } from "./checkpoint/sqlite_driver.js";
import { registerPostgresDriver } from "./checkpoint/postgres_driver.js";

registerSqliteDriver(() => requireDriver("better-sqlite3"));
registerPostgresDriver(() => requireDriver("pg"));

export * from "./langgraph.js";
