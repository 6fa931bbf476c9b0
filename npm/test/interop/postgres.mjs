// A throwaway PostgreSQL server for the tests: Debian's `postgresql`
// (initdb, pg_ctl), started on 127.0.0.1 in a temporary data directory and
// stopped (and removed) after. As root, the server runs as the `postgres`
// user (PostgreSQL refuses to run as root). `null` when the server binaries
// are not installed: the caller skips, saying why.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function bin(name) {
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    for (const v of readdirSync(debian).sort().reverse()) {
      const p = join(debian, v, "bin", name);
      if (existsSync(p)) return p;
    }
  }
  try {
    return execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}

/** Starts a server; resolves to `{ url, stop }`, or `null` without PostgreSQL. */
export function startPostgres() {
  const initdb = bin("initdb");
  const pgCtl = bin("pg_ctl");
  if (!initdb || !pgCtl) return null;
  const dir = mkdtempSync(join(tmpdir(), "chronograph-pg-"));
  chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const run = (cmd, args) =>
    execFileSync(asRoot ? "runuser" : cmd, asRoot ? ["-u", "postgres", "--", cmd, ...args] : args, { stdio: "pipe" });
  const port = 20000 + Math.floor(Math.random() * 20000);
  const data = join(dir, "data");
  run(initdb, ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  run(pgCtl, ["-D", data, "-o", `-h 127.0.0.1 -p ${port} -k ${dir} -F`, "-l", join(dir, "log"), "-w", "start"]);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Ends a PostgreSQL saver (ours or LangGraph.js's: `end()` ends its pg
 * Pool) and resolves once each of the pool's connections has closed.
 * `Pool.end` resolves when it has asked them to close, before their
 * sockets have; a server stopped then ends them with "terminating
 * connection". pg-pool emits `remove` for a client once its connection
 * has ended.
 */
export async function endSaver(saver) {
  const pool = saver.pool;
  let waiting = pool.totalCount;
  const closed = new Promise((resolve) => {
    if (waiting === 0) resolve();
    pool.on("remove", () => {
      if (--waiting === 0) resolve();
    });
  });
  await saver.end();
  await closed;
}
