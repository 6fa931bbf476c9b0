// chronograph/langgraph's SqliteSaver under faults, with real processes on
// one file (saver-writer.mjs): two processes writing one thread at once
// serialize or fail with a clear error, and every checkpoint either wrote
// reads back as it put it; a process killed inside a put's transaction
// (the saver's CHRONOGRAPH_TEST_KILL_IN_PUT test hook) leaves no trace of
// that put, and the run resumes from the checkpoint before it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { SqliteSaver } from "chronograph/langgraph";
import { writer } from "./saver-runs.mjs";

const here = new URL(".", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "chronograph-sqlite-faults-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Every checkpoint of the file's `thread`, by id: its messages' contents. */
async function stored(path, thread) {
  const saver = SqliteSaver.fromConnString(path);
  const out = new Map();
  for await (const t of saver.list({ configurable: { thread_id: thread } })) {
    out.set(t.checkpoint.id, (t.checkpoint.channel_values.messages ?? []).map((m) => m.content));
  }
  saver.db.close();
  return out;
}

test("two processes writing one thread at once: each checkpoint reads back as its writer put it, or the writer failed clearly", async () => {
  const path = join(dir, "two.sqlite");
  const go = join(dir, "go");
  const writers = ["A", "B"].map((label) => writer([path, "shared", label, "12", go]));
  await Promise.all(writers.map((w) => w.ready));
  writeFileSync(go, "");
  const results = await Promise.all(writers.map((w) => w.done));
  for (const r of results) {
    assert.equal(r.code, 0, r.err);
    // A failure must be a named one: a conflicting version, or the write lock not obtained in time.
    if (r.report.error !== null) assert.match(r.report.error.code ?? "", /^(CHECKPOINT_CONFLICT|SQLITE_BUSY)$/, r.report.error.message);
  }
  const onFile = await stored(path, "shared");
  const put = results.flatMap((r) => r.report.put);
  assert.equal(onFile.size, put.length, "the file holds exactly the checkpoints the writers put");
  for (const p of put) assert.deepEqual(onFile.get(p.id), p.messages, `checkpoint ${p.id} reads back as put`);
  // The writers ran at once: some checkpoint holds messages of both.
  const both = [...onFile.values()].some((m) => m.some((c) => c.startsWith("A ")) && m.some((c) => c.startsWith("B ")));
  assert.ok(both, "the two writers' turns interleaved on the thread");
});

test("a process killed inside a put's transaction leaves no trace of it, and the run resumes", async () => {
  const path = join(dir, "killed.sqlite");
  // Three puts a turn (input, start, reply): the 12th is turn 3's last, after its reply ran.
  const killed = spawnSync(process.execPath, ["saver-writer.mjs", path, "run", "K", "6"], {
    cwd: here,
    encoding: "utf8",
    env: { ...process.env, CHRONOGRAPH_TEST_KILL_IN_PUT: "12" },
    timeout: 120_000,
  });
  assert.equal(killed.signal, "SIGKILL", killed.stderr);
  const saver = SqliteSaver.fromConnString(path);
  const rows = (table) => saver.db.prepare(`SELECT count(*) AS n FROM ${table}`).get().n;
  assert.equal(rows("chronograph_checkpoints"), 11, "the killed put's checkpoint is absent");
  // No version row without a checkpoint that names it: the killed put's rows were rolled back.
  const named = new Set();
  for (const r of saver.db.prepare("SELECT checkpoint FROM chronograph_checkpoints").all()) {
    for (const [channel, v] of Object.entries(JSON.parse(r.checkpoint).channel_versions)) named.add(`${channel}@${v}`);
  }
  const versions = saver.db.prepare("SELECT channel, version FROM chronograph_blobs").all();
  assert.deepEqual(versions.filter((b) => !named.has(`${b.channel}@${b.version}`)), [], "no orphan version rows");
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("reply", (s) => ({ messages: [{ type: "ai", content: `K reply ${s.messages.length}` }] }))
    .addEdge(START, "reply")
    .addEdge("reply", END)
    .compile({ checkpointer: saver });
  const thread = { configurable: { thread_id: "run" } };
  // The checkpoint before the killed put, whole: turn 3's question, the reply's write pending.
  const last = await saver.getTuple(thread);
  assert.equal(last.metadata.step, 9);
  assert.equal(last.checkpoint.channel_values.messages.length, 7);
  assert.deepEqual(last.pendingWrites.map(([, channel]) => channel), ["messages"]);
  await graph.invoke(null, thread);
  await graph.invoke({ messages: [{ type: "human", content: "K turn 4" }] }, thread);
  const expected = [0, 1, 2, 3].flatMap((i) => [`K turn ${i}`, `K reply ${2 * i + 1}`]).concat(["K turn 4", "K reply 9"]);
  assert.deepEqual((await graph.getState(thread)).values.messages.map((m) => m.content), expected);
  saver.db.close();
});

/** A checkpoint whose `messages` channel is at `version` with `messages`. */
const checkpointAt = (id, version, messages) => ({
  v: 4,
  id,
  ts: new Date(0).toISOString(),
  channel_values: { messages },
  channel_versions: { messages: version },
  versions_seen: {},
});

test("a version stored again with another value fails the put with CHECKPOINT_CONFLICT and writes nothing of it", async () => {
  const path = join(dir, "conflict.sqlite");
  const [first, second] = [SqliteSaver.fromConnString(path), SqliteSaver.fromConnString(path)];
  const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
  const metadata = { source: "input", step: -1, parents: {} };
  await first.put(config, checkpointAt("1", 7, ["a"]), metadata, { messages: 7 });
  await assert.rejects(
    second.put(config, checkpointAt("2", 7, ["b"]), metadata, { messages: 7 }),
    (e) => e.code === "CHECKPOINT_CONFLICT" && /version 7 of channel "messages" of thread "t"/.test(e.message),
  );
  assert.equal(await second.getTuple({ configurable: { thread_id: "t", checkpoint_id: "2" } }), undefined, "nothing of the failed put");
  // The same value again (a retried put) is no conflict.
  await second.put(config, checkpointAt("3", 7, ["a"]), metadata, { messages: 7 });
  assert.deepEqual((await second.getTuple({ configurable: { thread_id: "t" } })).checkpoint.channel_values.messages, ["a"]);
  first.db.close();
  second.db.close();
});

test("a file of schema version 1 (no digests) is migrated to version 2 when opened", async () => {
  const path = join(dir, "v1.sqlite");
  const old = SqliteSaver.fromConnString(path);
  const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
  await old.put(config, checkpointAt("1", 1, ["a"]), { source: "input", step: -1, parents: {} }, { messages: 1 });
  old.db.exec("ALTER TABLE chronograph_blobs DROP COLUMN digest; UPDATE chronograph_schema SET version = 1");
  old.db.close();
  const saver = SqliteSaver.fromConnString(path);
  assert.deepEqual((await saver.getTuple({ configurable: { thread_id: "t" } })).checkpoint.channel_values.messages, ["a"]);
  assert.equal(saver.db.prepare("SELECT version FROM chronograph_schema").get().version, 2);
  // Its rows without a digest are compared by their bytes.
  await saver.put(config, checkpointAt("2", 1, ["a"]), { source: "loop", step: 0, parents: {} }, { messages: 1 });
  await assert.rejects(saver.put(config, checkpointAt("3", 1, ["b"]), { source: "loop", step: 1, parents: {} }, { messages: 1 }), /CHECKPOINT_CONFLICT|different value/);
  saver.db.close();
});
