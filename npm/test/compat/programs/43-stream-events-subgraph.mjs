// streamEvents v2 with a subgraph node: the node's run, the subgraph's run (under its
// compile name) nested in it, and the subgraph's tasks nested in that. Mirrors the docs'
// "Streaming" concepts page (".streamEvents") and the "Subgraphs" page.
export const title = "streamEvents v2 with a compiled subgraph as a node";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END, MemorySaver } = lg;
  const State = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const inner = new StateGraph(State)
    .addNode("lookup", (state) => ({ log: [`looked up ${state.log.length}`] }))
    .addNode("summarize", () => ({ log: ["summary"] }))
    .addEdge(START, "lookup")
    .addEdge("lookup", "summarize")
    .addEdge("summarize", END)
    .compile({ name: "researcher" });
  const graph = new StateGraph(State)
    .addNode("plan", () => ({ log: ["plan"] }))
    .addNode("research", inner)
    .addNode("report", (state) => ({ log: [`report of ${state.log.length}`] }))
    .addEdge(START, "plan")
    .addEdge("plan", "research")
    .addEdge("research", "report")
    .addEdge("report", END)
    .compile({ checkpointer: new MemorySaver() });
  await t.stream("events", () => graph.streamEvents({ log: ["ask"] }, { configurable: { thread_id: "sub" }, version: "v2" }));
  await t.stream("events of the subgraph's runs only", () =>
    graph.streamEvents({ log: ["ask"] }, { configurable: { thread_id: "sub2" }, version: "v2" }, { includeNames: ["researcher", "lookup", "summarize"] }),
  );
}
