// Property test of the package's whole public surface: seeded random junk
// (cycles, deep nesting, BigInts, functions, symbols, huge strings, NaN,
// Proxies and getters that throw, wrong types, malformed JSON text, random
// configs) through every exported function and method. Checked after every
// case:
//   - only Error objects with a string `name` and `code` are thrown or
//     rejected with (never a string, never a WebAssembly.RuntimeError/trap);
//   - a call refused at the boundary (no node involved: a TypeError INVALID_VALUE or
//     INVALID_ARGUMENT, THREAD_BUSY, MISSING_THREAD_ID, INVALID_PARENT,
//     INVALID_EXPORT) left the stored threads byte-identical (exportThread).
//     Engine errors keep LangGraph's order of effects: a recursion limit hit
//     mid-run, or LangGraph's "Invalid update item ... when copying
//     checkpoint" (raised after the copy is saved), may leave what was
//     written before them, as they do in LangGraph;
//   - the module keeps working (a known run gives its known result).
//
//   FUZZ_CASES=100000 node --test npm/test/fuzz.test.mjs    a longer run (default 3000)
//   FUZZ_SEED=123                                         another sequence (default 1)
//   FUZZ_TRACE=1 FUZZ_DUMP_AT=N                           print each case; the threads before case N
// It prints how many cases ran and the errors they gave, and the seed and
// case of a failure (rerun with the same FUZZ_SEED to reproduce it).
import assert from "node:assert/strict";
import { test } from "node:test";
import * as chronograph from "chronograph";
import { Command, END, interrupt, MemorySaver, Send, START, StateGraph } from "chronograph";

const CASES = Number(process.env.FUZZ_CASES ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 1);

