#!/usr/bin/env node
// Side-by-side benchmarks of chronograph (the built npm package in ../pkg)
// and LangGraph.js, in one process, engines alternating within every
// workload, medians and ratios printed as a table. Memory is measured in a
// fresh child process per engine and workload.
//
//   node bench/run.mjs            full sizes (W1 2,000 iterations, W2 1,000 turns, W3 500 supersteps,
//                                 W4 200 supersteps)
//   node bench/run.mjs --smoke    tiny sizes, one rep: finishes in seconds, for CI
//   options: --reps N  --w2-reps N  --w4-reps N  --w2msg-reps N  --only w1,w2,w3,w4,w2msg,mem
//            --engines cg-js,cg-spec,cg-annot,lg   (cg-annot: LangGraph.js's own Annotation.Root program on chronograph)
//            --pkg DIR  --json FILE
//
// Prints; never asserts a time. Shape checks (checkpoint counts) only warn.
import { spawnSync } from "node:child_process";
import { setMaxListeners } from "node:events";
import { existsSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as W from "./workloads.mjs";
import { chronographAnnotation, chronographJs, chronographSpec, langgraphJs, loadChronograph } from "./engines.mjs";

const here = dirname(fileURLToPath(import.meta.url));

// ---- arguments ----
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
};

if (typeof globalThis.gc !== "function") {
  // Re-run with --expose-gc so memory numbers are taken after a collection.
  const r = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), ...argv], {
    stdio: "inherit",
  });
  process.exit(r.status ?? 1);
}

// LangGraph.js adds an abort listener per task to one signal: W4's nine
// tasks a superstep pass Node's default of 10 and print a warning each run.
setMaxListeners(100);

const smoke = flag("--smoke");
const SIZES = smoke
  ? { w1Small: 10, w1Large: 100, w2Turns: 60, w2Window: 20, w3: 20, w4: 6, reps: 1, w2Reps: 1, w4Reps: 1, tail: 5 }
  : { w1Small: 200, w1Large: 2000, w2Turns: 1000, w2Window: 100, w3: 500, w4: 200, reps: 5, w2Reps: 2, w4Reps: 3, tail: 10 };
SIZES.reps = Number(option("--reps", SIZES.reps));
// W2 is a whole 1,000-turn thread per rep (LangGraph.js spends ~1 min on it): fewer reps.
SIZES.w2Reps = Math.min(SIZES.reps, Number(option("--w2-reps", SIZES.w2Reps)));
// W4 is ~30-60 s per rep on LangGraph.js: fewer reps too.
SIZES.w4Reps = Math.min(SIZES.reps, Number(option("--w4-reps", SIZES.w4Reps)));
// The W4 run that is compared between engines before any W4 timing.
const W4_CHECK = 12;
const only = new Set(option("--only", "w1,w2,w3,w4,w2msg,mem").split(","));
const wanted = new Set(option("--engines", "cg-js,cg-spec,lg").split(","));
const pkgDir = resolve(option("--pkg", resolve(here, "../pkg")));
const jsonOut = option("--json", null);

const now = () => performance.now() * 1000; // µs
const config = (thread, checkpointId) => ({
  configurable: checkpointId ? { thread_id: thread, checkpoint_id: checkpointId } : { thread_id: thread },
  recursionLimit: 1_000_000,
});

// ---- engines ----
async function loadEngines() {
  const engines = [];
  const notes = [];
  if (wanted.has("cg-js") || wanted.has("cg-spec") || wanted.has("cg-annot")) {
    if (existsSync(`${pkgDir}/node.js`) && existsSync(`${pkgDir}/wasm/chronograph_bg.wasm`)) {
      const cg = await loadChronograph(pkgDir);
      if (wanted.has("cg-js")) engines.push({ key: "cg-js", ...chronographJs(cg) });
      if (wanted.has("cg-spec")) engines.push({ key: "cg-spec", ...chronographSpec(cg) });
      if (wanted.has("cg-annot")) engines.push({ key: "cg-annot", ...chronographAnnotation(cg) });
      if (!cg.memory) notes.push("wasm linear memory not reachable: wasm columns empty");
    } else {
      notes.push(`no built package at ${pkgDir} (scripts/build-pkg.sh): chronograph columns empty`);
    }
  }
  if (wanted.has("lg")) engines.push({ key: "lg", ...(await langgraphJs()) });
  return { engines, notes };
}

