// End-to-end tests of the built visualizer (dist/) in headless system Chromium,
// driven by accessible names. Run: scripts/build-web.sh && node --test --test-concurrency=1 web/e2e/*.test.mjs
// Screenshots of each main view go to web/e2e/screenshots/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, shots, suite } from './harness.mjs';
import { lessonTour, seedWalkthrough } from './walkthrough.mjs';

const open = suite();

test('seed walkthrough on the chat scenario: 8, 10, 11, 12, 13 checkpoints with the right parents', async () => {
  await seedWalkthrough(await open());
});

test('keyboard: arrows move to parent, child and sibling; Enter replays; Escape closes the dialog', async () => {
  const app = await open();
  await app.send('hello');
  await app.select('c2');
  await app.replay(); // c4 (fork of c2), c5
  await app.select('c2');
  await app.checkpoint('c2').focus();
  await app.page.keyboard.press('ArrowUp');
  assert.equal(await app.selectedLabel(), 'c1', '↑ parent');
  await app.page.keyboard.press('ArrowDown');
  assert.equal(await app.selectedLabel(), 'c2', '↓ first child');
  await app.page.keyboard.press('ArrowDown');
  assert.equal(await app.selectedLabel(), 'c3');
  await app.page.keyboard.press('ArrowRight');
  assert.equal(await app.selectedLabel(), 'c4', '→ next sibling (the replay fork)');
  await app.page.keyboard.press('ArrowLeft');
  assert.equal(await app.selectedLabel(), 'c3', '← previous sibling');
  const focused = await app.page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
  assert.match(focused, /^Checkpoint c3,/, 'focus follows the selection');
  await app.page.keyboard.press('Enter');
  await app.waitForCount(7);
  assert.match(await app.name('c6'), /fork/, 'Enter replays the selection');

  await app.button('Fork').click();
  const dialog = app.page.getByRole('dialog');
  await dialog.waitFor();
  await app.page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await app.count(), 7, 'closing the dialog changes nothing');
});

test('fork with an edited value on the counter scenario, and bad input changes nothing', async () => {
  const app = await open();
  await app.pickScenario('counter');
  await app.run('{"step": 0}');
  await app.waitForCount(4);
  await app.select('c2');
  assert.equal(await app.name('c2'), 'Checkpoint c2, step 1, loop, next: b');

  // Invalid JSON: inline error, buttons disabled, nothing changes.
  let dialog = await app.fork('{"step": 4', null);
  await dialog.getByRole('alert').getByText(/Invalid JSON/).waitFor();
  assert.ok(await dialog.getByRole('button', { name: 'Apply and run' }).isDisabled());
  await app.page.keyboard.press('Escape');

  dialog = await app.fork('{"step": 41}', 'a');
  await dialog.getByText('Resulting next: b').waitFor();
  await dialog.getByRole('button', { name: 'Apply and run' }).click();
  await app.waitForCount(6);
  assert.equal(await app.parentOf('c4'), 'c2');
  assert.equal(await app.name('c4'), 'Checkpoint c4, step 2, update, next: b');
  await app.select('c5');
  await app.inspector.getByText('42', { exact: true }).first().waitFor();
  await app.inspector.getByText('41', { exact: true }).first().waitFor(); // the diff vs parent: 41 → 42
  await app.shot('counter-fork');

  // Unknown node: the engine's error inline, no new checkpoint.
  await app.select('c2');
  dialog = await app.fork('{"step": 1}', null);
  await dialog.getByRole('combobox', { name: 'As node' }).evaluate((s) => {
    const o = document.createElement('option');
    o.value = 'nope';
    o.textContent = 'nope';
    s.append(o);
  });
  await dialog.getByRole('combobox', { name: 'As node' }).selectOption('nope');
  await dialog.getByRole('button', { name: 'Apply', exact: true }).click();
  await dialog.getByText('Node nope does not exist').first().waitFor();
  await app.page.keyboard.press('Escape');
  assert.equal(await app.count(), 6);

  // Bad JSON input and a bad spec: inline errors, nothing changes.
  await app.run('{oops');
  await app.page.getByRole('alert').getByText(/Invalid JSON/).waitFor();
  assert.equal(await app.count(), 6);
  await app.page.getByText('Graph spec (JSON)').first().click();
  await app.page.getByRole('textbox', { name: 'Graph spec (JSON)' }).fill('{"nodes": {}, "edges": [["__start__", "ghost"]]}');
  await app.button('Load spec').click();
  await app.page.locator('.spec-editor [role=alert]').waitFor();
  assert.equal(await app.count(), 6);
  assert.equal(await app.scenario.inputValue(), 'counter');
});

