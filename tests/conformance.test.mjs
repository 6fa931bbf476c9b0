// Every conformance scenario, re-expressed with JavaScript node functions and
// run on the npm package, gives the trace LangGraph (Python) produced
// (tests/conformance/expected/), error texts mapped by semantics.md §14.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { compareTraces, runScenario, toPythonTexts } from "./conformance/run.mjs";

const dir = new URL("./conformance/", import.meta.url);
const names = readdirSync(new URL("scenarios/", dir))
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.slice(0, -5))
  .sort();
const load = (sub, name) => JSON.parse(readFileSync(new URL(`${sub}/${name}.json`, dir), "utf8"));

test("there are six conformance scenarios", () => {
  assert.deepEqual(names, ["docs_foo_bar", "errors_basic", "loop_router", "parallel_fanout", "seed_ab", "seed_booking"]);
});

for (const [mode, options] of [
  ["sync JS nodes", {}],
  ["async JS nodes and routers", { async: true }],
  ["StateGraph.fromSpec", { fromSpec: true }],
]) {
  for (const name of names) {
    test(`${name} (${mode}) matches LangGraph's trace`, async () => {
      const actual = toPythonTexts(await runScenario(load("scenarios", name), options));
      const diff = compareTraces(load("expected", name), actual);
      assert.equal(diff, null, diff ?? "");
    });
  }
}

test("the JS trace carries LangGraph.js's error texts", async () => {
  const { trace } = await runScenario(load("scenarios", "errors_basic"));
  const errors = trace.map((r) => r.error).filter(Boolean);
  assert.deepEqual(errors, [
    'InvalidUpdateError: Ambiguous update, specify "asNode"',
    'InvalidUpdateError: Node "missing" does not exist',
  ]);
});
