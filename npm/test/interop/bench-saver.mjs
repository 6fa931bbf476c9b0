// LangGraph.js on chronograph/langgraph's MemorySaver against LangGraph.js on
// its own MemorySaver, workload W1 of bench/ (an agent-tool loop: `count`
// last-value, `trail` appended to; 2,000 iterations = 4,001 checkpoints in
// one thread). Times, per saver, the whole run, one `list` of the thread
// (what a listing for metadata costs: nothing else read) and one `list`
// that reads every tuple's `checkpoint.channel_values` (what a reader of
// every value pays), RUNS reps each (default 3), saver blocks alternating;
// prints medians (and the range). With PG=<iterations>, also W1 on a
// throwaway PostgreSQL server (postgres.mjs): Chronograph's engine on
// LangGraph.js's PostgresSaver against LangGraph.js on the same saver, per
// superstep, PG_REPS reps (default 5) alternating, medians (wall and
// process CPU). Results in BENCHMARKS.md.
//   (cd npm/test/interop && RUNS=3 PG=200 node --expose-gc bench-saver.mjs [iterations])
import { MemorySaver as LangGraphMemorySaver } from "@langchain/langgraph-checkpoint";
import { MemorySaver } from "chronograph/langgraph";
import * as chronograph from "chronograph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { startPostgres } from "./postgres.mjs";
import { w1Graph } from "./w1-graph.mjs";

const iterations = Number(process.argv[2] ?? 2000);
const runs = Number(process.env.RUNS ?? 3);
const graph = (checkpointer) => w1Graph(checkpointer, iterations);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const range = (xs) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;

/**
 * A full collection, then a turn of the event loop and another: a dropped
 * chronograph store frees its wasm memory only when V8 runs its finalizer
 * (after the collection, on a later turn). Without the turn, the dead
 * stores of earlier reps pile up in wasm memory and each rep runs slower
 * than the last, with either version of the saver (W1 at 2,000: 35 s, then
 * 80 s, then 100 s in one process).
 */
async function settle() {
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 100));
  globalThis.gc?.();
}

async function once(makeSaver) {
  await settle();
  const saver = makeSaver();
  const g = graph(saver);
  const config = { configurable: { thread_id: "w1" }, recursionLimit: 10 * iterations };
  let t = performance.now();
  await g.invoke({ count: 0 }, config);
  const run = performance.now() - t;
  globalThis.gc?.();
  t = performance.now();
  let count = 0;
  for await (const _ of saver.list({ configurable: { thread_id: "w1" } })) count++;
  const list = performance.now() - t;
  globalThis.gc?.();
  t = performance.now();
  let items = 0;
  for await (const tuple of saver.list({ configurable: { thread_id: "w1" } })) items += tuple.checkpoint.channel_values.trail?.length ?? 0;
  const listValues = performance.now() - t;
  return { run, list, listValues, count, items };
}

const savers = [
  ["LangGraph.js MemorySaver", () => new LangGraphMemorySaver()],
  ["chronograph/langgraph MemorySaver", () => new MemorySaver()],
];
const results = savers.map(() => ({ run: [], list: [], listValues: [], count: 0, items: 0 }));
for (let r = 0; r < runs; r++) {
  for (let i = 0; i < savers.length; i++) {
    const one = await once(savers[i][1]);
    for (const k of ["run", "list", "listValues"]) results[i][k].push(one[k]);
    results[i].count = one.count;
    results[i].items = one.items;
  }
}
for (let i = 0; i < savers.length; i++) {
  const x = results[i];
  console.log(
    `${savers[i][0].padEnd(36)} run ${median(x.run).toFixed(0).padStart(7)} ms (${range(x.run)})   ` +
      `list of ${x.count} ${median(x.list).toFixed(1).padStart(8)} ms (${range(x.list)})   ` +
      `list reading every value (${x.items} items) ${median(x.listValues).toFixed(1).padStart(8)} ms (${range(x.listValues)})`,
  );
}
const [theirs, ours] = results;
console.log(
  `speed-up (medians): run ${(median(theirs.run) / median(ours.run)).toFixed(2)}x, list ${(median(theirs.list) / median(ours.list)).toFixed(1)}x, ` +
    `list reading every value ${(median(theirs.listValues) / median(ours.listValues)).toFixed(1)}x`,
);

if (process.env.PG) {
  const n = Number(process.env.PG);
  const pg = startPostgres();
  if (!pg) {
    console.log("PostgreSQL is not installed: skipping the PostgresSaver comparison");
  } else {
    try {
      const saver = PostgresSaver.fromConnString(pg.url);
      await saver.setup();
      const supersteps = 2 * n;
      const lgGraph = new StateGraph(State)
        .addNode("agent", (s) => ({ count: s.count + 1, trail: ["agent"] }))
        .addNode("tool", () => ({ trail: ["tool"] }))
        .addEdge(START, "agent")
        .addConditionalEdges("agent", (s) => (s.count < n ? "tool" : END), ["tool", END])
        .addEdge("tool", "agent")
        .compile({ checkpointer: saver });
      const cgGraph = new chronograph.StateGraph({ count: "last_value", trail: "append" })
        .addNode("agent", (s) => ({ count: s.count + 1, trail: ["agent"] }))
        .addNode("tool", () => ({ trail: ["tool"] }))
        .addEdge(chronograph.START, "agent")
        .addConditionalEdges("agent", (s) => (s.count < n ? "tool" : chronograph.END))
        .addEdge("tool", "agent")
        .compile({ checkpointer: saver });
      const time = async (g, thread) => {
        const cpu = process.cpuUsage();
        const t = performance.now();
        await g.invoke({ count: 0 }, { configurable: { thread_id: thread }, recursionLimit: 10 * n });
        const ms = performance.now() - t;
        const used = process.cpuUsage(cpu);
        return { wall: ms / supersteps, cpu: (used.user + used.system) / 1000 / supersteps };
      };
      // One untimed run each (JIT, connections), then reps alternating, each on a new thread.
      await time(lgGraph, "pg-warm-lg");
      await time(cgGraph, "pg-warm-cg");
      const reps = Number(process.env.PG_REPS ?? 5);
      const lg = { wall: [], cpu: [] };
      const cg = { wall: [], cpu: [] };
      for (let r = 0; r < reps; r++) {
        for (const [g, into, name] of r % 2 ? [[cgGraph, cg, "cg"], [lgGraph, lg, "lg"]] : [[lgGraph, lg, "lg"], [cgGraph, cg, "cg"]]) {
          const x = await time(g, `pg-${name}-${r}`);
          into.wall.push(x.wall);
          into.cpu.push(x.cpu);
        }
      }
      const fmt = (xs) => `${median(xs).toFixed(2)} ms (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
      console.log(`W1 ${n} iterations (${supersteps} supersteps) on PostgresSaver, ${reps} reps, per superstep, medians:`);
      console.log(`  ${"LangGraph.js".padEnd(14)} wall ${fmt(lg.wall)}   process CPU ${fmt(lg.cpu)}`);
      console.log(`  ${"Chronograph".padEnd(14)} wall ${fmt(cg.wall)}   process CPU ${fmt(cg.cpu)}`);
      console.log(`speed-up on PostgresSaver (medians): wall ${(median(lg.wall) / median(cg.wall)).toFixed(2)}x, CPU ${(median(lg.cpu) / median(cg.cpu)).toFixed(2)}x`);
      await saver.end();
    } finally {
      pg.stop();
    }
  }
}
