// Defaults: a channel's `default` is visible from the first checkpoint, to nodes, routers,
// results and history (gap 2). Mirrors the docs' "Define graph state" page: Annotation with
// `default`, a node reading `state.items.length` when the input left `items` out.
export const title = "Annotation.Root defaults in the first checkpoint, nodes, routers, results, history";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;

  const State = Annotation.Root({
    question: Annotation(),
    items: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    count: Annotation({ reducer: (a, b) => a + b, default: () => 0 }),
    mode: Annotation({ reducer: (_a, b) => b, default: () => "draft" }),
  });

  const seen = [];
  const graph = new StateGraph(State)
    .addNode("collect", (state) => {
      seen.push({ node: "collect", items: state.items.length, count: state.count, mode: state.mode });
      return { items: [`item${state.items.length}`], count: 1 };
    })
    .addNode("finish", (state) => {
      seen.push({ node: "finish", items: state.items.length, count: state.count, mode: state.mode });
      return { mode: "final" };
    })
    .addEdge(START, "collect")
    .addConditionalEdges("collect", (state) => (state.items.length < 3 ? "collect" : "finish"))
    .addEdge("finish", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "defaults" } };
  t.record("result", await graph.invoke({ question: "q" }, config));
  t.record("what nodes saw", seen);
  const history = await t.history("history (values of every checkpoint)", graph, config);
  t.record("oldest checkpoint (input) values", history.at(-1)?.values);

  // No checkpointer: defaults still reach the result.
  const plain = new StateGraph(State)
    .addNode("only", (state) => ({ count: state.count + 10 }))
    .addEdge(START, "only")
    .compile();
  t.record("without a checkpointer", await plain.invoke({}));
}
