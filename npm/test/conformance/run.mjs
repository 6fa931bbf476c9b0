// Runs a conformance scenario (tests/conformance/FORMAT.md) on the npm package with
// JavaScript node functions (not StateGraph.fromSpec) and prints its trace:
//
//   node npm/test/conformance/run.mjs FILE.json            the trace, with LangGraph.js error texts
//   node npm/test/conformance/run.mjs --python FILE.json   error texts mapped to LangGraph's Python
//                                                          texts (semantics.md §14), comparable
//                                                          with tests/conformance/expected/
//   node npm/test/conformance/run.mjs --async FILE.json    every node and router async (awaits first)
//   node npm/test/conformance/run.mjs --spec FILE.json     the graph from StateGraph.fromSpec instead
//
// It lives beside the npm package's tests (it imports the package by name, from
// npm/test/node_modules); the scenarios it reads stay in tests/conformance/, the contract
// every runner shares. Same rules as the Rust runner (core/scenario/src/lib.rs): after
// each operation, new root checkpoints are labelled c0, c1, ... in id (creation) order and new subgraph checkpoints s0, s1, ...
// by where they sit (the parent checkpoint whose task ran the subgraph, that task's
// index, recursively, then id); subgraph snapshots carry `ns` (their namespace without
// task ids); messages show {type, content} and their id only when the scenario gave it;
// an error is recorded as "Name: message" (first line).
//
// Subgraph nodes are compiled JS graphs added with `addNode`, `send` conditional edges
// routers returning `Send`s, and a node with a `goto` op returns a `Command`.
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { pathToFileURL } from "node:url";
import { Command, END, MemorySaver, Send, StateGraph, interrupt } from "chronograph";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** JSON equality as the Rust runner's `equals_json`: numbers by value. */
function equal(a, b) {
  return isDeepStrictEqual(a, b);
}

