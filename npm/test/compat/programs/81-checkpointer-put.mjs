// The checkpointer on its own, as `@langchain/langgraph-checkpoint`'s README and the docs'
// "Persistence" page use it: `put` a checkpoint (integer channel versions, values that have
// no version), `putWrites`, then `get` / `getTuple` / `list` it back; copy a graph's thread
// into a second saver tuple by tuple and continue it there; a chat thread's messages as the
// saver hands them out.
export const title = "checkpointer.put / putWrites, copying a thread, messages in tuples";

export default async function (lg, t) {
  const { Annotation, MessagesAnnotation, StateGraph, MemorySaver, START, END } = lg;

  // As in the checkpoint package's README.
  const writeConfig = { configurable: { thread_id: "1", checkpoint_ns: "" } };
  const readConfig = { configurable: { thread_id: "1" } };
  const checkpointer = new MemorySaver();
  const checkpoint = {
    v: 4,
    ts: "2024-07-31T20:14:19.804Z",
    id: "1ef4f797-8335-6428-8001-8a1503f9b875",
    channel_values: { my_key: "meow", node: "node", unversioned: [1, 2] },
    channel_versions: { __start__: 2, my_key: 3, "branch:to:node": 3, node: 3 },
    versions_seen: { __input__: {}, __start__: { __start__: 1 }, node: { "branch:to:node": 2 } },
  };
  t.record("put", await checkpointer.put(writeConfig, checkpoint, { source: "loop", step: 1, parents: {} }, {}));
  await checkpointer.putWrites(
    { configurable: { ...writeConfig.configurable, checkpoint_id: checkpoint.id } },
    [["my_key", "purr"], ["node", "again"]],
    "task-1",
  );
  t.record("get", await checkpointer.get(readConfig));
  t.record("getTuple", await checkpointer.getTuple(readConfig));
  const child = { ...checkpoint, id: "1ef4f797-8335-6428-8002-8a1503f9b875", channel_values: { my_key: "purr" }, channel_versions: { ...checkpoint.channel_versions, my_key: 4 } };
  await checkpointer.put({ configurable: { thread_id: "1", checkpoint_ns: "", checkpoint_id: checkpoint.id } }, child, { source: "loop", step: 2, parents: {} }, { my_key: 4 });
  const listed = [];
  for await (const tuple of checkpointer.list(readConfig)) listed.push(tuple);
  t.record("list", listed);

  // A graph's thread, copied tuple by tuple (oldest first) into another saver, continues there.
  const State = Annotation.Root({ count: Annotation({ reducer: (a, b) => a + b, default: () => 0 }), trail: Annotation() });
  const builder = new StateGraph(State)
    .addNode("inc", (s) => ({ count: 1, trail: `inc at ${s.count}` }))
    .addEdge(START, "inc")
    .addEdge("inc", END);
  const source = new MemorySaver();
  const config = { configurable: { thread_id: "counter" } };
  await builder.compile({ checkpointer: source }).invoke({ count: 10 }, config);
  const tuples = [];
  for await (const tuple of source.list(config)) tuples.unshift(tuple);
  const copy = new MemorySaver();
  for (const tuple of tuples) {
    const parent = { configurable: { thread_id: "counter", checkpoint_ns: "", checkpoint_id: tuple.parentConfig?.configurable.checkpoint_id } };
    await copy.put(parent, tuple.checkpoint, tuple.metadata, tuple.checkpoint.channel_versions);
    for (const [taskId, channel, value] of tuple.pendingWrites) await copy.putWrites(tuple.config, [[channel, value]], taskId);
  }
  t.record("copied latest", await copy.getTuple(config));
  const copied = builder.compile({ checkpointer: copy });
  t.record("continued on the copy", await copied.invoke({ count: 5 }, config));
  t.record("copy after the run", await copy.getTuple(config));

  // A chat thread: the messages as the saver gives them.
  const chat = new StateGraph(MessagesAnnotation)
    .addNode("bot", (s) => ({ messages: [{ role: "assistant", content: `echo: ${s.messages.at(-1).content}`, id: "ai-1" }] }))
    .addEdge(START, "bot")
    .addEdge("bot", END);
  const chats = new MemorySaver();
  await chat.compile({ checkpointer: chats }).invoke({ messages: [{ role: "user", content: "hi", id: "human-1" }] }, { configurable: { thread_id: "chat" } });
  t.record("chat tuple", await chats.getTuple({ configurable: { thread_id: "chat" } }));
}
