// JS reducers the engine computes natively (issue 11's Annotation.Root speed):
// `(a, b) => a.concat(b)` and `(a, b) => a + b`, recognised by their source
// (npm/src/state.ts TWINS, core/wasm/src/node.rs native_twin). The results must be
// LangGraph.js's exactly, for every kind of update, including those the twin leaves
// to the JS function (a string to concat onto, strings to add).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as cg from "chronograph";
import * as lg from "@langchain/langgraph";

/* eslint-disable prefer-arrow-callback */
const REDUCERS = {
  "arrow concat": (a, b) => a.concat(b),
  "spaced arrow concat": (x, y) => x.concat( y ),
  "function concat": function (left, right) { return left.concat(right); },
  "arrow add": (a, b) => a + b,
  "not a twin": (a, b) => b.concat(a),
};

/** Writes `updates` one superstep each into channel `v` (default `start`) and returns the values after each. */
async function run(engine, reducer, start, updates) {
  const { Annotation, StateGraph, MemorySaver, START, END } = engine;
  const State = Annotation.Root({ v: Annotation({ reducer, default: () => start }), i: Annotation() });
  const graph = new StateGraph(State)
    .addNode("write", (s) => ({ v: updates[s.i ?? 0], i: (s.i ?? 0) + 1 }))
    .addEdge(START, "write")
    .addConditionalEdges("write", (s) => (s.i < updates.length ? "write" : END))
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "t" } };
  const out = await graph.invoke({ i: 0 }, config).catch((e) => ({ error: e.message }));
  const history = [];
  for await (const s of graph.getStateHistory(config)) history.push(s.values);
  return { out, history };
}

const CASES = [
  ["lists of items", [], [[1], [2, [3]], [{ k: 4 }]]],
  ["single items", [], [1, "two", { three: 3 }, null]],
  ["a string default (JS string concat)", "ab", ["c", ["d"]]],
  ["numbers", 0, [1, 2.5, 0.1, 0.2, -4]],
  ["strings", "", ["a", "b"]],
];

for (const [name, reducer] of Object.entries(REDUCERS)) {
  for (const [what, start, updates] of CASES) {
    test(`${name} over ${what} gives LangGraph.js's values`, async () => {
      const mine = await run(cg, reducer, start, updates);
      const theirs = await run(lg, reducer, start, updates);
      assert.deepEqual(mine.out, theirs.out);
      assert.deepEqual(mine.history, theirs.history);
    });
  }
}

test("a recognised concat reducer over a list is folded by the engine, not called", async () => {
  const seen = [];
  const concat = Array.prototype.concat;
  // Counts calls of concat on the channel's own list (it holds the marker).
  Array.prototype.concat = function (...args) {
    if (Array.isArray(this) && this.includes("marker")) seen.push(args);
    return concat.apply(this, args);
  };
  try {
    const twin = await run(cg, (a, b) => a.concat(b), ["marker"], [[1], [2], [3]]);
    assert.deepEqual(twin.out.v, ["marker", 1, 2, 3]);
    assert.equal(seen.length, 0, "the engine folded every write");
    // The control: a reducer that is not a twin is called for each write.
    await run(cg, (a, b) => [].concat(a).concat(b), ["marker"], [[1], [2], [3]]);
    assert.ok(seen.length >= 3, `a plain JS reducer is called (${seen.length} calls)`);
  } finally {
    Array.prototype.concat = concat;
  }
});
