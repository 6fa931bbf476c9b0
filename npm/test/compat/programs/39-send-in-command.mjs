// Send from a Command: a node returns Command({ goto: [new Send(...), ...] }) to fan out with a
// per-task input, and a Send can target a compiled subgraph node. Mirrors the docs' "Graph API"
// page ("Send", "Command") where a node both updates state and dispatches workers.
export const title = "Command({ goto: [Send, ...] }) from a node, Send to a subgraph node, with history";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Command, Send, START, END } = lg;

  const State = Annotation.Root({
    jobs: Annotation(),
    results: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const WorkerState = Annotation.Root({
    job: Annotation(),
    results: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const worker = new StateGraph(WorkerState)
    .addNode("work", (s) => ({ results: [`done:${s.job}`] }))
    .addEdge(START, "work")
    .compile();

  const graph = new StateGraph(State)
    .addNode(
      "dispatch",
      (s) => new Command({ update: { results: ["dispatched"] }, goto: s.jobs.map((job) => new Send("worker", { job })) }),
      { ends: ["worker"] },
    )
    .addNode("worker", worker)
    .addNode("collect", (s) => ({ results: [`collected ${s.results.length}`] }))
    .addEdge(START, "dispatch")
    .addEdge("worker", "collect")
    .addEdge("collect", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "send-cmd" } };
  t.record("result", await graph.invoke({ jobs: ["a", "b", "c"] }, config));
  const history = [];
  for await (const s of graph.getStateHistory(config)) history.push({ next: s.next, values: s.values, tasks: s.tasks.map((x) => ({ name: x.name, path: x.path })) });
  t.record("history (next, tasks' names and paths)", history);
  await t.stream("updates, subgraphs: true", () => graph.stream({ jobs: ["x"] }, { configurable: { thread_id: "send-cmd-2" }, streamMode: "updates", subgraphs: true }));
}
