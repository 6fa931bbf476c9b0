// Browser smoke test of the npm package: serves the repository root, opens
// npm/test/browser/index.html in headless Chromium (the system's, through
// playwright-core: no browser download), where the page imports pkg/browser.js
// as a plain ES module through an import map and runs the seed walkthrough
// and the interrupt checks. Exits non-zero on any difference, page error,
// console error or failed request.
//
//   scripts/build-pkg.sh && node npm/test/browser/run.mjs
import assert from "node:assert/strict";
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { expected } from "./walkthrough.mjs";
import { expectedInterrupts } from "./interrupts.mjs";
import { expectedSubgraphs } from "./subgraphs.mjs";

const root = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
if (!existsSync(join(root, "pkg", "browser.js"))) {
  console.error("browser: pkg/ is not built; run scripts/build-pkg.sh first");
  process.exit(2);
}
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
};
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
  const file = join(root, path);
  const allowed = ["pkg", "npm/test/browser"].some((dir) => file.startsWith(join(root, dir) + "/"));
  if (!allowed || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404).end("not found");
    return;
  }
  res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
  createReadStream(file).pipe(res);
});
await new Promise((ready) => server.listen(0, "127.0.0.1", ready));
const url = `http://127.0.0.1:${server.address().port}/npm/test/browser/index.html`;

const problems = [];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
let code = 0;
try {
  const page = await browser.newPage();
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
  await page.goto(url);
  await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30_000 });
  const outcome = await page.evaluate(() => window.__result);
  if (!outcome.ok) throw new Error(`the page failed: ${outcome.error}\n${outcome.stack}`);
  assert.deepEqual(outcome.result.walkthrough, expected);
  assert.deepEqual(outcome.result.interrupts, expectedInterrupts);
  assert.deepEqual(outcome.result.subgraphs, expectedSubgraphs);
  assert.deepEqual(problems, []);
  const c = outcome.result.walkthrough.counts;
  console.log(
    `browser: ok (${await browser.version()}): seed walkthrough ${c.twoRounds} -> ${c.replay} -> ${c.replayTerminal} -> ${c.editAndRun} checkpoints; interrupt() before and after await; Send fan-out to a subgraph streamed with subgraphs: true`,
  );
} catch (e) {
  console.error(`browser: FAILED\n${e.stack ?? e}`);
  if (problems.length) console.error(problems.join("\n"));
  code = 1;
} finally {
  await browser.close();
  server.close();
}
process.exit(code);
