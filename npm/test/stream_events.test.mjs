// streamEvents on chronograph's own terms (npm/test/compat/programs/41-45 compare
// its events with LangGraph.js's): cancelling through the run's signal or by
// leaving the loop, a slow checkpointer's put that completes anyway, and the
// error without @langchain/core.
import assert from "node:assert/strict";
import { test } from "node:test";
import { execFileSync } from "node:child_process";
import { MemorySaver as LangGraphMemorySaver } from "@langchain/langgraph-checkpoint";
import { Annotation, END, MemorySaver, START, StateGraph } from "chronograph";

const State = Annotation.Root({ value: Annotation({ reducer: (_, b) => b, default: () => 0 }) });

/** A node that takes `ms` unless its run is cancelled (then it rejects, and says so in `log`). */
function slow(name, ms, log) {
  return async (_state, config) => {
    log.push(`${name}.start`);
    try {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        config.signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          log.push(`${name}.cancelled`);
          reject(new Error("AbortError"));
        });
      });
      return { value: 1 };
    } finally {
      log.push(`${name}.end`);
    }
  };
}

/** A LangGraph.js saver whose `put` takes 100 ms. */
class SlowPutSaver extends LangGraphMemorySaver {
  constructor(log) {
    super();
    this.log = log;
  }
  async put(config, checkpoint, metadata, versions) {
    this.log.push("putting checkpoint");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const out = await super.put(config, checkpoint, metadata, versions);
    this.log.push("put checkpoint");
    return out;
  }
}

test("a run's signal cancels streamEvents: the node sees its signal, the stream rejects, the slow put completes", async () => {
  const log = [];
  const saver = new SlowPutSaver(log);
  const graph = new StateGraph(State).addNode("agent", slow("awhile", 1000, log)).addEdge(START, "agent").addEdge("agent", END).compile({ checkpointer: saver });
  const controller = new AbortController();
  const config = { configurable: { thread_id: "1" }, version: "v2", signal: controller.signal };
  const events = graph.streamEvents({ value: 0 }, config);
  setTimeout(() => controller.abort(), 50);
  const seen = [];
  await assert.rejects(
    (async () => {
      for await (const e of events) seen.push(`${e.event}:${e.name}`);
    })(),
    /abort/i,
  );
  assert.deepEqual(seen.slice(0, 2), ["on_chain_start:LangGraph", "on_chain_start:__start__"]);
  assert.ok(seen.includes("on_chain_start:agent"));
  for (let i = 0; i < 50 && !log.includes("put checkpoint"); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(log.includes("awhile.cancelled"), log.join());
  assert.ok(log.includes("put checkpoint"), log.join());
  // The input checkpoint and the first superstep's are stored; the cancelled node wrote nothing.
  const state = await graph.getState({ configurable: { thread_id: "1" } });
  assert.deepEqual(state.next, ["agent"]);
  assert.equal(state.metadata.step, 0);
});

test("leaving the loop (and cancel()) cancels the run; the checkpoint of the finished superstep stays", async () => {
  const log = [];
  const graph = new StateGraph(State)
    .addNode("quick", async () => {
      await new Promise((r) => setTimeout(r, 30));
      return { value: 2 };
    })
    .addNode("awhile", slow("awhile", 1500, log))
    .addNode("never", slow("never", 10, log))
    .addEdge(START, "quick")
    .addEdge("quick", "awhile")
    .addEdge("awhile", "never")
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "2" } };
  const stream = graph.streamEvents({ value: 1 }, { ...config, version: "v2" });
  let chunk;
  for await (const e of stream) {
    if (e.event === "on_chain_stream" && e.name === "LangGraph") {
      chunk = e.data.chunk;
      break;
    }
  }
  await stream.cancel();
  assert.equal(stream.signal.aborted, true);
  assert.deepEqual(chunk, { quick: { value: 2 } });
  await new Promise((r) => setTimeout(r, 100));
  if (log.includes("awhile.start")) assert.ok(log.includes("awhile.cancelled"), log.join());
  assert.ok(!log.includes("never.start"), log.join());
  const state = await graph.getState(config);
  assert.equal(state.values.value, 2);
  assert.deepEqual(state.next, ["awhile"]);
});

test("a v3 run stream's abort() cancels the run", async () => {
  const log = [];
  const graph = new StateGraph(State).addNode("awhile", slow("awhile", 1000, log)).addEdge(START, "awhile").compile();
  const run = await graph.streamEvents({ value: 0 }, { version: "v3" });
  setTimeout(() => run.abort(), 30);
  await assert.rejects(run.output, /abort/i);
  assert.ok(log.includes("awhile.cancelled"), log.join());
});

test("without @langchain/core, streamEvents v2 fails with MISSING_LANGCHAIN_CORE; v3 still streams", () => {
  const program = `
    import { Annotation, START, StateGraph } from "chronograph";
    const g = new StateGraph(Annotation.Root({ v: Annotation() })).addNode("a", () => ({ v: 1 })).addEdge(START, "a").compile();
    try { for await (const e of g.streamEvents({ v: 0 }, { version: "v2" })) console.log(e.event); }
    catch (e) { console.log(e.name, e.code, e.message); }
    const run = await g.streamEvents({ v: 0 }, { version: "v3" });
    const methods = []; for await (const e of run) methods.push(e.method);
    console.log(methods.join(","));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", program], { cwd: new URL(".", import.meta.url), env: { ...process.env, CHRONOGRAPH_LANGCHAIN: "off" } }).toString();
  const [error, methods] = out.trim().split("\n");
  assert.match(error, /^GraphValueError MISSING_LANGCHAIN_CORE streamEvents needs @langchain\/core/);
  // LangGraph.js's events without a checkpointer: each state's checkpoint is the run's own.
  assert.equal(methods, "lifecycle,checkpoints,values,tasks,updates,tasks,checkpoints,values,lifecycle");
});

test("an unknown version is refused at once, as LangChain refuses it", () => {
  const graph = new StateGraph(State).addNode("a", () => ({})).addEdge(START, "a").compile();
  assert.throws(() => graph.streamEvents({ value: 0 }, { version: "v4" }), /Only versions "v1" and "v2" of the schema are currently supported/);
});
