// Static breakpoints set at compile time: interruptBefore / interruptAfter; invoke(null, config)
// continues. Mirrors the docs' "Breakpoints" page. LangGraph.js's invoke at a static breakpoint
// returns the state with `__interrupt__: []` (gap 6).
export const title = "static breakpoints at compile: interruptBefore / interruptAfter, continue with invoke(null)";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;

  const State = Annotation.Root({
    input: Annotation(),
    log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const build = () =>
    new StateGraph(State)
      .addNode("step1", () => ({ log: ["step1"] }))
      .addNode("step2", () => ({ log: ["step2"] }))
      .addNode("step3", () => ({ log: ["step3"] }))
      .addEdge(START, "step1")
      .addEdge("step1", "step2")
      .addEdge("step2", "step3")
      .addEdge("step3", END);

  const before = build().compile({ checkpointer: new MemorySaver(), interruptBefore: ["step2"] });
  const c1 = { configurable: { thread_id: "before" } };
  t.record("interruptBefore: first invoke", await before.invoke({ input: "hi" }, c1));
  t.record("interruptBefore: getState", await before.getState(c1));
  t.record("interruptBefore: continue", await before.invoke(null, c1));
  t.record("interruptBefore: getState at end", await before.getState(c1));

  const after = build().compile({ checkpointer: new MemorySaver(), interruptAfter: ["step1", "step2"] });
  const c2 = { configurable: { thread_id: "after" } };
  await t.stream("interruptAfter: stream values", () => after.stream({ input: "hi" }, { ...c2, streamMode: "values" }));
  t.record("interruptAfter: next", (await after.getState(c2)).next);
  t.record("interruptAfter: continue once", await after.invoke(null, c2));
  t.record("interruptAfter: continue again", await after.invoke(null, c2));
  await t.history("interruptAfter: history", after, c2);
}
