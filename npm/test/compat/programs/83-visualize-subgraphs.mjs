// Drawing graphs with subgraphs, as the docs' "Visualize your graph" and "Use subgraphs" pages do:
// `getGraph()` draws a subgraph as one node, `getGraph({ xray: true })` draws it inside (a number
// of levels with `xray: 1`), `getGraphAsync({ xray })` the same; `getSubgraphs` /
// `getSubgraphsAsync` (a namespace, `recurse`); a compiled graph's `name`.
export const title = "getGraph with subgraphs (xray), getSubgraphs";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END } = lg;
  const State = Annotation.Root({ topic: Annotation(), notes: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });

  const leaf = new StateGraph(State)
    .addNode("fetch", () => ({ notes: ["fetched"] }))
    .addNode("parse", () => ({ notes: ["parsed"] }))
    .addEdge(START, "fetch")
    .addEdge("fetch", "parse")
    .compile({ name: "leaf" });
  const research = new StateGraph(State)
    .addNode("plan", () => ({ notes: ["planned"] }))
    .addNode("gather", leaf)
    .addNode("summarize", () => ({ notes: ["summed"] }))
    .addEdge(START, "plan")
    .addConditionalEdges("plan", (s) => (s.topic ? "gather" : "summarize"), ["gather", "summarize"])
    .addEdge("gather", "summarize")
    .compile({ name: "research" });
  const graph = new StateGraph(State)
    .addNode("intake", () => ({ notes: ["in"] }))
    .addNode("research", research)
    .addNode("check", () => ({ notes: ["checked"] }))
    .addNode("write", () => ({ notes: ["written"] }))
    .addEdge(START, "intake")
    .addEdge("intake", "research")
    .addEdge("research", "check")
    .addEdge("check", "write")
    .addEdge("write", END)
    .compile({ name: "writer" });

  t.record("names", [graph.name, research.name, leaf.name, graph.getName(), research.getName("!")]);
  t.record("drawn flat", graph.getGraph().drawMermaid());
  t.record("flat json", graph.getGraph().toJSON());
  const xray = graph.getGraph({ xray: true });
  t.record("xray nodes", Object.keys(xray.nodes));
  t.record("xray edges", xray.edges);
  t.record("xray mermaid", xray.drawMermaid());
  t.record("xray json", xray.toJSON());
  t.record("xray one level", graph.getGraph({ xray: 1 }).drawMermaid());
  t.record("xray async", (await graph.getGraphAsync({ xray: true })).drawMermaid());

  const subgraphs = (it) => [...it].map(([name, g]) => [name, g.name ?? null]);
  t.record("getSubgraphs", subgraphs(graph.getSubgraphs()));
  t.record("getSubgraphs recurse", subgraphs(graph.getSubgraphs(undefined, true)));
  t.record("getSubgraphs namespace", subgraphs(graph.getSubgraphs("research")));
  t.record("getSubgraphs nested namespace", subgraphs(graph.getSubgraphs("research|gather", true)));
  t.record("getSubgraphs unknown namespace", subgraphs(graph.getSubgraphs("nothing")));
  const async = [];
  for await (const [name, g] of graph.getSubgraphsAsync(undefined, true)) async.push([name, g.name ?? null]);
  t.record("getSubgraphsAsync", async);
  t.record("a subgraph's own drawing", leaf.getGraph().drawMermaid());
}
