// Shared by the prebuilt programs (100 to 106): the prebuilt entry of the engine a
// program runs on (LangGraph.js's `@langchain/langgraph/prebuilt`, chronograph's
// `chronograph/prebuilt`), and a scripted chat model in the style of `@langchain/core`'s fake
// chat models (`@langchain/core/utils/testing`): each call answers with the next scripted AI
// message (text and/or tool calls), its `bindTools` binds the tools as `FakeListChatModel`'s
// does (`withConfig({ tools })`), and it keeps what it was given, so a program can record the
// prompt the agent built.
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage } from "@langchain/core/messages";
import { RunnableLambda } from "@langchain/core/runnables";
import { tool } from "@langchain/core/tools";
import { z } from "zod";

/** `@langchain/langgraph/prebuilt` or `chronograph/prebuilt`, after the engine `lg` is. */
export async function prebuiltOf(lg) {
  const langgraph = await import("@langchain/langgraph");
  return import(lg.StateGraph === langgraph.StateGraph ? "@langchain/langgraph/prebuilt" : "chronograph/prebuilt");
}

/** What a model call was given: each message's type, name and content (tool calls by name). */
export const seen = (messages) =>
  messages.map((m) => {
    const out = [m.getType(), m.content];
    if (m.name) out.push(`name=${m.name}`);
    if (m.tool_calls?.length) out.push(m.tool_calls.map((c) => `${c.name}(${JSON.stringify(c.args)})`).join(" "));
    return out;
  });

/** A message as a program records it (no ids: they are compared in the states and histories). */
export const brief = (m) => {
  const out = { type: m.getType(), content: m.content };
  if (m.name !== undefined) out.name = m.name;
  if (m.tool_calls?.length) out.tool_calls = m.tool_calls.map(({ name, args, id }) => ({ name, args, id }));
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  if (m.status !== undefined) out.status = m.status;
  return out;
};

/** A chat model answering with `script` in turn (`{ content, tool_calls }` or a string), keeping its calls in `calls`. */
export class ScriptedChatModel extends BaseChatModel {
  static lc_name() {
    return "ScriptedChatModel";
  }

  constructor(script, fields = {}) {
    super(fields);
    this.script = script;
    this.calls = [];
    this.bound = [];
    this.structured = [];
  }

  _llmType() {
    return "scripted";
  }

  bindTools(tools) {
    this.bound.push(tools.map((t) => t.name ?? t.function?.name));
    return this.withConfig({ tools: tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description } })) });
  }

  withStructuredOutput(schema, options) {
    this.structured.push({ schema: typeof schema?.parse === "function" ? "zod" : schema, options: options ?? null });
    return RunnableLambda.from(async (input, config) => {
      const message = await this.invoke(input, config);
      return JSON.parse(message.content);
    });
  }

  async _generate(messages) {
    this.calls.push(seen(messages));
    const next = this.script[Math.min(this.calls.length - 1, this.script.length - 1)];
    const fields = typeof next === "string" ? { content: next } : { content: "", ...next };
    return { generations: [{ text: typeof fields.content === "string" ? fields.content : "", message: new AIMessage(fields) }] };
  }
}

/** The two tools of the docs' examples: the weather and the time of a city. */
export function weatherTools() {
  const getWeather = tool(async ({ city }) => (city.toLowerCase() === "sf" ? "It's 60 degrees and foggy." : "It's 90 degrees and sunny."), {
    name: "get_weather",
    description: "Call to get the current weather.",
    schema: z.object({ city: z.string() }),
  });
  const getTime = tool(async ({ city }) => `It is 3pm in ${city}.`, {
    name: "get_time",
    description: "Call to get the current time.",
    schema: z.object({ city: z.string() }),
  });
  return [getWeather, getTime];
}

/** A tool call of a scripted reply. */
export const call = (name, args, id) => ({ name, args, id, type: "tool_call" });

/**
 * A thread's history as a program records it: its tasks without their `result`s (LangGraph.js
 * saves a task's writes before its reducer gives their messages ids, so a result there has none:
 * README, "what still differs"; programs/73 does the same).
 */
export async function history(t, label, graph, config, options) {
  return t.result(label, async () => {
    const out = [];
    for await (const s of graph.getStateHistory(config, options)) out.push({ ...s, tasks: s.tasks.map(({ result: _result, ...task }) => task) });
    return out;
  });
}

/** A compiled graph's node names, without `__start__` (chronograph's `nodes` lists the graph's own nodes only). */
export const nodeNames = (graph) => Object.keys(graph.nodes).filter((n) => n !== "__start__");

/** A state snapshot as a program records it. */
export const snapshot = (s) => ({ values: s.values, next: s.next, tasks: s.tasks.map(({ result: _result, ...task }) => task), metadata: s.metadata, config: s.config, parentConfig: s.parentConfig });
