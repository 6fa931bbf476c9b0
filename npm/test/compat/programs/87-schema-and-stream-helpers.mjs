// The Standard Schema helpers of LangGraph.js's main entry (isStandardSchema,
// isSerializableSchema, getJsonSchemaFromSchema, getSchemaDefaultGetter) on zod 4 schemas and
// other values, and its streaming-protocol pieces a custom `streamEvents` v3 transformer is built
// from (isNativeTransformer, createValuesTransformer, createMessagesTransformer,
// createLifecycleTransformer, filterLifecycleEntries) used as the docs' "Streaming (v3)" page
// shows a transformer: passed in `transformers` and read from `run.extensions`.
export const title = "schema helpers on zod schemas; v3 stream transformer helpers";

import { z } from "zod";

export default async function (lg, t) {
  const schemas = {
    string: z.string(),
    withDefault: z.string().default("hello"),
    object: z.object({ a: z.number().default(1), b: z.string().optional() }),
    plain: { "~standard": { validate: () => ({ value: 7 }) } },
    asyncValidate: { "~standard": { validate: async () => ({ value: 1 }) } },
    throwing: { "~standard": { validate: () => { throw new Error("x"); }, jsonSchema: { input: () => { throw new Error("y"); } } } },
    notSchema: { a: 1 },
    nothing: null,
  };
  const out = {};
  for (const [name, s] of Object.entries(schemas)) {
    const getter = lg.getSchemaDefaultGetter(s);
    out[name] = {
      isStandardSchema: lg.isStandardSchema(s),
      isSerializableSchema: lg.isSerializableSchema(s),
      jsonSchema: lg.getJsonSchemaFromSchema(s) ?? null,
      default: getter === undefined ? "none" : getter() ?? null,
    };
  }
  t.record("schemas", out);
  t.record("isStandardSchema(function)", lg.isStandardSchema(Object.assign(() => 1, { "~standard": { validate() {} } })));

  t.record("isNativeTransformer", [lg.isNativeTransformer({ __native: true }), lg.isNativeTransformer({}), lg.isNativeTransformer({ __native: 1 })]);
  const lifecycle = lg.createLifecycleTransformer();
  const values = lg.createValuesTransformer([]);
  const messages = lg.createMessagesTransformer([]);
  t.record("transformer shapes", {
    lifecycle: [lg.isNativeTransformer(lifecycle), Object.keys(lifecycle.init()).sort()],
    values: [lg.isNativeTransformer(values), Object.keys(values.init()).sort()],
    messages: [lg.isNativeTransformer(messages), Object.keys(messages.init()).sort()],
  });

  const { Annotation, StateGraph, START } = lg;
  const State = Annotation.Root({ n: Annotation() });
  const inner = new StateGraph(State).addNode("inc", (s) => ({ n: s.n + 1 })).addEdge(START, "inc").compile();
  const graph = new StateGraph(State).addNode("sub", inner).addNode("double", (s) => ({ n: s.n * 2 })).addEdge(START, "sub").addEdge("sub", "double").compile();
  // A user transformer counting the root's values events, beside the built-in ones.
  const counter = () => {
    let count = 0;
    return { init: () => ({ rootValues: () => count }), process: (e) => { if (e.method === "values" && e.params.namespace.length === 0) count++; return true; } };
  };
  await t.result("v3 run with a custom transformer", async () => {
    const run = await graph.streamEvents({ n: 1 }, { version: "v3", transformers: [counter] });
    const lifecycleEntries = [];
    for await (const entry of run.lifecycle) lifecycleEntries.push({ event: entry.event ?? entry.status, ns: entry.namespace ?? entry.ns });
    const output = await run.output;
    return { output, rootValues: run.extensions.rootValues(), lifecycle: lifecycleEntries };
  });
}
