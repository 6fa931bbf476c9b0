// `chronograph/zod/schema` (LangGraph.js's `@langchain/langgraph/zod/schema`):
// the JSON schemas of a compiled graph's state, update, input, output and
// config (state/zod/schema.ts).
export * from "./state/zod/schema.js";
