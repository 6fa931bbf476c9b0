// Small helpers shared by the package tests.
import { spawnSync } from "node:child_process";
import assert from "node:assert/strict";

/** Everything an (async) iterable yields, as an array. */
export async function collect(iterable) {
  const out = [];
  for await (const x of iterable) out.push(x);
  return out;
}

/**
 * Runs `program` (an ES module's text) in a fresh Node process in npm/test/,
 * with the optional peers hidden (`CHRONOGRAPH_LANGCHAIN=off`, as when
 * they are not installed), and returns what it printed, parsed as JSON.
 */
export function runWithoutPeers(program) {
  const out = spawnSync(process.execPath, ["--input-type=module", "-e", program], {
    cwd: new URL(".", import.meta.url),
    env: { ...process.env, CHRONOGRAPH_LANGCHAIN: "off" },
    encoding: "utf8",
  });
  assert.equal(out.status, 0, out.stderr);
  return JSON.parse(out.stdout);
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
