// JavaScript values JSON data cannot hold, as LangGraph.js handles them:
// `undefined` is written as it is (a run returns it, a reducer gets it, a
// restored checkpoint has no value for a channel that holds it), and
// functions, symbols and class instances go through a run by reference (the
// run returns the very same object), while a checkpointer stores them the way
// LangGraph.js's serializer does. Each program runs on @langchain/langgraph and
// on chronograph; what they show must be the same.
import assert from "node:assert/strict";
import { test } from "node:test";
import { RunnableLambda } from "@langchain/core/runnables";
import * as langgraph from "@langchain/langgraph";
import * as chronograph from "chronograph";
import { collect } from "./support.mjs";

/**
 * `v` as a description that tells what `assert.deepEqual` would not: an
 * own key holding `undefined` from an absent one, and a class instance,
 * `Map`, `Date` or function from plain data.
 */
function show(v, seen = new Set()) {
  if (v === undefined) return "<undefined>";
  if (typeof v === "function") return `<function ${v.name}>`;
  if (typeof v === "symbol") return `<${String(v)}>`;
  if (v === null || typeof v !== "object") return v;
  if (seen.has(v)) return "<cycle>";
  seen.add(v);
  if (Array.isArray(v)) return v.map((x) => show(x, seen));
  if (v instanceof Map) return { "<Map>": [...v].map(([k, x]) => [show(k, seen), show(x, seen)]) };
  if (v instanceof Set) return { "<Set>": [...v].map((x) => show(x, seen)) };
  if (v instanceof Date) return `<Date ${v.toISOString()}>`;
  const proto = Object.getPrototypeOf(v);
  const out = proto === Object.prototype || proto === null ? {} : { "<class>": v.constructor?.name };
  for (const k of Object.keys(v)) if (!k.startsWith("lc_") || out["<class>"] === undefined) out[k] = show(v[k], seen);
  return out;
}

/** Runs `program(lg)` on both engines and checks they show the same; returns chronograph's. */
async function same(program) {
  const mine = show(await program(chronograph));
  assert.deepEqual(mine, show(await program(langgraph)));
  return mine;
}

let n = 0;
const thread = () => ({ configurable: { thread_id: `jv${++n}` } });

test("undefined in a node's update is written: the run returns it, a reducer gets it, a restored checkpoint has no value", async () => {
  const shown = await same(async (lg) => {
    const calls = [];
    const State = lg.Annotation.Root({
      a: lg.Annotation(),
      kept: lg.Annotation({ reducer: (x, y) => (calls.push([x, y]), y ?? x), default: () => "" }),
      // A reducer that returns `undefined` empties its channel (LangGraph.js's BinaryOperatorAggregate).
      gone: lg.Annotation({ reducer: (_, y) => y, default: () => "g" }),
      nested: lg.Annotation(),
    });
    const seen = [];
    const graph = new lg.StateGraph(State)
      .addNode("set", (s) => (seen.push(Object.keys(s)), { a: 1, kept: "k", nested: { u: undefined, list: [undefined, 1] } }))
      .addNode("wipe", (s) => (seen.push(Object.keys(s)), { a: undefined, kept: undefined, gone: undefined }))
      .addEdge(lg.START, "set")
      .addEdge("set", "wipe")
      .addEdge("wipe", lg.END)
      .compile({ checkpointer: new lg.MemorySaver() });
    const config = thread();
    const out = await graph.invoke({}, config);
    const state = await graph.getState(config);
    const history = (await collect(graph.getStateHistory(config))).map((s) => [s.metadata.step, s.values, s.tasks.map((t) => t.result)]);
    // The next run starts from the stored checkpoint: `a` has no value there.
    const again = await graph.invoke(null, config);
    return { out, state: state.values, history, calls, seen, again };
  });
  assert.deepEqual(shown.out, { a: "<undefined>", kept: "k", nested: { u: "<undefined>", list: ["<undefined>", 1] } });
  assert.deepEqual(shown.state, { kept: "k", nested: { u: "<undefined>", list: ["<undefined>", 1] } });
  assert.deepEqual(shown.again, { kept: "k", nested: { u: "<undefined>", list: ["<undefined>", 1] } }, "the emptied channel stays empty");
  assert.deepEqual(shown.calls, [["", "k"], ["k", "<undefined>"]]);
});

test("undefined in a run's input, a Command's update and updateState is written as it is", async () => {
  const shown = await same(async (lg) => {
    const State = lg.Annotation.Root({ a: lg.Annotation(), b: lg.Annotation({ reducer: (_, y) => y, default: () => "d" }) });
    const seen = [];
    const graph = new lg.StateGraph(State)
      .addNode("n", (s) => (seen.push({ ...s }), lg.interrupt("wait"), {}))
      .addEdge(lg.START, "n")
      .compile({ checkpointer: new lg.MemorySaver() });
    const config = thread();
    await graph.invoke({ a: undefined }, config);
    const paused = (await graph.getState(config)).values;
    await graph.updateState(config, { a: 5, b: undefined });
    const updated = (await graph.getState(config)).values;
    const resumed = await graph.invoke(new lg.Command({ resume: "go", update: { a: undefined } }), config);
    return { seen, paused, updated, resumed };
  });
  // The input's `undefined` is the node's; restored, the channel has no value.
  assert.deepEqual(shown.seen[0], { a: "<undefined>", b: "d" });
  assert.deepEqual(shown.paused, { b: "d" });
});

