// `chronograph/zod`, LangGraph.js's `@langchain/langgraph/zod`: the zod
// state helpers of zod.ts, and (as a side effect of importing it) the
// `schema.langgraph` plugin of zod_plugin.ts. The main entry uses zod.ts
// alone, so importing `chronograph` never looks for zod.
export * from "./zod.js";
import "./zod_plugin.js";
