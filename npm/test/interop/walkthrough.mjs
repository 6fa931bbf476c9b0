// The seed walkthrough (conformance scenario seed_booking) on LangGraph.js
// itself, with whichever checkpointer it is given: two chat rounds, a replay
// from step 1, a replay of the finished first round, and the first message
// edited (updateState as "booking") and run on. Returns the thread's tree
// with ids replaced by creation order, so two runs compare with deepEqual.
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";

/** The chat graph of the seed walkthrough, compiled with `checkpointer`. */
export function chatGraph(checkpointer) {
  return new StateGraph(MessagesAnnotation)
    .addNode("booking", () => ({}))
    .addNode("reply", async (state) => ({
      messages: [{ type: "ai", content: `回复：${state.messages.at(-1).content}` }],
    }))
    .addEdge(START, "booking")
    .addEdge("booking", "reply")
    .addEdge("reply", END)
    .compile({ checkpointer });
}

/** Every snapshot of a thread, oldest first. */
export async function history(graph, thread) {
  const out = [];
  for await (const s of graph.getStateHistory(thread)) out.push(s);
  return out.sort((a, b) => (a.config.configurable.checkpoint_id < b.config.configurable.checkpoint_id ? -1 : 1));
}

/** A message as `type:content`, for classes and plain objects alike. */
export const text = (m) => `${m.type ?? m._getType?.()}:${m.content}`;

/**
 * The thread's tree: per checkpoint (in creation order) its parent's index,
 * source, step, next and messages.
 */
export async function tree(graph, thread) {
  const all = await history(graph, thread);
  const index = new Map(all.map((s, i) => [s.config.configurable.checkpoint_id, i]));
  return all.map((s) => ({
    parent: s.parentConfig ? index.get(s.parentConfig.configurable.checkpoint_id) : null,
    source: s.metadata.source,
    step: s.metadata.step,
    next: s.next,
    messages: (s.values.messages ?? []).map(text),
  }));
}

/** Runs the walkthrough on `graph` in `threadId`; returns the tree. */
export async function walkthrough(graph, threadId = "booking") {
  const thread = { configurable: { thread_id: threadId } };
  const at = async (n) => (await history(graph, thread))[n].config;
  await graph.invoke({ messages: [{ type: "human", content: "明天上午还有号吗" }] }, thread);
  await graph.invoke({ messages: [{ type: "human", content: "那下午呢" }] }, thread);
  await graph.invoke(null, await at(2)); // replay from step 1 (before reply)
  await graph.invoke(null, await at(3)); // replay of the finished first round
  const edited = await graph.updateState(await at(0), { messages: [{ type: "human", content: "改成明天下午两点的号" }] }, "booking");
  await graph.invoke(null, edited);
  return tree(graph, thread);
}
