// The compatibility harness of issue 11: every case is written once as a function of a
// module object (`lg`), run on LangGraph.js (`@langchain/langgraph`, pinned in
// npm/test/package.json) and on Chronograph (`chronograph`, the built pkg/), and the two
// results are compared after normalizing ONLY generated ids and timestamps.
//
// Two kinds of case:
//   programs/NN-name.mjs   `export default async function (lg, t)`; the program records what a
//                          user would look at (t.record / t.result / t.stream); the two
//                          recordings are compared.
//   ported/<file>.mjs      LangGraph.js's own tests, ported with a vitest-like shim
//                          (expect.mjs); each `it` passes on LangGraph.js (that checks the
//                          port) and is then run on Chronograph.
//
// Normalization (normalize()): a string that is or contains a UUID (checkpoint ids, task
// ids, message ids, "run-<uuid>", "node:<task id>" namespaces; 32-hex-digit interrupt ids) has each distinct UUID
// replaced by a placeholder numbered by first appearance (<id1>, <id2>, ...), in values and
// in object keys, so which ids are equal is still compared. A string that is an ISO-8601
// UTC timestamp as JavaScript writes it (`2026-01-01T00:00:00.000Z`) becomes "<ts>", and so
// does a number under a key named `timestamp` that is a `Date.now()` of this century (the
// `params.timestamp` of streamEvents v3's protocol events); other timestamp formats are left
// alone (and so show up as differences). Nothing else changes:
// key order, class names (`{"@class": "HumanMessage", ...}`), error names, messages and
// `lc_error_code` are all compared. Properties whose value is `undefined` are dropped (as
// vitest's toEqual and JSON do).

import { AsyncLocalStorage } from "node:async_hooks";

export const ENGINES = ["langgraph", "chronograph"];
export const TIMEOUT_MS = Number(process.env.COMPAT_TIMEOUT_MS || 30000);

/** Loads both module objects. A missing/broken chronograph build is reported, not thrown. */
export async function loadEngines() {
  const engines = {};
  engines.langgraph = await import("@langchain/langgraph");
  // COMPAT_SELF=1 runs LangGraph.js against itself: every case must match (checks that the
  // programs are deterministic and the normalization is enough).
  if (process.env.COMPAT_SELF) {
    engines.chronograph = engines.langgraph;
    return engines;
  }
  try {
    engines.chronograph = await import("chronograph");
  } catch (err) {
    engines.chronograph = { __loadError: err };
  }
  return engines;
}

// ---------------------------------------------------------------------------------------
// Recording (programs)
// ---------------------------------------------------------------------------------------

/** The `t` a program receives: every call appends one labelled entry to `t.entries`. */
export class Recorder {
  constructor() {
    this.entries = [];
  }
  /** Records a value as it is now (deep-copied through normalize's walker later). */
  record(label, value) {
    this.entries.push({ label, value: snapshotValue(value) });
    return value;
  }
  /** Awaits `fn()` and records its value, or the error it threw (name/message/lc_error_code). */
  async result(label, fn) {
    try {
      const value = await fn();
      this.entries.push({ label, value: snapshotValue(value) });
      return value;
    } catch (err) {
      this.entries.push({ label, error: describeError(err) });
      return undefined;
    }
  }
  /** Collects every chunk of a stream (`fn` returns the stream or a promise of it); an error
   *  thrown mid-stream is recorded after the chunks that came before it. */
  async stream(label, fn) {
    const chunks = [];
    try {
      const stream = await (typeof fn === "function" ? fn() : fn);
      for await (const chunk of stream) chunks.push(snapshotValue(chunk));
      this.entries.push({ label, chunks });
    } catch (err) {
      this.entries.push({ label, chunks, error: describeError(err) });
    }
    return chunks;
  }
  /** Records getStateHistory(config, options) as an array (newest first). */
  async history(label, graph, config, options) {
    return this.result(label, async () => {
      const out = [];
      for await (const s of graph.getStateHistory(config, options)) out.push(s);
      return out;
    });
  }
}

/** Copies a value at the moment it is recorded (later mutation by the engine must not leak
 *  into the recording), keeping class names and error fields. */
function snapshotValue(value) {
  return walk(value, new Set());
}

function describeError(err) {
  if (!(err instanceof Error) && (typeof err !== "object" || err === null)) {
    return { thrown: walk(err, new Set()) };
  }
  const out = { name: err?.name, message: err?.message };
  if (err?.lc_error_code !== undefined) out.lc_error_code = err.lc_error_code;
  return out;
}

