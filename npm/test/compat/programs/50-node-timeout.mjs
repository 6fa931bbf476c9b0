// addNode(name, fn, { timeout }): a node attempt that runs past its runTimeout fails with a
// NodeTimeoutError (its config.signal aborted, its later custom writes dropped); idleTimeout
// with config.heartbeat(); refreshOn "heartbeat"; a synchronous node that blocks past its limit;
// a timeout inside a retry policy; setNodeDefaults({ timeout }); the policy's own errors.
// Mirrors the API reference of StateGraph.addNode's `timeout` option (TimeoutPolicy) and
// setNodeDefaults. Elapsed milliseconds vary from run to run and are masked.
export const title = "timeout: run and idle timeouts, NodeTimeoutError, heartbeat, retries, setNodeDefaults";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** A NodeTimeoutError's fields (and its message) without its elapsed time. */
const masked = (e) =>
  e && {
    name: e.name,
    isNodeTimeoutError: e instanceof Error,
    message: String(e.message).replace(/elapsed: \d+ms/, "elapsed: <n>ms"),
    node: e.node,
    kind: e.kind,
    timeout: e.timeout,
    runTimeout: e.runTimeout,
    idleTimeout: e.idleTimeout,
    elapsedIsANumber: typeof e.elapsed === "number",
  };

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;
  const State = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const attempt = async (label, fn) => {
    try {
      t.record(label, await fn());
    } catch (e) {
      t.record(label, { error: masked(e) });
    }
  };

  // runTimeout: the attempt fails; the node's signal is aborted; what it writes later is dropped.
  let signalAfter;
  const slow = new StateGraph(State)
    .addNode(
      "slow",
      async (_state, config) => {
        await sleep(300);
        signalAfter = config.signal.aborted;
        config.writer?.("late chunk");
        return { log: ["slow done"] };
      },
      { timeout: 30 },
    )
    .addNode("fast", () => ({ log: ["fast"] }), { timeout: { runTimeout: 5_000 } })
    .addEdge(START, "slow")
    .addEdge(START, "fast")
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "run" } };
  await attempt("runTimeout: invoke", () => slow.invoke({ log: [] }, config));
  const state = await slow.getState(config);
  t.record("runTimeout: state", {
    values: state.values,
    next: state.next,
    tasks: state.tasks.map((task) => ({ name: task.name, error: task.error && { ...task.error, message: String(task.error.message).replace(/elapsed: \d+ms/, "elapsed: <n>ms") }, result: task.result })),
  });
  await sleep(400);
  t.record("runTimeout: the node saw its signal aborted", signalAfter);
  const chunks = [];
  try {
    for await (const chunk of await slow.stream({ log: [] }, { configurable: { thread_id: "run-2" }, streamMode: ["custom", "updates"] })) chunks.push(chunk);
  } catch (e) {
    chunks.push({ error: masked(e) });
  }
  await sleep(400);
  t.record("runTimeout: stream (no late chunk)", chunks);

  // idleTimeout: heartbeats keep the attempt alive; without them it times out as "idle".
  const beating = (beat) =>
    new StateGraph(State)
      .addNode(
        "worker",
        async (_state, config) => {
          for (let i = 0; i < 6; i += 1) {
            await sleep(20);
            if (beat) config.heartbeat();
          }
          return { log: [`worked (heartbeat is a ${typeof config.heartbeat})`] };
        },
        { timeout: { idleTimeout: 80 } },
      )
      .addEdge(START, "worker")
      .compile();
  await attempt("idleTimeout: with heartbeats", () => beating(true).invoke({ log: [] }));
  const stalled = new StateGraph(State)
    .addNode("worker", async () => {
      await sleep(300);
      return { log: ["never"] };
    }, { timeout: { idleTimeout: 40, runTimeout: 5_000 } })
    .addEdge(START, "worker")
    .compile();
  await attempt("idleTimeout: stalled", () => stalled.invoke({ log: [] }));

  // refreshOn "heartbeat": custom writes are no progress; "auto": they are.
  const writing = (refreshOn) =>
    new StateGraph(State)
      .addNode(
        "writer",
        async (_state, config) => {
          for (let i = 0; i < 6; i += 1) {
            await sleep(20);
            config.writer?.(`tick ${i}`);
          }
          return { log: ["wrote"] };
        },
        { timeout: { idleTimeout: 80, refreshOn } },
      )
      .addEdge(START, "writer")
      .compile();
  await attempt("refreshOn auto: writes are progress", async () => {
    const out = [];
    for await (const c of await writing("auto").stream({ log: [] }, { streamMode: "custom" })) out.push(c);
    return out;
  });
  await attempt("refreshOn heartbeat: writes are not", async () => {
    const out = [];
    for await (const c of await writing("heartbeat").stream({ log: [] }, { streamMode: "custom" })) out.push(c);
    return out;
  });

  // A synchronous node that blocks past its runTimeout fails once it returns.
  const blocking = new StateGraph(State)
    .addNode("block", () => {
      const until = Date.now() + 60;
      while (Date.now() < until) {
        // busy
      }
      return { log: ["blocked"] };
    }, { timeout: 20 })
    .addEdge(START, "block")
    .compile();
  await attempt("a blocking node", () => blocking.invoke({ log: [] }));

  // A timeout per attempt, inside the retries.
  let tries = 0;
  const retried = new StateGraph(State)
    .addNode(
      "flaky",
      async () => {
        tries += 1;
        if (tries === 1) await sleep(300);
        return { log: [`attempt ${tries}`] };
      },
      { timeout: 30, retryPolicy: { maxAttempts: 2, initialInterval: 1, jitter: false, logWarning: false } },
    )
    .addEdge(START, "flaky")
    .compile();
  await attempt("retry after a timeout", () => retried.invoke({ log: [] }));

  // setNodeDefaults({ timeout }): every node without its own.
  const defaults = new StateGraph(State)
    .addNode("a", async () => {
      await sleep(300);
      return { log: ["a"] };
    })
    .addNode("b", async () => {
      await sleep(60);
      return { log: ["b"] };
    }, { timeout: 5_000 })
    .addEdge(START, "a")
    .addEdge(START, "b")
    .setNodeDefaults({ timeout: 30 })
    .compile();
  await attempt("setNodeDefaults timeout", () => defaults.invoke({ log: [] }));
  await sleep(300);

  // The policy's own errors, thrown by addNode.
  const refused = (options) => () => new StateGraph(State).addNode("n", () => ({}), options);
  await t.result("timeout 0", refused({ timeout: 0 }));
  await t.result("idleTimeout -1", refused({ timeout: { idleTimeout: -1 } }));
  await t.result("refreshOn unknown", refused({ timeout: { runTimeout: 5, refreshOn: "never" } }));
  t.record("a policy without limits is none", await new StateGraph(State).addNode("n", () => ({ log: ["ran"] }), { timeout: {} }).addEdge(START, "n").addEdge("n", END).compile().invoke({ log: [] }));
}
