// createReactAgent's `version: "v2"` and streaming (LangGraph.js docs: "Agents" > "Streaming",
// and the prebuilt agent's reference for `version`): with v2 each tool call of a reply is sent
// (`Send`) to a `tools` task of its own, so two calls are two tasks of one step; streamed as
// "updates" (one chunk per task), "messages" (the model's reply and the tools' messages, with
// their metadata), "values" and "tasks", the history showing the Sends, and `streamEvents`
// (the prompt and the model run in a RunnableSequence); then v1's streams for the same run.
import { ScriptedChatModel, call, history, prebuiltOf, weatherTools } from "./_react.mjs";

export const title = "createReactAgent: version v2 (Send per tool call); stream updates, messages, values, tasks; streamEvents";

export default async function (lg, t) {
  const { MemorySaver } = lg;
  const { createReactAgent } = await prebuiltOf(lg);
  const script = () => [{ tool_calls: [call("get_weather", { city: "sf" }, "call-1"), call("get_time", { city: "sf" }, "call-2")] }, "Foggy, 3pm."];
  for (const version of ["v2", "v1"]) {
    const agent = createReactAgent({ llm: new ScriptedChatModel(script()), tools: weatherTools(), version, checkpointer: new MemorySaver() });
    const input = { messages: [{ role: "user", content: "SF?" }] };
    await t.stream(`${version}: updates`, () => agent.stream(input, { configurable: { thread_id: `${version}-u` }, streamMode: "updates" }));
    const agentM = createReactAgent({ llm: new ScriptedChatModel(script()), tools: weatherTools(), version, checkpointer: new MemorySaver() });
    await t.stream(`${version}: messages`, () => agentM.stream(input, { configurable: { thread_id: `${version}-m` }, streamMode: "messages" }));
    const agentV = createReactAgent({ llm: new ScriptedChatModel(script()), tools: weatherTools(), version, checkpointer: new MemorySaver() });
    const c = { configurable: { thread_id: `${version}-v` } };
    await t.stream(`${version}: values + tasks`, () => agentV.stream(input, { ...c, streamMode: ["values", "tasks"] }));
    await history(t, `${version}: history`, agentV, c);
    // streamEvents: the runs a LangChain handler sees (the prompt and the model in a RunnableSequence).
    // With v2's two `tools` tasks, the graph's own `on_chain_stream` events (its update chunks,
    // compared above) come in another order among the next step's starts: left out there.
    const agentE = createReactAgent({ llm: new ScriptedChatModel(script()), tools: weatherTools(), version, prompt: "Be brief." });
    await t.result(`${version}: streamEvents v2`, async () => {
      const events = [];
      for await (const e of agentE.streamEvents(input, { version: "v2" })) {
        if (version === "v2" && e.event === "on_chain_stream" && e.name === "LangGraph") continue;
        events.push([e.event, e.name, e.tags, e.metadata.langgraph_node ?? null]);
      }
      return events;
    });
  }
}
