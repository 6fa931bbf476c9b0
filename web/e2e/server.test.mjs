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
import { suite } from './harness.mjs';
import { ensureVenv, freePort, runTripThread, startAgentServer, wholeHistory } from './server/agent_server.mjs';

const open = suite();
let lg;
let threadId;
/** The server's root history, oldest first, as the server itself answers it. */
let history;

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

/** Checks the tree of the page against the server's history: every checkpoint, by label. */
async function assertTreeIsTheServers(app) {
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
  const status = app.page.getByRole('status').filter({ hasText: `from the LangGraph server ${lg.url}; edits stay in this page` });
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
  // Nothing runs here: no run bar (not the previous scenario's), and Replay waits for a graph.
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
