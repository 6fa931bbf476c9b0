// Node entry of `chronograph/langgraph`: loads the wasm module (node.js),
// registers how SqliteSaver and PostgresSaver load their drivers
// (better-sqlite3 and pg, optional peers: only this entry may load them, so no
// browser bundle does), then exports
// the LangGraph.js checkpointers over Chronograph's store.
import "./node.js";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { registerSqliteDriver } from "./checkpoint/sqlite_driver.js";
import { registerPostgresDriver } from "./checkpoint/postgres_driver.js";

/** Loads an optional peer by name: from this package, else from the application. */
function loadPeer(name) {
  try {
    return createRequire(import.meta.url)(name);
  } catch (error) {
    // A linked package (npm link) resolves from its real path: try from the application.
    if (error?.code !== "MODULE_NOT_FOUND") throw error;
    const from = process.argv[1] ? pathToFileURL(process.argv[1]) : pathToFileURL(`${process.cwd()}/`);
    return createRequire(from)(name);
  }
}

registerSqliteDriver(() => loadPeer("better-sqlite3"));
registerPostgresDriver(() => loadPeer("pg"));

export * from "./langgraph.js";
