// Persistence: a checkpointer keeps a thread's state between invocations.
// Mirrors the docs' "Persistence" page (threads, checkpoints, getState): Annotation.Root with a
// reducer and a default, MemorySaver, two invokes on one thread, getState's full snapshot.
export const title = "persistence: threads, getState snapshot (values, next, config, metadata, createdAt, parentConfig, tasks)";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;

  const State = Annotation.Root({
    foo: Annotation(),
    bar: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });

  const workflow = new StateGraph(State)
    .addNode("nodeA", () => ({ foo: "a", bar: ["a"] }))
    .addNode("nodeB", () => ({ foo: "b", bar: ["b"] }))
    .addEdge(START, "nodeA")
    .addEdge("nodeA", "nodeB")
    .addEdge("nodeB", END);

  const checkpointer = new MemorySaver();
  const graph = workflow.compile({ checkpointer });
  const config = { configurable: { thread_id: "1" } };

  t.record("first invoke", await graph.invoke({ foo: "" }, config));
  t.record("getState after first invoke", await graph.getState(config));
  t.record("second invoke (same thread)", await graph.invoke({ foo: "again" }, config));
  t.record("getState after second invoke", await graph.getState(config));
  t.record("other thread starts empty", await graph.getState({ configurable: { thread_id: "2" } }));
  t.record("invoke on another thread", await graph.invoke({ foo: "x" }, { configurable: { thread_id: "2" } }));
}
