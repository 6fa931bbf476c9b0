// addNode(name, fn, { defer: true }): a fan-in after branches of different lengths runs once,
// after the longest branch; a deferred aggregator after a Send fan-out; a deferred join; a run
// that pauses while a deferred node waits; updateState as a node that leads to a deferred one;
// the saver's stored channel values. Mirrors the docs' "Graph API" page ("Defer node execution").
export const title = "defer: a deferred node waits for the other branches (fan-out, Send, join, interrupt, updateState)";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Send, Command, interrupt, START, END } = lg;

  const State = Annotation.Root({
    aggregate: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const node = (name) => (state) => ({ aggregate: [`${name} (saw ${state.aggregate.length})`] });

  // The docs' graph: a -> (b, c), b -> b_2, b_2 -> d, c -> d; d deferred runs once.
  const docs = (defer) =>
    new StateGraph(State)
      .addNode("a", node("a"))
      .addNode("b", node("b"))
      .addNode("b_2", node("b_2"))
      .addNode("c", node("c"))
      .addNode("d", node("d"), { defer })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("a", "c")
      .addEdge("b", "b_2")
      .addEdge("b_2", "d")
      .addEdge("c", "d")
      .addEdge("d", END);
  const saver = new MemorySaver();
  const graph = docs(true).compile({ checkpointer: saver });
  const config = { configurable: { thread_id: "defer" } };
  t.record("deferred: result", await graph.invoke({ aggregate: [] }, config));
  t.record("not deferred: result", await docs(false).compile().invoke({ aggregate: [] }));
  await t.stream("deferred: updates", () => graph.stream({ aggregate: [] }, { configurable: { thread_id: "defer-2" }, streamMode: "updates" }));
  await t.stream("deferred: tasks", () => graph.stream({ aggregate: [] }, { configurable: { thread_id: "defer-3" }, streamMode: "tasks" }));
  await t.history("deferred: history", graph, config);
  const stored = [];
  for await (const tuple of saver.list(config)) {
    stored.push({ step: tuple.metadata.step, trigger: tuple.checkpoint.channel_values["branch:to:d"] ?? null });
  }
  t.record("deferred: branch:to:d as stored", stored);

  // Map-reduce: a Send per item, and a deferred aggregator that waits for the slow branch too.
  const MapState = Annotation.Root({
    items: Annotation(),
    results: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const mapReduce = new StateGraph(MapState)
    .addNode("split", () => ({ items: ["x", "y", "z"], log: ["split"] }))
    .addNode("worker", (arg) => ({ results: [`done ${arg.item}`] }))
    .addNode("slow", () => ({ log: ["slow"] }))
    .addNode("slower", () => ({ log: ["slower"] }))
    .addNode("aggregate", (state) => ({ log: [`aggregate saw ${state.results.length} results`] }), { defer: true })
    .addEdge(START, "split")
    .addConditionalEdges("split", (state) => state.items.map((item) => new Send("worker", { item })), ["worker"])
    .addEdge("split", "slow")
    .addEdge("slow", "slower")
    .addEdge("worker", "aggregate")
    .addEdge("aggregate", END)
    .addEdge("slower", END)
    .compile({ checkpointer: new MemorySaver() });
  const mapConfig = { configurable: { thread_id: "map" } };
  t.record("map-reduce: result", await mapReduce.invoke({}, mapConfig));
  await t.history("map-reduce: history", mapReduce, mapConfig);

  // A join into a deferred node waits for both sources, then for the end of the run.
  const join = new StateGraph(State)
    .addNode("a", node("a"))
    .addNode("b", node("b"))
    .addNode("c", node("c"))
    .addNode("c_2", node("c_2"))
    .addNode("c_3", node("c_3"))
    .addNode("d", node("d"), { defer: true })
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("a", "c")
    .addEdge("c", "c_2")
    .addEdge("c_2", "c_3")
    .addEdge(["a", "b"], "d")
    .addEdge("c_3", END)
    .addEdge("d", END)
    .compile({ checkpointer: new MemorySaver() });
  const joinConfig = { configurable: { thread_id: "join" } };
  await t.stream("join: updates", () => join.stream({ aggregate: [] }, { ...joinConfig, streamMode: "updates" }));
  await t.history("join: history", join, joinConfig);

  // A branch pauses while the deferred node waits: next shows only the paused node.
  const InterruptState = Annotation.Root({
    aggregate: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    answer: Annotation(),
  });
  const paused = new StateGraph(InterruptState)
    .addNode("a", node("a"))
    .addNode("ask", () => ({ answer: interrupt("ok?"), aggregate: ["ask"] }))
    .addNode("c", node("c"))
    .addNode("d", node("d"), { defer: true })
    .addEdge(START, "a")
    .addEdge("a", "ask")
    .addEdge("a", "c")
    .addEdge("ask", "d")
    .addEdge("c", "d")
    .addEdge("d", END)
    .compile({ checkpointer: new MemorySaver() });
  const pausedConfig = { configurable: { thread_id: "paused" } };
  t.record("interrupt: first run", await paused.invoke({ aggregate: [] }, pausedConfig));
  const waiting = await paused.getState(pausedConfig);
  t.record("interrupt: next and tasks", { next: waiting.next, tasks: waiting.tasks });
  t.record("interrupt: resumed", await paused.invoke(new Command({ resume: "yes" }), pausedConfig));
  await t.history("interrupt: history", paused, pausedConfig);

  // updateState as a node that leads to the deferred node: nothing else is triggered, so the
  // update finishes the deferred channel and next is [d]; as "b" (which also leads to b_2) it is not.
  const updates = docs(true).compile({ checkpointer: new MemorySaver() });
  const updateConfig = { configurable: { thread_id: "update" } };
  await updates.invoke({ aggregate: [] }, updateConfig);
  await updates.updateState(updateConfig, { aggregate: ["as c"] }, "c");
  t.record("updateState as c: next", (await updates.getState(updateConfig)).next);
  t.record("updateState as c: run", await updates.invoke(null, updateConfig));
  await updates.updateState(updateConfig, { aggregate: ["as b"] }, "b");
  t.record("updateState as b: next", (await updates.getState(updateConfig)).next);
  t.record("updateState as b: run", await updates.invoke(null, updateConfig));
}