test('human in the loop: the run pauses, Resume answers with a value', async () => {
  const app = await open();
  await app.pickScenario('human-in-the-loop');
  await app.run('{"log": []}');
  await app.page.waitForFunction(() => document.querySelectorAll('svg.dag g.node > .node-button').length >= 3);
  const n = await app.count();
  const last = `c${n - 1}`;
  await app.select(last);
  assert.match(await app.name(last), /next: review/);
  await app.inspector.getByText(/interrupted/).waitFor();
  await app.page.getByRole('textbox', { name: 'Resume value (JSON)' }).fill('"yes"');
  await app.button('Resume').click();
  await app.waitForCount(n + 2);
  assert.match(await app.name(`c${n + 1}`), /next: done/);
  await app.shot('human-in-the-loop');
});

test('export, reset and import the thread as a JSON file', async () => {
  const app = await open();
  await app.send('one');
  await app.select('c2');
  await app.replay();
  assert.equal(await app.count(), 6);
  const [download] = await Promise.all([app.page.waitForEvent('download'), app.button('Export').click()]);
  const dir = mkdtempSync(join(tmpdir(), 'chronograph-e2e-'));
  const file = join(dir, 'thread.json');
  await download.saveAs(file);
  const data = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(data.namespaces[0].checkpoints.length, 6, 'the export holds every checkpoint');

  await app.button('Reset').click();
  await app.waitForCount(0);
  await app.button('Import').click();
  await app.page.getByLabel('Import thread file').setInputFiles(file);
  await app.waitForCount(6);
  assert.equal(await app.parentOf('c4'), 'c2');

  // A file that is not an export: inline error, nothing changes.
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"hello": 1}');
  await app.button('Import').click();
  await app.page.getByLabel('Import thread file').setInputFiles(bad);
  await app.page.getByTestId('import-error').getByText('In bad.json:').waitFor();
  await app.page.getByRole('alert').getByText(/Cannot import the thread/).waitFor();
  assert.equal(await app.count(), 6);
});

test('reload keeps scenario, thread and selection; the URL names them', async () => {
  const app = await open();
  await app.send('remember me');
  await app.select('c1');
  await app.page.waitForFunction(() => location.search.includes('checkpoint=c1'));
  assert.match(app.page.url(), /scenario=chat/);
  await app.page.reload({ waitUntil: 'load' });
  await app.waitForCount(4);
  assert.equal(await app.selectedLabel(), 'c1');
  assert.equal(await app.logLines().then((l) => l.length), 1);

  // A link names the scenario and checkpoint.
  await app.pickScenario('reducers');
  await app.run('{"foo": "", "bar": []}');
  await app.waitForCount(4);
  await app.select('c2');
  const url = app.page.url();
  assert.match(url, /scenario=reducers&checkpoint=c2/);
  await app.page.goto(url, { waitUntil: 'load' });
  await app.waitForCount(4);
  assert.equal(await app.scenario.inputValue(), 'reducers');
  assert.equal(await app.selectedLabel(), 'c2');
});

