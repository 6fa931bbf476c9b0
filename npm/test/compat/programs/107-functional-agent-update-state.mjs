// A functional-API agent edited with `updateState` (LangGraph.js docs: "Functional API" >
// "How to create a ReAct agent from scratch (Functional API)" with thread-level persistence
// (`getPreviousState()`, `entrypoint.final`), and "Time travel" / "Human-in-the-loop" >
// "Edit state"): an `entrypoint` named "agent" calls a model task and tool tasks, saves the
// conversation for the thread's next run; a reviewer rewrites that conversation with
// `updateState(config, values, "agent")` (the entrypoint's name), with `entrypoint.final`, and
// with no `asNode`; each next invocation continues from what was written. A chatbot driven by
// `@langchain/core`'s `FakeListChatModel` is edited the same way, on an empty thread too, and
// an entrypoint paused by `interrupt()` is edited as itself.
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { ScriptedChatModel, brief, call, weatherTools } from "./_react.mjs";

export const title = "functional-API agent: updateState as the entrypoint (or no asNode), getPreviousState after it";

/** What a program records of a snapshot: values (messages in brief), next, tasks, metadata, configs. */
const view = (s) => ({
  values: Array.isArray(s.values) ? s.values.map(brief) : s.values?.getType ? brief(s.values) : s.values,
  next: s.next,
  tasks: s.tasks,
  metadata: s.metadata,
  config: s.config,
  parentConfig: s.parentConfig,
});

/** The thread's checkpoints as source, step and next, newest first. */
async function steps(graph, config) {
  const out = [];
  for await (const s of graph.getStateHistory(config)) out.push([s.metadata.source, s.metadata.step, s.next]);
  return out;
}

async function reactAgent(lg, t) {
  const { entrypoint, task, addMessages, getPreviousState, MemorySaver } = lg;
  const model = new ScriptedChatModel([
    { tool_calls: [call("get_weather", { city: "sf" }, "call-1")] },
    "It's 60 degrees and foggy in SF.",
    "Noted: you are in Paris now.",
    "Starting over, hello.",
    "Still here.",
  ]);
  const tools = weatherTools();
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  const callModel = task("callModel", async (messages) => model.bindTools(tools).invoke(messages));
  const callTool = task("callTool", async (toolCall) => byName[toolCall.name].invoke(toolCall));
  const seen = [];
  const agent = entrypoint({ name: "agent", checkpointer: new MemorySaver() }, async (messages) => {
    const previous = getPreviousState();
    seen.push(previous === undefined ? "none" : Array.isArray(previous) ? previous.map(brief) : previous);
    let current = addMessages(Array.isArray(previous) ? previous : [], messages);
    let response = await callModel(current);
    while (response.tool_calls?.length) {
      const results = await Promise.all(response.tool_calls.map((c) => callTool(c)));
      current = addMessages(current, [response, ...results]);
      response = await callModel(current);
    }
    current = addMessages(current, response);
    return entrypoint.final({ value: response, save: current });
  });
  const config = { configurable: { thread_id: "fn-107" } };

  await t.result("turn 1", async () => brief(await agent.invoke([{ role: "user", content: "Weather in SF?" }], config)));
  const first = await agent.getState(config);
  t.record("state after turn 1", view(first));

  // The reviewer keeps the question and the answer, and adds a correction, as the entrypoint.
  const kept = [{ role: "user", content: "Weather in SF?", id: "q-1" }, { role: "assistant", content: "Foggy.", id: "a-1" }];
  const edited = await t.result("updateState as the entrypoint", () => agent.updateState(config, kept, "agent"));
  await t.result("state after the edit", async () => view(await agent.getState(config)));
  await t.result("state at the returned config", async () => view(await agent.getState(edited)));
  await t.result("turn 2", async () => brief(await agent.invoke([{ role: "user", content: "I moved to Paris." }], config)));
  t.record("model calls", model.calls);

  // entrypoint.final as the update: the value is the state, the save what the next run sees.
  const final = entrypoint.final({ value: { note: "reset" }, save: [{ role: "user", content: "Forget everything.", id: "q-2" }] });
  await t.result("updateState with entrypoint.final", () => agent.updateState(config, final, "agent"));
  await t.result("state after final", async () => view(await agent.getState(config)));
  await t.result("turn 3", async () => brief(await agent.invoke([{ role: "user", content: "Hello?" }], config)));

  // No asNode: the entrypoint is the graph's one node.
  await t.result("updateState without asNode", () => agent.updateState(config, { note: "plain" }));
  await t.result("state after plain", async () => view(await agent.getState(config)));
  await t.result("turn 4", async () => brief(await agent.invoke([{ role: "user", content: "Again?" }], config)));
  t.record("getPreviousState of each run", seen);
  t.record("model calls after", model.calls.slice(2));
  await t.result("checkpoints", () => steps(agent, config));
  await t.history("history", agent, config, { limit: 6 });
}

