// End-to-end tests of importing a thread written by real LangGraph: the seed walkthrough
// run on LangGraph 1.2.22 (Python) and dumped with get_state_history
// (core/tests/fixtures/import/python_history.json, written by make_python_history.py
// beside it), opened through the Import dialog's file choice and its paste box. The
// tree, the diff, a fork by update_state, Replay waiting for the graph's nodes until a
// spec is attached, a malformed file (the error names line, column and JSON path, and
// the thread on the page stays), and the dialog's axe audit in both languages.
// Run: scripts/build-web.sh && node --test web/e2e/import.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, suite } from './harness.mjs';

const open = suite();
const fixtures = join(root, 'core', 'tests', 'fixtures', 'import');
const pythonHistory = join(fixtures, 'python_history.json');
const agentServer = readFileSync(join(fixtures, 'agent_server_history.json'), 'utf8');
const chatSpec = `{
  "channels": {"messages": {"reducer": "add_messages"}},
  "nodes": {"booking": {"writes": []}, "reply": {"writes": [{"reply": "messages", "prefix": "Reply: "}]}},
  "edges": [["__start__", "booking"], ["booking", "reply"], ["reply", "__end__"]]
}`;
// $[0].metadata.step is a string: the mistake is on line 3.
const malformed =
  '[\n {"values": {}, "config": {"configurable": {"thread_id": "t", "checkpoint_id": "a"}},\n  "metadata": {"source": "loop", "step": "two"}}\n]';

/** The walkthrough's 13 checkpoints as LangGraph wrote them: label → [step, source, next]. */
const WALKTHROUGH = {
  c0: [-1, 'input', '__start__'],
  c1: [0, 'loop', 'booking'],
  c2: [1, 'loop', 'reply'],
  c3: [2, 'loop', 'done'],
  c4: [3, 'input', '__start__'],
  c5: [4, 'loop', 'booking'],
  c6: [5, 'loop', 'reply'],
  c7: [6, 'loop', 'done'],
  c8: [2, 'fork', 'reply'],
  c9: [3, 'loop', 'done'],
  c10: [3, 'fork', 'done'],
  c11: [0, 'update', 'reply'],
  c12: [1, 'loop', 'done'],
};

function tempFile(name, text) {
  const file = join(mkdtempSync(join(tmpdir(), 'chronograph-import-')), name);
  writeFileSync(file, text);
  return file;
}

/** Opens the Import dialog from the toolbar. */
async function importDialog(app) {
  await app.button(app.lang === 'zh' ? '导入' : 'Import').click();
  const dialog = app.page.getByRole('dialog', { name: app.lang === 'zh' ? '导入线程' : 'Import a thread' });
  await dialog.waitFor();
  return dialog;
}

async function names(app, labels) {
  const out = {};
  // HEAD moves to the newest checkpoint: the names without it.
  for (const l of labels) out[l] = (await app.name(l)).replace(/, HEAD.*$/, '');
  return out;
}

