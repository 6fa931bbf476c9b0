// Time travel, replay: invoke(null, pastCheckpointConfig) re-runs the graph from that point.
// Mirrors the docs' "Time travel" page (getStateHistory, pick a checkpoint, replay).
export const title = "time travel: replay from a past checkpoint; history after the replay";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;

  const State = Annotation.Root({
    topic: Annotation(),
    steps: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const calls = [];
  const graph = new StateGraph(State)
    .addNode("generate_topic", () => { calls.push("generate_topic"); return { topic: "cats", steps: ["topic"] }; })
    .addNode("write_joke", (s) => { calls.push("write_joke"); return { steps: [`joke about ${s.topic}`] }; })
    .addEdge(START, "generate_topic")
    .addEdge("generate_topic", "write_joke")
    .addEdge("write_joke", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "tt" } };
  t.record("first run", await graph.invoke({ topic: "" }, config));
  const history = await t.history("history", graph, config);
  const before = history.find((s) => s.next.includes("write_joke"));
  t.record("chosen checkpoint: next", before.next);

  calls.length = 0;
  t.record("replay result", await graph.invoke(null, before.config));
  t.record("nodes run by the replay", [...calls]);
  await t.history("history after replay", graph, config);
  t.record("getState after replay", await graph.getState(config));
  t.record("getState at the chosen checkpoint", await graph.getState(before.config));
}
