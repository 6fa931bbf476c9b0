// Browser entry of `chronograph/pregel`: loads the wasm module (browser.js),
// then exports LangGraph.js's low-level API (npm/src/pregel.ts).
import "./browser.js";

export * from "./pregel.js";
