// The v1 runtime context (gap 7): new StateGraph(State, ContextSchema), invoke(input,
// { context }), nodes read runtime.context. Mirrors the docs' "Graph API" page ("Add runtime
// configuration").
import { z } from "zod";

export const title = "runtime context: new StateGraph(State, ContextSchema), invoke(..., { context })";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END } = lg;

  const ContextSchema = z.object({
    llm: z.union([z.literal("openai"), z.literal("anthropic")]),
    userName: z.string(),
  });
  const State = Annotation.Root({
    out: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const graph = new StateGraph(State, ContextSchema)
    .addNode("model", (_state, runtime) => ({ out: [`model=${runtime?.context?.llm}`] }))
    .addNode("greet", (_state, runtime) => ({ out: [`hello ${runtime?.context?.userName}`] }))
    .addEdge(START, "model")
    .addEdge("model", "greet")
    .addEdge("greet", END)
    .compile();

  t.record("context anthropic", await graph.invoke({}, { context: { llm: "anthropic", userName: "Ada" } }));
  t.record("context openai", await graph.invoke({}, { context: { llm: "openai", userName: "Bob" } }));
  await t.stream("stream with context", () => graph.stream({}, { context: { llm: "openai", userName: "Cy" }, streamMode: "updates" }));

  // configurable is still readable the older way.
  const legacy = new StateGraph(State)
    .addNode("n", (_s, config) => ({ out: [`user=${config.configurable?.user_id}`] }))
    .addEdge(START, "n")
    .compile();
  t.record("config.configurable in a node", await legacy.invoke({}, { configurable: { user_id: "u-42" } }));
}