/** mulberry32: a small seeded PRNG. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Junk made from one PRNG. */
function junkMaker(random) {
  const int = (n) => Math.floor(random() * n);
  const pick = (list) => list[int(list.length)];
  const chance = (p) => random() < p;
  const names = ["a", "b", "n", "log", "x", "a", "b", START, END, "__input__", "__copy__", "", "zz", "<img src=x onerror=1>", "\u{1F600}", "\ud800"];
  const malformedJson = ['{"a":', "[1,2", "{'a': 1}", "nul", '{"format":"chronograph.thread.v1"', "\u0000", '"\\ud800"', "1e999", "[".repeat(300)];

  function string() {
    switch (int(8)) {
      case 0:
        return pick(names);
      case 1:
        return pick(malformedJson);
      case 2:
        return chance(0.02) ? "x".repeat(1 << 20) : "y".repeat(int(300));
      case 3:
        return String.fromCharCode(...Array.from({ length: int(12) }, () => int(0x10000)));
      default:
        return String(int(1e6)) + pick(names);
    }
  }

  function primitive() {
    switch (int(14)) {
      case 0:
        return undefined;
      case 1:
        return null;
      case 2:
        return chance(0.5);
      case 3:
        return pick([NaN, Infinity, -Infinity, -0, 2 ** 53, -(2 ** 53) - 2, 1e308, 5e-324, 0.1]);
      case 4:
        return int(2000) - 1000;
      case 5:
        return pick([1n, -(2n ** 63n), 2n ** 64n - 1n, 2n ** 64n, -(2n ** 100n)]);
      case 6:
        return Symbol(string().slice(0, 10));
      case 7:
        return pick([() => 1, async () => ({}), function named() {}, class K {}]);
      default:
        return string();
    }
  }

  function deep(levels, leaf) {
    let v = leaf;
    for (let i = 0; i < levels; i++) v = chance(0.5) ? { a: v } : [v];
    return v;
  }

  function cycle(inner) {
    const o = chance(0.5) ? { inner } : [inner];
    const at = chance(0.5) ? o : { back: o };
    if (Array.isArray(o)) o.push(at);
    else o.self = at;
    return o;
  }

  function hostile() {
    const boom = () => {
      throw chance(0.8) ? new Error("boom") : "thrown string";
    };
    switch (int(9)) {
      case 0:
        return { get bad() { return boom(); } };
      case 1: {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      }
      case 2:
        return new Proxy({}, { ownKeys: boom });
      case 3:
        return new Proxy({ a: 1 }, { get: boom });
      case 4:
        return new Proxy([1, 2, 3], { get: (t, k) => (k === "length" ? 2 ** 31 : boom()) });
      case 5: {
        const a = [];
        a.length = pick([2 ** 22 + 1, 2 ** 32 - 1]);
        return a;
      }
      case 6:
        return pick([new Set([1]), new Map([[1, 2]]), new Map([["k", cycle(1)]]), new Uint8Array(3), new ArrayBuffer(2), new Date(0), /re/, new Error("e")]);
      case 7:
        return { toJSON: boom, then: chance(0.5) ? boom : undefined };
      default:
        return Object.create(null, { x: { enumerable: true, get: boom } });
    }
  }

  /** Any junk, `depth` levels of containers deep at most (plus deep/cyclic specials). */
  function value(depth = 3) {
    const r = random();
    if (depth <= 0 || r < 0.35) return primitive();
    if (r < 0.45) return hostile();
    if (r < 0.52) return cycle(value(depth - 1));
    if (r < 0.58) return deep(pick([200, 255, 256, 257, 300, 1000]), value(0));
    if (r < 0.6) return chance(0.5) ? new Command(obj(depth - 1)) : new Send(chance(0.8) ? pick(names) : string(), value(depth - 1));
    if (r < 0.8) return Array.from({ length: int(5) }, () => value(depth - 1));
    return obj(depth);
  }

  function obj(depth = 3) {
    const o = {};
    for (let i = int(5); i > 0; i--) o[chance(0.7) ? pick(names) : string()] = value(depth - 1);
    return o;
  }

  /** Checkpoint ids of the protected threads, refreshed by the test. */
  const known = [];

  /** A message as add_messages reads it, often malformed. */
  function message() {
    const m = { type: pick(["human", "ai", "system", "tool", "remove", "user", "assistant", string()]), content: chance(0.8) ? string() : value(1) };
    if (chance(0.4)) m.id = pick(["m1", "m2", string()]);
    if (chance(0.1)) m.tool_calls = value(2);
    return chance(0.9) ? m : value(1);
  }

  /** State values for the protected graph's channels, plausible or not. */
  function update() {
    if (chance(0.15)) return value(2);
    const u = {};
    if (chance(0.5)) u.n = chance(0.8) ? int(100) : value(1);
    if (chance(0.3)) u.log = chance(0.8) ? [string()] : value(1);
    if (chance(0.3)) u.x = value(2);
    if (chance(0.4)) u.messages = chance(0.8) ? Array.from({ length: int(3) + 1 }, message) : message();
    if (chance(0.1)) u[string()] = value(1);
    return u;
  }

  /** A config: usually aimed at one of `threads`, with junk in random places. */
  function config(threads) {
    if (chance(0.1)) return value(2);
    const configurable = { thread_id: chance(0.9) ? pick(threads) : value(1) };
    if (chance(0.3) && known.length) configurable.checkpoint_id = pick(known);
    else if (chance(0.15)) configurable.checkpoint_id = chance(0.5) ? string() : value(1);
    if (chance(0.1)) configurable.checkpoint_ns = chance(0.5) ? value(1) : pick(["a:1", "s:x|a:2", "s:", "|", ""]);
    if (chance(0.05)) configurable.checkpoint_map = chance(0.5) ? value(2) : { "": pick(known.length ? known : ["x"]) };
    if (chance(0.1)) configurable[string()] = value(2);
    const c = { configurable: chance(0.05) ? value(1) : configurable };
    if (chance(0.15)) c.recursionLimit = pick([1, 2, 0, -1, 2.5, 1e12, "lots", NaN, 25]);
    if (chance(0.1)) c.metadata = obj(2);
    if (chance(0.1)) c.multitaskStrategy = pick(["reject", "enqueue", "interrupt", 3, undefined]);
    if (chance(0.1)) c.streamMode = value(1);
    if (chance(0.1)) c.subgraphs = chance(0.7) ? true : value(1);
    return c;
  }

  return { int, pick, chance, value, obj, string, config, names, update, message, known };
}

/** The graph whose threads are protected: well-behaved JS nodes, an interrupt, a router. */
function protectedGraph(saver) {
  return new StateGraph({ n: "sum", log: "append", x: "last_value", messages: "add_messages" })
    .addNode("a", (s) => ({ n: 1, log: ["a"] }))
    .addNode("b", (s) => ({ x: interrupt({ ask: s.n }) }))
    .addEdge(START, "a")
    .addConditionalEdges("a", (s) => (s.n % 2 === 0 ? "b" : END), ["b", END])
    .addEdge("b", END)
    .compile({ checkpointer: saver });
}

