// One run per thread at a time: runs (invoke, stream), updateState,
// bulkUpdateState and the saver's writes of one thread take turns in
// arrival order; `multitaskStrategy: "reject"` fails a call on a busy
// thread at once with a ThreadBusyError (code THREAD_BUSY); different
// threads still run concurrently.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MemorySaver, START, StateGraph, ThreadBusyError } from "chronograph";
import { collect, sleep } from "./support.mjs";

/** A loop of `rounds` steps whose node awaits `ms` each time; `seen` records (thread, step) as nodes start. */
function looping(saver, seen, { ms = 5, rounds = 3 } = {}) {
  return new StateGraph({ n: "sum", who: "last_value" })
    .addNode("loop", async (state, config) => {
      seen.push(`${config.configurable.thread_id}:${state.who}:start`);
      await sleep(ms);
      seen.push(`${config.configurable.thread_id}:${state.who}:end`);
      return { n: 1 };
    })
    .addEdge(START, "loop")
    .addConditionalEdges("loop", (s) => (s.n % rounds === 0 ? "__end__" : "loop"))
    .compile({ checkpointer: saver });
}

/** The thread's history as `source step` lines, oldest first, following the parent chain of the latest. */
async function chain(graph, config) {
  const lineage = await graph.getLineage(config);
  return lineage.reverse().map((s) => `${s.metadata.source} ${s.metadata.step}`);
}

test("two un-awaited invokes on one thread no longer interleave their supersteps", async () => {
  const saver = new MemorySaver();
  const seen = [];
  const g = looping(saver, seen);
  const config = { configurable: { thread_id: "t" } };
  const first = g.invoke({ n: 0, who: "first" }, config);
  const second = g.invoke({ n: 0, who: "second" }, config);
  const [a, b] = await Promise.all([first, second]);
  assert.deepEqual(a, { n: 3, who: "first" });
  assert.deepEqual(b, { n: 6, who: "second" }, "the second run starts from the first's result");
  // Every node of the first run ends before the second's first starts.
  const firstEnd = seen.lastIndexOf("t:first:end");
  const secondStart = seen.indexOf("t:second:start");
  assert.ok(firstEnd < secondStart, seen.join(", "));
  // The history is two whole runs, one after the other (before: input, loop 0, loop 1, loop 2, loop 1, loop 3, ...).
  assert.deepEqual(await chain(g, config), [
    "input -1", "loop 0", "loop 1", "loop 2", "loop 3",
    "input 4", "loop 5", "loop 6", "loop 7", "loop 8",
  ]);
});

test("runs, updates and streams queue in arrival order", async () => {
  const saver = new MemorySaver();
  const seen = [];
  const g = looping(saver, seen, { rounds: 2 });
  const config = { configurable: { thread_id: "order" } };
  const order = [];
  const run = g.invoke({ n: 0, who: "run" }, config).then(() => order.push("run"));
  const update = g.updateState(config, { who: "updated" }, "loop").then(() => order.push("update"));
  const bulk = g.bulkUpdateState(config, [{ updates: [{ values: { who: "bulk" }, asNode: "loop" }] }]).then(() => order.push("bulk"));
  const stream = collect(g.stream({ n: 0, who: "stream" }, config, { streamMode: "values" })).then((chunks) => {
    order.push("stream");
    return chunks;
  });
  const chunks = await stream;
  await Promise.all([run, update, bulk]);
  assert.deepEqual(order, ["run", "update", "bulk", "stream"]);
  // The stream started from the bulk update's checkpoint: its first chunk carries who = "stream" over n = 2.
  assert.deepEqual(chunks[0], { n: 2, who: "stream" });
  assert.deepEqual(chunks.at(-1), { n: 4, who: "stream" });
});

test("a failed run releases the thread for the next call", async () => {
  const saver = new MemorySaver();
  const g = new StateGraph({ n: "last_value" })
    .addNode("a", async (s) => {
      await sleep(5);
      if (s.n === "fail") throw new Error("node failed");
      return { n: `${s.n}!` };
    })
    .addEdge(START, "a")
    .compile({ checkpointer: saver });
  const config = { configurable: { thread_id: "f" } };
  const failing = g.invoke({ n: "fail" }, config);
  const next = g.invoke({ n: "ok" }, config);
  await assert.rejects(failing, /node failed/);
  assert.deepEqual(await next, { n: "ok!" });
});

