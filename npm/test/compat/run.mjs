#!/usr/bin/env node
// The compatibility suite from the command line (node --test runs it as npm/test/compat.test.mjs).
//
//   node npm/test/compat/run.mjs                       every case: one line each, and a summary
//   node npm/test/compat/run.mjs 07 time_travel        only cases whose id contains one of the words
//   node npm/test/compat/run.mjs --diff 07             ... with the full diff of each differing case
//   node npm/test/compat/run.mjs --status              also rewrite the scoreboard, the generated end of docs/compat.md
//   node npm/test/compat/run.mjs --write-known         also rewrite known-differences.json from this run
//                                                   (every differing case, with its one-line reason)
// Normalized outputs of programs go to npm/test/compat/out/<id>.{langgraph,chronograph}.json
// (git-ignored), for a diff tool of your choice.

import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { loadCases, loadKnown, HERE, KNOWN_FILE, oneLine } from "./cases.mjs";
import { pretty } from "./harness.mjs";

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith("--")));
const words = args.filter((a) => !a.startsWith("--"));

const { cases, engines } = await loadCases();
const selected = cases.filter((c) => words.length === 0 || words.some((w) => c.id.includes(w)));
const known = loadKnown().cases ?? {};
const showDiff = flags.has("--diff") || selected.length === 1;
const results = [];
mkdirSync(join(HERE, "out"), { recursive: true });

for (const c of selected) {
  const r = await c.evaluate();
  results.push({ c, r });
  const mark = { match: "match  ", differs: "DIFFERS", skipped: "skipped", invalid: "INVALID" }[r.status];
  const note = c.id in known ? (r.status === "match" ? "  (listed as known: remove it)" : "  (known)") : r.status === "differs" ? "  (NOT in known-differences.json)" : "";
  console.log(`${mark} ${c.id}${note}${r.reason ? `\n        ${r.reason}` : ""}${r.note ? `\n        ${r.note}` : ""}`);
  if (r.expected) {
    const safe = c.id.replace(/[^\w.-]+/g, "_");
    writeFileSync(join(HERE, "out", `${safe}.langgraph.json`), pretty(r.expected) + "\n");
    writeFileSync(join(HERE, "out", `${safe}.chronograph.json`), pretty(r.actual) + "\n");
  }
  if (showDiff && r.diff) console.log(r.diff.replace(/^/gm, "        "));
}

const count = (kind, status) => results.filter(({ c, r }) => (!kind || c.kind === kind) && (!status || r.status === status)).length;
const line = (kind, label) =>
  `${label}: ${count(kind, "match")} of ${count(kind) - count(kind, "skipped")} match, ${count(kind, "differs")} differ` +
  (count(kind, "invalid") ? `, ${count(kind, "invalid")} INVALID (fail on LangGraph.js)` : "") +
  (count(kind, "skipped") ? ` (and ${count(kind, "skipped")} skipped: they fail on LangGraph.js 1.7.3 itself)` : "");
console.log(`\n${line("program", "programs")}\n${line("ported", "ported tests")}\n${line(null, "all")}`);

if (flags.has("--write-known")) {
  const out = {};
  for (const { c, r } of results) if (r.status === "differs") out[c.id] = oneLine(r.reason, 300);
  // Keep entries of cases not run this time (a filtered run).
  for (const [id, reason] of Object.entries(known)) if (!selected.some((c) => c.id === id)) out[id] = reason;
  const sorted = Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(
    KNOWN_FILE,
    pretty({
      _comment:
        "Cases of npm/test/compat/ known to differ between @langchain/langgraph and chronograph today, each with the one-line reason of its last run. npm/test/compat.test.mjs fails when a case differs and is not listed, and when a listed case matches (remove it: the list only shrinks). Regenerate: node npm/test/compat/run.mjs --write-known --status",
      cases: sorted,
    }) + "\n",
  );
  console.log(`wrote ${KNOWN_FILE} (${Object.keys(sorted).length} cases)`);
}

/** Groups differing cases by a key made from their reason: the error (ids and quoted names
 *  dropped) for a throw or a failed assertion, the last path segment for a value difference. */
function groups(differing) {
  const key = (reason) => {
    let m = /^chronograph throws (\w+): (.*?)(?: \(at ".*"\))?$/.exec(reason);
    if (m) return `throws ${m[1]}: ${m[2]}`;
    m = /^(?:key order only: )?"[^"]*"(.*?): expected/.exec(reason);
    if (m) {
      const tail = m[1].replace(/\[\d+\]/g, "[i]").split(".").filter(Boolean).slice(-2).join(".");
      return `${reason.startsWith("key order only") ? "key order of" : "value at"} …${tail}`;
    }
    return reason;
  };
  const clean = (s) =>
    oneLine(s.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "<id>").replace(/(AssertionError: [\w.()]+?): .*$/, "$1 failed").replace(/\|/g, "\\|"), 150);
  const count = new Map();
  for (const { r } of differing) {
    const k = clean(key(r.reason ?? ""));
    count.set(k, (count.get(k) ?? 0) + 1);
  }
  return [...count].sort((a, b) => b[1] - a[1]).map(([k, n]) => `| ${n} | ${k} |`);
}

/** The scoreboard is the end of docs/compat.md, between two markers: the prose above them
 *  is written by hand, what is between them only by this function. */
function writeScoreboard(scoreboard) {
  const file = join(HERE, "..", "..", "..", "docs", "compat.md");
  const start = "<!-- generated by `node npm/test/compat/run.mjs --status`: do not edit by hand -->";
  const end = "<!-- end of the generated scoreboard -->";
  const doc = readFileSync(file, "utf8");
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has lost the markers of its generated scoreboard:\n${start}\n${end}`);
  writeFileSync(file, `${doc.slice(0, from + start.length)}\n\n${scoreboard}\n\n${doc.slice(to)}`);
  console.log(`wrote the scoreboard of ${file}`);
}

if (flags.has("--status")) {
  const lg = (await import("@langchain/langgraph/package.json", { with: { type: "json" } }).catch(() => null))?.default?.version ?? "1.7.3";
  const rows = results.map(({ c, r }) => `| \`${c.id.replace(/\|/g, "\\|")}\` | ${{ match: "matches", differs: "differs", skipped: "skipped", invalid: "INVALID" }[r.status]} | ${r.reason ? oneLine(r.reason, 180).replace(/\|/g, "\\|") : ""} |`);
  const scoreboard = [
    "Generated by `node npm/test/compat/run.mjs --status` from npm/test/compat/:",
    `every case run on \`@langchain/langgraph\` ${lg} and on the built \`chronograph\` package (pkg/),`,
    "results compared after normalizing generated ids and timestamps only.",
    "",
    `- ${line("program", "programs")}`,
    `- ${line("ported", "ported LangGraph.js tests")}`,
    `- ${line(null, "all")}`,
    "",
    "### Differences grouped by their first difference",
    "",
    "(a rough grouping of the one-line reasons below, most frequent first)",
    "",
    "| cases | kind of difference |",
    "|---|---|",
    ...groups(results.filter(({ r }) => r.status === "differs")),
    "",
    "### Every case",
    "",
    "| case | result | first difference |",
    "|---|---|---|",
    ...rows,
  ].join("\n");
  writeScoreboard(scoreboard);
}
process.exit(0);
