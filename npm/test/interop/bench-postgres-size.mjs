// Bytes on disk and per-call latencies of the chat of issue 28 on
// chronograph/langgraph's PostgresSaver and on LangGraph.js's own
// (@langchain/langgraph-checkpoint-postgres), on a PostgreSQL server started
// here (postgres.mjs); with --sqlite, the two SQLite savers' latencies too.
// The workload is bench-sqlite-size.mjs's: LangGraph.js runs one node on
// `MessagesAnnotation`; each turn adds a 200-character user message and a
// 200-character reply, one thread. Each saver runs one thread up to the
// largest size (its own cap for LangGraph.js's savers, whose writes grow
// with the square of the turns); at each size it prints the bytes: for
// PostgreSQL `pg_total_relation_size` summed over every table of the
// saver's schema (TOAST and indexes included), for SQLite the file with its
// -wal and -shm. At its largest size it measures, as medians: `put` per
// superstep (the 3 puts of each of the last 10 turns), `getTuple` of the
// thread's head and `list` of its newest 10 checkpoints (15 calls each).
// Not part of ./dev test; results in BENCHMARKS.md.
// With --delta, the state is `new StateSchema({ messages: MessagesDeltaValue })`
// (LangGraph.js's beta delta channel) instead.
//   (cd npm/test/interop && node bench-postgres-size.mjs [turns,...] [--theirs-up-to N] [--sqlite] [--delta])
// Defaults: 100,250,500,1000 turns; LangGraph.js's savers up to 500 turns.
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { END, MessagesAnnotation, MessagesDeltaValue, START, StateGraph, StateSchema } from "@langchain/langgraph";
import { PostgresSaver as LangGraphPostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver as LangGraphSqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { PostgresSaver, SqliteSaver } from "chronograph/langgraph";
import { startPostgres } from "./postgres.mjs";

const args = process.argv.slice(2);
const flag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const upTo = Number(flag("--theirs-up-to") ?? 500);
const state = args.includes("--delta") ? new StateSchema({ messages: MessagesDeltaValue }) : MessagesAnnotation;
const sizes = (args.find((a) => /^\d+(,\d+)*$/.test(a) && a !== String(upTo)) ?? "100,250,500,1000").split(",").map(Number);
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
const ms = (n) => `${n.toFixed(2)} ms`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const pg = startPostgres();
if (pg === null) throw new Error("PostgreSQL's server (initdb, pg_ctl) is not installed");
const dir = mkdtempSync(join(tmpdir(), "chronograph-bench-"));

/** Bytes of every table of `schema`, with their TOAST tables and indexes. */
async function schemaBytes(pool, schema) {
  const { rows } = await pool.query(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
    [schema],
  );
  return Number(rows[0].bytes);
}
const fileBytes = (path) => [path, `${path}-wal`, `${path}-shm`].reduce((n, p) => n + (existsSync(p) ? statSync(p).size : 0), 0);

const savers = [
  {
    name: "chronograph/langgraph PostgresSaver",
    open: () => PostgresSaver.fromConnString(pg.url, { schema: "ours" }),
    bytes: (s) => schemaBytes(s.pool, "ours"),
    upTo: Infinity,
  },
  {
    name: "@langchain/langgraph-checkpoint-postgres 1.0.5",
    open: () => LangGraphPostgresSaver.fromConnString(pg.url, { schema: "theirs" }),
    bytes: (s) => schemaBytes(s.pool, "theirs"),
    upTo,
  },
];
if (args.includes("--sqlite")) {
  savers.push(
    { name: "chronograph/langgraph SqliteSaver", open: () => SqliteSaver.fromConnString(join(dir, "ours.sqlite")), bytes: () => fileBytes(join(dir, "ours.sqlite")), upTo: Infinity },
    {
      name: "@langchain/langgraph-checkpoint-sqlite 1.0.4",
      open: () => LangGraphSqliteSaver.fromConnString(join(dir, "theirs.sqlite")),
      bytes: () => fileBytes(join(dir, "theirs.sqlite")),
      upTo,
    },
  );
}

/** Times `n` calls of `fn` (after one warm-up call); their median in ms. */
async function timed(n, fn) {
  await fn();
  const out = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    out.push(performance.now() - start);
  }
  return median(out);
}

/** Runs one saver's thread up to its largest size; its bytes per size and its latencies there. */
async function measure(s) {
  const saver = s.open();
  await saver.setup?.();
  const putTimes = [];
  const put = saver.put.bind(saver);
  saver.put = async (...a) => {
    const start = performance.now();
    const out = await put(...a);
    putTimes.push(performance.now() - start);
    return out;
  };
  const graph = new StateGraph(state)
    .addNode("reply", (st) => ({ messages: [{ type: "ai", content: `reply ${st.messages.length} `.padEnd(200, "r") }] }))
    .addEdge(START, "reply")
    .addEdge("reply", END)
    .compile({ checkpointer: saver });
  const thread = { configurable: { thread_id: "chat" } };
  const last = Math.max(...sizes.filter((n) => n <= s.upTo));
  const bytes = {};
  const start = performance.now();
  for (let i = 0; i < last; i++) {
    if (i === last - 10) putTimes.length = 0;
    await graph.invoke({ messages: [{ type: "human", content: `question ${i} `.padEnd(200, "q") }] }, thread);
    if (sizes.includes(i + 1)) {
      bytes[i + 1] = await s.bytes(saver);
      console.error(`${s.name}: ${i + 1} turns, ${mb(bytes[i + 1])} (${bytes[i + 1]} bytes), ${((performance.now() - start) / 1000).toFixed(1)} s`);
    }
  }
  const latency = {
    turns: last,
    put: median(putTimes),
    getTuple: await timed(15, () => saver.getTuple(thread)),
    list: await timed(15, async () => {
      for await (const _ of saver.list(thread, { limit: 10 }));
    }),
  };
  console.error(`${s.name}: at ${last} turns, put ${ms(latency.put)}, getTuple ${ms(latency.getTuple)}, list(limit 10) ${ms(latency.list)}`);
  await (saver.end?.() ?? saver.db?.close());
  return { bytes, latency };
}

try {
  const results = [];
  for (const s of savers) results.push({ s, ...(await measure(s)) });
  console.log(`| saver | ${sizes.map((n) => `${n.toLocaleString("en")} turns`).join(" | ")} |`);
  console.log(`|---|${sizes.map(() => "---:").join("|")}|`);
  for (const r of results) if (r.s.bytes !== undefined) console.log(`| ${r.s.name} | ${sizes.map((n) => (r.bytes[n] === undefined ? "" : mb(r.bytes[n]))).join(" | ")} |`);
  console.log("\n| saver | thread | put per superstep | getTuple | list (limit 10) |\n|---|---:|---:|---:|---:|");
  for (const r of results) console.log(`| ${r.s.name} | ${r.latency.turns} turns | ${ms(r.latency.put)} | ${ms(r.latency.getTuple)} | ${ms(r.latency.list)} |`);
} finally {
  pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
