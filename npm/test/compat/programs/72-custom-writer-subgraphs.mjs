// streamMode "custom" from the nodes of subgraphs: a chunk a subgraph's node writes with
// `config.writer` comes in the namespace of the subgraph (`["sub:<task id>"]`, nested levels
// joined), as LangGraph.js's writer reports it, with `subgraphs: true`; and `config.writer` is
// there (and writes nothing) in a run that does not stream "custom". Mirrors the docs'
// "Streaming" page ("Stream custom data", "Stream subgraph outputs").
export const title = "custom chunks of subgraph nodes carry the subgraph's namespace";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END } = lg;

  const State = Annotation.Root({ n: Annotation({ reducer: (a, b) => a + b, default: () => 0 }) });
  const deepest = new StateGraph(State)
    .addNode("d1", (_s, config) => {
      config.writer({ from: "d1", depth: 2 });
      return { n: 100 };
    })
    .addEdge(START, "d1")
    .compile();
  const sub = new StateGraph(State)
    .addNode("s1", (_s, config) => {
      config.writer({ progress: "sub 50%" });
      config.writer("plain string");
      return { n: 1 };
    })
    .addNode("deep", deepest)
    .addEdge(START, "s1")
    .addEdge("s1", "deep")
    .addEdge("deep", END)
    .compile();
  const graph = new StateGraph(State)
    .addNode("p1", (_s, config) => {
      config.writer({ custom: 1 });
      return { n: 10 };
    })
    .addNode("sub", sub)
    .addEdge(START, "p1")
    .addEdge("p1", "sub")
    .addEdge("sub", END)
    .compile();

  await t.stream("custom", () => graph.stream({ n: 0 }, { streamMode: "custom" }));
  await t.stream("custom, subgraphs", () => graph.stream({ n: 0 }, { streamMode: "custom", subgraphs: true }));
  await t.stream("custom + updates, subgraphs", () => graph.stream({ n: 0 }, { streamMode: ["custom", "updates"], subgraphs: true }));
  // Not streaming "custom": the writer is a function that writes nothing.
  await t.stream("updates only, subgraphs", () => graph.stream({ n: 0 }, { streamMode: "updates", subgraphs: true }));
  t.record("invoke", await graph.invoke({ n: 0 }));
}
