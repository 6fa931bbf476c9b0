// Node entry of `chronograph/langgraph`: loads the wasm module (node.js),
// then exports the LangGraph.js checkpointer over Chronograph's store.
import "./node.js";

export * from "./langgraph.js";
