// `chronograph/pregel` (LangGraph.js's `@langchain/langgraph/pregel`): the
// low-level graph API (pregel/index.ts).
export * from "./pregel/index.js";
