// `chronograph/prebuilt` (LangGraph.js's `@langchain/langgraph/prebuilt`):
// `ToolNode` and `toolsCondition` (prebuilt/tool_node.ts).
export * from "./prebuilt/tool_node.js";
