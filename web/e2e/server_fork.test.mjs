// End-to-end tests of a LangGraph server thread forked into a new thread, a fork inside a
// subgraph, the Fork dialog's prediction from the assistant's graph, a server that guards
// itself (its `langgraph.json` `http.cors` lets http://localhost:… in but leaves the app's
// http://127.0.0.1:… origin out, and a custom `auth` handler wants the right `x-api-key`),
// and a 2,000-checkpoint thread. Two real Agent Servers (`langgraph dev`, pinned, from the
// cached venv), started together and shared by the tests: A serves the trip graph as
// server.test.mjs does, B (server/fork/ holds its config) the trip graph and a one-node
// loop behind its CORS policy and its auth; the long thread is written on B while the
// tests on A run (each server runs one run at a time). Every action is checked through
// the server's own HTTP API, read here, not through the app's mapping.
// Run: scripts/build-web.sh && node --test web/e2e/server_fork.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clickAndWaitForMore, suite } from './harness.mjs';
import { api, ensureVenv, runTripThread, startAgentServer, wholeHistory } from './server/agent_server.mjs';

const configs = join(dirname(fileURLToPath(import.meta.url)), 'server', 'fork');
/** The loop thread's length: its input checkpoint and one per superstep. */
const LONG = 2000;
const KEY = 'right-key';

const open = suite();
let lg;
let guarded;
/** The long thread on the guarded server: its id, once the run that writes it has ended. */
let longThread;

