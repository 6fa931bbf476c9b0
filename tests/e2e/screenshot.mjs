// Opens the built visualizer (dist/) in headless Chromium, checks that it mounts
// and reacts, and saves screenshots to tests/e2e/screenshots/.
//
//   scripts/build-web.sh && (cd tests && npm install && node e2e/screenshot.mjs)
//
// Builds nothing itself. Exits non-zero when dist/ is missing, when the app does not
// mount, when a check fails, or when the page logs a console error, throws, or a
// request fails. Uses the system Chromium (CHROMIUM overrides /usr/bin/chromium);
// playwright-core never downloads a browser.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const dist = join(root, 'dist');
const shots = join(here, 'screenshots');
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';

if (!existsSync(join(dist, 'index.html'))) {
  console.error('e2e: dist/ is not built; run scripts/build-web.sh first');
  process.exit(2);
}
mkdirSync(shots, { recursive: true });

/** Starts scripts/serve.mjs on a free port; resolves to { url, stop }. */
function startServer() {
  const child = spawn(process.execPath, [join(root, 'scripts', 'serve.mjs'), dist], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  return new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error('server did not start within 10 s'));
    }, 10_000);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/at (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolveUrl({ url: m[1], stop });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited early with code ${code}`));
    });
  });
}

/** The app as the tests see it (page object, like leptos examples/counters/e2e). */
class Visualizer {
  constructor(page) {
    this.page = page;
    this.tree = page.locator('svg.dag');
    this.nodes = page.locator('svg.dag .node');
    this.inspectorLabel = page.locator('.inspector .snap-label');
    this.zoomLevel = page.locator('.zoom-level');
  }
  node(label) {
    return this.page.locator(`svg.dag .node[data-label="${label}"] circle.dot`);
  }
  async selectedLabel() {
    return (await this.inspectorLabel.textContent())?.trim();
  }
  async headLabel() {
    return this.page.locator('svg.dag .node.head').getAttribute('data-label');
  }
}

const failures = [];
const problems = [];
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}

const { url, stop } = await startServer();
let browser;
try {
  browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });

  await page.goto(url, { waitUntil: 'load' });
  const app = new Visualizer(page);
  await app.nodes.first().waitFor({ timeout: 20_000 });
  await page.evaluate(() => document.fonts.ready);

  check((await app.nodes.count()) === 16, 'the sample thread draws 16 checkpoints');
  check((await app.headLabel()) === 'c15', 'HEAD is the newest checkpoint, c15');
  check((await app.selectedLabel()) === 'c15', 'HEAD is selected at start');
  check(await page.locator('#boot').isHidden(), 'the loading message is gone');
  await page.screenshot({ path: join(shots, 'app.png') });
  console.log(`saved ${join(shots, 'app.png')}`);

  await app.node('c8').click();
  check((await app.selectedLabel()) === 'c8', 'clicking c8 selects it');
  check(
    (await page.locator('.topo-node.lit').allTextContents()).map((t) => t.trim()).join() === 'reply',
    "the topology lights c8's next: reply",
  );
  await app.tree.focus();
  await page.keyboard.press('ArrowLeft');
  check((await app.selectedLabel()) === 'c2', 'ArrowLeft selects the parent (c2)');
  await page.keyboard.press('ArrowDown');
  check((await app.selectedLabel()) === 'c3', 'ArrowDown selects the next checkpoint (c3)');

  const box = await app.tree.boundingBox();
  await page.mouse.move(box.x + 60, box.y + 60);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -300);
  await page.keyboard.up('Control');
  await page.waitForFunction(() => document.querySelector('.zoom-level')?.textContent !== '100%');
  check((await app.zoomLevel.textContent()) !== '100%', `ctrl + wheel zooms (${await app.zoomLevel.textContent()})`);
  await page.locator('.zoom button', { hasText: '1:1' }).click();
  check((await app.zoomLevel.textContent()) === '100%', 'the 1:1 button resets the zoom');

  await app.node('c13').click();
  await page.screenshot({ path: join(shots, 'app-selected.png') });
  console.log(`saved ${join(shots, 'app-selected.png')}`);

  await page.setViewportSize({ width: 700, height: 900 });
  await page.screenshot({ path: join(shots, 'app-narrow.png'), fullPage: true });
  console.log(`saved ${join(shots, 'app-narrow.png')}`);
} catch (err) {
  failures.push(String(err?.stack ?? err));
  console.error(err);
} finally {
  await browser?.close();
  stop();
}

for (const p of problems) console.error(p);
if (failures.length || problems.length) {
  console.error(`e2e: ${failures.length} failed check(s), ${problems.length} page problem(s)`);
  process.exit(1);
}
console.log('e2e: all checks passed, no console errors');
