// Streaming an entrypoint (LangGraph.js docs: "Functional API" > "Streaming", "How to stream"):
// the "updates" (tasks and the entrypoint), "values" (its return value), "custom" (`config.writer`
// in the entrypoint and in a task), "debug" and "tasks" modes, several at once, and a paused
// entrypoint resumed, in every mode.
export const title = "entrypoint stream modes: updates, values, custom, debug, tasks, several";

export default async function (lg, t) {
  const { entrypoint, task, MemorySaver, getWriter } = lg;
  const double = task("double", async (x) => {
    getWriter()?.({ from: "task", x });
    return x * 2;
  });
  const wf = entrypoint({ checkpointer: new MemorySaver(), name: "wf" }, async (x, config) => {
    config.writer?.({ from: "entrypoint", step: "start" });
    const y = await double(x);
    config.writer?.({ from: "entrypoint", step: "done" });
    return { y };
  });
  let thread = 0;
  const cfg = (extra) => ({ configurable: { thread_id: `fn-97-${++thread}` }, ...extra });
  await t.stream("updates", () => wf.stream(1, cfg({ streamMode: "updates" })));
  await t.stream("values", () => wf.stream(2, cfg({ streamMode: "values" })));
  await t.stream("custom", () => wf.stream(3, cfg({ streamMode: "custom" })));
  await t.stream("debug", () => wf.stream(4, cfg({ streamMode: "debug" })));
  await t.stream("tasks", () => wf.stream(5, cfg({ streamMode: "tasks" })));
  await t.stream("updates + custom + values", () => wf.stream(6, cfg({ streamMode: ["updates", "custom", "values"] })));

  // A paused run resumed, streamed in every mode: the finished task reported again (started,
  // then its cached update).
  const paused = entrypoint({ checkpointer: new MemorySaver(), name: "paused" }, async (x) => {
    const y = await double(x);
    const ok = lg.interrupt(y);
    return { y, z: await double(y), ok };
  });
  const modes = ["debug", "tasks", "values", "updates", "custom"];
  const pc = cfg({ streamMode: modes });
  await t.stream("paused: first run, all modes", () => paused.stream(1, pc));
  await t.stream("paused: resumed, all modes", () => paused.stream(new lg.Command({ resume: "yes" }), pc));
}
