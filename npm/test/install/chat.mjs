// The message-class program of the install test (install.test.mjs), as an
// application writes it: a chat graph fed with its own @langchain/core
// message instances. `chat()` returns what differs from LangGraph.js's
// behaviour (an empty list when nothing does): every message a node, the
// result and the state hold is an instance of the application's own class
// (the same prototype, not only `instanceof`, which @langchain/core answers
// by a brand that any copy of it passes), including messages that were
// plain objects (a tool result) or that the engine coerced (a user dict).
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { END, MemorySaver, MessagesAnnotation, START, StateGraph } from "chronograph";
import { MemorySaver as LangGraphMemorySaver, SqliteSaver } from "chronograph/langgraph";

const CLASSES = { human: HumanMessage, ai: AIMessage, tool: ToolMessage };

/** What is not an instance of the application's own class in `messages`, named by `where`. */
function foreign(where, messages) {
  const out = [];
  for (const [i, m] of messages.entries()) {
    const Class = CLASSES[m?.type];
    if (Class === undefined || Object.getPrototypeOf(m) !== Class.prototype) {
      out.push(`${where}[${i}] is ${m?.constructor?.name ?? typeof m} (${m?.type}), not the application's own ${Class?.name ?? "message class"}`);
    }
  }
  return out;
}

/** Runs the chat on `checkpointer`; the list of what differs. */
async function run(checkpointer, label) {
  const problems = [];
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("agent", (state) => {
      problems.push(...foreign(`${label}: the agent's state.messages`, state.messages));
      return { messages: [new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "search", args: { q: "weather" } }] })] };
    })
    .addNode("tools", () => ({ messages: [{ type: "tool", content: "sunny", tool_call_id: "c1" }] }))
    .addEdge(START, "agent")
    .addEdge("agent", "tools")
    .addEdge("tools", END)
    .compile({ checkpointer });
  const config = { configurable: { thread_id: "install" } };
  const out = await graph.invoke({ messages: [new HumanMessage("what is the weather?"), { role: "user", content: "in Paris" }] }, config);
  problems.push(...foreign(`${label}: the result's messages`, out.messages));
  if (out.messages.length !== 4) problems.push(`${label}: the result has ${out.messages.length} messages, not 4`);
  const snapshot = await graph.getState(config);
  problems.push(...foreign(`${label}: getState's messages`, snapshot.values.messages));
  return problems;
}

/** The program: on the engine's saver and on chronograph/langgraph's; the list of what differs. */
export async function chat() {
  const problems = [...(await run(new MemorySaver(), "MemorySaver")), ...(await run(new LangGraphMemorySaver(), "chronograph/langgraph MemorySaver"))];
  if (!(new LangGraphMemorySaver() instanceof BaseCheckpointSaver)) problems.push("chronograph/langgraph's MemorySaver is not an instance of the application's BaseCheckpointSaver");
  const sqlite = SqliteSaver.fromConnString(":memory:");
  if (!(sqlite instanceof BaseCheckpointSaver)) problems.push("SqliteSaver is not an instance of the application's BaseCheckpointSaver");
  sqlite.db.close();
  return problems;
}
