// stream(): every mode, several modes at once, both LangGraph.js call forms,
// interrupts, and errors.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Command, END, interrupt, MemorySaver, START, StateGraph } from "chronograph";
import { collect } from "./support.mjs";

const build = (options = {}) =>
  new StateGraph({ log: "append" })
    .addNode("a", async () => ({ log: ["a"] }))
    .addNode("b", () => ({ log: ["b"] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", END)
    .compile({ checkpointer: new MemorySaver(), ...options });
let n = 0;
const thread = () => ({ configurable: { thread_id: `s${++n}` } });

test('"updates" is the default: one {node: update} per node, __start__ hidden', async () => {
  const chunks = await collect(build().stream({ log: [] }, thread()));
  assert.deepEqual(chunks, [{ a: { log: ["a"] } }, { b: { log: ["b"] } }]);
});

test('"values": the state after each superstep', async () => {
  const chunks = await collect(build().stream({ log: ["in"] }, thread(), { streamMode: "values" }));
  assert.deepEqual(chunks, [{ log: ["in"] }, { log: ["in", "a"] }, { log: ["in", "a", "b"] }]);
});

test('"checkpoints": every saved checkpoint with the run config, metadata, parent, next and tasks', async () => {
  const cfg = thread();
  const chunks = await collect(build().stream({ log: [] }, cfg, { streamMode: "checkpoints" }));
  assert.deepEqual(
    chunks.map((c) => [c.metadata.source, c.metadata.step, c.next, c.values.log]),
    [
      ["input", -1, ["__start__"], undefined],
      ["loop", 0, ["a"], []],
      ["loop", 1, ["b"], ["a"]],
      ["loop", 2, [], ["a", "b"]],
    ],
  );
  assert.equal(chunks[0].parentConfig, undefined);
  for (let i = 1; i < chunks.length; i++) {
    assert.equal(chunks[i].parentConfig.configurable.checkpoint_id, chunks[i - 1].config.configurable.checkpoint_id);
    assert.equal(chunks[i].config.configurable.thread_id, cfg.configurable.thread_id);
    // LangGraph.js: the loop's metadata (source, step, parents); the run's config carries thread_id.
    assert.deepEqual(Object.keys(chunks[i].metadata), ["source", "step", "parents"]);
    assert.equal(chunks[i].config.metadata.thread_id, cfg.configurable.thread_id);
  }
});

test('"tasks" and "debug": task starts and results, and checkpoints, with steps', async () => {
  const tasks = await collect(build().stream({ log: [] }, thread(), { streamMode: "tasks" }));
  assert.deepEqual(
    tasks.map((t) => [t.name, "error" in t ? "result" : "start"]),
    [
      ["a", "start"],
      ["a", "result"],
      ["b", "start"],
      ["b", "result"],
    ],
  );
  assert.equal(tasks[1].error, null);
  assert.deepEqual(tasks[1].interrupts, []);
  const debug = await collect(build().stream({ log: [] }, thread(), { streamMode: "debug" }));
  assert.deepEqual(
    debug.map((d) => [d.type, d.step]),
    [
      ["checkpoint", -1],
      ["checkpoint", 0],
      ["task", 1],
      ["task_result", 1],
      ["checkpoint", 1],
      ["task", 2],
      ["task_result", 2],
      ["checkpoint", 2],
    ],
  );
  assert.ok(debug.every((d) => !Number.isNaN(Date.parse(d.timestamp))));
  assert.equal(debug[2].payload.name, "a");
});

test("several modes give [mode, chunk] pairs, in the order they happen", async () => {
  const chunks = await collect(build().stream({ log: [] }, thread(), { streamMode: ["updates", "values"] }));
  assert.deepEqual(chunks, [
    ["values", { log: [] }],
    ["updates", { a: { log: ["a"] } }],
    ["values", { log: ["a"] }],
    ["updates", { b: { log: ["b"] } }],
    ["values", { log: ["a", "b"] }],
  ]);
});

test("await graph.stream(...) (LangGraph.js's form) and streamMode in the config work too", async () => {
  const stream = await build().stream({ log: [] }, { ...thread(), streamMode: "values" });
  const chunks = await collect(stream);
  assert.equal(chunks.length, 3);
});

test("an interrupt is reported as {__interrupt__: [...]}; a breakpoint as an empty list", async () => {
  const graph = new StateGraph({ v: "last_value" })
    .addNode("ask", () => ({ v: interrupt("v?") }))
    .addEdge(START, "ask")
    .compile({ checkpointer: new MemorySaver() });
  const cfg = thread();
  const chunks = await collect(graph.stream({ v: 0 }, cfg));
  assert.equal(chunks.length, 1);
  assert.equal(chunks[0].__interrupt__[0].value, "v?");
  assert.deepEqual(await collect(graph.stream(new Command({ resume: 1 }), cfg)), [{ ask: { v: 1 } }]);

  const paused = build({ interruptBefore: ["b"] });
  assert.deepEqual(await collect(paused.stream({ log: [] }, thread())), [{ a: { log: ["a"] } }, { __interrupt__: [] }]);
});

test("a failing run yields what happened before, then throws its error", async () => {
  const boom = new Error("boom");
  const graph = new StateGraph({ log: "append" })
    .addNode("a", () => ({ log: ["a"] }))
    .addNode("b", () => {
      throw boom;
    })
    .addEdge(START, "a")
    .addEdge("a", "b")
    .compile({ checkpointer: new MemorySaver() });
  const seen = [];
  await assert.rejects(
    (async () => {
      for await (const chunk of graph.stream({ log: [] }, thread())) seen.push(chunk);
    })(),
    (e) => e === boom && e.node === "b",
  );
  assert.deepEqual(seen, [{ a: { log: ["a"] } }]);
});

test("breaking out of the loop early is fine", async () => {
  const graph = build();
  const cfg = thread();
  for await (const chunk of graph.stream({ log: [] }, cfg)) {
    assert.deepEqual(chunk, { a: { log: ["a"] } });
    break;
  }
  // The run itself completes in the background.
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual((await graph.getState(cfg)).values, { log: ["a", "b"] });
});