test('a LangGraph (Python) history opens from a file: its tree, a diff, a fork by update_state, replay after attaching the graph', async () => {
  const app = await open();
  const page = app.page;
  const dialog = await importDialog(app);
  await app.shot('import-dialog-empty');
  await page.getByLabel('Import thread file').setInputFiles(pythonHistory);
  await dialog.waitFor({ state: 'hidden' });
  await app.waitForCount(13);

  // The tree: 13 checkpoints with LangGraph's steps, sources and next.
  for (const [label, [step, source, next]] of Object.entries(WALKTHROUGH)) {
    assert.ok((await app.name(label)).startsWith(app.w.checkpoint(label, step, source, next)), label);
  }
  assert.equal(await app.parentOf('c8'), 'c2', 'the replay from step 1 forks under c2');
  assert.equal(await app.parentOf('c11'), 'c0', 'the edited first message hangs under c0');
  assert.equal(await app.parentOf('c10'), 'c3', 'the replay of the finished round copies c3');
  assert.equal(await app.headLabel(), 'c12');
  await page.getByRole('status').filter({ hasText: 'Opened 13 checkpoints (Python get_state_history dump).' }).waitFor();
  assert.equal(await app.scenario.inputValue(), 'imported');
  assert.match(await page.getByTestId('tree-stats').textContent(), /13 checkpoints.*4 branches/);
  assert.equal((await app.logLines()).at(-1), 'import_thread(file)');

  // The diff between two checkpoints: c3 (after reply) against its parent c2, then pinned c1 against c12.
  const diff = app.inspector.locator('ul.diff');
  await app.select('c3');
  await app.inspector.getByRole('heading', { name: 'diff vs parent c2' }).waitFor();
  const added = await diff.locator('li').allTextContents();
  assert.equal(added.length, 1);
  assert.ok(added[0].startsWith('messages += {"type":"ai","content":"回复：明天上午还有号吗"'), added[0]);
  await app.select('c12');
  await app.inspector.getByRole('heading', { name: 'diff vs parent c11' }).waitFor();
  assert.match((await diff.locator('li').allTextContents()).join('\n'), /^messages \+= \{"type":"ai","content":"回复：改成明天下午两点的号"/);

  // Replay waits for the graph's nodes: the history has states, not code.
  await app.select('c2');
  assert.ok(await app.button('Replay').isDisabled(), 'no replay without the graph');
  const note = page.getByTestId('needs-graph');
  await note.getByText(/holds the states, not the nodes' code.*\(booking, reply\)/).waitFor();

  // Fork by update_state: the as_node choices are the history's node names.
  const before = await names(app, Object.keys(WALKTHROUGH));
  const fork = await app.fork('{"messages": [{"type": "human", "content": "fork from c2", "id": "m9"}]}', 'booking');
  const options = await fork.getByRole('combobox', { name: 'As node' }).locator('option').allTextContents();
  assert.deepEqual(options.slice(1), ['booking', 'reply']);
  await fork.getByText('Apply and run needs the graph', { exact: false }).waitFor();
  assert.equal(await fork.getByRole('button', { name: 'Apply and run' }).count(), 0);
  await fork.getByText(app.w.resultingNext('reply')).waitFor();
  await fork.getByRole('button', { name: 'Apply', exact: true }).click();
  await app.waitForCount(14);
  assert.ok((await app.name('c13')).startsWith(app.w.checkpoint('c13', 2, 'update', 'reply')));
  assert.equal(await app.parentOf('c13'), 'c2', 'an update child of c2, beside its old child c3');
  assert.match(await page.getByTestId('tree-stats').textContent(), /14 checkpoints.*5 branches/, 'on a new branch');
  assert.deepEqual(await names(app, Object.keys(WALKTHROUGH)), before, 'the imported checkpoints are untouched');
  assert.match((await app.logLines()).at(-1), /^update_state\(c2, .*as_node="booking"\) → c13$/);
  await app.select('c13');
  await app.inspector.getByRole('heading', { name: 'diff vs parent c2' }).waitFor();
  assert.match((await diff.locator('li').allTextContents()).join('\n'), /^messages \+= .*"type":"human","content":"fork from c2"/);
  await app.shot('imported-thread');

  // A reload keeps the imported thread, its recorded next and the wait for the graph.
  await page.reload({ waitUntil: 'load' });
  await app.waitForCount(14);
  assert.equal(await app.scenario.inputValue(), 'imported');
  assert.ok((await app.name('c0')).startsWith(app.w.checkpoint('c0', -1, 'input', '__start__')));
  await app.select('c2');
  assert.ok(await app.button('Replay').isDisabled(), 'still waiting for the graph');

  // Attach a graph spec: one whose node names do not fit is refused and changes nothing.
  await note.getByRole('button', { name: 'Attach a graph spec…' }).click();
  const spec = page.getByRole('textbox', { name: 'Graph spec (JSON)' });
  await spec.waitFor();
  assert.ok(await spec.evaluate((el) => el === document.activeElement), 'the spec editor has the focus');
  await spec.fill('{"nodes": {"booking": {"writes": []}}, "edges": [["__start__", "booking"]]}');
  await page.getByRole('button', { name: 'Attach to this thread' }).click();
  await page.getByRole('alert').filter({ hasText: 'This spec has no node named reply; the history names booking, reply.' }).waitFor();
  assert.ok(await app.button('Replay').isDisabled());
  assert.equal(await app.count(), 14);
  await spec.fill(chatSpec);
  await page.getByRole('button', { name: 'Attach to this thread' }).click();
  await page.getByText('Graph attached: replay and run now use its nodes.').waitFor();
  assert.equal(await app.count(), 14, 'attaching keeps the thread');
  assert.equal(await note.count(), 0);

  // Replay now runs the graph's nodes: a fork copy of c2, then reply.
  await app.select('c2');
  await app.replay();
  await app.waitForCount(16);
  assert.ok((await app.name('c14')).startsWith(app.w.checkpoint('c14', 2, 'fork', 'reply')));
  assert.ok((await app.name('c15')).startsWith(app.w.checkpoint('c15', 3, 'loop', 'done')));
  assert.equal((await app.logLines()).at(-1), 'invoke(None, c2) → c14 … c15');
  await app.select('c15');
  await app.inspector.getByRole('heading', { name: 'diff vs parent c14' }).waitFor();
  assert.match((await diff.locator('li').allTextContents()).join('\n'), /^messages \+= \{"type":"ai","content":"Reply: 明天上午还有号吗"/);
  assert.deepEqual(await names(app, Object.keys(WALKTHROUGH)), before, 'still untouched');
});

test('a malformed file and malformed pasted text: the error names line, column and path, and the thread on the page stays', async () => {
  const app = await open();
  const page = app.page;
  await app.send('one');
  await app.select('c2');
  await app.button(app.w.lessonButton).click();
  const lesson = page.getByRole('region', { name: app.w.lesson });
  await lesson.waitFor();
  const before = await app.logLines();

  // A file.
  let dialog = await importDialog(app);
  await page.getByLabel('Import thread file').setInputFiles(tempFile('broken.json', malformed));
  const error = dialog.getByTestId('import-error');
  await error.getByText('In broken.json:').waitFor();
  await error.getByText(/^Line 3, column \d+$/).waitFor();
  await error.getByText('at $[0].metadata.step').waitFor();
  await error.getByRole('alert').filter({ hasText: /INVALID_IMPORT|Cannot import the thread: .* at line 3, column \d+ \(\$\[0\]\.metadata\.step\)/ }).waitFor();
  await error.getByText('Nothing was replaced: the current thread is still open.').waitFor();
  // The file's text is in the box with the mistake selected.
  const box = dialog.getByRole('textbox', { name: 'Paste the JSON here' });
  assert.equal(await box.inputValue(), malformed);
  const [line, selected] = await box.evaluate((el) => [
    el.value.slice(0, el.selectionStart).split('\n').length,
    el.value.slice(el.selectionStart, el.selectionEnd),
  ]);
  assert.equal(line, 3, `the selection (${JSON.stringify(selected)}) is on line 3`);
  assert.equal(selected.length, 1);
  await app.shot('import-error');
  await app.audit('the Import dialog with an error (en)');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.ok(await app.page.locator('#import-button').evaluate((el) => el === document.activeElement), 'focus back on Import');
  assert.equal(await app.count(), 4, 'the thread on the page stays');
  assert.equal(await app.selectedLabel(), 'c2', 'and the selection');
  assert.ok(await lesson.isVisible(), 'and the lesson');
  assert.equal(await app.scenario.inputValue(), 'chat');
  assert.deepEqual(await app.logLines(), before);

  // Pasted text: not JSON at all.
  dialog = await importDialog(app);
  await dialog.getByRole('textbox', { name: 'Paste the JSON here' }).fill('[{"values": {}, ');
  await dialog.getByRole('button', { name: 'Import text' }).click();
  await dialog.getByTestId('import-error').getByText(/^Line 1, column \d+/).waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await app.count(), 4);
  assert.equal(await app.selectedLabel(), 'c2');
});

test('paste: an Agent Server history opens from the paste box (Ctrl+Enter), and so does Chronograph’s own export', async () => {
  const app = await open();
  const page = app.page;
  await app.send('one');
  const [download] = await Promise.all([page.waitForEvent('download'), app.button('Export').click()]);
  const exported = readFileSync(await download.path(), 'utf8');

  let dialog = await importDialog(app);
  const box = dialog.getByRole('textbox', { name: 'Paste the JSON here' });
  assert.ok(await box.evaluate((el) => el === document.activeElement), 'the paste box has the focus');
  await box.fill(agentServer);
  await page.keyboard.press('Control+Enter');
  await dialog.waitFor({ state: 'hidden' });
  await app.waitForCount(13);
  await page.getByRole('status').filter({ hasText: 'Opened 13 checkpoints (Agent Server history).' }).waitFor();
  for (const label of ['c2', 'c8', 'c11']) {
    const [step, source, next] = WALKTHROUGH[label];
    assert.equal(await app.name(label), app.w.checkpoint(label, step, source, next));
  }

  // Chronograph's own export goes back on the chat graph, runnable as before.
  await app.pickScenario('chat');
  dialog = await importDialog(app);
  await dialog.getByRole('textbox', { name: 'Paste the JSON here' }).fill(exported);
  await dialog.getByRole('button', { name: 'Import text' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await app.waitForCount(4);
  await page.getByRole('status').filter({ hasText: 'Opened 4 checkpoints (Chronograph export).' }).waitFor();
  await app.select('c2');
  assert.ok(!(await app.button('Replay').isDisabled()));
  await app.replay();
  await app.waitForCount(6);
});

for (const lang of ['en', 'zh']) {
  test(`axe (${lang}): the Import dialog and an imported thread have no violations`, async () => {
    const app = await open(undefined, undefined, lang);
    const dialog = await importDialog(app);
    await app.audit(`the Import dialog (${lang})`);
    await dialog.getByRole('textbox', { name: lang === 'zh' ? '在此粘贴 JSON' : 'Paste the JSON here' }).fill(malformed);
    await dialog.getByRole('button', { name: lang === 'zh' ? '导入文本' : 'Import text' }).click();
    await dialog.getByTestId('import-error').getByText(lang === 'zh' ? /^第 3 行，第 \d+ 列$/ : /^Line 3, column \d+$/).waitFor();
    await app.audit(`the Import dialog with an error (${lang})`);
    if (lang === 'zh') await app.shot('zh-import-dialog');
    await dialog.getByRole('textbox').fill(agentServer);
    await dialog.getByRole('button', { name: lang === 'zh' ? '导入文本' : 'Import text' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await app.waitForCount(13);
    await app.select('c2');
    await app.page.getByTestId('needs-graph').waitFor();
    await app.audit(`an imported thread waiting for its graph (${lang})`);
  });
}
