// Shapes the JS surface takes from LangGraph.js where LangGraph (Python)
// differs or the engine alone does not say (npm/test/compat/ programs 06, 09,
// 10, 11, 30, 32, 33 and 37 compare them with LangGraph.js itself).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Command, END, interrupt, MemorySaver, START, StateGraph, UnreachableNodeError } from "chronograph";
import { collect } from "./support.mjs";

let n = 0;
const thread = () => ({ configurable: { thread_id: `shapes${++n}` } });

test("compile refuses a node nothing leads to with UnreachableNodeError", () => {
  const build = () => new StateGraph({ v: "last_value" }).addNode("a", () => ({})).compile();
  assert.throws(build, (e) => e instanceof UnreachableNodeError && e.lc_error_code === "UNREACHABLE_NODE" && /^Node `a` is not reachable\./.test(e.message));
});

test("a node sees its task's checkpoint_ns in config.configurable and no checkpoint_id", async () => {
  const seen = [];
  const graph = new StateGraph({ v: "last_value" })
    .addNode("read", (_s, config) => {
      seen.push([config.configurable.checkpoint_ns, "checkpoint_id" in config.configurable, config.configurable.checkpoint_id, config.metadata.langgraph_checkpoint_ns]);
      return {};
    })
    .addEdge(START, "read")
    .compile({ checkpointer: new MemorySaver() });
  await graph.invoke({ v: 1 }, thread());
  const [[ns, hasKey, id, metaNs]] = seen;
  assert.match(ns, /^read:[0-9a-f-]{36}$/);
  assert.deepEqual([hasKey, id, metaNs], [true, undefined, ns]);
});

test("durability 'exit' keeps only the checkpoint each run ends on", async () => {
  const graph = new StateGraph({ log: "append" })
    .addNode("one", () => ({ log: ["one"] }))
    .addNode("two", () => ({ log: ["two"] }))
    .addEdge(START, "one")
    .addEdge("one", "two")
    .addEdge("two", END)
    .compile({ checkpointer: new MemorySaver() });
  const cfg = thread();
  await graph.invoke({ log: [] }, { ...cfg, durability: "exit" });
  const history = await collect(graph.getStateHistory(cfg));
  assert.deepEqual(history.map((s) => s.metadata.step), [2]);
  await assert.rejects(() => graph.invoke({ log: [] }, { ...cfg, durability: "later" }), { name: "TypeError", code: "INVALID_ARGUMENT" });
});

test("withConfig graphs run (their private methods exist) with the bound config", async () => {
  const graph = new StateGraph({ n: "sum" })
    .addNode("loop", () => ({ n: 1 }))
    .addEdge(START, "loop")
    .addConditionalEdges("loop", () => "loop")
    .compile();
  await assert.rejects(() => graph.withConfig({ recursionLimit: 3 }).invoke({ n: 0 }), { name: "GraphRecursionError" });
});

test("a superstep that writes no state key adds no values chunk", async () => {
  const graph = new StateGraph({ log: "append" })
    .addNode("a", () => ({ log: ["a"] }))
    .addNode("noop", () => ({}))
    .addEdge(START, "a")
    .addEdge("a", "noop")
    .compile();
  assert.deepEqual(await collect(graph.stream({ log: [] }, { streamMode: "values" })), [{ log: [] }, { log: ["a"] }]);
});

test("an interrupt is reported in both the values and the updates modes", async () => {
  const graph = new StateGraph({ v: "last_value" })
    .addNode("ask", () => ({ v: interrupt("v?") }))
    .addEdge(START, "ask")
    .compile({ checkpointer: new MemorySaver() });
  const chunks = await collect(graph.stream({ v: 0 }, { ...thread(), streamMode: ["values", "updates"] }));
  assert.deepEqual(
    chunks.map(([mode, c]) => [mode, Object.keys(c)]),
    [
      ["values", ["v"]],
      ["updates", ["__interrupt__"]],
      ["values", ["__interrupt__"]],
    ],
  );
});

