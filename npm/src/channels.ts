// `chronograph/channels` (LangGraph.js's `@langchain/langgraph/channels`):
// the channel classes a `Pregel` graph is built from (channels/index.ts).
export * from "./channels/index.js";