test('a 2,000-checkpoint thread renders and stays interactive (times printed, not asserted)', async () => {
  const app = await open();
  await app.pickScenario('counter');
  const json = execFileSync('cargo', ['run', '-q', '-p', 'chronograph-web', '--example', 'big_thread', '--', '2000'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  const dir = mkdtempSync(join(tmpdir(), 'chronograph-e2e-'));
  const file = join(dir, 'big.json');
  writeFileSync(file, json);
  const n = JSON.parse(json).namespaces[0].checkpoints.length;
  assert.ok(n >= 2000);

  const stats = app.page.getByTestId('tree-stats');
  await app.button('Import').click();
  let t = Date.now();
  await app.page.getByLabel('Import thread file').setInputFiles(file);
  await stats.getByText(`${n} checkpoints`).waitFor({ timeout: 30_000 });
  await app.checkpoint(`c${n - 1}`).waitFor();
  console.log(`  2k: import + render of ${n} checkpoints: ${Date.now() - t} ms`);
  const drawn = await app.count();
  console.log(`  2k: checkpoint buttons in the DOM (rows in view + margin): ${drawn}`);
  assert.ok(drawn > 10 && drawn < n, 'a big thread draws the rows in view, not all 2,000');

  const label = async () => app.selectedLabel();
  const until = (l) => app.page.waitForFunction((l) => document.querySelector('.inspector .snap-label')?.textContent.trim() === l, l);
  await app.checkpoint(`c${n - 1}`).focus();
  t = Date.now();
  await app.page.keyboard.press('Home');
  await until('c0');
  await app.checkpoint('c0').waitFor();
  console.log(`  2k: Home (jump 2,000 rows up, select c0): ${Date.now() - t} ms`);
  t = Date.now();
  await app.checkpoint('c5').click();
  await until('c5');
  console.log(`  2k: click-select c5: ${Date.now() - t} ms`);
  t = Date.now();
  await app.page.keyboard.press('ArrowDown');
  await until('c6');
  console.log(`  2k: arrow-key select: ${Date.now() - t} ms`);
  t = Date.now();
  for (let k = 0; k < 20; k++) await app.page.keyboard.press('j');
  await until('c26');
  console.log(`  2k: 20 × j (next row): ${Date.now() - t} ms`);
  t = Date.now();
  await app.page.keyboard.press('End');
  await until(`c${n - 1}`);
  console.log(`  2k: End (select the newest): ${Date.now() - t} ms`);
  assert.equal(await label(), `c${n - 1}`);
  t = Date.now();
  await app.button('Copy').click();
  await stats.getByText(`${n + 1} checkpoints`).waitFor();
  console.log(`  2k: Copy (engine call + refresh): ${Date.now() - t} ms`);
  await app.shot('big-thread');

  // 76 branches are far wider than the panel: the label column sticks to the
  // visible area, so the rows in view are readable wherever the tree is panned.
  const labelInView = async (label) => {
    const [box, view] = [
      await app.page.locator(`svg.dag g.node[data-label="${label}"] .row-text`).boundingBox(),
      await app.tree.boundingBox(),
    ];
    return box && view && box.x >= view.x && box.x + box.width <= view.x + view.width + 1;
  };
  assert.ok(await labelInView(`c${n}`), `the newest checkpoint's label (right-most lane) is in view`);
  await app.checkpoint(`c${n}`).focus();
  await app.page.keyboard.press('Home');
  await until('c0');
  assert.ok(await labelInView('c0'), `c0's label (left-most lane) is in view`);
  assert.ok(await labelInView('c5'), 'labels of the other rows in view are in view');
  await app.shot('big-thread-top');
});

test('every scenario loads and runs its first input; narrow screens stack the panels', async () => {
  const app = await open();
  for (const id of ['fanout', 'agent-loop', 'reducers']) {
    await app.pickScenario(id);
    await app.button('Run').click();
    await app.page.waitForFunction(() => document.querySelectorAll('svg.dag g.node > .node-button').length >= 3);
    await app.page.locator('.topo-node').first().waitFor();
  }
  await app.select('c2');
  await app.shot('reducers');
  await app.pickScenario('agent-loop');
  await app.button('Run').click();
  await app.page.waitForFunction(() => document.querySelectorAll('svg.dag g.node > .node-button').length >= 6);
  await app.select('c3');
  await app.shot('agent-loop');
  await app.page.setViewportSize({ width: 700, height: 900 });
  await app.page.screenshot({ path: join(shots, 'narrow.png'), fullPage: true });
});

test('lesson mode: predict, run and check all 13 steps of the tour', async () => {
  await lessonTour(await open());
});
