// Errors a user meets, with LangGraph.js's names, messages and lc_error_code (gap 8): an edge to
// an unknown node, an invalid update (two writes to a single-value channel in one step, a node
// returning a non-object), interrupt() without a checkpointer ("No checkpointer set", gap 6),
// getState without a checkpointer, empty input. Mirrors the docs' "Troubleshooting" /
// error reference pages (INVALID_CONCURRENT_GRAPH_UPDATE, INVALID_GRAPH_NODE_RETURN_VALUE, ...).
export const title = "errors: unknown node, invalid updates, interrupt without checkpointer, getState without checkpointer";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END, interrupt, MemorySaver } = lg;

  const State = Annotation.Root({
    value: Annotation(),
    list: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });

  await t.result("edge to an unknown node (compile)", async () =>
    new StateGraph(State).addNode("a", () => ({})).addEdge(START, "a").addEdge("a", "missing").compile(),
  );
  await t.result("edge from an unknown node (compile)", async () =>
    new StateGraph(State).addNode("a", () => ({})).addEdge(START, "a").addEdge("ghost", "a").compile(),
  );
  await t.result("no entry point (compile)", async () => new StateGraph(State).addNode("a", () => ({})).compile());
  await t.result("duplicate node name", async () => new StateGraph(State).addNode("a", () => ({})).addNode("a", () => ({})));
  await t.result("reserved node name __start__", async () => new StateGraph(State).addNode("__start__", () => ({})));

  const concurrent = new StateGraph(State)
    .addNode("x", () => ({ value: "x" }))
    .addNode("y", () => ({ value: "y" }))
    .addEdge(START, "x")
    .addEdge(START, "y")
    .compile();
  await t.result("two writes to a LastValue channel in one step", () => concurrent.invoke({ value: "" }));

  const badReturn = new StateGraph(State).addNode("bad", () => "not an object").addEdge(START, "bad").compile();
  await t.result("a node returns a string", () => badReturn.invoke({ value: "" }));

  const noSaver = new StateGraph(State)
    .addNode("ask", () => ({ value: interrupt("question") }))
    .addEdge(START, "ask")
    .addEdge("ask", END)
    .compile();
  await t.result("interrupt() without a checkpointer", () => noSaver.invoke({ value: "" }));
  await t.result("getState without a checkpointer", () => noSaver.getState({ configurable: { thread_id: "1" } }));

  const withSaver = new StateGraph(State).addNode("a", () => ({ list: ["a"] })).addEdge(START, "a").compile({ checkpointer: new MemorySaver() });
  await t.result("invoke without a thread_id on a checkpointed graph", () => withSaver.invoke({ value: "" }));
  await t.result("node throws a custom error", () =>
    new StateGraph(State)
      .addNode("boom", () => { throw new TypeError("bad input type"); })
      .addEdge(START, "boom")
      .compile()
      .invoke({ value: "" }),
  );
}
