// MessagesAnnotation and messagesStateReducer with plain message objects: ids are assigned,
// a message with an existing id replaces it. Mirrors the docs' "Graph API" page ("Working with
// messages in graph state"), using the plain-object form.
export const title = "MessagesAnnotation + messagesStateReducer with plain message objects";

export default async function (lg, t) {
  const { MessagesAnnotation, Annotation, messagesStateReducer, StateGraph, MemorySaver, START, END } = lg;

  const graph = new StateGraph(MessagesAnnotation)
    .addNode("chatbot", (state) => ({
      messages: [{ role: "assistant", content: `You said ${state.messages.length} thing(s)`, id: "reply-1" }],
    }))
    .addEdge(START, "chatbot")
    .addEdge("chatbot", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "msgs" } };
  const out = await graph.invoke({ messages: [{ role: "user", content: "hi", id: "u-1" }] }, config);
  t.record("result", out);
  t.record("message types", out.messages.map((m) => m?.constructor?.name));
  t.record("second turn", await graph.invoke({ messages: [{ role: "user", content: "again", id: "u-2" }] }, config));
  // Same id replaces.
  await graph.updateState(config, { messages: [{ role: "user", content: "hi (edited)", id: "u-1" }] });
  t.record("after replacing u-1", (await graph.getState(config)).values);

  // The reducer on its own, and in a custom Annotation.
  t.record("messagesStateReducer(plain, plain)", messagesStateReducer([{ role: "user", content: "a", id: "1" }], [{ role: "assistant", content: "b", id: "2" }]));
  const State = Annotation.Root({
    messages: Annotation({ reducer: messagesStateReducer, default: () => [] }),
    turns: Annotation({ reducer: (a, b) => a + b, default: () => 0 }),
  });
  const custom = new StateGraph(State)
    .addNode("n", () => ({ messages: [{ role: "assistant", content: "ok", id: "a-1" }], turns: 1 }))
    .addEdge(START, "n")
    .compile();
  t.record("custom Annotation with messagesStateReducer", await custom.invoke({ messages: [{ role: "user", content: "q", id: "q-1" }] }));
}
