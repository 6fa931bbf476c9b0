// LangGraph.js's older prebuilt names (its `@langchain/langgraph/prebuilt` entry, deprecated
// there): `ToolExecutor` (a tool by name, or the text naming the valid tools),
// `createAgentExecutor` (a LangChain agent runnable deciding `AgentAction`s until an
// `AgentFinish`, its steps gathered), `createFunctionCallingExecutor` (a model with `bind`
// calling OpenAI functions, the call's result a `FunctionMessage`; a model without `bind` is
// refused) and `withAgentName` (a model
// whose AI input messages carry their name inline, the name taken back off its reply).
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { RunnableLambda } from "@langchain/core/runnables";
import { tool } from "@langchain/core/tools";
import { ScriptedChatModel, brief, prebuiltOf, weatherTools } from "./_react.mjs";

export const title = "ToolExecutor, createAgentExecutor, createFunctionCallingExecutor, withAgentName";

export default async function (lg, t) {
  const { MemorySaver } = lg;
  const { ToolExecutor, createAgentExecutor, createFunctionCallingExecutor, withAgentName } = await prebuiltOf(lg);
  const tools = weatherTools();

  const executor = new ToolExecutor({ tools });
  t.record("executor", { graphName: executor.lc_graph_name, tools: Object.keys(executor.toolMap), template: executor.invalidToolMsgTemplate });
  await t.result("known tool", () => executor.invoke({ tool: "get_weather", toolInput: { city: "sf" } }));
  await t.result("unknown tool", () => executor.invoke({ tool: "nope", toolInput: "{}" }));
  const custom = new ToolExecutor({ tools, invalidToolMsgTemplate: "No {requestedToolName} ({availableToolNamesString})" });
  await t.result("custom template", () => custom.invoke({ tool: "nope", toolInput: "{}" }));

  // An agent runnable: a tool call first, then its answer from the observation.
  const decisions = [];
  const agentRunnable = RunnableLambda.from((state) => {
    decisions.push({ input: state.input, steps: state.steps.length });
    if (state.steps.length === 0) return { tool: "get_time", toolInput: { city: state.input }, log: "calling get_time" };
    return { returnValues: { output: state.steps.at(-1).observation }, log: "done" };
  });
  const agentExecutor = createAgentExecutor({ agentRunnable, tools });
  await t.result("agent executor", () => agentExecutor.invoke({ input: "paris" }));
  t.record("agent decisions", decisions);
  await t.stream("agent executor updates", () => createAgentExecutor({ agentRunnable, tools: executor }).stream({ input: "rome" }, { streamMode: "updates" }));

  // A model with `bind` (chat models of @langchain/core 1.x have none: refused).
  const bound = [];
  const echo = tool(async (input) => `echo ${input}`, { name: "echo", description: "Echoes its input." });
  const replies = [new AIMessage({ content: "", additional_kwargs: { function_call: { name: "echo", arguments: "nyc" } } }), new AIMessage("Echoed.")];
  let turn = 0;
  const model = {
    bind(kwargs) {
      bound.push(kwargs.functions.map((f) => f.name));
      return RunnableLambda.from(() => replies[turn++]);
    },
  };
  const calling = createFunctionCallingExecutor({ model, tools: [...tools, echo] });
  t.record("bound functions", bound);
  await t.result("function calling executor", async () => {
    const out = await calling.invoke({ messages: [new HumanMessage("NYC?")] }, { configurable: { thread_id: "fc" } });
    return out.messages.map(brief);
  });
  await t.result("a chat model has no bind", () => createFunctionCallingExecutor({ model: new ScriptedChatModel(["x"]), tools }));

  // withAgentName: the name inline in what the model sees, taken back off the reply.
  const inner = new ScriptedChatModel(["<name>helper</name><content>Hi there.</content>", "no tags"]);
  const named = withAgentName(inner, "inline");
  await t.result("withAgentName reply", async () => brief(await named.invoke([new HumanMessage("hi"), new AIMessage({ content: "earlier", name: "helper" }), new AIMessage({ content: [{ type: "image_url", image_url: "x" }], name: "helper" })])));
  await t.result("withAgentName untagged reply", async () => brief(await named.invoke([new HumanMessage("again")])));
  t.record("withAgentName: model saw", inner.calls);
  await t.result("withAgentName: bad mode", () => withAgentName(inner, "prefix"));
  void MemorySaver;
}
