// addNode's node options (defer, cachePolicy with compile({ cache }), timeout,
// errorHandler) and setNodeDefaults, in the package itself: what the compat
// programs 48-51 cannot show by comparing with LangGraph.js (the package's
// own InMemoryCache, a user's cache object, argument errors, the JSON
// format's `defer`).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  Annotation,
  BaseLangGraphError,
  Command,
  END,
  InMemoryCache,
  MemorySaver,
  NodeError,
  NodeTimeoutError,
  START,
  StateGraph,
  interrupt,
  isNodeError,
  isNodeTimeoutError,
} from "chronograph";
import { collect, runWithoutPeers, sleep } from "./support.mjs";

const State = Annotation.Root({
  n: Annotation(),
  log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

test("a user's cache object gets LangGraph.js's keys, values and ttl, one operation at a time", async () => {
  const calls = [];
  const entries = new Map();
  let busy = false;
  // Each operation takes a while, and checks that it overlaps no other.
  const exclusive = async () => {
    assert.equal(busy, false, "operations do not overlap");
    busy = true;
    await sleep(5);
    busy = false;
  };
  const cache = {
    async get(keys) {
      await exclusive();
      calls.push(["get", keys]);
      return keys.filter(([ns, key]) => entries.has(`${ns}|${key}`)).map((k) => ({ key: k, value: entries.get(`${k[0]}|${k[1]}`) }));
    },
    async set(pairs) {
      await exclusive();
      calls.push(["set", pairs]);
      for (const { key, value } of pairs) entries.set(`${key[0]}|${key[1]}`, value);
    },
    async clear(namespaces) {
      calls.push(["clear", namespaces]);
      entries.clear();
    },
  };
  let runs = 0;
  const graph = new StateGraph(State)
    .addNode("double", (s) => {
      runs += 1;
      return { log: [s.n * 2] };
    }, { cachePolicy: { ttl: 30 } })
    .addEdge(START, "double")
    .addEdge("double", END)
    .compile({ cache });
  assert.equal(graph.cache, cache);
  assert.deepEqual(await graph.invoke({ n: 2 }), { n: 2, log: [4] });
  // The run resolves once its store is done (LangGraph.js awaits its cache's queue).
  assert.deepEqual(calls.map(([op]) => op), ["get", "set"]);
  const [, pairs] = calls[1];
  assert.deepEqual(pairs[0].key[0], ["__pregel_ns_writes", "__dynamic__", "double"]);
  assert.match(pairs[0].key[1], /^[0-9a-f]{32}$/);
  assert.deepEqual(pairs[0].value, [["log", [4]]]);
  assert.equal(pairs[0].ttl, 30);
  assert.deepEqual(await graph.invoke({ n: 2 }), { n: 2, log: [4] });
  assert.equal(runs, 1, "served from the user's cache");
  await graph.clearCache();
  assert.deepEqual(calls.at(-1), ["clear", []]);
});

test("without @langchain/langgraph-checkpoint, InMemoryCache is the package's own, with ttl and clear", () => {
  // CHRONOGRAPH_LANGCHAIN=off hides the optional peers, as when they are not installed.
  const program = `
    import { InMemoryCache, StateGraph, START, END } from "chronograph";
    const cache = new InMemoryCache();
    let runs = 0;
    const graph = new StateGraph({ n: "last_value", out: "last_value" })
      .addNode("a", (s) => { runs += 1; return { out: s.n + 1 }; }, { cachePolicy: { ttl: 10 } })
      .addEdge(START, "a").addEdge("a", END)
      .compile({ cache });
    const realNow = Date.now;
    let now = realNow();
    Date.now = () => now;
    const outs = [await graph.invoke({ n: 1 }), await graph.invoke({ n: 1 })];
    now += 10_000;
    outs.push(await graph.invoke({ n: 1 }));
    await graph.clearCache();
    outs.push(await graph.invoke({ n: 1 }));
    Date.now = realNow;
    console.log(JSON.stringify({ own: !("serde" in cache), outs, runs, namespaces: Object.keys(cache.cache) }));
  `;
  assert.deepEqual(runWithoutPeers(program), {
    own: true,
    outs: [{ n: 1, out: 2 }, { n: 1, out: 2 }, { n: 1, out: 2 }, { n: 1, out: 2 }],
    runs: 3,
    namespaces: ["__pregel_ns_writes,__dynamic__,a"],
  });
});

test("node options with the wrong shape are TypeErrors naming the option", () => {
  const add = (options) => () => new StateGraph(State).addNode("a", () => ({}), options);
  const refused = (fn, pattern) => assert.throws(fn, (e) => e instanceof TypeError && e.code === "INVALID_ARGUMENT" && pattern.test(e.message));
  refused(add({ cachePolicy: 5 }), /options\).cachePolicy must be an object like \{ttl, keyFunc\} or a boolean, got a number/);
  refused(add({ cachePolicy: { ttl: "1m" } }), /cachePolicy.ttl must be a number of seconds/);
  refused(add({ cachePolicy: { keyFunc: "id" } }), /cachePolicy.keyFunc must be a function/);
  refused(add({ timeout: "1s" }), /options\).timeout must be milliseconds or \{runTimeout, idleTimeout, refreshOn\}/);
  refused(add({ errorHandler: "retry" }), /options\).errorHandler must be a function \(state, nodeError, config\)/);
  refused(() => new StateGraph(State).setNodeDefaults(3), /setNodeDefaults\(defaults\): defaults must be an object/);
  refused(() => new StateGraph(State).setNodeDefaults({ retryPolicy: 3 }), /setNodeDefaults\(defaults\).retryPolicy must be an object/);
  refused(() => new StateGraph(State).setNodeDefaults({ errorHandler: {} }), /setNodeDefaults\(defaults\).errorHandler must be a function/);
  refused(() => new StateGraph(State).addNode("a", () => ({})).addEdge(START, "a").compile({ cache: {} }), /compile\(options\): options.cache must be a cache like InMemoryCache \(get, set, clear\)/);
  // A subgraph node runs in the engine: no retries or timeouts around it.
  const sub = new StateGraph(State).addNode("x", () => ({})).addEdge(START, "x").compile();
  assert.throws(() => new StateGraph(State).addNode("s", sub, { timeout: 10 }), (e) => e.name === "GraphValueError" && e.code === "UNSUPPORTED");
});

