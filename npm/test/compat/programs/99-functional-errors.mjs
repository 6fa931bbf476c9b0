// Errors of the functional API (LangGraph.js docs: "Functional API"; LangGraph.js's texts): a task
// called outside a running graph, a task that throws (the run fails with its error, even when the
// entrypoint catches it), generators refused as tasks and entrypoints, interrupt() in an
// entrypoint without a checkpointer, and a failed run resumed: the task that finished is not run again.
export const title = "functional API errors: task outside a graph, failing task, generators, no checkpointer";

export default async function (lg, t) {
  const { entrypoint, task, interrupt, MemorySaver } = lg;
  const ok = task("ok", (x) => x);
  await t.result("task called outside a graph", async () => ok(1));
  let fail = true;
  let calls = 0;
  const counted = task("counted", (x) => {
    calls++;
    return x + 1;
  });
  const flaky = task("flaky", (x) => {
    if (fail) throw new Error(`flaky failed on ${x}`);
    return x;
  });
  const wf = entrypoint({ checkpointer: new MemorySaver(), name: "wf" }, async (x) => {
    const a = await counted(x);
    return { a, b: await flaky(a) };
  });
  const config = { configurable: { thread_id: "fn-99" } };
  await t.stream("a task that throws", () => wf.stream(1, config));
  // The entrypoint was still running (awaiting the task) when the task failed: its stored error is
  // the aborted signal's AbortError.
  await t.result("state after the failure", async () => {
    const s = await wf.getState(config);
    return { values: s.values, next: s.next, tasks: s.tasks.map((task) => ({ name: task.name, error: task.error ?? null })) };
  });
  fail = false;
  await t.result("resumed with null", () => wf.invoke(null, config));
  t.record("counted calls", calls);

  const catching = entrypoint({ checkpointer: new MemorySaver(), name: "catching" }, async (x) => {
    try {
      return await flaky(x);
    } catch (e) {
      return `caught ${e.message}`;
    }
  });
  fail = true;
  await t.result("a caught task error", () => catching.invoke(2, { configurable: { thread_id: "fn-99b" } }));
  await t.result("generator task", async () => task("gen", function* () {}));
  await t.result("generator entrypoint", async () => entrypoint("gen", async function* () {}));
  const noSaver = entrypoint("noSaver", async (x) => interrupt(x));
  await t.result("interrupt without a checkpointer", () => noSaver.invoke(1));
}
