// The state API on the npm package: the seed walkthrough, snapshots' shape,
// live vs addressed getState, history options, lineage, updateState's
// special writers and bulkUpdateState.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as chronograph from "chronograph";
import { COPY, END, INPUT, interrupt, MemorySaver, START, StateGraph } from "chronograph";
import { expected, walkthrough } from "./browser/walkthrough.mjs";
import { collect } from "./support.mjs";

test("the seed walkthrough: 8 checkpoints, replay 10, replay terminal 11, edit and run 13", async () => {
  assert.deepEqual(await walkthrough(chronograph), expected);
});

const linear = () =>
  new StateGraph({ step: "last_value" })
    .addNode("a", () => ({ step: 1 }))
    .addNode("b", (s) => ({ step: s.step + 1 }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", END)
    .compile({ checkpointer: new MemorySaver() });

test("snapshots have LangGraph.js's shape", async () => {
  const graph = linear();
  const cfg = { configurable: { thread_id: 7, user: "ann" }, metadata: { run: "r1" } };
  await graph.invoke({ step: 0 }, cfg);
  const s = await graph.getState(cfg);
  // LangGraph.js's key order.
  assert.deepEqual(Object.keys(s), ["values", "next", "tasks", "metadata", "config", "createdAt", "parentConfig"]);
  assert.deepEqual(s.values, { step: 2 });
  assert.deepEqual(s.next, []);
  assert.deepEqual(Object.keys(s.config.configurable), ["thread_id", "checkpoint_id", "checkpoint_ns"]);
  assert.equal(s.config.configurable.thread_id, "7", "a number thread id becomes a string");
  // LangGraph.js records no keys of the run's config in a checkpoint's metadata; the saver keeps them.
  assert.deepEqual(s.metadata, { source: "loop", step: 2, parents: {}, thread_id: "7" });
  // The saver gives back what it stored: no `thread_id` and none of the run's config (LangGraph.js's savers store
  // `source`, `step` and `parents` only; its snapshots add `thread_id`).
  assert.deepEqual((await graph.checkpointer.getTuple(cfg)).metadata, { source: "loop", step: 2, parents: {} });
  assert.match(s.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, "as Date.toISOString() writes it");
  assert.ok(Math.abs(Date.parse(s.createdAt) - Date.now()) < 60_000, "createdAt comes from Date.now()");
  const mid = (await collect(graph.getStateHistory(cfg)))[1];
  assert.deepEqual(mid.next, ["b"]);
  assert.deepEqual(mid.tasks.length, 1);
  assert.deepEqual(Object.keys(mid.tasks[0]), ["id", "name", "path", "interrupts", "result"]);
  assert.deepEqual(mid.tasks[0].path, ["__pregel_pull", "b"]);
  assert.deepEqual(mid.tasks[0].result, { step: 2 });
  const missing = await graph.getState({ configurable: { thread_id: "nobody" } });
  // No checkpoint: the caller's config comes back, as from LangGraph.js's saver.
  assert.deepEqual(missing, { values: {}, next: [], config: { configurable: { thread_id: "nobody" } }, tasks: [] });
});

test("history: limit, before, filter; checkpoint ids sort in creation order", async () => {
  const graph = linear();
  const cfg = { configurable: { thread_id: "h" } };
  await graph.invoke({ step: 0 }, cfg);
  const all = await collect(graph.getStateHistory(cfg));
  assert.deepEqual(
    all.map((s) => s.metadata.step),
    [2, 1, 0, -1],
  );
  const ids = all.map((s) => s.config.configurable.checkpoint_id);
  assert.deepEqual([...ids].sort().reverse(), ids);
  assert.equal((await collect(graph.getStateHistory(cfg, { limit: 2 }))).length, 2);
  assert.deepEqual(
    (await collect(graph.getStateHistory(cfg, { before: all[1].config }))).map((s) => s.metadata.step),
    [0, -1],
  );
  assert.deepEqual(
    (await collect(graph.getStateHistory(cfg, { before: ids[1] }))).map((s) => s.metadata.step),
    [0, -1],
  );
  assert.deepEqual(
    (await collect(graph.getStateHistory(cfg, { filter: { source: "input" } }))).map((s) => s.metadata.step),
    [-1],
  );
});

test("getLineage walks from a checkpoint to the root, child first, on its own branch", async () => {
  const graph = linear();
  const cfg = { configurable: { thread_id: "lin" } };
  await graph.invoke({ step: 0 }, cfg);
  const [, mid] = await collect(graph.getStateHistory(cfg));
  await graph.invoke(null, mid.config); // a fork and a re-run beside the original
  const lineage = await graph.getLineage(cfg);
  assert.deepEqual(
    lineage.map((s) => [s.metadata.source, s.metadata.step]),
    [
      ["loop", 3],
      ["fork", 2],
      ["loop", 1],
      ["loop", 0],
      ["input", -1],
    ],
  );
  assert.equal((await graph.getLineage(mid.config)).length, 3);
  assert.deepEqual(await graph.getLineage({ configurable: { thread_id: "none" } }), []);
});

test("getState is live without a checkpoint_id (finished tasks applied), exact with one", async () => {
  const graph = new StateGraph({ log: "append" })
    .addNode("ok", () => ({ log: ["ok"] }))
    .addNode("bad", () => {
      throw new Error("no");
    })
    .addEdge(START, "ok")
    .addEdge(START, "bad")
    .compile({ checkpointer: new MemorySaver() });
  const cfg = { configurable: { thread_id: "live" } };
  await assert.rejects(graph.invoke({ log: [] }, cfg));
  const live = await graph.getState(cfg);
  assert.deepEqual(live.values, { log: ["ok"] });
  assert.deepEqual(live.next, ["bad"]);
  const exact = await graph.getState(live.config);
  assert.deepEqual(exact.values, { log: [] });
  assert.deepEqual([...exact.next].sort(), ["bad", "ok"]);
  assert.deepEqual(
    exact.tasks.map((t) => [t.name, t.error ?? null]).sort(),
    [
      ["bad", { message: "no", name: "Error" }],
      ["ok", null],
    ],
  );
  const noId = await graph.getState({ configurable: { thread_id: "live", checkpoint_id: null } });
  assert.deepEqual(noId.values, live.values, "a falsy checkpoint_id is the live view, as in LangGraph.js");
});

test("updateState as __copy__, __input__ and END; bulkUpdateState applies supersteps in order", async () => {
  const graph = linear();
  const cfg = { configurable: { thread_id: "u" } };
  await graph.invoke({ step: 0 }, cfg);
  const [, mid] = await collect(graph.getStateHistory(cfg));
  const copy = await graph.updateState(mid.config, null, COPY);
  const copied = await graph.getState(copy);
  assert.equal(copied.metadata.source, "fork");
  assert.equal(copied.parentConfig.configurable.checkpoint_id, mid.parentConfig.configurable.checkpoint_id, "a sibling");
  const done = { configurable: { thread_id: "u-input" } };
  await graph.invoke({ step: 0 }, done);
  const input = await graph.updateState(done, { step: 10 }, INPUT);
  assert.equal((await graph.getState(input)).metadata.source, "input");
  assert.deepEqual(await graph.invoke(null, done), { step: 2 }, "the input runs the graph from START again");
  const cleared = await graph.updateState(mid.config, null, END);
  assert.deepEqual((await graph.getState(cleared)).next, []);

  const bulk = await graph.bulkUpdateState(cfg, [{ updates: [{ values: { step: 100 }, asNode: "a" }] }, { updates: [{ values: { step: 200 }, asNode: "b" }] }]);
  const after = await graph.getState(bulk);
  assert.deepEqual(after.values, { step: 200 });
  assert.equal(after.metadata.source, "update");
  const parent = await graph.getState(after.parentConfig);
  assert.deepEqual(parent.values, { step: 100 });
});

test("every listed snapshot and tuple equals its eager form, key order and absent keys included", async () => {
  const saver = new MemorySaver();
  const graph = new StateGraph({ log: "append", ask: "last_value" })
    .addNode("a", () => ({ log: ["a"] }))
    .addNode("b", () => ({ ask: interrupt({ q: "ok?", n: 2 ** 50, f: 1.5 }) }))
    .addNode("c", () => ({ log: ["c"] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("a", "c")
    .addEdge("b", END)
    .addEdge("c", END)
    .compile({ checkpointer: saver });
  const cfg = { configurable: { thread_id: "listed-vs-eager", user: "u1" } };
  await graph.invoke({ log: ["in"] }, cfg);
  await graph.updateState(cfg, { log: ["edit"] }, "c");
  // Keys in order, nested; JSON.stringify would drop undefined-valued keys.
  const keys = (x) =>
    x && typeof x === "object"
      ? Array.isArray(x)
        ? x.map(keys)
        : Object.keys(x).map((k) => [k, x[k] === undefined ? "undefined" : keys(x[k])])
      : typeof x;
  // Each listed item against the eager form read back by its config.
  const sameAsEager = async (items, eagerOf) => {
    for (const item of items) {
      const eager = await eagerOf(item.config);
      assert.deepEqual(keys(item), keys(eager));
      assert.deepEqual(item, eager);
    }
  };
  const history = await collect(graph.getStateHistory(cfg));
  assert.equal(history.length, 4);
  await sameAsEager(history, (c) => graph.getState(c));
  const tuples = await collect(saver.list(cfg));
  assert.equal(tuples.length, 4);
  await sameAsEager(tuples, (c) => saver.getTuple(c));
  const lineage = await graph.getLineage(cfg);
  assert.deepEqual(keys(lineage), keys(history.slice(0, lineage.length)));
});

test("listed snapshots and tuples convert their values lazily, once, with the eager shape", async () => {
  const saver = new MemorySaver();
  const graph = new StateGraph({ log: "append" })
    .addNode("a", () => ({ log: ["a"] }))
    .addNode("b", () => ({ log: ["b"] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", END)
    .compile({ checkpointer: saver });
  const cfg = { configurable: { thread_id: "lazy" } };
  await graph.invoke({ log: ["in"] }, cfg);
  const history = await collect(graph.getStateHistory(cfg));
  assert.equal(history.length, 4);
  const eager = await graph.getState(history[1].config);
  assert.deepEqual(Object.keys(history[1]), Object.keys(eager), "same keys, same order");
  assert.deepEqual(history.map((s) => s.values), [{ log: ["in", "a", "b"] }, { log: ["in", "a"] }, { log: ["in"] }, {}]);
  assert.equal(history[0].values, history[0].values, "converted once, then kept");
  assert.deepEqual(history[1], eager);
  assert.equal(JSON.stringify(history[1]), JSON.stringify(eager));
  history[2].values = { replaced: true };
  assert.deepEqual(history[2].values, { replaced: true }, "assignable");
  const lineage = await graph.getLineage(history[0].config);
  assert.deepEqual(lineage.map((s) => s.values.log?.length ?? 0), [3, 2, 1, 0]);

  const tuples = await collect(saver.list(cfg));
  assert.equal(tuples.length, 4);
  const one = await saver.getTuple(tuples[1].config);
  assert.deepEqual(Object.keys(tuples[1].checkpoint), Object.keys(one.checkpoint));
  assert.deepEqual(tuples[1], one);
  // As LangGraph.js's MemorySaver lists them: the graph's channels in order, the empty task list too.
  assert.deepEqual(tuples[0].checkpoint.channel_values, { log: ["in", "a", "b"], __pregel_tasks: [] });
  // A listed checkpoint can be stored again as is (its lazy values are read).
  const copy = new MemorySaver();
  const put = await copy.put({ configurable: { thread_id: "copy", checkpoint_ns: "" } }, tuples[0].checkpoint, tuples[0].metadata, tuples[0].checkpoint.channel_versions);
  const back = await copy.getTuple(put);
  assert.deepEqual(back.checkpoint.channel_values, { log: ["in", "a", "b"], __pregel_tasks: [] });
  assert.deepEqual(back.checkpoint.channel_versions, tuples[0].checkpoint.channel_versions);
});

test("listed tuples read their version maps lazily: the first read of either settles both, as plain data", async () => {
  const saver = new MemorySaver();
  const graph = new StateGraph({ log: "append" })
    .addNode("a", () => ({ log: ["a"] }))
    .addEdge(START, "a")
    .addEdge("a", END)
    .compile({ checkpointer: saver });
  const cfg = { configurable: { thread_id: "lazy-versions" } };
  await graph.invoke({ log: ["in"] }, cfg);
  const tuples = await collect(saver.list(cfg));
  const eager = await Promise.all(tuples.map((t) => saver.getTuple(t.config)));
  const data = (o, k) => Object.getOwnPropertyDescriptor(o, k);
  // Before any read: accessors, enumerable, in the eager key order.
  const c0 = tuples[0].checkpoint;
  assert.equal(typeof data(c0, "channel_versions").get, "function");
  assert.deepEqual(Object.keys(c0), Object.keys(eager[0].checkpoint));
  // Reading versions_seen first settles channel_versions too.
  assert.deepEqual(c0.versions_seen, eager[0].checkpoint.versions_seen);
  assert.equal(data(c0, "channel_versions").writable, true);
  assert.deepEqual(c0.channel_versions, eager[0].checkpoint.channel_versions);
  assert.equal(c0.channel_versions, c0.channel_versions, "kept, not re-read");
  // Assigning one before reading keeps the other right.
  const c1 = tuples[1].checkpoint;
  c1.channel_versions = { replaced: "1" };
  assert.deepEqual(c1.channel_versions, { replaced: "1" });
  assert.deepEqual(c1.versions_seen, eager[1].checkpoint.versions_seen);
  // Items read in any order still equal their eager form.
  for (let i = tuples.length - 1; i >= 2; i--) assert.deepEqual(tuples[i], eager[i]);
});
