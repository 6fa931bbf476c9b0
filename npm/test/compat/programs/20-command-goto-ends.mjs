// Command returned from a node: update state and go to a node in one return, with the possible
// destinations declared by addNode(name, fn, { ends }) (gap 4). Mirrors the docs' "Graph API"
// page ("Combine control flow and state updates with Command").
export const title = "Command({ goto, update }) from nodes, addNode(name, fn, { ends })";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Command, START, END } = lg;

  const State = Annotation.Root({
    foo: Annotation(),
    visited: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const nodeA = (state) => {
    const goto = state.foo === "go-b" ? "nodeB" : "nodeC";
    return new Command({ update: { foo: "a", visited: ["A"] }, goto });
  };
  const graph = new StateGraph(State)
    .addNode("nodeA", nodeA, { ends: ["nodeB", "nodeC"] })
    .addNode("nodeB", () => ({ foo: "b", visited: ["B"] }))
    .addNode("nodeC", () => new Command({ update: { visited: ["C"] }, goto: END }), { ends: [END] })
    .addEdge(START, "nodeA")
    .compile({ checkpointer: new MemorySaver() });

  t.record("goto nodeB", await graph.invoke({ foo: "go-b" }, { configurable: { thread_id: "c1" } }));
  t.record("goto nodeC", await graph.invoke({ foo: "other" }, { configurable: { thread_id: "c2" } }));
  t.record("state after goto nodeC", await graph.getState({ configurable: { thread_id: "c2" } }));
  await t.stream("updates", () => graph.stream({ foo: "go-b" }, { configurable: { thread_id: "c3" }, streamMode: "updates" }));

  // Command as input with goto (jump to a node from outside).
  t.record("invoke(new Command({ goto: 'nodeB', update }))", await graph.invoke(new Command({ goto: "nodeB", update: { foo: "jump" } }), { configurable: { thread_id: "c4" } }));

  // goto a list, and Send inside goto.
  const fan = new StateGraph(State)
    .addNode("start", () => new Command({ goto: ["x", "y"], update: { visited: ["start"] } }), { ends: ["x", "y"] })
    .addNode("x", () => ({ visited: ["x"] }))
    .addNode("y", () => ({ visited: ["y"] }))
    .addEdge(START, "start")
    .compile();
  t.record("goto a list", await fan.invoke({ foo: "" }));
}
