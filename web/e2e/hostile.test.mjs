// End-to-end: the page is safe with hostile threads and specs, and nothing
// races an import.
//   1. A graph spec whose node names, channel values and messages are HTML and
//      script, loaded in the spec editor, run, exported, edited to carry more
//      markup, and imported back through the Import button: every piece shows
//      as literal text, and no script ran (window.__xss stays undefined, no
//      <img src=x> or injected <script> in the document, no dialog).
//   2. An import whose file read is held open: while it is read every engine
//      action is disabled and a status says what is in flight; the thread is
//      replaced once the read completes.
// Run: scripts/build-web.sh && node --test web/e2e/hostile.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from './harness.mjs';

const open = suite();

const IMG = '<img src=x onerror=window.__xss=1>';
const SCRIPT = '<script>window.__xss=2</script>';
const ATTR = '"><svg onload=window.__xss=3>';
const ALERT = "<iframe srcdoc=\"<script>parent.__xss=4</script>\"></iframe><b onmouseover=alert(5)>x</b>";

/** A chat graph whose every name and written value is markup. */
const spec = {
  channels: { messages: { reducer: 'add_messages' }, note: { reducer: 'last_value' } },
  nodes: {
    [IMG]: { writes: [{ set: { note: { [SCRIPT]: ATTR } } }, { reply: 'messages', prefix: `${IMG} ` }] },
    [SCRIPT]: { writes: [{ interrupt: { ask: ATTR }, resume_to: 'note' }] },
  },
  edges: [
    ['__start__', IMG],
    [IMG, SCRIPT],
    [SCRIPT, '__end__'],
  ],
};

/** Asserts that no injected markup became a live element and no script ran. */
async function noScriptRan(app, dialogs) {
  const page = app.page;
  assert.equal(await page.evaluate(() => window.__xss), undefined, 'window.__xss stays undefined');
  assert.equal(await page.locator('img[src="x"]').count(), 0, 'no <img src=x> element');
  assert.equal(await page.locator('svg[onload], iframe, b[onmouseover]').count(), 0, 'no injected svg, iframe or b');
  const scripts = await page.evaluate(() => [...document.scripts].map((s) => s.textContent).filter((t) => t.includes('__xss')));
  assert.deepEqual(scripts, [], 'no injected <script>');
  assert.deepEqual(dialogs, [], 'no alert or other dialog');
}

