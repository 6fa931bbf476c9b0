// Parallel tasks and time travel on an entrypoint (LangGraph.js docs: "Functional API" >
// "Parallel execution", "Time travel" with the functional API): tasks called without awaiting
// each run concurrently (both start before either ends); getStateHistory of the thread; a replay
// from an earlier checkpoint runs the entrypoint and its tasks again; updateState on it.
export const title = "parallel tasks; getStateHistory, replay and updateState of an entrypoint";

export default async function (lg, t) {
  const { entrypoint, task, MemorySaver } = lg;
  const events = [];
  const slow = task("slow", async (x) => {
    events.push(`start ${x}`);
    // Ends 100 ms apart: at 5 ms, a loaded machine's timer jitter reordered them (on either engine).
    await new Promise((r) => setTimeout(r, 100 * x));
    events.push(`end ${x}`);
    return x * 10;
  });
  const fanOut = entrypoint({ checkpointer: new MemorySaver(), name: "fanOut" }, async (xs) => {
    const results = await Promise.all(xs.map((x) => slow(x)));
    return { sum: results.reduce((a, b) => a + b, 0), results };
  });
  const config = { configurable: { thread_id: "fn-98" } };
  await t.stream("parallel", () => fanOut.stream([3, 1, 2], config));
  t.record("events", events.splice(0));
  await t.result("second run", () => fanOut.invoke([4], config));
  t.record("events 2", events.splice(0));
  await t.history("history", fanOut, config);
  const history = [];
  for await (const s of fanOut.getStateHistory(config)) history.push(s);
  const firstInput = history.find((s) => s.metadata.step === -1 && s.next.length === 1);
  await t.stream("replay from the first run's input checkpoint", () => fanOut.stream(null, firstInput.config));
  t.record("events of the replay", events.splice(0));
  await t.result("getState after replay", async () => {
    const s = await fanOut.getState(config);
    return { values: s.values, next: s.next, metadata: s.metadata };
  });
  await t.result("updateState", async () => {
    const updated = await fanOut.updateState(config, { sum: -1, results: [] });
    const s = await fanOut.getState(updated);
    return { values: s.values, next: s.next, metadata: s.metadata };
  });
}
