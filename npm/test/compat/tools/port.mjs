#!/usr/bin/env node
// How npm/test/compat/ported/*.mjs were made from LangGraph.js's own tests (kept so a port can be
// redone from a newer LangGraph.js, and so it is plain what changed: only the imports).
//
//   node npm/test/compat/tools/port.mjs <langgraphjs git dir> <commit> <src path> <out file> [--select names.json]
//
// - The TypeScript test file is read at <commit> and its test code transpiled to JavaScript
//   with the TypeScript compiler (types erased, nothing else changed).
// - Its imports become: vitest's names -> the shim (npm/test/compat/expect.mjs); names LangGraph.js
//   exports from its own modules (../graph/state.js, ../constants.js, MemorySaver, ...) -> the
//   module object `lg` (so the same test body runs on @langchain/langgraph and on chronograph);
//   test helpers (../utils.js gatherIterator, ./utils.js, ./time_travel_helpers.js) ->
//   npm/test/compat/ported/_helpers.mjs; everything else (@langchain/core, zod,
//   @langchain/langgraph-checkpoint's other names) stays an import of that package.
// - With --select names.json, only the listed `it`/`describe` names of the file's runPregelTests
//   (or top level) are kept, with the declarations of their enclosing describe blocks; with
//   { "exclude": [names] } every test but those.
// The output is `export default function register(lg, { describe, it, expect, ... })`.

import ts from "typescript";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const [gitDir, commit, srcPath, outFile, ...rest] = process.argv.slice(2);
const selectIdx = rest.indexOf("--select");
const selection = selectIdx >= 0 ? JSON.parse(readFileSync(rest[selectIdx + 1], "utf8")) : null;
const selectFile = selectIdx >= 0 ? rest[selectIdx + 1].replace(/^.*?(tools\/)/, "$1") : null;
const src = execFileSync("git", ["--git-dir", gitDir, "show", `${commit}:${srcPath}`], { encoding: "utf8", maxBuffer: 64 << 20 });
const sf = ts.createSourceFile("t.ts", src, ts.ScriptTarget.ES2022, true);

// --- imports -----------------------------------------------------------------------------
const HELPER_MODULES = /(^\.\.?\/utils\.js$|^\.\.\/\.\.\/utils\.js$|time_travel_helpers\.js$|^\.\.?\/(\.\.\/)?node\.js$|utils\.models\.js$)/;
// LangGraph.js's internal string constants (not exported by @langchain/langgraph): their values
// come from _helpers.mjs, as the tests compare shapes that contain them.
const INTERNAL_CONSTANTS = new Set(["PULL", "PUSH", "TASKS", "TAG_NOSTREAM", "TAG_HIDDEN", "CONFIG_KEY_CHECKPOINT_NS", "NULL_TASK_ID", "RESUME", "ERROR", "SELF", "RETURN"]);
const fromLg = new Set();
const fromHelpers = new Set();
const packageImports = new Map(); // module -> Set of "name" or "name as alias"
const sideEffect = [];
for (const st of sf.statements) {
  if (!ts.isImportDeclaration(st)) continue;
  const mod = st.moduleSpecifier.text;
  const clause = st.importClause;
  if (!clause) { if (!mod.startsWith(".")) sideEffect.push(mod); continue; }
  if (clause.isTypeOnly) continue;
  const names = [];
  if (clause.name) names.push({ name: "default", local: clause.name.text });
  const nb = clause.namedBindings;
  if (nb && ts.isNamedImports(nb)) {
    for (const el of nb.elements) {
      if (el.isTypeOnly) continue;
      names.push({ name: (el.propertyName ?? el.name).text, local: el.name.text });
    }
  } else if (nb && ts.isNamespaceImport(nb)) {
    names.push({ name: "*", local: nb.name.text });
  }
  if (mod === "vitest") continue;
  for (const n of names) {
    const binding = n.name === n.local ? n.name : `${n.name}: ${n.local}`;
    if (mod.startsWith(".") && (HELPER_MODULES.test(mod) || (/constants\.js$/.test(mod) && INTERNAL_CONSTANTS.has(n.name)))) fromHelpers.add(binding);
    else if (mod.startsWith(".")) fromLg.add(binding);
    else if (mod === "@langchain/langgraph-checkpoint" && n.name === "MemorySaver") fromLg.add(binding);
    else {
      if (!packageImports.has(mod)) packageImports.set(mod, new Set());
      packageImports.get(mod).add(n.name === "*" ? `* as ${n.local}` : n.name === "default" ? `default as ${n.local}` : n.name === n.local ? n.name : `${n.name} as ${n.local}`);
    }
  }
}

