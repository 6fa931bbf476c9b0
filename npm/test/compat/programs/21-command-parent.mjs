// Navigating to a node of the parent graph from inside a subgraph: Command({ graph:
// Command.PARENT, goto, update }). Mirrors the docs' "Graph API" page ("Navigate to a node in
// a parent graph").
export const title = "Command.PARENT from a subgraph node: goto + update in the parent";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Command, START, END } = lg;

  const State = Annotation.Root({
    foo: Annotation({ reducer: (a, b) => a + b, default: () => "" }),
  });
  const subgraph = new StateGraph(State)
    .addNode("subgraphNodeA", () => {
      const value = Math.random() > -1 ? "b" : "c"; // always "b": deterministic
      return new Command({ update: { foo: "a" }, goto: value === "b" ? "nodeB" : "nodeC", graph: Command.PARENT });
    })
    .addEdge(START, "subgraphNodeA")
    .compile();

  const graph = new StateGraph(State)
    .addNode("subgraph", subgraph, { ends: ["nodeB", "nodeC"] })
    .addNode("nodeB", (s) => ({ foo: `|b saw ${s.foo}` }))
    .addNode("nodeC", () => ({ foo: "|c" }))
    .addEdge(START, "subgraph")
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "parent" } };
  t.record("result", await graph.invoke({ foo: "" }, config));
  await t.stream("updates, subgraphs: true", () =>
    graph.stream({ foo: "" }, { configurable: { thread_id: "parent-2" }, streamMode: "updates", subgraphs: true }),
  );
  await t.history("history", graph, config);
}
