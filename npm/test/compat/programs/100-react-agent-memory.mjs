// createReactAgent (LangGraph.js docs: "Agents" > "Memory", "How to use the prebuilt ReAct agent"
// and "Time travel"): an agent with two tools and a checkpointer, two turns on one thread (the
// second sees the first in its messages), the thread's state and history, a replay from the
// checkpoint before the first tool call, and a fork of it (`updateState` editing that tool call,
// as a reviewer would) run on. Driven by a scripted chat model (programs/_react.mjs).
import { ScriptedChatModel, brief, call, history, prebuiltOf, snapshot, weatherTools } from "./_react.mjs";

export const title = "createReactAgent: two tools, memory over two turns, history, replay and fork";

export default async function (lg, t) {
  const { MemorySaver } = lg;
  const { createReactAgent } = await prebuiltOf(lg);
  const model = new ScriptedChatModel([
    { tool_calls: [call("get_weather", { city: "sf" }, "call-1"), call("get_time", { city: "sf" }, "call-2")] },
    "It's 60 degrees and foggy in SF, and 3pm.",
    { tool_calls: [call("get_weather", { city: "nyc" }, "call-3")] },
    "NYC is sunny, 90 degrees.",
    "Replayed answer.",
  ]);
  const agent = createReactAgent({ llm: model, tools: weatherTools(), checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "react-100" } };

  const first = await t.result("turn 1", async () => (await agent.invoke({ messages: [{ role: "user", content: "Weather and time in SF?" }] }, config)).messages.map(brief));
  void first;
  await t.result("turn 2", async () => (await agent.invoke({ messages: [{ role: "user", content: "And in NYC?" }] }, config)).messages.map(brief));
  t.record("tools bound", model.bound);
  t.record("model calls", model.calls);
  await t.result("state", async () => snapshot(await agent.getState(config)));
  await history(t, "history", agent, config);

  // The checkpoint before the first `tools` task: replayed, then forked.
  const states = [];
  for await (const s of agent.getStateHistory(config)) states.push(s);
  const beforeTools = states.filter((s) => s.next.includes("tools")).at(-1);
  t.record("replayed from", { step: beforeTools.metadata.step, next: beforeTools.next });
  await t.stream("replay", () => agent.stream(null, { ...beforeTools.config, streamMode: "updates" }));
  const ai = beforeTools.values.messages.at(-1);
  const edited = { role: "assistant", content: "", id: ai.id, tool_calls: [call("get_weather", { city: "la" }, "call-1")] };
  const forked = await agent.updateState(beforeTools.config, { messages: [edited] });
  t.record("fork config", forked);
  await t.result("fork state", async () => snapshot(await agent.getState(forked)));
  await t.stream("fork run", () => agent.stream(null, { ...forked, streamMode: "updates" }));
  await t.result("state after fork", async () => (await agent.getState(config)).values.messages.map(brief));
  t.record("model calls after", model.calls.slice(4));
  await history(t, "history after fork", agent, config, { limit: 4 });
}
