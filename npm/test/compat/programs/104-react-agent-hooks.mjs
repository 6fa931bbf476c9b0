// createReactAgent's hooks (LangGraph.js docs: "Agents" > "Memory" (trimming with a pre-model
// hook) and "How to add a pre/post model hook"): `preModelHook` runs before each model call and
// gives the model `llmInputMessages` (here: the last message only) while the state keeps every
// message; `postModelHook` runs after each model call (here: a guardrail that counts calls and
// replaces a reply), its router going to the tools for unanswered tool calls. Both as a
// function and as a Runnable, on a state schema of the program's own; the hooks' nodes, and the
// history (`llmInputMessages` is a channel of the graph: the state's values show it).
import { RunnableLambda } from "@langchain/core/runnables";
import { AIMessage } from "@langchain/core/messages";
import { ScriptedChatModel, brief, call, history, nodeNames, prebuiltOf, snapshot, weatherTools } from "./_react.mjs";

export const title = "createReactAgent: preModelHook (llmInputMessages) and postModelHook";

export default async function (lg, t) {
  const { MemorySaver, Annotation, messagesStateReducer } = lg;
  const { createReactAgent } = await prebuiltOf(lg);
  const hookSaw = [];
  const pre = (state) => {
    hookSaw.push({ keys: Object.keys(state).sort(), messages: state.messages.length, llmInputMessages: state.llmInputMessages?.length ?? null });
    return { llmInputMessages: state.messages.slice(-1) };
  };
  const model = new ScriptedChatModel([{ tool_calls: [call("get_weather", { city: "sf" }, "call-1")] }, "Foggy.", "Second turn."]);
  const agent = createReactAgent({ llm: model, tools: weatherTools(), preModelHook: pre, prompt: "System.", checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "react-104" } };
  await t.stream("pre: updates", () => agent.stream({ messages: [{ role: "user", content: "SF?" }] }, { ...config, streamMode: "updates" }));
  await t.result("pre: turn 2", async () => (await agent.invoke({ messages: [{ role: "user", content: "more" }] }, config)).messages.map(brief));
  t.record("pre: hook saw", hookSaw);
  t.record("pre: model saw", model.calls);
  await t.result("pre: state", async () => snapshot(await agent.getState(config)));
  await history(t, "pre: history", agent, config, { limit: 5 });
  t.record("pre: nodes", nodeNames(agent));

  let postCalls = 0;
  const post = (state) => {
    postCalls += 1;
    const last = state.messages.at(-1);
    if (typeof last.content === "string" && last.content.includes("secret")) return { messages: [new AIMessage({ id: last.id, content: "[redacted]" })] };
    return {};
  };
  const guarded = new ScriptedChatModel([{ tool_calls: [call("get_time", { city: "sf" }, "call-2")] }, "The secret is 3pm."]);
  const guardedAgent = createReactAgent({ llm: guarded, tools: weatherTools(), postModelHook: post, checkpointer: new MemorySaver() });
  const c2 = { configurable: { thread_id: "react-104-post" } };
  await t.stream("post: updates", () => guardedAgent.stream({ messages: [{ role: "user", content: "time?" }] }, { ...c2, streamMode: "updates" }));
  t.record("post: calls", postCalls);
  await t.result("post: state", async () => snapshot(await guardedAgent.getState(c2)));
  t.record("post: nodes", nodeNames(guardedAgent));

  // Both hooks as Runnables, on a custom state schema with a field of its own.
  const State = Annotation.Root({
    messages: Annotation({ reducer: messagesStateReducer, default: () => [] }),
    hops: Annotation({ reducer: (a, b) => a + b, default: () => 0 }),
  });
  const both = new ScriptedChatModel([{ tool_calls: [call("get_weather", { city: "nyc" }, "call-3")] }, "Sunny."]);
  const bothAgent = createReactAgent({
    llm: both,
    tools: weatherTools(),
    stateSchema: State,
    preModelHook: RunnableLambda.from((state) => ({ hops: 1, llmInputMessages: [{ role: "user", content: `hop ${state.hops}` }] })),
    postModelHook: RunnableLambda.from(() => ({ hops: 10 })),
  });
  await t.result("both: final", async () => {
    const out = await bothAgent.invoke({ messages: [{ role: "user", content: "NYC?" }] });
    return { hops: out.hops, messages: out.messages.map(brief), keys: Object.keys(out) };
  });
  t.record("both: model saw", both.calls);
}
