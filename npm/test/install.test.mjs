// The built package installed the three ways an application installs a
// package, each in a temporary folder, with the optional peers
// (@langchain/core, @langchain/langgraph-checkpoint, better-sqlite3) and
// vitest installed by the application (issue 27):
//   tarball    `npm pack` of pkg/, `npm install ./chronograph-<v>.tgz`
//   link       the unpacked tarball (no node_modules of its own) `npm link`ed
//              with a temporary prefix, then `npm link chronograph` in the app
//   workspace  an npm workspace (packages/chronograph, packages/app), where
//              the package folder also sees another copy of @langchain/core
//              (its own node_modules, as a library's dev install has one):
//              the application's copy is the one that must be used
// Under each: install/app.mjs in Node and one vitest run of
// install/install.spec.mjs (the message-class program, and LangGraph.js's
// saver validation suite on chronograph/langgraph's MemorySaver and
// SqliteSaver). And an application without any peer, whose errors must name
// the package to install. Nothing is downloaded: the application's
// dependencies are a copy of npm/test/interop's (its package.json, lock and
// node_modules, installed by scripts/setup.sh; better-sqlite3 is built
// there), and `npm install --prefer-offline --offline` adds only the package.
// CHRONOGRAPH_TARBALL=<file.tgz> tests that tarball instead of packing pkg/.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const interop = join(here, "interop");
const tmp = mkdtempSync(join(tmpdir(), "chronograph-install-"));
// rm: Node's rmSync took tens of seconds over the copies' 8,000 files each.
after(() => execFileSync("rm", ["-rf", tmp]));

/** npm, offline (the registry's cache only), quiet; with `env` added. */
function npm(cwd, args, env = {}) {
  execFileSync("npm", [...args, "--prefer-offline", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
}

/** Runs `node args` in `cwd`; its output and exit status. */
function node(cwd, args, timeout = 300_000) {
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8", timeout, env: { ...process.env, NO_COLOR: "1", CHRONOGRAPH_LANGCHAIN: "" } });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

let tarball;
before(() => {
  tarball = process.env.CHRONOGRAPH_TARBALL;
  if (!tarball) {
    const name = execFileSync("npm", ["pack", join(root, "pkg"), "--pack-destination", tmp, "--loglevel=error"], { cwd: tmp, encoding: "utf8" }).trim().split("\n").at(-1);
    tarball = join(tmp, name);
  }
});

/** An application folder at `dir` with npm/test/interop's dependencies (package.json, lock, node_modules) and the test's programs. */
function application(dir, name = "install-app") {
  mkdirSync(dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(interop, "package.json"), "utf8"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ ...manifest, name }, null, 2));
  for (const file of ["chat.mjs", "app.mjs", "install.spec.mjs"]) cpSync(join(here, "install", file), join(dir, file));
}

/** interop's node_modules (hard links, symlinks kept) without its copy of the package (test-pkg.sh puts one there), in `dir`. */
function dependencies(dir) {
  // Hard links: a copy of 140 MB in 8,000 files, three times, took a minute to write and remove on a
  // busy disk. npm and vitest replace the packages' files, never write into them, but write in place
  // into these few, so they are copies (vitest's cache is left out).
  const modules = join(dir, "node_modules");
  execFileSync("cp", ["-al", join(interop, "node_modules"), modules]);
  execFileSync("rm", ["-rf", join(modules, "chronograph"), join(modules, ".vite"), join(modules, ".package-lock.json"), join(modules, ".chronograph-lock.sha")]);
  cpSync(join(interop, "node_modules", ".package-lock.json"), join(modules, ".package-lock.json"));
}

/** The tarball unpacked into `dir` (npm pack's `package/` folder removed). */
function unpack(dir) {
  mkdirSync(dir, { recursive: true });
  execFileSync("tar", ["xzf", tarball, "-C", dir, "--strip-components=1"]);
}

/** Runs the programs in the application folder `app`, vitest being `vitest` (a path from `app`). */
function check(app, vitest) {
  const chat = node(app, ["app.mjs"]);
  const spec = node(app, [vitest, "run", "--globals", "install.spec.mjs"]);
  // Both run before either is asserted, so that a failure shows what fails in each.
  assert.deepEqual(
    { "node app.mjs": chat.status, "vitest run install.spec.mjs": spec.status },
    { "node app.mjs": 0, "vitest run install.spec.mjs": 0 },
    `node app.mjs:\n${chat.out}\nvitest run install.spec.mjs:\n${spec.out.split("\n").slice(-40).join("\n")}`,
  );
  assert.match(spec.out, /Tests\s+\d+ passed/);
}

test("installed from a packed tarball", () => {
  const app = join(tmp, "tarball");
  application(app);
  cpSync(join(interop, "package-lock.json"), join(app, "package-lock.json"));
  dependencies(app);
  npm(app, ["install", tarball]);
  check(app, "node_modules/vitest/vitest.mjs");
});

test("installed as a linked folder (npm link, a temporary prefix)", () => {
  const linked = join(tmp, "linked", "chronograph");
  unpack(linked);
  const env = { npm_config_prefix: join(tmp, "prefix") };
  npm(linked, ["link"], env);
  const app = join(tmp, "link");
  application(app);
  cpSync(join(interop, "package-lock.json"), join(app, "package-lock.json"));
  dependencies(app);
  npm(app, ["link", "chronograph"], env);
  check(app, "node_modules/vitest/vitest.mjs");
});

test("installed in an npm workspace", () => {
  const ws = join(tmp, "workspace");
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, "package.json"), JSON.stringify({ name: "install-workspace", private: true, workspaces: ["packages/*"] }, null, 2));
  unpack(join(ws, "packages", "chronograph"));
  const app = join(ws, "packages", "app");
  application(app, "app");
  const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
  writeFileSync(join(app, "package.json"), JSON.stringify({ ...manifest, dependencies: { chronograph: "*" } }, null, 2));
  dependencies(ws);
  npm(ws, ["install"]);
  // The package folder's own copy of @langchain/core (a real one: npm/test's), added after the install.
  mkdirSync(join(ws, "packages", "chronograph", "node_modules", "@langchain"), { recursive: true });
  symlinkSync(join(here, "node_modules", "@langchain", "core"), join(ws, "packages", "chronograph", "node_modules", "@langchain", "core"));
  check(app, "../../node_modules/vitest/vitest.mjs");
});

test("without the peers, each error names the package to install", () => {
  const app = join(tmp, "bare");
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "bare-app", private: true, type: "module" }));
  cpSync(join(here, "install", "bare.mjs"), join(app, "bare.mjs"));
  npm(app, ["install", tarball]);
  const r = node(app, ["bare.mjs"]);
  assert.equal(r.status, 0, r.out);
  const lines = r.out.trim().split("\n");
  assert.equal(lines.length, 3, r.out);
  assert.match(lines[0], /npm install @langchain\/core/);
  assert.match(lines[1], /npm install better-sqlite3/);
  assert.match(lines[2], /npm install @langchain\/langgraph-checkpoint/);
  assert.doesNotMatch(r.out, /js_ref/);
});