/** A graph whose node, router and reducer return (or interrupt with) the junk the case sets. */
function junkGraph(saver, junk) {
  // (Without a saver: compiled as a subgraph, which uses its parent's.)
  return new StateGraph({ n: "last_value", r: { reducer: (a, b) => (junk.reducer ? junk.value : b), default: () => 0 } })
    .addNode("a", (s) => {
      if (junk.interrupt) return { n: interrupt(junk.value) };
      if (junk.throws) throw junk.value;
      return junk.whole ? junk.value : { n: junk.value, r: 1 };
    })
    .addNode("b", async () => ({ n: 1 }))
    .addEdge(START, "a")
    .addConditionalEdges("a", () => (junk.router ? junk.value : END))
    .compile({ checkpointer: saver });
}

/** Errors raised before anything is written: after them every thread must be byte-identical. */
const BOUNDARY = new Set(["INVALID_ARGUMENT", "THREAD_BUSY", "MISSING_THREAD_ID", "INVALID_PARENT", "INVALID_EXPORT"]);
const refusedAtBoundary = (e) => e.node === undefined && (BOUNDARY.has(e.code) || (e.code === "INVALID_VALUE" && e.name === "TypeError"));

const TRAPS = /unreachable|memory access out of bounds|recursive use of an object|null pointer passed|already borrowed|already mutably borrowed|RuntimeError/;

/** Asserts that `e` is what the package may throw: an Error with a string name and code. */
function checkThrown(e, what) {
  assert.ok(!(e instanceof WebAssembly.RuntimeError), `${what}: a wasm trap: ${e?.stack ?? e}`);
  assert.ok(e instanceof Error, `${what}: threw a non-Error: ${typeof e} ${String(e).slice(0, 200)}`);
  assert.equal(typeof e.name, "string", `${what}: error without a name: ${e.stack}`);
  assert.equal(typeof e.code, "string", `${what}: error without a code: ${e.stack}`);
  assert.doesNotMatch(`${e.message}`, TRAPS, `${what}: ${e.stack}`);
}

/** Runs `op`, draining async iterables; resolves to `{ error }` or `{ ok }`. */
async function attempt(op) {
  try {
    let out = op();
    if (out && typeof out.then === "function") out = await out;
    if (out && typeof out[Symbol.asyncIterator] === "function") {
      let n = 0;
      for await (const item of out) {
        if (item && typeof item === "object") JSON.stringify(Object.keys(item));
        if (++n > 200) break;
      }
    }
    return { ok: out };
  } catch (error) {
    return { error };
  }
}

