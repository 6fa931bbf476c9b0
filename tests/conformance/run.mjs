// Runs a conformance scenario (FORMAT.md) on the npm package with JavaScript
// node functions (not StateGraph.fromSpec) and prints its trace:
//
//   node tests/conformance/run.mjs FILE.json            the trace, with LangGraph.js error texts
//   node tests/conformance/run.mjs --python FILE.json   error texts mapped to LangGraph's Python
//                                                        texts (semantics.md §14), comparable
//                                                        with tests/conformance/expected/
//   node tests/conformance/run.mjs --async FILE.json    every node and router async (awaits first)
//   node tests/conformance/run.mjs --spec FILE.json     the graph from StateGraph.fromSpec instead
//
// Same rules as core/src/scenario.rs: checkpoints are labelled c0, c1, ... in id
// (creation) order; messages show {type, content} and their id only when the scenario
// gave it; an error is recorded as "Name: message" (first line).
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { pathToFileURL } from "node:url";
import { Command, MemorySaver, StateGraph, interrupt } from "chronograph";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** JSON equality as the Rust runner's `equals_json`: numbers by value. */
function equal(a, b) {
  return isDeepStrictEqual(a, b);
}

/** The update one spec node's ops make (FORMAT.md "Node OPs"). */
function applyOps(name, ops, state) {
  const update = {};
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
        e.name = "ValueError";
        throw e;
      }
    }
  }
  return update;
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

/**
 * The scenario's graph, built from JavaScript functions (`async`: every node
 * and router awaits first), or with `fromSpec: true` from the JSON graph
 * itself (built-in ops).
 */
export function buildGraph(spec, { async = false, fromSpec = false } = {}) {
  if (fromSpec) {
    const saver = new MemorySaver();
    return { saver, graph: StateGraph.fromSpec(spec).compile({ checkpointer: saver }) };
  }
  const channels = {};
  for (const [key, c] of Object.entries(spec.channels ?? {})) channels[key] = c.reducer ?? "last_value";
  const graph = new StateGraph(channels);
  for (const [name, node] of Object.entries(spec.nodes)) {
    const ops = node.writes ?? [];
    graph.addNode(
      name,
      async ? async (state) => (await tick(), applyOps(name, ops, state)) : (state) => applyOps(name, ops, state),
    );
  }
  for (const [from, to] of spec.edges ?? []) graph.addEdge(from, to);
  for (const edge of spec.conditional_edges ?? []) {
    const ends = [...new Set([...(edge.when ?? []).map((r) => r.to), edge.else])];
    const router = async
      ? async (state) => (await tick(), routeByRules(edge, state))
      : (state) => routeByRules(edge, state);
    graph.addConditionalEdges(edge.from, router, ends);
  }
  const compile = spec.compile ?? {};
  const checkpointer = compile.checkpointer === false ? undefined : new MemorySaver();
  return {
    saver: checkpointer,
    graph: graph.compile({
      checkpointer,
      interruptBefore: compile.interrupt_before,
      interruptAfter: compile.interrupt_after,
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

/** Runs a parsed scenario; resolves to `{name, trace}`. */
export async function runScenario(scenario, options = {}) {
  const { graph, saver } = buildGraph(scenario.graph, options);
  const threadId = typeof scenario.thread_id === "string" ? scenario.thread_id : JSON.stringify(scenario.thread_id);
  const thread = { configurable: { thread_id: threadId } };
  const at = (id) => ({ configurable: { thread_id: threadId, checkpoint_id: id } });
  const saved = new Map();
  const given = givenIds(scenario.ops);
  const messageKeys = Object.entries(scenario.graph.channels ?? {})
    .filter(([, c]) => c.reducer === "add_messages")
    .map(([k]) => k);

  const labels = async () => {
    const ids = [];
    for await (const t of saver.list({ configurable: { thread_id: threadId } })) ids.push(t.config.configurable.checkpoint_id);
    ids.sort();
    return new Map(ids.map((id, i) => [id, `c${i}`]));
  };
  const label = (map, id) => (id ? (map.get(id) ?? id) : null);
  const resolve = async (sel) => {
    if (sel.saved !== undefined) {
      if (!saved.has(sel.saved)) throw new Error(`no saved config named ${JSON.stringify(sel.saved)}`);
      return saved.get(sel.saved);
    }
    if (sel.checkpoint_id !== undefined) return at(sel.checkpoint_id);
    const found = [...(await labels())].find(([, l]) => l === sel.label);
    if (!found) throw new Error(`no checkpoint labelled ${JSON.stringify(sel.label)}`);
    return at(found[0]);
  };
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
  const snapshot = (s, map) => ({
    id: label(map, s.config.configurable.checkpoint_id),
    parent: label(map, s.parentConfig?.configurable.checkpoint_id),
    step: s.metadata?.step ?? null,
    source: s.metadata?.source ?? null,
    next: s.next,
    values: normalize(s.values),
    tasks: s.tasks.map((t) => ({ name: t.name, interrupts: t.interrupts.map((i) => i.value) })),
  });

  const apply = async (op) => {
    const config = op.at ? await resolve(op.at) : thread;
    switch (op.op) {
      case "invoke":
      case "resume": {
        const input = op.op === "resume" ? new Command({ resume: op.value ?? null }) : (op.input ?? null);
        const { __interrupt__: interrupts, ...values } = await graph.invoke(input, config);
        const result = normalize(values);
        if (interrupts?.length) result.__interrupt__ = interrupts.map((i) => i.value);
        return { result };
      }
      case "update_state": {
        const returned = await graph.updateState(config, op.values ?? null, op.as_node);
        if (op.save !== undefined) saved.set(op.save, returned);
        return { checkpoint: label(await labels(), returned.configurable.checkpoint_id) };
      }
      case "get_state": {
        const s = await graph.getState(config);
        return { snapshot: snapshot(s, await labels()) };
      }
      case "history": {
        const before = op.before ? (await resolve(op.before)).configurable.checkpoint_id : undefined;
        const list = [];
        for await (const s of graph.getStateHistory(config, { limit: op.limit, before, filter: op.filter })) list.push(s);
        const map = await labels();
        return { history: list.map((s) => snapshot(s, map)) };
      }
      default:
        throw new Error(`unknown op ${JSON.stringify(op.op)}`);
    }
  };

  const trace = [];
  for (const op of scenario.ops) {
    const record = { op: op.op };
    try {
      Object.assign(record, await apply(op));
      if (op.expect_error) record.error = null;
    } catch (e) {
      record.error = `${e.name}: ${e.message}`.split("\n")[0];
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
  [/^GraphValueError: Subgraph "(.*)" not found$/, "ValueError: Subgraph $1 not found"],
  [/^GraphValueError: /, "ValueError: "],
  [/setting the "recursionLimit" config key\.$/, "setting the `recursion_limit` config key."],
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
    console.error("usage: node tests/conformance/run.mjs [--python] [--async | --spec] FILE.json");
    process.exit(2);
  }
  const scenario = JSON.parse(readFileSync(file, "utf8"));
  let trace = await runScenario(scenario, { async: args.includes("--async"), fromSpec: args.includes("--spec") });
  if (args.includes("--python")) trace = toPythonTexts(trace);
  console.log(JSON.stringify(trace, null, 1));
}
