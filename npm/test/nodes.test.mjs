// JavaScript nodes, routers and reducers on the npm package: sync and async,
// interrupts and resume, Command, failures that leave the thread resumable,
// and the state cache.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Command, END, GraphValueError, interrupt, MemorySaver, Send, START, StateGraph } from "chronograph";
import { collect, sleep } from "./support.mjs";

let threads = 0;
const thread = () => ({ configurable: { thread_id: `t${++threads}` } });

test("async nodes and async routers run, in supersteps, with a fan-out", async () => {
  const order = [];
  const graph = new StateGraph({ log: "append", hops: "sum" })
    .addNode("plan", async (state) => {
      await sleep(2);
      order.push("plan");
      return { log: ["plan"], hops: 1 };
    })
    .addNode("a", async () => {
      await sleep(5);
      order.push("a");
      return { log: ["a"] };
    })
    .addNode("b", (state) => {
      order.push("b");
      return { log: [`b saw ${state.log.length}`] };
    })
    .addNode("join", (state) => ({ log: [`join saw ${state.log.join(",")}`] }))
    .addEdge(START, "plan")
    .addConditionalEdges("plan", async (state) => {
      await sleep(1);
      return state.hops > 0 ? ["a", "b"] : END;
    })
    .addEdge(["a", "b"], "join")
    .addEdge("join", END)
    .compile({ checkpointer: new MemorySaver() });
  const cfg = thread();
  const out = await graph.invoke({ log: [], hops: 0 }, cfg);
  assert.deepEqual(out.log, ["plan", "a", "b saw 1", "join saw plan,a,b saw 1"]);
  assert.deepEqual(order, ["plan", "b", "a"], "a and b run concurrently in one superstep");
  const history = await collect(graph.getStateHistory(cfg));
  assert.deepEqual(
    history.map((s) => [s.metadata.step, s.metadata.source, s.next]),
    [
      [3, "loop", []],
      [2, "loop", ["join"]],
      [1, "loop", ["a", "b"]],
      [0, "loop", ["plan"]],
      [-1, "input", ["__start__"]],
    ],
  );
});

test("a router's pathMap translates its results; a list of destinations only declares them", async () => {
  const graph = new StateGraph({ n: "last_value", where: "last_value" })
    .addNode("start", (s) => ({ n: s.n + 1 }))
    .addNode("small", () => ({ where: "small" }))
    .addNode("big", () => ({ where: "big" }))
    .addEdge(START, "start")
    .addConditionalEdges("start", (s) => (s.n < 5 ? "lo" : "hi"), { lo: "small", hi: "big" })
    .addConditionalEdges("small", () => END, [END])
    .compile();
  assert.deepEqual(await graph.invoke({ n: 1 }), { n: 2, where: "small" });
  assert.deepEqual(await graph.invoke({ n: 9 }), { n: 10, where: "big" });
});

test("node config carries the run's config and the node name, step and task", async () => {
  const seen = [];
  const graph = new StateGraph({ x: "last_value" })
    .addNode("a", (_, config) => {
      seen.push(config);
      return {};
    })
    .addEdge(START, "a")
    .compile({ checkpointer: new MemorySaver() });
  await graph.invoke({ x: 1 }, { configurable: { thread_id: "cfg", user_id: "ann" }, recursionLimit: 9, metadata: { run: "r1" } });
  assert.equal(seen.length, 1);
  const { configurable, recursionLimit, metadata, executionInfo } = seen[0];
  // LangGraph.js's task config: the task's namespace, its checkpoint map, no checkpoint id.
  const { checkpoint_ns, checkpoint_id, checkpoint_map, ...own } = configurable;
  assert.deepEqual(own, { thread_id: "cfg", user_id: "ann" });
  assert.match(checkpoint_ns, /^a:[0-9a-f-]{36}$/);
  assert.ok("checkpoint_id" in configurable && checkpoint_id === undefined);
  assert.deepEqual(Object.keys(checkpoint_map), [""]);
  assert.equal(metadata.langgraph_checkpoint_ns, checkpoint_ns);
  assert.equal(recursionLimit, 9);
  assert.equal(metadata.run, "r1");
  assert.equal(metadata.ls_integration, "langgraph");
  assert.equal(metadata.thread_id, "cfg");
  assert.equal(metadata.langgraph_node, "a");
  assert.equal(metadata.langgraph_step, 1);
  assert.deepEqual(metadata.langgraph_triggers, ["branch:to:a"]);
  assert.deepEqual(metadata.langgraph_path, ["__pregel_pull", "a"]);
  assert.ok(!("langgraph_task_id" in metadata), "LangGraph.js has no langgraph_task_id");
  assert.equal(`a:${executionInfo.taskId}`, checkpoint_ns);
  assert.equal(executionInfo.checkpointId, checkpoint_map[""]);
  assert.equal(executionInfo.threadId, "cfg");
  assert.equal(executionInfo.nodeAttempt, 1);
  assert.equal(typeof executionInfo.nodeFirstAttemptTime, "number");
  assert.equal(seen[0].runName, "a");
  assert.equal(typeof seen[0].writer, "function", "a writer even when the run does not stream custom");
  assert.doesNotThrow(() => seen[0].writer({ ignored: true }));
  assert.equal(seen[0].interrupt, interrupt);
});

