// A subgraph called as a function inside a node (the docs' "Subgraphs" page, "Invoke a graph
// from a node"), with an interrupt inside: the parent pauses, and the resume value reaches the
// nested interrupt() (gap 6).
export const title = "subgraph invoked inside a node, with interrupt(): pause and resume through the parent";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Command, interrupt, START, END } = lg;

  const SubState = Annotation.Root({
    bar: Annotation(),
    answer: Annotation(),
  });
  const subCalls = [];
  const subgraph = new StateGraph(SubState)
    .addNode("prepare", (s) => { subCalls.push("prepare"); return { bar: `${s.bar}!` }; })
    .addNode("ask", (s) => { subCalls.push("ask"); return { answer: `${s.bar} -> ${interrupt(`confirm ${s.bar}?`)}` }; })
    .addEdge(START, "prepare")
    .addEdge("prepare", "ask")
    .addEdge("ask", END)
    .compile();

  const State = Annotation.Root({
    foo: Annotation(),
    result: Annotation(),
  });
  const graph = new StateGraph(State)
    .addNode("callSubgraph", async (state) => {
      // Transform the state to the subgraph state, and back.
      const out = await subgraph.invoke({ bar: state.foo });
      return { result: out.answer };
    })
    .addNode("after", (s) => ({ foo: `${s.foo} (done)` }))
    .addEdge(START, "callSubgraph")
    .addEdge("callSubgraph", "after")
    .addEdge("after", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "fn-sub" } };
  t.record("paused", await graph.invoke({ foo: "hello" }, config));
  t.record("getState while paused", await graph.getState(config));
  t.record("resumed", await graph.invoke(new Command({ resume: "yes" }), config));
  t.record("subgraph node calls", subCalls);
}
