// `chronograph-migrate` (the package's bin, npm/migrate.mjs): a database of
// LangGraph.js's own SqliteSaver (and PostgresSaver, on a server started
// here: postgres.mjs), written by LangGraph.js graphs with a subgraph, an
// interrupt and its pending writes, is copied into the compact format and
// back again; every tuple is the same at each step (checked here, apart from
// the tool's own check), the sizes are reported, a paused thread resumes on
// the copy, and the tool refuses to merge into a thread the target has. A
// thread with replays and an updateState fork is copied too (its versions
// renumbered where LangGraph.js reused one for another value), and runs on
// the copy as on the source.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { Command, INTERRUPT } from "@langchain/langgraph";
import { SqliteSaver as LangGraphSqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { PostgresSaver as LangGraphPostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { PostgresSaver, SqliteSaver } from "chronograph/langgraph";
import { chat, reviewGraph, tuples } from "./saver-runs.mjs";
import { chatGraph, history, text, walkthrough } from "./walkthrough.mjs";
import { endSaver, startPostgres } from "./postgres.mjs";

const here = new URL(".", import.meta.url).pathname;
const cli = join(here, "node_modules", "chronograph", "migrate.mjs");
// The copy's comparison, from the package's files (no export names it).
const { differences } = await import(join(here, "node_modules", "chronograph", "checkpoint", "migrate.js"));
const pg = startPostgres();
const dir = mkdtempSync(join(tmpdir(), "chronograph-migrate-"));
after(async () => {
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const THREADS = ["review", "paused", "chat"];

/** LangGraph.js graphs on `saver`: a review run through its interrupt and subgraph, one left paused, a 5-turn chat. */
async function populate(saver) {
  const graph = reviewGraph(saver);
  const review = { configurable: { thread_id: "review" } };
  await graph.invoke({ messages: [{ type: "human", content: "a note to the team" }] }, review);
  await graph.invoke(new Command({ resume: "yes" }), review);
  const paused = await graph.invoke({ messages: [{ type: "human", content: "a second note" }] }, { configurable: { thread_id: "paused" } });
  assert.equal(paused[INTERRUPT][0].value.question, "send it?");
  await chat(saver, 5);
}

/** Every thread's tuples, with each checkpoint's exact channel versions. */
async function contents(saver) {
  const out = {};
  for (const thread of THREADS) {
    out[thread] = await tuples(saver, thread);
    const versions = [];
    for await (const t of saver.list({ configurable: { thread_id: thread } })) versions.push([t.checkpoint.id, t.checkpoint.channel_versions]);
    out[`${thread} versions`] = versions.sort();
  }
  return out;
}

/** Runs the tool; its exit code and its JSON report. */
function migrate(args) {
  const run = spawnSync(process.execPath, [cli, ...args, "--json"], { encoding: "utf8", timeout: 60_000 });
  let report;
  try {
    report = JSON.parse(run.stdout.trim().split("\n").at(-1));
  } catch {
    report = undefined;
  }
  return { status: run.status, report, stderr: run.stderr };
}

/** Copies source → compact → LangGraph.js format, checking every step; returns the two reports. */
function roundTrip(stores) {
  const there = migrate(["--from", stores.source, "--from-format", "langgraph", "--to", stores.compact, "--to-format", "compact", ...(stores.toCompact ?? [])]);
  assert.equal(there.status, 0, there.stderr);
  const back = migrate(["--from", stores.compact, "--from-format", "compact", "--to", stores.back, "--to-format", "langgraph", ...(stores.toBack ?? [])]);
  assert.equal(back.status, 0, back.stderr);
  return [there.report, back.report];
}

/** What both backends check after a round trip. */
async function checkRoundTrip(reports, source, compact, back) {
  const [there, again] = reports;
  for (const r of reports) {
    assert.deepEqual(r.threads.sort(), [...THREADS].sort());
    assert.deepEqual(r.mismatches, []);
  }
  assert.ok(there.checkpoints > 20 && there.writes > 0, JSON.stringify(there));
  assert.equal(again.checkpoints, there.checkpoints);
  assert.equal(again.writes, there.writes);
  assert.ok(there.sizes.from > 0 && there.sizes.toAfter > there.sizes.toBefore, JSON.stringify(there.sizes));
  const original = await contents(source);
  assert.ok(original.review.some((t) => t.config.configurable.checkpoint_ns !== ""), "a subgraph namespace");
  assert.ok(original.paused.at(-1).writes.some((w) => w.channel === INTERRUPT), "the interrupt's pending write");
  assert.deepEqual(await contents(compact), original, "LangGraph.js format -> compact");
  assert.deepEqual(await contents(back), original, "compact -> LangGraph.js format");
  // The paused thread resumes on the compact copy.
  const graph = reviewGraph(compact);
  await graph.invoke(new Command({ resume: "yes" }), { configurable: { thread_id: "paused" } });
  const done = await graph.getState({ configurable: { thread_id: "paused" } });
  assert.equal(done.values.messages.at(-1).content, "sent (3)");
}

test("a LangGraph.js SQLite database goes to the compact format and back, every tuple equal both ways", async () => {
  const paths = { source: join(dir, "langgraph.sqlite"), compact: join(dir, "compact.sqlite"), back: join(dir, "back.sqlite") };
  const source = LangGraphSqliteSaver.fromConnString(paths.source);
  await populate(source);
  const reports = roundTrip({ source: `sqlite:${paths.source}`, compact: `sqlite:${paths.compact}`, back: `sqlite:${paths.back}` });
  const compact = SqliteSaver.fromConnString(paths.compact);
  const back = LangGraphSqliteSaver.fromConnString(paths.back);
  await checkRoundTrip(reports, source, compact, back);
  // A second copy into the same target is refused: a copy never merges into a thread.
  const again = migrate(["--from", `sqlite:${paths.source}`, "--from-format", "langgraph", "--to", `sqlite:${paths.compact}`, "--to-format", "compact", "--thread", "chat"]);
  assert.equal(again.status, 2);
  assert.match(again.stderr, /already has thread "chat"/);
  for (const s of [source, compact, back]) s.db.close();
});

/**
 * The walkthrough's thread (two rounds, two replays, an updateState fork),
 * written by LangGraph.js on `source`, copied by the tool (`args`) into
 * `compact`: every snapshot of the copy is the source's, and on both a
 * replay of the fork and a new turn give the same messages. The report.
 */
async function checkForkCopy(source, compact, args) {
  await walkthrough(chatGraph(source), "walk");
  const run = migrate(args);
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(run.report.mismatches, []);
  assert.ok(run.report.checkpoints > 10, JSON.stringify(run.report));
  const theirs = chatGraph(source);
  const ours = chatGraph(compact);
  const thread = { configurable: { thread_id: "walk" } };
  const view = async (graph) =>
    (await history(graph, thread)).map((s) => ({
      messages: s.values.messages.map(text),
      next: s.next,
      metadata: s.metadata,
      config: s.config,
      parent: s.parentConfig ?? null,
      tasks: s.tasks.map((t) => t.name),
    }));
  const before = await view(theirs);
  assert.deepEqual(await view(ours), before);
  // The fork (updateState as "booking" on the first checkpoint) replayed on both, then a new turn on both.
  const fork = (await history(theirs, thread)).find((s) => s.metadata.source === "update").config;
  assert.deepEqual((await ours.invoke(null, fork)).messages.map(text), (await theirs.invoke(null, fork)).messages.map(text));
  const turn = { messages: [{ type: "human", content: "谢谢" }] };
  assert.deepEqual((await ours.invoke(turn, thread)).messages.map(text), (await theirs.invoke(turn, thread)).messages.map(text));
  return run.report;
}

test("a LangGraph.js SQLite thread whose replays and fork reuse a channel version is copied with its versions renumbered", async () => {
  const path = join(dir, "forked.sqlite");
  const target = join(dir, "forked-compact.sqlite");
  const source = LangGraphSqliteSaver.fromConnString(path);
  const compact = SqliteSaver.fromConnString(target);
  const report = await checkForkCopy(source, compact, ["--from", `sqlite:${path}`, "--from-format", "langgraph", "--to", `sqlite:${target}`, "--to-format", "compact"]);
  assert.deepEqual(report.renumbered, ["walk"]);
  // The fork's edited message is its own version in the copy (one version held both messages in the source).
  const edited = (await history(chatGraph(compact), { configurable: { thread_id: "walk" } })).find((s) => s.metadata.source === "update");
  assert.equal(text(edited.values.messages[0]), "human:改成明天下午两点的号");
  source.db.close();
  compact.db.close();
});

describe("PostgreSQL", { skip: pg ? false : "PostgreSQL's server (initdb, pg_ctl) is not installed" }, () => {
  test("a LangGraph.js PostgreSQL database goes to the compact format and back, every tuple equal both ways", async () => {
    const source = LangGraphPostgresSaver.fromConnString(pg.url, { schema: "source" });
    await source.setup();
    await populate(source);
    const url = `postgres:${pg.url}`;
    const reports = roundTrip({
      source: url,
      compact: url,
      back: url,
      toCompact: ["--from-schema", "source", "--to-schema", "compact"],
      toBack: ["--from-schema", "compact", "--to-schema", "back"],
    });
    const compact = PostgresSaver.fromConnString(pg.url, { schema: "compact" });
    const back = LangGraphPostgresSaver.fromConnString(pg.url, { schema: "back" });
    await back.setup();
    try {
      await checkRoundTrip(reports, source, compact, back);
    } finally {
      // Each pool's connections closed before the server stops (endSaver).
      for (const s of [source, compact, back]) await endSaver(s);
    }
  });

  test("a LangGraph.js PostgreSQL thread with replays and a fork is copied, every snapshot equal", async () => {
    const source = LangGraphPostgresSaver.fromConnString(pg.url, { schema: "forked" });
    await source.setup();
    const compact = PostgresSaver.fromConnString(pg.url, { schema: "forked_compact" });
    try {
      const url = `postgres:${pg.url}`;
      const report = await checkForkCopy(source, compact, ["--from", url, "--from-format", "langgraph", "--to", url, "--to-format", "compact", "--from-schema", "forked", "--to-schema", "forked_compact"]);
      // LangGraph.js's PostgresSaver kept the first value of the version the fork reused (it reads the fork back
      // wrong: postgres-saver.test.mjs), so the source gives each version one value and nothing needs new numbers.
      assert.deepEqual(report.renumbered, []);
    } finally {
      for (const s of [source, compact]) await endSaver(s);
    }
  });
});

test("the tool's comparison finds a tuple that differs", () => {
  const t = {
    config: { configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: "1" } },
    checkpoint: { v: 4, id: "1", ts: "", channel_values: { a: [1] }, channel_versions: { a: 1 }, versions_seen: {} },
    metadata: { step: 0 },
    pendingWrites: [["task", "a", 2]],
  };
  assert.deepEqual(differences(t, structuredClone(t)), []);
  assert.deepEqual(differences(t, { ...t, pendingWrites: [] }), ["pendingWrites"]);
  assert.deepEqual(differences(t, { ...t, checkpoint: { ...t.checkpoint, channel_values: { a: [2] } } }), ["channel_values"]);
  assert.deepEqual(differences(t, undefined), ["missing"]);
});
