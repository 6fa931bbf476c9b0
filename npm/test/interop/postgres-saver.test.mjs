// chronograph/langgraph's PostgresSaver on a real PostgreSQL server
// (started here: postgres.mjs): the docs-style runs read back the same
// tuples as from LangGraph.js's own PostgresSaver (up to a fork, which that
// saver reads back wrong, and ours as LangGraph.js's MemorySaver); message versions are
// stored as deltas; two processes writing one thread serialize (each
// checkpoint reads back as its writer put it, no version lost); a process
// killed inside a put's transaction leaves no trace of it and the run
// resumes; a version stored again with another value is refused; a schema of
// another version is refused; pg stays out of the browser entries, and its
// absence is named. (LangGraph.js's validation suite runs on it in
// validation.spec.mjs.)
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { END, INTERRUPT, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { PostgresSaver as LangGraphPostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { PostgresSaver } from "chronograph/langgraph";
import { chat, docsRuns, runWithoutPeers, writer } from "./saver-runs.mjs";
import { endSaver, startPostgres } from "./postgres.mjs";

const here = new URL(".", import.meta.url).pathname;
const pg = startPostgres();
const dir = mkdtempSync(join(tmpdir(), "chronograph-pg-saver-"));
const open = [];
after(async () => {
  // Each pool's connections closed before the server stops (endSaver).
  for (const saver of open) await endSaver(saver).catch(() => undefined);
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});
let schemas = 0;
/** A set-up saver on a schema of its own (`schema`: that one). */
async function saver(SaverClass = PostgresSaver, schema = `t${(schemas += 1)}`) {
  const s = SaverClass.fromConnString(pg.url, { schema });
  await s.setup();
  open.push(s);
  return s;
}

/** Rows of a saver's blob table by kind (0 empty, 1 full, 2 delta). */
async function kinds(s) {
  const out = { 0: 0, 1: 0, 2: 0 };
  const { rows } = await s.pool.query(`SELECT kind, count(*)::int AS n FROM "${s.schema}".chronograph_blobs GROUP BY kind`);
  for (const r of rows) out[r.kind] = r.n;
  return out;
}

describe("chronograph/langgraph's PostgresSaver", { skip: pg ? false : "PostgreSQL's server (initdb, pg_ctl) is not installed" }, () => {
  test("the docs-style runs read back the same tuples as from LangGraph.js's own PostgresSaver, up to its fork", async () => {
    const theirs = await docsRuns(await saver(LangGraphPostgresSaver));
    const ours = await docsRuns(await saver());
    const reference = await docsRuns(new MemorySaver());
    assert.equal(theirs.walk.length, 13);
    assert.ok(theirs.review.some((t) => t.config.configurable.checkpoint_ns !== ""), "the subgraph's namespace is listed");
    assert.ok(theirs.review.some((t) => t.writes.some((w) => w.channel === INTERRUPT)), "the interrupt is a pending write");
    assert.deepEqual(ours.review, theirs.review);
    // The walkthrough's last four checkpoints fork the thread (updateState on its first checkpoint).
    // LangGraph.js's PostgresSaver keys values by version and counts versions per branch (current + 1),
    // so the fork's edited message gets a version the first branch already stored, and reads back as
    // the original: its tuples from the fork on are wrong. Ours are those of LangGraph.js's MemorySaver.
    assert.deepEqual(ours.walk.slice(0, 9), theirs.walk.slice(0, 9));
    assert.deepEqual(ours.walk, reference.walk);
    const edited = (w) => w.find((t) => t.metadata.source === "update").checkpoint.channel_values.messages[0].kwargs.content;
    assert.equal(edited(ours.walk), "改成明天下午两点的号");
    assert.equal(edited(theirs.walk), "明天上午还有号吗", "LangGraph.js's PostgresSaver reads the fork back with the original message");
  });

  test("message versions are stored as deltas, and a fresh saver on the schema reads the thread back whole", async () => {
    const first = await saver();
    await chat(first, 20);
    const k = await kinds(first);
    assert.ok(k[2] >= 38, `${k[2]} delta rows`);
    const again = await saver(PostgresSaver, first.schema);
    const { graph, thread } = await chat(again, 1, "chat", 20);
    const state = await graph.getState(thread);
    assert.equal(state.values.messages.length, 42);
    assert.equal(state.values.messages[0].constructor.name, "HumanMessage");
    assert.ok((await kinds(again))[2] > k[2], "the new saver extends the versions it read back");
    const sizes = await again.pool.query(`SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`, [first.schema]);
    // 246 KB when written. A rough bound only (PostgreSQL compresses large values, whole versions
    // included): the count of delta rows above is the exact check.
    assert.ok(Number(sizes.rows[0].bytes) < 400_000, `${sizes.rows[0].bytes} bytes`);
  });

  test("two processes writing one thread at once: each checkpoint reads back as its writer put it, no version lost", async () => {
    const schema = `two${(schemas += 1)}`;
    const url = pg.url;
    await saver(PostgresSaver, schema);
    const go = join(dir, "go");
    const writers = ["A", "B"].map((label) => writer([url, "shared", label, "8", go], { CHRONOGRAPH_TEST_PG_SCHEMA: schema }));
    await Promise.all(writers.map((w) => w.ready));
    writeFileSync(go, "");
    const results = await Promise.all(writers.map((w) => w.done));
    for (const r of results) {
      assert.equal(r.code, 0, r.err);
      if (r.report.error !== null) assert.equal(r.report.error.code, "CHECKPOINT_CONFLICT", r.report.error.message);
    }
    const reader = await saver(PostgresSaver, schema);
    const stored = new Map();
    for await (const t of reader.list({ configurable: { thread_id: "shared" } })) {
      stored.set(t.checkpoint.id, (t.checkpoint.channel_values.messages ?? []).map((m) => m.content));
    }
    const put = results.flatMap((r) => r.report.put);
    assert.equal(stored.size, put.length, "the schema holds exactly the checkpoints the writers put");
    for (const p of put) assert.deepEqual(stored.get(p.id), p.messages, `checkpoint ${p.id} reads back as put`);
    const both = [...stored.values()].some((m) => m.some((c) => c.startsWith("A ")) && m.some((c) => c.startsWith("B ")));
    assert.ok(both, "the two writers' turns interleaved on the thread");
  });

  test("a process killed inside a put's transaction leaves no trace of it, and the run resumes", async () => {
    const schema = `killed${(schemas += 1)}`;
    const url = pg.url;
    const killed = spawnSync(process.execPath, ["saver-writer.mjs", url, "run", "K", "6"], {
      cwd: here,
      encoding: "utf8",
      env: { ...process.env, CHRONOGRAPH_TEST_KILL_IN_PUT: "12", CHRONOGRAPH_TEST_PG_SCHEMA: schema },
      timeout: 120_000,
    });
    assert.equal(killed.signal, "SIGKILL", killed.stderr);
    const s = await saver(PostgresSaver, schema);
    const { rows } = await s.pool.query(`SELECT checkpoint FROM "${schema}".chronograph_checkpoints`);
    assert.equal(rows.length, 11, "the killed put's checkpoint is absent");
    const named = new Set();
    for (const r of rows) for (const [channel, v] of Object.entries(JSON.parse(r.checkpoint).channel_versions)) named.add(`${channel}@${v}`);
    const versions = (await s.pool.query(`SELECT channel, version FROM "${schema}".chronograph_blobs`)).rows;
    assert.deepEqual(versions.filter((b) => !named.has(`${b.channel}@${b.version}`)), [], "no orphan version rows");
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("reply", (st) => ({ messages: [{ type: "ai", content: `K reply ${st.messages.length}` }] }))
      .addEdge(START, "reply")
      .addEdge("reply", END)
      .compile({ checkpointer: s });
    const thread = { configurable: { thread_id: "run" } };
    const last = await s.getTuple(thread);
    assert.equal(last.metadata.step, 9);
    assert.deepEqual(last.pendingWrites.map(([, channel]) => channel), ["messages"]);
    await graph.invoke(null, thread);
    await graph.invoke({ messages: [{ type: "human", content: "K turn 4" }] }, thread);
    const expected = [0, 1, 2, 3].flatMap((i) => [`K turn ${i}`, `K reply ${2 * i + 1}`]).concat(["K turn 4", "K reply 9"]);
    assert.deepEqual((await graph.getState(thread)).values.messages.map((m) => m.content), expected);
  });

  test("a version stored again with another value fails the put with CHECKPOINT_CONFLICT and writes nothing of it", async () => {
    const first = await saver();
    const second = await saver(PostgresSaver, first.schema);
    const at = (id, messages) => ({ v: 4, id, ts: new Date(0).toISOString(), channel_values: { messages }, channel_versions: { messages: 7 }, versions_seen: {} });
    const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
    const metadata = { source: "input", step: -1, parents: {} };
    await first.put(config, at("1", ["a"]), metadata, { messages: 7 });
    await assert.rejects(
      second.put(config, at("2", ["b"]), metadata, { messages: 7 }),
      (e) => e.code === "CHECKPOINT_CONFLICT" && /version 7 of channel "messages" of thread "t"/.test(e.message),
    );
    assert.equal(await second.getTuple({ configurable: { thread_id: "t", checkpoint_id: "2" } }), undefined, "nothing of the failed put");
    await second.put(config, at("3", ["a"]), metadata, { messages: 7 });
    assert.deepEqual((await second.getTuple({ configurable: { thread_id: "t" } })).checkpoint.channel_values.messages, ["a"]);
  });

  test("a schema of a newer version is refused with a message, and left as it was", async () => {
    const s = await saver();
    await s.pool.query(`UPDATE "${s.schema}".chronograph_schema SET version = 99`);
    const newer = PostgresSaver.fromConnString(pg.url, { schema: s.schema });
    open.push(newer);
    await assert.rejects(newer.setup(), (e) => e.code === "UNSUPPORTED_SCHEMA" && /schema version 99/.test(e.message));
    await assert.rejects(newer.getTuple({ configurable: { thread_id: "t" } }), (e) => e.code === "UNSUPPORTED_SCHEMA");
    assert.equal((await s.pool.query(`SELECT version FROM "${s.schema}".chronograph_schema`)).rows[0].version, 99);
  });
});

test("the browser entries import no pg; the Node entry loads it", () => {
  const pkg = join(here, "node_modules", "chronograph");
  for (const entry of ["langgraph-browser.js", "browser.js"]) assert.doesNotMatch(readFileSync(join(pkg, entry), "utf8"), /["']pg["']/, entry);
  assert.match(readFileSync(join(pkg, "langgraph-node.js"), "utf8"), /registerPostgresDriver\(\(\) => requireDriver\("pg"\)\)/);
  assert.doesNotMatch(readFileSync(join(pkg, "checkpoint", "postgres_saver.js"), "utf8"), /from ["']pg["']|require\(/);
});

test("without pg installed, fromConnString says to install it", () => {
  const out = runWithoutPeers(`import { PostgresSaver } from "chronograph/langgraph";
try { PostgresSaver.fromConnString("postgresql://127.0.0.1:1/none"); console.log("opened"); } catch (e) { console.log(e.code, e.message); }`);
  assert.match(out, /^UNSUPPORTED .*install pg/);
});
