// addNode(name, fn, { errorHandler }) and setNodeDefaults({ errorHandler }): a failing node's
// handler runs in the same superstep (node __error_handler__<name>, or
// __default_error_handler__) on the failed task's input with a NodeError; its update or
// Command is applied and the run goes on. Streams, history, stored writes, a handler that fails,
// one that interrupts, Send tasks, retries before the handler, a timeout, the reserved names.
// Mirrors the API reference of StateGraph.addNode's `errorHandler` option, NodeError and
// setNodeDefaults.
export const title = "errorHandler: the handler task, NodeError, Command from a handler, resume, defaults";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Command, Send, NodeError, interrupt, START, END } = lg;
  const State = Annotation.Root({
    log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    error: Annotation(),
  });
  const seen = [];
  const handler = (state, nodeError, config) => {
    seen.push({
      isNodeError: nodeError instanceof NodeError,
      node: nodeError.node,
      errorName: nodeError.error?.name,
      errorMessage: nodeError.error?.message,
      isTypeError: nodeError.error instanceof TypeError,
      state,
      metadataNode: config.metadata.langgraph_node,
    });
    return { error: `${nodeError.node}: ${nodeError.error.message}`, log: ["handled"] };
  };
  let siblingSignal;
  const saver = new MemorySaver();
  const graph = new StateGraph(State)
    .addNode("a", () => {
      throw new TypeError("a broke");
    }, { errorHandler: handler })
    .addNode("b", () => ({ log: ["b"] }))
    .addNode("c", async (_state, config) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      siblingSignal = config.signal?.aborted ?? "no signal";
      return { log: ["c"] };
    })
    .addEdge(START, "a")
    .addEdge(START, "c")
    .addEdge("a", "b")
    .addEdge("b", END)
    .addEdge("c", END)
    .compile({ checkpointer: saver });
  t.record("graph.nodes", Object.keys(graph.nodes).filter((n) => n !== "__start__"));
  const config = { configurable: { thread_id: "1" } };
  await t.stream("stream: updates, tasks, values", () => graph.stream({ log: [] }, { ...config, streamMode: ["updates", "tasks", "values"] }));
  t.record("what the handler got", seen);
  t.record("the sibling's signal stayed", siblingSignal);
  const state = await graph.getState(config);
  t.record("state", { values: state.values, next: state.next, tasks: state.tasks });
  await t.history("history", graph, config);
  const stored = [];
  for await (const tuple of saver.list(config)) {
    const seen = tuple.checkpoint.versions_seen;
    stored.push({ step: tuple.metadata.step, writes: tuple.pendingWrites, seenBy: Object.keys(seen).sort(), seenByTheHandler: seen.__error_handler__a ?? null });
  }
  t.record("stored writes", stored);

  // A handler that returns a Command: a fallback path.
  const fallback = new StateGraph(State)
    .addNode("a", () => {
      throw new Error("a failed");
    }, { errorHandler: (_s, e) => new Command({ goto: "fallback", update: { error: e.error.message } }) })
    .addNode("b", () => ({ log: ["b"] }))
    .addNode("fallback", () => ({ log: ["fallback"] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .compile();
  await t.stream("Command from a handler", () => fallback.stream({ log: [] }, { streamMode: "updates" }));

  // A handler that fails fails the run.
  const failing = new StateGraph(State)
    .addNode("a", () => {
      throw new Error("a failed");
    }, { errorHandler: () => {
      throw new RangeError("the handler failed too");
    } })
    .addNode("c", () => ({ log: ["c"] }))
    .addEdge(START, "a")
    .addEdge(START, "c")
    .compile({ checkpointer: new MemorySaver() });
  const failingConfig = { configurable: { thread_id: "f" } };
  await t.result("a failing handler", () => failing.invoke({ log: [] }, failingConfig));
  const failed = await failing.getState(failingConfig);
  t.record("after a failing handler", { values: failed.values, next: failed.next, tasks: failed.tasks });
  await t.result("invoke(null) runs the handler again", () => failing.invoke(null, failingConfig));

  // A handler that asks: the resume runs the handler again, not the failed node.
  let aCalls = 0;
  const asking = new StateGraph(State)
    .addNode("a", () => {
      aCalls += 1;
      throw new Error("a failed");
    }, { errorHandler: (_s, e) => ({ log: [`retry? ${interrupt("retry?")} (${e.error.name}: ${e.error.message}, a NodeError: ${e instanceof NodeError})`] }) })
    .addEdge(START, "a")
    .compile({ checkpointer: new MemorySaver() });
  const askingConfig = { configurable: { thread_id: "i" } };
  t.record("handler interrupts", await asking.invoke({ log: [] }, askingConfig));
  const paused = await asking.getState(askingConfig);
  t.record("paused state", { next: paused.next, tasks: paused.tasks });
  t.record("resumed", await asking.invoke(new Command({ resume: "yes" }), askingConfig));
  t.record("a ran", aCalls);

  // setNodeDefaults({ errorHandler }): nodes without their own; a node's own wins.
  const defaults = new StateGraph(State)
    .addNode("a", () => {
      throw new Error("a failed");
    })
    .addNode("b", () => {
      throw new Error("b failed");
    }, { errorHandler: () => ({ log: ["b's own handler"] }) })
    .addEdge(START, "a")
    .addEdge(START, "b")
    .setNodeDefaults({ errorHandler: (_s, e) => ({ log: [`default handler for ${e.node}`] }) })
    .compile();
  t.record("defaults: graph.nodes", Object.keys(defaults.nodes).filter((n) => n !== "__start__"));
  await t.stream("defaults: updates", () => defaults.stream({ log: [] }, { streamMode: "updates" }));

  // Send tasks: the failed task's handler gets its Send argument.
  const mapped = new StateGraph(State)
    .addNode("work", (arg) => {
      if (arg.x === 2) throw new Error(`item ${arg.x} failed`);
      return { log: [`work ${arg.x}`] };
    }, { errorHandler: (arg, e) => ({ log: [`handled ${JSON.stringify(arg)}: ${e.error.message}`] }) })
    .addConditionalEdges(START, () => [1, 2, 3].map((x) => new Send("work", { x })))
    .compile();
  t.record("Send tasks", await mapped.invoke({ log: [] }));

  // Retries first, then the handler; a timeout is a failure too.
  let tries = 0;
  const retried = new StateGraph(State)
    .addNode("flaky", () => {
      tries += 1;
      throw new Error(`attempt ${tries}`);
    }, {
      retryPolicy: { maxAttempts: 3, initialInterval: 1, jitter: false, logWarning: false },
      errorHandler: (_s, e) => ({ log: [`gave up after ${e.error.message}`] }),
    })
    .addNode("slow", async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { log: ["slow"] };
    }, { timeout: 20, errorHandler: (_s, e) => ({ log: [`${e.node}: ${e.error.name} (${e.error.kind})`] }) })
    .addEdge(START, "flaky")
    .addEdge(START, "slow")
    .compile();
  t.record("retries, then the handler; a timeout", await retried.invoke({ log: [] }));
  await new Promise((resolve) => setTimeout(resolve, 300));

  // Reserved names; with a handler every node is reachable.
  await t.result("the handler's name is taken", () =>
    new StateGraph(State).addNode("__error_handler__a", () => ({})).addNode("a", () => ({}), { errorHandler: () => ({}) }),
  );
  await t.result("a node named like a handler", () =>
    new StateGraph(State).addNode("a", () => ({}), { errorHandler: () => ({}) }).addNode("__error_handler__a", () => ({})),
  );
  await t.result("the default handler's name is taken", () =>
    new StateGraph(State)
      .addNode("__default_error_handler__", () => ({}))
      .addEdge(START, "__default_error_handler__")
      .setNodeDefaults({ errorHandler: () => ({}) })
      .compile(),
  );
  await t.result("an unreachable node compiles beside a handler", () =>
    Object.keys(
      new StateGraph(State)
        .addNode("a", () => ({}), { errorHandler: () => ({}) })
        .addNode("orphan", () => ({}))
        .addEdge(START, "a")
        .compile().nodes,
    ).filter((n) => n !== "__start__"),
  );
}
