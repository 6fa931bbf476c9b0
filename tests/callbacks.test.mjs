// LangChain callback handlers in a run's config.callbacks see the graph's
// run as one chain run, as LangGraph.js reports it (nodes' runs are not
// reported).
import assert from "node:assert/strict";
import { test } from "node:test";
import { BaseTracer } from "@langchain/core/tracers/base";
import { Annotation, START, StateGraph, interrupt } from "chronograph";

class Tracer extends BaseTracer {
  name = "test_tracer";
  runs = [];
  async persistRun(run) {
    this.runs.push(run);
  }
}

const State = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });

test("a tracer sees a run that fails as one chain run with its error", async () => {
  const graph = new StateGraph(State).addNode("ask", () => ({ log: [interrupt("q?")] })).addEdge(START, "ask").compile();
  const tracer = new Tracer();
  await assert.rejects(graph.invoke({ log: [] }, { callbacks: [tracer] }), /No checkpointer set/);
  assert.equal(tracer.runs.length, 1);
  const [run] = tracer.runs;
  assert.equal(run.run_type, "chain");
  assert.deepEqual(run.inputs, { log: [] });
  assert.match(run.error, /No checkpointer set/);
  assert.equal(run.outputs, undefined);
  assert.ok(run.end_time);
});

test("handleChainEnd gets the run's output; a handler that ignores chains is not called", async () => {
  const graph = new StateGraph(State).addNode("a", () => ({ log: ["a"] })).addEdge(START, "a").compile();
  const seen = [];
  const out = await graph.invoke(
    { log: [] },
    { callbacks: [{ handleChainEnd: (outputs) => seen.push(outputs) }, { ignoreChain: true, handleChainEnd: () => seen.push("ignored") }] },
  );
  assert.deepEqual(out, { log: ["a"] });
  assert.deepEqual(seen, [{ log: ["a"] }]);
});