// ---- memory child: one engine, one workload, fresh process ----
async function memoryChild() {
  const [key, workload, size, start] = argv.slice(argv.indexOf("--memory-child") + 1);
  const { engines } = await loadEngines();
  const engine = engines.find((e) => e.key === key);
  const sample = async () => {
    // Collections with turns of the event loop between them, so finalizers
    // (which free dropped graphs' wasm memory) run before the reading.
    for (let i = 0; i < 3; i++) {
      globalThis.gc();
      await new Promise((r) => setTimeout(r, 10));
    }
    const m = process.memoryUsage();
    return { rss: m.rss, heap: m.heapUsed, external: m.external, wasm: engine.memory() ?? null };
  };
  if (start === "warm") {
    // A small run of the same workload first, on a graph that is then
    // dropped: the engine's code is compiled (V8 tiers wasm and JS up on
    // first use) before the baseline, so growth counts what the measured
    // thread keeps, not one-time code. Both engines get the same warm-up.
    const warm = workload === "w1" ? engine.w1(50) : engine.w2();
    if (workload === "w1") await warm.graph.invoke(W.w1Input(), config("warm"));
    else for (let i = 0; i < 20; i++) await warm.graph.invoke(W.w2Input(i), config("warm"));
  }
  const before = await sample();
  const points = [];
  let keep;
  if (workload === "w1") {
    keep = engine.w1(Number(size));
    await keep.graph.invoke(W.w1Input(), config("w1"));
  } else if (workload === "w2") {
    keep = engine.w2();
    const turns = Number(size);
    for (let i = 0; i < turns; i++) {
      if (i === turns / 2) points.push(await sample());
      await keep.graph.invoke(W.w2Input(i), config("chat"));
    }
  }
  points.push(await sample());
  globalThis.keepAlive = keep;
  process.stdout.write(JSON.stringify({ before, points }) + "\n");
}

// ---- W2 with LangChain message classes (issue 11): one fresh process per variant ----

/**
 * W2 on chronograph (JS nodes) three ways: plain message objects with
 * message classes off (`CHRONOGRAPH_LANGCHAIN=off`, as without
 * @langchain/core), plain objects in with @langchain/core installed (they
 * come out as instances, as LangGraph.js's reducer makes them), and
 * `HumanMessage` in / `AIMessage` out of the node. A process per variant:
 * the switch is per process.
 */
const W2MSG_VARIANTS = [
  ["plain", "plain objects, classes off (as without @langchain/core)", { CHRONOGRAPH_LANGCHAIN: "off" }],
  ["coerced", "plain objects in, instances out (@langchain/core installed)", {}],
  ["classes", "HumanMessage in, node returns AIMessage", {}],
];

