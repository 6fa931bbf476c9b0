// Shared pieces of the end-to-end suite: the static server over dist/, the system
// Chromium, and the page object the tests drive by accessible names (like leptos
// examples/counters/e2e). playwright-core never downloads a browser.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { WORDS } from './words.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..', '..');
export const dist = join(root, 'dist');
export const shots = join(here, 'screenshots');
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Starts scripts/serve.mjs on a free port; resolves to { url, stop }. */
export function startServer() {
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error('dist/ is not built; run scripts/build-web.sh first');
  }
  mkdirSync(shots, { recursive: true });
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

export function launch() {
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/**
 * A fresh page (own context: empty localStorage) that records page problems.
 * `init`, when given, runs in the page before any of its scripts (Playwright's addInitScript).
 */
export async function openPage(browser, url, viewport = { width: 1440, height: 900 }, init = undefined, lang = 'en') {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => {
    const error = r.failure()?.errorText ?? '';
    // A reload or navigation cancels requests still in flight (often the favicon): that is
    // the browser's doing, not a broken resource, so only real failures count.
    if (error === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${r.url()} (${error})`);
  });
  const app = new Visualizer(page, problems, lang);
  // English is the page's own default here (the browser's language is en-US); another
  // language is asked for in the URL, as a teacher's link would.
  await app.goto(lang === 'en' ? url : `${url}${url.includes('?') ? '&' : '?'}lang=${lang}`);
  return app;
}

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The visualizer as a user sees it: every locator is an accessible name. */
export class Visualizer {
  /** `lang`: the page's language (`en`, `zh`); the locators use its words ([`WORDS`]). */
  constructor(page, problems, lang = 'en') {
    this.page = page;
    this.problems = problems;
    this.useLang(lang);
  }

  /** Points the locators at the words of `lang` (after a switch of the page's language). */
  useLang(lang) {
    const w = WORDS[lang];
    const page = this.page;
    this.lang = lang;
    this.w = w;
    this.checkpoints = page.getByRole('button', { name: new RegExp(`^${esc(w.checkpointPrefix)}`) });
    this.scenario = page.getByRole('combobox', { name: w.scenario });
    this.message = page.getByRole('textbox', { name: w.message });
    this.input = page.getByRole('textbox', { name: w.input });
    this.tree = page.getByRole('group', { name: w.tree });
    this.inspector = page.getByRole('complementary', { name: w.inspector });
    this.log = page.getByRole('region', { name: w.log, exact: true });
  }

  async goto(url) {
    await this.page.goto(url, { waitUntil: 'load' });
    await this.scenario.waitFor({ timeout: 30_000 });
  }

  button(name) {
    return this.page.getByRole('button', { name, exact: true });
  }

  /** The checkpoint button whose label is `label` (e.g. "c3"). */
  checkpoint(label) {
    return this.page.getByRole('button', { name: new RegExp(`^${esc(this.w.checkpointPrefix)}${esc(label)}[,，]`) });
  }

  async count() {
    return this.checkpoints.count();
  }

  async waitForCount(n) {
    await this.page.waitForFunction(
      (n) => document.querySelectorAll('svg.dag g.node > .node-button').length === n,
      n,
      { timeout: 20_000 },
    );
  }

  async pickScenario(id) {
    await this.scenario.selectOption(id);
    await this.waitForCount(0);
  }

  async send(text) {
    const before = await this.count();
    await this.message.fill(text);
    await this.button(this.w.send).click();
    await this.page.waitForFunction(
      (n) => document.querySelectorAll('svg.dag g.node > .node-button').length > n,
      before,
    );
  }

  async run(json) {
    await this.input.fill(json);
    await this.button('Run').click();
  }

  /** Clicks checkpoint `label` when it is in view; focuses it (which selects and reveals it) otherwise. */
  async select(label) {
    const node = this.checkpoint(label);
    const [box, view] = [await node.boundingBox(), await this.tree.boundingBox()];
    const inView = box && view && box.y >= view.y && box.y + box.height <= view.y + view.height;
    if (inView) await node.click();
    else await node.focus();
    await this.page.waitForFunction(
      (l) => document.querySelector('.inspector .snap-label')?.textContent.trim() === l,
      label,
    );
  }

  async selectedLabel() {
    return (await this.page.locator('.inspector .snap-label').textContent())?.trim();
  }

  /** `Checkpoint c3, step 2, loop, next: reply` of checkpoint `label`. */
  async name(label) {
    return this.checkpoint(label).getAttribute('aria-label');
  }

  /** The selected checkpoint's parent label (from the inspector's parent link). */
  async parentOf(label) {
    await this.select(label);
    const link = this.inspector.getByRole('button', { name: new RegExp(`^${esc(this.w.goToParent)}`) });
    if ((await link.count()) === 0) return null;
    return (await link.getAttribute('aria-label')).replace(this.w.goToParent, '');
  }

  async headLabel() {
    return this.page.locator('svg.dag .node.head').getAttribute('data-label');
  }

  async replay() {
    const before = await this.count();
    await this.button(this.w.replay).click();
    await this.page.waitForFunction(
      (n) => document.querySelectorAll('svg.dag g.node > .node-button').length > n,
      before,
    );
  }

  /** Opens the Fork dialog on the selection, fills it, and clicks `apply`. */
  async fork(values, asNode, apply = 'Apply') {
    await this.button(this.w.fork).click();
    const dialog = this.page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: this.w.stateUpdate }).fill(values);
    if (asNode) await dialog.getByRole('combobox', { name: this.w.asNode }).selectOption(asNode);
    return dialog;
  }

  async logLines() {
    return (await this.log.locator('li').allTextContents()).map((t) => t.trim());
  }

  /**
   * Runs axe-core (WCAG 2.1 A and AA, and axe's best practices) on the page as it is now
   * and fails with every violation, its elements and axe's help text.
   */
  async audit(what) {
    if (!(await this.page.evaluate(() => 'axe' in window))) await this.page.addScriptTag({ path: axePath });
    const result = await this.page.evaluate(() =>
      window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      }),
    );
    const found = result.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}`).join('\n')}`,
    );
    assert.deepEqual(found, [], `axe violations on ${what}:\n${found.join('\n')}`);
    return result.passes.length;
  }

  async shot(name) {
    await this.page.evaluate(() => document.fonts.ready);
    const path = join(shots, `${name}.png`);
    await this.page.screenshot({ path });
    console.log(`  screenshot: ${path}`);
  }
}

/**
 * Registers the hooks of one test file: a server (none with `{ file }`) and a browser before the tests; after
 * them, both are closed and the file fails if any page logged a console error, an
 * exception or a failed request. Returns `open(viewport?, init?)`, which opens the app.
 */
export function suite({ file } = {}) {
  let server;
  let browser;
  const pages = [];
  before(async () => {
    // `file`: a page of dist/ opened through file:// (no server), as a double-click would.
    if (file) {
      const path = join(dist, file);
      if (!existsSync(path)) throw new Error(`${path} is not built; run scripts/build-web.sh first`);
      mkdirSync(shots, { recursive: true });
      server = { url: pathToFileURL(path).href, stop() {} };
    } else {
      server = await startServer();
    }
    browser = await launch();
  });
  after(async () => {
    const problems = pages.flatMap((app) => app.problems);
    for (const p of problems) console.error(`page problem: ${p}`);
    // Close first: a failed assertion must not leave Chromium and the server running
    // (node --test would then wait for them forever).
    await browser?.close();
    server?.stop();
    assert.deepEqual(problems, [], 'no console errors, exceptions or failed requests');
  });
  return async (viewport, init, lang = 'en') => {
    const app = await openPage(browser, server.url, viewport, init, lang);
    pages.push(app);
    return app;
  };
}

/** Clicks `button` and waits until the page draws more checkpoints than before and the action has ended (the server's history, read again). */
export async function clickAndWaitForMore(app, button) {
  const before = await app.count();
  await button.click();
  await app.page.waitForFunction(
    (n) => document.querySelectorAll('svg.dag g.node > .node-button').length > n,
    before,
    { timeout: 30_000 },
  );
  // A run's checkpoints are drawn as they stream: the action ends when the page stops working.
  await app.page.locator('.toolbar .busy').waitFor({ state: 'detached', timeout: 30_000 });
}
