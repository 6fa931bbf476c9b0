// Human-in-the-loop (LangGraph.js docs: "Interrupts" > "Resume using the Command primitive"),
// used out of order: a `Command({ resume })` sent to a thread that is not paused, then a run
// that reaches `interrupt()`. What does the thread keep, and what does `interrupt()` return?
export const title = "Command({ resume }) sent when nothing is paused, then an interrupt";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Command, interrupt, START, END } = lg;
  const State = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const graph = new StateGraph(State)
    .addNode("plan", () => ({ log: ["plan"] }))
    .addNode("review", () => {
      const answer = interrupt("approve?");
      return { log: [`review:${JSON.stringify(answer)}`] };
    })
    .addEdge(START, "plan")
    .addEdge("plan", "review")
    .addEdge("review", END)
    .compile({ checkpointer: new MemorySaver() });

  // On a fresh thread: nothing was ever paused.
  const fresh = { configurable: { thread_id: "fresh" } };
  await t.result("resume on a fresh thread", () => graph.invoke(new Command({ resume: "early" }), fresh));
  t.record("fresh thread's state", await graph.getState(fresh));
  await t.history("fresh thread's history", graph, fresh);

  // On a finished thread: a run ended, then a resume arrives.
  const done = { configurable: { thread_id: "done" } };
  await t.result("first run pauses", () => graph.invoke({ log: ["start"] }, done));
  await t.result("resume it", () => graph.invoke(new Command({ resume: "yes" }), done));
  await t.result("resume again when finished", () => graph.invoke(new Command({ resume: "late" }), done));
  t.record("finished thread's state", await graph.getState(done));
  await t.result("a new input after the late resume", () => graph.invoke({ log: ["again"] }, done));
  t.record("state after the new input", await graph.getState(done));
  await t.history("finished thread's history", graph, done);

  // Stopped by interruptBefore (a breakpoint, not an interrupt()): the resume value is
  // sent before review runs, and review's interrupt() comes after it.
  const stopped = new StateGraph(State)
    .addNode("plan", () => ({ log: ["plan"] }))
    .addNode("review", () => ({ log: [`review:${JSON.stringify(interrupt("approve?"))}`] }))
    .addEdge(START, "plan")
    .addEdge("plan", "review")
    .addEdge("review", END)
    .compile({ checkpointer: new MemorySaver(), interruptBefore: ["review"] });
  const bp = { configurable: { thread_id: "bp" } };
  await t.result("run to the breakpoint", () => stopped.invoke({ log: ["start"] }, bp));
  await t.result("resume at the breakpoint", () => stopped.invoke(new Command({ resume: "at-breakpoint" }), bp));
  t.record("state after resuming a breakpoint", await stopped.getState(bp));
  await t.result("continue with null", () => stopped.invoke(null, bp));
  await t.history("breakpoint thread's history", stopped, bp);
}
