// LangGraph.js docs ("Persistence", "Time travel") with the state written as
// `new StateSchema({ messages: MessagesDeltaValue })` (beta, LangGraph.js 1.7.3):
// a chat whose messages are a DeltaChannel. Values, getState and history (with
// the delta counters in the metadata and their restart at a snapshot), a
// replay and an updateState fork from the past, a RemoveMessage of an unknown
// id (no error with messagesDeltaReducer), an Overwrite, and a DeltaValue of
// strings with its own batch reducer and snapshotFrequency.
import { AIMessage, HumanMessage, RemoveMessage } from "@langchain/core/messages";
import { z } from "zod";

export const title = "MessagesDeltaValue and DeltaValue: values, history, replay, fork";

export default async function (lg, t) {
  const { StateSchema, MessagesDeltaValue, DeltaValue, StateGraph, MemorySaver, START, END, Overwrite } = lg;
  const chat = new StateGraph(new StateSchema({ messages: MessagesDeltaValue }))
    .addNode("bot", (s) => ({ messages: [new AIMessage(`reply to ${s.messages.at(-1).content} (${s.messages.length})`)] }))
    .addEdge(START, "bot")
    .addEdge("bot", END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "chat" } };
  // Inputs carry ids: a replay of an input checkpoint gives an input message without one a fresh
  // id on LangGraph.js and keeps the first on chronograph, delta channel or not (docs/compat.md).
  const say = (content) => ({ messages: [new HumanMessage({ content, id: `human ${content}` })] });
  for (const text of ["hi", "how are you", "bye"]) await t.result(`turn: ${text}`, () => chat.invoke(say(text), config));
  t.record("state", await chat.getState(config));
  const history = [];
  for await (const s of chat.getStateHistory(config)) history.push(s);
  await t.result("replay from the second turn's input", () => chat.invoke(null, history[5].config));
  await t.result("fork: an update of the first reply", async () => {
    const first = history[6].values.messages[1];
    const forked = await chat.updateState(history[6].config, { messages: [new AIMessage({ content: "edited", id: first.id })] });
    return chat.invoke(say("after the edit"), forked);
  });
  await t.result("a RemoveMessage of an unknown id", () => chat.invoke({ messages: [new RemoveMessage({ id: "nope" })] }, config));
  await t.result("an Overwrite", () => chat.invoke({ messages: new Overwrite(say("start over").messages) }, config));
  await t.history("history", chat, config);

  const log = new DeltaValue(z.array(z.string()).default(() => []), { inputSchema: z.string(), reducer: (s, w) => [...s, ...w], snapshotFrequency: 2 });
  const fan = new StateGraph(new StateSchema({ log }))
    .addNode("a", (s) => ({ log: `a saw ${s.log.length}` }))
    .addNode("b", (s) => ({ log: `b saw ${s.log.length}` }))
    .addEdge(START, "a")
    .addEdge(START, "b")
    .addEdge("a", END)
    .addEdge("b", END)
    .compile({ checkpointer: new MemorySaver() });
  const fanConfig = { configurable: { thread_id: "fan" } };
  for (const x of ["x", "y", "z"]) await t.result(`fan: ${x}`, () => fan.invoke({ log: x }, fanConfig));
  await t.history("fan history", fan, fanConfig);
}
