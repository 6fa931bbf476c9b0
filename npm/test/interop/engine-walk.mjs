// Chronograph's engine on a LangGraph.js checkpointer, run as its own
// process by savers.test.mjs (so a test can kill it and start another):
//   node engine-walk.mjs <sqlite FILE | compact:FILE | postgres URL | compactpg:URL> <thread> <phase>
// (compact:FILE is chronograph/langgraph's SqliteSaver on FILE, compactpg:URL its PostgresSaver on URL)
// phase "rounds": the walkthrough's two chat rounds, then the process kills
// itself (SIGKILL: no exit handlers, nothing flushed late);
// phase "rest": in a fresh process, the replays and the edit of the first
// message on the same thread; prints the thread's tree as JSON.
import * as chronograph from "chronograph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { PostgresSaver as CompactPostgresSaver, SqliteSaver as CompactSqliteSaver } from "chronograph/langgraph";
import { chronographChat, chronographTree, label } from "./engines.mjs";

const [where, threadId, phase] = process.argv.slice(2);
const saver = where.startsWith("compactpg:")
  ? CompactPostgresSaver.fromConnString(where.slice(10))
  : where.startsWith("postgres")
    ? PostgresSaver.fromConnString(where)
    : where.startsWith("compact:")
      ? CompactSqliteSaver.fromConnString(where.slice(8))
      : SqliteSaver.fromConnString(where);
if (saver.setup) await saver.setup();
const graph = chronographChat(chronograph, saver);
const thread = { configurable: { thread_id: threadId } };

if (phase === "rounds") {
  await graph.invoke({ messages: [{ type: "human", content: "明天上午还有号吗" }] }, thread);
  await graph.invoke({ messages: [{ type: "human", content: "那下午呢" }] }, thread);
  process.kill(process.pid, "SIGKILL");
} else {
  await graph.invoke(null, (await label(graph, thread, 2)).config);
  await graph.invoke(null, (await label(graph, thread, 3)).config);
  const edited = await graph.updateState((await label(graph, thread, 0)).config, { messages: [{ type: "human", content: "改成明天下午两点的号" }] }, "booking");
  await graph.invoke(null, edited);
  process.stdout.write(JSON.stringify(await chronographTree(graph, thread)));
  await saver.end?.();
}
