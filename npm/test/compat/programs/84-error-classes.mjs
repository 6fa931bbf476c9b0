// The error classes and predicates LangGraph.js's main entry exports besides the common ones
// (GraphBubbleUp and its subclasses, ParentCommand, GraphDrained, UnknownInterruptError,
// StateGraphInputError, MultipleSubgraphsError, RemoteException, isInvalidResume), as user code
// meets them: constructed, checked with instanceof and the is* predicates, and an interrupt caught
// inside a node (rethrown, as the docs' "Human-in-the-loop" page tells). Mirrors the API
// reference's "Errors" section.
export const title = "error classes: GraphBubbleUp hierarchy, predicates, ParentCommand, isInvalidResume";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, Command, MemorySaver, interrupt } = lg;
  const describe = (e) => ({
    name: e.name,
    message: e.message,
    lc_error_code: e.lc_error_code,
    base: e instanceof lg.BaseLangGraphError,
    bubbleUp: e instanceof lg.GraphBubbleUp,
    isGraphBubbleUp: lg.isGraphBubbleUp(e),
    isGraphInterrupt: lg.isGraphInterrupt(e),
    isParentCommand: lg.isParentCommand(e),
    isGraphDrained: lg.isGraphDrained(e),
    isUnknownInterruptError: lg.isUnknownInterruptError(e),
    isInvalidResume: lg.isInvalidResume(e),
  });

  t.record("GraphBubbleUp", describe(new lg.GraphBubbleUp("up")));
  t.record("GraphDrained default", { ...describe(new lg.GraphDrained()), reason: new lg.GraphDrained().reason });
  t.record("GraphDrained reason", { ...describe(new lg.GraphDrained("sigterm", { lc_error_code: "X" })), reason: new lg.GraphDrained("sigterm").reason });
  const cmd = new Command({ goto: "b", graph: Command.PARENT });
  const parent = new lg.ParentCommand(cmd);
  t.record("ParentCommand", { ...describe(parent), sameCommand: parent.command === cmd });
  const unknown = new lg.UnknownInterruptError("no such interrupt", { reason: "not_pending", interruptIds: ["a"] });
  t.record("UnknownInterruptError", { ...describe(unknown), reason: unknown.reason, interruptIds: unknown.interruptIds, pendingIds: unknown.pendingIds });
  t.record("StateGraphInputError", describe(new lg.StateGraphInputError("ignored")));
  t.record("MultipleSubgraphsError", { ...describe(new lg.MultipleSubgraphsError("two")), className: lg.MultipleSubgraphsError.name });
  t.record("RemoteException", describe(new lg.RemoteException("remote", { lc_error_code: "GRAPH_RECURSION_LIMIT" })));
  t.record("NodeInterrupt", { ...describe(new lg.NodeInterrupt("stop")), interrupts: new lg.NodeInterrupt("stop").interrupts });
  const made = new lg.GraphInterrupt([{ value: "ask", id: "i1" }]);
  t.record("GraphInterrupt from interrupts", { ...describe(made), interrupts: made.interrupts, empty: new lg.GraphInterrupt().interrupts });
  t.record("unminifiable names", [lg.GraphDrained, lg.ParentCommand, lg.UnknownInterruptError, lg.StateGraphInputError, lg.MultipleSubgraphsError, lg.RemoteException].map((c) => c.unminifiable_name));

  const marked = new Error("bad resume");
  lg._markInvalidResume(marked);
  const wrapped = new Error("middleware", { cause: new Error("inner", { cause: marked }) });
  t.record("isInvalidResume", {
    marked: lg.isInvalidResume(marked),
    wrapped: lg.isInvalidResume(wrapped),
    plain: lg.isInvalidResume(new Error("x")),
    notObject: lg.isInvalidResume("x"),
    ownKeys: Object.keys(marked),
  });
  t.record("predicates on plain values", [lg.isGraphBubbleUp({}), lg.isParentCommand({ name: "ParentCommand" }), lg.isGraphDrained(new Error("x")), lg.isUnknownInterruptError(null)]);
  t.record("getSubgraphsSeenSet", { isSet: lg.getSubgraphsSeenSet() instanceof Set, same: lg.getSubgraphsSeenSet() === lg.getSubgraphsSeenSet() });

  // What new StateGraph(x) throws for an x that is no object.
  for (const [label, state] of [["a number", 42], ["nothing", undefined], ["null", null], ["a string", "state"], ["an array", [1]]]) {
    await t.result(`new StateGraph(${label})`, async () => {
      try {
        new StateGraph(state);
        return "no error";
      } catch (e) {
        return { ...describe(e), instance: e instanceof lg.StateGraphInputError };
      }
    });
  }

  // The interrupt a node catches is a GraphBubbleUp, as LangGraph.js's docs say to rethrow it.
  const State = Annotation.Root({ answer: Annotation() });
  const caught = [];
  const graph = new StateGraph(State)
    .addNode("ask", () => {
      try {
        return { answer: interrupt("question?") };
      } catch (e) {
        caught.push({ name: e.name, bubbleUp: e instanceof lg.GraphBubbleUp, isGraphBubbleUp: lg.isGraphBubbleUp(e), isGraphInterrupt: lg.isGraphInterrupt(e), interrupt: e instanceof lg.GraphInterrupt });
        if (lg.isGraphBubbleUp(e)) throw e;
        return { answer: "swallowed" };
      }
    })
    .addEdge(START, "ask")
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "errors-84" } };
  await t.result("interrupted", async () => (await graph.invoke({ answer: "" }, config)).__interrupt__.map((i) => i.value));
  await t.result("resumed", () => graph.invoke(new Command({ resume: "yes" }), config));
  t.record("caught in the node", caught);
}
