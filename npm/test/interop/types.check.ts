// Type check (tsc --noEmit -p npm/test/interop, run by scripts/test-pkg.sh):
// LangGraph.js's own checkpointers are accepted by Chronograph's `compile`,
// and chronograph/langgraph's MemorySaver and SqliteSaver by LangGraph.js's.
import { StateGraph as ChronographGraph, START } from "chronograph";
import { MemorySaver, SqliteSaver as CompactSqliteSaver } from "chronograph/langgraph";
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
export {};
