// A compiled subgraph as a node, with an interrupt inside; getState({ subgraphs: true }) shows
// the subgraph's state under tasks[].state; resume; the subgraph's own history by namespace.
// Mirrors the docs' "Subgraphs" page ("View subgraph state", "Stream subgraph outputs").
export const title = "subgraph as a node: interrupt inside, getState({ subgraphs: true }), resume";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Command, interrupt, START, END } = lg;

  const SubState = Annotation.Root({
    foo: Annotation(),
    bar: Annotation(),
  });
  const subgraph = new StateGraph(SubState)
    .addNode("subgraphNode1", () => ({ bar: "bar" }))
    .addNode("subgraphNode2", (s) => {
      const value = interrupt("Provide value:");
      return { foo: `${s.foo}|${s.bar}|${value}` };
    })
    .addEdge(START, "subgraphNode1")
    .addEdge("subgraphNode1", "subgraphNode2")
    .compile();

  const ParentState = Annotation.Root({ foo: Annotation() });
  const graph = new StateGraph(ParentState)
    .addNode("node1", (s) => ({ foo: `hi ${s.foo}` }))
    .addNode("node2", subgraph)
    .addEdge(START, "node1")
    .addEdge("node1", "node2")
    .addEdge("node2", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "sub" } };
  t.record("paused", await graph.invoke({ foo: "there" }, config));
  t.record("getState (no subgraphs)", await graph.getState(config));
  const withSub = await graph.getState(config, { subgraphs: true });
  t.record("getState({ subgraphs: true })", withSub);
  const subConfig = withSub.tasks[0]?.state?.config;
  if (subConfig) {
    // (its config carries LangGraph.js internals such as __pregel_checkpointer: not compared)
    const { values, next, tasks, metadata } = await graph.getState(subConfig);
    t.record("getState(subgraph task config)", { values, next, tasks, metadata });
  }
  t.record("resumed", await graph.invoke(new Command({ resume: "value" }), config));
  t.record("getState({ subgraphs: true }) when done", await graph.getState(config, { subgraphs: true }));
  await t.history("parent history", graph, config);
}
