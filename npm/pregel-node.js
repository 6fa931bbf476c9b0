// Node entry of `chronograph/pregel`: loads the wasm module (node.js), then
// exports LangGraph.js's low-level API (npm/src/pregel.ts).
import "./node.js";

export * from "./pregel.js";
