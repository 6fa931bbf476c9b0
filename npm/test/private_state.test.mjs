// addNode's own options as LangGraph.js has them: a node input schema
// (private state), node metadata, the checks addNode itself makes, and a
// Command update of [channel, value] pairs that names a channel twice.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Annotation, Command, END, MemorySaver, MessagesAnnotation, START, StateGraph } from "chronograph";
import { AIMessage } from "@langchain/core/messages";
import { z } from "zod";

let threads = 0;
const thread = () => ({ configurable: { thread_id: `p${++threads}` } });

const State = Annotation.Root({ hello: Annotation() });
const Private = Annotation.Root({ ...State.spec, secret: Annotation() });

/** a writes the private `secret`, b reads it (its input schema), c does not see it. */
function privateGraph(seen) {
  return new StateGraph(State)
    .addNode("a", (s) => {
      seen.push(["a", s]);
      return { secret: "s3cret" };
    })
    .addNode("b", (s) => {
      seen.push(["b", s]);
      return { hello: "again", now: 123 };
    }, { input: Private })
    .addNode("c", (s) => {
      seen.push(["c", s]);
      return {};
    })
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "c")
    .addEdge("c", END)
    .compile({ checkpointer: new MemorySaver() });
}

test("a node input schema adds private channels: only nodes that list them read them, the output leaves them out", async () => {
  const seen = [];
  const graph = privateGraph(seen);
  const cfg = thread();
  assert.deepEqual(await graph.invoke({ hello: "there", secret: "from input" }, cfg), { hello: "again" });
  assert.deepEqual(seen, [
    ["a", { hello: "there" }],
    ["b", { hello: "there", secret: "s3cret" }],
    ["c", { hello: "again" }],
  ]);
  // Snapshots and the values stream show every channel (LangGraph.js's streamChannels).
  assert.deepEqual((await graph.getState(cfg)).values, { hello: "again", secret: "s3cret" });
  const chunks = [];
  for await (const c of await graph.stream({ hello: "x" }, { ...thread(), streamMode: "updates" })) chunks.push(c);
  // A node's writes to a private channel are its update too.
  assert.deepEqual(chunks.slice(0, 2), [{ a: { secret: "s3cret" } }, { b: { hello: "again" } }]);
});

test("a zod object as a node's input schema", async () => {
  let input;
  const graph = new StateGraph(z.object({ messages: z.array(z.string()), count: z.number() }))
    .addNode("addQuery", (s) => ({ query: `${s.messages[0]}?` }))
    .addNode("process", (s) => {
      input = s;
      return { messages: [...s.messages, "processed"] };
    }, { input: z.object({ messages: z.array(z.string()), query: z.string() }) })
    .addEdge(START, "addQuery")
    .addEdge("addQuery", "process")
    .compile();
  assert.deepEqual(await graph.invoke({ messages: ["hello"], count: 1 }), { messages: ["hello", "processed"], count: 1 });
  assert.deepEqual(input, { messages: ["hello"], query: "hello?" });
});

test("an input schema redeclaring a state key with another reducer fails at addNode, as in LangGraph.js", () => {
  const builder = new StateGraph(Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) }));
  const other = Annotation.Root({ log: Annotation({ reducer: (a, b) => b, default: () => [] }) });
  assert.throws(() => builder.addNode("a", () => ({}), { input: other }), { message: 'Channel "log" already exists with a different type.' });
});

test("node metadata reaches the node's config.metadata, over the langgraph_ keys", async () => {
  let metadata;
  const graph = new StateGraph(State)
    .addNode("a", (_, config) => {
      metadata = config.metadata;
      return {};
    }, { metadata: { description: "node a", langgraph_node: "renamed" } })
    .addEdge(START, "a")
    .compile();
  await graph.invoke({ hello: "x" });
  assert.equal(metadata.description, "node a");
  assert.equal(metadata.langgraph_node, "renamed");
  assert.equal(metadata.langgraph_step, 1);
});

test("node metadata follows the run's in the node's task chunks and its messages' metadata", async () => {
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("a", () => ({ messages: [new AIMessage({ content: "hi", id: "m1" })] }), { metadata: { description: "A" } })
    .addEdge(START, "a")
    .compile();
  const chunks = [];
  for await (const c of await graph.stream({ messages: [] }, { streamMode: ["tasks", "messages"] })) chunks.push(c);
  const start = chunks.find(([mode, c]) => mode === "tasks" && "triggers" in c);
  assert.deepEqual(start[1].metadata, { ls_integration: "langgraph", description: "A" });
  const [, [, meta]] = chunks.find(([mode]) => mode === "messages");
  assert.equal(meta.langgraph_node, "a");
  assert.equal(Object.keys(meta).at(-1), "description");
});

test("addNode refuses a node named after a channel, an empty node list and reserved characters when called", () => {
  const builder = new StateGraph({ channels: { taken: null } });
  assert.throws(() => builder.addNode("taken", () => ({})), {
    message: "taken is already being used as a state attribute (a.k.a. a channel), cannot also be used as a node name.",
  });
  assert.throws(() => builder.addNode([]), { message: "No nodes provided in `addNode`" });
  assert.throws(() => builder.addNode({}), { message: "No nodes provided in `addNode`" });
  assert.throws(() => builder.addNode("a:b", () => ({})), { message: '":" is a reserved character and is not allowed in node names.' });
  // A private channel is a channel too.
  builder.addNode("a", () => ({}), { input: Annotation.Root({ hidden: Annotation() }) });
  assert.throws(() => builder.addNode("hidden", () => ({})), /hidden is already being used as a state attribute/);
});

test("a Command update of [channel, value] pairs writes a channel named twice twice, through its reducer", async () => {
  const graph = new StateGraph(Annotation.Root({ foo: Annotation({ reducer: (a, b) => [a, b].filter(Boolean).join(", "), default: () => "" }) }))
    .addNode("one", () => new Command({ update: [["foo", "one.0"], ["foo", "one.1"]] }))
    .addEdge(START, "one")
    .compile();
  assert.deepEqual(await graph.invoke({ foo: "input" }), { foo: "input, one.0, one.1" });
});
