// Chronograph's engine on LangGraph.js's own checkpointers: SqliteSaver (a
// file) and PostgresSaver (a real server, started here: postgres.mjs), and
// chronograph/langgraph's own SqliteSaver and PostgresSaver in their place. The
// seed walkthrough gives the tree Chronograph's MemorySaver gives; a process
// killed mid-walkthrough and restarted loses nothing; a thread LangGraph.js
// wrote is continued by Chronograph, and the other way round.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import * as chronograph from "chronograph";
import { MemorySaver as LangGraphMemorySaver } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { PostgresSaver as CompactPostgresSaver, SqliteSaver as CompactSqliteSaver } from "chronograph/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { chatGraph, tree as langgraphTree } from "./walkthrough.mjs";
import { chronographChat, chronographTree, walk } from "./engines.mjs";
import { startPostgres } from "./postgres.mjs";

const here = new URL(".", import.meta.url).pathname;
const reference = await walk(chronographChat(chronograph, new chronograph.MemorySaver()), "reference");
const rounds = reference.slice(0, 8);

const dir = mkdtempSync(join(tmpdir(), "chronograph-sqlite-"));
const pg = startPostgres();
after(() => {
  rmSync(dir, { recursive: true, force: true });
  pg?.stop();
});

const backends = [
  { name: "LangGraph.js's SqliteSaver", where: join(dir, "threads.sqlite"), open: (w) => SqliteSaver.fromConnString(w) },
  // chronograph/langgraph's own SqliteSaver (deltas), as LangGraph.js's and Chronograph's checkpointer.
  { name: "chronograph/langgraph's SqliteSaver", where: `compact:${join(dir, "compact.sqlite")}`, open: (w) => CompactSqliteSaver.fromConnString(w.slice(8)) },
  {
    name: "LangGraph.js's PostgresSaver",
    where: pg?.url,
    skip: pg ? false : "PostgreSQL's server (initdb, pg_ctl) is not installed",
    open: (w) => PostgresSaver.fromConnString(w),
  },
  // chronograph/langgraph's own PostgresSaver (deltas), on the same server (its own tables).
  {
    name: "chronograph/langgraph's PostgresSaver",
    where: pg ? `compactpg:${pg.url}` : undefined,
    skip: pg ? false : "PostgreSQL's server (initdb, pg_ctl) is not installed",
    open: (w) => CompactPostgresSaver.fromConnString(w.slice(10)),
  },
];

for (const b of backends) {
  describe(`Chronograph on ${b.name}`, { skip: b.skip }, () => {
    /** A fresh saver on the same database, as a new process would have. */
    const open = async () => {
      const saver = b.open(b.where);
      if (saver.setup) await saver.setup();
      return saver;
    };
    const close = (saver) => saver.end?.();

    test("the seed walkthrough gives the tree Chronograph's own MemorySaver gives", async () => {
      const saver = await open();
      assert.deepEqual(await walk(chronographChat(chronograph, saver), "walk"), reference);
      // Read back by a fresh saver and engine: everything reached the database.
      const again = await open();
      assert.deepEqual(await chronographTree(chronographChat(chronograph, again), { configurable: { thread_id: "walk" } }), reference);
      await close(saver);
      await close(again);
    });

    test("killed after the two rounds and restarted, the walkthrough ends with the same tree", () => {
      const run = (phase) =>
        spawnSync(process.execPath, ["engine-walk.mjs", b.where, "killed", phase], { cwd: here, encoding: "utf8", timeout: 120_000 });
      const first = run("rounds");
      assert.equal(first.signal, "SIGKILL", first.stderr);
      const second = run("rest");
      assert.equal(second.status, 0, second.stderr);
      assert.deepEqual(JSON.parse(second.stdout), reference);
    });

    test("a thread LangGraph.js wrote is continued by Chronograph", async () => {
      const thread = { configurable: { thread_id: "from-langgraph" } };
      const lgSaver = await open();
      await chatGraph(lgSaver).invoke({ messages: [{ type: "human", content: "明天上午还有号吗" }] }, thread);
      await close(lgSaver);
      const saver = await open();
      const graph = chronographChat(chronograph, saver);
      await graph.invoke({ messages: [{ type: "human", content: "那下午呢" }] }, thread);
      assert.deepEqual(await chronographTree(graph, thread), rounds);
      await close(saver);
      // And LangGraph.js reads Chronograph's checkpoints back as its own.
      const reader = await open();
      assert.deepEqual(await langgraphTree(chatGraph(reader), thread), rounds);
      await close(reader);
    });

    test("a thread Chronograph wrote is continued by LangGraph.js", async () => {
      const thread = { configurable: { thread_id: "from-chronograph" } };
      const saver = await open();
      await chronographChat(chronograph, saver).invoke({ messages: [{ type: "human", content: "明天上午还有号吗" }] }, thread);
      await close(saver);
      const lgSaver = await open();
      const graph = chatGraph(lgSaver);
      await graph.invoke({ messages: [{ type: "human", content: "那下午呢" }] }, thread);
      const state = await graph.getState(thread);
      assert.equal(state.values.messages[0].constructor.name, "HumanMessage", "LangGraph.js gets its message classes");
      assert.deepEqual(await langgraphTree(graph, thread), rounds);
      await close(lgSaver);
    });
  });
}

