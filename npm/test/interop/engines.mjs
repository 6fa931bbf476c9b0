// The seed walkthrough's chat graph on Chronograph's engine, and the thread
// tree both engines' tests compare (ids replaced by creation order).

/** The chat graph on Chronograph, compiled with `checkpointer` (a MemorySaver or any LangGraph.js checkpointer). */
export function chronographChat({ StateGraph, START, END }, checkpointer) {
  return new StateGraph({ messages: "add_messages" })
    .addNode("booking", () => ({}))
    .addNode("reply", async (state) => ({
      messages: [{ type: "ai", content: `回复：${state.messages.at(-1).content}` }],
    }))
    .addEdge(START, "booking")
    .addEdge("booking", "reply")
    .addEdge("reply", END)
    .compile({ checkpointer });
}

/** Snapshots of a thread, oldest first. */
export async function snapshots(graph, thread) {
  const out = [];
  for await (const s of graph.getStateHistory(thread)) out.push(s);
  return out.sort((a, b) => (a.config.configurable.checkpoint_id < b.config.configurable.checkpoint_id ? -1 : 1));
}

/** Checkpoint `cN`: the N-th the thread got. */
export async function label(graph, thread, n) {
  return (await snapshots(graph, thread))[n];
}

/** A message as `type:content` (LangChain classes and plain messages alike). */
export const text = (m) => `${typeof m._getType === "function" ? m._getType() : m.type}:${m.content}`;

/** The tree: per checkpoint its parent's index, source, step, next and messages. */
export async function chronographTree(graph, thread) {
  const all = await snapshots(graph, thread);
  const index = new Map(all.map((s, i) => [s.config.configurable.checkpoint_id, i]));
  return all.map((s) => ({
    parent: s.parentConfig ? index.get(s.parentConfig.configurable.checkpoint_id) : null,
    source: s.metadata.source,
    step: s.metadata.step,
    next: [...s.next],
    messages: (s.values.messages ?? []).map(text),
  }));
}

/** The whole walkthrough on one graph (both engines). */
export async function walk(graph, threadId) {
  const thread = { configurable: { thread_id: threadId } };
  await graph.invoke({ messages: [{ type: "human", content: "明天上午还有号吗" }] }, thread);
  await graph.invoke({ messages: [{ type: "human", content: "那下午呢" }] }, thread);
  await graph.invoke(null, (await label(graph, thread, 2)).config);
  await graph.invoke(null, (await label(graph, thread, 3)).config);
  const edited = await graph.updateState((await label(graph, thread, 0)).config, { messages: [{ type: "human", content: "改成明天下午两点的号" }] }, "booking");
  await graph.invoke(null, edited);
  return chronographTree(graph, thread);
}
