// Durability modes of a run (LangGraph.js v1 invoke/stream option `durability`): "sync" and
// "async" keep a checkpoint per step, "exit" only the final one; resuming an interrupted run
// works in each. Mirrors the docs' "Durable execution" page ("Durability modes").
export const title = "durability: 'exit' | 'async' | 'sync' and the history each leaves";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Command, interrupt, START, END } = lg;

  const State = Annotation.Root({
    steps: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const graph = new StateGraph(State)
    .addNode("one", () => ({ steps: ["one"] }))
    .addNode("two", () => ({ steps: ["two"] }))
    .addNode("ask", () => ({ steps: [`ask:${interrupt("go on?")}`] }))
    .addEdge(START, "one")
    .addEdge("one", "two")
    .addEdge("two", "ask")
    .addEdge("ask", END)
    .compile({ checkpointer: new MemorySaver() });

  for (const durability of ["exit", "async", "sync"]) {
    const config = { configurable: { thread_id: durability } };
    t.record(`${durability}: until the interrupt`, await graph.invoke({ steps: [] }, { ...config, durability }));
    t.record(`${durability}: resume`, await graph.invoke(new Command({ resume: "yes" }), { ...config, durability }));
    const history = [];
    for await (const s of graph.getStateHistory(config)) history.push({ step: s.metadata?.step, source: s.metadata?.source, next: s.next, values: s.values });
    t.record(`${durability}: history`, history);
  }
}
