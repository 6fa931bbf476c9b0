// streamMode "messages" for a chat model a node calls: the docs' "Streaming" page ("LLM
// tokens") with LangChain's fake chat models in place of a provider's. The model streams its
// reply token by token, each chunk with its run's metadata; a reply streamed is not emitted
// again when the node returns it; a model that cannot stream emits its reply once it ends; a
// model tagged "nostream" emits nothing; a subgraph's model streams with `subgraphs: true`
// only; a handler of the caller's still sees its events.
import { AIMessage } from "@langchain/core/messages";
import { FakeChatModel, FakeListChatModel } from "@langchain/core/utils/testing";

export const title = "streamMode messages: a chat model's tokens (fake chat models)";

export default async function (lg, t) {
  const { MessagesAnnotation, StateGraph, START, END, MemorySaver } = lg;

  const chat = new FakeListChatModel({ responses: ["Hi there", "Second reply"] });
  const quiet = new FakeListChatModel({ responses: ["not streamed"] }).withConfig({ tags: ["nostream"] });
  // FakeChatModel has no streaming of its own: its reply comes whole, at its end.
  const whole = new FakeChatModel({});

  const graph = new StateGraph(MessagesAnnotation)
    .addNode("chat", async (state) => ({ messages: [await chat.invoke(state.messages)] }))
    .addNode("quiet", async (state, config) => ({ messages: [await quiet.invoke(state.messages, config)] }))
    .addNode("whole", async (state) => ({ messages: [await whole.invoke(state.messages)] }))
    .addNode("fixed", () => ({ messages: [new AIMessage({ content: "fixed", id: "fixed-1" })] }))
    .addEdge(START, "chat")
    .addEdge("chat", "quiet")
    .addEdge("quiet", "whole")
    .addEdge("whole", "fixed")
    .addEdge("fixed", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "tokens" } };
  await t.stream("messages", () => graph.stream({ messages: [{ role: "user", content: "hello" }] }, { ...config, streamMode: "messages" }));
  await t.stream("messages + updates", () =>
    graph.stream({ messages: [{ role: "user", content: "again" }] }, { ...config, streamMode: ["messages", "updates"] }),
  );
  const replay = new FakeListChatModel({ responses: ["third", "fourth"] });
  const tasks = new StateGraph(MessagesAnnotation)
    .addNode("chat", async (state) => ({ messages: [await replay.invoke(state.messages)] }))
    .addEdge(START, "chat")
    .compile();
  await t.stream("messages + values + tasks", () => tasks.stream({ messages: [{ role: "user", content: "3" }] }, { streamMode: ["messages", "values", "tasks"] }));
  await t.stream("messages + debug", () => tasks.stream({ messages: [{ role: "user", content: "4" }] }, { streamMode: ["messages", "debug"] }));
  const state = await graph.getState(config);
  t.record("stored replies", state.values.messages.map((m) => [m.getType(), m.content]));

  // A chat model in a subgraph's node.
  const inner = new FakeListChatModel({ responses: ["from the subgraph"] });
  const sub = new StateGraph(MessagesAnnotation)
    .addNode("inner", async (state) => ({ messages: [await inner.invoke(state.messages)] }))
    .addEdge(START, "inner")
    .addEdge("inner", END)
    .compile();
  const parent = new StateGraph(MessagesAnnotation).addNode("sub", sub).addEdge(START, "sub").addEdge("sub", END).compile();
  await t.stream("subgraph, subgraphs: false", () => parent.stream({ messages: [{ role: "user", content: "x" }] }, { streamMode: "messages" }));
  await t.stream("subgraph, subgraphs: true", () =>
    parent.stream({ messages: [{ role: "user", content: "y" }] }, { streamMode: "messages", subgraphs: true }),
  );

  // The caller's own handler beside the stream's.
  const events = [];
  const handler = {
    handleChatModelStart: (_llm, _messages, _runId, _parent, _extra, _tags, metadata) => void events.push(["start", metadata?.langgraph_node]),
    handleLLMNewToken: (token) => void events.push(["token", token]),
    handleLLMEnd: () => void events.push(["end"]),
  };
  const one = new FakeListChatModel({ responses: ["ok"] });
  const small = new StateGraph(MessagesAnnotation)
    .addNode("one", async (state) => ({ messages: [await one.invoke(state.messages)] }))
    .addEdge(START, "one")
    .compile();
  await t.stream("with the caller's callbacks", () => small.stream({ messages: [{ role: "user", content: "z" }] }, { streamMode: "messages", callbacks: [handler] }));
  t.record("the caller's handler saw", events);
}
