// Ten W1 runs (4,001 checkpoints, spec nodes) in a row in one process,
// each on a new MemorySaver and graph, with no forced collection: shows
// whether dropped graphs that wait for their finalizers slow later runs.
// Usage: node bench/pileup.mjs [--pkg DIR]   (default: ../pkg)
import { argv } from "node:process";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import * as W from "./workloads.mjs";

const at = argv.indexOf("--pkg");
const pkg = resolve(at > 0 ? argv[at + 1] : new URL("../pkg", import.meta.url).pathname);
const cg = await import(pathToFileURL(resolve(pkg, "node.js")).href);
const N = 2000;
for (let run = 0; run < 10; run++) {
  const graph = cg.StateGraph.fromSpec(W.w1Spec(N)).compile({ checkpointer: new cg.MemorySaver() });
  const t = performance.now();
  await graph.invoke(W.w1Input(), { configurable: { thread_id: "pileup" } });
  const us = ((performance.now() - t) * 1000) / W.w1Supersteps(N);
  console.log(`run ${run}: ${us.toFixed(1)} µs per superstep`);
}
