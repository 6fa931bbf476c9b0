// Hostile values at the wasm boundary: every JS value converted into the
// engine (inputs, updates, node, reducer and router results, interrupt and
// resume values, Command fields, saver writes, imported threads, specs)
// refuses cycles, nesting deeper than 256, getters and Proxies that throw,
// and BigInts a JS number cannot hold with a TypeError of code INVALID_VALUE
// naming the path of the bad value; the module keeps working and the thread
// is byte-identical afterwards. What else JSON cannot hold (functions,
// symbols, class instances) goes through a run by reference, as in
// LangGraph.js (see js_values.test.mjs); outside a run (saver writes,
// documents) it is refused too.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Command, interrupt, MemorySaver, START, END, StateGraph } from "chronograph";

/** A value `levels` objects deep: `{a: {a: ... 1}}`. */
function nested(levels) {
  let v = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

/** A self-containing object: `o.self === o`. */
function cyclic() {
  const o = { k: 1 };
  o.self = o;
  return o;
}

/** Awaits `run` and returns the INVALID_VALUE TypeError it throws, checked. */
async function invalid(run, message) {
  let error;
  try {
    await run();
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof TypeError, `a TypeError, got ${error?.constructor?.name}: ${error}`);
  assert.equal(error.name, "TypeError");
  assert.equal(error.code, "INVALID_VALUE", error.message);
  if (typeof message === "string") assert.equal(error.message, message);
  else assert.match(error.message, message);
  return error;
}

const graph = (saver) =>
  new StateGraph({ n: "last_value", log: "append" })
    .addNode("a", (s) => ({ log: ["a"] }))
    .addEdge(START, "a")
    .addEdge("a", END)
    .compile({ checkpointer: saver });

/** The thread as text, for byte-identical comparisons. */
const dump = async (saver, id) => JSON.stringify(await saver.exportThread(id));

test("a cyclic input is a TypeError naming its path, and nothing changes (the issue's repro)", async () => {
  const saver = new MemorySaver();
  const g = graph(saver);
  const config = { configurable: { thread_id: "cyc" } };
  await g.invoke({ n: 1 }, config);
  const before = await dump(saver, "cyc");
  const o = {};
  o.self = o;
  await invalid(() => g.invoke({ n: o }, config), /^input\.n\.self: the value contains itself \(a cycle\)/);
  assert.equal(await dump(saver, "cyc"), before, "the thread is byte-identical");
  // The module keeps working.
  const out = await g.invoke({ n: 2 }, config);
  assert.deepEqual(out, { n: 2, log: ["a", "a"] });
});

test("nesting is limited to 256 levels; a value at the limit round-trips", async () => {
  const saver = new MemorySaver();
  const g = graph(saver);
  const config = { configurable: { thread_id: "deep" } };
  // The input object is level 1, so its channel value may nest 255 deep.
  await g.invoke({ n: nested(255) }, config);
  assert.deepEqual((await g.getState(config)).values.n, nested(255));
  const exported = await saver.exportThread("deep");
  const copy = new MemorySaver();
  await copy.importThread(exported);
  assert.equal(await dump(copy, "deep"), await dump(saver, "deep"), "the export of a value at the limit imports");
  const before = await dump(saver, "deep");
  const e = await invalid(() => g.invoke({ n: nested(256) }, config), /nest deeper than 256 levels, the limit$/);
  assert.match(e.message, /^input\.n\.a\.a\.a\.a\.a\.a\.a\.a\.a\.a\.a…\(\d+ more\)…\.a\.a\.a\.a: /);
  await invalid(() => g.updateState(config, { n: nested(300) }), /^updateState\(config, values, asNode\): values\.n\.a.*nest deeper than 256/);
  assert.equal(await dump(saver, "deep"), before);
});

test("every way into the engine refuses cycles with the path of the bad value", async () => {
  const saver = new MemorySaver();
  const g = graph(saver);
  const config = { configurable: { thread_id: "ways" } };
  await g.invoke({ n: 0 }, config);
  const before = await dump(saver, "ways");
  const o = cyclic();
  await invalid(() => g.updateState(config, { n: o }), /^updateState\(config, values, asNode\): values\.n\.self: the value contains itself/);
  await invalid(() => g.bulkUpdateState(config, [{ updates: [{ values: { n: [1, o] }, asNode: "a" }] }]), /^supersteps\[0\]\.updates\[0\]\.values\.n\[1\]\.self: /);
  await invalid(() => g.invoke(new Command({ resume: o }), config), /^Command\.resume\.self: /);
  await invalid(() => g.invoke(new Command({ update: { n: o } }), config), /^Command\.update\.n\.self: /);
  const iterator = g.stream({ n: { deep: o } }, config)[Symbol.asyncIterator]();
  await invalid(() => iterator.next(), /^input\.n\.deep\.self: /);
  const other = new MemorySaver();
  await invalid(() => other.importThread({ format: "chronograph.thread.v1", thread_id: "x", namespaces: [o] }), /^importThread\(data\): data\.namespaces\[0\]\.self: /);
  await invalid(() => saver.put(config, { v: 4, id: "c", ts: "t", channel_values: { x: o }, channel_versions: {}, versions_seen: {} }, { source: "input", step: 0, parents: {} }), /^put\(config, checkpoint, \.\.\.\): checkpoint\.channel_values\.x\.self: /);
  const at = (await g.getState(config)).config;
  await invalid(() => saver.putWrites(at, [["n", o]], "task"), /^putWrites\(config, writes, taskId\): writes\[0\]\[1\]\.self: /);
  assert.throws(() => StateGraph.fromSpec({ nodes: { a: { writes: [{ set: { x: o } }] } } }), (e) => e instanceof TypeError && e.code === "INVALID_VALUE" && /^StateGraph\.fromSpec\(spec\): spec\.nodes\.a\.writes\[0\]\.set\.x\.self: /.test(e.message));
  assert.equal(await dump(saver, "ways"), before, "no failed call changed the thread");
  assert.equal(await other.exportThread("x"), undefined);
  // A run's config metadata JSON cannot hold does not stop the run: as in LangGraph.js, none of it is
  // copied into checkpoint metadata.
  await g.invoke({ n: 5 }, { ...config, metadata: { bad: o, good: "kept" } });
  assert.deepEqual(Object.keys((await saver.getTuple(config)).metadata), ["source", "step", "parents"]);
});

test("node, reducer and interrupt values are checked too; the thread stays usable", async () => {
  const saver = new MemorySaver();
  const config = { configurable: { thread_id: "nodes" } };
  let mode = "cycle";
  const g = new StateGraph({ n: "last_value", total: { reducer: (a, b) => (mode === "reducer" ? cyclic() : a + b), default: () => 0 } })
    .addNode("a", (s) => {
      if (mode === "cycle") return { n: cyclic() };
      if (mode === "interrupt") return { n: interrupt(cyclic()) };
      return { n: s.n + 1, total: 1 };
    })
    .addEdge(START, "a")
    .addEdge("a", END)
    .compile({ checkpointer: saver });
  const e = await invalid(() => g.invoke({ n: 1 }, config), /^node "a": update\.n\.self: the value contains itself/);
  assert.equal(e.node, "a");
  mode = "interrupt";
  await invalid(() => g.invoke(null, config), /^interrupt\(value\): value\.self: /);
  mode = "reducer";
  await invalid(() => g.invoke(null, config), /^the reducer's result\.self: /);
  mode = "fine";
  const out = await g.invoke(null, config);
  assert.deepEqual(out, { n: 2, total: 1 }, "the failed task reruns and the thread goes on");
});

test("getters and Proxies that throw, and BigInts a JS number cannot hold, are INVALID_VALUE errors", async () => {
  const saver = new MemorySaver();
  const g = graph(saver);
  const config = { configurable: { thread_id: "junk" } };
  await g.invoke({ n: 0 }, config);
  const before = await dump(saver, "junk");
  const boom = new Error("boom");
  const getter = { get bad() { throw boom; } };
  const e = await invalid(() => g.invoke({ n: getter }, config), "input.n: reading it threw Error: boom");
  assert.equal(e.cause, boom);
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  await invalid(() => g.invoke({ n: proxy }, config), /^input\.n: reading it threw TypeError: /);
  const traps = new Proxy({}, { ownKeys() { throw new RangeError("no keys"); } });
  await invalid(() => g.invoke({ n: traps }, config), "input.n: reading it threw RangeError: no keys");
  const arrayTrap = new Proxy([1, 2], { get(t, k) { if (k === "1") throw new Error("item"); return Reflect.get(t, k); } });
  await invalid(() => g.invoke({ n: arrayTrap }, config), "input.n[1]: reading it threw Error: item");
  for (const big of [2n ** 70n, 2n ** 63n, -(2n ** 53n)]) {
    await invalid(() => g.invoke({ n: big }, config), /^input\.n: a BigInt outside the safe integer range \(±\(2\^53 - 1\)\) is not JSON data/);
  }
  await invalid(() => g.invoke({ "odd key": { "x y": [cyclic()] } }, config), /^input\["odd key"\]\["x y"\]\[0\]\.self: /);
  // Outside a run (a saver's own writes), what JSON cannot hold is refused.
  const at = (await g.getState(config)).config;
  await invalid(() => saver.putWrites(at, [["n", { f() {} }]], "task"), "putWrites(config, writes, taskId): writes[0][1].f: a function is not JSON data");
  await invalid(() => saver.putWrites(at, [["n", Symbol("s")]], "task"), "putWrites(config, writes, taskId): writes[0][1]: a symbol is not JSON data");
  await invalid(() => saver.putWrites(at, [["n", new Set([1])]], "task"), /^putWrites\(config, writes, taskId\): writes\[0\]\[1\]: an object of class Set is not JSON data/);
  await invalid(() => saver.putWrites(at, [["n", new Uint8Array(2)]], "task"), "putWrites(config, writes, taskId): writes[0][1]: an object of class Uint8Array is not JSON data");
  await invalid(() => saver.putWrites(at, [["n", new Map([[1, 2]])]], "task"), /^putWrites\(config, writes, taskId\): writes\[0\]\[1\]: a Map key that is not a string/);
  const sparse = [];
  sparse.length = 2 ** 32 - 1;
  await invalid(() => g.invoke({ n: sparse }, config), /^input\.n: an array of 4294967295 items is longer than the 4194304 items a value may hold$/);
  assert.equal(await dump(saver, "junk"), before);
  // Safe BigInts cross as numbers, NaN as null; a Map goes through the run and is stored as
  // LangGraph.js's serializer stores it (a new Map when read back), `undefined` as `undefined`.
  const map = new Map([["k", [undefined]]]);
  const out = await g.invoke({ n: { big: 2n ** 40n, nan: NaN, map } }, config);
  assert.equal(out.n.map, map, "the run returns the Map it was given");
  const stored = (await g.getState(config)).values.n;
  assert.deepEqual(stored, { big: 2 ** 40, nan: null, map: new Map([["k", [undefined]]]) });
  assert.notEqual(stored.map, map);
});
