// Writes core/tests/fixtures/import/langgraphjs_subgraph_saver.json: a
// LangGraph.js (@langchain/langgraph, its MemorySaver) thread whose `research`
// node is a subgraph (`search` then `summarize`), as `saver.list(...)` gives
// every namespace's checkpoints, JSON.stringify'd. The visualizer's import
// test reads it: a subgraph namespace's checkpoints open with that
// subgraph's nodes as the Fork dialog's `as_node` choices.
//   (cd npm/test/interop && node make-subgraph-fixture.mjs)
import { writeFileSync } from "node:fs";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { MemorySaver } from "@langchain/langgraph-checkpoint";

const State = Annotation.Root({
  topic: Annotation(),
  notes: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
});
const research = new StateGraph(State)
  .addNode("search", (s) => ({ notes: [`found: ${s.topic}`] }))
  .addNode("summarize", (s) => ({ notes: [`summary of ${s.notes.length} notes`] }))
  .addEdge(START, "search")
  .addEdge("search", "summarize")
  .addEdge("summarize", END)
  .compile();
const saver = new MemorySaver();
const graph = new StateGraph(State)
  .addNode("plan", (s) => ({ notes: [`plan: ${s.topic}`] }))
  .addNode("research", research)
  .addNode("write", (s) => ({ notes: [`report (${s.notes.length})`] }))
  .addEdge(START, "plan")
  .addEdge("plan", "research")
  .addEdge("research", "write")
  .addEdge("write", END)
  .compile({ checkpointer: saver });
const config = { configurable: { thread_id: "research" } };
await graph.invoke({ topic: "tides" }, config);
const tuples = [];
for await (const t of saver.list(config)) tuples.push(t);
writeFileSync(
  new URL("../../../core/tests/fixtures/import/langgraphjs_subgraph_saver.json", import.meta.url),
  JSON.stringify(tuples, null, 1) + "\n",
);
console.log(`${tuples.length} checkpoints in ${new Set(tuples.map((t) => t.config.configurable.checkpoint_ns)).size} namespaces`);
