// Reading the checkpointer directly, as the docs' "Persistence" page does: `checkpointer.get(config)`,
// `checkpointer.getTuple(config)`, `checkpointer.list(config, { limit, before, filter })`, on a
// thread with a reducer default, a Send fan-out (`__pregel_tasks`), a subgraph namespace, an
// interrupt (pending writes), an update and a fork; every field of every tuple is compared
// (channel versions, key order, pendingWrites, parentConfig).
export const title = "checkpointer.get / getTuple / list on a real thread";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Send, Command, START, END, interrupt } = lg;

  const State = Annotation.Root({
    topic: Annotation(),
    jokes: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    rating: Annotation({ reducer: (a, b) => a + b, default: () => 0 }),
    verdict: Annotation(),
  });
  const polish = new StateGraph(State)
    .addNode("polish", (s) => ({ rating: 1, jokes: [`polished ${s.topic}`] }))
    .addEdge(START, "polish")
    .compile();
  const checkpointer = new MemorySaver();
  const graph = new StateGraph(State)
    .addNode("plan", () => ({}))
    .addNode("write", (s) => ({ jokes: [`a joke about ${s.topic}`], rating: 2 }))
    .addNode("polish", polish)
    .addNode("review", (s) => ({ verdict: interrupt(`keep ${s.jokes.length} jokes?`) }))
    .addEdge(START, "plan")
    .addConditionalEdges("plan", (s) => [new Send("write", { topic: `${s.topic} (1)` }), new Send("write", { topic: `${s.topic} (2)` })])
    .addEdge("write", "polish")
    .addEdge("polish", "review")
    .addEdge("review", END)
    .compile({ checkpointer });

  const config = { configurable: { thread_id: "docs" } };
  t.record("paused", await graph.invoke({ topic: "cats" }, config));

  // The latest checkpoint, three ways.
  t.record("get", await checkpointer.get(config));
  t.record("getTuple", await checkpointer.getTuple(config));
  const all = [];
  for await (const tuple of checkpointer.list(config)) all.push(tuple);
  t.record("list", all);

  // By id: the tuple carries the config it was asked with.
  const asked = { configurable: { thread_id: "docs", checkpoint_id: all[2].config.configurable.checkpoint_id } };
  const byId = await checkpointer.getTuple(asked);
  t.record("getTuple by id", byId);
  t.record("by id: same config object", byId.config === asked);

  const listed = async (c, options) => {
    const out = [];
    for await (const tuple of checkpointer.list(c, options)) out.push([tuple.config.configurable.checkpoint_ns, tuple.metadata.source, tuple.metadata.step]);
    return out;
  };
  t.record("limit 2", await listed(config, { limit: 2 }));
  t.record("before", await listed(config, { before: all[1].config }));
  t.record("filter", await listed(config, { filter: { source: "loop", step: 1 } }));
  t.record("root namespace only", await listed({ configurable: { thread_id: "docs", checkpoint_ns: "" } }));
  t.record("one checkpoint", await listed({ configurable: { thread_id: "docs", checkpoint_id: all[0].config.configurable.checkpoint_id } }));
  t.record("unknown thread", await listed({ configurable: { thread_id: "nobody" } }));
  t.record("unknown id", await checkpointer.getTuple({ configurable: { thread_id: "docs", checkpoint_id: "1ef00000-0000-6000-8000-000000000000" } }));

  // Resume, edit the state, and fork from before the review.
  t.record("resumed", await graph.invoke(new Command({ resume: "yes" }), config));
  await graph.updateState(config, { topic: "dogs" });
  t.record("after update", await checkpointer.getTuple(config));
  const beforeReview = all.find((tuple) => tuple.metadata.step === 3 && tuple.config.configurable.checkpoint_ns === "");
  t.record("fork", await graph.invoke(null, beforeReview.config));
  const latest = [];
  for await (const tuple of checkpointer.list({ configurable: { thread_id: "docs", checkpoint_ns: "" } }, { limit: 3 })) latest.push(tuple);
  t.record("latest after the fork", latest);

  await checkpointer.deleteThread("docs");
  t.record("deleted", await checkpointer.getTuple(config));
}