test("a value JSON cannot hold goes through a run without a checkpointer by reference: the run returns the same object", async () => {
  const shown = await same(async (lg) => {
    class Point {
      constructor(x) {
        this.x = x;
      }
    }
    const values = {
      fn: function named() {},
      runnable: new RunnableLambda({ func: (x) => x }),
      point: new Point(1),
      map: new Map([["k", 1]]),
      date: new Date(0),
      sym: Symbol("s"),
    };
    const State = lg.Annotation.Root(Object.fromEntries(Object.keys(values).map((k) => [k, lg.Annotation()])));
    const identical = [];
    const graph = new lg.StateGraph(State)
      .addNode("n", (s) => {
        identical.push(Object.keys(values).filter((k) => s[k] === values[k]));
        return { point: s.point };
      })
      .addEdge(lg.START, "n")
      .compile();
    const out = await graph.invoke(values);
    const chunks = await collect(await graph.stream(values, { streamMode: "values" }));
    return {
      identical,
      returned: Object.keys(values).filter((k) => out[k] === values[k]),
      streamed: Object.keys(values).filter((k) => chunks.at(-1)[k] === values[k]),
      out,
    };
  });
  const all = ["fn", "runnable", "point", "map", "date", "sym"];
  assert.deepEqual(shown.identical, [all, all]);
  assert.deepEqual(shown.returned, all);
  assert.deepEqual(shown.streamed, all);
});

test("with a checkpointer the run keeps the references, and checkpoints hold what LangGraph.js's serializer stores", async () => {
  const shown = await same(async (lg) => {
    class Point {
      constructor(x) {
        this.x = x;
      }
      get double() {
        return this.x * 2;
      }
    }
    const point = new Point(1);
    const looped = new Point(2);
    looped.self = looped;
    const map = new Map([["k", { deep: [1, undefined] }]]);
    const State = lg.Annotation.Root({ value: lg.Annotation(), list: lg.Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const graph = new lg.StateGraph(State)
      .addNode("n", (s) => ({
        value: { fn() {}, point, map, set: new Set([1]), date: new Date(0), re: /a+/g, error: new Error("e"), bytes: new Uint8Array([1, 2]), runnable: s.value.runnable === input.value.runnable },
        list: [point, () => 1, looped],
      }))
      .addEdge(lg.START, "n")
      .compile({ checkpointer: new lg.MemorySaver() });
    const input = { value: { runnable: new RunnableLambda({ func: (x) => x }) } };
    const config = thread();
    const out = await graph.invoke(input, config);
    const state = await graph.getState(config);
    const history = (await collect(graph.getStateHistory(config))).map((s) => [s.values, s.tasks.map((t) => t.result)]);
    return {
      references: [out.value.point === point, out.value.map === map, out.list[0] === point],
      out,
      stored: state.values,
      storedIsCopy: state.values.value.map !== map,
      history,
    };
  });
  assert.deepEqual(shown.references, [true, true, true]);
  assert.equal(shown.storedIsCopy, true);
  // Functions are dropped (null in a list), a class instance is its own data, a Date its ISO text.
  assert.deepEqual(shown.stored.value.point, { x: 1 });
  assert.deepEqual(shown.stored.value.date, "1970-01-01T00:00:00.000Z");
  // A held value that contains itself is stored with "[Circular]" where it repeats.
  assert.deepEqual(shown.stored.list, [{ x: 1 }, null, { x: 2, self: "[Circular]" }]);
  assert.equal(shown.stored.value.fn, undefined);
});

test("a value held by reference reaches a Send's node, an interrupt and a resume as itself", async () => {
  const shown = await same(async (lg) => {
    class Job {
      constructor(id) {
        this.id = id;
      }
    }
    const job = new Job(7);
    const answer = new Job(8);
    const seen = [];
    const State = lg.Annotation.Root({ done: lg.Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const graph = new lg.StateGraph(State)
      .addNode("work", (arg) => {
        seen.push(["arg", arg === job]);
        const got = lg.interrupt(arg);
        seen.push(["resume", got === answer]);
        return { done: [got.id] };
      })
      .addConditionalEdges(lg.START, () => [new lg.Send("work", job)])
      .compile({ checkpointer: new lg.MemorySaver() });
    const config = thread();
    const paused = await graph.invoke({}, config);
    const interrupted = paused.__interrupt__.map((i) => i.value === job);
    const out = await graph.invoke(new lg.Command({ resume: answer }), config);
    return { seen, interrupted, out, stored: (await graph.getState(config)).tasks };
  });
  assert.deepEqual(shown.interrupted, [true]);
  assert.deepEqual(shown.out, { done: [8] });
});
