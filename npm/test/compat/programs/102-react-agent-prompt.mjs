// createReactAgent's prompt (LangGraph.js docs: "Agents" > "Context" / "Prompt"): a string (a
// system message put first), a `SystemMessage`, a function of the state and config (here
// reading `config.configurable`), a Runnable, the deprecated `stateModifier` and
// `messageModifier` (a function of the messages), and two of them at once (an error of the
// first model call). The recorded model calls show what the model was given. Also `name` with
// `includeAgentName: "inline"` (the agent's earlier replies shown to the model with their name
// inline), a dynamic model (`llm` as a function of the state), a `ToolNode` as `tools`, and a
// tool with `returnDirect`.
import { SystemMessage } from "@langchain/core/messages";
import { RunnableLambda } from "@langchain/core/runnables";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { ScriptedChatModel, brief, call, nodeNames, prebuiltOf, weatherTools } from "./_react.mjs";

export const title = "createReactAgent: prompt forms, stateModifier/messageModifier, name + includeAgentName, dynamic model, ToolNode, returnDirect";

export default async function (lg, t) {
  const { MemorySaver } = lg;
  const { createReactAgent, ToolNode } = await prebuiltOf(lg);
  const input = { messages: [{ role: "user", content: "hi" }] };
  const prompts = {
    string: { prompt: "You are a weather bot." },
    systemMessage: { prompt: new SystemMessage("Be brief.") },
    function: { prompt: (state, config) => [{ role: "system", content: `User ${config.configurable.user}` }, ...state.messages] },
    runnable: { prompt: RunnableLambda.from((state) => [new SystemMessage("From a runnable."), ...state.messages]) },
    stateModifier: { stateModifier: (state) => [new SystemMessage(`${state.messages.length} message(s)`), ...state.messages] },
    messageModifier: { messageModifier: (messages) => [new SystemMessage("Modified."), ...messages] },
    messageModifierString: { messageModifier: "A string modifier." },
    both: { prompt: "a", stateModifier: (s) => s.messages },
  };
  for (const [label, options] of Object.entries(prompts)) {
    const model = new ScriptedChatModel(["ok"]);
    const agent = createReactAgent({ llm: model, tools: weatherTools(), ...options });
    await t.result(`${label}: reply`, async () => (await agent.invoke(input, { configurable: { user: "ada" } })).messages.map(brief));
    t.record(`${label}: model saw`, model.calls);
  }

  // The agent's name on its replies, inline in what the model is shown of them.
  const named = new ScriptedChatModel([{ tool_calls: [call("get_time", { city: "oslo" }, "call-1")] }, "<name>clock</name><content>It is 3pm.</content>", "Again."]);
  const clock = createReactAgent({ llm: named, tools: weatherTools(), name: "clock", includeAgentName: "inline", checkpointer: new MemorySaver() });
  const c = { configurable: { thread_id: "react-102" } };
  await t.result("named: turn 1", async () => (await clock.invoke({ messages: [{ role: "user", content: "time?" }] }, c)).messages.map(brief));
  await t.result("named: turn 2", async () => (await clock.invoke({ messages: [{ role: "user", content: "again" }] }, c)).messages.map(brief));
  t.record("named: model saw", named.calls);
  t.record("named: graph name", clock.name);

  // A dynamic model: chosen from the state on each call (the tools are bound by the function).
  const small = new ScriptedChatModel(["small model"]);
  const large = new ScriptedChatModel(["large model"]);
  const picks = [];
  const dynamic = createReactAgent({
    llm: (state, runtime) => {
      picks.push([state.messages.length, typeof runtime.configurable?.thread_id]);
      return (state.messages.length > 1 ? large : small).bindTools(weatherTools());
    },
    tools: weatherTools(),
    prompt: "Dynamic.",
    checkpointer: new MemorySaver(),
  });
  const d = { configurable: { thread_id: "react-102-dyn" } };
  await t.result("dynamic: turn 1", async () => (await dynamic.invoke(input, d)).messages.map(brief));
  await t.result("dynamic: turn 2", async () => (await dynamic.invoke(input, d)).messages.map(brief));
  t.record("dynamic: picks", picks);
  t.record("dynamic: models saw", { small: small.calls, large: large.calls });

  // A ToolNode as `tools`, one tool returning directly.
  const lookup = tool(async ({ q }) => `found ${q}`, { name: "lookup", description: "Look up.", schema: z.object({ q: z.string() }), returnDirect: true });
  const direct = new ScriptedChatModel([{ tool_calls: [call("lookup", { q: "x" }, "call-7")] }, "never"]);
  const directAgent = createReactAgent({ llm: direct, tools: new ToolNode([lookup, ...weatherTools()]) });
  await t.result("returnDirect", async () => (await directAgent.invoke(input)).messages.map(brief));
  t.record("returnDirect: model calls", direct.calls.length);
  t.record("returnDirect: graph", nodeNames(directAgent));
}
