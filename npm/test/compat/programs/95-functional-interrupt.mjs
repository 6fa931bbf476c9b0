// Human-in-the-loop with the functional API (LangGraph.js docs: "Functional API" > "Human-in-the-loop",
// "How to wait for user input (Functional API)"): a task runs, the entrypoint pauses with
// `interrupt()`, and `new Command({ resume })` continues it; the finished task is not run again
// (its result comes from the checkpoint: counted calls), and the resumed stream reports it as
// cached. Then an `interrupt()` inside a task, answered the same way, and two tasks called
// together that both interrupt, resumed by interrupt id.
export const title = "entrypoint: interrupt + Command({ resume }); a finished task is not re-run";

export default async function (lg, t) {
  const { entrypoint, task, interrupt, Command, MemorySaver } = lg;
  let calls = { write: 0, review: 0, ask: 0 };
  const writeEssay = task("writeEssay", async (topic) => {
    calls.write++;
    return `An essay about ${topic}`;
  });
  const workflow = entrypoint({ checkpointer: new MemorySaver(), name: "workflow" }, async (topic) => {
    const essay = await writeEssay(topic);
    const isApproved = interrupt({ essay, action: "Please approve/reject the essay" });
    return { essay, isApproved };
  });
  const config = { configurable: { thread_id: "fn-95" } };
  await t.stream("first run", () => workflow.stream("cat", config));
  t.record("calls after the pause", { ...calls });
  await t.result("getState while paused", async () => {
    const s = await workflow.getState(config);
    return { values: s.values, next: s.next, tasks: s.tasks, metadata: s.metadata };
  });
  await t.stream("resume", () => workflow.stream(new Command({ resume: true }), config));
  t.record("calls after resume", { ...calls });
  await t.result("getState after resume", async () => {
    const s = await workflow.getState(config);
    return { values: s.values, next: s.next, tasks: s.tasks, metadata: s.metadata };
  });

  // interrupt() inside a task.
  const ask = task("ask", async (question) => {
    calls.ask++;
    return { question, answer: interrupt(question) };
  });
  const review = task("review", async (x) => {
    calls.review++;
    return `reviewed ${x}`;
  });
  const flow = entrypoint({ checkpointer: new MemorySaver(), name: "flow" }, async (q) => {
    const r = await review(q);
    const a = await ask(`${r}?`);
    return { r, a };
  });
  const c2 = { configurable: { thread_id: "fn-95b" } };
  await t.result("task interrupt: invoke", () => flow.invoke("draft", c2));
  await t.result("task interrupt: state", async () => {
    const s = await flow.getState(c2);
    return { values: s.values, next: s.next, tasks: s.tasks };
  });
  await t.stream("task interrupt: resume", () => flow.stream(new Command({ resume: "yes" }), c2));
  t.record("calls", { ...calls });

  // Two tasks that interrupt, called together: the first rejection pauses the entrypoint; each
  // answered by id in turn.
  const askBoth = task("askBoth", async (q) => interrupt(q));
  const both = entrypoint({ checkpointer: new MemorySaver(), name: "both" }, async () => Promise.all([askBoth("a?"), askBoth("b?")]));
  const c3 = { configurable: { thread_id: "fn-95c" } };
  await t.result("parallel interrupts: invoke", () => both.invoke("go", c3));
  for (let round = 1; round <= 2; round++) {
    const s = await both.getState(c3);
    t.record(`parallel interrupts: state ${round}`, { next: s.next, tasks: s.tasks });
    const answers = Object.fromEntries(s.tasks.flatMap((task) => task.interrupts.map((i) => [i.id, `answer to ${i.value}`])));
    await t.result(`parallel interrupts: resume ${round}`, () => both.invoke(new Command({ resume: answers }), c3));
  }
}
