// `chronograph/pregel` (LangGraph.js's `@langchain/langgraph/pregel`): its
// names exist so that an import resolves, and fail naming the difference.
export { Channel, Pregel } from "./unsupported.js";
