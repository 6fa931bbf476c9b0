// A server thread kept live, against real LangGraph Agent Servers (`langgraph dev`, see
// server/agent_server.mjs): a replay's checkpoints appear in the tree while the run still
// runs on the server (its slow node paused by the thread's `pause`), and the tree then equals
// the server's /history read here; a run someone else starts over HTTP appears in the open
// page without a click, with the watch status saying so; a server killed in the middle of a
// run (a second server process, SIGKILL while the slow node runs) and a server whose stream
// breaks off (a relay in front of the first one that cuts the event stream after its first
// checkpoints) say so in English and Chinese, and the page's thread and selection stay as
// they were. axe audits the page while a run streams.
// Run: scripts/build-web.sh && node --test web/e2e/server_live.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import { suite } from './harness.mjs';
import { api, ensureVenv, startAgentServer, wholeHistory } from './server/agent_server.mjs';

const open = suite();
/** The server most tests use, and the one killed in the middle of a run. */
let lg;
let doomed;
/** A relay in front of `lg` that cuts every streamed run after its first checkpoints. */
let relay;
let started;

before(async () => {
  started = Date.now();
  const bin = ensureVenv(console.log);
  // Both servers start at once: the second costs little wall time.
  [lg, doomed] = await Promise.all([startAgentServer({ bin }), startAgentServer({ bin })]);
  relay = await startRelay(lg.url);
  console.log(`  two langgraph dev servers answered after ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

after(async () => {
  relay?.close();
  relay?.server.closeAllConnections();
  await Promise.all([lg?.stop(), doomed?.stop()]);
  console.log(`  server_live took ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
});

/**
 * An HTTP relay to `target` that passes everything through, except that a streamed run's
 * answer is cut (the socket destroyed) after its second `checkpoints` event.
 */
function startRelay(target) {
  const server = createServer((req, res) => {
    const upstream = httpRequest(`${target}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (up) => {
      res.writeHead(up.statusCode, up.headers);
      if (!req.url.endsWith('/runs/stream')) return up.pipe(res);
      let seen = 0;
      up.on('data', (chunk) => {
        res.write(chunk);
        seen += (chunk.toString().match(/^event: checkpoints/gm) ?? []).length;
        if (seen >= 2) {
          up.destroy();
          res.socket?.destroy();
        }
      });
      up.on('end', () => res.end());
    });
    upstream.on('error', () => res.socket?.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, server, close: () => server.close() })));
}

/** A thread of the test graph run to its interrupt, whose slow node sleeps `pause` seconds in later runs. */
async function slowThread(url, pause) {
  const thread = await api(url, 'POST', '/threads', { metadata: { purpose: 'chronograph live e2e' } });
  await api(url, 'POST', `/threads/${thread.thread_id}/runs/wait`, {
    assistant_id: 'trip',
    input: { messages: [{ type: 'human', content: 'Plan a trip' }], rounds: 0, pause },
  });
  return thread.thread_id;
}

const deepLink = (app, server, thread, lang = '') => `${new URL(app.page.url()).origin}/?server=${encodeURIComponent(server)}&thread=${thread}${lang}`;
const nodes = (app) => app.page.evaluate(() => [...document.querySelectorAll('svg.dag g.node > .node-button')].map((b) => b.getAttribute('aria-label')));
/** Resolves once the page draws more than `n` checkpoints. */
const moreThan = (app, n, timeout = 20_000) =>
  app.page.waitForFunction((n) => document.querySelectorAll('svg.dag g.node > .node-button').length > n, n, { timeout });
/**
 * The alert saying `text` and the checkpoints drawn, read in the first frame the alert shows:
 * after a run breaks off the server may carry on, and the watch then redraws its history.
 */
async function whenAlert(app, text) {
  const seen = await app.page.waitForFunction((text) => {
    const alert = [...document.querySelectorAll('[role=alert]')].find((a) => a.textContent.includes(text));
    const drawn = () => [...document.querySelectorAll('svg.dag g.node > .node-button')].map((b) => b.getAttribute('aria-label'));
    return alert ? { text: alert.textContent, nodes: drawn() } : false;
  }, text, { timeout: 30_000, polling: 'raf' });
  return seen.jsonValue();
}
const serverHistory = async (url, thread) => (await wholeHistory(url, thread)).reverse();

/** A history item's `next` as the tree names it. */
function nextOf(item) {
  if (!item.next.length) return 'done';
  const counts = new Map();
  for (const n of item.next) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, k]) => (k > 1 ? `${k} × ${n}` : n)).join(', ');
}

/** The drawn root tree equals the server's history `h` (oldest first): names (step, source, next), ids and parents. */
async function assertTreeIs(app, h) {
  await app.waitForCount(h.length);
  const label = new Map(h.map((x, i) => [x.checkpoint.checkpoint_id, `c${i}`]));
  for (const [i, x] of h.entries()) {
    assert.equal((await app.name(`c${i}`)).replace(/, HEAD$/, ''), app.w.checkpoint(`c${i}`, x.metadata.step, x.metadata.source, nextOf(x)));
    assert.equal(await app.parentOf(`c${i}`), x.parent_checkpoint ? label.get(x.parent_checkpoint.checkpoint_id) : null, `c${i}'s parent`);
    assert.equal((await app.inspector.locator('dd.id').first().textContent()).trim(), x.checkpoint.checkpoint_id);
  }
}

test('a replay streams: its checkpoints appear while the run still runs, then the tree is the server\'s', async () => {
  const t0 = Date.now();
  const thread = await slowThread(lg.url, 4);
  const app = await open();
  await app.goto(deepLink(app, lg.url, thread));
  const h = await serverHistory(lg.url, thread);
  await app.waitForCount(h.length);
  await app.page.getByTestId('watch-status').getByText(app.w.watchIdle).waitFor();
  await app.select('c3');
  const clicked = Date.now();
  await app.button(app.w.replay).click();
  // plan and research run at once; summarize then sleeps 4 s. The checkpoint waiting for it
  // (next: summarize) is drawn while the page still waits for the run to end.
  await app.page.waitForFunction(() => [...document.querySelectorAll('svg.dag g.node > .node-button')].some((b) => /next: summarize(, HEAD)?$/.test(b.getAttribute('aria-label')) && b.closest('g.node').classList.contains('fresh')), null, { timeout: 20_000 });
  console.log(`  the checkpoint before the slow node was drawn ${((Date.now() - clicked) / 1000).toFixed(1)} s after the click`);
  const busy = app.page.locator('.toolbar .busy');
  assert.equal(await busy.count(), 1, 'the run has not ended for the page');
  assert.equal((await api(lg.url, 'GET', `/threads/${thread}`)).status, 'busy', 'nor on the server');
  assert.ok((await app.count()) > h.length, 'new checkpoints are drawn');
  await app.shot('server-streaming');
  await app.audit('a server thread while a run streams (en)');
  await busy.waitFor({ state: 'detached', timeout: 30_000 });
  const after = await serverHistory(lg.url, thread);
  assert.ok(after.length > h.length);
  await assertTreeIs(app, after);
  const log = await app.logLines();
  assert.ok(log.some((l) => /^POST \/threads\/[0-9a-f-]+\/runs\/stream → c\d+ … [cs]\d+$/.test(l)), log.join('\n'));
  assert.equal(log.filter((l) => l.includes('import_thread(server)')).length, 1, 'the opening import only, none per action');
  console.log(`  streamed replay took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
});

test('watch: a run started by someone else appears in the open page without a click', async () => {
  const t0 = Date.now();
  const thread = await slowThread(lg.url, 3);
  const app = await open();
  await app.goto(deepLink(app, lg.url, thread));
  const h = await serverHistory(lg.url, thread);
  await app.waitForCount(h.length);
  await app.select('c2');
  // Someone else's run, over HTTP: a replay of c3, not awaited.
  await api(lg.url, 'POST', `/threads/${thread}/runs`, { assistant_id: 'trip', input: null, checkpoint_id: h[3].checkpoint.checkpoint_id });
  const status = app.page.getByTestId('watch-status');
  await status.getByText(app.w.watchFollowing).waitFor({ timeout: 20_000 });
  await moreThan(app, h.length);
  await app.shot('server-watch');
  assert.equal(await app.selectedLabel(), 'c2', 'the selection stays');
  await status.getByText(app.w.watchIdle).waitFor({ timeout: 30_000 });
  const after = await serverHistory(lg.url, thread);
  await app.waitForCount(after.length);
  await assertTreeIs(app, after);
  console.log(`  watch took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
});

test('a server killed in the middle of a run, and a stream that breaks off: the message says so (EN, ZH) and the thread stays', async () => {
  const t0 = Date.now();
  // Killed: the second server, while its slow node runs.
  const thread = await slowThread(doomed.url, 6);
  const app = await open();
  await app.goto(deepLink(app, doomed.url, thread));
  const h = await serverHistory(doomed.url, thread);
  await app.waitForCount(h.length);
  await app.select('c3');
  const drawn = await nodes(app);
  await app.button(app.w.replay).click();
  await moreThan(app, h.length);
  doomed.kill();
  const error = await whenAlert(app, app.w.serverDropped(doomed.url));
  assert.match(error.text, new RegExp(app.w.serverDroppedFix));
  assert.match(error.text, new RegExp(app.w.serverKept));
  assert.deepEqual(error.nodes, drawn, 'the thread is as it was: the streamed checkpoints are dropped');
  assert.equal(await app.selectedLabel(), 'c3', 'the selection stays');
  const log = await app.logLines();
  assert.ok(log.some((l) => l.startsWith('POST /threads/') && l.includes('/runs/stream ✗')), log.join('\n'));
  await app.shot('server-killed');
  // The watch stops once the server does not answer.
  await app.page.getByTestId('watch-status').waitFor({ state: 'detached', timeout: 10_000 });
  app.problems.splice(0, app.problems.length, ...app.problems.filter((p) => !/ERR_|Failed to fetch|network/i.test(p)));

  // Broken off, in Chinese: the relay cuts the stream after two checkpoints.
  const other = await slowThread(lg.url, 0.3);
  const zh = await open(undefined, undefined, 'zh');
  await zh.goto(deepLink(zh, relay.url, other, '&lang=zh'));
  const hz = await serverHistory(lg.url, other);
  await zh.waitForCount(hz.length);
  await zh.select('c3');
  const drawnZh = await nodes(zh);
  await zh.button(zh.w.replay).click();
  const zhError = await whenAlert(zh, zh.w.serverDropped(relay.url));
  assert.match(zhError.text, new RegExp(zh.w.serverDroppedFix));
  assert.deepEqual(zhError.nodes, drawnZh, 'the thread is as it was');
  assert.equal(await zh.selectedLabel(), 'c3');
  await zh.shot('server-dropped-zh');
  await zh.audit('a run that broke off (zh)');
  zh.problems.splice(0, zh.problems.length, ...zh.problems.filter((p) => !/ERR_|Failed to fetch|network/i.test(p)));
  console.log(`  killed and dropped runs took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
});
