// LangChain callback handlers in a run's config.callbacks see the graph's
// run as a chain run and each task as a chain run nested in it, as
// LangGraph.js reports them (npm/test/compat/programs/41-45 compare the
// events of streamEvents, made of the same runs, with LangGraph.js's).
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
  // Its tasks' runs: `__start__` (hidden), then the node that failed.
  assert.deepEqual(
    run.child_runs.map((r) => [r.name, r.tags, r.extra.metadata.langgraph_step, r.error === undefined]),
    [
      ["__start__", ["graph:step:0", "langsmith:hidden"], 0, true],
      ["ask", ["graph:step:1"], 1, false],
    ],
  );
});

test("handleChainEnd gets each task's output, then the run's; a handler that ignores chains is not called", async () => {
  const graph = new StateGraph(State).addNode("a", () => ({ log: ["a"] })).addEdge(START, "a").compile();
  const seen = [];
  const out = await graph.invoke(
    { log: [] },
    { callbacks: [{ handleChainEnd: (outputs) => seen.push(outputs) }, { ignoreChain: true, handleChainEnd: () => seen.push("ignored") }] },
  );
  assert.deepEqual(out, { log: ["a"] });
  // `__start__`'s (the input), node a's (its update), the run's (its state), as in LangGraph.js.
  assert.deepEqual(seen, [{ log: [] }, { log: ["a"] }, { log: ["a"] }]);
});