async function w2msgChild() {
  const variant = argv[argv.indexOf("--w2msg-child") + 1];
  const { cg } = await loadChronograph(pkgDir);
  const { AIMessage, HumanMessage } = await import("@langchain/core/messages");
  const classes = variant === "classes";
  const reply = classes
    ? (state) => ({ messages: [new AIMessage({ content: "echo: " + state.messages[state.messages.length - 1].content })] })
    : W.reply;
  const input = classes ? (i) => ({ messages: [new HumanMessage({ content: `hello ${i}` })] }) : W.w2Input;
  const graph = new cg.StateGraph({ messages: "add_messages" })
    .addNode("reply", reply)
    .addEdge(W.START, "reply")
    .addEdge("reply", W.END)
    .compile({ checkpointer: new cg.MemorySaver() });
  for (let i = 0; i < 50; i++) await graph.invoke(input(i), config("warm"));
  const times = [];
  let out;
  const cpu = process.cpuUsage();
  for (let i = 0; i < SIZES.w2Turns; i++) {
    const t = now();
    out = await graph.invoke(input(i), config("chat"));
    times.push(now() - t);
  }
  const used = process.cpuUsage(cpu);
  const last = out.messages[out.messages.length - 1];
  process.stdout.write(
    JSON.stringify({
      first: median(times.slice(0, SIZES.w2Window)),
      last: median(times.slice(-SIZES.w2Window)),
      all: median(times),
      // Process CPU time per invoke (V8's helper threads included): on a shared machine it
      // moves less than wall time.
      cpu: (used.user + used.system) / SIZES.w2Turns,
      messages: out.messages.length,
      lastClass: Object.getPrototypeOf(last) === Object.prototype ? "plain object" : last.constructor.name,
    }) + "\n",
  );
}

/** Runs the W2 message-class variants (alternating, `reps` times) and prints their table. */
function w2msgBlock(reps) {
  const samples = new Map();
  for (let rep = 0; rep < reps; rep++) {
    for (let i = 0; i < W2MSG_VARIANTS.length; i++) {
      const [key, , env] = W2MSG_VARIANTS[(i + rep) % W2MSG_VARIANTS.length];
      const args = ["--expose-gc", fileURLToPath(import.meta.url), "--w2msg-child", key, "--pkg", pkgDir, ...(smoke ? ["--smoke"] : [])];
      const r = spawnSync(process.execPath, args, { encoding: "utf8", env: { ...process.env, ...env } });
      if (r.status !== 0) {
        warnings.push(`W2 messages child ${key} failed: ${r.stderr.trim().split("\n").pop()}`);
        continue;
      }
      const got = JSON.parse(r.stdout.trim().split("\n").pop());
      check(`W2 ${key} messages`, got.messages, 2 * SIZES.w2Turns);
      if (!samples.has(key)) samples.set(key, []);
      samples.get(key).push(got);
    }
  }
  const med = (key, field) => median((samples.get(key) ?? []).map((s) => s[field]));
  console.log(`\nW2 with LangChain message classes (chronograph, JS nodes; ${SIZES.w2Turns} invokes, medians of ${reps} process(es) per variant)`);
  console.log(`| variant | last message is | first ${SIZES.w2Window} | last ${SIZES.w2Window} | all (median) | ÷ plain | CPU per invoke | ÷ plain |`);
  console.log("|---|---|---|---|---|---|---|---|");
  const ratio = (key, field) => (med("plain", field) ? `${(med(key, field) / med("plain", field)).toFixed(2)}x` : "—");
  for (const [key, label] of W2MSG_VARIANTS) {
    const s = samples.get(key)?.[0];
    if (!s) continue;
    const us = (field) => `${med(key, field).toFixed(1)} µs`;
    console.log(`| ${label} | ${s.lastClass} | ${us("first")} | ${us("last")} | ${us("all")} | ${ratio(key, "all")} | ${us("cpu")} | ${ratio(key, "cpu")} |`);
  }
}

// ---- measurements ----

/**
 * Collects garbage and lets FinalizationRegistry callbacks run, so the wasm
 * memory of graphs dropped by earlier runs is freed before the next one
 * (without this, dead savers pile up in wasm memory and later runs of
 * chronograph are several times slower).
 */
async function settle() {
  globalThis.gc();
  await new Promise((r) => setTimeout(r, 0));
  globalThis.gc();
  await new Promise((r) => setTimeout(r, 0));
}

