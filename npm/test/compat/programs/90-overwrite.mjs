// Overwrite: a node's update that replaces a reducer channel's value instead of being reduced
// (`new Overwrite(value)` and the `{ __overwrite__: value }` form), in a node's return, a
// Command's update, updateState and bulkUpdateState; the superstep's other writes to the channel
// are dropped; two Overwrites to one channel in a superstep are an InvalidUpdateError. Mirrors
// the reference docs of `Overwrite` ("Bypass a reducer and write the wrapped value directly").
export const title = "Overwrite: replace a reducer channel's value (node, Command, updateState, two in a step)";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Command, Overwrite, START, END } = lg;

  const State = Annotation.Root({
    messages: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    total: Annotation({ reducer: (a, b) => a + b, default: () => 0 }),
    plain: Annotation({ reducer: (a, b) => a.concat(b) }),
  });

  // The docs' example: node_b's Overwrite replaces ["START", "a"] with ["b"].
  const docs = new StateGraph(State)
    .addNode("node_a", () => ({ messages: ["a"], total: 1 }))
    .addNode("node_b", () => ({ messages: new Overwrite(["b"]), total: new Overwrite(10) }))
    .addNode("node_c", () => ({ messages: ["c"], total: { __overwrite__: 100 } }))
    .addEdge(START, "node_a")
    .addEdge("node_a", "node_b")
    .addEdge("node_b", "node_c")
    .addEdge("node_c", END);
  const saver = new MemorySaver();
  const graph = docs.compile({ checkpointer: saver });
  const config = { configurable: { thread_id: "overwrite" } };
  t.record("docs: result", await graph.invoke({ messages: ["START"] }, config));
  await t.stream("docs: updates", () => graph.stream({ messages: ["again"] }, { configurable: { thread_id: "overwrite-2" }, streamMode: "updates" }));
  await t.stream("docs: values", () => graph.stream({ messages: ["again"] }, { configurable: { thread_id: "overwrite-3" }, streamMode: "values" }));
  await t.history("docs: history", graph, config);
  const stored = [];
  for await (const tuple of saver.list(config)) stored.push({ step: tuple.metadata.step, messages: tuple.checkpoint.channel_values.messages ?? null });
  t.record("docs: stored messages", stored);

  // A channel without a default: an Overwrite as its first write, then reduced onto.
  const fresh = new StateGraph(State)
    .addNode("first", () => ({ plain: new Overwrite(["x"]) }))
    .addNode("second", () => ({ plain: ["y"] }))
    .addEdge(START, "first")
    .addEdge("first", "second")
    .compile();
  t.record("no default: result", await fresh.invoke({ total: 1 }));

  // An input with an Overwrite on a thread with values; the discriminator form too.
  t.record("input overwrite", await graph.invoke({ messages: new Overwrite(["fresh"]), total: { type: "__overwrite__", value: 0 } }, config));

  // One Overwrite beside normal writes in one superstep: it wins, whatever the task order.
  const beside = new StateGraph(State)
    .addNode("c", () => ({ messages: ["c"], total: 1 }))
    .addNode("m", () => ({ messages: new Overwrite(["m"]), total: new Overwrite(50) }))
    .addNode("z", () => ({ messages: ["z"], total: 2 }))
    .addNode("after", (s) => ({ messages: [`after saw ${s.messages.join(",")}`] }))
    .addEdge(START, "c")
    .addEdge(START, "m")
    .addEdge(START, "z")
    .addEdge(["c", "m", "z"], "after")
    .compile({ checkpointer: new MemorySaver() });
  t.record("beside writes: result", await beside.invoke({ messages: ["in"], total: 5 }, { configurable: { thread_id: "b" } }));

  // Two Overwrites to one channel in a superstep.
  const twice = new StateGraph(State)
    .addNode("a", () => ({ messages: new Overwrite(["a"]) }))
    .addNode("b", () => ({ messages: { __overwrite__: ["b"] } }))
    .addEdge(START, "a")
    .addEdge(START, "b")
    .compile({ checkpointer: new MemorySaver() });
  const twiceConfig = { configurable: { thread_id: "twice" } };
  await t.result("two overwrites: invoke", () => twice.invoke({ messages: ["in"] }, twiceConfig));
  await t.result("two overwrites: state", async () => (await twice.getState(twiceConfig)).values);

  // A Command's update, and a routing Command.
  const commanded = new StateGraph(State)
    .addNode("router", () => new Command({ update: { messages: new Overwrite(["routed"]), total: new Overwrite(-1) }, goto: "tail" }), { ends: ["tail"] })
    .addNode("tail", () => ({ messages: ["tail"] }))
    .addEdge(START, "router")
    .compile({ checkpointer: new MemorySaver() });
  const cmdConfig = { configurable: { thread_id: "cmd" } };
  t.record("command: result", await commanded.invoke({ messages: ["in"], total: 3 }, cmdConfig));
  t.record("command: resume with an update", await commanded.invoke(new Command({ update: { messages: new Overwrite(["cmd input"]) }, goto: "tail" }), cmdConfig));

  // updateState and bulkUpdateState.
  const updated = await graph.updateState(config, { messages: new Overwrite(["edited"]), total: new Overwrite(7) }, "node_b");
  t.record("updateState: values", (await graph.getState(updated)).values);
  t.record("updateState: next", (await graph.getState(updated)).next);
  t.record("updateState: plain form", (await graph.getState(await graph.updateState(config, { messages: { __overwrite__: [] } }))).values);
  await t.result("updateState: two in one call", () => graph.bulkUpdateState(config, [{ updates: [{ values: { messages: new Overwrite(["1"]) }, asNode: "node_a" }, { values: { messages: new Overwrite(["2"]) }, asNode: "node_b" }] }]));
  const bulk = await graph.bulkUpdateState(config, [
    { updates: [{ values: { messages: new Overwrite(["bulk 1"]) }, asNode: "node_a" }] },
    { updates: [{ values: { messages: ["bulk 2"], total: new Overwrite(0) }, asNode: "node_b" }] },
  ]);
  t.record("bulkUpdateState: values", (await graph.getState(bulk)).values);
  t.record("after the updates: run", await graph.invoke(null, config));

  t.record("Overwrite.isInstance", [Overwrite.isInstance(new Overwrite(1)), Overwrite.isInstance({ __overwrite__: 1 }), Overwrite.isInstance({ value: 1 }), Overwrite.isInstance(null)]);
  t.record("Overwrite: value and toJSON", [new Overwrite([1]).value, JSON.stringify(new Overwrite({ a: 1 })), new Overwrite(2).lg_name]);
}
