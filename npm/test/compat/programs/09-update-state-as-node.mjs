// updateState with asNode: an update written "as" a node decides what runs next; the channel's
// reducer applies; an unknown asNode is an error. Mirrors the docs' "Time travel" / "Update
// state" (human-in-the-loop "edit state") pages.
export const title = "updateState with asNode, reducers on update, errors for unknown nodes";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;

  const State = Annotation.Root({
    messages: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    status: Annotation(),
  });
  const graph = new StateGraph(State)
    .addNode("plan", () => ({ messages: ["planned"], status: "planned" }))
    .addNode("act", () => ({ messages: ["acted"], status: "acted" }))
    .addNode("report", (s) => ({ messages: [`report(${s.messages.length})`], status: "done" }))
    .addEdge(START, "plan")
    .addEdge("plan", "act")
    .addEdge("act", "report")
    .addEdge("report", END)
    .compile({ checkpointer: new MemorySaver(), interruptBefore: ["act"] });

  const config = { configurable: { thread_id: "asnode" } };
  t.record("run to the breakpoint", await graph.invoke({ messages: ["hi"] }, config));

  // An edit with no asNode: the last node that wrote (plan) is taken as the writer.
  t.record("updateState (no asNode)", await graph.updateState(config, { messages: ["edited"] }));
  t.record("state after the edit", await graph.getState(config));

  // Pretend "act" ran: next becomes report.
  t.record("updateState asNode act", await graph.updateState(config, { status: "skipped act" }, "act"));
  const s = await graph.getState(config);
  t.record("next after asNode act", s.next);
  t.record("metadata after asNode act", s.metadata);
  t.record("continue", await graph.invoke(null, config));

  await t.result("updateState asNode unknown", () => graph.updateState(config, { status: "x" }, "nope"));
  await t.result("updateState with a key not in the state", () => graph.updateState(config, { unknownKey: 1 }, "plan"));
  await t.history("history", graph, config);
}