async function chatbot(lg, t) {
  const { entrypoint, task, addMessages, getPreviousState, MemorySaver } = lg;
  const model = new FakeListChatModel({ responses: ["Hi Bob!", "Your name is Robert.", "Hello stranger."] });
  const callModel = task("callModel", async (messages) => model.invoke(messages));
  const chat = entrypoint({ name: "chatbot", checkpointer: new MemorySaver() }, async (input) => {
    const previous = getPreviousState() ?? [];
    const messages = addMessages(previous, input);
    const response = await callModel(messages);
    return addMessages(messages, response);
  });
  const config = { configurable: { thread_id: "fn-107-chat" } };
  await t.result("chat 1", async () => (await chat.invoke([{ role: "user", content: "Hi, I'm Bob", id: "u-1" }], config)).map(brief));
  await t.result("rename with no asNode", () => chat.updateState(config, [{ role: "user", content: "Hi, I'm Robert", id: "u-1" }]));
  await t.result("chat 2", async () => (await chat.invoke([{ role: "user", content: "What's my name?", id: "u-2" }], config)).map(brief));
  await t.result("chat checkpoints", () => steps(chat, config));

  // A thread that has no checkpoint yet, updated as the entrypoint, then run.
  const fresh = { configurable: { thread_id: "fn-107-fresh" } };
  await t.result("updateState on an empty thread", () => chat.updateState(fresh, [{ role: "user", content: "I'm new", id: "u-9" }], "chatbot"));
  await t.result("empty thread's state", async () => view(await chat.getState(fresh)));
  await t.result("chat on it", async () => (await chat.invoke([{ role: "user", content: "Hi", id: "u-10" }], fresh)).map(brief));
  await t.result("fresh checkpoints", () => steps(chat, fresh));
}

async function pausedEntrypoint(lg, t) {
  const { entrypoint, interrupt, getPreviousState, MemorySaver } = lg;
  const review = entrypoint({ name: "review", checkpointer: new MemorySaver() }, async (draft) => {
    const previous = getPreviousState() ?? null;
    const verdict = interrupt({ draft, previous });
    return { draft, verdict };
  });
  const config = { configurable: { thread_id: "fn-107-review" } };
  await t.result("paused", () => review.invoke("draft 1", config));
  await t.result("paused state", async () => view(await review.getState(config)));
  await t.result("updateState of the paused entrypoint", () => review.updateState(config, { draft: "draft 1", verdict: "edited" }, "review"));
  await t.result("state after editing the paused run", async () => view(await review.getState(config)));
  await t.result("next run sees the edit", () => review.invoke("draft 2", config));
  await t.result("review checkpoints", () => steps(review, config));
}

export default async function (lg, t) {
  await reactAgent(lg, t);
  await chatbot(lg, t);
  await pausedEntrypoint(lg, t);
}
