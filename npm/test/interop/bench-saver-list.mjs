// `list` on a 1,000-turn chat thread, on chronograph/langgraph's SqliteSaver
// and PostgresSaver, for two or more builds of the package side by side in
// one process (each a copy of pkg/ in node_modules, named on the command
// line; the first is usually a build from before a change). The thread is
// the chat of issue 28 put directly (no graph: a run of 1,000 turns takes
// minutes), three checkpoints a turn as LangGraph.js's loop puts them (the
// input, the step that appends the question, the reply), messages as
// LangChain's classes, through each saver's default serializer. Per build
// and backend, RUNS reps (default 5), builds alternating within each rep,
// medians (and ranges) of:
//   list (limit 10), metadata only      what a history view's first page reads
//   list (limit 10), every value read   the same, reading `channel_values`
//   getTuple of the head                 for scale (decoded eagerly in every build)
// Not part of ./dev test; results in BENCHMARKS.md.
//   (cd npm/test/interop && node bench-saver-list.mjs chronograph-before chronograph [turns])
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { uuid6 } from "@langchain/langgraph-checkpoint";
import { endSaver, startPostgres } from "./postgres.mjs";

const builds = process.argv.slice(2).filter((a) => !/^\d+$/.test(a));
const turns = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 1000);
const runs = Number(process.env.RUNS ?? 5);
if (builds.length === 0) throw new Error("usage: node bench-saver-list.mjs BUILD... [turns] (BUILD: a copy of pkg/ in node_modules, e.g. chronograph)");
const modules = await Promise.all(builds.map((b) => import(b + "/langgraph")));

/** Puts the chat's `turns` turns into `saver` on thread "chat": three checkpoints a turn. */
async function fill(saver) {
  let config = { configurable: { thread_id: "chat", checkpoint_ns: "" } };
  let messages = [];
  let version = 0;
  const versions = {};
  const put = async (values, changed, source, step) => {
    for (const c of changed) {
      version = saver.getNextVersion(version);
      versions[c] = version;
    }
    const checkpoint = { v: 4, id: uuid6(-1), ts: new Date().toISOString(), channel_values: values, channel_versions: { ...versions }, versions_seen: {} };
    config = await saver.put(config, checkpoint, { source, step, parents: {} }, Object.fromEntries(changed.map((c) => [c, versions[c]])));
  };
  for (let i = 0; i < turns; i++) {
    const question = new HumanMessage({ content: `${i}`.padEnd(200, "q"), id: `h${i}` });
    await put({ messages, __start__: { messages: [question] } }, ["__start__"], "input", 3 * i - 1);
    messages = [...messages, question];
    await put({ messages, "branch:to:reply": null }, ["messages", "branch:to:reply"], "loop", 3 * i);
    messages = [...messages, new AIMessage({ content: `${messages.length}`.padEnd(200, "r"), id: `a${i}` })];
    await put({ messages }, ["messages"], "loop", 3 * i + 1);
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (xs) => `${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

/** One rep of the three measures on `saver`. */
async function measure(saver) {
  const thread = { configurable: { thread_id: "chat" } };
  let t = performance.now();
  let n = 0;
  for await (const tuple of saver.list(thread, { limit: 10 })) if (tuple.metadata.source) n++;
  const meta = performance.now() - t;
  t = performance.now();
  let items = 0;
  for await (const tuple of saver.list(thread, { limit: 10 })) items += tuple.checkpoint.channel_values.messages?.length ?? 0;
  const values = performance.now() - t;
  t = performance.now();
  const head = await saver.getTuple(thread);
  const get = performance.now() - t;
  if (n !== 10 || head.checkpoint.channel_values.messages.length !== 2 * turns) throw new Error(`unexpected thread: ${n} tuples`);
  return { meta, values, get, items };
}

async function bench(backend, open) {
  const savers = [];
  for (const m of modules) savers.push(await open(m));
  // One thread, written once by the last build; the others read it (the stored format is the same).
  const t = performance.now();
  await fill(savers.at(-1));
  console.log(`${backend}: ${turns} turns put in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const results = builds.map(() => ({ meta: [], values: [], get: [] }));
  for (let r = 0; r < runs; r++) {
    const order = r % 2 ? [...builds.keys()].reverse() : [...builds.keys()];
    for (const i of order) {
      const x = await measure(savers[i]);
      for (const k of ["meta", "values", "get"]) results[i][k].push(x[k]);
    }
  }
  for (const [i, b] of builds.entries()) {
    const x = results[i];
    console.log(`  ${b.padEnd(22)} list(limit 10) metadata ${fmt(x.meta)}   list(limit 10) values ${fmt(x.values)}   getTuple ${fmt(x.get)}`);
  }
  return savers;
}

const dir = mkdtempSync(join(tmpdir(), "chronograph-list-"));
try {
  const path = join(dir, "chat.sqlite");
  const savers = await bench("SqliteSaver", (m) => m.SqliteSaver.fromConnString(path));
  for (const s of savers) s.db.close();
  const pg = startPostgres();
  if (pg === null) console.log("PostgreSQL is not installed: PostgresSaver skipped");
  else {
    try {
      const pgSavers = await bench("PostgresSaver", async (m) => {
        const s = m.PostgresSaver.fromConnString(pg.url, { schema: "bench" });
        await s.setup();
        return s;
      });
      for (const s of pgSavers) await endSaver(s);
    } finally {
      pg.stop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