/** Python's `repr` of JSON data, as core/src/channels/value.rs `py_repr`. */
function pyRepr(v) {
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "string") return `'${v.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  if (typeof v === "object") {
    return `{${Object.entries(v)
      .map(([k, x]) => `'${k}': ${pyRepr(x)}`)
      .join(", ")}}`;
  }
  return String(v);
}

/** Python's `str` of a value read from a node's input (strings as they are). */
function pyStr(v) {
  return typeof v === "string" ? v : pyRepr(v);
}

/**
 * What one spec node's ops make (FORMAT.md "Node OPs"): an update object, or
 * with a `goto` op a `Command` carrying it.
 */
function applyOps(name, ops, state) {
  const update = {};
  let goto = null;
  for (const op of ops) {
    if ("set" in op) {
      Object.assign(update, structuredClone(op.set));
    } else if ("reply" in op) {
      const content = state[op.reply]?.at(-1)?.content;
      const text = typeof content === "string" ? content : content === undefined ? "" : JSON.stringify(content);
      update[op.reply] = [{ type: "ai", content: `${op.prefix ?? ""}${text}` }];
    } else if ("incr" in op) {
      const current = state[op.incr] ?? 0;
      if (typeof current !== "number") {
        throw new TypeError(`unsupported operand type(s) for +: '${typeof current}' and 'int'`);
      }
      update[op.incr] = current + (op.by ?? 1);
    } else if ("interrupt" in op) {
      const answer = interrupt(op.interrupt);
      if (op.resume_to) update[op.resume_to] = answer;
    } else if ("fail_if" in op) {
      const { channel, equals = null } = op.fail_if;
      if (channel in state ? equal(state[channel], equals) : equals === null) {
        const e = new Error(`node ${name} failed`);
        e.name = "RuntimeError";
        throw e;
      }
    } else if ("collect" in op) {
      update[op.collect] = [`${op.prefix ?? ""}${pyStr(state[op.from])}`];
    } else if ("goto" in op) {
      goto = op;
    }
  }
  if (goto === null) return update;
  return new Command({ update, goto: goto.goto, graph: goto.graph === "parent" ? Command.PARENT : undefined });
}

/** A rule router (FORMAT.md "RULE"): the first rule that holds, else `else`. */
function routeByRules(edge, state) {
  const holds = ({ channel, lt, eq }) => {
    if (!(channel in state)) return false;
    const v = state[channel];
    const subject = Array.isArray(v) ? v.length : v;
    if (lt !== undefined) return typeof subject === "number" && subject < lt;
    return equal(subject, eq) || equal(v, eq);
  };
  return (edge.when ?? []).find((rule) => holds(rule.if))?.to ?? edge.else;
}

/** A `send` edge's router: `Send(to, {key: x})` for each item x of list `each` (none when unset). */
function fanOut({ to, each, key }, state) {
  const v = state[each];
  const items = v === undefined ? [] : Array.isArray(v) ? v : [v];
  return items.map((x) => new Send(to, { [key]: x }));
}

/** `fn`, or with `async` a function that awaits a timer first. */
function maybeAsync(fn, async) {
  return async ? async (...args) => (await tick(), fn(...args)) : fn;
}

/**
 * The builder of a scenario graph (or subgraph) made of JavaScript
 * functions; subgraph nodes are compiled builders of their own (no
 * checkpointer: they use the parent's).
 */
function jsBuilder(spec, async) {
  const channels = {};
  for (const [key, c] of Object.entries(spec.channels ?? {})) channels[key] = c.guard === false ? { reducer: c.reducer, guard: false } : (c.reducer ?? "last_value");
  const graph = new StateGraph(channels);
  const nodes = new Set([...Object.keys(spec.nodes), END]);
  for (const [name, node] of Object.entries(spec.nodes)) {
    if (node.subgraph) {
      const compile = node.subgraph.compile ?? {};
      const sub = jsBuilder(node.subgraph, async).compile({
        interruptBefore: compile.interrupt_before,
        interruptAfter: compile.interrupt_after,
        pythonSemantics: true,
      });
      graph.addNode(name, sub);
      continue;
    }
    const ops = node.writes ?? [];
    // Where a returned Command may go in this graph (drawn, checked by compile).
    const ends = ops
      .filter((op) => "goto" in op && op.graph !== "parent")
      .flatMap((op) => [op.goto].flat())
      .filter((to) => nodes.has(to));
    graph.addNode(
      name,
      maybeAsync((state) => applyOps(name, ops, state), async),
      { ends },
    );
  }
  for (const [from, to] of spec.edges ?? []) graph.addEdge(from, to);
  for (const edge of spec.conditional_edges ?? []) {
    if (edge.send) {
      graph.addConditionalEdges(edge.from, maybeAsync((state) => fanOut(edge.send, state), async));
      continue;
    }
    const ends = [...new Set([...(edge.when ?? []).map((r) => r.to), edge.else])];
    graph.addConditionalEdges(edge.from, maybeAsync((state) => routeByRules(edge, state), async), ends);
  }
  return graph;
}

/**
 * The scenario's graph, built from JavaScript functions (`async`: every node
 * and router awaits first), or with `fromSpec: true` from the JSON graph
 * itself (built-in ops).
 */
export function buildGraph(spec, { async = false, fromSpec = false } = {}) {
  if (fromSpec) {
    const saver = new MemorySaver();
    // The traces are LangGraph (Python)'s: its loop where LangGraph.js differs.
    return { saver, graph: StateGraph.fromSpec(spec).compile({ checkpointer: saver, pythonSemantics: true }) };
  }
  const compile = spec.compile ?? {};
  const checkpointer = compile.checkpointer === false ? undefined : new MemorySaver();
  return {
    saver: checkpointer,
    graph: jsBuilder(spec, async).compile({
      checkpointer,
      interruptBefore: compile.interrupt_before,
      interruptAfter: compile.interrupt_after,
      pythonSemantics: true,
    }),
  };
}

/** Message ids written in the scenario itself (generated ids are left out of traces). */
function givenIds(ops) {
  const out = new Set();
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      if (typeof v.id === "string") out.add(v.id);
      Object.values(v).forEach(walk);
    }
  };
  for (const op of ops) [op.input, op.values, op.value].forEach(walk);
  return out;
}

/** The `add_messages` channels of a graph and of its subgraphs. */
function messageChannels(spec, out = new Set()) {
  for (const [k, c] of Object.entries(spec.channels ?? {})) if (c.reducer === "add_messages") out.add(k);
  for (const node of Object.values(spec.nodes)) if (node.subgraph) messageChannels(node.subgraph, out);
  return out;
}

/** A namespace without its task ids (`outer|inner`). */
const recast = (ns) =>
  ns
    .split("|")
    .map((level) => level.split(":")[0])
    .join("|");

/**
 * Orders two subgraph checkpoints' sort keys (lists of `[0, id]` and `[1,
 * index]` parts) as the Rust runner's `Vec<PathPart>`: part by part, an id
 * before an index, a prefix first.
 */
function comparePaths(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [[ka, va], [kb, vb]] = [a[i], b[i]];
    if (ka !== kb) return ka - kb;
    if (va !== vb) return va < vb ? -1 : 1;
  }
  return a.length - b.length;
}

/** Runs a parsed scenario; resolves to `{name, trace}`. */
export async function runScenario(scenario, options = {}) {
  const { graph, saver } = buildGraph(scenario.graph, options);
  const threadId = typeof scenario.thread_id === "string" ? scenario.thread_id : JSON.stringify(scenario.thread_id);
  const thread = { configurable: { thread_id: threadId } };
  const at = (id) => ({ configurable: { thread_id: threadId, checkpoint_id: id } });
  const inNamespace = (ns) => ({ configurable: { thread_id: threadId, checkpoint_ns: ns } });
  const saved = new Map();
  const given = givenIds(scenario.ops);
  const messageKeys = messageChannels(scenario.graph);

  /** Root checkpoint id → `cN`; `ns \0 id` → `sN` (subgraph checkpoints). */
  const labels = new Map();
  const slabels = new Map();
  const skey = (ns, id) => `${ns}\0${id}`;

  /** Where namespace `ns` sits: per level, the newest parent checkpoint whose tasks include its task, and that task's index. */
  const path = async (ns, memo) => {
    if (!ns) return [];
    if (memo.has(ns)) return memo.get(ns);
    const cut = ns.lastIndexOf("|");
    const parentNs = cut < 0 ? "" : ns.slice(0, cut);
    const last = ns.slice(cut + 1);
    const colon = last.indexOf(":");
    const taskId = colon < 0 ? "" : last.slice(colon + 1);
    let found = null;
    for await (const s of graph.getStateHistory(inNamespace(parentNs))) {
      const idx = s.tasks.findIndex((t) => t.id === taskId);
      if (idx >= 0) {
        found = [s.config.configurable.checkpoint_id, idx];
        break;
      }
    }
    if (!found) throw new Error(`no parent task for namespace ${ns}`);
    const out = [...(await path(parentNs, memo)), [0, found[0]], [1, found[1]]];
    memo.set(ns, out);
    return out;
  };

  /** Labels every checkpoint that has none yet (after each operation, as the Rust runner does). */
  const relabel = async () => {
    if (!saver) return;
    const root = [];
    const fresh = [];
    for await (const t of saver.list(thread)) {
      const { checkpoint_ns: ns, checkpoint_id: id } = t.config.configurable;
      if (!ns) {
        if (!labels.has(id)) root.push(id);
      } else if (!slabels.has(skey(ns, id))) {
        fresh.push([ns, id]);
      }
    }
    root.sort();
    for (const id of root) labels.set(id, `c${labels.size}`);
    const memo = new Map();
    const keyed = [];
    for (const [ns, id] of fresh) keyed.push([[...(await path(ns, memo)), [0, id]], ns, id]);
    keyed.sort((a, b) => comparePaths(a[0], b[0]));
    for (const [, ns, id] of keyed) slabels.set(skey(ns, id), `s${slabels.size}`);
  };
  const labelOf = (ns, id) => {
    if (!id) return null;
    return (ns ? slabels.get(skey(ns, id)) : labels.get(id)) ?? id;
  };

  /** The config a selector (FORMAT.md `at`, `before`) stands for. */
  const resolve = async (sel) => {
    if (sel.saved !== undefined) {
      if (!saved.has(sel.saved)) throw new Error(`no saved config named ${JSON.stringify(sel.saved)}`);
      return saved.get(sel.saved);
    }
    if (sel.task_state !== undefined) {
      const { at: where, task } = sel.task_state;
      const s = await graph.getState(await configOf(where), { subgraphs: true });
      const found = s.tasks.find((t) => t.name === task && t.state !== undefined && "values" in t.state);
      if (!found) throw new Error(`no subgraph task ${task}`);
      if (!found.state.config.configurable.checkpoint_id) throw new Error(`subgraph task ${task} has no checkpoint yet`);
      return { configurable: { ...found.state.config.configurable } };
    }
    if (sel.task_ns !== undefined) {
      const { at: where, task } = sel.task_ns;
      const s = await graph.getState(await configOf(where));
      const found = s.tasks.find((t) => t.name === task && t.state !== undefined && !("values" in t.state));
      if (!found) throw new Error(`no subgraph task ${task}`);
      return inNamespace(found.state.configurable.checkpoint_ns);
    }
    if (sel.checkpoint_id !== undefined) return at(sel.checkpoint_id);
    const label = sel.label ?? "";
    if (label.startsWith("s")) {
      const entry = [...slabels].find(([, l]) => l === label);
      if (!entry) throw new Error(`no checkpoint labelled ${JSON.stringify(label)}`);
      const [ns, id] = entry[0].split("\0");
      const address = { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id } };
      const parents = (await saver.getTuple(address))?.metadata.parents ?? {};
      address.configurable.checkpoint_map = { ...parents, [ns]: id };
      return address;
    }
    const entry = [...labels].find(([, l]) => l === label);
    if (!entry) throw new Error(`no checkpoint labelled ${JSON.stringify(label)}`);
    return at(entry[0]);
  };
  const configOf = async (sel) => (sel ? resolve(sel) : thread);

  const normalize = (values) => {
    const out = { ...values };
    for (const key of messageKeys) {
      if (!Array.isArray(out[key])) continue;
      out[key] = out[key].map((m) => {
        const n = { type: m.type ?? null, content: m.content ?? null };
        if (typeof m.id === "string" && given.has(m.id)) n.id = m.id;
        return n;
      });
    }
    return out;
  };
  const snapshot = (s) => {
    const ns = s.config.configurable.checkpoint_ns ?? "";
    const out = { id: labelOf(ns, s.config.configurable.checkpoint_id) };
    if (ns) out.ns = recast(ns);
    Object.assign(out, {
      parent: labelOf(ns, s.parentConfig?.configurable.checkpoint_id),
      step: s.metadata?.step ?? null,
      source: s.metadata?.source ?? null,
      next: s.next,
      values: normalize(s.values),
      tasks: s.tasks.map((t) => {
        const task = { name: t.name, interrupts: t.interrupts.map((i) => i.value) };
        if (t.state !== undefined && "values" in t.state) task.state = snapshot(t.state);
        return task;
      }),
    });
    return out;
  };

  /** Runs one operation; resolves to a function giving its record's fields once labels are known. */
  const apply = async (op) => {
    const config = await configOf(op.at);
    switch (op.op) {
      case "invoke":
      case "resume": {
        const input = op.op === "resume" ? new Command({ resume: op.value ?? null }) : (op.input ?? null);
        const { __interrupt__: interrupts, ...values } = await graph.invoke(input, config);
        const result = normalize(values);
        if (interrupts?.length) result.__interrupt__ = interrupts.map((i) => i.value);
        return () => ({ result });
      }
      case "update_state": {
        const returned = await graph.updateState(config, op.values ?? null, op.as_node);
        if (op.save !== undefined) saved.set(op.save, returned);
        const { checkpoint_ns: ns = "", checkpoint_id: id } = returned.configurable;
        return () => ({ checkpoint: labelOf(ns, id) });
      }
      case "get_state": {
        const s = await graph.getState(config, { subgraphs: op.subgraphs === true });
        return () => ({ snapshot: snapshot(s) });
      }
      case "history": {
        const before = op.before ? (await resolve(op.before)).configurable.checkpoint_id : undefined;
        const list = [];
        for await (const s of graph.getStateHistory(config, { limit: op.limit, before, filter: op.filter })) list.push(s);
        return () => ({ history: list.map(snapshot) });
      }
      default:
        throw new Error(`unknown op ${JSON.stringify(op.op)}`);
    }
  };

  const trace = [];
  for (const op of scenario.ops) {
    const record = { op: op.op };
    let fields = null;
    let failure = null;
    try {
      fields = await apply(op);
    } catch (e) {
      failure = e;
    }
    await relabel();
    if (failure === null) {
      Object.assign(record, fields());
      if (op.expect_error) record.error = null;
    } else {
      record.error = `${failure.name}: ${failure.message}`.split("\n")[0];
    }
    trace.push(record);
  }
  return { name: scenario.name, trace };
}

/**
 * LangGraph.js error texts back to LangGraph's Python texts (semantics.md §14),
 * so a JS trace can be compared with the traces LangGraph (Python) produced.
 */
const PYTHON_TEXTS = [
  [/^InvalidUpdateError: Ambiguous update, specify "asNode"$/, "InvalidUpdateError: Ambiguous update, specify as_node"],
  [/^InvalidUpdateError: "asNode" is required when applying multiple updates$/, "InvalidUpdateError: as_node is required when applying multiple updates"],
  [/^InvalidUpdateError: Node "(.*)" does not exist$/, "InvalidUpdateError: Node $1 does not exist"],
  [/^InvalidUpdateError: No writers found for node "(.*)"$/, "InvalidUpdateError: Node $1 has no writers"],
  [/^InvalidUpdateError: There is no parent graph\.$/, "InvalidUpdateError: There is no parent graph"],
  [/^GraphValueError: Subgraph "(.*)" not found$/, "ValueError: Subgraph $1 not found"],
  [/^GraphValueError: /, "ValueError: "],
  [/setting the "recursionLimit" config key\.$/, "setting the `recursion_limit` config key."],
  [/^InvalidUpdateError: Invalid update for channel ".*" with values .*: Can receive only one Overwrite value per step\.$/, "InvalidUpdateError: Can receive only one Overwrite value per super-step."],
  [
    /^InvalidUpdateError: Invalid update for channel "(.*)" with values .*: UntrackedValue\(guard=true\) can receive only one value per step\. Use guard=false (.*)$/,
    "InvalidUpdateError: At key '$1': UntrackedValue(guard=True) can receive only one value per step. Use guard=False $2",
  ],
];

export function toPythonTexts(trace) {
  return {
    ...trace,
    trace: trace.trace.map((r) => {
      if (typeof r.error !== "string") return r;
      let error = r.error;
      for (const [pattern, text] of PYTHON_TEXTS) error = error.replace(pattern, text);
      return { ...r, error };
    }),
  };
}

/** Compares two traces as JSON values (errors by first line); the first difference, or null. */
export function compareTraces(expected, actual, path = "") {
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual) || expected.length !== actual.length) {
      return `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const d = compareTraces(expected[i], actual[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (expected && actual && typeof expected === "object" && typeof actual === "object") {
    for (const k of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      if (!(k in expected) || !(k in actual)) {
        return `${path}.${k}: expected ${JSON.stringify(expected[k])}, got ${JSON.stringify(actual[k])}`;
      }
      const [e, a] = k === "error" ? [expected[k], actual[k]].map((x) => (typeof x === "string" ? x.split("\n")[0] : x)) : [expected[k], actual[k]];
      const d = compareTraces(e, a, `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return equal(expected, actual) ? null : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith("--"));
  if (!file) {
    console.error("usage: node npm/test/conformance/run.mjs [--python] [--async | --spec] FILE.json");
    process.exit(2);
  }
  const scenario = JSON.parse(readFileSync(file, "utf8"));
  let trace = await runScenario(scenario, { async: args.includes("--async"), fromSpec: args.includes("--spec") });
  if (args.includes("--python")) trace = toPythonTexts(trace);
  console.log(JSON.stringify(trace, null, 1));
}
