// Every conformance scenario (tests/conformance/scenarios/ and random/scenarios/),
// re-expressed with JavaScript node functions (sync and async), subgraphs as compiled
// JS graphs, Send fan-outs and Command-returning nodes, and once more from
// StateGraph.fromSpec, run on the npm package, gives the trace LangGraph (Python)
// produced (expected/), error texts mapped by semantics.md §14; and the Overwrite and
// UntrackedValue scenarios of extensions/.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { buildGraph, compareTraces, runScenario, toPythonTexts } from "./conformance/run.mjs";

const root = new URL("../../tests/conformance/", import.meta.url);
const folders = ["", "random/"].map((sub) => new URL(sub, root));
const names = (dir) =>
  readdirSync(new URL("scenarios/", dir))
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5))
    .sort();
const load = (dir, sub, name) => JSON.parse(readFileSync(new URL(`${sub}/${name}.json`, dir), "utf8"));

/**
 * Scenarios whose expected trace the engine does not reproduce, natively
 * either (`cargo test --test conformance`): run and reported as TODO, not
 * failed.
 */
const KNOWN_ENGINE_DIFFERENCES = {};

test("every scenario has an expected trace, and there are the 11 public and 40 random ones", () => {
  const counts = folders.map((dir) => {
    const list = names(dir);
    for (const name of list) assert.ok(existsSync(new URL(`expected/${name}.json`, dir)), `no expected trace for ${name}`);
    const expected = readdirSync(new URL("expected/", dir)).filter((f) => f.endsWith(".json"));
    assert.equal(expected.length, list.length, `${dir.pathname}: expected traces without a scenario`);
    return list.length;
  });
  assert.deepEqual(counts, [11, 40]);
});

for (const [mode, options] of [
  ["sync JS nodes", {}],
  ["async JS nodes and routers", { async: true }],
  ["StateGraph.fromSpec", { fromSpec: true }],
]) {
  for (const dir of folders) {
    for (const name of names(dir)) {
      const todo = KNOWN_ENGINE_DIFFERENCES[name];
      test(`${name} (${mode}) matches LangGraph's trace`, { todo }, async () => {
        const actual = toPythonTexts(await runScenario(load(dir, "scenarios", name), options));
        const diff = compareTraces(load(dir, "expected", name), actual);
        assert.equal(diff, null, diff ?? "");
      });
    }
  }
}

// The Overwrite and UntrackedValue scenarios of extensions/ (extensions/FORMAT.md), with JS nodes.
const extensions = new URL("extensions/", root);
for (const name of names(extensions).filter((n) => n.startsWith("overwrite_") || n.startsWith("untracked_"))) {
  for (const [mode, options] of [
    ["sync JS nodes", {}],
    ["async JS nodes and routers", { async: true }],
  ]) {
    test(`extensions/${name} (${mode}) matches LangGraph's trace`, async () => {
      const actual = toPythonTexts(await runScenario(load(extensions, "scenarios", name), options));
      const diff = compareTraces(load(extensions, "expected", name), actual);
      assert.equal(diff, null, diff ?? "");
    });
  }
}

test("the JS trace carries LangGraph.js's error texts", async () => {
  const { trace } = await runScenario(load(root, "scenarios", "errors_basic"));
  const errors = trace.map((r) => r.error).filter(Boolean);
  assert.deepEqual(errors, [
    'InvalidUpdateError: Ambiguous update, specify "asNode"',
    'InvalidUpdateError: Node "missing" does not exist',
  ]);
});

test("StateGraph.fromSpec registers nodes in the document's order, not sorted", async () => {
  const spec = {
    channels: { log: { reducer: "append" } },
    nodes: { zeta: { writes: [{ set: { log: ["zeta"] } }] }, alpha: { writes: [{ set: { log: ["alpha"] } }] } },
    edges: [
      ["__start__", "alpha"],
      ["__start__", "zeta"],
    ],
  };
  const { graph } = buildGraph(spec, { fromSpec: true });
  const cfg = { configurable: { thread_id: "order" } };
  await graph.invoke({ log: [] }, cfg);
  const history = [];
  for await (const s of graph.getStateHistory(cfg)) history.push(s);
  // c1, after __start__: both nodes scheduled, in registration order.
  assert.deepEqual(history.at(-2).next, ["zeta", "alpha"]);
});
