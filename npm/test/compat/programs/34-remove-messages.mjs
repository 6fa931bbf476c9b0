// Deleting messages from a MessagesAnnotation state: RemoveMessage by id and
// REMOVE_ALL_MESSAGES; plain objects and classes mixed; the messages stream of plain objects.
// Mirrors the docs' "Memory" how-to ("Delete messages").
import { HumanMessage, AIMessage, RemoveMessage } from "@langchain/core/messages";

export const title = "RemoveMessage by id, REMOVE_ALL_MESSAGES, mixed plain objects and classes";

export default async function (lg, t) {
  const { MessagesAnnotation, StateGraph, MemorySaver, REMOVE_ALL_MESSAGES, START, END } = lg;

  const graph = new StateGraph(MessagesAnnotation)
    .addNode("reply", (s) => ({ messages: [{ role: "assistant", content: `reply to ${s.messages.length}`, id: `r-${s.messages.length}` }] }))
    .addNode("trim", (s) => (s.messages.length > 3 ? { messages: s.messages.slice(0, -2).map((m) => new RemoveMessage({ id: m.id })) } : {}))
    .addEdge(START, "reply")
    .addEdge("reply", "trim")
    .addEdge("trim", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "rm" } };
  t.record("turn 1", await graph.invoke({ messages: [new HumanMessage({ content: "one", id: "h-1" })] }, config));
  t.record("turn 2 (trims)", await graph.invoke({ messages: [{ role: "user", content: "two", id: "h-2" }] }, config));
  await t.stream("turn 3, messages mode", () =>
    graph.stream({ messages: [new HumanMessage({ content: "three", id: "h-3" })] }, { ...config, streamMode: "messages" }),
  );
  await graph.updateState(config, { messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), new AIMessage({ content: "fresh start", id: "a-0" })] });
  t.record("after REMOVE_ALL_MESSAGES", (await graph.getState(config)).values);
  await t.result("removing an unknown id", () => graph.updateState(config, { messages: [new RemoveMessage({ id: "nope" })] }));
}
