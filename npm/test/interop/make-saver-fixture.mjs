// Writes core/tests/fixtures/import/langgraphjs_saver.json: the seed
// walkthrough on LangGraph.js (@langchain/langgraph, its MemorySaver), the
// saver's contents as `saver.list(...)` gives them, JSON.stringify'd (messages
// in LangChain's serialized form). The import test of the engine reads it.
//   (cd npm/test/interop && node make-saver-fixture.mjs)
import { writeFileSync } from "node:fs";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { chatGraph, walkthrough } from "./walkthrough.mjs";

const saver = new MemorySaver();
await walkthrough(chatGraph(saver), "booking");
const tuples = [];
for await (const t of saver.list({ configurable: { thread_id: "booking" } })) tuples.push(t);
writeFileSync(new URL("../../../core/tests/fixtures/import/langgraphjs_saver.json", import.meta.url), JSON.stringify(tuples, null, 1) + "\n");
console.log(`${tuples.length} checkpoints`);
