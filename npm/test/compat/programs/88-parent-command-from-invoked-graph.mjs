// Navigating to a node of the parent graph from a graph a node invokes (the docs' "Graph API" page,
// "Navigate to a node in a parent graph", and multi-agent handoffs where an agent runs inside a
// node): the child's node returns Command({ graph: Command.PARENT, goto, update }); the invoking
// node sees a ParentCommand (a GraphBubbleUp) and lets it propagate, and the parent applies it.
export const title = "Command.PARENT from a graph invoked inside a node: ParentCommand bubbles, the parent applies it";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END, Command, MemorySaver } = lg;
  const State = Annotation.Root({
    log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const caught = [];
  const agent = new StateGraph(State)
    .addNode("think", () => ({ log: ["think"] }))
    .addNode("handoff", () => new Command({ graph: Command.PARENT, goto: "billing", update: { log: ["handoff"] } }))
    .addEdge(START, "think")
    .addEdge("think", "handoff")
    .compile();
  const graph = new StateGraph(State)
    .addNode(
      "support",
      async (state, config) => {
        try {
          return await agent.invoke(state, config);
        } catch (e) {
          caught.push({
            name: e.name,
            isParentCommand: lg.isParentCommand(e),
            bubbleUp: lg.isGraphBubbleUp(e),
            instance: e instanceof lg.ParentCommand,
            isCommand: lg.isCommand(e.command),
            goto: e.command?.goto,
            update: e.command?.update,
          });
          throw e;
        }
      },
      { ends: ["billing"] },
    )
    .addNode("billing", () => ({ log: ["billing"] }))
    .addEdge(START, "support")
    .addEdge("billing", END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "parent-88" } };
  await t.result("result", () => graph.invoke({ log: ["start"] }, config));
  t.record("caught in the invoking node", caught);
  await t.stream("updates", () => graph.stream({ log: ["again"] }, { ...config, streamMode: "updates" }));
  await t.history("history", graph, config);
}
