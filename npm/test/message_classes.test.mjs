// LangChain message classes (issue 11, gap 3) and streamMode "messages" (gap 5):
// with @langchain/core installed (npm/test/package.json pins it) messages reach nodes,
// routers, results, snapshots, history and streams as instances made the way
// LangGraph.js makes them; without it (a copy of the package where @langchain/core
// cannot be resolved, or CHRONOGRAPH_LANGCHAIN=off) they stay plain objects.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage, isAIMessage } from "@langchain/core/messages";
import * as langgraph from "@langchain/langgraph";
import { MemorySaver as CheckpointMemorySaver } from "@langchain/langgraph-checkpoint";
import * as chronograph from "chronograph";
import { END, MemorySaver, MessagesAnnotation, START, StateGraph, messagesStateReducer } from "chronograph";
import { collect } from "./support.mjs";

const here = dirname(fileURLToPath(import.meta.url));
let n = 0;
const thread = () => ({ configurable: { thread_id: `mc${++n}` } });

/** A chat graph: `agent` proposes a tool call, `tools` answers it, `route` reads the last message. */
function agentGraph(seen) {
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", (state) => {
      seen.push(["agent", state.messages.map((m) => m.constructor.name)]);
      return { messages: [new AIMessage({ content: "", id: "ai-1", tool_calls: [{ id: "c1", name: "search", args: { q: "x" } }] })] };
    })
    .addNode("tools", (state) => {
      seen.push(["tools", isAIMessage(state.messages.at(-1)), state.messages.at(-1).tool_calls[0].name]);
      return { messages: [new ToolMessage({ content: "sunny", tool_call_id: "c1", id: "t-1" })] };
    })
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (state) => {
      seen.push(["route", isAIMessage(state.messages.at(-1))]);
      return "tools";
    })
    .addEdge("tools", END)
    .compile({ checkpointer: new MemorySaver() });
}

test("message instances reach nodes, routers, results, snapshots and history as instances", async () => {
  const seen = [];
  const graph = agentGraph(seen);
  const config = thread();
  const out = await graph.invoke({ messages: [new SystemMessage({ content: "be brief", id: "s" }), new HumanMessage({ content: "hi", id: "h" })] }, config);
  assert.deepEqual(seen, [
    ["agent", ["SystemMessage", "HumanMessage"]],
    ["route", true],
    ["tools", true, "search"],
  ]);
  assert.deepEqual(out.messages.map((m) => m.constructor.name), ["SystemMessage", "HumanMessage", "AIMessage", "ToolMessage"]);
  assert.ok(out.messages[1] instanceof HumanMessage);
  assert.equal(out.messages[1].text, "hi");
  assert.equal(out.messages[2].getType(), "ai");
  assert.deepEqual(out.messages[2].tool_calls.map((c) => c.id), ["c1"]);
  const snapshot = await graph.getState(config);
  assert.ok(snapshot.values.messages.every((m) => typeof m.getType === "function"));
  const history = await collect(graph.getStateHistory(config));
  assert.deepEqual(
    history.map((s) => (s.values.messages ?? []).map((m) => m.constructor.name).join(",")),
    ["SystemMessage,HumanMessage,AIMessage,ToolMessage", "SystemMessage,HumanMessage,AIMessage", "SystemMessage,HumanMessage", ""],
  );
});

test("plain messages become instances with the kwargs LangGraph.js's reducer gives them", async () => {
  const input = [{ role: "user", content: "q", id: "u-1" }, { type: "ai", id: "a-1", content: "r", tool_calls: [{ id: "c", name: "f", args: {} }] }, ["system", "s"]];
  const graph = new StateGraph(MessagesAnnotation).addNode("n", () => ({})).addEdge(START, "n").addEdge("n", END).compile();
  const out = await graph.invoke({ messages: input });
  const expected = langgraph.messagesStateReducer([], input);
  assert.deepEqual(out.messages.map((m) => m.constructor.name), expected.map((m) => m.constructor.name));
  // Same kwargs, in the same key order (ids generated for messages without one differ).
  const kwargs = (ms) => ms.map((m) => JSON.stringify({ ...m.lc_kwargs, id: m.id.length === 36 ? "<uuid>" : m.id }));
  assert.deepEqual(kwargs(out.messages), kwargs(expected));
  // Called directly, the reducer also works on instances, as LangGraph.js's.
  assert.deepEqual(
    messagesStateReducer([{ role: "user", content: "a", id: "1" }], [new RemoveMessage({ id: "1" }), { role: "assistant", content: "b", id: "2" }]).map((m) => m.constructor.name),
    ["AIMessage"],
  );
});

