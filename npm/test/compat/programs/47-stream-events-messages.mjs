// Messages with streamEvents: v2's task runs carry the state's LangChain messages in their
// inputs and outputs; v3 streams the messages nodes return as protocol message events under
// their task's namespace (tool messages not), and `run.messages` as ChatModelStreams. Mirrors
// the docs' "Event streaming" page ("messages") and the "Streaming" concepts page (".streamEvents").
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";

export const title = "streamEvents v2 and v3 with LangChain messages";

export default async function (lg, t) {
  const { StateGraph, MessagesAnnotation, START, END, MemorySaver } = lg;
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("agent", () => ({ messages: [new AIMessage({ content: "Let me check.", id: "ai-1", tool_calls: [{ id: "call-1", name: "lookup", args: {} }] })] }))
    .addNode("tools", () => ({ messages: [new ToolMessage({ content: "42", tool_call_id: "call-1", id: "tool-1" })] }))
    .addNode("answer", () => ({ messages: [new AIMessage({ content: [{ type: "text", text: "It is 42." }], id: "ai-2" })] }))
    .addEdge(START, "agent")
    .addEdge("agent", "tools")
    .addEdge("tools", "answer")
    .addEdge("answer", END)
    .compile({ checkpointer: new MemorySaver() });
  await t.stream("v2", () => graph.streamEvents({ messages: [new HumanMessage({ content: "What is 6 * 7?", id: "h-1" })] }, { configurable: { thread_id: "m1" }, version: "v2" }));
  const run = await graph.streamEvents({ messages: [new HumanMessage({ content: "And 40 + 2?", id: "h-2" })] }, { configurable: { thread_id: "m2" }, version: "v3" });
  const texts = [];
  const reading = (async () => {
    for await (const message of run.messages) texts.push({ node: message.node, namespace: message.namespace, text: await message.text });
  })();
  await t.stream("v3", () => run);
  await reading;
  t.record("v3 messages", texts);
  t.record("v3 output", await run.output);
}
