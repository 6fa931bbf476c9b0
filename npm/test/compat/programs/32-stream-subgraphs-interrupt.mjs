// Streaming a graph with a checkpointed subgraph that interrupts, with subgraphs: true, and
// resuming while streaming. Mirrors the docs' "Subgraphs" page ("Stream subgraph outputs")
// combined with "Interrupts" (namespaces carry task ids: normalized).
export const title = "stream values/updates with subgraphs: true through an interrupt inside a subgraph, then resume";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Command, interrupt, START, END } = lg;

  const State = Annotation.Root({
    log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const inner = new StateGraph(State)
    .addNode("inner1", () => ({ log: ["inner1"] }))
    .addNode("innerAsk", () => ({ log: [`innerAsk:${interrupt("inner question")}`] }))
    .addEdge(START, "inner1")
    .addEdge("inner1", "innerAsk")
    .compile();
  const graph = new StateGraph(State)
    .addNode("outer1", () => ({ log: ["outer1"] }))
    .addNode("sub", inner)
    .addNode("outer2", () => ({ log: ["outer2"] }))
    .addEdge(START, "outer1")
    .addEdge("outer1", "sub")
    .addEdge("sub", "outer2")
    .addEdge("outer2", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "s1" } };
  await t.stream("run: ['values', 'updates'], subgraphs", () => graph.stream({ log: [] }, { ...config, streamMode: ["values", "updates"], subgraphs: true }));
  await t.stream("resume: updates, subgraphs", () => graph.stream(new Command({ resume: "42" }), { ...config, streamMode: "updates", subgraphs: true }));
  t.record("final state", (await graph.getState(config)).values);
}
