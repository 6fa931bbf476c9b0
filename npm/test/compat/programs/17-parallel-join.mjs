// Parallel fan-out and a join: START -> a -> (b, c) -> d, and a "wait for both" edge
// addEdge(["b", "c"], "d"). Mirrors the docs' "Graph API" page ("Create branches").
export const title = "parallel fan-out and join (addEdge([b, c], d)), reducer order, history";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;

  const State = Annotation.Root({
    aggregate: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const node = (name) => (state) => {
    return { aggregate: [`I'm ${name} (saw ${state.aggregate.length})`] };
  };
  const graph = new StateGraph(State)
    .addNode("a", node("A"))
    .addNode("b", node("B"))
    .addNode("c", node("C"))
    .addNode("b2", node("B2"))
    .addNode("d", node("D"))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("a", "c")
    .addEdge("b", "b2")
    .addEdge(["b2", "c"], "d")
    .addEdge("d", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "join" } };
  t.record("result", await graph.invoke({ aggregate: [] }, config));
  await t.stream("updates", () => graph.stream({ aggregate: [] }, { configurable: { thread_id: "join-2" }, streamMode: "updates" }));
  await t.history("history", graph, config);

  // Conditional fan-out returning a list of nodes.
  const routed = new StateGraph(State)
    .addNode("a", node("A"))
    .addNode("b", node("B"))
    .addNode("c", node("C"))
    .addNode("e", node("E"))
    .addEdge(START, "a")
    .addConditionalEdges("a", () => ["b", "c"], ["b", "c", "e"])
    .addEdge("b", "e")
    .addEdge("c", "e")
    .addEdge("e", END)
    .compile();
  t.record("conditional fan-out", await routed.invoke({ aggregate: [] }));
}
