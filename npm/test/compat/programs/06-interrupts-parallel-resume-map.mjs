// Several interrupts at once: two parallel nodes interrupt; resume both with a map
// { [interrupt.id]: value }. Mirrors the docs' "Interrupts" page ("Resume multiple interrupts
// with one invocation").
export const title = "parallel interrupts resumed with a map of interrupt ids";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END, Command, interrupt } = lg;

  const State = Annotation.Root({
    answers: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const graph = new StateGraph(State)
    .addNode("ask_name", () => ({ answers: [`name=${interrupt("name?")}`] }))
    .addNode("ask_age", () => ({ answers: [`age=${interrupt("age?")}`] }))
    .addNode("summary", (s) => ({ answers: [`summary of ${s.answers.length}`] }))
    .addEdge(START, "ask_name")
    .addEdge(START, "ask_age")
    .addEdge(["ask_name", "ask_age"], "summary")
    .addEdge("summary", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "multi" } };
  const paused = await graph.invoke({}, config);
  t.record("paused result", paused);
  const state = await graph.getState(config);
  t.record("getState while paused", state);

  const resumeMap = {};
  for (const i of paused.__interrupt__) resumeMap[i.id] = i.value === "name?" ? "Ada" : "36";
  t.record("final result", await graph.invoke(new Command({ resume: resumeMap }), config));
  await t.history("history", graph, config);
}
