// Drawing a graph, as the docs' "Visualize your graph" page (and nearly every how-to) does:
// `graph.getGraph().drawMermaid()`, the drawable graph's nodes, edges and JSON. Conditional edges
// with a path map (object and array) and without one, `Command` destinations (`ends`), a join,
// node metadata, breakpoints (drawn as node metadata), a node named "subgraph" (escaped for
// Mermaid), edges added in an order the drawing sorts, and the implicit edges to END.
export const title = "getGraph / getGraphAsync / drawMermaid / toJSON";

export default async function (lg, t) {
  const { Annotation, StateGraph, Command, START, END } = lg;
  const State = Annotation.Root({ route: Annotation(), log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });

  const graph = new StateGraph(State)
    .addNode("classify", () => ({ log: ["classify"] }), { metadata: { kind: "llm", retries: 2 } })
    .addNode("billing", () => ({ log: ["billing"] }))
    .addNode("support", () => ({ log: ["support"] }))
    .addNode("subgraph", () => ({ log: ["escaped"] }))
    .addNode("escalate", () => new Command({ goto: "review" }), { ends: ["review", END] })
    .addNode("review", () => ({ log: ["review"] }))
    .addNode("left", () => ({ log: ["left"] }))
    .addNode("right", () => ({ log: ["right"] }))
    .addNode("merge", () => ({ log: ["merge"] }))
    .addNode("done", () => ({}))
    .addEdge(START, "classify")
    .addConditionalEdges("classify", (s) => s.route, { money: "billing", help: "support", other: "subgraph", angry: "escalate" })
    .addConditionalEdges("support", (s) => (s.route === "fork" ? "left" : "done"), ["left", "done"])
    .addEdge("billing", "right")
    .addEdge("subgraph", "left")
    .addEdge(["left", "right"], "merge")
    .addConditionalEdges("merge", () => END)
    .addEdge("review", "done")
    .compile({ interruptBefore: ["review"], interruptAfter: ["review", "billing"] });

  const drawn = graph.getGraph();
  t.record("nodes", Object.keys(drawn.nodes));
  t.record("node names", Object.values(drawn.nodes).map((n) => [n.id, n.name, n.metadata ?? null]));
  t.record("edges", drawn.edges);
  t.record("json", drawn.toJSON());
  t.record("mermaid", drawn.drawMermaid());
  t.record("mermaid without styles", drawn.drawMermaid({ withStyles: false }));
  t.record("mermaid basis curve, wrapped labels", drawn.drawMermaid({ curveStyle: "basis", wrapLabelNWords: 2 }));
  const drawnAsync = await graph.getGraphAsync();
  t.record("async draws the same", drawnAsync.drawMermaid() === drawn.drawMermaid());
  t.record("a node's data", { name: drawn.nodes.classify.data.getName(), id: drawn.nodes.classify.data.lc_id });

  // The simplest graphs of the quickstarts.
  const chain = new StateGraph(State).addNode("only", () => ({})).addEdge(START, "only").compile();
  t.record("one node", chain.getGraph().drawMermaid());
  const open = new StateGraph(State)
    .addNode("a", () => ({}))
    .addNode("b", () => ({}))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .compile({ interruptBefore: "*" });
  t.record("implicit end, breakpoints on every node", open.getGraph().drawMermaid());
  const anywhere = new StateGraph(State)
    .addNode("router", () => ({}))
    .addNode("x", () => ({}))
    .addNode("y", () => ({}))
    .addEdge(START, "router")
    .addConditionalEdges("router", () => "x")
    .compile();
  t.record("a conditional edge without a path map may go anywhere", anywhere.getGraph().toJSON());
}
