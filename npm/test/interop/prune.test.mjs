// `prune` on chronograph/langgraph's SqliteSaver and PostgresSaver (PostgreSQL
// started here: postgres.mjs). After the docs-style runs (a walkthrough with
// replays and an updateState fork, a review with an interrupt, its pending
// writes and a subgraph) and a thread left paused at its interrupt by each
// engine, a prune with each retention keeps what the retention says, every
// kept tuple reads back exactly as before, the dropped are gone, and what
// stays still runs:
// LangGraph.js's graph and Chronograph's replay and fork a kept checkpoint,
// and the paused threads resume. A chat pruned to its latest checkpoint has
// its delta chain rebased and reads back whole; SQLite's file shrinks.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import * as chronograph from "chronograph";
import { Command, INTERRUPT } from "@langchain/langgraph";
import { PostgresSaver, SqliteSaver } from "chronograph/langgraph";
import { chat, docsRuns, reviewGraph } from "./saver-runs.mjs";
import { chatGraph, history, text } from "./walkthrough.mjs";
import { chronographChat, snapshots } from "./engines.mjs";
import { endSaver, startPostgres } from "./postgres.mjs";

const pg = startPostgres();
const dir = mkdtempSync(join(tmpdir(), "chronograph-prune-"));
const open = [];
after(async () => {
  // Each pool's connections closed before the server stops (endSaver).
  for (const s of open) if (s.pool) await endSaver(s).catch(() => undefined);
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let made = 0;
/** A PostgresSaver on a schema of its own (`schema`), set up. */
async function postgresSaver(schema = `p${(made += 1)}`) {
  const s = PostgresSaver.fromConnString(pg.url, { schema });
  await s.setup();
  open.push(s);
  return s;
}
const TABLES = ["chronograph_schema", "chronograph_checkpoints", "chronograph_blobs", "chronograph_writes"];
// Each backend's saver, and a copy of a saver's database (the runs are made once, each retention prunes a copy).
const backends = [
  {
    name: "SqliteSaver",
    skip: false,
    make: async () => SqliteSaver.fromConnString(join(dir, `t${(made += 1)}.sqlite`)),
    copy: async (source) => {
      const path = join(dir, `t${(made += 1)}.sqlite`);
      source.db.prepare("VACUUM INTO ?").run(path);
      return SqliteSaver.fromConnString(path);
    },
  },
  {
    name: "PostgresSaver",
    skip: pg ? false : "PostgreSQL's server (initdb, pg_ctl) is not installed",
    make: () => postgresSaver(),
    copy: async (source) => {
      const schema = `p${(made += 1)}`;
      await source.pool.query(`CREATE SCHEMA ${schema}`);
      for (const t of TABLES) await source.pool.query(`CREATE TABLE ${schema}.${t} (LIKE ${source.schema}.${t} INCLUDING ALL); INSERT INTO ${schema}.${t} SELECT * FROM ${source.schema}.${t}`);
      return postgresSaver(schema);
    },
  },
];

const key = (t) => `${t.config.configurable.thread_id}|${t.config.configurable.checkpoint_ns}|${t.checkpoint.id}`;

/** Every tuple of the database, by thread|ns|id, as getTuple reads it by id. */
async function everyTuple(saver) {
  const out = new Map();
  for await (const t of saver.list({})) out.set(key(t), await saver.getTuple({ configurable: { ...t.config.configurable } }));
  return out;
}

/** A thread's root checkpoints, oldest first. */
const roots = (all, thread) =>
  [...all.values()]
    .filter((t) => t.config.configurable.thread_id === thread && t.config.configurable.checkpoint_ns === "")
    .sort((a, b) => (a.checkpoint.id < b.checkpoint.id ? -1 : 1));

/** What each retention keeps at a thread's root, worked out here from the tuples (the engine's rule, independently). */
const expectedRoot = {
  latest: (r) => [r.at(-1)],
  last3: (r) => r.slice(-3),
  lineage: (r) => {
    const byId = new Map(r.map((t) => [t.checkpoint.id, t]));
    const line = [];
    for (let t = r.at(-1); t; t = byId.get(t.parentConfig?.configurable.checkpoint_id)) line.unshift(t);
    return line;
  },
  hour: (r) => r,
  // Everything was created before now: a TTL of 0 keeps only each namespace's latest.
  ttl0: (r) => [r.at(-1)],
};
const retentions = { latest: { keep: "latest" }, last3: { keep: { last: 3 } }, lineage: { keep: "lineage" }, hour: { keep: { newerThan: 3_600_000 } }, ttl0: { keep: { newerThan: 0 } } };

/** The review graph on Chronograph's engine: a draft, then a review that interrupts. */
function chronographReview(checkpointer) {
  const { StateGraph, START, END, interrupt } = chronograph;
  return new StateGraph({ messages: "add_messages" })
    .addNode("draft", (s) => ({ messages: [{ type: "ai", content: `draft for: ${s.messages.at(-1).content}` }] }))
    .addNode("review", () => ({ messages: [{ type: "human", content: `verdict: ${interrupt({ question: "send it?" })}` }] }))
    .addEdge(START, "draft")
    .addEdge("draft", "review")
    .addEdge("review", END)
    .compile({ checkpointer });
}

/** The runs, plus a thread paused at its interrupt by each engine. */
async function populate(saver) {
  await docsRuns(saver);
  const paused = await reviewGraph(saver).invoke({ messages: [{ type: "human", content: "a second note" }] }, { configurable: { thread_id: "paused" } });
  assert.equal(paused[INTERRUPT][0].value.question, "send it?");
  const ours = await chronographReview(saver).invoke({ messages: [{ type: "human", content: "a third note" }] }, { configurable: { thread_id: "ours" } });
  assert.equal(ours[INTERRUPT][0].value.question, "send it?");
}

/** What stays still runs: replay and fork on both engines, and the paused thread resumes. */
async function stillRuns(saver) {
  const walk = { configurable: { thread_id: "walk" } };
  const graph = chatGraph(saver);
  const kept = await history(graph, walk);
  assert.ok(kept.length >= 1);
  const head = kept.at(-1);
  await graph.invoke(null, head.config); // a replay of a kept checkpoint
  const forked = await graph.updateState(head.config, { messages: [{ type: "human", content: "fork after prune" }] }, "booking");
  const out = await graph.invoke(null, forked);
  assert.equal(text(out.messages.at(-1)), "ai:回复：fork after prune");
  // Chronograph's engine on the same saver: replay HEAD, fork it.
  const ours = chronographChat(chronograph, saver);
  const latest = (await snapshots(ours, walk)).at(-1);
  const replayed = await ours.invoke(null, latest.config);
  assert.ok(replayed.messages.length >= 1);
  const edited = await ours.updateState(latest.config, { messages: [{ type: "human", content: "chronograph fork" }] }, "booking");
  assert.equal(text((await ours.invoke(null, edited)).messages.at(-1)), "ai:回复：chronograph fork");
  const ours2 = chronographReview(saver);
  await ours2.invoke(new chronograph.Command({ resume: "no" }), { configurable: { thread_id: "ours" } });
  const resumed = await ours2.getState({ configurable: { thread_id: "ours" } });
  assert.deepEqual(resumed.values.messages.map(text), ["human:a third note", "ai:draft for: a third note", "human:verdict: no"]);
  const review = reviewGraph(saver);
  await review.invoke(new Command({ resume: "yes" }), { configurable: { thread_id: "paused" } });
  const done = await review.getState({ configurable: { thread_id: "paused" } });
  assert.deepEqual(
    done.values.messages.map((m) => m.content),
    ["a second note", "draft for: a second note", "verdict: yes", "sent (3)"],
  );
}

for (const backend of backends) {
  describe(`prune on chronograph/langgraph's ${backend.name}`, { skip: backend.skip }, () => {
    let populated;
    for (const [name, options] of Object.entries(retentions)) {
      test(`keep ${name}: kept tuples read back as before, the dropped are gone, replay, fork and resume work`, async () => {
        populated ??= backend.make().then(async (s) => (await populate(s), s));
        const saver = await backend.copy(await populated);
        const before = await everyTuple(saver);
        assert.ok([...before.values()].some((t) => t.config.configurable.checkpoint_ns !== ""), "a subgraph namespace");
        assert.ok(before.size > 20);
        const result = await saver.prune(options);
        const afterPrune = await everyTuple(saver);
        assert.equal(result.threads, 4);
        assert.equal(result.kept, afterPrune.size);
        assert.equal(result.dropped, before.size - afterPrune.size);
        for (const [k, t] of afterPrune) assert.deepEqual(t, before.get(k), `${k} reads back as before`);
        for (const thread of ["walk", "review", "paused", "ours"]) {
          const want = expectedRoot[name](roots(before, thread)).map(key);
          assert.deepEqual(roots(afterPrune, thread).map(key), want, `${thread}'s root keeps what ${name} says`);
          // Every namespace keeps at least its latest; a subgraph namespace whose owner went is gone.
          for (const t of afterPrune.values()) {
            const owner = t.metadata.parents?.[""];
            if (t.config.configurable.thread_id === thread && t.config.configurable.checkpoint_ns !== "" && owner) {
              assert.ok([...afterPrune.values()].some((o) => o.checkpoint.id === owner), "a kept subgraph checkpoint's owner is kept");
            }
          }
        }
        if (name === "hour") assert.equal(result.dropped, 0);
        else assert.ok(result.dropped > 0 && result.versionsDropped > 0, JSON.stringify(result));
        for (const thread of ["paused", "ours"]) {
          assert.ok(roots(afterPrune, thread).at(-1).pendingWrites.some(([, channel]) => channel === INTERRUPT), `${thread}: the interrupt's write is kept`);
        }
        await stillRuns(saver);
      });
    }

    test("a 30-turn chat kept to its latest checkpoint: its delta chain is rebased, the messages read back whole, the chat goes on", async () => {
      const saver = await backend.make();
      const { graph, thread } = await chat(saver, 30);
      const before = await saver.getTuple(thread);
      assert.equal(before.checkpoint.channel_values.messages.length, 60);
      const result = await saver.prune({ threadIds: ["chat"], strategy: "keep_latest", vacuum: true });
      assert.equal(result.kept, 1);
      assert.ok(result.rebased >= 1, "the latest message version was a delta over a dropped version");
      assert.ok(result.bytesAfter < result.bytesBefore, `${result.bytesBefore} -> ${result.bytesAfter}`);
      assert.deepEqual(await saver.getTuple(thread), before);
      assert.equal((await history(graph, thread)).length, 1);
      await chat(saver, 1, "chat", 30);
      const state = await graph.getState(thread);
      assert.equal(state.values.messages.length, 62);
      assert.equal(state.values.messages[0].content, "0".padEnd(200, "q"));
    });

    test("bad arguments are refused before anything is done", async () => {
      const saver = await backend.make();
      await assert.rejects(saver.prune({ keep: { last: 0 } }), /keep is "latest"/);
      await assert.rejects(saver.prune({ strategy: "keep_none" }), /only "keep_latest"/);
    });
  });
}

test("SqliteSaver: the file (with its -wal and -shm) shrinks after a prune's VACUUM", async () => {
  const path = join(dir, "shrink.sqlite");
  const saver = SqliteSaver.fromConnString(path);
  await chat(saver, 40);
  const size = () => ["", "-wal", "-shm"].reduce((n, s) => n + (statSync(path + s, { throwIfNoEntry: false })?.size ?? 0), 0);
  const before = size();
  const result = await saver.prune({ keep: "latest" });
  const after = size();
  assert.ok(after < before / 2, `${before} -> ${after} bytes`);
  assert.ok(result.bytesAfter < result.bytesBefore);
  saver.db.close();
});
