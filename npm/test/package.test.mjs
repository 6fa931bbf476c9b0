// The built package as a user gets it: `npm pack` + `npm install` into an
// empty folder, then `import` from Node with no init call; its exports map,
// its file list and its type declarations (no `any`).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("../../pkg/", import.meta.url));
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
  // The entries, the compiled modules of npm/src (in its folders) with their declarations, the wasm module.
  const modules = packageModules().sort();
  assert.ok(modules.includes("index.d.ts") && modules.includes("graph/state_graph.js"), modules.join(", "));
  assert.deepEqual(files, ["README.md", ...modules, "migrate.mjs", "package.json", "wasm/chronograph.js", "wasm/chronograph_bg.wasm"].sort());
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
try { await import("chronograph/graph.js"); } catch (e) { console.log(e.code); }
`,
  );
  const out = execFileSync(process.execPath, ["main.js"], { cwd: app, encoding: "utf8" });
  assert.equal(out, '{"n":42} true function function\nERR_PACKAGE_PATH_NOT_EXPORTED\n');
  // The package's command (bin), as `npx chronograph-migrate` runs it.
  const usage = execFileSync(join(app, "node_modules", ".bin", "chronograph-migrate"), ["--help"], { cwd: app, encoding: "utf8" });
  assert.match(usage, /^usage: chronograph-migrate --from sqlite:PATH\|postgres:URL/);
});

/** The package's compiled modules and declarations, in its folders too (the bindings' wasm/ apart). */
function packageModules() {
  return readdirSync(pkg, { recursive: true }).filter((f) => /\.(js|d\.ts)$/.test(f) && !f.startsWith("wasm/"));
}

/** The package's own declaration files (the bindings' wasm/*.d.ts are not part of the public surface). */
const declarations = packageModules().filter((f) => f.endsWith(".d.ts"));

test("the type declarations have no `any`", () => {
  for (const file of declarations) {
    const dts = readFileSync(join(pkg, file), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
    assert.doesNotMatch(dts, /\bany\b/, file);
  }
});

/** The names `index.d.ts` exports: its re-export lists, and every export of a module it re-exports whole. */
function exportedNames() {
  const index = readFileSync(join(pkg, "index.d.ts"), "utf8");
  const names = [];
  for (const [, list] of index.matchAll(/^export (?:type )?\{([^}]*)\} from/gm)) {
    names.push(...list.split(",").map((n) => n.trim().replace(/^type /, "").split(" as ").pop()).filter(Boolean));
  }
  for (const [, file] of index.matchAll(/^export (?:type )?\* from "\.\/([\w/]+)\.js"/gm)) {
    const dts = readFileSync(join(pkg, `${file}.d.ts`), "utf8");
    names.push(...[...dts.matchAll(/^export (?:declare )?(?:type|interface|class|const|function) (\w+)/gm)].map((m) => m[1]));
    // And what that module re-exports by name.
    for (const [, list] of dts.matchAll(/^export (?:type )?\{([^}]*)\} from/gm)) {
      names.push(...list.split(",").map((n) => n.trim().replace(/^type /, "").split(" as ").pop()).filter(Boolean));
    }
  }
  return names;
}

test("npm/test/types.check.ts uses every name index.d.ts exports", () => {
  const names = exportedNames();
  const check = readFileSync(new URL("types.check.ts", import.meta.url), "utf8");
  assert.ok(names.length > 40, `found ${names.length} exports`);
  assert.deepEqual(names.filter((n) => !new RegExp(`\\b${n}\\b`).test(check)), []);
});
