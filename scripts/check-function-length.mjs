#!/usr/bin/env node
// No function of the npm package's TypeScript sources over 100 lines (the
// threshold of clippy's `too_many_lines`, which the Rust crates are held to).
// Reads npm/src/**/*.ts with TypeScript's compiler API (tools/node_modules/
// typescript, installed by scripts/setup.sh) and measures every function,
// method, constructor, accessor, function expression and arrow function with
// a body: the lines from its first to its last, nested functions
// included (each nested one is measured on its own too). Prints each one over
// the limit as file:line, its name and its length, and exits 1 if there is one.
//
//   node scripts/check-function-length.mjs [--max N] [DIR]
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
let ts;
try {
  ts = createRequire(join(root, "tools/"))("typescript");
} catch {
  console.error("check-function-length: tools/node_modules/typescript is missing; run scripts/setup.sh");
  process.exit(2);
}

const args = process.argv.slice(2);
let max = 100;
let dir = join(root, "npm/src");
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--max") max = Number(args[++i]);
  else dir = args[i];
}
if (!Number.isInteger(max) || max < 1) {
  console.error("usage: node scripts/check-function-length.mjs [--max N] [DIR]");
  process.exit(2);
}

/** Every `.ts` file under `d`, sorted. */
function sources(d) {
  return readdirSync(d, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sources(join(d, e.name)) : e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [join(d, e.name)] : []))
    .sort();
}

/** A readable name for a function node: its own, its property's or variable's, else `<anonymous>`. */
function nameOf(node, file) {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) {
    return parent.name.getText(file);
  }
  return "<anonymous>";
}

const KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

const offenders = [];
let measured = 0;
for (const path of sources(dir)) {
  const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    // Overload signatures have no body to measure.
    if (KINDS.has(node.kind) && node.body) {
      measured++;
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.body.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) offenders.push({ where: `${relative(root, path)}:${start + 1}`, name: nameOf(node, file), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

for (const o of offenders) console.log(`${o.where}: ${o.name} is ${o.lines} lines (at most ${max})`);
console.log(`check-function-length: ${measured} functions in ${relative(root, dir) || "."}, ${offenders.length} over ${max} lines`);
process.exit(offenders.length > 0 ? 1 : 0);
