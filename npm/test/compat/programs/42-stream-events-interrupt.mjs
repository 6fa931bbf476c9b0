// streamEvents v2 across an interrupt: the paused run's events (the interrupt as the root's
// chunk, the run's end with the state), then the resumed run from a Command, and a node that
// throws (the stream fails after its events). Mirrors the docs' "Streaming" concepts page
// ("Streaming LLM tokens and events (.streamEvents)") with the "Human-in-the-loop" page's
// interrupt/resume.
export const title = "streamEvents v2 with interrupt(), Command resume and a failing node";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END, MemorySaver, Command, interrupt } = lg;
  const State = Annotation.Root({ letter: Annotation(), approved: Annotation() });
  const graph = new StateGraph(State)
    .addNode("draft", (state) => ({ letter: `Dear ${state.letter}` }))
    .addNode("approve", () => ({ approved: interrupt("Send it?") }))
    .addEdge(START, "draft")
    .addEdge("draft", "approve")
    .addEdge("approve", END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "hitl" }, version: "v2" };
  await t.stream("until the interrupt", () => graph.streamEvents({ letter: "Ada" }, config));
  await t.stream("resumed", () => graph.streamEvents(new Command({ resume: true }), config));
  t.record("state", (await graph.getState({ configurable: { thread_id: "hitl" } })).values);

  const failing = new StateGraph(State)
    .addNode("draft", () => {
      throw new Error("no paper");
    })
    .addEdge(START, "draft")
    .compile();
  await t.stream("a node that throws", () => failing.streamEvents({ letter: "x" }, { version: "v2" }));
}
