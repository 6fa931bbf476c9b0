// End-to-end tests against a real LangGraph Agent Server: `langgraph dev` (Python,
// langgraph-cli[inmem] pinned in server/requirements.txt, installed once into a venv in
// the build cache) serving the test graph of server/graph.py on a free loopback port,
// with tracing and analytics off. The test runs a thread through the server's HTTP API
// (a loop, a Send fan-out, messages, a slow node, and an interrupt inside the `review`
// subgraph), opens it in the app by the deep link and through the Connect dialog, and
// checks the drawn tree against the server's own /history, read here: the same
// checkpoint count, ids, parents, steps, sources and next. Then the errors (a stopped
// server, a missing thread), the API key kept out of the URL and storage, and the axe
// audit of the dialog and the thread in both languages. The server stops at the end,
// on failure too.
// Run: scripts/build-web.sh && node --test web/e2e/server.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { clickAndWaitForMore, suite } from './harness.mjs';
import { api, ensureVenv, freePort, runTripThread, startAgentServer, wholeHistory } from './server/agent_server.mjs';

const open = suite();
let lg;
let threadId;
/** The server's root history, oldest first, as the server itself answers it. */
let history;
const rootHistory = () => history;

before(async () => {
  let t = Date.now();
  const bin = ensureVenv(console.log);
  console.log(`  venv ready in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  t = Date.now();
  lg = await startAgentServer({ bin });
  console.log(`  langgraph dev answered on ${lg.url} after ${((Date.now() - t) / 1000).toFixed(1)} s`);
  threadId = await runTripThread(lg.url);
  history = (await wholeHistory(lg.url, threadId)).reverse();
});

after(async () => {
  await lg?.stop();
});

/**
 * Drops from `app`'s recorded page problems the ones a test provoked on purpose (the
 * browser logs a refused connection and a 404 answer as errors of its own).
 */
function expectProblems(app, ...patterns) {
  const kept = app.problems.filter((p) => !patterns.some((re) => re.test(p)));
  app.problems.splice(0, app.problems.length, ...kept);
}

/** A history item's `next` as the tree names it: `done` when empty, `3 × research` for a Send fan-out's tasks. */
function nextOf(item) {
  if (!item.next.length) return 'done';
  const counts = new Map();
  for (const n of item.next) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, k]) => (k > 1 ? `${k} × ${n}` : n)).join(', ');
}
const deepLink = (app, thread) => `${new URL(app.page.url()).origin}/?server=${encodeURIComponent(lg.url)}${thread ? `&thread=${thread}` : ''}`;

/** Opens the Connect dialog from the toolbar. */
async function connectDialog(app) {
  await app.button(app.lang === 'zh' ? '连接到服务器…' : 'Connect to a server…').click();
  const dialog = app.page.getByRole('dialog', { name: app.lang === 'zh' ? '连接到 LangGraph 服务器' : 'Connect to a LangGraph server' });
  await dialog.waitFor();
  return dialog;
}

/** Checks the tree of the page against the server's root history `history` (oldest first): every checkpoint, by label. */
async function assertTreeIsTheServers(app, history = rootHistory()) {
  await app.waitForCount(history.length);
  const labelOf = new Map(history.map((h, i) => [h.checkpoint.checkpoint_id, `c${i}`]));
  for (const [i, h] of history.entries()) {
    const label = `c${i}`;
    const name = (await app.name(label)).replace(/, HEAD$/, '');
    assert.equal(name, app.w.checkpoint(label, h.metadata.step, h.metadata.source, nextOf(h)), label);
    const parent = h.parent_checkpoint ? labelOf.get(h.parent_checkpoint.checkpoint_id) : null;
    assert.equal(await app.parentOf(label), parent, `${label}'s parent`);
    assert.equal((await app.inspector.locator('dd.id').first().textContent()).trim(), h.checkpoint.checkpoint_id, `${label}'s id`);
  }
}

test('a server thread opens by its deep link, drawn exactly as the server records it', async () => {
  const app = await open();
  await app.goto(deepLink(app, threadId));
  await assertTreeIsTheServers(app);
  assert.equal(await app.headLabel(), `c${history.length - 1}`);
  const status = app.page.getByRole('status').filter({ hasText: `from the LangGraph server ${lg.url}; actions run there` });
  await status.waitFor();
  assert.match(await status.textContent(), /^Opened 10 checkpoints/, '7 root checkpoints and the 3 of the review subgraph');
  // The Send fan-out: three research tasks after plan.
  assert.ok(history.some((h) => h.next.join() === 'research,research,research'));
  // The subgraph's namespace is drawn collapsed, in the same frames as an in-page thread's.
  const owner = `c${history.length - 1}`;
  const toggle = app.page.locator(`svg.dag [data-expand="${owner}"]`);
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  await toggle.click();
  await app.waitForCount(history.length + 3);
  const frame = app.page.locator('svg.dag .frame[data-ns]').first();
  assert.match(await frame.getAttribute('data-ns'), /^review:[0-9a-f-]{36}$/);
  assert.equal(await app.name('s2'), 'Checkpoint s2, step 1, loop, next: ask');
  // No run bar (not the previous scenario's): a server thread's runs are its buttons'.
  assert.equal(await app.message.count(), 0);
  assert.equal(await app.input.count(), 0);
  // The URL names the server and the thread, so a reload reads it again.
  const url = new URL(app.page.url());
  assert.equal(url.searchParams.get('server'), lg.url);
  assert.equal(url.searchParams.get('thread'), threadId);
  await app.shot('server-thread');
  await app.audit('a server thread (en)');
});

test('the Connect dialog lists the threads newest first, searches them and opens one; the key stays in memory', async () => {
  const app = await open();
  const other = await runTripThread(lg.url);
  const dialog = await connectDialog(app);
  assert.equal(await dialog.getByLabel('Server URL').inputValue(), 'http://127.0.0.1:2024');
  await dialog.getByLabel('Server URL').fill(lg.url);
  await dialog.getByLabel('API key (optional, sent as x-api-key)').fill('secret-key-123');
  await dialog.getByRole('button', { name: 'List threads' }).click();
  const rows = dialog.locator('table.thread-table tbody tr');
  await rows.first().waitFor();
  const ids = await rows.locator('td:first-child').allTextContents();
  assert.ok(ids.length >= 2, ids.join());
  assert.equal(ids[0], other, 'newest first');
  assert.ok(ids.includes(threadId));
  assert.match(await rows.first().textContent(), /interrupted.*trip.*chronograph e2e/);
  await app.shot('connect-dialog');
  await app.audit('the Connect dialog (en)');
  await dialog.getByRole('searchbox', { name: 'Search threads' }).fill(threadId.slice(-12));
  assert.deepEqual(await rows.locator('td:first-child').allTextContents(), [threadId]);
  await dialog.getByRole('button', { name: `Open thread ${threadId}` }).click();
  await dialog.waitFor({ state: 'hidden' });
  await assertTreeIsTheServers(app);
  // The key was used, and is nowhere but in memory.
  const stored = await app.page.evaluate(() => JSON.stringify({ ...localStorage }));
  assert.ok(!stored.includes('secret-key-123'), 'not in localStorage');
  assert.ok(!app.page.url().includes('secret-key-123'), 'not in the URL');
});

test('a stopped server and a missing thread say what they mean, in English and Chinese, and replace nothing', async () => {
  const app = await open();
  await app.send(app.w.messages[0]);
  await app.select('c1');
  const before = await app.count();
  const stopped = `http://127.0.0.1:${await freePort()}`;
  const dialog = await connectDialog(app);
  await dialog.getByLabel('Server URL').fill(stopped);
  await dialog.getByRole('button', { name: 'List threads' }).click();
  const error = dialog.getByTestId('server-error');
  await error.getByText(`No answer from ${stopped}. Either the server is not running, or the browser refused its answer (CORS`).waitFor();
  await error.getByText("langgraph.json's http.cors", { exact: false }).waitFor();
  await error.getByText('serve this app from localhost', { exact: false }).or(error.getByText('Serve this app from localhost', { exact: false })).waitFor();
  await app.shot('connect-dialog-unreachable');
  await app.audit('the Connect dialog with an error (en)');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await app.count(), before, 'the thread stays');
  assert.equal(await app.selectedLabel(), 'c1', 'the selection stays');
  expectProblems(app, /ERR_CONNECTION_REFUSED/);
  // A missing thread (404), by deep link, in Chinese: the server's own text is shown as text.
  const zh = await open(undefined, undefined, 'zh');
  await zh.goto(`${deepLink(zh, '00000000-0000-0000-0000-000000000000')}&lang=zh`);
  const zhDialog = zh.page.getByRole('dialog', { name: '连接到 LangGraph 服务器' });
  await zhDialog.getByText('服务器上没有这个线程（404）。').waitFor();
  await zhDialog.getByText('Thread with ID 00000000-0000-0000-0000-000000000000 not found').waitFor();
  await zh.shot('connect-dialog-404-zh');
  await zh.audit('the Connect dialog with an error (zh)');
  await zhDialog.getByRole('button', { name: '取消' }).click();
  expectProblems(zh, /status of 404/);
  await zh.goto(deepLink(zh, threadId) + '&lang=zh');
  await zh.waitForCount(history.length);
  await zh.page.getByRole('status').filter({ hasText: '来自 LangGraph 服务器' }).waitFor();
  await zh.shot('server-thread-zh');
  await zh.audit('a server thread (zh)');
  const list = await connectDialog(zh);
  await list.getByLabel('服务器 URL').fill(lg.url);
  await list.getByRole('button', { name: '列出线程' }).click();
  await list.locator('table.thread-table tbody tr').first().waitFor();
  await zh.shot('connect-dialog-zh');
  await zh.audit('the Connect dialog (zh)');
});

