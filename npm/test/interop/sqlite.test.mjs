// chronograph/langgraph's SqliteSaver under LangGraph.js: the same
// docs-style runs (persistence, time travel by replay and updateState,
// an interrupt and its resume, a subgraph) read back the same tuples from it
// as from LangGraph.js's own SqliteSaver; list versions are stored as
// deltas, also under an encrypting serializer; `list` decodes values when
// they are read, as the serializer would; what is not an append gets a
// full version; a 200-turn chat's file is about twice a 100-turn one's; a
// file of a newer schema is refused; the driver stays out of browser
// entries, and its absence is named. (LangGraph.js's validation suite runs
// on it in validation.spec.mjs.)
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, test } from "node:test";
import { Annotation, INTERRUPT, START, StateGraph } from "@langchain/langgraph";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { AIMessage, HumanMessage, RemoveMessage } from "@langchain/core/messages";
import { SqliteSaver as LangGraphSqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { SqliteSaver } from "chronograph/langgraph";
import { chat, docsRuns, runWithoutPeers } from "./saver-runs.mjs";

const here = new URL(".", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "chronograph-sqlite-saver-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const file = () => join(dir, `t${(files += 1)}.sqlite`);

test("the docs-style runs read back the same tuples as from LangGraph.js's own SqliteSaver", async () => {
  const theirs = await docsRuns(LangGraphSqliteSaver.fromConnString(file()));
  const ours = await docsRuns(SqliteSaver.fromConnString(file()));
  assert.equal(theirs.walk.length, 13);
  assert.ok(theirs.review.some((t) => t.config.configurable.checkpoint_ns !== ""), "the subgraph's namespace is listed");
  assert.ok(theirs.review.some((t) => t.writes.some((w) => w.channel === INTERRUPT)), "the interrupt is a pending write");
  assert.deepEqual(ours.walk, theirs.walk);
  assert.deepEqual(ours.review, theirs.review);
});

/** Rows of the saver's blob table by kind (0 empty, 1 full, 2 delta). */
function kinds(saver) {
  const out = { 0: 0, 1: 0, 2: 0 };
  for (const r of saver.db.prepare("SELECT kind, count(*) AS n FROM chronograph_blobs GROUP BY kind").all()) out[r.kind] = r.n;
  return out;
}

test("message versions are stored as deltas, and a fresh saver on the file reads the thread back whole", async () => {
  const path = file();
  const saver = SqliteSaver.fromConnString(path);
  await chat(saver, 20);
  const k = kinds(saver);
  assert.ok(k[2] >= 38, `${k[2]} delta rows`);
  const again = SqliteSaver.fromConnString(path);
  const { graph, thread } = await chat(again, 1, "chat", 20);
  const state = await graph.getState(thread);
  assert.equal(state.values.messages.length, 42);
  assert.equal(state.values.messages[0].constructor.name, "HumanMessage");
  assert.equal(state.values.messages[41].constructor.name, "AIMessage");
  assert.ok(kinds(again)[2] > k[2], "the new process extends the versions it read back");
  // Every checkpoint reads back as LangGraph.js's MemorySaver would give it: the messages so far.
  let n = 0;
  for await (const t of again.list(thread)) {
    const messages = t.checkpoint.channel_values.messages ?? [];
    assert.ok(messages.every((m, i) => m.content.startsWith(`${i % 2 === 0 ? i / 2 : i}`)), `checkpoint ${t.checkpoint.id}`);
    n += 1;
  }
  assert.equal(n, 21 * 3);
});

test("an encrypting serializer still gets deltas: values are diffed before it runs", async () => {
  const plain = new JsonPlusSerializer();
  const key = 0x5a;
  const xor = (bytes) => Uint8Array.from(bytes, (b) => b ^ key);
  const encrypting = {
    async dumpsTyped(value) {
      const [type, data] = await plain.dumpsTyped(value);
      return [`xor+${type}`, xor(typeof data === "string" ? new TextEncoder().encode(data) : data)];
    },
    async loadsTyped(type, data) {
      return plain.loadsTyped(type.slice(4), xor(typeof data === "string" ? new TextEncoder().encode(data) : data));
    },
  };
  const path = file();
  const Database = (await import("better-sqlite3")).default;
  const saver = new SqliteSaver(new Database(path), encrypting);
  const { graph, thread } = await chat(saver, 10);
  assert.ok(kinds(saver)[2] >= 18, "deltas");
  const raw = saver.db.prepare("SELECT value FROM chronograph_blobs WHERE kind = 2").all();
  assert.ok(raw.every((r) => !Buffer.from(r.value).toString("latin1").includes("qqqq")), "no plain text stored");
  const state = await graph.getState(thread);
  assert.deepEqual(
    state.values.messages.map((m) => m.content.slice(0, 2)),
    Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? `${i / 2}`.padEnd(2, "q") : `${i}`.padEnd(2, "r"))),
  );
});

