// The built package as a user gets it: `npm pack` + `npm install` into an
// empty folder, then `import` from Node with no init call; its exports map,
// its file list and its type declarations (no `any`).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("../pkg/", import.meta.url));
const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
const scratch = mkdtempSync(join(tmpdir(), "chronograph-install-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
const npm = (args, cwd) => execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, encoding: "utf8" });

test("package.json: name, ESM, exports conditions for Node and browsers, types", () => {
  assert.equal(manifest.name, "chronograph");
  assert.equal(manifest.type, "module");
  assert.match(manifest.version, /^\d+\.\d+\.\d+/);
  assert.deepEqual(manifest.exports["."], { types: "./index.d.ts", browser: "./browser.js", node: "./node.js", default: "./browser.js" });
});

test("npm install of the packed package, then a plain import in Node 20+", () => {
  const [packed] = JSON.parse(npm(["pack", pkg, "--pack-destination", scratch, "--json"], scratch));
  const files = packed.files.map((f) => f.path).sort();
  assert.deepEqual(files, [
    "README.md",
    "browser.js",
    "exports.js",
    "index.d.ts",
    "lib.js",
    "node.js",
    "package.json",
    "wasm/chronograph.js",
    "wasm/chronograph_bg.wasm",
  ]);
  const app = join(scratch, "app");
  execFileSync("mkdir", ["-p", app]);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  npm(["install", "--offline", join(scratch, packed.filename)], app);
  writeFileSync(
    join(app, "main.js"),
    `import { StateGraph, MemorySaver, InMemorySaver, START, END, Command, interrupt } from "chronograph";
const g = new StateGraph({ n: "sum" }).addNode("a", () => ({ n: 1 })).addEdge(START, "a").addEdge("a", END)
  .compile({ checkpointer: new InMemorySaver() });
const out = await g.invoke({ n: 41 }, { configurable: { thread_id: "x" } });
console.log(JSON.stringify(out), MemorySaver === InMemorySaver, typeof Command, typeof interrupt);
try { await import("chronograph/lib.js"); } catch (e) { console.log(e.code); }
`,
  );
  const out = execFileSync(process.execPath, ["main.js"], { cwd: app, encoding: "utf8" });
  assert.equal(out, '{"n":42} true function function\nERR_PACKAGE_PATH_NOT_EXPORTED\n');
});

test("the type declarations have no `any`", () => {
  const dts = readFileSync(join(pkg, "index.d.ts"), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
  assert.doesNotMatch(dts, /\bany\b/);
});

test("tests/types.check.ts uses every name index.d.ts exports", () => {
  const dts = readFileSync(join(pkg, "index.d.ts"), "utf8");
  const names = [...dts.matchAll(/^export (?:declare )?(?:type|interface|class|const|function) (\w+)/gm)].map((m) => m[1]);
  names.push(...[...dts.matchAll(/^export \{ \w+ as (\w+) \}/gm)].map((m) => m[1]));
  const check = readFileSync(new URL("types.check.ts", import.meta.url), "utf8");
  assert.ok(names.length > 40, `found ${names.length} exports`);
  assert.deepEqual(names.filter((n) => !new RegExp(`\\b${n}\\b`).test(check)), []);
});
