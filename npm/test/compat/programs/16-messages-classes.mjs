// LangChain messages keep their class (gap 3): HumanMessage / AIMessage (with tool_calls) /
// ToolMessage / SystemMessage / RemoveMessage go in as instances and reach nodes, results,
// snapshots and streams as instances. Mirrors the docs' "Graph API" messages section and the
// "Delete messages" how-to (RemoveMessage).
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, RemoveMessage, isAIMessage } from "@langchain/core/messages";

export const title = "messages as @langchain/core classes: instanceof, getType, tool_calls, RemoveMessage";

export default async function (lg, t) {
  const { MessagesAnnotation, StateGraph, MemorySaver, START, END } = lg;

  const seen = [];
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("agent", (state) => {
      const last = state.messages.at(-1);
      seen.push({
        node: "agent",
        classes: state.messages.map((m) => m.constructor.name),
        lastIsHuman: last instanceof HumanMessage,
        lastType: typeof last?.getType === "function" ? last.getType() : null,
        lastText: last?.text,
      });
      return {
        messages: [new AIMessage({ content: "", id: "ai-1", tool_calls: [{ id: "call-1", name: "search", args: { q: "weather" } }] })],
      };
    })
    .addNode("tools", (state) => {
      const last = state.messages.at(-1);
      seen.push({ node: "tools", isAI: isAIMessage(last), toolCalls: last?.tool_calls });
      return { messages: [new ToolMessage({ content: "sunny", tool_call_id: "call-1", id: "tool-1" })] };
    })
    .addNode("cleanup", (state) => ({ messages: [new RemoveMessage({ id: state.messages[0].id })] }))
    .addEdge(START, "agent")
    .addEdge("agent", "tools")
    .addEdge("tools", "cleanup")
    .addEdge("cleanup", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "classes" } };
  const input = { messages: [new SystemMessage({ content: "be brief", id: "sys-1" }), new HumanMessage({ content: "weather?", id: "h-1" })] };
  const out = await graph.invoke(input, config);
  t.record("what nodes saw", seen);
  t.record("result", out);
  t.record("result classes", out.messages.map((m) => m.constructor.name));
  t.record("result getType()", out.messages.map((m) => (typeof m.getType === "function" ? m.getType() : null)));
  t.record("isAIMessage on the result", out.messages.map((m) => isAIMessage(m)));
  const snap = await graph.getState(config);
  t.record("snapshot message classes", snap.values.messages.map((m) => m.constructor.name));
  const history = [];
  for await (const s of graph.getStateHistory(config)) history.push(s);
  t.record("history message classes", history.map((s) => (s.values.messages ?? []).map((m) => m.constructor.name)));
  const values = await t.stream("stream values", () => graph.stream({ messages: [new HumanMessage({ content: "more", id: "h-2" })] }, { ...config, streamMode: "values" }));
  t.record("streamed classes", values.map((v) => v.messages.map((m) => m["@class"])));
}
