// LangGraph.js checkpointers (anything with BaseCheckpointSaver's methods, and
// MemorySaver subclasses that override them) are called as LangGraph.js's loop
// calls them: each run asks `getTuple` first, a run's checkpoints and writes go
// out with the run's config, and the saver's own failures are the run's. Each
// program runs on @langchain/langgraph and on chronograph, and the two agree.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as langgraph from "@langchain/langgraph";
import { BaseCheckpointSaver, MemorySaver as LangGraphMemorySaver } from "@langchain/langgraph-checkpoint";
import * as chronograph from "chronograph";
import { collect } from "./support.mjs";

const engines = { langgraph, chronograph };

/** A one-node graph (as LangGraph.js's python_port checkpoint test), optionally with a parallel node. */
function graph(lg, checkpointer, parallel = false) {
  const State = lg.Annotation.Root({ value: lg.Annotation({ reducer: (_, b) => b, default: () => "" }) });
  const builder = new lg.StateGraph({ stateSchema: State }).addNode("agent", () => ({ value: "" })).addEdge(lg.START, "agent");
  if (parallel) builder.addNode("parallel", () => ({ value: "" })).addEdge(lg.START, "parallel");
  return builder.compile({ checkpointer });
}

/** A saver that fails in `method` (each other method answers as an empty saver does). */
function faulty(method) {
  return new (class extends BaseCheckpointSaver {
    getNextVersion(current) {
      if (method === "getNextVersion") throw new Error("Faulty get_next_version");
      return super.getNextVersion(current);
    }
    async getTuple() {
      if (method === "getTuple") throw new Error("Faulty get_tuple");
      return undefined;
    }
    async *list() {}
    async put() {
      if (method === "put") throw new Error("Faulty put");
      return {};
    }
    async putWrites() {
      if (method === "putWrites") throw new Error("Faulty put_writes");
    }
  })();
}

/** How a promise settles: the error's name and message, or "resolved". */
async function settled(promise) {
  try {
    await promise;
    return "resolved";
  } catch (e) {
    return `${e?.name}: ${e?.message}`;
  }
}

test("a saver's failing getTuple, put, putWrites or getNextVersion rejects invoke and stream with its own error", async () => {
  const run = async (lg) => {
    const out = {};
    for (const method of ["getTuple", "put", "putWrites", "getNextVersion"]) {
      const g = graph(lg, faulty(method), method === "putWrites");
      out[method] = [
        await settled(g.invoke({ value: "" }, { configurable: { thread_id: "t1" } })),
        await settled((async () => collect(await g.stream({ value: "" }, { configurable: { thread_id: "t2" } })))()),
      ];
    }
    return out;
  };
  const mine = await run(chronograph);
  assert.deepEqual(mine, {
    getTuple: ["Error: Faulty get_tuple", "Error: Faulty get_tuple"],
    put: ["Error: Faulty put", "Error: Faulty put"],
    putWrites: ["Error: Faulty put_writes", "Error: Faulty put_writes"],
    getNextVersion: ["Error: Faulty get_next_version", "Error: Faulty get_next_version"],
  });
  assert.deepEqual(mine, await run(langgraph));
});

test("a failing getNextVersion fails runs only: getState still reads the saver", async () => {
  for (const lg of Object.values(engines)) {
    const snapshot = await graph(lg, faulty("getNextVersion")).getState({ configurable: { thread_id: "t" } });
    assert.deepEqual(snapshot.values, {});
  }
});