test("a node's update stays as written: instances as instances, plain objects plain", async () => {
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("a", () => ({ messages: [new AIMessage({ content: "x", id: "x" })] }))
    .addNode("b", () => ({ messages: [{ role: "assistant", content: "y", id: "y" }] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", END)
    .compile();
  const chunks = await collect(await graph.stream({ messages: [] }, { streamMode: "updates" }));
  assert.ok(chunks[0].a.messages[0] instanceof AIMessage);
  assert.equal(Object.getPrototypeOf(chunks[1].b.messages[0]), Object.prototype);
});

test('streamMode "messages": each message a node returned that the run has not seen, with its metadata', async () => {
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("bot", (state) => ({ messages: [state.messages[0], new AIMessage({ content: "hello", id: "ai-1" }), { role: "assistant", content: "plain", id: "p" }] }))
    .addEdge(START, "bot")
    .addEdge("bot", END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "stream-messages" }, metadata: { user: "u" }, tags: ["t"] };
  const chunks = await collect(await graph.stream({ messages: [new HumanMessage({ content: "hi", id: "h" })] }, { ...config, streamMode: ["messages", "updates"] }));
  assert.deepEqual(chunks.map(([mode]) => mode), ["messages", "updates"]);
  const [message, metadata] = chunks[0][1];
  assert.ok(message instanceof AIMessage);
  assert.equal(message.id, "ai-1");
  const task = /^bot:[0-9a-f-]{36}$/;
  assert.match(metadata.langgraph_checkpoint_ns, task);
  assert.deepEqual({ ...metadata, langgraph_checkpoint_ns: "ns", checkpoint_ns: "ns" }, {
    tags: ["graph:step:1", "t"],
    name: "bot",
    ls_integration: "langgraph",
    user: "u",
    thread_id: "stream-messages",
    langgraph_step: 1,
    langgraph_node: "bot",
    langgraph_triggers: ["branch:to:bot"],
    langgraph_path: ["__pregel_pull", "bot"],
    langgraph_checkpoint_ns: "ns",
    checkpoint_ns: "ns",
  });
});

// ---------------------------------------------------------------------------------------
// Without @langchain/core: a copy of the package in a folder where it cannot be resolved
// ---------------------------------------------------------------------------------------

const scratch = mkdtempSync(join(tmpdir(), "chronograph-messages-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs a chat graph with the package copied under `dir`; what it saw, as JSON. */
function runApp(dir, env = {}) {
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  cpSync(join(here, "..", "..", "pkg"), join(dir, "node_modules", "chronograph"), { recursive: true });
  writeFileSync(
    join(dir, "main.mjs"),
    `import { MessagesAnnotation, StateGraph, START, END, MemorySaver } from "chronograph";
const protos = (ms) => ms.map((m) => Object.getPrototypeOf(m) === Object.prototype ? "plain" : m.constructor.name);
let seen;
const graph = new StateGraph(MessagesAnnotation)
  .addNode("n", (s) => { seen = protos(s.messages); return { messages: [{ role: "assistant", content: "ok", id: "a" }] }; })
  .addEdge(START, "n").addEdge("n", END).compile({ checkpointer: new MemorySaver() });
const config = { configurable: { thread_id: "t" } };
const out = await graph.invoke({ messages: [{ role: "user", content: "hi", id: "u" }] }, config);
const snap = await graph.getState(config);
console.log(JSON.stringify({ seen, result: protos(out.messages), snapshot: protos(snap.values.messages), first: out.messages[0] }));
`,
  );
  return JSON.parse(execFileSync(process.execPath, ["main.mjs"], { cwd: dir, encoding: "utf8", env: { ...process.env, ...env } }));
}

test("without @langchain/core, messages stay plain objects", () => {
  const out = runApp(join(scratch, "without"));
  assert.deepEqual(out, {
    seen: ["plain"],
    result: ["plain", "plain"],
    snapshot: ["plain", "plain"],
    first: { type: "human", content: "hi", id: "u" },
  });
});

test("the same app with @langchain/core beside the package gets instances (the check above can fail)", () => {
  const dir = join(scratch, "with");
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  symlinkSync(join(here, "node_modules", "@langchain"), join(dir, "node_modules", "@langchain"));
  const out = runApp(dir);
  assert.deepEqual([out.seen, out.result, out.snapshot], [["HumanMessage"], ["HumanMessage", "AIMessage"], ["HumanMessage", "AIMessage"]]);
  // And CHRONOGRAPH_LANGCHAIN=off keeps plain objects there.
  assert.deepEqual(runApp(dir, { CHRONOGRAPH_LANGCHAIN: "off" }).result, ["plain", "plain"]);
});

test('streamMode "messages" with a subgraph: as its node\'s messages, or from the subgraph with subgraphs: true (as LangGraph.js)', async () => {
  const run = async (lg, subgraphs) => {
    const sub = new lg.StateGraph(lg.MessagesAnnotation)
      .addNode("inner", () => ({ messages: [new AIMessage({ content: "in", id: "in-1" })] }))
      .addEdge(START, "inner")
      .addEdge("inner", END)
      .compile();
    const graph = new lg.StateGraph(lg.MessagesAnnotation)
      .addNode("bot", () => ({ messages: [new AIMessage({ content: "hello", id: "ai-1" })] }))
      .addNode("sub", sub)
      .addEdge(START, "bot")
      .addEdge("bot", "sub")
      .addEdge("sub", END)
      .compile({ checkpointer: new lg.MemorySaver() });
    const chunks = await collect(await graph.stream({ messages: [new HumanMessage({ content: "hi", id: "h" })] }, { configurable: { thread_id: `sub-${subgraphs}` }, streamMode: ["messages", "updates"], subgraphs }));
    // Mode, namespace depth, and for messages: the id, node, step and namespace depth of the task.
    return chunks.map((c) => {
      const [ns, mode, payload] = subgraphs ? c : [[], ...c];
      if (mode !== "messages") return [mode, ns.length, Object.keys(payload)];
      const [m, meta] = payload;
      return [mode, ns.length, m.id, meta.langgraph_node, meta.langgraph_step, meta.checkpoint_ns.split("|").length];
    });
  };
  for (const subgraphs of [false, true]) assert.deepEqual(await run(await import("chronograph"), subgraphs), await run(langgraph, subgraphs));
});

test("message instances in a channel of any reducer reach nodes and routers as instances (a ToolNode reads them)", async () => {
  const { ToolNode } = await import("chronograph/prebuilt");
  const { tool } = await import("@langchain/core/tools");
  const lg = await import("chronograph");
  // No add_messages channel: LangGraph.js keeps what a reducer holds as written, instances included.
  const run = async (lg, prebuilt) => {
    const State = lg.Annotation.Root({
      messages: lg.Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
      other: lg.Annotation({ reducer: (_, b) => b, default: () => null }),
    });
    const echo = tool(async ({ text }) => `echo:${text}`, {
      name: "echo",
      description: "echo",
      schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    });
    const seen = [];
    const graph = new lg.StateGraph(State)
      .addNode("agent", (state) => {
        seen.push(["agent", state.messages.map((m) => m.constructor.name), state.other?.constructor.name ?? null]);
        return {
          messages: [new AIMessage({ content: "", id: "ai", tool_calls: [{ id: "c1", name: "echo", args: { text: "x" } }] })],
          other: new HumanMessage({ content: "single", id: "o" }),
        };
      })
      .addNode("tools", new prebuilt.ToolNode([echo]))
      .addEdge(START, "agent")
      .addConditionalEdges("agent", (state) => {
        seen.push(["route", isAIMessage(state.messages.at(-1)), state.other.constructor.name]);
        return "tools";
      })
      .addEdge("tools", END)
      .compile({ checkpointer: new lg.MemorySaver() });
    const out = await graph.invoke({ messages: [new HumanMessage({ content: "hi", id: "h" })] }, thread());
    return { seen, out: out.messages.map((m) => [m.constructor.name, m.content]) };
  };
  const mine = await run(lg, { ToolNode });
  assert.deepEqual(mine, {
    seen: [
      ["agent", ["HumanMessage"], null],
      ["route", true, "HumanMessage"],
    ],
    out: [
      ["HumanMessage", "hi"],
      ["AIMessage", ""],
      ["ToolMessage", "echo:x"],
    ],
  });
  assert.deepEqual(mine, await run(langgraph, await import("@langchain/langgraph/prebuilt")));
});

test("a message of every LangChain class a node writes is stored in a LangGraph.js checkpointer as LangGraph.js stores it (one message-type table)", async () => {
  // Two tables of message types once disagreed: the one writing messages for
  // LangGraph.js's savers had no `remove`, so a pending RemoveMessage was stored
  // as a plain object, where LangGraph.js stores (and revives) a RemoveMessage.
  const written = () => [
    new HumanMessage({ content: "h", id: "m1" }),
    new AIMessage({ content: "a", id: "m2" }),
    new SystemMessage({ content: "s", id: "m3" }),
    new ToolMessage({ content: "t", tool_call_id: "c", id: "m4" }),
    new RemoveMessage({ id: "h0" }),
  ];
  const run = async (lib) => {
    const saver = new CheckpointMemorySaver();
    const graph = new lib.StateGraph(lib.MessagesAnnotation)
      .addNode("writer", () => ({ messages: written() }))
      .addNode("asker", () => {
        lib.interrupt("?");
        return {};
      })
      .addEdge(lib.START, "writer")
      .addEdge(lib.START, "asker")
      .compile({ checkpointer: saver });
    const config = { configurable: { thread_id: "types" } };
    await graph.invoke({ messages: [new HumanMessage({ content: "hi", id: "h0" })] }, config);
    // The writer's write is pending while the asker waits: as the saver keeps it.
    const { pendingWrites } = await saver.getTuple(config);
    const pending = pendingWrites.filter(([, channel]) => channel === "messages").flatMap(([, , value]) => value.map((m) => [m.constructor.name, m.id]));
    const resumed = await graph.invoke(new lib.Command({ resume: "!" }), config);
    return { pending, resumed: resumed.messages.map((m) => [m.constructor.name, m.id]) };
  };
  const mine = await run(chronograph);
  assert.deepEqual(mine.pending, [
    ["HumanMessage", "m1"],
    ["AIMessage", "m2"],
    ["SystemMessage", "m3"],
    ["ToolMessage", "m4"],
    ["RemoveMessage", "h0"],
  ]);
  assert.deepEqual(mine, await run(langgraph));
});
