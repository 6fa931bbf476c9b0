// Reading the past: getState at every checkpoint of a run with parallel nodes, a Send and an
// interrupt shows next, tasks (with result, path for pull and push tasks, interrupts) as
// LangGraph.js does. Mirrors the docs' "Persistence" page ("Get state" at a checkpoint_id).
export const title = "getState at each past checkpoint: next, tasks[].result, tasks[].path (pull/push), interrupts";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Send, Command, interrupt, START, END } = lg;

  const State = Annotation.Root({
    items: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const graph = new StateGraph(State)
    .addNode("fan", () => ({ items: ["fan"] }))
    .addNode("worker", (arg) => ({ items: [`worker:${arg.n}`] }))
    .addNode("side", () => ({ items: ["side"] }))
    .addNode("confirm", () => ({ items: [`confirm:${interrupt("ok?")}`] }))
    .addEdge(START, "fan")
    .addConditionalEdges("fan", () => [new Send("worker", { n: 1 }), new Send("worker", { n: 2 }), "side"])
    .addEdge(["worker", "side"], "confirm")
    .addEdge("confirm", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "past" } };
  await graph.invoke({ items: [] }, config);
  await graph.invoke(new Command({ resume: "yes" }), config);
  const history = [];
  for await (const s of graph.getStateHistory(config)) history.push(s);
  for (const [i, s] of history.entries()) {
    const again = await graph.getState(s.config);
    t.record(`checkpoint ${history.length - 1 - i}: getState`, { values: again.values, next: again.next, tasks: again.tasks, metadata: again.metadata });
  }
}
