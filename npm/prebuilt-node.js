// Node entry of `chronograph/prebuilt`: loads the wasm module (node.js), then
// exports LangGraph.js's prebuilt agents and tool node (npm/src/prebuilt.ts).
import "./node.js";

export * from "./prebuilt.js";
