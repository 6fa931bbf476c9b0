// The order of the updates of tasks that run in the same superstep: LangGraph.js commits each
// task as its promise settles, and a node's promise runs its writers after it returns, so a
// node with an edge to another node (or a conditional edge) reports after a sibling without
// one, whatever the order of the nodes. The docs' case: `Command({ resume, goto: "step3" })`
// runs the resumed `humanFeedback` and `step3` together, and `step3`'s update comes first.
// Mirrors the docs' "How to wait for user input" (resume with `goto`) and "Branching"
// (parallel nodes).
export const title = "updates of parallel tasks in LangGraph.js's settle order; resume with goto";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Command, interrupt, START, END } = lg;

  const State = Annotation.Root({ input: Annotation(), userFeedback: Annotation() });
  const graph = new StateGraph(State)
    .addNode("step1", () => ({}))
    .addNode("humanFeedback", () => ({ userFeedback: interrupt("Please provide feedback:") }))
    .addNode("step3", () => ({}))
    .addEdge(START, "step1")
    .addEdge("step1", "humanFeedback")
    .addEdge("humanFeedback", "step3")
    .addEdge("step3", END)
    .compile({ checkpointer: new MemorySaver() });
  const c = { configurable: { thread_id: "goto" } };
  await t.stream("run", () => graph.stream({ input: "x" }, { ...c, streamMode: "values" }));
  await t.stream("resume with goto", () => graph.stream(new Command({ resume: "r", goto: "step3" }), { ...c, streamMode: ["updates", "values", "tasks"] }));
  await t.history("history", graph, c);

  // Fan-outs: each sibling with edges of its own kind.
  const Log = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const order = async (label, build) => {
    const g = build(new StateGraph(Log).addNode("a", () => ({ log: ["a"] })).addEdge(START, "a")).compile();
    const seen = [];
    for await (const chunk of await g.stream({ log: [] }, { streamMode: "updates" })) seen.push(...Object.keys(chunk));
    t.record(label, seen);
  };
  const node = (name) => () => ({ log: [name] });
  await order("b has an edge, c none", (g) =>
    g.addNode("b", node("b")).addNode("c", node("c")).addNode("d", node("d")).addEdge("a", "b").addEdge("a", "c").addEdge("b", "d"));
  await order("b has a conditional edge, c an edge", (g) =>
    g.addNode("b", node("b")).addNode("c", node("c")).addNode("d", node("d")).addEdge("a", "b").addEdge("a", "c").addConditionalEdges("b", () => "d").addEdge("c", "d"));
  await order("b an edge to END, c none", (g) =>
    g.addNode("b", node("b")).addNode("c", node("c")).addEdge("a", "b").addEdge("a", "c").addEdge("b", END));
  await order("b returns nothing, c an update", (g) =>
    g.addNode("b", () => null).addNode("c", node("c")).addEdge("a", "b").addEdge("a", "c"));
  await order("b a Command with goto, c an update", (g) =>
    g.addNode("b", () => new Command({ goto: "d" }), { ends: ["d"] }).addNode("c", node("c")).addNode("d", node("d")).addEdge("a", "b").addEdge("a", "c"));
  await order("both async, b has an edge", (g) =>
    g.addNode("b", async () => ({ log: ["b"] })).addNode("c", async () => ({ log: ["c"] })).addNode("d", node("d")).addEdge("a", "b").addEdge("a", "c").addEdge("b", "d"));
  await order("three siblings, a join", (g) =>
    g.addNode("b", node("b")).addNode("c", node("c")).addNode("e", node("e")).addNode("d", node("d"))
      .addEdge("a", "b").addEdge("a", "c").addEdge("a", "e").addEdge(["b", "c"], "d"));
}
