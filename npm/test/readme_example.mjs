import { StateGraph, MemorySaver, START, END, Command, interrupt } from "chronograph";

const graph = new StateGraph({ messages: "add_messages", approved: "last_value" })
  .addNode("draft", async (state) => {
    const question = state.messages.at(-1).content;
    return { messages: [{ type: "ai", content: `Draft reply to: ${question}` }] };
  })
  .addNode("review", () => ({ approved: interrupt("Send this draft?") }))
  .addEdge(START, "draft")
  .addEdge("draft", "review")
  .addEdge("review", END)
  .compile({ checkpointer: new MemorySaver() });

const config = { configurable: { thread_id: "readme" } };
const paused = await graph.invoke({ messages: [{ type: "human", content: "Any slots tomorrow?" }] }, config);
console.log(paused.__interrupt__[0].value); // Send this draft?

const done = await graph.invoke(new Command({ resume: true }), config);
console.log(done.approved, done.messages.map((m) => m.content).join(" | "));

// Every superstep saved a checkpoint; the history lists them newest first.
const history = [];
for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
for (const s of history) console.log(s.metadata.step, s.metadata.source, s.next.join(","));

// Time travel: replay from the checkpoint before "review" ran. LangGraph forks it,
// re-runs "review" on the new branch, and the interrupt asks again.
const beforeReview = history.find((s) => s.next.includes("review"));
const replayed = await graph.invoke(null, beforeReview.config);
console.log(replayed.__interrupt__[0].value);

// Answer differently on the new branch, streaming each node's update.
for await (const chunk of graph.stream(new Command({ resume: false }), config, { streamMode: "updates" })) {
  console.log(JSON.stringify(chunk));
}
const lineage = await graph.getLineage(config);
console.log(lineage.map((s) => `${s.metadata.source}:${s.metadata.step}`).join(" <- "));
