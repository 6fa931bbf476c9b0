// The runs the compact savers' tests compare between savers (sqlite.test.mjs,
// postgres-saver.test.mjs): LangGraph.js's docs-style programs
// (persistence, time travel, an interrupt and its resume, a subgraph), a
// one-node chat of N turns, every tuple of a thread as comparable data; and
// the processes they start (a writer of saver-writer.mjs, an application
// without the optional peers).
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command, END, INTERRUPT, MessagesAnnotation, START, StateGraph, interrupt } from "@langchain/langgraph";
import { chatGraph, walkthrough } from "./walkthrough.mjs";

/** JSON text with object keys sorted, so two savers' key orders compare equal. */
export function stable(v) {
  return JSON.stringify(v, (_, x) =>
    x !== null && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[0-9a-f]{32}\b/g;

/**
 * Every tuple of a thread (all namespaces), oldest first, as comparable
 * text: ids (checkpoints, tasks, messages, interrupts) renumbered by first appearance,
 * timestamps dropped, channel versions reduced to which channels have one
 * (LangGraph.js's SqliteSaver counts versions per branch, ours across the
 * file: see getNextVersion), values kept for the channels that have a
 * version; everything else as read.
 */
export async function tuples(saver, threadId) {
  const all = [];
  for await (const t of saver.list({ configurable: { thread_id: threadId } })) all.push(t);
  all.sort((a, b) => (a.checkpoint.id < b.checkpoint.id ? -1 : a.checkpoint.id > b.checkpoint.id ? 1 : 0));
  const ids = new Map();
  const renumber = (text) => text.replace(UUID, (u) => (ids.has(u) || ids.set(u, `#${ids.size}`), ids.get(u)));
  return all.map((t) => {
    const { ts: _ts, channel_versions, versions_seen, channel_values, ...checkpoint } = t.checkpoint;
    // Values of channels with a version: LangGraph.js's SqliteSaver also keeps the empty
    // values (`[]`) of channels that never had one, which a loop restores as empty anyway.
    checkpoint.channel_values = Object.fromEntries(Object.entries(channel_values).filter(([c]) => c in channel_versions));
    const writes = t.pendingWrites
      .map(([task, channel, value]) => ({ task, channel, value: stable(value) }))
      .sort((a, b) => stable([a.channel, a.value.replace(UUID, "")]).localeCompare(stable([b.channel, b.value.replace(UUID, "")])));
    const shape = {
      config: t.config,
      parentConfig: t.parentConfig ?? null,
      checkpoint,
      versions: Object.keys(channel_versions).sort(),
      seen: Object.fromEntries(Object.entries(versions_seen).map(([node, seen]) => [node, Object.keys(seen).sort()])),
      metadata: t.metadata,
      writes,
    };
    return JSON.parse(renumber(stable(shape)));
  });
}

/** LangGraph.js's docs-style human-in-the-loop graph: a draft, a review that interrupts, a subgraph that sends it. */
export function reviewGraph(checkpointer) {
  const send = new StateGraph(MessagesAnnotation)
    .addNode("send", (s) => ({ messages: [{ type: "ai", content: `sent (${s.messages.length})` }] }))
    .addEdge(START, "send")
    .compile();
  return new StateGraph(MessagesAnnotation)
    .addNode("draft", (s) => ({ messages: [{ type: "ai", content: `draft for: ${s.messages.at(-1).content}` }] }))
    .addNode("review", () => {
      const verdict = interrupt({ question: "send it?" });
      return { messages: [{ type: "human", content: `verdict: ${verdict}` }] };
    })
    .addNode("outbox", send)
    .addEdge(START, "draft")
    .addEdge("draft", "review")
    .addEdge("review", "outbox")
    .addEdge("outbox", END)
    .compile({ checkpointer });
}

/** Persistence, time travel (replays, an updateState fork) and an interrupt with its resume, on `saver`. */
export async function docsRuns(saver) {
  await walkthrough(chatGraph(saver), "walk");
  const graph = reviewGraph(saver);
  const thread = { configurable: { thread_id: "review" } };
  const paused = await graph.invoke({ messages: [{ type: "human", content: "a note to the team" }] }, thread);
  assert.equal(paused[INTERRUPT][0].value.question, "send it?");
  await graph.invoke(new Command({ resume: "yes" }), thread);
  const done = await graph.getState(thread);
  assert.deepEqual(
    done.values.messages.map((m) => m.content),
    ["a note to the team", "draft for: a note to the team", "verdict: yes", "sent (3)"],
  );
  return { walk: await tuples(saver, "walk"), review: await tuples(saver, "review") };
}

/** A chat of `turns` turns (numbered from `first`), each a 200-character question and reply, on `saver`. */
export async function chat(saver, turns, threadId = "chat", first = 0) {
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("reply", (s) => ({ messages: [{ type: "ai", content: `${s.messages.length}`.padEnd(200, "r") }] }))
    .addEdge(START, "reply")
    .addEdge("reply", END)
    .compile({ checkpointer: saver });
  const thread = { configurable: { thread_id: threadId } };
  for (let i = first; i < first + turns; i++) await graph.invoke({ messages: [{ type: "human", content: `${i}`.padEnd(200, "q") }] }, thread);
  return { graph, thread };
}

const here = new URL(".", import.meta.url).pathname;

/** Starts a writer; resolves to its exit and parsed report once it is done. `ready` resolves when it waits for `go`. */
export function writer(args, env = {}) {
  const child = spawn(process.execPath, ["saver-writer.mjs", ...args], { cwd: here, env: { ...process.env, ...env } });
  let out = "";
  let err = "";
  let onReady;
  const ready = new Promise((r) => (onReady = r));
  child.stdout.on("data", (d) => {
    out += d;
    if (out.startsWith("ready\n")) onReady();
  });
  child.stderr.on("data", (d) => (err += d));
  const done = new Promise((resolve) =>
    child.on("close", (code, signal) => {
      const last = out.trim().split("\n").at(-1);
      resolve({ code, signal, err, report: last?.startsWith("{") ? JSON.parse(last) : null });
    }),
  );
  return { ready, done };
}

/**
 * Runs `source` as the main module of an application that has chronograph
 * and LangGraph.js's packages but neither better-sqlite3 nor pg; its stdout.
 */
export function runWithoutPeers(source) {
  const app = mkdtempSync(join(tmpdir(), "chronograph-no-driver-"));
  try {
    mkdirSync(join(app, "node_modules"));
    cpSync(join(here, "node_modules", "chronograph"), join(app, "node_modules", "chronograph"), { recursive: true });
    symlinkSync(join(here, "node_modules", "@langchain"), join(app, "node_modules", "@langchain"));
    writeFileSync(join(app, "main.mjs"), source);
    const out = spawnSync(process.execPath, ["main.mjs"], { cwd: app, encoding: "utf8" });
    assert.equal(out.status, 0, out.stderr);
    return out.stdout;
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
}
