// createReactAgent with a breakpoint before its tools (LangGraph.js docs: "Agents" >
// "Human-in-the-loop", "How to add a breakpoint to the prebuilt agent"): the run pauses before
// `tools`, a reviewer reads the pending tool calls, approves one run as it is (resume with
// `null`), and on a second turn edits the call (`updateState` replacing the AI message by id)
// before resuming; `interruptAfter: ["agent"]` pauses after each model call.
import { ScriptedChatModel, brief, call, history, prebuiltOf, snapshot, weatherTools } from "./_react.mjs";

export const title = "createReactAgent: interruptBefore tools, reviewed (approved, then edited) and resumed; interruptAfter agent";

export default async function (lg, t) {
  const { MemorySaver } = lg;
  const { createReactAgent } = await prebuiltOf(lg);
  const model = new ScriptedChatModel([
    { tool_calls: [call("get_weather", { city: "sf" }, "call-1")] },
    "Foggy in SF.",
    { tool_calls: [call("get_weather", { city: "paris" }, "call-2"), call("get_time", { city: "paris" }, "call-3")] },
    "Done.",
  ]);
  const agent = createReactAgent({ llm: model, tools: weatherTools(), checkpointer: new MemorySaver(), interruptBefore: ["tools"] });
  const config = { configurable: { thread_id: "react-101" } };

  await t.stream("turn 1 pauses", () => agent.stream({ messages: [{ role: "user", content: "SF weather?" }] }, { ...config, streamMode: "updates" }));
  await t.result("paused state", async () => snapshot(await agent.getState(config)));
  const pending = (await agent.getState(config)).values.messages.at(-1).tool_calls;
  t.record("pending tool calls", pending);
  await t.stream("approved", () => agent.stream(null, { ...config, streamMode: "values" }));

  await t.result("turn 2 pauses", async () => (await agent.invoke({ messages: [{ role: "user", content: "And Paris?" }] }, config)).messages.map(brief));
  const paused = await agent.getState(config);
  t.record("next", paused.next);
  const ai = paused.values.messages.at(-1);
  // The reviewer keeps only the weather call, for "Paris, FR".
  const edited = { role: "assistant", content: "", id: ai.id, tool_calls: [call("get_weather", { city: "Paris, FR" }, "call-2")] };
  t.record("edit", await agent.updateState(config, { messages: [edited] }));
  await t.result("after the edit", async () => snapshot(await agent.getState(config)));
  await t.result("resumed", async () => (await agent.invoke(null, config)).messages.slice(-3).map(brief));
  t.record("model calls", model.calls);
  await history(t, "history", agent, config, { limit: 6 });

  const after = createReactAgent({ llm: new ScriptedChatModel([{ tool_calls: [call("get_time", { city: "rome" }, "call-9")] }, "3pm."]), tools: weatherTools(), checkpointer: new MemorySaver(), interruptAfter: ["agent"] });
  const c2 = { configurable: { thread_id: "react-101-after" } };
  await t.stream("interruptAfter agent", () => after.stream({ messages: [{ role: "user", content: "time in rome" }] }, { ...c2, streamMode: "updates" }));
  await t.result("paused after agent", async () => snapshot(await after.getState(c2)));
  await t.stream("resume 1", () => after.stream(null, { ...c2, streamMode: "updates" }));
  await t.stream("resume 2", () => after.stream(null, { ...c2, streamMode: "updates" }));
  await t.result("final", async () => snapshot(await after.getState(c2)));
}
