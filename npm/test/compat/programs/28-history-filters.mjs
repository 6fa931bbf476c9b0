// getStateHistory options: limit, before, filter (on metadata). Mirrors the docs'
// "Persistence" page ("Get state history").
export const title = "getStateHistory limit / before / filter";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;

  const State = Annotation.Root({
    n: Annotation({ reducer: (a, b) => a + b, default: () => 0 }),
  });
  const graph = new StateGraph(State)
    .addNode("inc1", () => ({ n: 1 }))
    .addNode("inc2", () => ({ n: 10 }))
    .addNode("inc3", () => ({ n: 100 }))
    .addEdge(START, "inc1")
    .addEdge("inc1", "inc2")
    .addEdge("inc2", "inc3")
    .addEdge("inc3", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "h" } };
  await graph.invoke({ n: 0 }, config);
  await graph.updateState(config, { n: 1000 });
  const all = await t.history("all", graph, config);
  await t.history("limit 2", graph, config, { limit: 2 });
  await t.history("before the third", graph, config, { before: all[2].config });
  await t.history("before the third, limit 1", graph, config, { before: all[2].config, limit: 1 });
  await t.history("filter source=loop", graph, config, { filter: { source: "loop" } });
  await t.history("filter step=2", graph, config, { filter: { step: 2 } });
  await t.history("filter source=update", graph, config, { filter: { source: "update" } });
  await t.history("filter no match", graph, config, { filter: { source: "nope" } });
  await t.history("unknown thread", graph, { configurable: { thread_id: "none" } });
}
