// Bytes on disk of the chat of issue 28 on chronograph/langgraph's
// SqliteSaver and on LangGraph.js's own (@langchain/langgraph-checkpoint-sqlite):
// LangGraph.js runs one node on `MessagesAnnotation`; each turn adds a
// 200-character user message and a 200-character reply. After each size, the
// SQLite file plus its -wal and -shm files, as written (no checkpoint of
// the WAL, no VACUUM), and the run's wall time. Not part of ./dev test (the
// quadratic saver takes minutes); results in BENCHMARKS.md.
// With --delta, the state is `new StateSchema({ messages: MessagesDeltaValue })`
// (LangGraph.js's beta delta channel) instead.
//   (cd npm/test/interop && node bench-sqlite-size.mjs [turns,...] [--theirs-up-to N] [--delta])
// Defaults: 100,250,500,1000 turns; LangGraph.js's saver up to 500 turns.
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { END, MessagesAnnotation, MessagesDeltaValue, START, StateGraph, StateSchema } from "@langchain/langgraph";
import { SqliteSaver as LangGraphSqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { SqliteSaver } from "chronograph/langgraph";

const args = process.argv.slice(2);
const upTo = args.includes("--theirs-up-to") ? Number(args[args.indexOf("--theirs-up-to") + 1]) : 500;
const state = args.includes("--delta") ? new StateSchema({ messages: MessagesDeltaValue }) : MessagesAnnotation;
const sizes = (args.find((a) => /^\d+(,\d+)*$/.test(a) && a !== String(upTo)) ?? "100,250,500,1000").split(",").map(Number);

const bytesOn = (path) => [path, `${path}-wal`, `${path}-shm`].reduce((n, p) => n + (existsSync(p) ? statSync(p).size : 0), 0);
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;

/** Runs the chat for `turns` turns on a fresh file; returns its bytes and seconds. */
async function measure(open, turns) {
  const dir = mkdtempSync(join(tmpdir(), "chronograph-size-"));
  const path = join(dir, "chat.sqlite");
  try {
    const saver = open(path);
    const graph = new StateGraph(state)
      .addNode("reply", (s) => ({ messages: [{ type: "ai", content: `reply ${s.messages.length} `.padEnd(200, "r") }] }))
      .addEdge(START, "reply")
      .addEdge("reply", END)
      .compile({ checkpointer: saver });
    const thread = { configurable: { thread_id: "chat" } };
    const start = performance.now();
    for (let i = 0; i < turns; i++) {
      await graph.invoke({ messages: [{ type: "human", content: `question ${i} `.padEnd(200, "q") }] }, thread);
    }
    const seconds = (performance.now() - start) / 1000;
    const bytes = bytesOn(path);
    saver.db.close();
    return { bytes, seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const savers = [
  { name: "chronograph/langgraph SqliteSaver", open: (p) => SqliteSaver.fromConnString(p), upTo: Infinity },
  { name: "@langchain/langgraph-checkpoint-sqlite 1.0.4", open: (p) => LangGraphSqliteSaver.fromConnString(p), upTo },
];
const rows = [];
for (const s of savers) {
  const cells = [];
  for (const turns of sizes) {
    if (turns > s.upTo) {
      cells.push("");
      continue;
    }
    const { bytes, seconds } = await measure(s.open, turns);
    console.error(`${s.name}: ${turns} turns, ${mb(bytes)} (${bytes} bytes), ${seconds.toFixed(1)} s`);
    cells.push(mb(bytes));
  }
  rows.push(`| ${s.name} | ${cells.join(" | ")} |`);
}
console.log(`| saver | ${sizes.map((n) => `${n.toLocaleString("en")} turns`).join(" | ")} |`);
console.log(`|---|${sizes.map(() => "---").join("|")}|`);
for (const r of rows) console.log(r);
