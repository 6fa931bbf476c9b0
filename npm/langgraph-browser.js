// Browser entry of `chronograph/langgraph`: loads the wasm module
// (browser.js), then exports the LangGraph.js checkpointer over Chronograph's store.
import "./browser.js";

export * from "./langgraph.js";