test('hostile node names, values and messages show as text; no script runs, through spec load, run, export and import', async () => {
  const app = await open();
  const page = app.page;
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss();
  });

  // Load the spec through the spec editor.
  await page.getByText('Graph spec (JSON)', { exact: true }).click();
  await page.getByRole('textbox', { name: 'Graph spec (JSON)' }).fill(JSON.stringify(spec, null, 2));
  await app.button('Load spec').click();
  await app.waitForCount(0);
  // The node names are drawn in the topology view as text.
  await page.getByText(IMG, { exact: true }).first().waitFor();
  await page.getByText(SCRIPT, { exact: true }).first().waitFor();

  // Run it with a hostile message: it pauses at the interrupt of node SCRIPT.
  await app.send(`${SCRIPT} hi ${IMG}`);
  const chat = page.getByRole('region', { name: 'Chat' });
  await chat.getByText(`${SCRIPT} hi ${IMG}`, { exact: true }).waitFor();
  await chat.getByText(`${IMG} ${SCRIPT} hi ${IMG}`, { exact: true }).waitFor();
  // The inspector shows the hostile values (the newest checkpoint is selected).
  await app.inspector.getByText(ATTR, { exact: false }).first().waitFor();
  await noScriptRan(app, dialogs);

  // Export, add more markup to the file (message contents, a value, a metadata key), import it back.
  const [download] = await Promise.all([page.waitForEvent('download'), app.button('Export').click()]);
  const exported = JSON.parse(readFileSync(await download.path(), 'utf8'), (k, v) =>
    typeof v === 'string' ? v.replaceAll(' hi ', ` ${ALERT} `) : v,
  );
  exported.namespaces[0].checkpoints[0].metadata[ATTR] = IMG;
  const edited = JSON.stringify(exported, null, 2);
  assert.ok(edited.includes(JSON.stringify(`${SCRIPT} ${ALERT} ${IMG}`)), 'the export carries the edited message');
  const file = join(mkdtempSync(join(tmpdir(), 'chronograph-hostile-')), 'hostile-thread.json');
  writeFileSync(file, edited);
  const before = await app.count();
  await app.button('Reset').click();
  await app.waitForCount(0);
  await app.button('Import').click();
  await page.getByLabel('Import thread file').setInputFiles(file);
  await app.waitForCount(before);
  const log = await app.logLines();
  assert.equal(log.at(-1), 'import_thread(file)');

  // The imported markup shows literally in the chat view and the inspector.
  await chat.getByText(`${SCRIPT} ${ALERT} ${IMG}`, { exact: true }).waitFor();
  await chat.getByText(`${IMG} ${SCRIPT} ${ALERT} ${IMG}`, { exact: true }).waitFor();
  await app.select('c0');
  await app.inspector.getByText(ATTR, { exact: false }).first().waitFor();
  // Resume with markup as the answer: it lands in `note` as a string, shown as text.
  await app.select(`c${before - 1}`);
  await page.getByRole('textbox', { name: 'Resume value (JSON)' }).fill(JSON.stringify(ALERT));
  await app.button('Resume').click();
  await app.waitForCount(before + 1);
  // (The inspector shows string values as JSON, quotes escaped.)
  await app.inspector.getByText(JSON.stringify(ALERT), { exact: false }).first().waitFor();
  // Hovering the injected <b onmouseover> text would fire it if it were markup.
  await chat.getByText(`${SCRIPT} ${ALERT} ${IMG}`, { exact: true }).hover();
  await noScriptRan(app, dialogs);
  await app.shot('hostile-thread');
});

test('while an imported file is being read, every action is disabled and says why', async () => {
  // Holds Blob.text() (what the app reads a chosen file with) until the test releases it.
  const hold = () => {
    const text = Blob.prototype.text;
    Blob.prototype.text = function () {
      const read = text.call(this);
      return new Promise((resolve) => {
        window.__releaseFile = () => read.then(resolve);
      });
    };
  };
  const app = await open(undefined, hold);
  const page = app.page;
  await app.send('one');
  const [download] = await Promise.all([page.waitForEvent('download'), app.button('Export').click()]);
  const file = join(mkdtempSync(join(tmpdir(), 'chronograph-busy-')), 'held-thread.json');
  writeFileSync(file, readFileSync(await download.path()));
  await app.send('two');
  assert.equal(await app.count(), 8);
  await app.select('c3');

  await app.button('Import').click();
  await page.getByLabel('Import thread file').setInputFiles(file);
  await page.getByRole('status').filter({ hasText: 'importing held-thread.json…' }).waitFor();
  for (const name of ['Send', 'Replay', 'Fork', 'Copy', 'Import', 'Reset']) {
    assert.ok(await app.button(name).isDisabled(), `${name} is disabled while the file is read`);
  }
  assert.ok(await app.scenario.isDisabled(), 'the scenario picker is disabled too');
  // A keyboard replay on the tree (not a button) is refused by the app state, with the reason shown.
  await app.checkpoint('c3').focus();
  await page.keyboard.press('Enter');
  await page.getByRole('alert').filter({ hasText: 'Wait: importing held-thread.json is not finished.' }).first().waitFor();
  assert.equal(await app.count(), 8, 'nothing ran on the thread about to be replaced');

  await page.evaluate(() => window.__releaseFile());
  await app.waitForCount(4);
  assert.equal(await page.getByRole('status').filter({ hasText: 'importing' }).count(), 0);
  assert.ok(!(await app.button('Import').isDisabled()), 'enabled again');
  assert.ok(!(await app.button('Send').isDisabled()));
  await app.send('three');
  assert.equal(await app.count(), 8);
});