test("a MemorySaver subclass that overrides put is the checkpointer graphs call, with the run's configurable in put's config", async () => {
  const run = async (lg) => {
    const seen = [];
    // As LangGraph.js's own test (python_port/checkpoint.test.ts): the run's configurable merged into the metadata.
    class Merging extends lg.MemorySaver {
      async put(config, checkpoint, metadata) {
        seen.push(Object.keys(config.configurable));
        const { checkpoint_id: _, ...configurable } = config.configurable;
        const thread = config.configurable.thread_id;
        const ns = config.configurable.checkpoint_ns || "";
        this.storage[thread] ??= {};
        this.storage[thread][ns] ??= {};
        this.storage[thread][ns][checkpoint.id] = [
          (await this.serde.dumpsTyped(checkpoint))[1],
          (await this.serde.dumpsTyped({ ...configurable, ...metadata }))[1],
          config.configurable.checkpoint_id,
        ];
        return { configurable: { thread_id: thread, checkpoint_id: checkpoint.id } };
      }
    }
    const saver = new Merging();
    const g = graph(lg, saver);
    const out = await g.invoke({ value: "x" }, { configurable: { thread_id: "1", extra: "foo" } });
    const metadata = (await collect(saver.list({ configurable: { thread_id: "1" } }))).map((t) => t.metadata);
    const snapshot = await g.getState({ configurable: { thread_id: "1" } });
    return { out, seen, metadata, values: snapshot.values, next: snapshot.next, threads: Object.keys(saver.storage) };
  };
  const mine = await run(chronograph);
  assert.deepEqual(mine.seen, [
    ["checkpoint_ns", "thread_id", "extra"],
    ["checkpoint_ns", "thread_id", "extra", "checkpoint_id"],
    ["checkpoint_ns", "thread_id", "extra", "checkpoint_id"],
  ]);
  assert.deepEqual(
    mine.metadata.map((m) => [m.step, m.thread_id, m.extra]),
    [
      [1, "1", "foo"],
      [0, "1", "foo"],
      [-1, "1", "foo"],
    ],
  );
  assert.deepEqual(mine, await run(langgraph));
});

test("a MemorySaver subclass that calls super keeps LangGraph.js's storage: its overrides see every call", async () => {
  const run = async (lg) => {
    const calls = [];
    class Logging extends lg.MemorySaver {
      async getTuple(config) {
        calls.push("getTuple");
        return super.getTuple(config);
      }
      async put(config, checkpoint, metadata, versions) {
        calls.push(`put ${metadata.source} ${metadata.step}`);
        return super.put(config, checkpoint, metadata, versions);
      }
    }
    const saver = new Logging();
    const g = graph(lg, saver);
    await g.invoke({ value: "a" }, { configurable: { thread_id: "t" } });
    await g.invoke({ value: "b" }, { configurable: { thread_id: "t" } });
    const history = (await collect(g.getStateHistory({ configurable: { thread_id: "t" } }))).map((s) => [s.metadata.step, s.values]);
    return { calls, history, stored: Object.keys(saver.storage.t[""]).length };
  };
  const mine = await run(chronograph);
  assert.deepEqual(mine.calls.filter((c) => c === "getTuple").length, 2, "one getTuple per run");
  assert.equal(mine.stored, 6);
  assert.deepEqual(mine, await run(langgraph));
});

test("a checkpoint another engine wrote to the saver since the last run is where the next run starts", async () => {
  const saver = new LangGraphMemorySaver();
  const config = { configurable: { thread_id: "shared" } };
  const counter = (lg) => {
    const State = lg.Annotation.Root({ n: lg.Annotation({ reducer: (a, b) => a + b, default: () => 0 }) });
    return new lg.StateGraph(State).addNode("inc", () => ({ n: 1 })).addEdge(lg.START, "inc").compile({ checkpointer: saver });
  };
  assert.deepEqual(await counter(chronograph).invoke({ n: 0 }, config), { n: 1 });
  // LangGraph.js continues the thread behind the engine's copy of it.
  assert.deepEqual(await counter(langgraph).invoke({ n: 0 }, config), { n: 2 });
  const mine = counter(chronograph);
  assert.deepEqual(await mine.invoke({ n: 0 }, config), { n: 3 });
  assert.deepEqual((await mine.getState(config)).values, { n: 3 });
  assert.equal((await collect(saver.list(config))).length, 9);
});
