// Fault tolerance: a node throws; the error reaches the caller; the checkpoint keeps the writes
// of the parallel node that succeeded (it does not run again) and tasks[].error; invoke(null)
// after the cause is fixed resumes. Mirrors the docs' "Persistence" page ("Fault tolerance",
// "Pending writes").
export const title = "resume after a node throws; pending writes kept; tasks[].error";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;

  const State = Annotation.Root({
    log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  let broken = true;
  const calls = { ok: 0, flaky: 0, join: 0 };
  const graph = new StateGraph(State)
    .addNode("ok", () => { calls.ok++; return { log: ["ok"] }; })
    .addNode("flaky", async () => {
      calls.flaky++;
      // (fails after "ok" has finished: when a node throws synchronously in the same tick,
      // LangGraph.js 1.7.3 also marks the finished sibling with an AbortError and the join
      // never runs on resume; that race is not what this program is about)
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (broken) throw new Error("service unavailable");
      return { log: ["flaky"] };
    })
    .addNode("join", (s) => { calls.join++; return { log: [`join(${s.log.join(",")})`] }; })
    .addEdge(START, "ok")
    .addEdge(START, "flaky")
    .addEdge(["ok", "flaky"], "join")
    .addEdge("join", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "ft" } };
  await t.result("first run fails", () => graph.invoke({ log: ["start"] }, config));
  const failed = await graph.getState(config);
  t.record("state after the failure", failed);
  t.record("tasks[].error", failed.tasks.map((task) => task.error));
  broken = false;
  t.record("resume with invoke(null)", await graph.invoke(null, config));
  t.record("calls", calls);
  await t.history("history", graph, config);
}
