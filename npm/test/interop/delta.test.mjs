// LangGraph.js's delta channels (MessagesDeltaValue, DeltaValue; beta) on the
// savers: LangGraph.js's engine writes checkpoints that leave the channel out
// between snapshots (a `DeltaSnapshot` every `snapshotFrequency` updates) and
// rebuilds it through `getDeltaChannelHistory`. Its runs on our SqliteSaver
// and PostgresSaver read back tuple by tuple as from LangGraph.js's own
// SqliteSaver, with the same history and `getDeltaChannelHistory`; and
// Chronograph's engine, on any of these savers, gives the history
// (values, metadata with the delta counters, next) LangGraph.js's does,
// through a replay and an updateState fork.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as langgraph from "@langchain/langgraph";
import { SqliteSaver as LangGraphSqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import * as engine from "chronograph";
import * as chronograph from "chronograph/langgraph";
import { startPostgres } from "./postgres.mjs";
import { stable, tuples } from "./saver-runs.mjs";

const dir = mkdtempSync(join(tmpdir(), "chronograph-delta-"));
const pg = startPostgres();
const open = [];
after(async () => {
  for (const s of open) await s.end();
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});
let files = 0;
const savers = {
  "LangGraph.js's SqliteSaver": () => LangGraphSqliteSaver.fromConnString(join(dir, `lg-${(files += 1)}.sqlite`)),
  "our SqliteSaver": () => chronograph.SqliteSaver.fromConnString(join(dir, `ours-${(files += 1)}.sqlite`)),
  ...(pg && {
    "our PostgresSaver": async () => {
      const s = chronograph.PostgresSaver.fromConnString(pg.url, { schema: `delta_${(files += 1)}` });
      await s.setup();
      open.push(s);
      return s;
    },
  }),
};

/** A chat on `lg` (an engine's module) whose messages are a delta channel snapshotting every 4 updates. */
function chatGraph(lg, checkpointer) {
  const messages = new lg.DeltaValue(lg.MessagesDeltaValue.valueSchema, {
    inputSchema: lg.MessagesDeltaValue.inputSchema,
    reducer: lg.messagesDeltaReducer,
    snapshotFrequency: 4,
  });
  return new lg.StateGraph(new lg.StateSchema({ messages }))
    .addNode("reply", (s) => ({ messages: [{ type: "ai", content: `${s.messages.length}`.padEnd(20, "r"), id: `a${s.messages.length}` }] }))
    .addEdge(lg.START, "reply")
    .addEdge("reply", lg.END)
    .compile({ checkpointer });
}

/** Six turns, a replay from the third checkpoint, an updateState fork of the fifth: the history as comparable data. */
async function run(lg, saver) {
  const graph = chatGraph(lg, saver);
  const thread = { configurable: { thread_id: "chat" } };
  for (let i = 0; i < 6; i++) await graph.invoke({ messages: [{ type: "human", content: `${i}`.padEnd(20, "q"), id: `h${i}` }] }, thread);
  const before = [];
  for await (const s of graph.getStateHistory(thread)) before.push(s);
  const oldest = before.length - 1;
  await graph.invoke(null, before[oldest - 3].config);
  await graph.updateState(before[oldest - 5].config, { messages: [{ type: "human", content: "edited", id: "h2" }] });
  const history = [];
  for await (const s of graph.getStateHistory(thread)) {
    history.push({ metadata: s.metadata, next: s.next, messages: s.values.messages.map((m) => [m.id, m.content]) });
  }
  const latest = await saver.getTuple(thread);
  const deltas = await saver.getDeltaChannelHistory({ config: latest.config, channels: ["messages"] });
  return { history, deltas: JSON.parse(stable(deltas)), tuples: await tuples(saver, "chat") };
}

test("LangGraph.js's engine on our SqliteSaver and PostgresSaver reads back, tuple by tuple, what LangGraph.js's SqliteSaver does", async () => {
  const theirs = await run(langgraph, await savers["LangGraph.js's SqliteSaver"]());
  assert.ok(theirs.tuples.some((t) => t.checkpoint.channel_values.messages?.lg_name === "DeltaSnapshot"), "the run snapshots");
  assert.ok(theirs.tuples.some((t) => t.versions.includes("messages") && !("messages" in t.checkpoint.channel_values)), "and leaves the channel out between");
  for (const [name, make] of Object.entries(savers).slice(1)) {
    const ours = await run(langgraph, await make());
    assert.deepEqual(ours.history, theirs.history, name);
    assert.deepEqual(ours.deltas, theirs.deltas, name);
    assert.equal(ours.tuples.length, theirs.tuples.length, name);
    ours.tuples.forEach((t, i) => assert.deepEqual(t, theirs.tuples[i], `${name}, tuple ${i}`));
  }
});

test("Chronograph's engine gives LangGraph.js's history (values, delta counters, next) on each saver and on MemorySaver", async () => {
  const expected = (await run(langgraph, new langgraph.MemorySaver())).history;
  const counted = expected.filter((s) => s.metadata.counters_since_delta_snapshot !== undefined);
  assert.ok(counted.length > 0 && counted.length < expected.length, "counters, and snapshots that restart them");
  const ours = { "our MemorySaver": () => new chronograph.MemorySaver(), ...savers };
  for (const [name, make] of Object.entries(ours)) {
    const got = (await run(engine, await make())).history;
    if (process.env.DELTA_DEBUG) for (let i = 0; i < Math.max(got.length, expected.length); i++) console.log(i, JSON.stringify(got[i]) === JSON.stringify(expected[i]) ? "same" : JSON.stringify([got[i], expected[i]]));
    assert.deepEqual(got, expected, name);
  }
});
