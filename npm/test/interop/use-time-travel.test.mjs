// LangGraph.js's docs program "Use time-travel" (use-time-travel.mjs: a
// replay, an updateState fork, an interrupt answered twice) run on
// LangGraph.js's own SqliteSaver and PostgresSaver, and again with only
// its saver import changed to chronograph/langgraph's: every streamed
// chunk, each getState and the whole getStateHistory are the same (ids
// renumbered by first appearance, timestamps dropped: each run makes its
// own). Ours on SQLite and on PostgreSQL give exactly what LangGraph.js's
// SqliteSaver gives; LangGraph.js's PostgresSaver gives the same up to the
// fork, which it reads back wrong (the test says how).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { PostgresSaver as LangGraphPostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { endSaver, startPostgres } from "./postgres.mjs";

const here = new URL(".", import.meta.url).pathname;
const program = readFileSync(join(here, "use-time-travel.mjs"), "utf8");
const IMPORT = 'import { SqliteSaver as Saver } from "@langchain/langgraph-checkpoint-sqlite";';
assert.ok(program.includes(IMPORT), "the program names its saver in one import");
// Variants beside this file, so that they resolve this folder's packages.
const variants = mkdtempSync(join(here, ".use-time-travel-"));
const dbs = mkdtempSync(join(tmpdir(), "chronograph-time-travel-"));
const pg = startPostgres();
after(() => {
  pg?.stop();
  rmSync(variants, { recursive: true, force: true });
  rmSync(dbs, { recursive: true, force: true });
});

/** The program with its saver import replaced by `line`, run on `connString`; its output, comparable. */
async function run(name, line, connString) {
  const file = join(variants, `${name}.mjs`);
  writeFileSync(file, program.replace(IMPORT, line));
  const { default: useTimeTravel } = await import(file);
  const { out, checkpointer } = await useTimeTravel(connString);
  await (checkpointer.pool ? endSaver(checkpointer) : checkpointer.db.close());
  return comparable(out);
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[0-9a-f]{32}\b/g;

/** JSON of `out` with ids renumbered by first appearance and timestamps dropped. */
function comparable(out) {
  const ids = new Map();
  const text = JSON.stringify(out, (k, v) => (k === "createdAt" || k === "ts" ? undefined : v));
  return JSON.parse(text.replace(UUID, (u) => (ids.has(u) || ids.set(u, `#${ids.size}`), ids.get(u))));
}

let reference;
/** The program's output on LangGraph.js's SqliteSaver (run once). */
async function onLangGraphSqlite() {
  reference ??= await run("langgraph-sqlite", IMPORT, join(dbs, "theirs.sqlite"));
  return reference;
}

test("on SQLite: chronograph/langgraph's SqliteSaver gives what LangGraph.js's gives", async () => {
  const theirs = await onLangGraphSqlite();
  const ours = await run("chronograph-sqlite", 'import { SqliteSaver as Saver } from "chronograph/langgraph";', join(dbs, "ours.sqlite"));
  assert.ok(theirs.length > 20, "the program streamed its chunks");
  assert.ok(JSON.stringify(theirs).includes("Why do chickens disappear? They elope!"), "the fork ran");
  assert.ok(JSON.stringify(theirs).includes("Hello, Bob!"), "the second answer was taken");
  assert.deepEqual(ours, theirs);
});

describe("PostgreSQL", { skip: pg ? false : "PostgreSQL's server (initdb, pg_ctl) is not installed" }, () => {
  test("on PostgreSQL: chronograph/langgraph's PostgresSaver gives what LangGraph.js's SqliteSaver gives; LangGraph.js's PostgresSaver, up to the fork", async () => {
    // A database each: the program names no schema, and both savers default to "public".
    const admin = LangGraphPostgresSaver.fromConnString(pg.url);
    for (const db of ["theirs", "ours"]) await admin.pool.query(`CREATE DATABASE ${db}`);
    await endSaver(admin);
    const at = (db) => pg.url.replace(/\/postgres$/, `/${db}`);
    const theirs = await run("langgraph-postgres", 'import { PostgresSaver as Saver } from "@langchain/langgraph-checkpoint-postgres";', at("theirs"));
    const ours = await run("chronograph-postgres", 'import { PostgresSaver as Saver } from "chronograph/langgraph";', at("ours"));
    const expected = await onLangGraphSqlite();
    assert.deepEqual(ours, expected);
    // LangGraph.js's PostgresSaver keys a value by its channel version, and LangGraph.js numbers versions per
    // branch: the fork's new values get versions the first branch stored already, so they read back as the first
    // branch's, and the fork does not run writeJoke (postgres-saver.test.mjs shows the same of a message edit).
    const fork = expected.findIndex(([name]) => name === "fork");
    assert.deepEqual(theirs.slice(0, fork), expected.slice(0, fork));
    assert.deepEqual(theirs[fork], ["fork", ["values", { topic: "chickens", greetings: [] }]]);
    assert.ok(!theirs.some(([name, chunk]) => name === "fork" && chunk[0] === "updates"), "on LangGraph.js's PostgresSaver the fork runs no node");
    assert.ok(expected.some(([name, chunk]) => name === "fork" && chunk[0] === "updates"), "on LangGraph.js's SqliteSaver it runs writeJoke");
  });
});
