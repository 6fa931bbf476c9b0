// The smallest form of a program: a function of the module that returns what to compare (the
// docs' quickstart graph: one node, one edge, invoke). Also shows that the harness takes
// `(lg) => value` programs as they are.
export const title = "quickstart graph as `(lg) => result`";

export default async function (lg) {
  const { StateGraph, Annotation, START, END } = lg;
  const State = Annotation.Root({ greeting: Annotation() });
  const graph = new StateGraph(State)
    .addNode("greet", (s) => ({ greeting: `${s.greeting}, world` }))
    .addEdge(START, "greet")
    .addEdge("greet", END)
    .compile();
  return graph.invoke({ greeting: "hello" });
}
