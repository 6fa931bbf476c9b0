// A real LangGraph Agent Server for the end-to-end tests: `langgraph dev` (Python,
// langgraph-cli[inmem] pinned in requirements.txt) in a virtual environment kept in the
// build cache, serving this folder's test graph from a temporary folder on a free
// loopback port, with tracing and analytics off so nothing reaches the network.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const requirements = join(here, 'requirements.txt');
const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'chronograph');

/** The virtual environment with the pinned server; created once (its stamp is the requirements' text). Returns its `bin/`. */
export function ensureVenv(log = () => {}) {
  const venv = join(cache, 'langgraph-venv');
  const stamp = join(venv, 'requirements.txt');
  const wanted = readFileSync(requirements, 'utf8');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return join(venv, 'bin');
  const started = Date.now();
  rmSync(venv, { recursive: true, force: true });
  execFileSync(process.env.PYTHON ?? 'python3', ['-m', 'venv', venv], { stdio: 'inherit' });
  execFileSync(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '--no-compile', '--no-deps', '-r', requirements], {
    stdio: 'inherit',
  });
  writeFileSync(stamp, wanted);
  log(`installed langgraph-cli[inmem] into ${venv} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return join(venv, 'bin');
}

/** A free loopback port (the OS picks it; 2024 may be taken). */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolvePort(port));
    });
  });
}

/**
 * Starts `langgraph dev` on a free port in a temporary copy of this folder.
 * Resolves to { url, port, stop } once `/ok` answers; `stop()` ends it and removes the folder.
 * `files` (name → path) are copied in after it, so a test can bring its own `langgraph.json`.
 */
export async function startAgentServer({ bin = ensureVenv(), timeoutMs = 90_000, files = {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'chronograph-lg-'));
  for (const f of ['graph.py', 'langgraph.json']) cpSync(join(here, f), join(dir, f));
  for (const [name, path] of Object.entries(files)) cpSync(path, join(dir, name));
  const port = await freePort();
  const env = {
    ...process.env,
    LANGSMITH_TRACING: 'false',
    LANGCHAIN_TRACING_V2: 'false',
    LANGGRAPH_CLI_NO_ANALYTICS: '1',
    LANGSMITH_API_KEY: '',
    LANGGRAPH_CLOUD_LICENSE_KEY: '',
    PYTHONUNBUFFERED: '1',
  };
  const child = spawn(
    join(bin, 'langgraph'),
    ['dev', '--host', '127.0.0.1', '--port', String(port), '--no-browser', '--no-reload'],
    { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  // Even if the test process dies before its `after` hook, the server does not outlive it.
  const killOnExit = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  };
  process.once('exit', killOnExit);
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // The CLI runs the server in child processes: end the whole group.
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
      await new Promise((r) => {
        const t = setTimeout(() => {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {}
          r();
        }, 5_000);
        child.once('exit', () => {
          clearTimeout(t);
          r();
        });
      });
    }
    process.off('exit', killOnExit);
    rmSync(dir, { recursive: true, force: true });
  };
  // Kills the server at once (SIGKILL, no graceful shutdown), as a crash would; stop() cleans up after.
  const kill = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${url}/ok`)).ok) return { url, port, stop, kill, output: () => output };
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`langgraph dev did not answer on ${url} within ${timeoutMs / 1000} s:\n${output}`);
}

/** One call of the server's HTTP API; resolves to the parsed JSON (throws on an error status). */
export async function api(url, method, path, body = undefined) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/**
 * Creates a thread of the test graph and runs it until the interrupt inside the
 * `review` subgraph. Resolves to the thread id.
 */
export async function runTripThread(url) {
  const thread = await api(url, 'POST', '/threads', { metadata: { purpose: 'chronograph e2e' } });
  await api(url, 'POST', `/threads/${thread.thread_id}/runs/wait`, {
    assistant_id: 'trip',
    input: { messages: [{ type: 'human', content: 'Plan a trip' }], rounds: 0 },
  });
  return thread.thread_id;
}

/** The thread's whole root history as the server gives it (newest first), paged by `before`. */
export async function wholeHistory(url, threadId, limit = 1000) {
  const all = [];
  let before;
  for (;;) {
    const page = await api(url, 'POST', `/threads/${threadId}/history`, {
      limit,
      ...(before ? { before: { configurable: { checkpoint_id: before } } } : {}),
    });
    all.push(...page);
    if (page.length < limit) return all;
    before = page.at(-1).checkpoint.checkpoint_id;
  }
}

// `node agent_server.mjs venv` creates the virtual environment (scripts/setup.sh runs it).
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'venv') {
  const bin = ensureVenv((line) => console.log(`[setup] ${line}`));
  console.log(`[setup] langgraph dev ready in ${bin}`);
}