test(`fuzz: ${CASES} cases of junk through every public function (seed ${SEED})`, { timeout: 3_600_000 }, async () => {
  const random = prng(SEED);
  const j = junkMaker(random);
  const saver = new MemorySaver();
  const graph = protectedGraph(saver);
  const threads = ["p1", "p2", "p3"];
  /** (Re)makes the protected threads: p1 finished, p2 paused at an interrupt, p3 with a pending write. */
  async function seed() {
    for (const t of threads) await saver.deleteThread(t);
    await graph.invoke({ n: 0 }, { configurable: { thread_id: "p1" } });
    await graph.invoke({ n: 1 }, { configurable: { thread_id: "p2" } });
    await graph.invoke({ n: 0 }, { configurable: { thread_id: "p3" } });
    await saver.putWrites((await graph.getState({ configurable: { thread_id: "p3" } })).config, [["x", "w"]], "task-p3");
  }
  await seed();
  const scratch = new MemorySaver();
  const junk = {};
  const jgraph = junkGraph(scratch, junk);
  // The junk graph again, as a subgraph (and fanned out to with Sends).
  const jparent = new StateGraph({ n: "last_value", r: "sum" })
    .addNode("sub", junkGraph(undefined, junk))
    .addNode("fan", () => ({}))
    .addEdge(START, "fan")
    .addConditionalEdges("fan", () => (junk.router ? junk.value : [new Send("sub", { n: 1 }), "sub"]))
    .compile({ checkpointer: scratch });

  const dumps = async () => JSON.stringify(await Promise.all(threads.map((t) => saver.exportThread(t))));
  let baseline = await dumps();

  /** Operations on the protected threads: a failure must leave them byte-identical. */
  const guarded = [
    () => graph.invoke(j.chance(0.6) ? j.update() : j.value(), j.config(threads)),
    () => graph.invoke(new Command({ resume: j.value(), update: j.chance(0.3) ? j.value() : undefined, goto: j.chance(0.2) ? j.value(1) : undefined }), j.config(threads)),
    () =>
      graph.stream(
        j.value(),
        j.config(threads),
        j.chance(0.5)
          ? { streamMode: j.chance(0.7) ? j.pick(["values", "updates", "debug", ["tasks", "checkpoints"]]) : j.value(1), subgraphs: j.chance(0.5) ? true : j.value(0) }
          : j.value(1),
      ),
    () => graph.updateState(j.config(threads), j.chance(0.6) ? j.update() : j.value(), j.chance(0.8) ? j.pick(j.names) : j.value(1)),
    () =>
      graph.bulkUpdateState(
        j.config(threads),
        j.chance(0.8)
          ? Array.from({ length: j.int(3) + 1 }, () => ({
              updates: Array.from({ length: j.int(3) + 1 }, () => ({ values: j.update(), asNode: j.pick(j.names), ...(j.chance(0.2) ? { taskId: j.string() } : {}) })),
            }))
          : j.value(2),
      ),
    () => graph.getState(j.config(threads), j.chance(0.5) ? { subgraphs: j.chance(0.7) ? true : j.value(1) } : j.value(1)),
    () => graph.getStateHistory(j.config(threads), j.chance(0.5) ? j.obj(2) : j.value(1)),
    () => graph.getLineage(j.config(threads)),
    () => saver.getTuple(j.config(threads)),
    () => saver.list(j.chance(0.8) ? j.config(threads) : j.value(1), j.chance(0.5) ? j.obj(2) : j.value(1)),
    () => saver.exportThread(j.chance(0.7) ? j.pick(threads) : j.value(1)),
    () => saver.threadIds(),
    async () => {
      // A real checkpoint of a protected thread, mutated.
      const t = await saver.getTuple({ configurable: { thread_id: j.pick(threads) } });
      if (t === undefined) return saver.put(j.config(threads), j.value(2), j.value(2), j.value(2));
      const c = t.checkpoint;
      c[j.pick(["channel_values", "channel_versions", "versions_seen", "id", "v", "ts"])] = j.value(2);
      return saver.put(j.chance(0.8) ? t.config : j.config(threads), c, j.chance(0.5) ? t.metadata : j.value(2), j.chance(0.5) ? {} : j.value(2));
    },
    () => saver.putWrites(j.config(threads), j.chance(0.5) ? [[j.pick(j.names), j.value()]] : j.value(2), j.chance(0.7) ? "task" : j.value(1)),
    async () => {
      // An export of a protected thread, mutated in one random place, imported.
      const data = await saver.exportThread(j.pick(threads));
      if (!data?.namespaces?.[0]?.checkpoints?.[0]) return saver.importThread(data);
      const targets = [data, data.namespaces[0], data.namespaces[0].checkpoints[0], data.namespaces[0].checkpoints[0].checkpoint, data.namespaces[0].blobs[0] ?? {}];
      const target = j.pick(targets);
      const keys = Object.keys(target);
      target[j.chance(0.8) && keys.length ? j.pick(keys) : j.string()] = j.value(2);
      return saver.importThread(data);
    },
    () => saver.importThread(j.chance(0.5) ? j.value(2) : j.string()),
    () => saver.deleteThread(j.chance(0.9) ? j.value(1) : "no-such-thread"),
  ];

  /** Operations that build graphs or run the junk graph on scratch threads: only the error shape is checked. */
  const free = [
    () => new StateGraph(j.chance(0.5) ? j.obj(2) : j.value(2)),
    () => StateGraph.fromSpec(j.chance(0.3) ? j.string() : { nodes: j.chance(0.5) ? { a: { writes: [j.obj(2)] } } : j.value(2), edges: j.value(2), channels: j.value(1) }),
    () => new StateGraph({ n: null }).addNode(j.value(1), j.chance(0.5) ? () => ({}) : j.value(1)).addEdge(j.value(1), j.value(1)).compile(j.value(1)),
    () => new StateGraph({ n: null }).addNode("a", () => ({})).addConditionalEdges(j.value(1), j.chance(0.5) ? () => "a" : j.value(1), j.value(2)),
    () => new StateGraph({ n: null }).addNode("a", () => ({})).addEdge(START, "a").compile(j.chance(0.5) ? { checkpointer: j.value(1), interruptBefore: j.value(1), interruptAfter: j.value(1) } : j.value(1)),
    () => new Command(j.value(2)),
    () => new Send(j.value(1), j.value(2)),
    () => new StateGraph({ n: null }).addNode("a", () => ({}), j.value(2)).addEdge(START, "a").compile(),
    () => new StateGraph({ n: null }).addNode("s", jgraph, j.chance(0.5) ? { ends: j.value(1) } : undefined).addEdge(START, "s").compile(),
    () => {
      Object.assign(junk, { value: j.value(), reducer: j.chance(0.1), interrupt: j.chance(0.15), throws: j.chance(0.1), whole: j.chance(0.3), router: j.chance(0.2) });
      return jparent.stream(j.chance(0.8) ? { n: 1 } : j.value(), { configurable: { thread_id: `p${j.int(4)}` }, recursionLimit: 20 }, { subgraphs: true, streamMode: j.pick(["updates", "values", ["debug", "checkpoints"]]) });
    },
    () => jparent.getState({ configurable: { thread_id: `p${j.int(4)}` } }, { subgraphs: true }),
    () => jparent.invoke(new Command({ resume: j.value(), goto: j.chance(0.3) ? j.value(1) : undefined }), { configurable: { thread_id: `p${j.int(4)}` }, recursionLimit: 20 }),
    () => interrupt(j.value(), j.value(1)),
    () => {
      Object.assign(junk, { value: j.value(), reducer: j.chance(0.15), interrupt: j.chance(0.15), throws: j.chance(0.1), whole: j.chance(0.2), router: j.chance(0.15) });
      return jgraph.invoke(j.chance(0.8) ? { n: 1 } : j.value(), { configurable: { thread_id: `s${j.int(4)}` }, recursionLimit: 20 });
    },
    () => jgraph.invoke(new Command({ resume: j.value() }), { configurable: { thread_id: `s${j.int(4)}` }, recursionLimit: 20 }),
  ];

  /** Several guarded calls at once, not awaited one by one: they queue on their threads. */
  guarded.push(async () => {
    const calls = Array.from({ length: j.int(3) + 2 }, () => attempt(guarded[j.int(guarded.length - 1)]));
    for (const { error } of await Promise.all(calls)) if (error !== undefined) checkThrown(error, "a call of a burst");
  });

  async function refreshKnown() {
    j.known.length = 0;
    for (const t of threads) for await (const c of saver.list({ configurable: { thread_id: t } })) j.known.push(c.config.configurable.checkpoint_id);
  }
  await refreshKnown();

  let failures = 0;
  const codes = {};
  for (let i = 0; i < CASES; i++) {
    const isGuarded = j.chance(0.7);
    const list = isGuarded ? guarded : free;
    const index = j.int(list.length);
    const what = `seed ${SEED} case ${i} (${isGuarded ? "guarded" : "free"} op ${index})`;
    if (process.env.FUZZ_TRACE) process.stderr.write(`${what}\n`);
    if (Number(process.env.FUZZ_DUMP_AT) === i) process.stderr.write(`${await dumps()}\n`);
    const { error } = await attempt(list[index]);
    if (error !== undefined) {
      failures++;
      checkThrown(error, what);
      const key = `${error.name}/${error.code}`;
      codes[key] = (codes[key] ?? 0) + 1;
    }
    if (isGuarded) {
      const now = await dumps();
      if (error !== undefined && refusedAtBoundary(error)) {
        assert.equal(now, baseline, `${what}: a refused call (${error.name} ${error.code}: ${error.message.slice(0, 300)}) changed a stored thread`);
      }
      baseline = now;
    }
    if (i % 250 === 249 || i === CASES - 1) {
      // The module keeps working: a fresh thread gives the known result.
      const fresh = { configurable: { thread_id: `health-${i}` } };
      const out = await graph.invoke({ n: 1 }, fresh);
      assert.equal(out.n, 2, what);
      assert.deepEqual(out.log, ["a"], what);
      assert.deepEqual(out.__interrupt__.map((x) => x.value), [{ ask: 2 }], what);
      const done = await graph.invoke(new Command({ resume: "yes" }), fresh);
      assert.equal(done.x, "yes", what);
      await saver.deleteThread(`health-${i}`);
      // Fresh protected threads, so that the exports compared each case stay small.
      await seed();
      await refreshKnown();
      baseline = await dumps();
    }
  }
  console.log(`fuzz: ${CASES} cases ran (seed ${SEED}), ${failures} failed as expected with coded Errors:`);
  console.log(Object.entries(codes).sort((a, b) => b[1] - a[1]).map(([k, n]) => `  ${n} ${k}`).join("\n"));
  // Everything still exported by the package still works end to end.
  assert.equal(typeof chronograph.ThreadBusyError, "function");
});
