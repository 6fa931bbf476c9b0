// Human-in-the-loop review of a tool call: the model node (no LLM: a fixed AIMessage with
// tool_calls) proposes a call, a review node interrupts with it, and the human's answer routes
// with Command({ goto, update }): approve runs the tool, edit rewrites the call (same message
// id replaces it), reject answers with a ToolMessage. Mirrors the docs' "Human-in-the-loop"
// page ("Review tool calls").
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";

export const title = "review tool calls: interrupt + Command({ goto, update }) with messages and tool_calls";

export default async function (lg, t) {
  const { MessagesAnnotation, StateGraph, MemorySaver, Command, interrupt, START, END } = lg;

  const callModel = (state) => {
    const last = state.messages.at(-1);
    if (last?.getType?.() === "tool" || last?._getType?.() === "tool") return { messages: [new AIMessage({ content: `The weather: ${last.content}`, id: `final-${state.messages.length}` })] };
    return {
      messages: [new AIMessage({ content: "", id: "call-msg", tool_calls: [{ id: "tc-1", name: "weather", args: { city: "sf" } }] })],
    };
  };
  const humanReview = (state) => {
    const toolCall = state.messages.at(-1).tool_calls.at(-1);
    const review = interrupt({ question: "Is this correct?", tool_call: toolCall });
    if (review.action === "continue") return new Command({ goto: "runTool" });
    if (review.action === "update") {
      const updated = new AIMessage({ content: "", id: state.messages.at(-1).id, tool_calls: [{ ...toolCall, args: review.data }] });
      return new Command({ goto: "runTool", update: { messages: [updated] } });
    }
    const tm = new ToolMessage({ content: review.data, name: toolCall.name, tool_call_id: toolCall.id, id: "rejected" });
    return new Command({ goto: "callModel", update: { messages: [tm] } });
  };
  const runTool = (state) => {
    const call = state.messages.at(-1).tool_calls.at(-1);
    return { messages: [new ToolMessage({ content: `sunny in ${call.args.city}`, tool_call_id: call.id, id: `tool-${call.args.city}` })] };
  };
  const route = (state) => (state.messages.at(-1).tool_calls?.length ? "humanReview" : END);

  const graph = new StateGraph(MessagesAnnotation)
    .addNode("callModel", callModel)
    .addNode("humanReview", humanReview, { ends: ["callModel", "runTool"] })
    .addNode("runTool", runTool)
    .addEdge(START, "callModel")
    .addConditionalEdges("callModel", route, ["humanReview", END])
    .addEdge("runTool", "callModel")
    .compile({ checkpointer: new MemorySaver() });

  const input = { messages: [new HumanMessage({ content: "weather in sf?", id: "h-1" })] };
  for (const [thread, answer] of [
    ["approve", { action: "continue" }],
    ["edit", { action: "update", data: { city: "nyc" } }],
    ["reject", { action: "feedback", data: "use celsius" }],
  ]) {
    const config = { configurable: { thread_id: thread } };
    await t.stream(`${thread}: run to the review`, () => graph.stream(input, { ...config, streamMode: "updates" }));
    t.record(`${thread}: next`, (await graph.getState(config)).next);
    const out = await t.result(`${thread}: resume`, () => graph.invoke(new Command({ resume: answer }), config));
    t.record(`${thread}: message types`, out?.messages?.map((m) => m?.constructor?.name));
  }
}
