// A subgraph with its own memory: compile({ checkpointer: true }) keeps the subgraph's state
// between the parent's invocations on one thread (the docs' "Subgraphs" page, "Add
// persistence": "if you want the subgraph to have its own memory"), compared with the default
// (a fresh subgraph state each call).
export const title = "subgraph compiled with checkpointer: true keeps its own state across parent runs";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;

  const SubState = Annotation.Root({
    notes: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const build = (checkpointer) =>
    new StateGraph(SubState)
      .addNode("remember", (s) => ({ notes: [`note ${s.notes.length + 1}`] }))
      .addEdge(START, "remember")
      .addEdge("remember", END)
      .compile(checkpointer === undefined ? undefined : { checkpointer });

  const ParentState = Annotation.Root({
    notes: Annotation({ reducer: (_a, b) => b, default: () => [] }),
  });
  for (const [label, sub] of [["checkpointer: true", build(true)], ["default", build()]]) {
    const graph = new StateGraph(ParentState)
      .addNode("agent", sub)
      .addEdge(START, "agent")
      .addEdge("agent", END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: label } };
    t.record(`${label}: run 1`, await graph.invoke({ notes: [] }, config));
    t.record(`${label}: run 2`, await graph.invoke({ notes: [] }, config));
    t.record(`${label}: run 3`, await graph.invoke({ notes: [] }, config));
    const s = await graph.getState(config, { subgraphs: true });
    t.record(`${label}: getState({ subgraphs: true })`, { values: s.values, next: s.next, tasks: s.tasks });
  }
}
