// Chronograph's engine on LangGraph.js's own checkpointers: SqliteSaver (a
// file) and PostgresSaver (a real server, started here: postgres.mjs). The
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
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
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
  { name: "SqliteSaver", where: join(dir, "threads.sqlite"), open: (w) => SqliteSaver.fromConnString(w) },
  {
    name: "PostgresSaver",
    where: pg?.url,
    skip: pg ? false : "PostgreSQL's server (initdb, pg_ctl) is not installed",
    open: (w) => PostgresSaver.fromConnString(w),
  },
];

for (const b of backends) {
  describe(`Chronograph on LangGraph.js's ${b.name}`, { skip: b.skip }, () => {
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
