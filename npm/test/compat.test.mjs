// The compatibility suite of issue 11 (npm/test/compat/): every program and every ported
// LangGraph.js test runs on @langchain/langgraph and on chronograph, one test each.
// A case passes when the two engines agree, or when it differs and is listed in
// npm/test/compat/known-differences.json. It fails when it differs unlisted (the diff is
// printed), when a listed case now matches (remove it from the list), when a ported test fails
// on LangGraph.js itself, or when the list names a case that does not exist.
// Details of one case: node npm/test/compat/run.mjs --diff <part of its id>

import { test } from "node:test";
import assert from "node:assert/strict";
import { loadCases, loadKnown } from "./compat/cases.mjs";
import { normalize, compareRuns } from "./compat/harness.mjs";

const { cases } = await loadCases();
const known = loadKnown().cases ?? {};

for (const c of cases) {
  test(c.id, async (t) => {
    const r = await c.evaluate();
    if (r.status === "invalid") throw new Error(`${c.file}: ${r.reason}`);
    if (r.status === "skipped") return t.skip(r.reason);
    if (r.status === "match" && c.id in known) {
      throw new Error(`${c.id} now matches LangGraph.js: remove it from npm/test/compat/known-differences.json`);
    }
    if (r.status === "differs" && !(c.id in known)) {
      throw new Error(`${c.id} differs from LangGraph.js: ${r.reason}\n${r.diff ?? ""}\n(if expected for now: node npm/test/compat/run.mjs --write-known --status)`);
    }
    if (r.status === "differs") t.diagnostic(`known difference: ${r.reason}`);
  });
}

test("known-differences.json names only existing cases", () => {
  const ids = new Set(cases.map((c) => c.id));
  const stale = Object.keys(known).filter((id) => !ids.has(id));
  if (stale.length) throw new Error(`unknown cases in npm/test/compat/known-differences.json:\n${stale.join("\n")}`);
});

test("harness: normalization replaces generated ids and JS timestamps only", () => {
  const a = "1f0c1a2b-3c4d-6e5f-8000-0123456789ab";
  const b = "c57d31cc-34ce-59e9-9271-fce038826d41";
  const v = {
    config: { configurable: { checkpoint_id: a, checkpoint_ns: `node:${b}` } },
    parentConfig: { configurable: { checkpoint_id: b } },
    interrupt: { id: "942573d961b07e7a2a41c91e9744f9ed", value: "id 123 stays" },
    createdAt: "2026-12-01T01:49:06.715Z",
    other: "2026-12-01T01:49:06.715000+00:00",
    [b]: 1,
    n: 42,
  };
  // (numbered in sorted-key order: the key `b` comes first, then config's `a`, then the interrupt id)
  assert.deepEqual(normalize(v), {
    config: { configurable: { checkpoint_id: "<id2>", checkpoint_ns: "node:<id1>" } },
    parentConfig: { configurable: { checkpoint_id: "<id1>" } },
    interrupt: { id: "<id3>", value: "id 123 stays" },
    createdAt: "<ts>",
    other: "2026-12-01T01:49:06.715000+00:00",
    "<id1>": 1,
    n: 42,
  });
  // Which ids are equal is compared; their values are not.
  const run = (x, y) => ({ entries: [{ label: "ids", value: [x, y] }] });
  assert.equal(compareRuns(run(a, a), run(b, b)).same, true);
  assert.equal(compareRuns(run(a, b), run(b, b)).same, false);
  // Key order and classes are compared.
  assert.equal(compareRuns({ entries: [{ label: "o", value: { x: 1, y: 2 } }] }, { entries: [{ label: "o", value: { y: 2, x: 1 } }] }).same, false);
});
