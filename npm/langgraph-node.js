// Node entry of `chronograph/langgraph`: loads the wasm module (node.js),
// registers how SqliteSaver loads its driver (better-sqlite3, an optional
// peer, required on first use from the application, then beside the package:
// internal/peers.ts; only this entry registers it, so no browser bundle
// does), then exports the LangGraph.js checkpointers over Chronograph's store.
import "./node.js";
import { requireDriver } from "./internal/peers.js";
import { registerSqliteDriver } from "./checkpoint/sqlite_driver.js";

registerSqliteDriver(() => requireDriver("better-sqlite3"));

export * from "./langgraph.js";