/** One small untimed run of every workload, so both engines are JIT-warm. */
async function warmUp(engine) {
  const w1 = engine.w1(50);
  await w1.graph.invoke(W.w1Input(), config("warm"));
  for await (const s of w1.graph.getStateHistory(config("warm"))) void s.values;
  for await (const t of w1.saver.list(config("warm"))) void t.metadata;
  const w2 = engine.w2();
  for (let i = 0; i < 20; i++) await w2.graph.invoke(W.w2Input(i), config("warm"));
  await engine.w3(5).graph.invoke(W.w3Input(), config("warm"));
  // W4 takes longest to warm: chronograph's subgraph and Send paths run
  // 2-5x slower per superstep for the first few hundred supersteps (V8
  // tiering the wasm and the bindings up), so one whole run first.
  if (engine.w4) await engine.w4(SIZES.w4).graph.invoke(W.w4Input(), config("warm"));
}

const results = new Map(); // metric -> engine key -> samples

function record(metric, key, value) {
  if (!results.has(metric)) results.set(metric, new Map());
  const m = results.get(metric);
  if (!m.has(key)) m.set(key, []);
  m.get(key).push(value);
}

function median(values) {
  if (!values?.length) return undefined;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const warnings = [];
function check(what, got, want) {
  if (got !== want) warnings.push(`${what}: got ${got}, expected ${want}`);
}

/** History of a thread through getStateHistory, reading metadata only. */
async function historyMetadata(graph, thread) {
  const steps = new Map();
  let n = 0;
  for await (const s of graph.getStateHistory(config(thread))) {
    n++;
    if (!steps.has(s.metadata.step)) steps.set(s.metadata.step, s.config.configurable.checkpoint_id);
  }
  return { n, steps };
}

async function w1Block(engine, rep) {
  const k = engine.key;
  const N = SIZES.w1Large;
  // Re-warm after the other engines' blocks: they run the same node
  // functions with their own state objects, and the first W1 run after
  // them pays for re-optimizing those functions (up to 2x per superstep
  // for the next 4,001-checkpoint run, then gone). Without this the large
  // run, which comes first in the block, pays it and the small run does not.
  await engine.w1(50).graph.invoke(W.w1Input(), config("rewarm"));
  await settle();
  // The 4,001-checkpoint run.
  const large = engine.w1(N);
  let t = now();
  await large.graph.invoke(W.w1Input(), config("w1"));
  record("w1.step.large", k, (now() - t) / W.w1Supersteps(N));

  // History, metadata only: getStateHistory (the user API) and saver.list.
  // Each timed section starts after a collection (settle), so it is not
  // charged for the garbage of the section before it; same for every engine.
  await settle();
  t = now();
  const { n, steps } = await historyMetadata(large.graph, "w1");
  record("w1.history.meta", k, now() - t);
  check(`${engine.name} W1 checkpoints`, n, W.w1Checkpoints(N));
  await settle();
  t = now();
  let listed = 0;
  for await (const tuple of large.saver.list(config("w1"))) listed += tuple.metadata.step >= -1 ? 1 : 0;
  record("w1.list.meta", k, now() - t);
  check(`${engine.name} W1 saver.list`, listed, W.w1Checkpoints(N));

  // History reading every snapshot's values.
  await settle();
  t = now();
  let items = 0;
  for await (const s of large.graph.getStateHistory(config("w1"))) items += s.values.trail?.length ?? 0;
  record("w1.history.values", k, now() - t);
  check(`${engine.name} W1 trail items over history`, items, (W.w1Supersteps(N) - 1) * W.w1Supersteps(N) / 2);

  // Replays: the last few supersteps, then from the middle.
  const last = W.w1Supersteps(N) - 1;
  await settle();
  record("w1.replay.tail.large", k, await tailReplay(large.graph, steps.get(last - SIZES.tail)));
  await settle();
  t = now();
  await large.graph.invoke(null, config("w1", steps.get(N)));
  const mid = now() - t;
  record("w1.replay.mid", k, mid);
  record("w1.replay.mid.step", k, mid / (last - N));

  // The 401-checkpoint run, and the same tail replay on it.
  const n2 = SIZES.w1Small;
  const small = engine.w1(n2);
  t = now();
  await small.graph.invoke(W.w1Input(), config("w1"));
  record("w1.step.small", k, (now() - t) / W.w1Supersteps(n2));
  const smallSteps = (await historyMetadata(small.graph, "w1")).steps;
  const from = smallSteps.get(W.w1Supersteps(n2) - 1 - SIZES.tail);
  record("w1.replay.tail.small", k, await tailReplay(small.graph, from));
}

/**
 * Median time of replaying from checkpoint `id` to the end, 5 times (each
 * replay forks a new branch from the same checkpoint, so each does the same
 * work). One replay alone is dominated by first-call effects: the first
 * replay on a graph costs about 0.6 ms whatever the thread's length.
 */
async function tailReplay(graph, id) {
  const times = [];
  for (let i = 0; i < (smoke ? 1 : 5); i++) {
    const t = now();
    await graph.invoke(null, config("w1", id));
    times.push(now() - t);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

async function w2Block(engine) {
  const k = engine.key;
  const { graph } = engine.w2();
  const times = [];
  let out;
  for (let i = 0; i < SIZES.w2Turns; i++) {
    const t = now();
    out = await graph.invoke(W.w2Input(i), config("chat"));
    times.push(now() - t);
  }
  check(`${engine.name} W2 messages`, out.messages.length, 2 * SIZES.w2Turns);
  record("w2.first", k, median(times.slice(0, SIZES.w2Window)));
  record("w2.last", k, median(times.slice(-SIZES.w2Window)));
}

async function w3Block(engine) {
  const k = engine.key;
  const S = SIZES.w3;
  const { graph } = engine.w3(S);
  const t = now();
  const out = await graph.invoke(W.w3Input(), config("fan"));
  record("w3.step", k, (now() - t) / S);
  check(`${engine.name} W3 total`, out.total, W.FANOUT * S);
}

/**
 * What a W4 run did, from what it returned and the checkpoints it wrote:
 * the final values, the root history (step, source, next, newest first),
 * the subgraph checkpoints (every namespace but the root's) and the
 * supersteps run (root checkpoints with source "loop").
 */
async function w4Trace(built, out, thread) {
  const history = [];
  for await (const s of built.graph.getStateHistory(config(thread))) {
    history.push([s.metadata.step, s.metadata.source, [...s.next].sort()]);
  }
  let all = 0;
  for await (const _ of built.saver.list(config(thread))) all++;
  return {
    values: out,
    history,
    subCheckpoints: all - history.length,
    supersteps: history.filter(([, source]) => source === "loop").length,
  };
}

/**
 * W4 on every engine at a small size, compared before any timing: the
 * final values, the root history and the number of subgraph checkpoints
 * must be equal (and what the workload's arithmetic says). Returns whether
 * they are; W4 is not timed when they are not.
 */
/** JSON text with object keys sorted: engines order state keys differently. */
function canonical(value) {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
      : v,
  );
}

async function w4Check(engines) {
  const S = Math.min(W4_CHECK, SIZES.w4);
  const traces = [];
  for (const engine of engines.filter((e) => e.w4)) {
    const built = engine.w4(S);
    const out = await built.graph.invoke(W.w4Input(), config("w4-check"));
    traces.push([engine, await w4Trace(built, out, "w4-check")]);
  }
  const expected = {
    values: { round: S - 1, results: W.w4Results(S) },
    subCheckpoints: W.w4SubCheckpoints(S),
    supersteps: S,
  };
  let same = true;
  for (const [engine, trace] of traces) {
    const got = { values: trace.values, subCheckpoints: trace.subCheckpoints, supersteps: trace.supersteps };
    if (canonical(got) !== canonical(expected)) {
      warnings.push(`W4 check: ${engine.name} gave ${canonical(got)}, expected ${canonical(expected)}`);
      same = false;
    }
    if (canonical(trace.history) !== canonical(traces[0][1].history)) {
      warnings.push(`W4 check: ${engine.name}'s root history differs from ${traces[0][0].name}'s`);
      same = false;
    }
  }
  if (!same) warnings.push("W4 not timed: the engines' results differ");
  return same;
}

async function w4Block(engine) {
  if (!engine.w4) return;
  const k = engine.key;
  const S = SIZES.w4;
  // Re-warm, as for W1: the other engine's block ran in between, and the
  // subgraph and Send paths are hot only here (a cold first run is up to
  // 5x slower per superstep in chronograph, while V8 tiers up the wasm).
  await engine.w4(smoke ? 6 : 30).graph.invoke(W.w4Input(), config("w4-rewarm"));
  await settle();
  const built = engine.w4(S);
  const cpu0 = process.cpuUsage();
  const t = now();
  const out = await built.graph.invoke(W.w4Input(), config("w4"));
  const elapsed = now() - t;
  // CPU time of the whole process (V8's background compile and GC threads
  // included): on a shared machine, steadier than wall time.
  const cpu = process.cpuUsage(cpu0);
  // Supersteps counted from the checkpoints the run actually wrote.
  const trace = await w4Trace(built, out, "w4");
  check(`${engine.name} W4 supersteps (root "loop" checkpoints)`, trace.supersteps, S);
  check(`${engine.name} W4 subgraph checkpoints`, trace.subCheckpoints, W.w4SubCheckpoints(S));
  check(`${engine.name} W4 results`, JSON.stringify(out.results), JSON.stringify(W.w4Results(S)));
  record("w4.step", k, elapsed / trace.supersteps);
  record("w4.step.cpu", k, (cpu.user + cpu.system) / trace.supersteps);
  record("w4.run", k, elapsed);
}

function memoryBlock(engines) {
  // "warm": baseline after a small warm-up run (see memoryChild); "cold":
  // baseline right after loading the engine, so one-time code compilation
  // counts as growth too (shown for the large W1 run).
  const runs = [
    ["w1", SIZES.w1Small, "mem.w1.small", "warm"],
    ["w1", SIZES.w1Large, "mem.w1.large", "warm"],
    ["w1", SIZES.w1Large, "mem.w1.cold", "cold"],
    ["w2", SIZES.w2Turns, "mem.w2", "warm"],
  ];
  // RSS moves by several MB from one process to the next (V8 heap sizing):
  // each child runs 3 times (once with --smoke) and the table shows medians.
  const repeats = smoke ? 1 : 3;
  const children = [];
  for (let rep = 0; rep < repeats; rep++) {
    for (const engine of engines) for (const run of runs) children.push([engine, ...run]);
  }
  {
    for (const [engine, workload, size, metric, start] of children) {
      const r = spawnSync(
        process.execPath,
        [
          "--expose-gc",
          fileURLToPath(import.meta.url),
          "--memory-child",
          engine.key,
          workload,
          String(size),
          start,
          "--pkg",
          pkgDir,
        ],
        { encoding: "utf8", maxBuffer: 1 << 20 },
      );
      const line = r.stdout.trim().split("\n").pop();
      let data;
      try {
        data = JSON.parse(line);
      } catch {
        warnings.push(`memory child ${engine.key} ${workload}: ${r.stderr.trim().split("\n").pop()}`);
        continue;
      }
      const end = data.points[data.points.length - 1];
      record(`${metric}.rss`, engine.key, end.rss - data.before.rss);
      record(`${metric}.heap`, engine.key, end.heap - data.before.heap);
      // Retained: live JS heap plus memory outside it (array buffers, which
      // hold LangGraph.js's serialized checkpoints, and wasm memory).
      const retained = (p) => p.heap + p.external;
      record(`${metric}.retained`, engine.key, retained(end) - retained(data.before));
      if (end.wasm != null) record(`${metric}.wasm`, engine.key, end.wasm - data.before.wasm);
      if (data.points.length > 1) {
        const mid = data.points[0];
        record(`${metric}.half.rss`, engine.key, mid.rss - data.before.rss);
        record(`${metric}.half.retained`, engine.key, retained(mid) - retained(data.before));
        if (end.wasm != null) record(`${metric}.half.wasm`, engine.key, mid.wasm - data.before.wasm);
      }
    }
  }
}

// ---- table ----
const us = (v) => (v >= 1e6 ? `${(v / 1e6).toFixed(2)} s` : v >= 1e3 ? `${(v / 1e3).toFixed(2)} ms` : `${v.toFixed(1)} µs`);
const mb = (v) => `${(v / 1048576).toFixed(1)} MB`;

function rows() {
  const N = SIZES.w1Large;
  const C = (n) => W.w1Checkpoints(n).toLocaleString("en-US");
  return [
    ["w1.step.large", `W1 superstep, ${C(N)}-checkpoint run`, us, "≥25x JS nodes, ≥100x spec"],
    ["w1.step.small", `W1 superstep, ${C(SIZES.w1Small)}-checkpoint run`, us, ""],
    ["w1.history.meta", `W1 history ${C(N)}, metadata (getStateHistory)`, us, "≥50x"],
    ["w1.list.meta", `W1 history ${C(N)}, metadata (saver.list)`, us, "≥50x"],
    ["w1.history.values", `W1 history ${C(N)}, every snapshot's values`, us, "not quadratic"],
    ["w1.replay.mid", `W1 replay from the middle (${N - 1} supersteps)`, us, "∝ re-run supersteps"],
    ["w1.replay.mid.step", `  per re-run superstep`, us, "≈ W1 superstep"],
    ["w1.replay.tail.large", `W1 replay last ${SIZES.tail} supersteps of ${C(N)}`, us, "= the same on the short run"],
    ["w1.replay.tail.small", `W1 replay last ${SIZES.tail} supersteps of ${C(SIZES.w1Small)}`, us, ""],
    ["w2.first", `W2 invoke, first ${SIZES.w2Window} of ${SIZES.w2Turns}`, us, ""],
    ["w2.last", `W2 invoke, last ${SIZES.w2Window} of ${SIZES.w2Turns}`, us, ""],
    ["w3.step", `W3 superstep, ${W.FANOUT} parallel nodes × ${SIZES.w3}`, us, ""],
    ["w4.step", `W4 superstep, Send ×${W.FANOUT} into a 2-node subgraph × ${SIZES.w4}`, us, "≥50x JS nodes"],
    ["w4.step.cpu", `  the same in process CPU time`, us, "≥50x JS nodes"],
    ["w4.run", `  whole W4 run (${W.w4FanOuts(SIZES.w4)} fan-outs, ${W.FANOUT * W.w4FanOuts(SIZES.w4)} subgraph runs)`, us, ""],
    ["mem.w1.large.rss", `RSS growth after W1 ${C(N)}`, mb, "≤ 1/10 of LangGraph.js"],
    ["mem.w1.cold.rss", `  the same from a cold start (no warm-up)`, mb, ""],
    ["mem.w1.large.retained", `  retained (JS heap + external) after W1 ${C(N)}`, mb, "≤ 1/10 of LangGraph.js"],
    ["mem.w1.large.heap", `JS heap growth after W1 ${C(N)}`, mb, ""],
    ["mem.w1.large.wasm", `wasm memory growth after W1 ${C(N)}`, mb, ""],
    ["mem.w1.small.rss", `RSS growth after W1 ${C(SIZES.w1Small)}`, mb, "linear: large ≈ 10× small"],
    ["mem.w1.small.retained", `  retained (JS heap + external) after W1 ${C(SIZES.w1Small)}`, mb, "linear"],
    ["mem.w1.small.wasm", `wasm memory growth after W1 ${C(SIZES.w1Small)}`, mb, ""],
    ["mem.w2.rss", `RSS growth after W2 ${SIZES.w2Turns} turns`, mb, "≤ 1/10 of LangGraph.js"],
    ["mem.w2.retained", `  retained (JS heap + external) after W2 ${SIZES.w2Turns} turns`, mb, "≤ 1/10 of LangGraph.js"],
    ["mem.w2.half.rss", `RSS growth after W2 ${SIZES.w2Turns / 2} turns`, mb, "linear: full ≈ 2× half"],
    ["mem.w2.half.retained", `  retained after W2 ${SIZES.w2Turns / 2} turns`, mb, "linear"],
    ["mem.w2.wasm", `wasm memory growth after W2 ${SIZES.w2Turns} turns`, mb, ""],
    ["mem.w2.half.wasm", `wasm memory growth after W2 ${SIZES.w2Turns / 2} turns`, mb, ""],
  ];
}

function table(engines) {
  const keys = ["cg-js", "cg-spec", "cg-annot", "lg"].filter((k) => engines.some((e) => e.key === k));
  const names = Object.fromEntries(engines.map((e) => [e.key, e.name]));
  const header = ["workload", ...keys.map((k) => names[k])];
  if (keys.includes("lg")) {
    const short = { "cg-js": "JS nodes", "cg-spec": "spec", "cg-annot": "Annotation" };
    for (const k of keys) if (k !== "lg") header.push(`LG.js ÷ ${short[k]}`);
  }
  header.push("target");
  const lines = [header];
  for (const [metric, label, fmt, target] of rows()) {
    const m = results.get(metric);
    if (!m) continue;
    const med = Object.fromEntries(keys.map((k) => [k, median(m.get(k))]));
    const line = [label, ...keys.map((k) => (med[k] === undefined ? "—" : fmt(med[k])))];
    if (keys.includes("lg")) {
      for (const k of keys) {
        if (k === "lg") continue;
        line.push(med[k] && med.lg ? `${(med.lg / med[k]).toFixed(1)}x` : "—");
      }
    }
    line.push(target);
    lines.push(line);
  }
  const widths = header.map((_, i) => Math.max(...lines.map((l) => String(l[i]).length)));
  const fmtLine = (l) => `| ${l.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
  console.log(fmtLine(lines[0]));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const l of lines.slice(1)) console.log(fmtLine(l));
}

// ---- main ----
async function main() {
  if (flag("--memory-child")) return memoryChild();
  if (flag("--w2msg-child")) return w2msgChild();
  const started = Date.now();
  const { engines, notes } = await loadEngines();
  console.log(
    `chronograph bench (${smoke ? "smoke" : "full"} sizes, median of ${SIZES.reps} rep(s) (W2: ${SIZES.w2Reps}, W4: ${SIZES.w4Reps}); engines alternate within each workload)`,
  );
  console.log(`engines: ${engines.map((e) => `${e.name} ${e.version}`).join(", ")}; node ${process.version}`);
  for (const n of notes) console.log(`note: ${n}`);
  for (const engine of engines) await warmUp(engine);
  const blocks = [
    ["w1", w1Block, SIZES.reps],
    ["w2", w2Block, SIZES.w2Reps],
    ["w3", w3Block, SIZES.reps],
    ["w4", w4Block, SIZES.w4Reps],
  ];
  for (const [name, block, reps] of blocks) {
    if (!only.has(name)) continue;
    if (name === "w4" && !(await w4Check(engines))) continue;
    for (let rep = 0; rep < reps; rep++) {
      for (let i = 0; i < engines.length; i++) {
        const engine = engines[(i + rep) % engines.length];
        await settle();
        await block(engine, rep);
      }
    }
  }
  if (only.has("w2msg") && wanted.has("cg-js")) w2msgBlock(Number(option("--w2msg-reps", smoke ? 1 : 5)));
  if (only.has("mem")) memoryBlock(engines);
  console.log();
  table(engines);
  for (const w of [...new Set(warnings)]) console.log(`warning: ${w}`);
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (jsonOut) {
    const data = {
      sizes: SIZES,
      engines: engines.map((e) => ({ key: e.key, name: e.name, version: e.version })),
      results: Object.fromEntries([...results].map(([m, v]) => [m, Object.fromEntries(v)])),
      warnings,
    };
    writeFileSync(jsonOut, JSON.stringify(data, null, 2));
  }
}

await main();
