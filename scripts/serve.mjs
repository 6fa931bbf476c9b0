#!/usr/bin/env node
// A tiny dependency-free static server for dist/ (or another folder).
//
//   node scripts/serve.mjs                  # http://127.0.0.1:8080/ serving dist/
//   PORT=9000 node scripts/serve.mjs        # another port (PORT=0 picks a free one)
//   HOST=0.0.0.0 node scripts/serve.mjs     # listen beyond localhost
//   node scripts/serve.mjs some/dir         # another folder
//   node scripts/serve.mjs dist 9000        # folder and port as arguments (the port wins over PORT)
//
// Prints "serving <dir> at http://host:port/" once listening (tests wait for that line).
// No caching headers: every reload gets the newest build.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = resolve(process.argv[2] ?? join(here, '..', 'dist'));
const host = process.env.HOST ?? '127.0.0.1';
const port = Number.parseInt(process.argv[3] ?? process.env.PORT ?? '8080', 10);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`serve: bad port ${process.argv[3] ?? process.env.PORT}`);
  process.exit(2);
}

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

async function resolveFile(urlPath) {
  let rel;
  try {
    rel = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return null;
  }
  const file = normalize(join(root, rel));
  if (file !== root && !file.startsWith(root + sep)) return null; // no escaping the root
  try {
    const s = await stat(file);
    if (s.isDirectory()) {
      const index = join(file, 'index.html');
      return (await stat(index)).isFile() ? index : null;
    }
    return s.isFile() ? file : null;
  } catch {
    return null;
  }
}

const server = createServer(async (req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  const file = await resolveFile(req.url ?? '/');
  if (!file) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
    return;
  }
  const { size } = await stat(file);
  res.writeHead(200, {
    'Content-Type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': size,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
});

server.on('error', (err) => {
  console.error(`serve: ${err.message}`);
  process.exit(1);
});
server.listen(port, host, () => {
  const { port: actual } = server.address();
  console.log(`serving ${root} at http://${host}:${actual}/`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
