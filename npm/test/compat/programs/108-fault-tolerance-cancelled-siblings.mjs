// Fault tolerance with parallel nodes (LangGraph.js docs: "Persistence" > "Pending writes",
// "How to add node retry policies" with a failing and a slow node): one node of a superstep fails
// while its sibling is still running, then while its sibling has already finished. LangGraph.js
// aborts the running sibling (its `tasks[i].error` is the aborted signal's "This operation was
// aborted" AbortError, and its writes are not kept: it runs again on resume); a sibling that had
// finished keeps its writes and has no error. Each thread is then resumed with invoke(null).
export const title = "a failed node's running sibling is aborted (AbortError in tasks[].error); a finished one is kept";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;
  const State = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  for (const sibling of ["running", "finished"]) {
    let broken = true;
    const calls = { fail: 0, sibling: 0, join: 0 };
    const signals = [];
    const graph = new StateGraph(State)
      .addNode("fail", async () => {
        calls.fail++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (broken) throw new Error("service unavailable");
        return { log: ["fail fixed"] };
      })
      .addNode("sibling", async (_state, config) => {
        calls.sibling++;
        // Running: still waiting when "fail" throws; finished: done well before.
        await new Promise((resolve) => setTimeout(resolve, sibling === "running" && broken ? 150 : 0));
        signals.push(config.signal?.aborted ?? "no signal");
        return { log: ["sibling"] };
      })
      .addNode("join", (s) => {
        calls.join++;
        return { log: [`join(${s.log.join(",")})`] };
      })
      .addEdge(START, "fail")
      .addEdge(START, "sibling")
      .addEdge(["fail", "sibling"], "join")
      .addEdge("join", END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: `ft-${sibling}` } };
    await t.result(`${sibling}: the run fails`, () => graph.invoke({ log: ["start"] }, config));
    // The running sibling's own function goes on after the abort: wait for it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    t.record(`${sibling}: signal seen by the sibling`, signals.splice(0));
    const failed = await graph.getState(config);
    t.record(`${sibling}: state after the failure`, failed);
    t.record(`${sibling}: tasks[].error`, failed.tasks.map((task) => [task.name, task.error ?? null, task.error?.constructor?.name ?? null]));
    broken = false;
    await t.result(`${sibling}: resume with invoke(null)`, () => graph.invoke(null, config));
    t.record(`${sibling}: calls`, calls);
    await t.history(`${sibling}: history`, graph, config);
  }
}