/** The server's root history of `thread`, oldest first, read from the server's own API. */
const serverHistory = async (thread) => (await wholeHistory(lg.url, thread)).reverse();

test('replay, fork as a node and run, copy and resume run on the server, with its graph; the tree is the server\'s after each', async () => {
  const started = Date.now();
  const app = await open();
  const thread = await runTripThread(lg.url);
  await app.goto(deepLink(app, thread));
  let h = await serverHistory(thread);
  await app.waitForCount(h.length);
  const id = (i) => h[i].checkpoint.checkpoint_id;
  assert.deepEqual(h[3].next, ['plan']);
  const [c1, c2, c3] = [id(1), id(2), id(3)];
  const newIn = (after, before) => after.filter((x) => !before.some((b) => b.checkpoint.checkpoint_id === x.checkpoint.checkpoint_id));

  // Replay from c3: the server forks it (source fork, under c3) and runs plan … review again.
  await app.select('c3');
  await clickAndWaitForMore(app, app.button(app.w.replay));
  let after = await serverHistory(thread);
  let made = newIn(after, h);
  assert.equal(made[0].metadata.source, 'fork');
  assert.equal(made[0].parent_checkpoint.checkpoint_id, c3);
  assert.deepEqual(made.at(-1).next, ['review'], 'the run paused again on the subgraph\'s interrupt');
  await app.waitForCount(after.length);
  assert.equal(await app.selectedLabel(), `c${after.length - 1}`, 'the newest checkpoint it made is selected');
  assert.equal(await app.page.locator('svg.dag .node.fresh').count(), made.length, 'and highlighted');
  h = after;

  // Fork c3 as research (not the greet LangGraph would infer), Apply and run: update_state on the
  // server, then a run from its checkpoint, which goes on to summarize.
  await app.select('c3');
  const dialog = await app.fork('{"notes": ["forked note"]}', 'research');
  await dialog.getByText('Apply and run: the server updates the state').waitFor();
  await app.shot('server-fork-dialog');
  await app.audit('the Fork dialog on a server thread (en)');
  await clickAndWaitForMore(app, dialog.getByRole('button', { name: app.w.applyAndRun, exact: true }));
  await dialog.waitFor({ state: 'hidden' });
  after = await serverHistory(thread);
  made = newIn(after, h);
  const update = made[0];
  assert.equal(update.metadata.source, 'update');
  assert.equal(update.parent_checkpoint.checkpoint_id, c3);
  assert.deepEqual(update.values.notes, ['forked note']);
  assert.deepEqual(update.next, ['summarize'], 'written as research, whose edge leads to summarize');
  assert.equal(made[1].parent_checkpoint.checkpoint_id, update.checkpoint.checkpoint_id, 'the run continued from the update');
  assert.equal(made[1].metadata.source, 'loop');
  assert.deepEqual(made.at(-1).next, ['review'], 'summarize ran on the server, then the review subgraph paused');
  h = after;

  // Copy c2: a sibling of c2 (source fork, under c2's parent) with c2's values.
  await app.select('c2');
  await clickAndWaitForMore(app, app.button(app.w.copy));
  after = await serverHistory(thread);
  made = newIn(after, h);
  assert.equal(made.length, 1);
  assert.equal(made[0].metadata.source, 'fork');
  assert.equal(made[0].parent_checkpoint.checkpoint_id, c1);
  assert.deepEqual(made[0].values, h[2].values);
  assert.equal(h[2].checkpoint.checkpoint_id, c2);
  h = after;

  // Resume the interrupt the forked run paused on with "yes": the subgraph's ask returns it, the run ends.
  const waiting = h.findLast((x) => x.next.join() === 'review');
  await app.select(`c${h.indexOf(waiting)}`);
  const resume = app.page.getByRole('textbox', { name: app.w.resumeValue });
  await resume.fill('"yes"');
  await clickAndWaitForMore(app, app.button(app.w.resume));
  after = await serverHistory(thread);
  made = newIn(after, h);
  assert.equal(made.at(-1).values.verdict, 'yes');
  assert.deepEqual(made.at(-1).next, []);
  assert.equal(made[0].parent_checkpoint.checkpoint_id, waiting.checkpoint.checkpoint_id);
  h = after;

  // The drawn tree is the server's: every checkpoint's id, parent, step, source and next.
  await assertTreeIsTheServers(app, h);
  const log = await app.logLines();
  assert.ok(log.some((l) => /^POST \/threads\/[0-9a-f-]+\/state, POST \/threads\/[0-9a-f-]+\/runs\/(?:wait|stream) → c\d+ … [cs]\d+(; Predicted next .+: as predicted\.)?$/.test(l)), log.join('\n'));
  await app.shot('server-thread-actions');

  // A refused update (422): LangGraph's text, as text; the thread and the selection stay.
  await app.select('c3');
  const count = await app.count();
  const refused = await app.fork('5');
  await refused.getByRole('button', { name: app.w.apply, exact: true }).click();
  await refused.getByText(app.w.serverRefused(422)).waitFor();
  await refused.getByText("5 is not valid under any of the schemas listed in the 'anyOf' keyword", { exact: false }).waitFor();
  await refused.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await app.count(), count);
  assert.equal(await app.selectedLabel(), 'c3');
  assert.equal((await serverHistory(thread)).length, h.length, 'nothing written on the server');
  expectProblems(app, /status of 422/);
  console.log(`  server actions (en) took ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

test('a busy thread (409) says so in Chinese and English, and nothing changes', async () => {
  const started = Date.now();
  const thread = await runTripThread(lg.url);
  const h = await serverHistory(thread);
  const zh = await open(undefined, undefined, 'zh');
  await zh.goto(`${deepLink(zh, thread)}&lang=zh`);
  await zh.waitForCount(h.length);
  await zh.select('c3');
  // A run queued on the thread for later keeps it busy (LangGraph counts pending runs as in flight).
  const pending = await api(lg.url, 'POST', `/threads/${thread}/runs`, {
    assistant_id: 'trip',
    input: null,
    checkpoint_id: h[3].checkpoint.checkpoint_id,
    after_seconds: 120,
  });
  try {
    await zh.button(zh.w.replay).click();
    const error = zh.page.locator('.actions').getByText(zh.w.serverBusy, { exact: false });
    await error.waitFor();
    assert.match(await error.textContent(), /Thread is already running a task/);
    assert.match(await error.textContent(), new RegExp(zh.w.serverKept));
    assert.equal(await zh.count(), h.length, 'the thread stays');
    assert.equal(await zh.selectedLabel(), 'c3', 'the selection stays');
    await error.scrollIntoViewIfNeeded();
    await zh.shot('server-busy-zh');
    await zh.audit('a busy server thread (zh)');
    // The Fork dialog's update is refused the same way, in English too.
    const en = await open();
    await en.goto(deepLink(en, thread));
    await en.waitForCount(h.length);
    await en.select('c2');
    const dialog = await en.fork('{"rounds": 1}', 'greet');
    await dialog.getByRole('button', { name: en.w.apply, exact: true }).click();
    await dialog.getByText(en.w.serverBusy, { exact: false }).waitFor();
    await dialog.getByText('has in-flight runs', { exact: false }).waitFor();
    await en.shot('server-busy');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await en.count(), h.length);
    expectProblems(en, /status of 409/);
  } finally {
    await api(lg.url, 'POST', `/threads/${thread}/runs/${pending.run_id}/cancel`).catch(() => {});
  }
  expectProblems(zh, /status of 409/);
  assert.equal((await serverHistory(thread)).length, h.length, 'nothing written on the server');
  console.log(`  busy thread (zh, en) took ${((Date.now() - started) / 1000).toFixed(1)} s`);
});
