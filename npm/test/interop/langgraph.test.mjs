// chronograph/langgraph's MemorySaver under LangGraph.js itself: the seed
// walkthrough gives the very tree LangGraph.js's own MemorySaver gives, the
// saver keeps each channel version once, and `list` (one page from the
// store, values parsed on first read when nothing needs reviving) hands out
// what `getTuple` does.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { JsonPlusSerializer, MemorySaver as LangGraphMemorySaver } from "@langchain/langgraph-checkpoint";
import { MemorySaver } from "chronograph/langgraph";
import { chatGraph, walkthrough } from "./walkthrough.mjs";

test("the seed walkthrough on LangGraph.js: the same tree with Chronograph's saver as with LangGraph.js's MemorySaver", async () => {
  const theirs = await walkthrough(chatGraph(new LangGraphMemorySaver()));
  const ours = await walkthrough(chatGraph(new MemorySaver()));
  assert.equal(theirs.length, 13);
  assert.deepEqual(ours, theirs);
  assert.deepEqual(ours.at(-1).messages, ["human:改成明天下午两点的号", "ai:回复：改成明天下午两点的号"]);
});

test("messages come back as LangChain message classes", async () => {
  const saver = new MemorySaver();
  const graph = chatGraph(saver);
  const thread = { configurable: { thread_id: "t" } };
  await graph.invoke({ messages: [{ type: "human", content: "hi" }] }, thread);
  const state = await graph.getState(thread);
  assert.equal(state.values.messages[0].constructor.name, "HumanMessage");
  assert.equal(state.values.messages[1].constructor.name, "AIMessage");
  const tuple = await saver.getTuple(thread);
  assert.equal(typeof tuple.checkpoint.channel_versions.messages, "number", "integer versions, as LangGraph.js's");
});

test("put without thread_id fails with LangGraph.js's message and a code", async () => {
  const saver = new MemorySaver();
  await assert.rejects(
    saver.put({ configurable: {} }, { v: 4, id: "x", ts: "", channel_values: {}, channel_versions: {}, versions_seen: {} }, { source: "input", step: -1, parents: {} }, {}),
    (e) => e instanceof Error && e.code === "MISSING_THREAD_ID" && /missing a required "thread_id"/.test(e.message),
  );
});

test("each channel version is stored once, and versions never repeat across branches", async () => {
  const saver = new MemorySaver();
  const graph = chatGraph(saver);
  await walkthrough(graph, "v");
  const seen = new Map();
  for await (const t of saver.list({ configurable: { thread_id: "v" } })) {
    const version = t.checkpoint.channel_versions.messages;
    if (version === undefined) continue;
    const value = JSON.stringify(t.checkpoint.channel_values.messages.map((m) => [m.type, m.content]));
    assert.equal(seen.get(version) ?? value, value, `version ${version} holds one value`);
    seen.set(version, value);
  }
  assert.ok(seen.size >= 4, `${seen.size} versions`);
});