test('multitaskStrategy "reject" fails at once on a busy thread with ThreadBusyError', async () => {
  const saver = new MemorySaver();
  const seen = [];
  const g = looping(saver, seen);
  const config = { configurable: { thread_id: "busy" } };
  const reject = { ...config, multitaskStrategy: "reject" };
  const running = g.invoke({ n: 0, who: "one" }, config);
  const isBusy = (e) => {
    assert.ok(e instanceof ThreadBusyError, `${e}`);
    assert.equal(e.name, "ThreadBusyError");
    assert.equal(e.code, "THREAD_BUSY");
    assert.match(e.message, /thread "busy" is busy: another run or update of the thread is in flight/);
    return true;
  };
  // "At once": while the run (three 5 ms sleeps) is still going; a wall-clock bound flaked on a loaded machine.
  let settled = false;
  running.then(() => (settled = true));
  await assert.rejects(g.invoke({ n: 0, who: "two" }, reject), isBusy);
  await assert.rejects(g.updateState(reject, { who: "x" }, "loop"), isBusy);
  await assert.rejects(g.bulkUpdateState(reject, [{ updates: [{ values: { who: "x" }, asNode: "loop" }] }]), isBusy);
  await assert.rejects(collect(g.stream({ n: 0 }, reject)), isBusy);
  assert.ok(!settled, "rejected at once, not after the run");
  assert.deepEqual(await running, { n: 3, who: "one" });
  assert.ok(!seen.some((s) => s.includes("two")), "the rejected run never started");
  // Idle again: "reject" runs.
  assert.deepEqual(await g.invoke({ n: 0, who: "three" }, reject), { n: 6, who: "three" });
  await assert.rejects(g.invoke({ n: 0 }, { ...config, multitaskStrategy: "interrupt" }), (e) => e instanceof TypeError && e.code === "INVALID_ARGUMENT" && /multitaskStrategy must be "enqueue" \(the default\) or "reject"/.test(e.message));
});

test("different threads still run concurrently", async () => {
  const saver = new MemorySaver();
  const seen = [];
  const g = looping(saver, seen, { ms: 10 });
  const runs = ["x", "y"].map((id) => g.invoke({ n: 0, who: id }, { configurable: { thread_id: id } }));
  await Promise.all(runs);
  // Both started before either finished its first node.
  const firstEnd = seen.findIndex((s) => s.endsWith(":end"));
  assert.ok(seen.indexOf("x:x:start") < firstEnd && seen.indexOf("y:y:start") < firstEnd, seen.join(", "));
  // The same thread id on another checkpointer is another thread.
  const other = looping(new MemorySaver(), seen, { ms: 10 });
  seen.length = 0;
  await Promise.all([g.invoke({ n: 0, who: "p" }, { configurable: { thread_id: "x" } }), other.invoke({ n: 0, who: "q" }, { configurable: { thread_id: "x" } })]);
  const end = seen.findIndex((s) => s.endsWith(":end"));
  assert.ok(seen.indexOf("x:p:start") < end && seen.indexOf("x:q:start") < end, seen.join(", "));
});

test("saver writes of a busy thread wait for its run; a node calling its own graph runs it in its task (LangGraph.js), not on the busy thread", async () => {
  const saver = new MemorySaver();
  let inner;
  const g = new StateGraph({ n: "last_value" })
    .addNode("a", async (s, config) => {
      await sleep(5);
      if (s.n === "nested") {
        inner = g.invoke({ n: "again" }, { configurable: config.configurable });
        inner.catch(() => {});
      }
      return { n: "done" };
    })
    .addEdge(START, "a")
    .compile({ checkpointer: saver });
  const config = { configurable: { thread_id: "w" } };
  const run = g.invoke({ n: "x" }, config);
  const deleted = saver.deleteThread("w");
  await run;
  await deleted;
  assert.equal(await saver.exportThread("w"), undefined, "deleted after the run, not in the middle of it");
  await g.invoke({ n: "nested" }, config);
  // LangGraph.js lends the node's thread and namespace to a graph it calls: a nested run, no wait for the thread.
  assert.deepEqual(await inner, { n: "done" });
});
