// Breakpoints given at run time in the invoke/stream config (interruptBefore / interruptAfter),
// as the docs' "Breakpoints" page shows for setting them dynamically per run (gap 6).
export const title = "run-time breakpoints: interruptBefore / interruptAfter in the invoke config";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;

  const State = Annotation.Root({
    log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const graph = new StateGraph(State)
    .addNode("a", () => ({ log: ["a"] }))
    .addNode("b", () => ({ log: ["b"] }))
    .addNode("c", () => ({ log: ["c"] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "c")
    .addEdge("c", END)
    .compile({ checkpointer: new MemorySaver() });

  const c1 = { configurable: { thread_id: "rt-before" } };
  t.record("invoke with interruptBefore: ['b']", await graph.invoke({ log: [] }, { ...c1, interruptBefore: ["b"] }));
  t.record("next", (await graph.getState(c1)).next);
  t.record("continue without breakpoints", await graph.invoke(null, c1));

  const c2 = { configurable: { thread_id: "rt-after" } };
  await t.stream("stream updates with interruptAfter: ['a']", () =>
    graph.stream({ log: [] }, { ...c2, interruptAfter: ["a"], streamMode: "updates" }),
  );
  t.record("state after the breakpoint", await graph.getState(c2));
  await t.stream("continue with interruptAfter: ['b']", () =>
    graph.stream(null, { ...c2, interruptAfter: ["b"], streamMode: "updates" }),
  );
  t.record("finish", await graph.invoke(null, c2));

  const c3 = { configurable: { thread_id: "rt-all" } };
  t.record("interruptBefore: '*'", await graph.invoke({ log: [] }, { ...c3, interruptBefore: "*" }));
  t.record("next with '*'", (await graph.getState(c3)).next);
}
