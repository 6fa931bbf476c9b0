// What a node's config holds: the run's tags, metadata (with LangGraph.js's `ls_integration`,
// the `configurable` keys it copies in, the task's `langgraph_*` keys), `configurable` with the
// task's `checkpoint_map`, `runName`, `maxConcurrency`, `writer`, `interrupt`, `executionInfo`,
// in LangGraph.js's key order, for a node, a `Send`'s node, a subgraph's node and a retried node.
// Mirrors the docs' "Graph API" page ("Add runtime configuration", "Access the config in a node")
// and "Durable execution"'s `executionInfo`. LangGraph.js's `control` (a run's `RunControl`) and
// `callbacks` (a CallbackManager) are left out of the key lists: the package has neither
// (README, "what still differs"); its internal `__pregel_*` configurable keys too.
export const title = "a node's config: keys and values, for plain, Send, subgraph and retried nodes";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Send, START, END, getConfig } = lg;

  const views = [];
  const view = (label, config) => {
    const configurable = Object.fromEntries(Object.entries(config.configurable).filter(([k]) => !k.startsWith("__pregel")));
    views.push({
      label,
      keys: Object.keys(config).filter((k) => k !== "control" && k !== "callbacks"),
      tags: config.tags,
      metadata: config.metadata,
      recursionLimit: config.recursionLimit,
      configurableKeys: Object.keys(configurable),
      configurable,
      runName: config.runName,
      maxConcurrency: config.maxConcurrency,
      context: config.context,
      writer: typeof config.writer,
      interrupt: typeof config.interrupt,
      signal: config.signal instanceof AbortSignal,
      executionInfo: config.executionInfo && { ...config.executionInfo, nodeFirstAttemptTime: typeof config.executionInfo.nodeFirstAttemptTime },
      getConfigIsConfig: getConfig() === config,
    });
  };

  const State = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const inner = new StateGraph(State)
    .addNode("inner", (_s, config) => (view("subgraph node", config), { log: ["inner"] }))
    .addEdge(START, "inner")
    .compile();
  let failures = 0;
  const graph = new StateGraph(State)
    .addNode("first", (_s, config) => (view("node", config), { log: ["first"] }))
    .addNode("worker", (_s, config) => (view("Send node", config), { log: ["worker"] }))
    .addNode("sub", inner)
    .addNode(
      "flaky",
      (_s, config) => {
        view(`retried node, attempt ${failures + 1}`, config);
        if (failures++ === 0) throw new Error("try again");
        return { log: ["flaky"] };
      },
      { retryPolicy: { maxAttempts: 2, initialInterval: 1, jitter: false, logWarning: false } },
    )
    .addEdge(START, "first")
    .addConditionalEdges("first", () => [new Send("worker", { log: [] })])
    .addEdge("worker", "sub")
    .addEdge("sub", "flaky")
    .addEdge("flaky", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = {
    configurable: { thread_id: "cfg", user_id: "u1", model: "m1" },
    tags: ["t1", "t2", "t1"],
    metadata: { foo: "bar" },
    recursionLimit: 10,
    maxConcurrency: 4,
    runName: "myRun",
  };
  t.record("invoke", await graph.invoke({ log: [] }, config));
  t.record("configs, a run with tags, metadata, maxConcurrency and runName", views.splice(0));

  const plain = new StateGraph(State)
    .addNode("only", (_s, config) => (view("no checkpointer, no config", config), { log: ["only"] }))
    .addEdge(START, "only")
    .compile();
  await plain.invoke({ log: [] });
  // With callbacks (and with streamMode "messages", which adds LangGraph.js's handler) a node has no runName.
  await plain.invoke({ log: [] }, { callbacks: [{ handleChainStart() {} }], tags: ["cb"] });
  await plain.invoke({ log: [] }, { context: { user: "ann" }, durability: "sync", configurable: { checkpoint_ns: "" } });
  for await (const _ of await plain.stream({ log: [] }, { streamMode: "custom" }));
  await plain.withConfig({ tags: ["bound"], metadata: { bound: 1 } }).invoke({ log: [] }, { tags: ["call"], metadata: { call: 2 } });
  t.record("configs, other runs", views.splice(0));
}
