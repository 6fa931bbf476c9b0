// Node entry of `chronograph/langgraph`: loads the wasm module (node.js),
// registers how SqliteSaver loads its driver (better-sqlite3, an optional
// peer: only this entry may load it, so no browser bundle does), then exports
// the LangGraph.js checkpointers over Chronograph's store.
import "./node.js";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { registerSqliteDriver } from "./checkpoint/sqlite_driver.js";

registerSqliteDriver(() => {
  try {
    return createRequire(import.meta.url)("better-sqlite3");
  } catch (error) {
    // A linked package (npm link) resolves from its real path: try from the application.
    if (error?.code !== "MODULE_NOT_FOUND") throw error;
    const from = process.argv[1] ? pathToFileURL(process.argv[1]) : pathToFileURL(`${process.cwd()}/`);
    return createRequire(from)("better-sqlite3");
  }
});

export * from "./langgraph.js";