test("setNodeDefaults is resolved at compile: before or after addNode, a node's own policy wins", async () => {
  let calls = 0;
  const flaky = () => {
    calls += 1;
    if (calls % 3 !== 0) throw new Error(`call ${calls}`);
    return { log: [`call ${calls}`] };
  };
  const fast = { initialInterval: 1, jitter: false, logWarning: false };
  const graph = new StateGraph(State)
    .addNode("a", flaky)
    .addEdge(START, "a")
    .addEdge("a", END)
    .setNodeDefaults({ retryPolicy: { ...fast, maxAttempts: 3 } })
    .compile();
  assert.deepEqual(await graph.invoke({ log: [] }), { log: ["call 3"] });
  const own = new StateGraph(State)
    .setNodeDefaults({ retryPolicy: { ...fast, maxAttempts: 3 } })
    .addNode("a", flaky, { retryPolicy: { ...fast, maxAttempts: 1 } })
    .addEdge(START, "a")
    .compile();
  await assert.rejects(own.invoke({ log: [] }), /call 4/);
});

test("a NodeTimeoutError is one of the package's errors, with a code", async () => {
  const graph = new StateGraph(State)
    .addNode("slow", () => sleep(200).then(() => ({})), { timeout: 10 })
    .addEdge(START, "slow")
    .compile();
  const e = await graph.invoke({}).catch((err) => err);
  assert.ok(e instanceof NodeTimeoutError && e instanceof BaseLangGraphError && isNodeTimeoutError(e));
  assert.equal(e.code, "NODE_TIMEOUT");
  assert.equal(e.node, "slow");
  await sleep(250);
});

test("an error handler's node called on its own gets no NodeError; a handler on a subgraph node", async () => {
  const graph = new StateGraph(State)
    .addNode("a", () => ({}), { errorHandler: (state, nodeError) => ({ log: [`${state.n} ${nodeError === undefined}`] }) })
    .addEdge(START, "a")
    .compile();
  assert.deepEqual(await graph.nodes.__error_handler__a.invoke({ n: 1 }), { log: ["1 true"] });
  const failing = new StateGraph(State)
    .addNode("x", () => {
      throw new RangeError("inside");
    })
    .addEdge(START, "x")
    .compile();
  const parent = new StateGraph(State)
    .addNode("sub", failing, {
      errorHandler: (_state, e) => ({ log: [`${e.node}: ${e.error.name} ${e.error.message}`, isNodeError(e) && e instanceof NodeError] }),
    })
    .addEdge(START, "sub")
    .compile({ checkpointer: new MemorySaver() });
  assert.deepEqual(await parent.invoke({ log: [] }, { configurable: { thread_id: "s" } }), { log: ["sub: RangeError inside", true] });
});

test("a handler's Command and interrupt work as a node's; the resumed handler gets the stored error", async () => {
  const graph = new StateGraph(State)
    .addNode("a", () => {
      throw new SyntaxError("bad input");
    }, { errorHandler: (_s, e) => new Command({ goto: "ask", update: { log: [`${e.error.name}`] } }) })
    .addNode("ask", () => ({ log: [interrupt("fix it?")] }))
    .addEdge(START, "a")
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "c" } };
  const paused = await graph.invoke({ log: [] }, config);
  assert.equal(paused.__interrupt__[0].value, "fix it?");
  assert.deepEqual(await graph.invoke(new Command({ resume: "fixed" }), config), { log: ["SyntaxError", "fixed"] });
});

test("defer in the JSON graph format (StateGraph.fromSpec)", async () => {
  const graph = StateGraph.fromSpec({
    channels: { log: { reducer: "append" } },
    nodes: {
      a: { writes: [{ set: { log: ["a"] } }] },
      b: { writes: [{ set: { log: ["b"] } }] },
      b_2: { writes: [{ set: { log: ["b_2"] } }] },
      c: { writes: [{ set: { log: ["c"] } }] },
      d: { writes: [{ set: { log: ["d"] } }], defer: true },
    },
    edges: [["__start__", "a"], ["a", "b"], ["a", "c"], ["b", "b_2"], ["b_2", "d"], ["c", "d"], ["d", "__end__"]],
  }).compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "spec" } };
  assert.deepEqual(await graph.invoke({ log: [] }, config), { log: ["a", "b", "c", "b_2", "d"] });
  const next = (await collect(graph.getStateHistory(config))).map((s) => s.next);
  assert.deepEqual(next, [[], ["d"], ["b_2"], ["b", "c"], ["a"], ["__start__"]]);
});
