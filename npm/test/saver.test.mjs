// MemorySaver on its own (LangGraph.js's BaseCheckpointSaver methods) and
// exportThread/importThread round trips: branches and pending writes included.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Command, interrupt, MemorySaver, START, StateGraph } from "chronograph";
import { collect } from "./support.mjs";

const checkpoint = (id, values, versions) => ({
  v: 4,
  id,
  ts: "2026-01-01T00:00:00.000000+00:00",
  channel_values: values,
  channel_versions: versions,
  versions_seen: {},
});

test("put, getTuple, list, putWrites and deleteThread", async () => {
  const saver = new MemorySaver();
  const thread = { configurable: { thread_id: "solo" } };
  assert.equal(await saver.getTuple(thread), undefined);

  const v1 = "00000000000000000000000000000001.0000000000000000";
  const first = await saver.put(thread, checkpoint("1ef00000-0000-6000-8000-000000000001", { x: 1 }, { x: v1 }), { source: "input", step: -1, parents: {} }, { x: v1 });
  assert.deepEqual(first, { configurable: { thread_id: "solo", checkpoint_ns: "", checkpoint_id: "1ef00000-0000-6000-8000-000000000001" } });
  const v2 = "00000000000000000000000000000002.0000000000000001";
  const second = await saver.put(first, checkpoint("1ef00000-0000-6000-8000-000000000002", { x: 2, y: "kept" }, { x: v2, y: v2 }), { source: "loop", step: 0, parents: {}, user: "u1" }, { x: v2, y: v2 });
  await saver.putWrites(second, [["x", 3], ["y", "w"]], "task-1");

  const latest = await saver.getTuple(thread);
  assert.deepEqual(latest.config, second);
  assert.deepEqual(latest.parentConfig, first);
  assert.deepEqual(latest.checkpoint.channel_values, { x: 2, y: "kept" });
  // The metadata as it was put (LangGraph.js's MemorySaver adds no `thread_id`).
  assert.deepEqual(latest.metadata, { source: "loop", step: 0, parents: {}, user: "u1" });
  assert.deepEqual(latest.pendingWrites, [
    ["task-1", "x", 3],
    ["task-1", "y", "w"],
  ]);
  assert.deepEqual((await saver.getTuple(first)).checkpoint.channel_values, { x: 1 });

  const all = await collect(saver.list(thread));
  assert.deepEqual(
    all.map((t) => t.config.configurable.checkpoint_id),
    [second.configurable.checkpoint_id, first.configurable.checkpoint_id],
  );
  assert.equal((await collect(saver.list(thread, { limit: 1 }))).length, 1);
  assert.equal((await collect(saver.list(thread, { before: second }))).length, 1);
  assert.equal((await collect(saver.list(thread, { filter: { user: "u1" } }))).length, 1);
  assert.equal((await collect(saver.list(undefined))).length, 2, "no config: every thread");
  assert.deepEqual(await saver.threadIds(), ["solo"]);

  await saver.deleteThread("solo");
  assert.equal(await saver.getTuple(thread), undefined);
  assert.deepEqual(await saver.threadIds(), []);
});

test("put names the bad field of a malformed checkpoint", async () => {
  const saver = new MemorySaver();
  await assert.rejects(
    saver.put({ configurable: { thread_id: "t" } }, { ...checkpoint("x", {}, {}), channel_versions: { x: true } }, { source: "input", step: -1 }, {}),
    (e) => e.code === "INVALID_ARGUMENT" && /checkpoint\.channel_versions\.x: invalid type: boolean `true`, expected a non-negative integer or a version string/.test(e.message),
  );
});

/** The graph of the busy thread, over `saver`. */
const approvalGraph = (saver) =>
  new StateGraph({ messages: "add_messages", approved: "last_value" })
    .addNode("booking", () => ({}))
    .addNode("reply", (s) => ({ messages: [{ type: "ai", content: `re: ${s.messages.at(-1).content}` }] }))
    .addNode("approve", () => ({ approved: interrupt("approve?") }))
    .addEdge(START, "booking")
    .addEdge("booking", "reply")
    .addEdge("reply", "approve")
    .compile({ checkpointer: saver });

/** A thread with an update on its input (a branch) and an interrupted task (pending writes). */
async function busyThread(saver) {
  const graph = approvalGraph(saver);
  const cfg = { configurable: { thread_id: "busy" } };
  await graph.invoke({ messages: [{ type: "human", content: "hi", id: "m1" }] }, cfg);
  const history = await collect(graph.getStateHistory(cfg));
  const input = history.at(-1).config;
  const edited = await graph.updateState(input, { messages: [{ type: "human", content: "hello", id: "m1" }] }, "booking");
  await graph.invoke(null, edited);
  return { graph, cfg };
}

test("exportThread/importThread round-trip a whole thread: branches, values and pending writes", async () => {
  const source = new MemorySaver();
  const { graph, cfg } = await busyThread(source);
  const before = await collect(graph.getStateHistory(cfg));
  assert.equal(before.length, 6, "input, 3 loops, an update on the input, its continuation");
  const inputId = before.at(-1).config.configurable.checkpoint_id;
  const children = before.filter((s) => s.parentConfig?.configurable.checkpoint_id === inputId);
  assert.equal(children.length, 2, "a branch: the first loop and the update both hang under the input");
  assert.ok(before.some((s) => s.tasks.some((t) => t.interrupts.length > 0)), "an interrupted task is stored");

  const data = await source.exportThread("busy");
  assert.equal(data.format, "chronograph.thread.v1");
  assert.equal(data.thread_id, "busy");
  const json = JSON.parse(JSON.stringify(data));
  assert.deepEqual(json, data, "the export is plain JSON");

  const target = new MemorySaver();
  await target.importThread(json);
  assert.deepEqual(await target.exportThread("busy"), data);
  const copy = approvalGraph(target);
  assert.deepEqual(await collect(copy.getStateHistory(cfg)), before);

  // The imported thread resumes where the original paused.
  const out = await copy.invoke(new Command({ resume: true }), cfg);
  assert.equal(out.approved, true);
  assert.deepEqual(
    out.messages.map((m) => m.content),
    ["hello", "re: hello"],
  );
  assert.equal(await source.exportThread("unknown"), undefined);
});
