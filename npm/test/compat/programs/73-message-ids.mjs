// Messages without ids: LangGraph.js's messagesStateReducer gives a message instance its id in
// place (`m.id = uuid(); m.lc_kwargs.id = m.id`), so the object a node returned (or the caller
// passed in), the "updates" chunk and later reads all carry the same id; in "messages" mode its
// stream handler names it first (`run-<id>-out-<i>`, `run-<id>-tool-<call id>`). A ToolMessage
// keeps `artifact` absent. The ReAct loop runs the package's own `ToolNode` and `toolsCondition`
// (`chronograph/prebuilt`, LangGraph.js's `@langchain/langgraph/prebuilt`). Mirrors the docs'
// "Graph API" page ("Messages in graph state") and "Build a ReAct agent from scratch". The
// history is recorded without its tasks' `result`s: LangGraph.js saves a task's writes before
// its reducer gives their messages ids, so a result there has none (README, "what still differs").
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { z } from "zod";

export const title = "id-less messages get their ids in place; ToolNode end to end; artifact stays absent";

export default async function (lg, t) {
  const { MessagesAnnotation, StateGraph, MemorySaver, START, END } = lg;
  const langgraph = await import("@langchain/langgraph");
  const prebuilt = lg.StateGraph === langgraph.StateGraph ? "@langchain/langgraph/prebuilt" : "chronograph/prebuilt";
  const { ToolNode, toolsCondition } = await import(prebuilt);
  const ids = (messages) => messages.map((m) => [m.getType(), m.id, m.lc_kwargs.id === m.id]);

  // A node's message without an id, and the caller's.
  let returned;
  const reply = new StateGraph(MessagesAnnotation)
    .addNode("reply", (s) => {
      returned = new AIMessage({ content: `re: ${s.messages.at(-1).content}` });
      return { messages: [returned, new ToolMessage({ content: "t", tool_call_id: "c1" })] };
    })
    .addEdge(START, "reply")
    .addEdge("reply", END)
    .compile({ checkpointer: new MemorySaver() });
  const c = { configurable: { thread_id: "ids" } };
  const input = new HumanMessage("hi");
  await t.stream("updates", () => reply.stream({ messages: [input] }, { ...c, streamMode: "updates" }));
  const state = await reply.getState(c);
  t.record("ids: input, returned, state", { input: input.id, returned: returned.id, state: ids(state.values.messages) });
  t.record("same ids", [input.id === state.values.messages[0].id, returned.id === state.values.messages[1].id]);
  t.record("tool message kwargs", Object.keys(state.values.messages[2].lc_kwargs));
  t.record("updateState with an id-less message", await (async () => {
    const m = new HumanMessage("edited");
    await reply.updateState(c, { messages: [m] });
    const s = await reply.getState(c);
    return { given: m.id === s.values.messages.at(-1).id, ids: ids(s.values.messages) };
  })());

  // "messages" mode names an id-less message after the node's run first.
  const c2 = { configurable: { thread_id: "ids-2" } };
  await t.stream("messages + updates", () => reply.stream({ messages: [new HumanMessage({ content: "yo", id: "h1" })] }, { ...c2, streamMode: ["messages", "updates"] }));
  t.record("messages mode: state ids", ids((await reply.getState(c2)).values.messages));

  // The ReAct loop with the prebuilt ToolNode.
  const getWeather = tool(async ({ location }) => (location.toLowerCase().includes("sf") ? "It's 60 degrees and foggy." : "It's 90 degrees and sunny."), {
    name: "get_weather",
    description: "Call to get the current weather.",
    schema: z.object({ location: z.string() }),
  });
  let turn = 0;
  const callModel = async (state) => {
    turn += 1;
    if (turn === 1) return { messages: [new AIMessage({ content: "", id: "m1", tool_calls: [{ id: "call_1", name: "get_weather", args: { location: "sf" } }] })] };
    return { messages: [new AIMessage({ content: `final: ${state.messages.at(-1).content}`, id: `m${turn}` })] };
  };
  const app = new StateGraph(MessagesAnnotation)
    .addNode("agent", callModel)
    .addNode("tools", new ToolNode([getWeather]))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition)
    .addEdge("tools", "agent")
    .compile({ checkpointer: new MemorySaver() });
  const c3 = { configurable: { thread_id: "react" } };
  await t.stream("agent updates", () => app.stream({ messages: [new HumanMessage({ content: "what is the weather in sf", id: "h1" })] }, { ...c3, streamMode: "updates" }));
  const s = await app.getState(c3);
  t.record("agent final", s.values.messages.map((m) => [m.getType(), m.content, m.tool_calls ?? null, m.tool_call_id ?? null, m.name ?? null, m.id]));
  const history = [];
  for await (const snapshot of app.getStateHistory(c3)) {
    history.push({ ...snapshot, tasks: snapshot.tasks.map(({ result: _result, ...task }) => task) });
  }
  t.record("agent history (tasks without results)", history);
}