// --- body --------------------------------------------------------------------------------
const runFn = sf.statements.find((s) => ts.isFunctionDeclaration(s) && s.name?.text === "runPregelTests");
const topStatements = runFn ? runFn.body.statements : sf.statements.filter((s) => !ts.isImportDeclaration(s));
const prelude = runFn
  ? sf.statements.filter((s) => !ts.isImportDeclaration(s) && s !== runFn && !(ts.isExpressionStatement(s) && /^runPregelTests\(/.test(s.getText())))
  : [];

function testCall(st) {
  if (!ts.isExpressionStatement(st) || !ts.isCallExpression(st.expression)) return null;
  const call = st.expression;
  let callee = call.expression;
  // it.each([...])("name", fn) / describe.each(...)(...)
  if (ts.isCallExpression(callee)) callee = callee.expression;
  const head = ts.isPropertyAccessExpression(callee) ? callee.expression : callee;
  const headName = ts.isIdentifier(head) ? head.text : ts.isCallExpression(head) && ts.isPropertyAccessExpression(head.expression) ? head.expression.expression.getText() : null;
  if (!["it", "test", "describe"].includes(headName)) return null;
  const nameArg = call.arguments[0];
  const name = nameArg && (ts.isStringLiteral(nameArg) || ts.isNoSubstitutionTemplateLiteral(nameArg)) ? nameArg.text : null;
  const body = call.arguments.find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
  return { kind: headName === "describe" ? "describe" : "it", name, call, body, simple: call.expression === callee && (ts.isIdentifier(callee) || ts.isPropertyAccessExpression(callee)) };
}

function emit(statements, keepAll) {
  const out = [];
  for (const st of statements) {
    const tc = testCall(st);
    if (!tc) { out.push({ text: st.getFullText(), test: false }); continue; }
    const selected =
      keepAll ||
      (Array.isArray(selection) && tc.name && selection.includes(tc.name)) ||
      (selection?.exclude && tc.kind === "it" && !selection.exclude.includes(tc.name));
    if (selected) { out.push({ text: st.getFullText(), test: true }); continue; }
    if (tc.kind === "describe" && tc.body && ts.isBlock(tc.body.body) && tc.simple) {
      const inner = emit(tc.body.body.statements, false);
      if (inner.some((x) => x.test)) {
        const head = src.slice(st.getFullStart(), tc.body.body.getStart() + 1);
        out.push({ text: `${head}${inner.map((x) => x.text).join("")}\n});`, test: true });
      }
    }
  }
  // Without any test kept, the declarations around them are not needed either.
  return out.some((x) => x.test) ? out.filter((x) => x.test || !/^\s*(\/\/.*\n\s*)*if \(teardown/.test(x.text)) : [];
}

const body = emit(topStatements, !selection).map((x) => x.text).join("");
const preludeText = prelude.map((s) => s.getFullText()).join("");
// A dynamic import of one of LangGraph.js's own modules inside a test becomes the module object.
const js = (text) =>
  ts
    .transpileModule(text, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, removeComments: false } })
    .outputText.replace(/^export \{\};\s*$/m, "")
    .replace(/await import\((["'])\.\.?\/[^"']+\1\)/g, "lg /* compat: was a dynamic import of a LangGraph.js module */");

// Names imported only as types are dropped: TypeScript elides them when it transpiles the
// whole original file, so keep exactly the import bindings that survive that.
const survivors = new Set();
{
  const whole = ts.createSourceFile("w.js", js(src), ts.ScriptTarget.ES2022, true);
  for (const st of whole.statements) {
    if (!ts.isImportDeclaration(st) || !st.importClause) continue;
    const c = st.importClause;
    if (c.name) survivors.add(c.name.text);
    if (c.namedBindings && ts.isNamedImports(c.namedBindings)) for (const el of c.namedBindings.elements) survivors.add(el.name.text);
    if (c.namedBindings && ts.isNamespaceImport(c.namedBindings)) survivors.add(c.namedBindings.name.text);
  }
}
const used = (binding) => survivors.has(binding.includes(" as ") ? binding.split(" as ")[1] : binding.includes(": ") ? binding.split(": ")[1] : binding);
for (const set of [fromLg, fromHelpers, ...packageImports.values()]) for (const b of [...set]) if (!used(b)) set.delete(b);
for (const [mod, set] of [...packageImports]) if (set.size === 0) packageImports.delete(mod);

const indent = (s) => s.split("\n").map((l) => (l ? `  ${l}` : l)).join("\n");
const pkgLines = [...packageImports].map(([mod, names]) => {
  const list = [...names];
  const star = list.filter((n) => n.startsWith("* as"));
  const def = list.filter((n) => n.startsWith("default as"));
  const named = list.filter((n) => !n.startsWith("* as") && !n.startsWith("default as"));
  const lines = [];
  for (const s of star) lines.push(`import ${s} from "${mod}";`);
  if (named.length || def.length) lines.push(`import { ${[...def, ...named].join(", ")} } from "${mod}";`);
  return lines.join("\n");
});
const shortCommit = commit.slice(0, 40);
const header = `// Ported from LangGraph.js: langchain-ai/langgraphjs@${shortCommit}
//   ${srcPath}${selection ? `\n//   (${Array.isArray(selection) ? "only the cases named in" : "all cases but those excluded in"} npm/test/compat/${selectFile})` : ""}
// Generated by npm/test/compat/tools/port.mjs: the test code is LangGraph.js's, transpiled from
// TypeScript; only the imports changed (LangGraph.js's own names come from the module object
// \`lg\`, so the same tests run on @langchain/langgraph and on chronograph). Do not edit by hand
// beyond the notes marked "compat:".
${sideEffect.filter((m) => !m.startsWith(".")).map((m) => `import "${m}";`).join("\n")}
${pkgLines.join("\n")}
import { helpers } from "./_helpers.mjs";

export const source = { repo: "langchain-ai/langgraphjs", commit: "${commit}", path: "${srcPath}" };

export default function register(lg, { describe, it, test, expect, vi, beforeEach, beforeAll, afterEach, afterAll }) {
  const { ${[...fromLg].sort().join(", ")} } = lg;
  const { ${[...fromHelpers].sort().join(", ")} } = helpers(lg, { expect });${runFn ? `
  // compat: LangGraph.js runs runPregelTests(() => new MemorySaverAssertImmutable()); here the
  // engine's own MemorySaver (a LangGraph.js saver subclass cannot be handed to chronograph).
  const createCheckpointer = () => new lg.MemorySaver();` : ""}
${indent(js(preludeText))}
${indent(js(body))}
}
`;
writeFileSync(outFile, header.replace(/\n{3,}/g, "\n\n"));
console.log(`wrote ${outFile}: lg names: ${[...fromLg].join(", ")}; helpers: ${[...fromHelpers].join(", ")}; packages: ${[...packageImports.keys()].join(", ")}`);