test("node config: LangGraph.js's keys in its order, a fresh config per call sharing the caller's values", async () => {
  const seen = [];
  const graph = new StateGraph({ x: "last_value" })
    .addNode("a", (_, config) => {
      seen.push(structuredClone({ ...config, writer: undefined, interrupt: undefined, signal: undefined }));
      config.configurable.deep?.list.push("mutated by a");
      config.metadata.tag?.push("mutated by a");
      config.tags.push("only a's");
      return {};
    })
    .addNode("b", async (_, config) => {
      seen.push(structuredClone({ ...config, writer: undefined, interrupt: undefined, signal: undefined }));
      return {};
    })
    .addEdge(START, "a")
    .addEdge("a", "b")
    .compile({ checkpointer: new MemorySaver() });
  const configurable = { thread_id: "order", zeta: 1, deep: { list: [1] } };
  await graph.invoke({ x: 1 }, { configurable, recursionLimit: 9, metadata: { run: "r1", tag: ["t"], langgraph_step: "overridden" } });
  await graph.invoke({ x: 1 }, { configurable: { thread_id: "order2" } });
  const shape = (c) =>
    JSON.parse(
      JSON.stringify(c, (k, v) => {
        if (["checkpoint_ns", "langgraph_checkpoint_ns", "checkpointNs", "checkpointId", "taskId", ""].includes(k) && typeof v === "string") return "id";
        if (k === "nodeFirstAttemptTime") return typeof v;
        return v;
      }),
    );
  const meta = (node, step, extra) => ({
    ls_integration: "langgraph",
    ...extra,
    langgraph_step: step,
    thread_id: extra ? "order" : "order2",
    langgraph_node: node,
    langgraph_triggers: [`branch:to:${node}`],
    langgraph_path: ["__pregel_pull", node],
    langgraph_checkpoint_ns: "id",
    checkpoint_ns: "id",
  });
  const info = (thread) => ({ checkpointId: "id", checkpointNs: "id", taskId: "id", threadId: thread, nodeAttempt: 1, nodeFirstAttemptTime: "number" });
  const own = { thread_id: "order", zeta: 1 };
  assert.deepEqual(seen.map(shape), [
    { tags: [], metadata: meta("a", 1, { run: "r1", tag: ["t"] }), recursionLimit: 9, configurable: { ...own, deep: { list: [1] }, checkpoint_map: { "": "id" }, checkpoint_ns: "id" }, runName: "a", executionInfo: info("order") },
    // LangGraph.js shares the caller's values between calls (a node's change shows in the next), not its tags.
    { tags: [], metadata: meta("b", 2, { run: "r1", tag: ["t", "mutated by a"] }), recursionLimit: 9, configurable: { ...own, deep: { list: [1, "mutated by a"] }, checkpoint_map: { "": "id" }, checkpoint_ns: "id" }, runName: "b", executionInfo: info("order") },
    // Without one, LangGraph.js's default recursionLimit.
    { tags: [], metadata: meta("a", 1), recursionLimit: 25, configurable: { thread_id: "order2", checkpoint_map: { "": "id" }, checkpoint_ns: "id" }, runName: "a", executionInfo: info("order2") },
    { tags: [], metadata: meta("b", 2), recursionLimit: 25, configurable: { thread_id: "order2", checkpoint_map: { "": "id" }, checkpoint_ns: "id" }, runName: "b", executionInfo: info("order2") },
  ]);
  // Every call sees the keys in LangGraph.js's order.
  const order = (v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.entries(v).map(([k, x]) => [k, order(x)]) : null);
  assert.deepEqual(order(seen.map(shape)[0]), order(shape({ tags: [], metadata: meta("a", 1, { run: "r1", tag: [] }), recursionLimit: 9, configurable: { ...own, deep: { list: [] }, checkpoint_map: { "": "id" }, checkpoint_id: undefined, checkpoint_ns: "id" }, signal: undefined, writer: undefined, interrupt: undefined, runName: "a", executionInfo: info("order") })));
  assert.deepEqual(configurable.deep.list, [1, "mutated by a"], "the caller's values are the node's, as in LangGraph.js");
});