test("parallel interrupts come in node-name order; invoke returns only them when no values were reported", async () => {
  const graph = new StateGraph({ answers: "append" })
    .addNode("z", () => ({ answers: [interrupt("z?")] }))
    .addNode("a", () => ({ answers: [interrupt("a?")] }))
    .addEdge(START, "z")
    .addEdge(START, "a")
    .compile({ checkpointer: new MemorySaver() });
  const paused = await graph.invoke({}, thread());
  assert.deepEqual(Object.keys(paused), ["__interrupt__"]);
  assert.deepEqual(paused.__interrupt__.map((i) => i.value), ["a?", "z?"]);
});

test("checkpoints chunks carry the run's config, the loop's metadata and the tasks to run", async () => {
  const graph = new StateGraph({ v: "append" })
    .addNode("ask", () => ({ v: [interrupt("q")] }))
    .addEdge(START, "ask")
    .compile({ checkpointer: new MemorySaver() });
  const cfg = { configurable: { thread_id: "shapes-cp", user: "u" }, metadata: { kind: "k" } };
  await graph.invoke({ v: [] }, cfg);
  const [resumed] = await collect(graph.stream(new Command({ resume: "yes" }), { ...cfg, streamMode: "checkpoints" }));
  assert.deepEqual(Object.keys(resumed), ["config", "values", "metadata", "next", "tasks", "parentConfig"]);
  assert.deepEqual(Object.keys(resumed.config.configurable), ["checkpoint_ns", "thread_id", "user", "checkpoint_id"]);
  assert.deepEqual(resumed.config.metadata, { ls_integration: "langgraph", kind: "k", thread_id: "shapes-cp" });
  assert.deepEqual([resumed.config.recursion_limit, resumed.config.tags], [25, []]);
  assert.deepEqual(resumed.tasks[0].interrupts.map((i) => i.value), ["q"]);
  // The parent of the checkpoint a run starts from, as the saver gives it.
  assert.deepEqual(Object.keys(resumed.parentConfig.configurable), ["thread_id", "checkpoint_ns", "checkpoint_id"]);
});

test("an update as a pending node does not become that task's result (LangGraph.js's update task ids)", async () => {
  const graph = new StateGraph({ log: "append" })
    .addNode("plan", () => ({ log: ["plan"] }))
    .addNode("act", () => ({ log: ["act"] }))
    .addEdge(START, "plan")
    .addEdge("plan", "act")
    .compile({ checkpointer: new MemorySaver(), interruptBefore: ["act"] });
  const cfg = thread();
  await graph.invoke({ log: [] }, cfg);
  await graph.updateState(cfg, { log: ["skipped"] }, "act");
  const [, base] = await collect(graph.getStateHistory(cfg));
  assert.equal(base.tasks[0].name, "act");
  assert.equal(base.tasks[0].result, undefined);
});

test("Command.graph other than Command.PARENT leaves the command to the node's own graph", async () => {
  const graph = new StateGraph({ log: "append" })
    .addNode("a", () => new Command({ update: { log: ["a"] }, goto: "b", graph: "PARENT" }), { ends: ["b"] })
    .addNode("b", () => ({ log: ["b"] }))
    .addEdge(START, "a")
    .compile();
  assert.deepEqual(await graph.invoke({ log: [] }), { log: ["a", "b"] });
});

test("a run without a thread_id fails as LangGraph.js's MemorySaver does", async () => {
  const graph = new StateGraph({ v: "last_value" }).addNode("a", () => ({})).addEdge(START, "a").compile({ checkpointer: new MemorySaver() });
  await assert.rejects(() => graph.invoke({ v: 1 }), (e) => e.name === "Error" && e.code === "MISSING_THREAD_ID" && /^Failed to put checkpoint\./.test(e.message));
});
