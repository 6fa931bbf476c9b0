// Enumerates the compatibility cases (programs/*.mjs, ported/*.mjs) and evaluates one case on
// both engines. Used by npm/test/compat.test.mjs (node --test) and npm/test/compat/run.mjs (CLI).

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, basename } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadEngines, runProgram, compareRuns, runAssertions } from "./harness.mjs";
import { collect } from "./expect.mjs";

export const HERE = dirname(fileURLToPath(import.meta.url));
export const KNOWN_FILE = join(HERE, "known-differences.json");
export const FAILS_ON_LANGGRAPH_FILE = join(HERE, "ported", "fails-on-langgraph.json");

const mjs = (dir) =>
  readdirSync(join(HERE, dir))
    .filter((f) => f.endsWith(".mjs") && !f.startsWith("_"))
    .sort();

/** Every case: { id, kind: "program"|"ported", file, title, evaluate() }. */
export async function loadCases() {
  const engines = await loadEngines();
  const cases = [];
  for (const f of mjs("programs")) {
    const mod = await import(pathToFileURL(join(HERE, "programs", f)).href);
    const id = `programs/${basename(f, ".mjs")}`;
    cases.push({
      id,
      kind: "program",
      file: `programs/${f}`,
      title: mod.title ?? "",
      evaluate: () => evaluateProgram(mod.default ?? mod.run ?? mod.program, engines),
    });
  }
  // The ported tests import some names from LangGraph.js's internal modules that its main entry
  // does not export (LastValue, Pregel, Channel, ToolNode, ...): on LangGraph.js they come from
  // its public subpaths; chronograph is given its main entry and its own subpaths of the same names.
  const langgraphFull = { ...engines.langgraph };
  for (const sub of ["channels", "pregel", "prebuilt", "zod", "zod/schema"]) {
    for (const [k, v] of Object.entries(await import(`@langchain/langgraph/${sub}`))) if (!(k in langgraphFull)) langgraphFull[k] = v;
  }
  // chronograph gets the same names from its subpaths that mirror LangGraph.js's (a program
  // changes `@langchain/langgraph/zod` to `chronograph/zod`, nothing else).
  let chronographFull = engines.chronograph;
  if (!engines.chronograph.__loadError) {
    chronographFull = { ...engines.chronograph };
    for (const sub of ["zod", "zod/schema", "prebuilt", "pregel", "channels"]) {
      for (const [k, v] of Object.entries(await import(`chronograph/${sub}`))) if (!(k in chronographFull)) chronographFull[k] = v;
    }
  }
  const portedEngines = { langgraph: langgraphFull, chronograph: process.env.COMPAT_SELF ? langgraphFull : chronographFull };
  const failsOnLanggraph = JSON.parse(readFileSync(FAILS_ON_LANGGRAPH_FILE, "utf8")).cases;
  for (const f of mjs("ported")) {
    const mod = await import(pathToFileURL(join(HERE, "ported", f)).href);
    const ref = collect(mod.default, portedEngines.langgraph);
    let mine;
    let collectError;
    if (engines.chronograph.__loadError) collectError = engines.chronograph.__loadError;
    else {
      try {
        mine = new Map(collect(mod.default, portedEngines.chronograph).map((c) => [c.name, c]));
      } catch (err) {
        collectError = err;
      }
    }
    for (const c of ref) {
      if (c.skip) continue;
      const id = `ported/${basename(f, ".mjs")} > ${c.name}`;
      if (id in failsOnLanggraph) {
        cases.push({ id, kind: "ported", file: `ported/${f}`, title: c.name, evaluate: () => evaluateSkipped(c, failsOnLanggraph[id], portedEngines) });
        continue;
      }
      cases.push({
        id,
        kind: "ported",
        file: `ported/${f}`,
        title: c.name,
        evaluate: () => evaluatePorted(c, collectError ? { error: collectError } : mine.get(c.name), portedEngines),
      });
    }
  }
  return { cases, engines };
}

/** { status: "match" | "differs" | "invalid", reason?, diff?, expected?, actual? } */
async function evaluateProgram(program, engines) {
  const ref = await runProgram(program, engines.langgraph);
  // A program that ends by throwing on LangGraph.js is compared as it is (the error's name,
  // message and lc_error_code are its last result); the note says so, in case it is a bug of
  // the program rather than the behaviour it shows.
  const note = ref.thrown ? `note: the program ends by throwing on LangGraph.js too (${ref.thrown.name}: ${oneLine(ref.thrown.message, 100)})` : undefined;
  const got = await runProgram(program, engines.chronograph);
  const cmp = compareRuns(ref, got);
  return { status: cmp.same ? "match" : "differs", note, ...cmp };
}

/** A port that fails on LangGraph.js itself (ported/fails-on-langgraph.json): checked to still
 *  fail there, not run on chronograph. */
async function evaluateSkipped(refCase, reason, engines) {
  const ref = await runAssertions(refCase.fn, engines.langgraph);
  if (ref.ok) return { status: "invalid", reason: "listed in ported/fails-on-langgraph.json but passes on LangGraph.js: remove it from that list" };
  return { status: "skipped", reason: `fails on @langchain/langgraph itself: ${reason}` };
}

async function evaluatePorted(refCase, mineCase, engines) {
  const ref = await runAssertions(refCase.fn, engines.langgraph);
  if (!ref.ok) {
    return { status: "invalid", reason: `the port fails on LangGraph.js: ${ref.error.name}: ${ref.error.message}` };
  }
  if (mineCase?.error) {
    const e = mineCase.error;
    return { status: "differs", reason: `chronograph: the test file throws while registering: ${e.name}: ${e.message}` };
  }
  if (!mineCase) return { status: "differs", reason: "chronograph: the test is not registered" };
  const got = await runAssertions(mineCase.fn, engines.chronograph);
  if (got.ok) return { status: "match" };
  const msg = `${got.error.name}: ${got.error.message}`.replace(/\s+/g, " ");
  return {
    status: "differs",
    reason: oneLine(msg),
    diff: `${got.error.name}: ${got.error.message}${got.error.where ? `\n    at ${got.error.where}` : ""}`,
  };
}

/** One line of at most `max` characters; generated ids and timestamps are masked (so that the
 *  reasons in known-differences.json do not change from run to run; a timestamp keeps its
 *  format: 0000-00-00T00:00:00.000000+00:00). */
export function oneLine(s, max = 200) {
  s = String(s)
    .replace(/\s+/g, " ")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])/gi, "<id>")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?/g, (m) => m.replace(/\d/g, "0"))
    .trim();
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

export function loadKnown() {
  try {
    return JSON.parse(readFileSync(KNOWN_FILE, "utf8"));
  } catch {
    return {};
  }
}
