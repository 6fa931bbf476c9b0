// `chronograph/zod`, LangGraph.js's `@langchain/langgraph/zod`: the zod
// state helpers of state/zod/meta.ts, and (as a side effect of importing it) the
// `schema.langgraph` plugin of state/zod/plugin.ts. The main entry uses state/zod/meta.ts
// alone, so importing `chronograph` never looks for zod.
export * from "./state/zod/meta.js";
import "./state/zod/plugin.js";
