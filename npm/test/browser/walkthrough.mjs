// The seed walkthrough (conformance scenario seed_booking), written against
// the package's public API only. The Node tests and the browser page both
// run it: two chat rounds, a replay from the middle, a replay of a terminal
// checkpoint, and an edit of the first input (updateState as "booking") run
// on from there. Takes the package's module namespace; returns what it saw.
export async function walkthrough({ StateGraph, MemorySaver, START, END }) {
  const graph = new StateGraph({ messages: "add_messages" })
    .addNode("booking", () => ({}))
    .addNode("reply", async (state) => ({
      messages: [{ type: "ai", content: `回复：${state.messages.at(-1).content}` }],
    }))
    .addEdge(START, "booking")
    .addEdge("booking", "reply")
    .addEdge("reply", END)
    .compile({ checkpointer: new MemorySaver() });
  const thread = { configurable: { thread_id: "booking" } };
  const history = async () => {
    const out = [];
    for await (const s of graph.getStateHistory(thread)) out.push(s);
    return out;
  };
  /** Checkpoint `cN`: the N-th the thread ever got (ids sort in creation order). */
  const label = async (n) => {
    const all = (await history()).sort((a, b) => (a.config.configurable.checkpoint_id < b.config.configurable.checkpoint_id ? -1 : 1));
    return all[n];
  };
  const counts = {};

  await graph.invoke({ messages: [{ type: "human", content: "明天上午还有号吗" }] }, thread);
  await graph.invoke({ messages: [{ type: "human", content: "那下午呢" }] }, thread);
  counts.twoRounds = (await history()).length;

  const c2 = await label(2);
  await graph.invoke(null, c2.config);
  counts.replay = (await history()).length;

  const c3 = await label(3);
  await graph.invoke(null, c3.config);
  counts.replayTerminal = (await history()).length;

  const c0 = await label(0);
  const edited = await graph.updateState(c0.config, { messages: [{ type: "human", content: "改成明天下午两点的号" }] }, "booking");
  const editedSnapshot = await graph.getState(edited);
  await graph.invoke(null, edited);
  const all = await history();
  counts.editAndRun = all.length;

  return {
    counts,
    c2: { step: c2.metadata.step, next: c2.next },
    c3: { step: c3.metadata.step, next: c3.next },
    edited: { source: editedSnapshot.metadata.source, step: editedSnapshot.metadata.step, parent: editedSnapshot.parentConfig.configurable.checkpoint_id === c0.config.configurable.checkpoint_id },
    newest: { source: all[0].metadata.source, step: all[0].metadata.step, messages: all[0].values.messages.map((m) => `${m.type}:${m.content}`) },
    sources: all.map((s) => s.metadata.source),
  };
}

/** What the walkthrough must give (from the LangGraph trace of seed_booking). */
export const expected = {
  counts: { twoRounds: 8, replay: 10, replayTerminal: 11, editAndRun: 13 },
  c2: { step: 1, next: ["reply"] },
  c3: { step: 2, next: [] },
  edited: { source: "update", step: 0, parent: true },
  newest: { source: "loop", step: 1, messages: ["human:改成明天下午两点的号", "ai:回复：改成明天下午两点的号"] },
  sources: ["loop", "update", "fork", "loop", "fork", "loop", "loop", "loop", "input", "loop", "loop", "loop", "input"],
};
