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
const save = (name, value) => writeFileSync(join(out, name), `${JSON.stringify(value, null, 2)}\n`);

const server = await startAgentServer({ bin: process.env.LANGGRAPH_BIN ?? ensureVenv(console.log) });
try {
  const { url } = server;
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
  console.log(`recorded thread ${id} (and ${older.thread_id}) into ${out}`);
} finally {
  await server.stop();
}