before(async () => {
  const bin = ensureVenv(console.log);
  let t = Date.now();
  [lg, guarded] = await Promise.all([
    startAgentServer({ bin }),
    startAgentServer({
      bin,
      files: { 'langgraph.json': join(configs, 'langgraph_guarded.json'), 'auth.py': join(configs, 'auth.py'), 'loop.py': join(configs, 'loop.py') },
    }),
  ]);
  console.log(`  two langgraph dev servers answered after ${((Date.now() - t) / 1000).toFixed(1)} s`);
  // One run of the loop with a recursion limit above its length writes the long thread.
  t = Date.now();
  longThread = guardedCall('POST', '/threads', KEY, {}).then(async ({ body: { thread_id: id } }) => {
    const run = await guardedCall('POST', `/threads/${id}/runs/wait`, KEY, {
      assistant_id: 'loop',
      input: { until: LONG - 2 },
      config: { recursion_limit: LONG + 100 },
    });
    assert.equal(run.status, 200);
    console.log(`  the server wrote a ${LONG}-checkpoint thread in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    return id;
  });
  longThread.catch(() => {});
});

after(async () => {
  await Promise.all([lg?.stop(), guarded?.stop()]);
});

/** Drops the page problems a test provoked on purpose (refused requests the browser logs itself). */
function expectProblems(app, ...patterns) {
  const kept = app.problems.filter((p) => !patterns.some((re) => re.test(p)));
  app.problems.splice(0, app.problems.length, ...kept);
}

const deepLink = (app, server, thread) =>
  `${new URL(app.page.url()).origin}/?server=${encodeURIComponent(server)}${thread ? `&thread=${thread}` : ''}`;
/** The server's root history of `thread`, oldest first. */
const serverHistory = async (thread) => (await wholeHistory(lg.url, thread)).reverse();
const idOf = (h) => h.checkpoint.checkpoint_id;

/** The selected checkpoint's id, as the inspector shows it. */
const inspectedId = async (app) => (await app.inspector.locator('dd.id').first().textContent()).trim();

test('fork into a new thread: a copy on the server whose HEAD is the checkpoint, opened here; continuing it runs its next', async () => {
  const started = Date.now();
  const app = await open();
  const thread = await runTripThread(lg.url);
  const h = await serverHistory(thread);
  await app.goto(deepLink(app, lg.url, thread));
  await app.waitForCount(h.length);
  assert.deepEqual(h[3].next, ['plan']);
  await app.select('c3');
  // The inspector's metadata line (graph_id, run ids…) wraps inside its panel.
  const meta = app.inspector.locator('pre.code').last();
  assert.ok(await meta.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), 'the metadata line does not overflow');
  await app.button('Fork into a new thread').click();
  await app.page.waitForFunction((old) => {
    const t = new URL(location.href).searchParams.get('thread');
    return t && t !== old;
  }, thread, { timeout: 30_000 });
  const copy = new URL(app.page.url()).searchParams.get('thread');
  // On the server: a new thread, the old one untouched; its latest checkpoint is c3's copy.
  assert.equal((await serverHistory(thread)).length, h.length, 'the thread forked from is as it was');
  const state = await api(lg.url, 'GET', `/threads/${copy}/state`);
  assert.deepEqual(state.next, ['plan']);
  assert.deepEqual(state.values, h[3].values);
  assert.equal(state.metadata.source, 'fork');
  assert.equal(state.parent_checkpoint.checkpoint_id, idOf(h[2]), 'a sibling of c3, as Copy makes');
  const ch = await serverHistory(copy);
  assert.deepEqual(ch.slice(0, h.length).map(idOf), h.map(idOf), 'the copy keeps the history, with its ids');
  // In the page: the new thread, whole, with the copy selected as HEAD.
  await app.waitForCount(ch.length);
  assert.equal(await app.headLabel(), `c${ch.length - 1}`);
  await app.page.getByRole('status').filter({ hasText: `from the LangGraph server ${lg.url}` }).waitFor();
  await app.select(`c${ch.length - 1}`);
  assert.equal(await inspectedId(app), state.checkpoint.checkpoint_id);
  await app.shot('server-fork-new-thread');
  // Continuing the new thread from the app runs plan (its next) on the server, then the rest.
  await clickAndWaitForMore(app, app.button(app.w.replay));
  const after = await serverHistory(copy);
  const made = after.slice(ch.length);
  const plan = made.find((x) => x.next.join() === 'research,research,research');
  assert.ok(plan, `plan ran in the new thread: ${made.map((x) => `${x.metadata.source}:${x.next}`).join(' | ')}`);
  assert.deepEqual(plan.values.topics, ['flights', 'hotels', 'trains']);
  assert.deepEqual(made.at(-1).next, ['review'], 'and on to the review subgraph');
  assert.equal((await serverHistory(thread)).length, h.length, 'the first thread still untouched');
  await app.waitForCount(after.length);
  console.log(`  fork into a new thread took ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

test('a fork inside a subgraph writes the update in its namespace on the server, under the checkpoint forked', async () => {
  const app = await open();
  const thread = await runTripThread(lg.url);
  const h = await serverHistory(thread);
  await app.goto(deepLink(app, lg.url, thread));
  await app.waitForCount(h.length);
  const ns = h.at(-1).tasks[0].checkpoint.checkpoint_ns;
  const inside = async () => (await api(lg.url, 'POST', `/threads/${thread}/history`, { limit: 1000, checkpoint: { checkpoint_ns: ns } })).reverse();
  const sub = await inside();
  await app.page.locator(`svg.dag [data-expand="c${h.length - 1}"]`).click();
  await app.waitForCount(h.length + sub.length);
  // s1: the subgraph's checkpoint before draft ran.
  assert.deepEqual(sub[1].next, ['draft']);
  await app.select('s1');
  const dialog = await app.fork('{"verdict": "forked in the subgraph"}', 'draft');
  await clickAndWaitForMore(app, dialog.getByRole('button', { name: app.w.apply, exact: true }));
  await dialog.waitFor({ state: 'hidden' });
  const after = await inside();
  const made = after.filter((x) => !sub.some((s) => idOf(s) === idOf(x)));
  assert.equal(made.length, 1);
  assert.equal(made[0].metadata.source, 'update');
  assert.equal(made[0].checkpoint.checkpoint_ns, ns);
  assert.equal(made[0].parent_checkpoint.checkpoint_id, idOf(sub[1]));
  assert.equal(made[0].values.verdict, 'forked in the subgraph');
  assert.deepEqual(made[0].next, ['ask'], 'written as draft, whose edge leads to ask');
  assert.equal((await serverHistory(thread)).length, h.length, 'the root namespace is untouched');
  await app.select(`s${sub.length}`);
  assert.equal(await inspectedId(app), idOf(made[0]));
});

test("the Fork dialog takes its nodes from the assistant's graph and predicts next from it; the log says whether the server did as predicted", async () => {
  // A thread stopped before plan: its history names only greet and plan, the server's graph all five nodes.
  const thread = (await api(lg.url, 'POST', '/threads', {})).thread_id;
  await api(lg.url, 'POST', `/threads/${thread}/runs/wait`, {
    assistant_id: 'trip',
    input: { messages: [{ type: 'human', content: 'Plan a trip' }], rounds: 0 },
    interrupt_before: ['plan'],
  });
  const h = await serverHistory(thread);
  assert.deepEqual(h.at(-1).next, ['plan']);
  const last = `c${h.length - 1}`;
  const app = await open();
  await app.goto(deepLink(app, lg.url, thread));
  await app.waitForCount(h.length);
  await app.select(last);
  const dialog = await app.fork('{"notes": ["a note"]}', 'research');
  const options = await dialog.getByRole('combobox', { name: app.w.asNode }).locator('option').allTextContents();
  assert.deepEqual(options.slice(1), ['greet', 'plan', 'research', 'summarize', 'review']);
  const prediction = dialog.getByTestId('server-prediction');
  await prediction.getByText("Prediction (from the server's graph, not a run): next (summarize)").waitFor();
  await dialog.getByRole('combobox', { name: app.w.asNode }).selectOption('greet');
  await prediction.getByText("Prediction (from the server's graph, not a run): next (?)").waitFor();
  await prediction.getByText('Cannot know: greet leaves by a conditional edge, whose router runs on the server; it may go to greet, plan.').waitFor();
  await app.shot('server-fork-prediction');
  await app.audit('the Fork dialog with the prediction (en)');
  await dialog.getByRole('combobox', { name: app.w.asNode }).selectOption('research');
  await clickAndWaitForMore(app, dialog.getByRole('button', { name: app.w.applyAndRun, exact: true }));
  await dialog.waitFor({ state: 'hidden' });
  const after = await serverHistory(thread);
  const update = after[h.length];
  assert.equal(update.metadata.source, 'update');
  assert.deepEqual(update.next, ['summarize'], 'the server did as predicted');
  await app.page.waitForFunction(() => document.body.textContent.includes('the server\'s: (summarize): as predicted.'));
  const log = await app.logLines();
  assert.ok(log.some((l) => l.endsWith("Predicted next (summarize); the server's: (summarize): as predicted.")), log.join('\n'));
  // In Chinese.
  const zh = await open(undefined, undefined, 'zh');
  await zh.goto(`${deepLink(zh, lg.url, thread)}&lang=zh`);
  await zh.waitForCount(after.length);
  await zh.select(last);
  const zhDialog = await zh.fork('{"rounds": 1}', 'greet');
  await zhDialog.getByTestId('server-prediction').getByText('无法确定：greet 经由条件边离开，其路由函数在服务器上运行；可能去往 greet, plan。').waitFor();
  await zh.shot('server-fork-prediction-zh');
  await zh.audit('the Fork dialog with the prediction (zh)');
  await zhDialog.getByRole('button', { name: '取消' }).click();
});

/** One call to the guarded server with `key`: its status and body. */
async function guardedCall(method, path, key, body) {
  const res = await fetch(`${guarded.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

test('a server whose http.cors leaves the app out, and a server whose auth wants another key, say so in English and Chinese', async () => {
  const { body: thread } = await guardedCall('POST', '/threads', KEY, {});
  await guardedCall('POST', `/threads/${thread.thread_id}/runs/wait`, KEY, {
    assistant_id: 'trip',
    input: { messages: [{ type: 'human', content: 'Plan a trip' }], rounds: 0 },
  });
  const h = (await guardedCall('POST', `/threads/${thread.thread_id}/history`, KEY, { limit: 1000 })).body;
  assert.equal((await guardedCall('POST', '/threads/search', 'wrong', {})).status, 401, 'the server itself refuses a wrong key');

  // The app on http://127.0.0.1:…, an origin the server's CORS policy leaves out: the browser
  // withholds every answer, which the page cannot tell from a stopped server.
  const app = await open();
  await app.send(app.w.messages[0]);
  await app.select('c1');
  const before = await app.count();
  await app.button('Connect to a server…').click();
  const dialog = app.page.getByRole('dialog', { name: 'Connect to a LangGraph server' });
  await dialog.getByLabel('Server URL').fill(guarded.url);
  await dialog.getByLabel('API key (optional, sent as x-api-key)').fill(KEY);
  await dialog.getByRole('button', { name: 'List threads' }).click();
  const error = dialog.getByTestId('server-error');
  await error.getByText(`No answer from ${guarded.url}. Either the server is not running, or the browser refused its answer (CORS`).waitFor();
  await error.getByText("langgraph.json's http.cors", { exact: false }).waitFor();
  await error.getByText('serve this app from localhost', { exact: false }).or(error.getByText('Serve this app from localhost', { exact: false })).waitFor();
  await app.shot('server-cors');
  await app.audit('the Connect dialog, CORS refused (en)');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await app.count(), before, 'the thread stays');
  assert.equal(await app.selectedLabel(), 'c1', 'the selection stays');
  expectProblems(app, /CORS|Access-Control|ERR_FAILED/);
  const zh = await open(undefined, undefined, 'zh');
  await zh.goto(`${deepLink(zh, guarded.url, thread.thread_id)}&lang=zh`);
  const zhError = zh.page.getByRole('dialog', { name: '连接到 LangGraph 服务器' }).getByTestId('server-error');
  await zhError.getByText(`${guarded.url} 没有应答。`, { exact: false }).waitFor();
  await zhError.getByText('http.cors', { exact: false }).waitFor();
  await zh.audit('the Connect dialog, CORS refused (zh)');
  expectProblems(zh, /CORS|Access-Control|ERR_FAILED/);

  // The same app on http://localhost:…, which the policy lets in: a wrong key is a 401 with
  // the server's own text; the right one lists and opens the thread.
  const local = await open();
  const origin = new URL(local.page.url()).origin.replace('127.0.0.1', 'localhost');
  await local.goto(`${origin}/`);
  await local.button('Connect to a server…').click();
  const connect = local.page.getByRole('dialog', { name: 'Connect to a LangGraph server' });
  await connect.getByLabel('Server URL').fill(guarded.url);
  await connect.getByLabel('API key (optional, sent as x-api-key)').fill('wrong-key');
  await connect.getByRole('button', { name: 'List threads' }).click();
  const refused = connect.getByTestId('server-error');
  await refused.getByText('The server refused the request (401): the API key is missing or wrong.').waitFor();
  await refused.getByText('Invalid API key: this server wants its own x-api-key').waitFor();
  await local.shot('server-auth-wrong-key');
  await local.audit('the Connect dialog, wrong key (en)');
  expectProblems(local, /status of 401/);
  await connect.getByLabel('API key (optional, sent as x-api-key)').fill(KEY);
  await connect.getByRole('button', { name: 'List threads' }).click();
  await connect.getByRole('button', { name: `Open thread ${thread.thread_id}` }).click();
  await connect.waitFor({ state: 'hidden' });
  await local.waitForCount(h.length);
  await local.select('c3');
  assert.equal(await inspectedId(local), idOf([...h].reverse()[3]));
  // In Chinese, the wrong key.
  const zhLocal = await open(undefined, undefined, 'zh');
  await zhLocal.goto(`${origin}/?lang=zh`);
  await zhLocal.button('连接到服务器…').click();
  const zhConnect = zhLocal.page.getByRole('dialog', { name: '连接到 LangGraph 服务器' });
  await zhConnect.getByLabel('服务器 URL').fill(guarded.url);
  await zhConnect.getByLabel('API 密钥（可选，以 x-api-key 发送）').fill('wrong-key');
  await zhConnect.getByRole('button', { name: '列出线程' }).click();
  await zhConnect.getByTestId('server-error').getByText('服务器拒绝了请求（401）：API 密钥缺失或错误。').waitFor();
  await zhLocal.shot('server-auth-wrong-key-zh');
  await zhLocal.audit('the Connect dialog, wrong key (zh)');
  expectProblems(zhLocal, /status of 401/);
});

/** The whole root history of `thread` on the guarded server, oldest first. */
async function guardedHistory(thread) {
  const all = [];
  for (let before; ; ) {
    const { body: page } = await guardedCall('POST', `/threads/${thread}/history`, KEY, {
      limit: 1000,
      ...(before ? { before: { configurable: { checkpoint_id: before } } } : {}),
    });
    all.push(...page);
    if (page.length < 1000) return all.reverse();
    before = idOf(page.at(-1));
  }
}

test(`a ${LONG}-checkpoint thread opens whole, every page requested, and stays interactive`, async () => {
  const thread = await longThread;
  const h = await guardedHistory(thread);
  assert.equal(h.length, LONG);
  const app = await open();
  const pages = [];
  app.page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith(`/threads/${thread}/history`)) pages.push(JSON.parse(r.postData()));
  });
  await app.goto(`${new URL(app.page.url()).origin.replace('127.0.0.1', 'localhost')}/`);
  await app.button('Connect to a server…').click();
  const connect = app.page.getByRole('dialog', { name: 'Connect to a LangGraph server' });
  await connect.getByLabel('Server URL').fill(guarded.url);
  await connect.getByLabel('API key (optional, sent as x-api-key)').fill(KEY);
  await connect.getByRole('button', { name: 'List threads' }).click();
  const started = Date.now();
  await connect.getByRole('button', { name: `Open thread ${thread}` }).click();
  // The tree holds every checkpoint (it draws the rows in view, as for any long thread).
  await app.page.getByTestId('tree-stats').getByText(`${LONG} checkpoints`).waitFor({ timeout: 120_000 });
  await app.checkpoint(`c${LONG - 1}`).waitFor();
  const opened = (Date.now() - started) / 1000;
  // Pages of 1,000 until one comes back short (here: empty), each before the last one's oldest.
  assert.deepEqual(pages.map((p) => p.limit), [1000, 1000, 1000]);
  assert.equal(pages[0].before, undefined);
  assert.equal(pages[1].before.configurable.checkpoint_id, idOf(h[LONG - 1000]));
  assert.equal(pages[2].before.configurable.checkpoint_id, idOf(h[0]));
  assert.equal(await app.name(`c${LONG - 1}`), `${app.w.checkpoint(`c${LONG - 1}`, LONG - 2, 'loop', 'done')}, HEAD`);
  const t = Date.now();
  await app.checkpoint(`c${LONG - 1}`).focus();
  await app.page.keyboard.press('Home');
  await app.page.waitForFunction(() => document.querySelector('.inspector .snap-label')?.textContent.trim() === 'c0');
  assert.equal(await inspectedId(app), idOf(h[0]));
  await app.select('c5');
  assert.equal(await inspectedId(app), idOf(h[5]));
  assert.equal(await app.name('c5'), app.w.checkpoint('c5', 4, 'loop', 'tick'));
  const selecting = (Date.now() - t) / 1000;
  console.log(`  ${LONG} checkpoints: opened in ${opened.toFixed(1)} s (click on Open to every page read and the tree drawn); Home and a click took ${selecting.toFixed(1)} s`);
});
