// The compatibility suite of issue 11 (tests/compat/): every program and every ported
// LangGraph.js test runs on @langchain/langgraph and on chronograph, one test each.
// A case passes when the two engines agree, or when it differs and is listed in
// tests/compat/known-differences.json. It fails when it differs unlisted (the diff is
// printed), when a listed case now matches (remove it from the list), when a program or port
// fails on LangGraph.js itself, or when the list names a case that does not exist.
// Details of one case: node tests/compat/run.mjs --diff <part of its id>

import { test } from "node:test";
import { loadCases, loadKnown } from "./compat/cases.mjs";

const { cases } = await loadCases();
const known = loadKnown().cases ?? {};

for (const c of cases) {
  test(c.id, async (t) => {
    const r = await c.evaluate();
    if (r.status === "invalid") throw new Error(`${c.file}: ${r.reason}`);
    if (r.status === "skipped") return t.skip(r.reason);
    if (r.status === "match" && c.id in known) {
      throw new Error(`${c.id} now matches LangGraph.js: remove it from tests/compat/known-differences.json`);
    }
    if (r.status === "differs" && !(c.id in known)) {
      throw new Error(`${c.id} differs from LangGraph.js: ${r.reason}\n${r.diff ?? ""}\n(if expected for now: node tests/compat/run.mjs --write-known --status)`);
    }
    if (r.status === "differs") t.diagnostic(`known difference: ${r.reason}`);
  });
}

test("known-differences.json names only existing cases", () => {
  const ids = new Set(cases.map((c) => c.id));
  const stale = Object.keys(known).filter((id) => !ids.has(id));
  if (stale.length) throw new Error(`unknown cases in tests/compat/known-differences.json:\n${stale.join("\n")}`);
});
