// Workload W1 of bench/ (an agent-tool loop: `count` last-value, `trail`
// appended to; 2,000 iterations = 4,001 checkpoints in one thread) run by
// LangGraph.js on each persistent saver: LangGraph.js's SqliteSaver and
// PostgresSaver, chronograph/langgraph's SqliteSaver and PostgresSaver
// (PostgreSQL on a throwaway server: postgres.mjs). Per saver: the whole
// run; each `put` timed during it (median and 95th percentile); then, on
// the finished thread, `getTuple` of its head and `list(thread, { limit: 10 })`
// read to its end with every tuple's values read, REPS times each
// (medians); and the bytes on disk (SQLite: the file with its -wal and
// -shm; PostgreSQL: pg_total_relation_size of every table of the saver's
// schema). Savers run in turn, alternating between LangGraph.js's and ours,
// ROUNDS times (default 1). Not part of ./dev test; results in BENCHMARKS.md.
//   (cd npm/test/interop && ROUNDS=2 node --expose-gc bench-saver-w1.mjs [iterations])
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteSaver as LangGraphSqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { PostgresSaver as LangGraphPostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { PostgresSaver, SqliteSaver } from "chronograph/langgraph";
import { endSaver, startPostgres } from "./postgres.mjs";
import { w1Graph } from "./w1-graph.mjs";

const iterations = Number(process.argv[2] ?? 2000);
const rounds = Number(process.env.ROUNDS ?? 1);
const reps = Number(process.env.REPS ?? 9);
const graph = (checkpointer) => w1Graph(checkpointer, iterations);

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const median = (xs) => quantile(xs, 0.5);

/** Runs W1 on `saver` (thread `thread`); its measures. `bytes()` reads its storage. */
async function measure(saver, thread, bytes) {
  globalThis.gc?.();
  const puts = [];
  const put = saver.put.bind(saver);
  saver.put = async (...args) => {
    const t = performance.now();
    try {
      return await put(...args);
    } finally {
      puts.push(performance.now() - t);
    }
  };
  const config = { configurable: { thread_id: thread }, recursionLimit: 10 * iterations };
  let t = performance.now();
  await graph(saver).invoke({ count: 0 }, config);
  const run = performance.now() - t;
  saver.put = put;
  const gets = [];
  const lists = [];
  for (let r = 0; r < reps; r++) {
    t = performance.now();
    const head = await saver.getTuple(config);
    gets.push(performance.now() - t);
    if (head.checkpoint.channel_values.trail.length !== 2 * iterations - 1) throw new Error("unexpected head");
    t = performance.now();
    let items = 0;
    for await (const tuple of saver.list(config, { limit: 10 })) items += tuple.checkpoint.channel_values.trail?.length ?? 0;
    lists.push(performance.now() - t);
    if (items === 0) throw new Error("nothing listed");
  }
  return { run, puts: puts.length, put: median(puts), put95: quantile(puts, 0.95), get: median(gets), list: median(lists), bytes: await bytes() };
}

const sqliteBytes = (path) => () => [path, `${path}-wal`, `${path}-shm`].reduce((n, p) => n + (existsSync(p) ? statSync(p).size : 0), 0);
const pgBytes = (saver, schema) => async () => {
  const { rows } = await saver.pool.query(
    "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = $1 AND c.relkind = 'r'",
    [schema],
  );
  return Number(rows[0].n);
};

const dir = mkdtempSync(join(tmpdir(), "chronograph-w1-"));
const pg = startPostgres();
let opened = 0;
const savers = [
  ["LangGraph.js SqliteSaver", async () => {
    const path = join(dir, `lg${(opened += 1)}.sqlite`);
    const s = LangGraphSqliteSaver.fromConnString(path);
    return { saver: s, bytes: sqliteBytes(path), close: () => s.db.close() };
  }],
  ["chronograph SqliteSaver", async () => {
    const path = join(dir, `cg${(opened += 1)}.sqlite`);
    const s = SqliteSaver.fromConnString(path);
    return { saver: s, bytes: sqliteBytes(path), close: () => s.db.close() };
  }],
];
if (pg) {
  savers.push(
    ["LangGraph.js PostgresSaver", async () => {
      const schema = `lg${(opened += 1)}`;
      const s = LangGraphPostgresSaver.fromConnString(pg.url, { schema });
      await s.setup();
      return { saver: s, bytes: pgBytes(s, schema), close: () => endSaver(s) };
    }],
    ["chronograph PostgresSaver", async () => {
      const schema = `cg${(opened += 1)}`;
      const s = PostgresSaver.fromConnString(pg.url, { schema });
      await s.setup();
      return { saver: s, bytes: pgBytes(s, schema), close: () => endSaver(s) };
    }],
  );
} else console.log("PostgreSQL is not installed: the PostgreSQL savers are skipped");

const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
try {
  const results = savers.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (const [i, [name, open]] of savers.entries()) {
      const { saver, bytes, close } = await open();
      const x = await measure(saver, "w1", bytes);
      await close();
      results[i].push(x);
      console.error(`${name}: run ${(x.run / 1000).toFixed(1)} s, ${x.puts} puts, put ${x.put.toFixed(2)} ms (p95 ${x.put95.toFixed(2)}), getTuple ${x.get.toFixed(1)} ms, list(limit 10) ${x.list.toFixed(1)} ms, ${mb(x.bytes)}`);
    }
  }
  console.log(`W1, ${iterations} iterations, ${rounds} round(s); medians over rounds`);
  console.log("| saver | whole run | put (median / p95) | getTuple (head) | list (limit 10, values read) | bytes on disk |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const [i, [name]] of savers.entries()) {
    const x = results[i];
    const m = (k) => median(x.map((y) => y[k]));
    console.log(`| ${name} | ${(m("run") / 1000).toFixed(1)} s | ${m("put").toFixed(2)} / ${m("put95").toFixed(2)} ms | ${m("get").toFixed(1)} ms | ${m("list").toFixed(1)} ms | ${mb(m("bytes"))} |`);
  }
} finally {
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
}
