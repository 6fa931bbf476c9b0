// Browser entry of `chronograph/prebuilt`: loads the wasm module (browser.js),
// then exports LangGraph.js's prebuilt agents and tool node (npm/src/prebuilt.ts).
import "./browser.js";

export * from "./prebuilt.js";
