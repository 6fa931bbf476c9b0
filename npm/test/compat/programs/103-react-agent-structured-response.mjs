// createReactAgent's `responseFormat` (LangGraph.js docs: "Agents" > "Structured output",
// "How to return structured output from the prebuilt ReAct agent"): once the loop ends, node
// `generate_structured_response` asks the model for the schema (`withStructuredOutput`) into
// `structuredResponse`: a zod schema; `{ schema, prompt, strict }` (the prompt put first, the
// other options given to the model); a JSON schema with `FakeListChatModel` (whose
// `withStructuredOutput` parses its text); and a parser that returns nothing (the error).
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { z } from "zod";
import { ScriptedChatModel, brief, call, nodeNames, prebuiltOf, snapshot, weatherTools } from "./_react.mjs";

export const title = "createReactAgent: responseFormat (zod, with a prompt and options, JSON schema) into structuredResponse";

export default async function (lg, t) {
  const { MemorySaver } = lg;
  const { createReactAgent } = await prebuiltOf(lg);
  const Weather = z.object({ city: z.string(), degrees: z.number() });

  const model = new ScriptedChatModel([{ tool_calls: [call("get_weather", { city: "sf" }, "call-1")] }, "60 and foggy.", '{"city":"sf","degrees":60}']);
  const agent = createReactAgent({ llm: model, tools: weatherTools(), responseFormat: Weather, checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "react-103" } };
  await t.stream("updates", () => agent.stream({ messages: [{ role: "user", content: "SF?" }] }, { ...config, streamMode: "updates" }));
  await t.result("state", async () => snapshot(await agent.getState(config)));
  t.record("structured calls", model.structured);
  t.record("model saw", model.calls);
  t.record("nodes", nodeNames(agent));

  const withPrompt = new ScriptedChatModel(["Cold.", '{"city":"oslo","degrees":-3}']);
  const prompted = createReactAgent({ llm: withPrompt, tools: weatherTools(), responseFormat: { schema: Weather, prompt: "Answer as JSON.", strict: true } });
  await t.result("schema + prompt", async () => {
    const out = await prompted.invoke({ messages: [{ role: "user", content: "Oslo?" }] });
    return { messages: out.messages.map(brief), structuredResponse: out.structuredResponse };
  });
  t.record("schema + prompt: structured calls", withPrompt.structured);
  t.record("schema + prompt: model saw", withPrompt.calls);

  // Its `bindTools` copy answers the loop; the model itself (its own turn counter) the structured call.
  const fake = new FakeListChatModel({ responses: ['{"answer":42}', "unused"] });
  const jsonSchema = { type: "object", properties: { answer: { type: "number" } }, required: ["answer"] };
  const listAgent = createReactAgent({ llm: fake, tools: [], responseFormat: jsonSchema });
  await t.result("FakeListChatModel + JSON schema", async () => {
    const out = await listAgent.invoke({ messages: [{ role: "user", content: "?" }] });
    return { messages: out.messages.map(brief), structuredResponse: out.structuredResponse };
  });

  const empty = new ScriptedChatModel(["text", "null"]);
  const failing = createReactAgent({ llm: empty, tools: weatherTools(), responseFormat: Weather });
  await t.result("parser returns null", async () => (await failing.invoke({ messages: [{ role: "user", content: "x" }] })).structuredResponse);
}
