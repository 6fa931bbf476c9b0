// Type check (tsc --noEmit -p npm/test/interop, run by scripts/test-pkg.sh):
// LangGraph.js's own checkpointers are accepted by Chronograph's `compile`,
// and chronograph/langgraph's MemorySaver, SqliteSaver and PostgresSaver by LangGraph.js's.
import { StateGraph as ChronographGraph, START } from "chronograph";
import { MemorySaver, PostgresSaver as CompactPostgresSaver, SqliteSaver as CompactSqliteSaver } from "chronograph/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { MessagesAnnotation, StateGraph } from "@langchain/langgraph";

const chronographGraph = new ChronographGraph({ messages: "add_messages" }).addNode("a", () => ({})).addEdge(START, "a");
chronographGraph.compile({ checkpointer: SqliteSaver.fromConnString(":memory:") });
chronographGraph.compile({ checkpointer: PostgresSaver.fromConnString("postgresql://localhost/x") });

const saver: BaseCheckpointSaver = new MemorySaver();
new StateGraph(MessagesAnnotation).addNode("a", () => ({})).addEdge("__start__", "a").compile({ checkpointer: saver });
// LangGraph.js's constructors: a path, or a better-sqlite3 Database and a serializer.
const compact = CompactSqliteSaver.fromConnString("checkpoints.sqlite");
const overDb: BaseCheckpointSaver = new CompactSqliteSaver(compact.db, saver.serde);
new StateGraph(MessagesAnnotation).addNode("a", () => ({})).addEdge("__start__", "a").compile({ checkpointer: compact });
new StateGraph(MessagesAnnotation).addNode("a", () => ({})).addEdge("__start__", "a").compile({ checkpointer: overDb });
// LangGraph.js's PostgresSaver constructors: a URL and a schema, or a pg Pool (here the saver's own), a serializer and a schema.
const compactPg = CompactPostgresSaver.fromConnString("postgresql://localhost/x", { schema: "custom_schema" });
const overPool: BaseCheckpointSaver = new CompactPostgresSaver(compactPg.pool, saver.serde, { schema: "s" });
const ready: Promise<void> = compactPg.setup();
new StateGraph(MessagesAnnotation).addNode("a", () => ({})).addEdge("__start__", "a").compile({ checkpointer: compactPg });
new StateGraph(MessagesAnnotation).addNode("a", () => ({})).addEdge("__start__", "a").compile({ checkpointer: overPool });
// prune: LangGraph (Python)'s strategy, or what to keep; its report.
const pruned: Promise<{ dropped: number; kept: number; rebased: number; bytesAfter: number }> = compact.prune({ threadIds: ["t"], strategy: "keep_latest" });
void compactPg.prune({ keep: { last: 3 }, vacuum: true });
void compact.prune({ keep: "lineage" });
void compact.prune({ keep: { newerThan: 86_400_000 } });
// @ts-expect-error: keep is "latest", "lineage", { last } or { newerThan }
void compact.prune({ keep: "everything" });
export { ready, pruned };
