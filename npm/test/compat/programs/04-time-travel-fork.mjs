// Time travel, fork: updateState on a past checkpoint makes a new branch; invoke(null, fork)
// continues from it. Mirrors the docs' "Time travel" page ("Fork").
export const title = "time travel: fork with updateState on a past checkpoint, continue, history branches";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;

  const State = Annotation.Root({
    topic: Annotation(),
    joke: Annotation(),
  });
  const graph = new StateGraph(State)
    .addNode("generate_topic", () => ({ topic: "cats" }))
    .addNode("write_joke", (s) => ({ joke: `Why did the ${s.topic} cross the road?` }))
    .addEdge(START, "generate_topic")
    .addEdge("generate_topic", "write_joke")
    .addEdge("write_joke", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "fork" } };
  t.record("first run", await graph.invoke({}, config));
  const history = [];
  for await (const s of graph.getStateHistory(config)) history.push(s);
  const selected = history.find((s) => s.next.includes("write_joke"));

  const forkConfig = await graph.updateState(selected.config, { topic: "chickens" });
  t.record("updateState returns", forkConfig);
  t.record("getState(fork)", await graph.getState(forkConfig));
  t.record("continue from the fork", await graph.invoke(null, forkConfig));
  await t.history("history with both branches", graph, config);
  await t.history("history from the fork's checkpoint", graph, forkConfig);
}
