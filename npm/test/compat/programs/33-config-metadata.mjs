// What a run's config contributes: configurable values reach nodes and are recorded in the
// checkpoint metadata as LangGraph.js records them; metadata given in the config; recursionLimit
// via withConfig. Mirrors the docs' "Persistence" page (checkpoint metadata) and "Graph API"
// ("Add runtime configuration", "Recursion limit").
export const title = "configurable and metadata in checkpoint metadata; withConfig({ recursionLimit })";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;

  const State = Annotation.Root({
    seen: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const graph = new StateGraph(State)
    .addNode("read", (_s, config) => ({
      seen: [`user=${config.configurable?.user_id} thread=${config.configurable?.thread_id} ns=${typeof config.configurable?.checkpoint_ns}`],
    }))
    .addNode("loop", (s) => ({ seen: [`loop ${s.seen.length}`] }))
    .addEdge(START, "read")
    .addConditionalEdges("read", () => "loop")
    .addConditionalEdges("loop", (s) => (s.seen.length < 6 ? "loop" : END))
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "cfg", user_id: "u-1" }, metadata: { run_kind: "test" } };
  t.record("result", await graph.invoke({ seen: [] }, config));
  const history = await t.history("history (metadata of every checkpoint)", graph, { configurable: { thread_id: "cfg" } });
  t.record("metadata of the last checkpoint", history[0]?.metadata);

  const limited = graph.withConfig({ recursionLimit: 3 });
  await t.result("withConfig({ recursionLimit: 3 })", () => limited.invoke({ seen: [] }, { configurable: { thread_id: "cfg-2" } }));
}
