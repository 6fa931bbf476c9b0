// Several stream modes at once ([mode, chunk] pairs) and subgraphs: true ([namespace, chunk]
// or [namespace, mode, chunk]). Mirrors the docs' "Streaming" page ("Stream multiple modes",
// "Stream subgraph outputs").
export const title = "multiple stream modes; subgraphs: true namespaces";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END } = lg;

  const SubState = Annotation.Root({
    foo: Annotation(),
    bar: Annotation(),
  });
  const subgraph = new StateGraph(SubState)
    .addNode("subgraphNode1", () => ({ bar: "bar" }))
    .addNode("subgraphNode2", (s) => ({ foo: s.foo + s.bar }))
    .addEdge(START, "subgraphNode1")
    .addEdge("subgraphNode1", "subgraphNode2")
    .compile();

  const ParentState = Annotation.Root({ foo: Annotation() });
  const graph = new StateGraph(ParentState)
    .addNode("node1", (s) => ({ foo: "hi! " + s.foo }))
    .addNode("node2", subgraph)
    .addEdge(START, "node1")
    .addEdge("node1", "node2")
    .addEdge("node2", END)
    .compile();

  await t.stream("['values', 'updates']", () => graph.stream({ foo: "foo" }, { streamMode: ["values", "updates"] }));
  await t.stream("updates, subgraphs: true", () => graph.stream({ foo: "foo" }, { streamMode: "updates", subgraphs: true }));
  await t.stream("['updates', 'values'], subgraphs: true", () =>
    graph.stream({ foo: "foo" }, { streamMode: ["updates", "values"], subgraphs: true }),
  );
  await t.stream("updates without subgraphs", () => graph.stream({ foo: "foo" }, { streamMode: "updates" }));
}
