// A node written `(state) => ...` has its config made only when something
// asks for it (npm/src/config_use.ts, runtime.ts `wrapNode`): what such a
// node sees through getConfig(), interrupt() and getStore() must be what a
// `(state, config) => ...` node is handed, and the scan that decides it
// must never call a function that can see its config one that cannot.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Command, getConfig, InMemoryStore, interrupt, getStore, MemorySaver, START, StateGraph } from "chronograph";
import { sleep } from "./support.mjs";

const { ignoresConfig } = await import(new URL("../../pkg/pregel/config_use.js", import.meta.url));

test("ignoresConfig: one plain parameter (or none) and no `arguments` cannot see the config", () => {
  const cannot = [
    () => 1,
    (state) => state,
    (state,) => state,
    async (state) => state,
    (state) => state,
    ({ count, trail }) => count + trail.length,
    ([first, second]) => first + second,
    function node(state) { return state; },
    async function node(state) { return state; },
    function* gen(state) { yield state; },
    { method(state) { return state; } }.method,
    { async method({ a, b }) { return a + b; } }.method,
  ];
  for (const fn of cannot) assert.equal(ignoresConfig(fn), true, String(fn));
  // (Written from source, so that the test sees the forms as a user writes them.)
  const bare = new Function("return state => state")();
  assert.equal(ignoresConfig(bare), true);
  const unicode = new Function("return étape => étape")();
  assert.equal(ignoresConfig(unicode), true);
});

test("ignoresConfig: every form that can reach a second argument, or whose text cannot be read, can see it", () => {
  const can = [
    (state, config) => [state, config],
    (state, config = {}) => [state, config],
    (state = {}) => state,
    (...all) => all,
    (state, ...rest) => [state, rest],
    ({ a = 1 }) => a,
    (state /* , config */) => state,
    (state, { configurable }) => [state, configurable],
    function node(state) { return arguments[1] ?? state; },
    function node(state) { const inner = () => arguments; return inner(state); },
    ((state, config) => [state, config]).bind(null),
    ((state) => state).bind(null),
    new Proxy((state) => state, {}),
    class Node {},
    { ["computed" + "(x)"](state) { return state; } }["computed(x)"],
  ];
  for (const fn of can) assert.equal(ignoresConfig(fn), false, String(fn));
  assert.equal(ignoresConfig("not a function"), false);
});

test("a (state) => node's getConfig() is the config a (state, config) => node is handed", async () => {
  const seen = {};
  // The two configs with what names their node (and generated ids, the start time) left out.
  const shape = (c, node) =>
    JSON.parse(
      JSON.stringify({
        ...c,
        metadata: { ...c.metadata, langgraph_node: "N", langgraph_step: 0, langgraph_path: "P", langgraph_triggers: "T" },
        executionInfo: { ...c.executionInfo, nodeFirstAttemptTime: 0 },
        runName: c.runName === node ? "N" : c.runName,
      })
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "id")
        .replaceAll(`"${node}:id"`, '"N:id"'),
    );
  const graph = new StateGraph({ x: "last_value" })
    .addNode("a", (state) => {
      seen.a = getConfig();
      return { x: state.x + 1 };
    })
    .addNode("b", (state, config) => {
      seen.b = config;
      return { x: state.x + 1 };
    })
    .addEdge(START, "a")
    .addEdge("a", "b")
    .compile({ checkpointer: new MemorySaver() });
  await graph.invoke({ x: 1 }, { configurable: { thread_id: "lazy", user: "ann" }, recursionLimit: 9, metadata: { run: "r1" }, tags: ["t"] });
  assert.deepEqual(Object.keys(seen.a), Object.keys(seen.b));
  assert.deepEqual(shape(seen.a, "a"), shape(seen.b, "b"));
  assert.equal(seen.a.metadata.langgraph_node, "a");
  assert.equal(seen.a.configurable.user, "ann");
  assert.equal(getConfig(), undefined);
});

test("a (state) => node's config, asked for late, says when the node started", async () => {
  let started;
  let info;
  const graph = new StateGraph({ x: "last_value" })
    .addNode("slow", async (state) => {
      started ??= Date.now();
      await sleep(30);
      info = getConfig().executionInfo;
      return { x: state.x };
    })
    .addEdge(START, "slow")
    .compile();
  await graph.invoke({ x: 1 });
  assert.ok(info.nodeFirstAttemptTime <= started, `${info.nodeFirstAttemptTime} > ${started}`);
  assert.equal(info.nodeAttempt, 1);
});

test("a (state) => node reaches interrupt(), its store and its config's signal without being handed its config", async () => {
  const store = new InMemoryStore();
  await store.put(["prefs"], "ann", { color: "blue" });
  const graph = new StateGraph({ x: "last_value", answer: "last_value", color: "last_value" })
    .addNode("ask", async (state) => {
      const item = await getStore().get(["prefs"], "ann");
      const answer = interrupt({ question: "name?" });
      return { answer, color: item.value.color, x: getConfig().signal instanceof AbortSignal ? state.x : -1 };
    })
    .addEdge(START, "ask")
    .compile({ checkpointer: new MemorySaver(), store });
  const config = { configurable: { thread_id: "lazy-interrupt" } };
  const first = await graph.invoke({ x: 1 }, config);
  assert.deepEqual(first.__interrupt__.map((i) => i.value), [{ question: "name?" }]);
  assert.deepEqual(await graph.invoke(new Command({ resume: "Ann" }), config), { x: 1, answer: "Ann", color: "blue" });
});

test("a (state) => node with a retry policy still gets a config per attempt", async () => {
  const attempts = [];
  const graph = new StateGraph({ x: "last_value" })
    .addNode(
      "flaky",
      (state) => {
        attempts.push(getConfig().executionInfo.nodeAttempt);
        if (attempts.length < 2) throw new Error("once");
        return { x: state.x + 1 };
      },
      { retryPolicy: { maxAttempts: 3, initialInterval: 1, jitter: false } },
    )
    .addEdge(START, "flaky")
    .compile();
  assert.deepEqual(await graph.invoke({ x: 1 }), { x: 2 });
  assert.deepEqual(attempts, [1, 2]);
});
