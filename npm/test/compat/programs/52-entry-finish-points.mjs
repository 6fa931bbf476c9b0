// The older edge forms the docs' early examples (and many blog posts) use: `setEntryPoint`
// and `setFinishPoint` on a StateGraph (deprecated aliases of `addEdge(START, key)` and
// `addEdge(key, END)`), with a conditional loop between them, persisted and replayed.
export const title = "StateGraph setEntryPoint / setFinishPoint";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver } = lg;

  const State = Annotation.Root({
    steps: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const graph = new StateGraph(State)
    .addNode("plan", (state) => ({ steps: [`plan ${state.steps.length}`] }))
    .addNode("act", () => ({ steps: ["act"] }))
    .addNode("report", (state) => ({ steps: [`report after ${state.steps.length}`] }))
    .setEntryPoint("plan")
    .addConditionalEdges("plan", (state) => (state.steps.length < 4 ? "act" : "report"))
    .addEdge("act", "plan")
    .setFinishPoint("report")
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "entry-finish" } };
  t.record("result", await graph.invoke({}, config));
  await t.history("history", graph, config);
  t.record("drawing edges", graph.getGraph().edges.map((e) => [e.source, e.target, e.conditional ?? false]));

  // Without an entry point: LangGraph.js's error at compile time.
  await t.result("no entry point", async () => new StateGraph(State).addNode("plan", () => ({})).setFinishPoint("plan").compile());
}
