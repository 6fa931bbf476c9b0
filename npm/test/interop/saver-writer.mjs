// One writer of the compact savers' fault tests (sqlite-faults.test.mjs,
// postgres-saver.test.mjs), run as its own process:
// `node saver-writer.mjs FILE|URL THREAD LABEL TURNS [GO]` (a postgresql://
// URL: PostgresSaver on it, in the schema CHRONOGRAPH_TEST_PG_SCHEMA names,
// else SqliteSaver on the file).
// With GO, it prints "ready" and waits for the file GO to exist (so two
// writers start together). It runs TURNS turns of a one-node chat on THREAD and
// prints, as one JSON line, every checkpoint it put (its id and the
// contents of its messages) and the error that stopped it, if any. With
// CHRONOGRAPH_TEST_KILL_IN_PUT=N in its environment the saver kills it
// inside its Nth put.
import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { PostgresSaver, SqliteSaver } from "chronograph/langgraph";

const [path, threadId, label, turns, go] = process.argv.slice(2);
const saver = path.startsWith("postgresql://")
  ? PostgresSaver.fromConnString(path, { schema: process.env.CHRONOGRAPH_TEST_PG_SCHEMA })
  : SqliteSaver.fromConnString(path);
const put = [];
const original = saver.put.bind(saver);
saver.put = async (config, checkpoint, metadata, newVersions) => {
  const stored = await original(config, checkpoint, metadata, newVersions);
  put.push({ id: checkpoint.id, messages: (checkpoint.channel_values.messages ?? []).map((m) => m.content) });
  return stored;
};
const graph = new StateGraph(MessagesAnnotation)
  .addNode("reply", (s) => ({ messages: [{ type: "ai", content: `${label} reply ${s.messages.length}` }] }))
  .addEdge(START, "reply")
  .addEdge("reply", END)
  .compile({ checkpointer: saver });
const thread = { configurable: { thread_id: threadId } };
if (go !== undefined) {
  process.stdout.write("ready\n");
  while (!existsSync(go)) await sleep(5);
}
let error = null;
try {
  for (let i = 0; i < Number(turns); i++) await graph.invoke({ messages: [{ type: "human", content: `${label} turn ${i}` }] }, thread);
} catch (e) {
  error = { code: e.code ?? null, message: String(e.message) };
}
process.stdout.write(`${JSON.stringify({ put, error })}\n`);
await saver.end?.();