function walk(v, seen) {
  if (v === undefined) return undefined;
  if (v === null || typeof v === "number" || typeof v === "boolean" || typeof v === "string") {
    if (typeof v === "number" && !Number.isFinite(v)) return `<${String(v)}>`;
    return v;
  }
  if (typeof v === "bigint") return `<bigint ${v}>`;
  if (typeof v === "symbol") return `<${String(v)}>`;
  if (typeof v === "function") return `<function ${v.name || "anonymous"}>`;
  if (seen.has(v)) return "<circular>";
  seen.add(v);
  try {
    if (Array.isArray(v)) return v.map((x) => (x === undefined ? "<undefined>" : walk(x, seen)));
    if (v instanceof Error) {
      const e = { "@error": v.name, message: v.message };
      if (v.lc_error_code !== undefined) e.lc_error_code = v.lc_error_code;
      return e;
    }
    if (v instanceof Date) return { "@class": "Date", iso: v.toISOString() };
    if (v instanceof Map) return { "@class": "Map", entries: [...v].map(([k, x]) => [walk(k, seen), walk(x, seen)]) };
    if (v instanceof Set) return { "@class": "Set", values: [...v].map((x) => walk(x, seen)) };
    if (ArrayBuffer.isView(v)) return { "@class": v.constructor.name, values: Array.from(v) };
    const proto = Object.getPrototypeOf(v);
    const out = {};
    if (proto !== null && proto !== Object.prototype) {
      out["@class"] = proto.constructor?.name || "<anonymous class>";
    }
    for (const key of Object.keys(v)) {
      const x = v[key];
      if (x === undefined) continue;
      out[key] = walk(x, seen);
    }
    return out;
  } finally {
    seen.delete(v);
  }
}

// ---------------------------------------------------------------------------------------
// Normalization and comparison
// ---------------------------------------------------------------------------------------

// UUIDs (checkpoint, task, message ids) and 32-hex-digit hashes (interrupt ids).
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])/gi;
const ISO_TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** `Date.now()` values from 2001 to 2100, as milliseconds (only under a key named `timestamp`). */
const isEpochMs = (v) => Number.isInteger(v) && v >= 978307200000 && v < 4102444800000;

/** Replaces generated ids (by first appearance) and JS ISO timestamps; see the header. The
 *  placeholders are numbered walking the value with its object keys sorted, so that a
 *  difference in key order alone does not renumber the ids (it still shows as key order). */
export function normalize(value) {
  const ids = new Map();
  const number = (s) => {
    for (const m of s.matchAll(UUID)) {
      const k = m[0].toLowerCase();
      if (!ids.has(k)) ids.set(k, `<id${ids.size + 1}>`);
    }
  };
  const visit = (v) => {
    if (typeof v === "string") number(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") {
      for (const k of Object.keys(v).sort()) {
        number(k);
        visit(v[k]);
      }
    }
  };
  visit(value);
  const str = (s) => (ISO_TS.test(s) ? "<ts>" : s.replace(UUID, (m) => ids.get(m.toLowerCase())));
  const go = (v) => {
    if (typeof v === "string") return str(v);
    if (Array.isArray(v)) return v.map(go);
    if (v && typeof v === "object") {
      const out = {};
      for (const [k, x] of Object.entries(v)) out[str(k)] = k === "timestamp" && isEpochMs(x) ? "<ts>" : go(x);
      return out;
    }
    return v;
  };
  return go(value);
}

/** Deep copy with object keys sorted (to tell "key order only" differences apart). */
export function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") {
    const out = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]);
    return out;
  }
  return v;
}

export function pretty(v) {
  return JSON.stringify(v, null, 2);
}

/** Path and values of the first difference between two normalized values, or null. */
export function firstDifference(a, b, path = "") {
  if (a === b) return null;
  const ta = Array.isArray(a) ? "array" : a === null ? "null" : typeof a;
  const tb = Array.isArray(b) ? "array" : b === null ? "null" : typeof b;
  if (ta !== tb || ta !== "array" && ta !== "object") return { path: path || "(root)", expected: a, actual: b };
  if (ta === "array") {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (i >= a.length) return { path: `${path}[${i}]`, expected: "<absent>", actual: b[i] };
      if (i >= b.length) return { path: `${path}[${i}]`, expected: a[i], actual: "<absent>" };
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  for (const k of ka) {
    const p = `${path}.${k}`;
    if (!(k in b)) return { path: p, expected: a[k], actual: "<absent>" };
    const d = firstDifference(a[k], b[k], p);
    if (d) return d;
  }
  for (const k of kb) if (!(k in a)) return { path: `${path}.${k}`, expected: "<absent>", actual: b[k] };
  if (ka.join("\u0000") !== kb.join("\u0000")) {
    return { path: path || "(root)", expected: `keys ${ka.join(",")}`, actual: `keys ${kb.join(",")}` };
  }
  return null;
}

/** A compact unified line diff (LCS) of two texts, with `context` lines around changes. */
export function lineDiff(textA, textB, { context = 3, labelA = "langgraph", labelB = "chronograph", maxLines = 160 } = {}) {
  const a = textA.split("\n");
  const b = textB.split("\n");
  const n = a.length;
  const m = b.length;
  // LCS table is O(n*m); outputs here are small (a few thousand lines at most).
  if (n * m > 25_000_000) return `(outputs too large to diff: ${n} vs ${m} lines)`;
  const dp = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i][j] = a[i] === b[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
    }
  }
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { ops.push([" ", a[i]]); i++; j++; }
    else if (i < n && (j >= m || dp[i + 1][j] >= dp[i][j + 1])) { ops.push(["-", a[i]]); i++; }
    else { ops.push(["+", b[j]]); j++; }
  }
  const keep = new Uint8Array(ops.length);
  ops.forEach(([op], k) => {
    if (op !== " ") for (let c = Math.max(0, k - context); c <= Math.min(ops.length - 1, k + context); c++) keep[c] = 1;
  });
  const out = [`--- ${labelA}`, `+++ ${labelB}`];
  let skipped = false;
  ops.forEach(([op, line], k) => {
    if (!keep[k]) { if (!skipped) out.push("@@ ... @@"); skipped = true; return; }
    skipped = false;
    out.push(`${op} ${line}`);
  });
  if (out.length > maxLines) return out.slice(0, maxLines).join("\n") + `\n... (${out.length - maxLines} more diff lines; run: node npm/test/compat/run.mjs <case> for all)`;
  return out.join("\n");
}

