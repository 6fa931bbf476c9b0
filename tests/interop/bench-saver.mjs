// LangGraph.js on chronograph/langgraph's MemorySaver against LangGraph.js on
// its own MemorySaver, workload W1 of bench/ (an agent-tool loop: `count`
// last-value, `trail` appended to; 2,000 iterations = 4,001 checkpoints in
// one thread). Times the whole run and one `list` of the thread, best of
// RUNS (default 3). With PG=<iterations>, also W1 on a throwaway PostgreSQL
// server (postgres.mjs): Chronograph's engine on LangGraph.js's PostgresSaver
// against LangGraph.js on the same saver, per superstep. Results in BENCHMARKS.md.
//   (cd tests/interop && PG=200 node --expose-gc bench-saver.mjs [iterations])
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { MemorySaver as LangGraphMemorySaver } from "@langchain/langgraph-checkpoint";
import { MemorySaver } from "chronograph/langgraph";
import * as chronograph from "chronograph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { startPostgres } from "./postgres.mjs";

const iterations = Number(process.argv[2] ?? 2000);
const runs = Number(process.env.RUNS ?? 3);
const State = Annotation.Root({
  count: Annotation({ reducer: (_, b) => b, default: () => 0 }),
  trail: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

function graph(checkpointer) {
  return new StateGraph(State)
    .addNode("agent", (s) => ({ count: s.count + 1, trail: ["agent"] }))
    .addNode("tool", () => ({ trail: ["tool"] }))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (s) => (s.count < iterations ? "tool" : END), ["tool", END])
    .addEdge("tool", "agent")
    .compile({ checkpointer });
}

async function measure(name, makeSaver) {
  let best = { run: Infinity, list: Infinity, count: 0 };
  for (let r = 0; r < runs; r++) {
    globalThis.gc?.();
    const saver = makeSaver();
    const g = graph(saver);
    const config = { configurable: { thread_id: "w1" }, recursionLimit: 10 * iterations };
    let t = performance.now();
    await g.invoke({ count: 0 }, config);
    const run = performance.now() - t;
    t = performance.now();
    let count = 0;
    for await (const _ of saver.list({ configurable: { thread_id: "w1" } })) count++;
    const list = performance.now() - t;
    best = { run: Math.min(best.run, run), list: Math.min(best.list, list), count };
  }
  console.log(`${name.padEnd(36)} run ${best.run.toFixed(0).padStart(7)} ms   list of ${best.count} ${best.list.toFixed(1).padStart(8)} ms`);
  return best;
}

const theirs = await measure("LangGraph.js MemorySaver", () => new LangGraphMemorySaver());
const ours = await measure("chronograph/langgraph MemorySaver", () => new MemorySaver());
console.log(`speed-up: run ${(theirs.run / ours.run).toFixed(2)}x, list ${(theirs.list / ours.list).toFixed(1)}x`);

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
      const time = async (name, g, thread) => {
        const t = performance.now();
        await g.invoke({ count: 0 }, { configurable: { thread_id: thread }, recursionLimit: 10 * n });
        const ms = performance.now() - t;
        console.log(`${name.padEnd(36)} W1 ${n} iterations on PostgresSaver: ${ms.toFixed(0)} ms, ${(ms / supersteps).toFixed(2)} ms per superstep`);
        return ms;
      };
      const lg = await time("LangGraph.js", lgGraph, "pg-lg");
      const cg = await time("Chronograph", cgGraph, "pg-cg");
      console.log(`speed-up on PostgresSaver: ${(lg / cg).toFixed(2)}x`);
      await saver.end();
    } finally {
      pg.stop();
    }
  }
}
