// Human-in-the-loop: interrupt() pauses, the result carries __interrupt__, Command({ resume })
// continues and the resume value is interrupt()'s return. Mirrors the docs' "Interrupts" page.
// Also INTERRUPT / isInterrupted (gap 6) and getState's tasks[].interrupts.
export const title = "interrupt() + Command({ resume }), INTERRUPT, isInterrupted, getState tasks";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END, Command, interrupt, INTERRUPT, isInterrupted } = lg;

  const State = Annotation.Root({
    text: Annotation(),
    approved: Annotation(),
  });
  let runs = 0;
  const graph = new StateGraph(State)
    .addNode("draft", () => ({ text: "draft v1" }))
    .addNode("review", (state) => {
      runs += 1;
      const answer = interrupt({ question: "Approve this text?", text: state.text });
      return { approved: answer === "yes" };
    })
    .addEdge(START, "draft")
    .addEdge("draft", "review")
    .addEdge("review", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "hitl" } };
  const paused = await graph.invoke({ text: "" }, config);
  t.record("paused result", paused);
  t.record("INTERRUPT constant", INTERRUPT);
  t.record("isInterrupted(paused)", isInterrupted(paused));
  t.record("paused[INTERRUPT][0].value", paused[INTERRUPT]?.[0]?.value);
  t.record("getState while paused", await graph.getState(config));

  const done = await graph.invoke(new Command({ resume: "yes" }), config);
  t.record("resumed result", done);
  t.record("isInterrupted(done)", isInterrupted(done));
  t.record("review ran (first time + re-run on resume)", runs);
  t.record("getState when done", await graph.getState(config));

  await t.stream("stream a new thread until the interrupt (updates)", () =>
    graph.stream({ text: "" }, { configurable: { thread_id: "hitl-2" }, streamMode: "updates" }),
  );
  await t.stream("stream the resume (updates)", () =>
    graph.stream(new Command({ resume: "no" }), { configurable: { thread_id: "hitl-2" }, streamMode: "updates" }),
  );
}