test("updates read the same whether plain JSON or not (undefined, decimals, big and odd numbers, bad strings)", async () => {
  const plain = { s: "é😀 \"q\"\n", n: -123456789012, z: -0, t: true, nil: null, arr: [1, "x", [{ k: false }]], obj: { "2": 2, "1": 1, b: "b" } };
  const odd = { a: 1.1, sum: 0.1 + 0.2, big: 2 ** 60, huge: 1e21, nan: NaN, undef: undefined, nested: { u: undefined }, holes: [1, , 3] };
  const lone = { s: "x\ud800y" };
  const want = {
    ...plain,
    z: 0,
    // `undefined` stays `undefined`, as LangGraph.js writes it (a hole reads as one).
    ...{ a: 1.1, sum: 0.30000000000000004, big: 2 ** 60, huge: 1e21, nan: null, undef: undefined, nested: { u: undefined }, holes: [1, undefined, 3] },
    s: "x\ufffdy",
  };
  const channels = Object.fromEntries(Object.keys(want).map((k) => [k, "last_value"]));
  const graph = new StateGraph(channels)
    .addNode("plain", () => plain)
    .addNode("odd", async () => odd)
    .addNode("lone", () => lone)
    .addEdge(START, "plain")
    .addEdge("plain", "odd")
    .addEdge("odd", "lone")
    .compile({ checkpointer: new MemorySaver() });
  const out = await graph.invoke({ n: 0 }, thread());
  assert.deepEqual(out, want);
  assert.ok(Object.is(out.z, 0));
  // An object with `lg_name: "Command"` is read as a Command (here: no update, nowhere to go).
  const command = new StateGraph({ x: "last_value" })
    .addNode("n", () => ({ lg_name: "Command", goto: [] }))
    .addEdge(START, "n")
    .compile({ checkpointer: new MemorySaver() });
  assert.deepEqual(await command.invoke({ x: 0 }, thread()), { x: 0 });
});

test("JS reducers: with a default, without one (first write taken), and several writes in a step", async () => {
  const calls = [];
  const graph = new StateGraph({
    best: { reducer: (a, b) => (calls.push([a, b]), Math.max(a, b)), default: () => 10 },
    words: { reducer: (a, b) => `${a} ${b}` },
    seen: { reducer: (a, b) => [...a, ...b], default: () => [] },
  })
    .addNode("x", () => ({ best: 3, words: "hello", seen: ["x"] }))
    .addNode("y", () => ({ best: 42, words: "world", seen: ["y"] }))
    .addEdge(START, "x")
    .addEdge(START, "y")
    .compile({ checkpointer: new MemorySaver() });
  const cfg = thread();
  const out = await graph.invoke({ words: "say" }, cfg);
  assert.deepEqual(out, { best: 42, words: "say hello world", seen: ["x", "y"] });
  assert.deepEqual(calls, [
    [10, 3],
    [10, 42],
  ]);
  await graph.updateState(cfg, { best: 7, seen: ["u"] }, "x");
  assert.deepEqual((await graph.getState(cfg)).values, { best: 42, words: "say hello world", seen: ["x", "y", "u"] });
});

