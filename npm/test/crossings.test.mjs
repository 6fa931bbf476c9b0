// Guards for speed that cannot be noisy: how many times a superstep crosses the
// JS/wasm boundary (calls into the module's exports, and the module's calls out to
// its JS imports) and how many strings it decodes from wasm memory. Timings vary
// from run to run; these counts do not, so a change that adds work per node call
// or per superstep fails here even where a benchmark could not tell.
//
// The counts are per superstep: each workload runs twice, with N and 3N loop
// iterations, and the difference is divided by the supersteps it added (so the
// graph's compile, the first input and the end of the run cancel out). The
// budgets are the counts measured when they were set (BENCHMARKS.md, "Boundary
// crossings"); lower them when a change saves crossings, never raise them
// without saying why there.
//
// This file patches `WebAssembly.Instance` before the package loads (node --test
// runs each file in its own process), so every other test file sees the package
// unpatched.
import { test } from "node:test";
import assert from "node:assert/strict";

/** Calls per name: exports called from JS, imports called from wasm, strings decoded. */
const counts = { exports: 0, imports: 0, decoded: 0, decodedBytes: 0 };
/** Calls per export or import name (printed, to show where crossings go). */
const byName = new Map();

/**
 * `f` counted in `counts[kind]`. wasm-bindgen's `*_free` exports run from a
 * FinalizationRegistry, when the collector decides: not counted, so that the
 * counts do not depend on when V8 collects.
 */
function counted(kind, name, f) {
  if (/_free$/.test(name)) return f;
  const key = `${kind === "exports" ? "→" : "←"} ${name}`;
  return function (...args) {
    counts[kind]++;
    byName.set(key, (byName.get(key) ?? 0) + 1);
    return f.apply(this, args);
  };
}

const RealInstance = WebAssembly.Instance;
WebAssembly.Instance = function CountingInstance(module, imports) {
  const wrapped = {};
  for (const [mod, fns] of Object.entries(imports ?? {})) {
    wrapped[mod] = {};
    for (const [name, f] of Object.entries(fns)) wrapped[mod][name] = typeof f === "function" ? counted("imports", name, f) : f;
  }
  const instance = new RealInstance(module, wrapped);
  const exports = {};
  for (const [name, v] of Object.entries(instance.exports)) exports[name] = typeof v === "function" ? counted("exports", name, v) : v;
  return { exports };
};
const realDecode = TextDecoder.prototype.decode;
TextDecoder.prototype.decode = function (bytes, options) {
  counts.decoded++;
  counts.decodedBytes += bytes?.byteLength ?? 0;
  return realDecode.call(this, bytes, options);
};

const { Annotation, MemorySaver, StateGraph, END, START } = await import("chronograph");

const agent = (state) => ({ count: state.count + 1, trail: ["agent"] });
const tool = () => ({ trail: ["tool"] });
const router = (n) => (state) => (state.count < n ? "tool" : END);

/** W1 of bench/workloads.mjs, the agent/tool loop with JS nodes, in a given state form. */
function w1(state, iterations) {
  return new StateGraph(state)
    .addNode("agent", agent)
    .addNode("tool", tool)
    .addEdge(START, "agent")
    .addEdge("tool", "agent")
    .addConditionalEdges("agent", router(iterations))
    .compile({ checkpointer: new MemorySaver() });
}

/** The counts one run of `build(iterations)` adds. */
async function countRun(build, iterations) {
  const graph = build(iterations);
  const before = { ...counts };
  await graph.invoke({ count: 0, trail: [] }, { configurable: { thread_id: "t" }, recursionLimit: 1_000 });
  return Object.fromEntries(Object.keys(counts).map((k) => [k, counts[k] - before[k]]));
}

/** Per superstep: (counts at 3N − counts at N) / the supersteps 2N more iterations add. */
async function perSuperstep(build, n = 20) {
  await countRun(build, n); // warm: lazy imports, first-use caches
  const [small, large] = [await countRun(build, n), await countRun(build, 3 * n)];
  const supersteps = 2 * (3 * n - n); // each iteration runs agent, then tool
  return Object.fromEntries(Object.keys(small).map((k) => [k, (large[k] - small[k]) / supersteps]));
}

/** The budgets, per superstep of W1 (see the file's comment). */
const BUDGET = {
  "package form": { exports: 1.5, imports: 19, decoded: 4 },
  "Annotation.Root form": { exports: 1.5, imports: 19, decoded: 4 },
};

const forms = {
  "package form": { count: "last_value", trail: "append" },
  "Annotation.Root form": Annotation.Root({
    count: Annotation(),
    trail: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  }),
};

for (const [form, state] of Object.entries(forms)) {
  test(`W1 (${form}): boundary crossings and strings decoded per superstep stay within budget`, async () => {
    byName.clear();
    const per = await perSuperstep((n) => w1(state, n));
    const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(`  ${form}: ${JSON.stringify(per)}; most called (whole test): ${top.map(([k, v]) => `${k} ${v}`).join(", ")}`);
    const budget = BUDGET[form];
    for (const k of ["exports", "imports", "decoded"]) {
      assert.ok(per[k] <= budget[k], `${form}: ${k} per superstep ${per[k]} > budget ${budget[k]}`);
    }
    // The counts are exact: the same run twice gives the same numbers.
    assert.deepEqual(await perSuperstep((n) => w1(state, n)), per);
  });
}