/** W1 of the benchmarks (an agent-tool loop) at `n` iterations on `saver`: 2n + 1 checkpoints. */
async function agentLoop(saver, n, thread = "w1") {
  const State = Annotation.Root({
    count: Annotation({ reducer: (_, b) => b, default: () => 0 }),
    trail: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  await new StateGraph(State)
    .addNode("agent", (s) => ({ count: s.count + 1, trail: ["agent"] }))
    .addNode("tool", () => ({ trail: ["tool"] }))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (s) => (s.count < n ? "tool" : END), ["tool", END])
    .addEdge("tool", "agent")
    .compile({ checkpointer: saver })
    .invoke({ count: 0 }, { configurable: { thread_id: thread }, recursionLimit: 10 * n + 10 });
  return { configurable: { thread_id: thread } };
}

/** Every tuple `list` gives for `config`, and the same checkpoints by `getTuple`. */
async function listedAndGot(saver, config, options) {
  const listed = [];
  for await (const t of saver.list(config, options)) listed.push(t);
  const got = [];
  for (const t of listed) got.push(await saver.getTuple(t.config));
  return { listed, got };
}

test("list hands out what getTuple does: values, integer versions, metadata, writes, parents (plain data, lazily parsed)", async () => {
  const saver = new MemorySaver();
  const thread = await agentLoop(saver, 20);
  const { listed, got } = await listedAndGot(saver, thread);
  assert.equal(listed.length, 41);
  // A listed checkpoint's values are an accessor in their place among the keys, read once.
  const first = listed[0].checkpoint;
  assert.equal(typeof Object.getOwnPropertyDescriptor(first, "channel_values").get, "function");
  assert.deepEqual(Object.keys(first), ["v", "id", "ts", "channel_values", "channel_versions", "versions_seen"]);
  assert.deepEqual(listed, got);
  assert.equal(first.channel_values, first.channel_values, "parsed once, then the same object");
  assert.equal(first.channel_values.trail.length, 39);
  assert.equal(typeof first.channel_versions.trail, "number");
  assert.ok(listed.some((t) => t.pendingWrites.length > 0), "pending writes listed");
  assert.equal(listed.at(-1).parentConfig, undefined);
  assert.deepEqual(listed[1].config, listed[0].parentConfig);
});

test("listed values are each tuple's own, are there after the thread is deleted, and can be replaced unread", async () => {
  const saver = new MemorySaver();
  const thread = await agentLoop(saver, 5);
  const a = [];
  for await (const t of saver.list(thread)) a.push(t);
  const b = [];
  for await (const t of saver.list(thread, { limit: 2 })) b.push(t);
  await saver.deleteThread("w1");
  assert.equal((await saver.getTuple(thread)), undefined);
  a[0].checkpoint.channel_values.trail.push("changed");
  assert.equal(b[0].checkpoint.channel_values.trail.length, 9, "another listing's values are not touched");
  assert.equal(a[0].checkpoint.channel_values.trail.length, 10);
  b[1].checkpoint.channel_values = { replaced: true };
  assert.deepEqual(b[1].checkpoint.channel_values, { replaced: true });
  assert.deepEqual(Object.keys(b[1].checkpoint).indexOf("channel_values"), 3);
  b[0].checkpoint.channel_values.count = 99;
  assert.equal(b[0].checkpoint.channel_values.count, 99, "read values are kept, changes included");
  // JSON and structured clones read them too.
  assert.deepEqual(JSON.parse(JSON.stringify(a[1].checkpoint)).channel_values.trail.length, 8);
  assert.deepEqual(structuredClone(a[2].checkpoint).channel_values.count, 4);
});

test("list applies filter, before and limit in the store, as LangGraph.js's MemorySaver does", async () => {
  const ours = new MemorySaver();
  const theirs = new LangGraphMemorySaver();
  await agentLoop(ours, 6);
  await agentLoop(theirs, 6);
  const shape = async (saver, options) => {
    const out = [];
    const all = [];
    for await (const t of saver.list({ configurable: { thread_id: "w1" } })) all.push(t.checkpoint.id);
    const at = (k) => (k === undefined ? undefined : { configurable: { checkpoint_id: all[k] } });
    for await (const t of saver.list({ configurable: { thread_id: "w1" } }, { ...options, before: at(options.before) })) {
      // (A channel never written, with no version, is stored by neither
      // this saver nor PostgresSaver: the input checkpoint's `count` default.)
      const { count } = t.checkpoint.channel_values;
      out.push([all.indexOf(t.checkpoint.id), t.metadata.step, t.metadata.source, t.metadata.step < 0 ? null : count, t.checkpoint.channel_values.trail?.length ?? 0]);
    }
    return out;
  };
  for (const options of [{}, { limit: 3 }, { before: 4 }, { before: 4, limit: 2 }, { filter: { source: "input" } }, { filter: { step: 3 } }, { limit: 0 }]) {
    assert.deepEqual(await shape(ours, options), await shape(theirs, options), JSON.stringify(options));
  }
});

test("messages are revived by the serializer in listings too, and a custom serializer is used for every value", async () => {
  const saver = new MemorySaver();
  const graph = chatGraph(saver);
  const thread = { configurable: { thread_id: "m" } };
  await graph.invoke({ messages: [{ type: "human", content: "hi" }] }, thread);
  const { listed, got } = await listedAndGot(saver, thread);
  assert.deepEqual(listed, got);
  assert.equal(listed[0].checkpoint.channel_values.messages[0].constructor.name, "HumanMessage");

  class Counting extends JsonPlusSerializer {
    loads = 0;
    async loadsTyped(type, data) {
      this.loads += 1;
      return super.loadsTyped(type, data);
    }
  }
  const serde = new Counting();
  const custom = new MemorySaver(serde);
  const w1 = await agentLoop(custom, 3);
  const before = serde.loads;
  const { listed: items } = await listedAndGot(custom, w1);
  assert.equal(items[0].checkpoint.channel_values.trail.length, 5);
  assert.ok(serde.loads > before, "the custom serializer read the values");
});

/**
 * Puts one checkpoint of `values` (version 1 each) with `metadata` and
 * `writes` into `saver`, and reads it back by `getTuple` and `list`.
 */
async function putAndRead(saver, { thread, id, values, metadata, writes = [] }) {
  const checkpoint = {
    v: 4,
    id,
    ts: "2026-12-01T00:00:00.000Z",
    channel_values: values,
    channel_versions: Object.fromEntries(Object.keys(values).map((k) => [k, 1])),
    versions_seen: {},
  };
  const config = { configurable: { thread_id: thread, checkpoint_ns: "" } };
  const stored = await saver.put(config, checkpoint, metadata, checkpoint.channel_versions);
  if (writes.length > 0) await saver.putWrites(stored, writes, "task-é");
  const got = await saver.getTuple(config);
  const listed = [];
  for await (const t of saver.list(config)) listed.push(t);
  return { values: got.checkpoint.channel_values, listed: listed[0].checkpoint.channel_values, metadata: got.metadata, writes: got.pendingWrites };
}

test("values come back as LangGraph.js's MemorySaver gives them back, plain JSON or not", async () => {
  const values = {
    plain: { a: [1, "two", null, true, -0, 1.5, { b: { c: [] } }], "": "empty key", lc: "a plain key named lc" },
    holes: [1, undefined, 3],
    undefinedValue: { x: undefined, y: 1 },
    date: new Date(0),
    map: new Map([["k", 1]]),
    set: new Set([1, 2]),
    send: { lg_name: "Send", node: "n", args: { a: 1 } },
    withToJSON: { toJSON: () => ({ replaced: true }) },
    nested: { deep: [[[[["x"]]]]] },
    bytes: new Uint8Array([1, 2, 3]),
  };
  const cycle = { name: "cycle" };
  cycle.self = cycle;
  values.cycle = cycle;
  const read = (saver) =>
    putAndRead(saver, { thread: "values", id: "1f0c0de0-0000-6000-8000-000000000001", values, metadata: { source: "input", step: -1, parents: {}, note: { lc: 1 } } });
  const ours = await read(new MemorySaver());
  const theirs = await read(new LangGraphMemorySaver());
  for (const key of Object.keys(values)) {
    assert.deepEqual(ours.values[key], theirs.values[key], key);
    assert.deepEqual(ours.listed[key], theirs.listed[key], `${key} (listed)`);
  }
  assert.deepEqual(ours.metadata, theirs.metadata);
});

test("values that are not ASCII, in checkpoints and writes, come back as LangGraph.js's MemorySaver gives them back", async () => {
  // The texts cross into the store through a staging buffer (encodeInto): one byte per character first, more when needed.
  const values = { ascii: "plain", accents: "déjà vu", emoji: ["🦜", "🔗", { k: "ü".repeat(1000) }], cjk: "检查点", after: "ascii again" };
  const read = (saver) =>
    putAndRead(saver, {
      thread: "unicode",
      id: "1f0c0de0-0000-6000-8000-000000000002",
      values,
      metadata: { source: "input", step: -1, parents: {}, note: "métadonnée" },
      writes: [["accents", "ça"], ["emoji", ["👍"]], ["ascii", "x"]],
    });
  const ours = await read(new MemorySaver());
  const theirs = await read(new LangGraphMemorySaver());
  assert.deepEqual(ours.values, values);
  assert.deepEqual(ours, theirs);
});

test("the wasm memory grows in a few large steps as a store fills, not at every other put", async () => {
  // Past 64 MiB, each growth of the memory costs V8 a full collection (core/wasm/src/memory.rs).
  const { wasmMemory } = await import(new URL("./node_modules/chronograph/wasm/chronograph.js", import.meta.url));
  const memory = wasmMemory();
  const saver = new MemorySaver();
  const config = { configurable: { thread_id: "growth", checkpoint_ns: "" } };
  const value = "x".repeat(100_000);
  // Enough to grow the memory past twice its size, 100 KB a put: growing by what each put needs would take over 160 steps.
  const puts = Math.ceil((2 * memory.buffer.byteLength + (16 << 20)) / value.length);
  let buffer = memory.buffer;
  let growths = 0;
  let parent;
  for (let i = 0; i < puts; i++) {
    const id = `1f0c0de0-0000-6000-8000-${String(i).padStart(12, "0")}`;
    const checkpoint = { v: 4, id, ts: "2026-12-01T00:00:00.000Z", channel_values: { big: value + i }, channel_versions: { big: i + 1 }, versions_seen: {} };
    const at = parent === undefined ? config : { configurable: { ...config.configurable, checkpoint_id: parent } };
    await saver.put(at, checkpoint, { source: "loop", step: i, parents: {} }, { big: i + 1 });
    parent = id;
    if (memory.buffer !== buffer) {
      growths += 1;
      buffer = memory.buffer;
    }
  }
  assert.ok(memory.buffer.byteLength >= puts * value.length, "the values are in the memory");
  assert.ok(growths <= 12, `${growths} growths for ${puts} puts`);
  assert.equal((await saver.getTuple(config)).checkpoint.channel_values.big, value + (puts - 1));
});
