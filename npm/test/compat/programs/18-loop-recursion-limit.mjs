// Loops and the recursion limit: a loop ends by a condition; with a low recursionLimit it
// stops with GraphRecursionError (name, message, lc_error_code). Mirrors the docs' "Graph API"
// page ("Create and control loops", "Impose a recursion limit").
export const title = "loops; recursionLimit -> GraphRecursionError (message, lc_error_code)";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END, GraphRecursionError } = lg;

  const State = Annotation.Root({
    aggregate: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const route = (state) => (state.aggregate.length < 7 ? "b" : END);
  const graph = new StateGraph(State)
    .addNode("a", () => ({ aggregate: ["A"] }))
    .addNode("b", () => ({ aggregate: ["B"] }))
    .addEdge(START, "a")
    .addConditionalEdges("a", route)
    .addEdge("b", "a")
    .compile({ checkpointer: new MemorySaver() });

  t.record("loop ends by itself", await graph.invoke({ aggregate: [] }, { configurable: { thread_id: "l1" } }));
  const config = { configurable: { thread_id: "l2" }, recursionLimit: 4 };
  await t.result("recursionLimit 4", () => graph.invoke({ aggregate: [] }, config));
  try {
    await graph.invoke({ aggregate: [] }, { configurable: { thread_id: "l3" }, recursionLimit: 4 });
  } catch (err) {
    t.record("instanceof GraphRecursionError", err instanceof GraphRecursionError);
  }
  t.record("state left by the recursion error", await graph.getState({ configurable: { thread_id: "l2" } }));
  await t.stream("stream with recursionLimit 3", () => graph.stream({ aggregate: [] }, { configurable: { thread_id: "l4" }, recursionLimit: 3 }));
}
