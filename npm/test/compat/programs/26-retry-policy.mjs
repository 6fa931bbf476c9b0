// retryPolicy on addNode (gap 7): a flaky node succeeds on its third attempt; with fewer
// attempts the error reaches the caller; retryOn decides which errors are retried. Mirrors the
// docs' "Graph API" page ("Add retry policies").
export const title = "retryPolicy: maxAttempts, retryOn, the error after the last attempt";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;

  const State = Annotation.Root({
    attempts: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const makeGraph = (retryPolicy, failures, errorName = "Error") => {
    let calls = 0;
    const graph = new StateGraph(State)
      .addNode(
        "flaky",
        () => {
          calls += 1;
          if (calls <= failures) {
            const err = new Error(`transient failure ${calls}`);
            err.name = errorName;
            throw err;
          }
          return { attempts: [`succeeded on call ${calls}`] };
        },
        { retryPolicy },
      )
      .addEdge(START, "flaky")
      .addEdge("flaky", END)
      .compile({ checkpointer: new MemorySaver() });
    return { graph, calls: () => calls };
  };
  const fast = { initialInterval: 1, backoffFactor: 1, jitter: false };

  const ok = makeGraph({ ...fast, maxAttempts: 3 }, 2);
  t.record("succeeds on the third attempt", await ok.graph.invoke({}, { configurable: { thread_id: "r1" } }));
  t.record("calls", ok.calls());

  const fails = makeGraph({ ...fast, maxAttempts: 2 }, 5);
  await t.result("fails after maxAttempts 2", () => fails.graph.invoke({}, { configurable: { thread_id: "r2" } }));
  t.record("calls (maxAttempts 2)", fails.calls());
  const state = await fails.graph.getState({ configurable: { thread_id: "r2" } });
  t.record("state after the failure: next", state.next);
  t.record("state after the failure: tasks", state.tasks);

  const selective = makeGraph({ ...fast, maxAttempts: 5, retryOn: (e) => e.name !== "FatalError" }, 5, "FatalError");
  await t.result("retryOn refuses FatalError", () => selective.graph.invoke({}, { configurable: { thread_id: "r3" } }));
  t.record("calls (retryOn false)", selective.calls());
}