test("a message removed or replaced by id gets a full version, and reads back as put", async () => {
  const saver = SqliteSaver.fromConnString(file());
  const { graph, thread } = await chat(saver, 3);
  const before = kinds(saver)[1];
  const first = (await graph.getState(thread)).values.messages[0];
  await graph.updateState(thread, { messages: [new RemoveMessage({ id: first.id })] });
  const second = (await graph.getState(thread)).values.messages[0];
  await graph.updateState(thread, { messages: [{ type: "human", content: "replaced", id: second.id }] });
  assert.equal(kinds(saver)[1], before + 2, "two full versions");
  const messages = (await saver.getTuple(thread)).checkpoint.channel_values.messages;
  assert.equal(messages.length, 5);
  assert.equal(messages[0].content, "replaced");
  assert.equal(messages[0].id, second.id);
});

test("values that are not plain JSON (undefined, Dates, Maps) read back as from LangGraph.js's SqliteSaver", async () => {
  const State = Annotation.Root({ items: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const run = async (saver) => {
    const graph = new StateGraph(State)
      .addNode("add", () => ({ items: [new Date(0), undefined, new Map([["k", 1]])] }))
      .addEdge(START, "add")
      .compile({ checkpointer: saver });
    const thread = { configurable: { thread_id: "odd" } };
    await graph.invoke({ items: [1] }, thread);
    await graph.invoke({ items: [2] }, thread);
    return (await saver.getTuple(thread)).checkpoint.channel_values.items;
  };
  const ours = await run(SqliteSaver.fromConnString(file()));
  const theirs = await run(LangGraphSqliteSaver.fromConnString(file()));
  assert.equal(ours.length, 8);
  assert.deepEqual(ours, theirs);
});

test("list decodes a checkpoint's values when they are first read, as the serializer decodes them; under another serializer, at once", async () => {
  const State = Annotation.Root({
    messages: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    items: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  // `odd`: values with keys named lc that are not the serializer's records (read eagerly, through it).
  const run = async (saver, odd = false) => {
    const graph = new StateGraph(State)
      .addNode("add", (s) => ({
        messages: [new AIMessage({ content: `reply ${s.messages.length}`, id: `a${s.messages.length}`, additional_kwargs: odd ? { lc: 1 } : {} })],
        items: [new Date(0), undefined, new Map([["k", 1]]), new Set([1]), new Uint8Array([1, 2]), /x/g, new Error("e"), ...(odd ? [{ lc: 2, type: "x" }] : [])],
      }))
      .addEdge(START, "add")
      .compile({ checkpointer: saver });
    const thread = { configurable: { thread_id: "lazy" } };
    for (const n of [1, 2]) await graph.invoke({ messages: [new HumanMessage({ content: `question ${n}`, id: `h${n}` })], items: [n] }, thread);
    const listed = [];
    for await (const t of saver.list(thread)) listed.push(t);
    return listed;
  };
  const saver = SqliteSaver.fromConnString(file());
  const listed = await run(saver);
  assert.equal(listed.length, 6);
  const decoded = (t) => "value" in Object.getOwnPropertyDescriptor(t.checkpoint, "channel_values");
  assert.ok(listed.every((t) => !decoded(t)), "nothing decoded by list itself");
  for (const t of listed) {
    // getTuple decodes through the serializer's own (asynchronous) loadsTyped.
    const eager = (await saver.getTuple(t.config)).checkpoint;
    assert.deepStrictEqual(t.checkpoint, eager);
    assert.ok(decoded(t), "a plain property once read");
  }
  const head = listed[0].checkpoint.channel_values;
  assert.ok(head.messages[0] instanceof HumanMessage && head.messages[1] instanceof AIMessage, "LangChain's classes");
  assert.ok(head.items[3] instanceof Map && head.items[6] instanceof RegExp, "the serializer's constructor records");
  // The values of channels with a version (LangGraph.js's SqliteSaver also keeps some empty ones).
  const values = (tuples) => tuples.map(({ checkpoint: c }) => Object.fromEntries(Object.entries(c.channel_values).filter(([k]) => k in c.channel_versions)));
  const theirs = await run(LangGraphSqliteSaver.fromConnString(file()));
  assert.deepStrictEqual(values(listed), values(theirs));
  // Keys named lc that are not the serializer's records: decoded by list, through the serializer, as LangGraph.js's saver does.
  const odd = await run(SqliteSaver.fromConnString(file()), true);
  assert.ok(odd.slice(0, 2).every(decoded));
  const oddTheirs = await run(LangGraphSqliteSaver.fromConnString(file()), true);
  assert.deepStrictEqual(values(odd), values(oddTheirs));
  // A serializer other than the default one itself (a subclass may read otherwise): decoded by list, through it.
  class Subclass extends JsonPlusSerializer {}
  const Database = (await import("better-sqlite3")).default;
  const other = await run(new SqliteSaver(new Database(file()), new Subclass()));
  assert.ok(other.every(decoded));
  assert.deepStrictEqual(values(other), values(theirs));
});

/** Bytes of a SQLite file with its -wal and -shm files. */
const bytesOn = (path) => [path, `${path}-wal`, `${path}-shm`].reduce((n, p) => n + (existsSync(p) ? statSync(p).size : 0), 0);

test("a chat's file grows linearly: 80 turns take about twice the bytes of 40", async () => {
  const sizes = [];
  for (const turns of [40, 80]) {
    const path = file();
    const saver = SqliteSaver.fromConnString(path);
    await chat(saver, turns);
    saver.db.pragma("wal_checkpoint(TRUNCATE)");
    saver.db.close();
    sizes.push(bytesOn(path));
  }
  // Full versions at every step would take ~4x (the quadratic growth of LangGraph.js's savers).
  const [forty, eighty] = sizes;
  assert.ok(eighty / forty < 2.5, `40 turns: ${forty} bytes, 80 turns: ${eighty} bytes`);
  // LangGraph.js's own SqliteSaver takes 6.2 MB at 40 turns, its WAL included (BENCHMARKS.md).
  assert.ok(forty < 400_000, `40 turns: ${forty} bytes`);
});

test("a file of a newer schema is refused with a message, and left as it was", async () => {
  const path = file();
  const saver = SqliteSaver.fromConnString(path);
  await chat(saver, 1);
  saver.db.prepare("UPDATE chronograph_schema SET version = 99").run();
  saver.db.close();
  const newer = SqliteSaver.fromConnString(path);
  await assert.rejects(newer.getTuple({ configurable: { thread_id: "chat" } }), (e) => e.code === "UNSUPPORTED_SCHEMA" && /schema version 99/.test(e.message));
  assert.equal(newer.db.prepare("SELECT version FROM chronograph_schema").get().version, 99);
});

/** The bare specifiers a module and the package modules it imports (statically or by a literal `import()`) name. */
function importsOf(entry) {
  const seen = new Set();
  const bare = new Set();
  const visit = (path) => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = readFileSync(path, "utf8");
    for (const m of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']/g)) {
      if (m[1].startsWith(".")) visit(resolve(dirname(path), m[1]));
      else bare.add(m[1]);
    }
  };
  visit(entry);
  return bare;
}

test("no entry imports a peer statically, the browser entries no Node module; the Node entry loads the driver", () => {
  const pkg = join(here, "node_modules", "chronograph");
  // A static import of a peer resolves from the package's real path (outside the application when it is linked).
  const peer = (n) => n === "better-sqlite3" || n === "pg" || n.startsWith("@langchain/");
  for (const entry of ["langgraph-browser.js", "browser.js", "prebuilt-browser.js", "pregel-browser.js"]) {
    const names = [...importsOf(join(pkg, entry))];
    assert.ok(!names.some((n) => peer(n) || n.startsWith("node:")), `${entry}: ${names.join(", ")}`);
  }
  for (const entry of ["langgraph-node.js", "node.js", "prebuilt-node.js", "pregel-node.js"]) {
    const names = [...importsOf(join(pkg, entry))];
    assert.ok(!names.some(peer), `${entry}: ${names.join(", ")}`);
  }
  assert.match(readFileSync(join(pkg, "langgraph-node.js"), "utf8"), /registerSqliteDriver\(\(\) => requireDriver\("better-sqlite3"\)\)/);
});

test("without better-sqlite3 installed, fromConnString says to install it", () => {
  const out = runWithoutPeers(`import { SqliteSaver } from "chronograph/langgraph";
try { SqliteSaver.fromConnString(":memory:"); console.log("opened"); } catch (e) { console.log(e.code, e.message); }`);
  assert.match(out, /^UNSUPPORTED .*install better-sqlite3/);
});

test("append detection tells apart what JSON text blurs, and leaves what it cannot compare to a full version", async () => {
  const { fingerprints, DeltaPolicy } = await import(new URL("./node_modules/chronograph/checkpoint/delta.js", import.meta.url).href);
  const differ = (a, b) => fingerprints([a])[0] !== fingerprints([b])[0];
  assert.ok(differ(undefined, null), "undefined / null");
  assert.ok(differ(Number.NaN, null), "NaN / null");
  assert.ok(differ(new Date(0), new Date(0).toISOString()), "a Date / its text");
  assert.ok(differ({ a: undefined }, {}), "a key set to undefined / no key");
  assert.ok(differ(new (class Point { x = 1 })(), { x: 1 }), "a class instance / a plain object");
  assert.ok(!differ({ a: [1, "x"] }, { a: [1, "x"] }));
  for (const opaque of [new Map([["k", 1]]), new Set([1]), new Uint8Array([1]), 1n, () => 1]) {
    assert.equal(fingerprints([1, { v: opaque }]), undefined, String(opaque));
  }
  const policy = new DeltaPolicy({ maxDepth: 2 });
  const base = { elements: fingerprints([1, 2]), depth: 0, baseBytes: 2, deltaBytes: 0 };
  assert.deepEqual(policy.place([1, 2, 3], fingerprints([1, 2, 3]), base), { kind: "delta", tail: [3], position: { depth: 1, baseBytes: 2, deltaBytes: 1 } });
  assert.equal(policy.place([1, 3], fingerprints([1, 3]), base).kind, "full", "not an append");
  assert.equal(policy.place([1, 2, 3], fingerprints([1, 2, 3]), { ...base, depth: 2 }).kind, "full", "the chain is at maxDepth");
});