function short(v, max = 90) {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s === undefined ? String(v) : s.length > max ? s.slice(0, max - 1) + "…" : s;
}

// ---------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------

export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`compat harness: ${what} did not finish within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

// Console output of the programs (LangGraph.js prints warnings) is kept out of the test log
// unless COMPAT_VERBOSE is set.
const quiet = new AsyncLocalStorage();
for (const method of ["log", "info", "warn", "error", "debug"]) {
  const original = console[method].bind(console);
  console[method] = (...args) => {
    if (quiet.getStore() && !process.env.COMPAT_VERBOSE) return;
    original(...args);
  };
}
// A stray rejection or exception (an engine's background task, a test's timer) must not take
// the whole suite down: it is printed and otherwise ignored.
process.on("unhandledRejection", (err) => {
  if (process.env.COMPAT_VERBOSE) console.error("compat harness: unhandled rejection:", err);
});
process.on("uncaughtException", (err) => {
  if (process.env.COMPAT_VERBOSE) console.error("compat harness: uncaught exception:", err);
});
function silently(fn) {
  return quiet.run(true, fn);
}

/** Runs one program on one engine: { entries, thrown? } (thrown: an error the program let
 *  escape; compared like any other result). */
export async function runProgram(program, lg) {
  const t = new Recorder();
  if (lg.__loadError) return { entries: [], thrown: { name: "LoadError", message: `import("chronograph") failed: ${lg.__loadError.message}` } };
  try {
    const returned = await withTimeout(silently(() => program(lg, t)), TIMEOUT_MS, "the program");
    // A program may also just return what it wants compared: `(lg) => ({ ... })`.
    if (returned !== undefined) t.entries.push({ label: "(return value)", value: snapshotValue(returned) });
    return { entries: t.entries };
  } catch (err) {
    return { entries: t.entries, thrown: describeError(err) };
  }
}

/** Compares a program's two runs: { same, reason, diff, expected, actual }. */
export function compareRuns(ref, got) {
  const expected = normalize({ entries: ref.entries, thrown: ref.thrown });
  const actual = normalize({ entries: got.entries, thrown: got.thrown });
  const d = firstDifference(expected, actual);
  if (!d) return { same: true, expected, actual };
  const textA = pretty(expected);
  const textB = pretty(actual);
  return { same: false, reason: reasonFor(expected, actual, d), diff: lineDiff(textA, textB), expected, actual };
}

function reasonFor(expected, actual, d) {
  if (actual.thrown) {
    const at = expected.entries[actual.entries.length]?.label;
    return `chronograph throws ${actual.thrown.name}: ${short(actual.thrown.message, 120)}${at ? ` (at "${at}")` : ""}`;
  }
  // The first difference in content (key order ignored); key order is reported on its own
  // only when it is all that differs.
  const content = firstDifference(sortKeys(expected), sortKeys(actual));
  const where = (path) => {
    const m = /^\.entries\[(\d+)\](.*)$/.exec(path);
    return m ? `"${expected.entries[+m[1]]?.label ?? actual.entries[+m[1]]?.label}"${m[2]}` : path;
  };
  if (!content) return `key order only: ${where(d.path)}: expected ${short(d.expected)}, got ${short(d.actual)}`;
  const orderToo = d.path !== content.path && /^keys /.test(String(d.expected)) ? " (key order differs too)" : "";
  return `${where(content.path)}: expected ${short(content.expected)}, got ${short(content.actual)}${orderToo}`;
}

/** Runs an assertion-style case (a ported test) on one engine: { ok, error? }. */
export async function runAssertions(fn, lg) {
  if (lg.__loadError) return { ok: false, error: { name: "LoadError", message: `import("chronograph") failed: ${lg.__loadError.message}` } };
  try {
    await withTimeout(silently(() => fn()), TIMEOUT_MS, "the test");
    return { ok: true };
  } catch (err) {
    const e = describeError(err);
    if (err?.stack && !err?.matcherResult) e.where = String(err.stack).split("\n").slice(1, 3).map((s) => s.trim()).join(" ");
    return { ok: false, error: e };
  }
}