describe("Chronograph's writes to a LangGraph.js checkpointer after an operation", () => {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  /** LangGraph.js's MemorySaver behind slow async calls that log what reached it, and when. */
  const slowSaver = (inner, log, { failWrites = false } = {}) => {
    let putting = 0;
    return {
      getTuple: (c) => inner.getTuple(c),
      list: (c, o) => inner.list(c, o),
      getNextVersion: (v) => inner.getNextVersion(v),
      deleteThread: (t) => inner.deleteThread(t),
      async put(config, checkpoint, metadata, newVersions) {
        assert.equal(putting, 0, "one put at a time");
        putting += 1;
        await sleep(2);
        const out = await inner.put(config, checkpoint, metadata, newVersions);
        putting -= 1;
        log.push(["put", checkpoint.id, config.configurable.checkpoint_id]);
        return out;
      },
      async putWrites(config, writes, taskId, taskPath) {
        log.push(["writes", config.configurable.checkpoint_id]);
        await sleep(10);
        if (failWrites) throw new Error("the disk is full");
        await inner.putWrites(config, writes, taskId, taskPath);
        log.push(["writes stored", config.configurable.checkpoint_id]);
      },
    };
  };

  test("checkpoints go one at a time, parents first; a checkpoint's writes after it, alongside the next ones; all before the run resolves", async () => {
    const inner = new LangGraphMemorySaver();
    const log = [];
    const thread = { configurable: { thread_id: "slow" } };
    await chronographChat(chronograph, slowSaver(inner, log)).invoke({ messages: [{ type: "human", content: "明天上午还有号吗" }] }, thread);
    const stored = new Set();
    let overlapped = false;
    let inFlight = 0;
    for (const [what, id, parent] of log) {
      if (what === "put") {
        if (parent) assert.ok(stored.has(parent), "its parent was stored first");
        stored.add(id);
        if (inFlight > 0) overlapped = true;
      } else if (what === "writes") {
        assert.ok(stored.has(id), "its checkpoint was stored first");
        inFlight += 1;
      } else {
        inFlight -= 1;
      }
    }
    assert.equal(inFlight, 0, "every write was stored before the run resolved");
    assert.equal(stored.size, 4);
    assert.ok(overlapped, "writes did not hold up the next checkpoint");
    // A fresh engine on the same saver reads the first round back.
    assert.deepEqual(await chronographTree(chronographChat(chronograph, inner), thread), reference.slice(0, 4));
  });

  test("a write the saver refuses fails the run, after the checkpoints were stored", async () => {
    const inner = new LangGraphMemorySaver();
    const log = [];
    const thread = { configurable: { thread_id: "refused" } };
    const graph = chronographChat(chronograph, slowSaver(inner, log, { failWrites: true }));
    await assert.rejects(graph.invoke({ messages: [{ type: "human", content: "hi" }] }, thread), /the disk is full/);
    assert.equal(log.filter(([what]) => what === "put").length, 4);
  });
});
