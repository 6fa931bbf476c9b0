// chronograph/langgraph's MemorySaver under LangGraph.js itself: the seed
// walkthrough gives the very tree LangGraph.js's own MemorySaver gives, and
// the saver keeps each channel version once.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MemorySaver as LangGraphMemorySaver } from "@langchain/langgraph-checkpoint";
import { MemorySaver } from "chronograph/langgraph";
import { chatGraph, walkthrough } from "./walkthrough.mjs";

test("the seed walkthrough on LangGraph.js: the same tree with Chronograph's saver as with LangGraph.js's MemorySaver", async () => {
  const theirs = await walkthrough(chatGraph(new LangGraphMemorySaver()));
  const ours = await walkthrough(chatGraph(new MemorySaver()));
  assert.equal(theirs.length, 13);
  assert.deepEqual(ours, theirs);
  assert.deepEqual(ours.at(-1).messages, ["human:改成明天下午两点的号", "ai:回复：改成明天下午两点的号"]);
});

test("messages come back as LangChain message classes", async () => {
  const saver = new MemorySaver();
  const graph = chatGraph(saver);
  const thread = { configurable: { thread_id: "t" } };
  await graph.invoke({ messages: [{ type: "human", content: "hi" }] }, thread);
  const state = await graph.getState(thread);
  assert.equal(state.values.messages[0].constructor.name, "HumanMessage");
  assert.equal(state.values.messages[1].constructor.name, "AIMessage");
  const tuple = await saver.getTuple(thread);
  assert.equal(typeof tuple.checkpoint.channel_versions.messages, "number", "integer versions, as LangGraph.js's");
});

test("put without thread_id fails with LangGraph.js's message and a code", async () => {
  const saver = new MemorySaver();
  await assert.rejects(
    saver.put({ configurable: {} }, { v: 4, id: "x", ts: "", channel_values: {}, channel_versions: {}, versions_seen: {} }, { source: "input", step: -1, parents: {} }, {}),
    (e) => e instanceof Error && e.code === "MISSING_THREAD_ID" && /missing a required "thread_id"/.test(e.message),
  );
});

test("each channel version is stored once, and versions never repeat across branches", async () => {
  const saver = new MemorySaver();
  const graph = chatGraph(saver);
  await walkthrough(graph, "v");
  const seen = new Map();
  for await (const t of saver.list({ configurable: { thread_id: "v" } })) {
    const version = t.checkpoint.channel_versions.messages;
    if (version === undefined) continue;
    const value = JSON.stringify(t.checkpoint.channel_values.messages.map((m) => [m.type, m.content]));
    assert.equal(seen.get(version) ?? value, value, `version ${version} holds one value`);
    seen.set(version, value);
  }
  assert.ok(seen.size >= 4, `${seen.size} versions`);
});
