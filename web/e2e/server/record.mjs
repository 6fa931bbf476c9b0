// Records a real Agent Server's responses as the fixtures of the app's server client
// (web/tests/fixtures/server/), which its unit tests read: `node web/e2e/server/record.mjs`.
// Uses the cached virtual environment (created on first use) or PYTHON_BIN's langgraph.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, ensureVenv, runTripThread, startAgentServer } from './agent_server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(here, '..', '..', 'tests', 'fixtures', 'server');
mkdirSync(out, { recursive: true });
/** Sends one call and keeps its status and body as they came (errors included). */
async function answer(url, method, path, body) {
  const res = await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.text() };
}

/** What the app's actions are answered, on a thread of their own: updates, a copy, a run, and the refusals. */
async function recordActions(url) {
  const id = await runTripThread(url);
  const h = await api(url, 'POST', `/threads/${id}/history`, { limit: 1000 });
  const plan = h.find((x) => x.next.includes('plan')).checkpoint.checkpoint_id;
  const state = (body) => answer(url, 'POST', `/threads/${id}/state`, body);
  const run = (body) => answer(url, 'POST', `/threads/${id}/runs/wait`, { assistant_id: 'trip', multitask_strategy: 'reject', ...body });
  save('action_update_state.json', await state({ values: { rounds: 5 }, as_node: 'greet', checkpoint_id: plan }));
  save('action_copy.json', await state({ values: null, as_node: '__copy__', checkpoint_id: plan }));
  save('action_copy_thread.json', await answer(url, 'POST', `/threads/${id}/copy`, {}));
  save('action_unknown_node.json', await state({ values: { rounds: 1 }, as_node: 'nosuch', checkpoint_id: plan }));
  save('action_refused_values.json', await state({ values: 5, as_node: 'greet', checkpoint_id: plan }));
  save('action_bad_checkpoint.json', await run({ checkpoint_id: 'nope', input: null }));
  save('action_run_interrupted.json', await run({ checkpoint_id: plan, input: null }));
  // A run queued for later keeps the thread busy: a run and an update are refused (409).
  const pending = await api(url, 'POST', `/threads/${id}/runs`, { assistant_id: 'trip', input: null, checkpoint_id: plan, after_seconds: 120 });
  save('action_busy_run.json', await run({ checkpoint_id: plan, input: null }));
  save('action_busy_update.json', await state({ values: { rounds: 1 }, as_node: 'greet', checkpoint_id: plan }));
  await api(url, 'POST', `/threads/${id}/runs/${pending.run_id}/cancel`);
  const ns = (await api(url, 'POST', `/threads/${id}/history`, { limit: 1 }))[0].tasks[0].checkpoint.checkpoint_ns;
  const inside = (await api(url, 'POST', `/threads/${id}/history`, { limit: 1, checkpoint: { checkpoint_ns: ns } }))[0];
  save('action_update_subgraph.json', await state({ values: { verdict: 'x' }, as_node: 'draft', checkpoint: { checkpoint_id: inside.checkpoint.checkpoint_id, checkpoint_ns: ns } }));
}

/**
 * A replay streamed as the app asks it (`stream_mode: ["checkpoints"]`, subgraphs on), kept
 * as the server sent it (the event-stream text): the app's stream parser is tested on it.
 */
async function recordStream(url) {
  const id = await runTripThread(url);
  const h = await api(url, 'POST', `/threads/${id}/history`, { limit: 1000 });
  const plan = h.find((x) => x.next.includes('plan')).checkpoint.checkpoint_id;
  const res = await fetch(`${url}/threads/${id}/runs/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ assistant_id: 'trip', input: null, checkpoint_id: plan, multitask_strategy: 'reject', stream_mode: ['checkpoints'], stream_subgraphs: true }),
  });
  writeFileSync(join(out, 'stream_replay.sse'), await res.text());
  // The thread's whole history after the run: the root, then each subgraph namespace its tasks name.
  const root = await api(url, 'POST', `/threads/${id}/history`, { limit: 1000 });
  const namespaces = [...new Set(root.flatMap((h) => h.tasks.map((t) => t.checkpoint?.checkpoint_ns).filter(Boolean)))];
  const inner = [];
  for (const ns of namespaces) inner.push(...(await api(url, 'POST', `/threads/${id}/history`, { limit: 1000, checkpoint: { checkpoint_ns: ns } })));
  save('stream_replay_history.json', [...root, ...inner]);
}

const save = (name, value) => writeFileSync(join(out, name), `${JSON.stringify(value, null, 2)}\n`);

/** The thread list, a thread's state, graph and history pages, and the actions' answers. */
async function recordThread(url) {
  const older = await api(url, 'POST', '/threads', { metadata: { purpose: 'empty' } });
  const id = await runTripThread(url);
  save('threads_search.json', await api(url, 'POST', '/threads/search', { limit: 50, sort_by: 'updated_at', sort_order: 'desc' }));
  save('thread.json', await api(url, 'GET', `/threads/${id}`));
  save('state_subgraphs.json', await api(url, 'GET', `/threads/${id}/state?subgraphs=true`));
  save('graph_xray.json', await api(url, 'GET', '/assistants/trip/graph?xray=true'));
  // The root history in pages of 3 (the client pages with `limit`/`before` until the root).
  let before;
  for (let page = 1; ; page++) {
    const body = { limit: 3, ...(before ? { before: { configurable: { checkpoint_id: before } } } : {}) };
    const items = await api(url, 'POST', `/threads/${id}/history`, body);
    save(`history_page${page}.json`, items);
    if (items.length < 3) break;
    before = items.at(-1).checkpoint_id;
  }
  const ns = (await api(url, 'POST', `/threads/${id}/history`, { limit: 1 }))[0].tasks[0].checkpoint.checkpoint_ns;
  save('history_review.json', await api(url, 'POST', `/threads/${id}/history`, { limit: 1000, checkpoint: { checkpoint_ns: ns } }));
  // What a missing thread answers.
  const missing = await fetch(`${url}/threads/00000000-0000-0000-0000-000000000000`);
  save('missing_thread.json', { status: missing.status, body: await missing.text() });
  await recordActions(url);
  console.log(`recorded thread ${id} (and ${older.thread_id}) into ${out}`);
}

// `node record.mjs stream` records the streamed replay only.
const only = process.argv[2];
const server = await startAgentServer({ bin: process.env.LANGGRAPH_BIN ?? ensureVenv(console.log) });
try {
  const { url } = server;
  await recordStream(url);
  if (only === 'stream') console.log(`recorded a streamed replay into ${out}`);
  else await recordThread(url);
} finally {
  await server.stop();
}
