// `chronograph/zod` (LangGraph.js's `@langchain/langgraph/zod`): zod.ts's
// names, and LangGraph.js's zod plugin: importing it gives zod 3 schemas
// `.langgraph.reducer(fn, updateSchema)` and `.langgraph.metadata(jsonSchemaExtra)`
// (`withLangGraph` on the schema), on the zod the application imports (found
// as peers.ts finds optional peers). Like LangGraph.js's, it also patches zod
// 4's `ZodType.prototype`, which zod 4's own schemas do not inherit.
// A zod whose schemas already have `.langgraph` (LangGraph.js loaded in the
// same process patched them first) is left as it is.
import { importPeer } from "./peers.js";
import { withLangGraph } from "./zod.js";

export * from "./zod.js";

/** `schema.langgraph`: LangGraph.js's plugin methods on a zod schema. */
function pluginOf(schema: object) {
  return {
    /** JSON-schema extras of the field (`langgraph_type`, ...). */
    metadata: (jsonSchemaExtra: Record<string, unknown>) => withLangGraph(schema, { jsonSchemaExtra }),
    /** The field's reducer (and the schema of an update, when it differs); the default is the schema's own. */
    reducer: (fn: (a: unknown, b: unknown) => unknown, schema_?: unknown) => withLangGraph(schema, { reducer: { schema: schema_, fn } }),
  };
}

for (const version of ["./v3", "./v4"]) {
  const zod = (await importPeer("zod", version)) as { z?: { ZodType?: { prototype?: object } } } | undefined;
  const proto = zod?.z?.ZodType?.prototype;
  if (proto === undefined || Object.getOwnPropertyDescriptor(proto, "langgraph") !== undefined) continue;
  Object.defineProperty(proto, "langgraph", {
    configurable: true,
    get(this: object) {
      return pluginOf(this);
    },
  });
}