test("interrupt() pauses a node; Command({resume}) answers it, also after an await (Node)", async () => {
  let runs = 0;
  const graph = new StateGraph({ draft: "last_value", verdict: "last_value" })
    .addNode("write", () => ({ draft: "v1" }))
    .addNode("review", async (state) => {
      runs++;
      await sleep(1);
      const verdict = interrupt({ question: "ok?", draft: state.draft });
      await sleep(1);
      const note = interrupt("note?");
      return { verdict: `${verdict} (${note})` };
    })
    .addEdge(START, "write")
    .addEdge("write", "review")
    .addEdge("review", END)
    .compile({ checkpointer: new MemorySaver() });
  const cfg = thread();
  const first = await graph.invoke({ draft: "" }, cfg);
  assert.equal(first.draft, "v1");
  assert.equal(first.__interrupt__.length, 1);
  assert.deepEqual(first.__interrupt__[0].value, { question: "ok?", draft: "v1" });
  assert.match(first.__interrupt__[0].id, /^[0-9a-f]{32}$/);
  const paused = await graph.getState(cfg);
  assert.deepEqual(paused.next, ["review"]);
  assert.deepEqual(paused.tasks[0].interrupts, first.__interrupt__);

  const second = await graph.invoke(new Command({ resume: "yes" }), cfg);
  assert.deepEqual(
    second.__interrupt__.map((i) => i.value),
    ["note?"],
  );
  const done = await graph.invoke(new Command({ resume: "fine" }), cfg);
  assert.deepEqual(done, { draft: "v1", verdict: "yes (fine)" });
  assert.equal(runs, 3, "the node re-runs from its first line on every resume");
});

test("parallel interrupts are resumed by id", async () => {
  const graph = new StateGraph({ answers: "append" })
    .addNode("p", async () => ({ answers: [`p:${interrupt("p?")}`] }))
    .addNode("q", async () => {
      await sleep(3);
      return { answers: [`q:${interrupt("q?")}`] };
    })
    .addEdge(START, "p")
    .addEdge(START, "q")
    .compile({ checkpointer: new MemorySaver() });
  const cfg = thread();
  const paused = await graph.invoke({ answers: [] }, cfg);
  const byValue = Object.fromEntries(paused.__interrupt__.map((i) => [i.value, i.id]));
  assert.deepEqual(Object.keys(byValue).sort(), ["p?", "q?"]);
  await assert.rejects(graph.invoke(new Command({ resume: "x" }), cfg), /multiple pending interrupts/);
  const out = await graph.invoke(new Command({ resume: { [byValue["p?"]]: 1, [byValue["q?"]]: 2 } }), cfg);
  assert.deepEqual(out.answers.sort(), ["p:1", "q:2"]);
});

test("interrupt(value, config) finds its node without async context (the browser path)", async () => {
  const graph = new StateGraph({ v: "last_value" })
    .addNode("ask", async (_, config) => {
      await sleep(1);
      return { v: interrupt("v?", config) };
    })
    .addEdge(START, "ask")
    .compile({ checkpointer: new MemorySaver() });
  const cfg = thread();
  assert.equal((await graph.invoke({ v: 0 }, cfg)).__interrupt__[0].value, "v?");
  assert.deepEqual(await graph.invoke(new Command({ resume: 5 }), cfg), { v: 5 });
});

test("interrupt() after its node finished is a GraphValueError", async () => {
  let later;
  const graph = new StateGraph({ x: "last_value" })
    .addNode("n", (_, config) => {
      later = () => interrupt("too late?", config);
      return { x: 1 };
    })
    .addEdge(START, "n")
    .compile({ checkpointer: new MemorySaver() });
  await graph.invoke({ x: 0 }, thread());
  assert.throws(later, (e) => e instanceof GraphValueError && e.code === "INTERRUPT_OUTSIDE_NODE");
});

test("interrupt() outside a node is a GraphValueError", () => {
  assert.throws(() => interrupt("x"), (e) => e instanceof GraphValueError && e.code === "INTERRUPT_OUTSIDE_NODE");
});

