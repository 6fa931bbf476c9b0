// `chronograph/langgraph`: Chronograph's checkpoint store as a drop-in
// checkpointer for LangGraph.js graphs (checkpoint/langgraph_saver.ts).
export * from "./checkpoint/langgraph_saver.js";
