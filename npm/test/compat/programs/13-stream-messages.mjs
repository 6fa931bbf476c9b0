// streamMode "messages" for messages written by nodes (no LLM): LangGraph.js emits
// [message, metadata] for each message a node returns (gap 5). Mirrors the docs' "Streaming"
// page ("messages" mode) with MessagesAnnotation and @langchain/core message classes.
import { AIMessage, HumanMessage } from "@langchain/core/messages";

export const title = "streamMode messages for node-written messages (with classes)";

export default async function (lg, t) {
  const { MessagesAnnotation, StateGraph, START, END } = lg;

  const graph = new StateGraph(MessagesAnnotation)
    .addNode("bot", () => ({ messages: [new AIMessage({ content: "Hello from the bot", id: "ai-1" })] }))
    .addNode("bot2", () => ({ messages: [new AIMessage({ content: "Second", id: "ai-2" }), new AIMessage({ content: "Third", id: "ai-3" })] }))
    .addEdge(START, "bot")
    .addEdge("bot", "bot2")
    .addEdge("bot2", END)
    .compile();

  const input = { messages: [new HumanMessage({ content: "hi", id: "h-1" })] };
  const chunks = await t.stream("messages", () => graph.stream(input, { streamMode: "messages" }));
  t.record("chunk message classes (live objects)", chunks.map((c) => c?.[0]?.["@class"]));
  await t.stream("messages + updates", () => graph.stream(input, { streamMode: ["messages", "updates"] }));
}
