// Type check (tsc --noEmit -p npm/test/interop, run by scripts/test-pkg.sh):
// LangGraph.js's own checkpointers are accepted by Chronograph's `compile`,
// and chronograph/langgraph's MemorySaver by LangGraph.js's.
import { StateGraph as ChronographGraph, START } from "chronograph";
import { MemorySaver } from "chronograph/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { MessagesAnnotation, StateGraph } from "@langchain/langgraph";

const chronographGraph = new ChronographGraph({ messages: "add_messages" }).addNode("a", () => ({})).addEdge(START, "a");
chronographGraph.compile({ checkpointer: SqliteSaver.fromConnString(":memory:") });
chronographGraph.compile({ checkpointer: PostgresSaver.fromConnString("postgresql://localhost/x") });

const saver: BaseCheckpointSaver = new MemorySaver();
new StateGraph(MessagesAnnotation).addNode("a", () => ({})).addEdge("__start__", "a").compile({ checkpointer: saver });
export {};