test("breakpoints pause before and after nodes; invoke(null) continues", async () => {
  const graph = new StateGraph({ log: "append" })
    .addNode("a", () => ({ log: ["a"] }))
    .addNode("b", () => ({ log: ["b"] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .compile({ checkpointer: new MemorySaver(), interruptBefore: ["b"] });
  const cfg = thread();
  // LangGraph.js reports the pause at a breakpoint as an empty __interrupt__ list.
  assert.deepEqual(await graph.invoke({ log: [] }, cfg), { log: ["a"], __interrupt__: [] });
  assert.deepEqual((await graph.getState(cfg)).next, ["b"]);
  assert.deepEqual(await graph.invoke(null, cfg), { log: ["a", "b"] });
});

test("Command({update, goto}) writes state and schedules nodes", async () => {
  const graph = new StateGraph({ log: "append" })
    // `ends`: b is reachable (LangGraph.js refuses an unreachable node at compile time).
    .addNode("a", () => ({ log: ["a"] }), { ends: ["b"] })
    .addNode("b", () => ({ log: ["b"] }))
    .addEdge(START, "a")
    .compile({ checkpointer: new MemorySaver() });
  const cfg = thread();
  await graph.invoke({ log: [] }, cfg);
  const out = await graph.invoke(new Command({ update: { log: ["cmd"] }, goto: "b" }), cfg);
  assert.deepEqual(out.log, ["a", "cmd", "b"]);
});

test("a node that throws rejects invoke with that very error, node attached; the thread resumes", async () => {
  class FlakyError extends Error {}
  let failures = 1;
  const thrown = [];
  const graph = new StateGraph({ log: "append" })
    .addNode("a", () => ({ log: ["a"] }))
    .addNode("flaky", async () => {
      await sleep(1);
      if (failures-- > 0) {
        const e = new FlakyError("upstream timed out");
        thrown.push(e);
        throw e;
      }
      return { log: ["flaky"] };
    })
    .addEdge(START, "a")
    .addEdge("a", "flaky")
    .compile({ checkpointer: new MemorySaver() });
  const cfg = thread();
  const error = await graph.invoke({ log: [] }, cfg).then(
    () => assert.fail("invoke should reject"),
    (e) => e,
  );
  assert.equal(error, thrown[0], "the same object the node threw");
  assert.ok(error instanceof FlakyError);
  assert.equal(error.node, "flaky");
  assert.equal(error.code, "NODE_ERROR");
  const snap = await graph.getState(cfg);
  assert.deepEqual(snap.next, ["flaky"]);
  assert.equal(snap.tasks[0].error.message, "upstream timed out");
  assert.deepEqual(await graph.invoke(null, cfg), { log: ["a", "flaky"] });
});

test("a thrown non-Error becomes a real Error (message, node, cause)", async () => {
  const graph = new StateGraph({ x: "last_value" })
    .addNode("bad", () => {
      throw "just a string";
    })
    .addEdge(START, "bad")
    .compile();
  const error = await graph.invoke({ x: 1 }).then(
    () => assert.fail("invoke should reject"),
    (e) => e,
  );
  assert.ok(error instanceof Error);
  assert.equal(error.message, "just a string");
  assert.equal(error.node, "bad");
  assert.equal(error.code, "NODE_ERROR");
  assert.equal(error.cause, "just a string");
});

test("a router or reducer that throws rejects with its error", async () => {
  const routerError = new Error("router broke");
  const g1 = new StateGraph({ x: "last_value" })
    .addNode("a", () => ({ x: 1 }))
    .addEdge(START, "a")
    .addConditionalEdges("a", () => {
      throw routerError;
    })
    .compile();
  await assert.rejects(g1.invoke({ x: 0 }), (e) => e === routerError && e.node === "a");
  const reducerError = new RangeError("no negatives");
  const g2 = new StateGraph({
    x: {
      reducer: (a, b) => {
        if (b < 0) throw reducerError;
        return a + b;
      },
    },
  })
    .addNode("a", () => ({ x: -1 }))
    .addEdge(START, "a")
    .compile();
  await assert.rejects(g2.invoke({ x: 1 }), (e) => e === reducerError);
});

test("state handed to nodes reuses unchanged channels (converted once, not every step)", async () => {
  const big = Array.from({ length: 200 }, (_, i) => ({ i, text: `item ${i}` }));
  const seen = [];
  const graph = new StateGraph({ corpus: "last_value", n: "last_value" })
    .addNode("count", (state) => {
      seen.push(state.corpus);
      return { n: state.n + 1 };
    })
    .addEdge(START, "count")
    .addConditionalEdges("count", (state) => (state.n < 20 ? "count" : END))
    .compile();
  const out = await graph.invoke({ corpus: big, n: 0 });
  assert.equal(out.n, 20);
  assert.equal(seen.length, 20);
  assert.ok(
    seen.every((c) => c === seen[0]),
    "every step sees the very same corpus object",
  );
  // corpus once; n once per node call and once per router call (the router reads the step's own write).
  assert.ok(graph._stateConversions <= 1 + 2 * 20, `conversions: ${graph._stateConversions}`);
});

test("a list that grows is converted incrementally: only its new items cross to JS", async () => {
  const seen = [];
  const graph = new StateGraph({ log: "append", n: "last_value" })
    .addNode("step", (state) => {
      seen.push(state.log);
      return { log: [{ n: state.n, text: `step ${state.n}` }], n: state.n + 1 };
    })
    .addEdge(START, "step")
    .addConditionalEdges("step", (state) => (state.n < 50 ? "step" : END))
    .compile();
  const out = await graph.invoke({ log: [{ n: -1, text: "input" }], n: 0 }, { recursionLimit: 100 });
  assert.equal(out.log.length, 51);
  assert.deepEqual(out.log.map((x) => x.n), [-1, ...Array.from({ length: 50 }, (_, i) => i)]);
  assert.equal(seen.length, 50);
  seen.forEach((log, i) => {
    assert.equal(log.length, i + 1, "each step sees the list as it was");
    if (i > 0) assert.notEqual(log, seen[i - 1], "a new array per version (old ones stay as they were)");
    if (i > 0) assert.equal(log[0], seen[i - 1][0], "items already converted are shared, not converted again");
  });
  // Full conversion would cost ~1+2+...+51 ≈ 1,300 list items per channel read; incremental ≈ 1 per new item per read.
  assert.ok(graph._stateItemsConverted < 400, `items converted: ${graph._stateItemsConverted}`);
});

test("a node may return an array of Commands and updates: every update in order, every goto (LangGraph.js)", async () => {
  const graph = new StateGraph({ log: "append" })
    .addNode("a", () => [new Command({ update: { log: ["c1"] }, goto: "b" }), { log: ["plain"] }, new Command({ update: [["log", ["c2"]]] })], { ends: ["b"] })
    .addNode("b", () => ({ log: ["b"] }))
    .addEdge(START, "a")
    .compile();
  assert.deepEqual((await graph.invoke({ log: [] })).log, ["c1", "plain", "c2", "b"]);
  const bad = new StateGraph({ log: "append" })
    .addNode("a", () => [new Command({ update: { log: ["c1"] } }), 3])
    .addEdge(START, "a")
    .compile();
  await assert.rejects(bad.invoke({ log: [] }), { name: "InvalidUpdateError", message: /^Expected node "a" to return an object or an array containing at least one Command object, received number/ });
});

test("updateState with a Command: its update is the node's, its goto's Sends run next", async () => {
  const graph = new StateGraph({ foo: "last_value", tasks: "append" })
    .addNode("map", () => ({}), { ends: ["task"] })
    .addNode("task", (t) => ({ tasks: [t.index] }))
    .addEdge(START, "map")
    .compile({ checkpointer: new MemorySaver() });
  const cfg = thread();
  await graph.updateState(cfg, new Command({ update: { foo: "map" }, goto: [new Send("task", { index: 0 }), new Send("task", { index: 1 })] }), "map");
  const state = await graph.getState(cfg);
  assert.deepEqual([state.values, state.next], [{ foo: "map" }, ["task", "task"]]);
  assert.deepEqual(await graph.invoke(null, cfg), { foo: "map", tasks: [0, 1] });
});

test("node config: the caller's configurable and metadata copied key for key (an own __proto__ key stays a key, symbols kept)", async () => {
  const seen = [];
  const graph = new StateGraph({ x: "last_value" })
    .addNode("a", (_, config) => {
      seen.push(config);
      return {};
    })
    .addEdge(START, "a")
    .compile({ checkpointer: new MemorySaver() });
  const tag = Symbol("tag");
  const configurable = JSON.parse('{"__proto__": {"polluted": true}, "thread_id": "own-keys", "b": 2}');
  configurable[tag] = "kept";
  const metadata = JSON.parse('{"__proto__": {"polluted": true}, "m": 1}');
  await graph.invoke({ x: 1 }, { configurable, metadata });
  const [config] = seen;
  assert.equal(Object.getPrototypeOf(config.configurable), Object.prototype);
  assert.equal(config.configurable.polluted, undefined);
  assert.deepEqual(Object.getOwnPropertyDescriptor(config.configurable, "__proto__")?.value, { polluted: true });
  assert.deepEqual(Object.keys(config.configurable).slice(0, 3), ["__proto__", "thread_id", "b"]);
  assert.equal(config.configurable[tag], "kept");
  assert.equal(Object.getPrototypeOf(config.metadata), Object.prototype);
  assert.equal(config.metadata.m, 1);
  assert.equal(config.metadata.polluted, undefined);
  // The caller's objects are copied, not changed.
  assert.deepEqual(Object.keys(configurable), ["__proto__", "thread_id", "b"]);
});
