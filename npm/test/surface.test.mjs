// LangGraph.js names beyond the graph itself: NodeInterrupt, MemorySaver.get,
// batch, cancellation (signal, stream.cancel, stepTimeout, a failing
// task aborting its step), the long-term store, getCurrentTaskInput, the
// zod/schema and prebuilt subpaths, and the names that fail naming the difference.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  Annotation,
  END,
  getCurrentTaskInput,
  getStore,
  Graph,
  GraphValueError,
  MessageGraph,
  DeltaChannel,
  DeltaValue,
  MessagesDeltaValue,
  messagesDeltaReducer,
  StateSchema,
  InMemoryStore,
  MemorySaver,
  NodeInterrupt,
  START,
  StateGraph,
} from "chronograph";
import { Channel, Pregel } from "chronograph/pregel";
import { ToolNode, toolsCondition } from "chronograph/prebuilt";
import { getConfigTypeSchema, getInputTypeSchema, getStateTypeSchema, getUpdateTypeSchema } from "chronograph/zod/schema";
import { withLangGraph } from "chronograph/zod";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { z } from "zod/v4";
import { runWithoutPeers, sleep } from "./support.mjs";

let threads = 0;
const thread = () => ({ configurable: { thread_id: `s${++threads}` } });
const State = Annotation.Root({ hello: Annotation() });

test("NodeInterrupt pauses its task with {value} (no id) until the state lets it pass", async () => {
  let runs = 0;
  const graph = new StateGraph(State)
    .addNode("bad", (s) => {
      runs += 1;
      if (s.hello !== "bye") throw new NodeInterrupt("I am bad");
      return { hello: "passed" };
    })
    .addEdge(START, "bad")
    .compile({ checkpointer: new MemorySaver() });
  const config = thread();
  assert.deepEqual(await graph.invoke({ hello: "world" }, config), { hello: "world", __interrupt__: [{ value: "I am bad" }] });
  const state = await graph.getState(config);
  assert.deepEqual(state.next, ["bad"]);
  assert.deepEqual(state.tasks[0].interrupts, [{ value: "I am bad" }]);
  // Run again: the node throws again (no resume value is taken).
  assert.deepEqual(await graph.invoke(null, config), { hello: "world", __interrupt__: [{ value: "I am bad" }] });
  assert.equal(runs, 2);
  assert.deepEqual(await graph.invoke({ hello: "bye" }, config), { hello: "passed" });
  assert.ok(new NodeInterrupt("x") instanceof GraphValueError === false);
  assert.equal(new NodeInterrupt("x").name, "NodeInterrupt");
});

test("MemorySaver.get returns the checkpoint; pending errors read as {message, name}", async () => {
  const checkpointer = new MemorySaver();
  const graph = new StateGraph(State)
    .addNode("fail", () => {
      throw new TypeError("nope");
    })
    .addEdge(START, "fail")
    .compile({ checkpointer });
  const config = thread();
  await assert.rejects(graph.invoke({ hello: "x" }, config), /nope/);
  const checkpoint = await checkpointer.get(config);
  assert.equal(checkpoint.channel_values.hello, "x");
  assert.equal(await checkpointer.get({ configurable: { thread_id: "unknown" } }), undefined);
  const tuple = await checkpointer.getTuple(config);
  assert.deepEqual(
    tuple.pendingWrites.map((w) => w.slice(1)),
    [["__error__", { message: "nope", name: "TypeError" }]],
  );
});

test("batch runs each input with its config, at most maxConcurrency at a time", async () => {
  let running = 0;
  let most = 0;
  const graph = new StateGraph(State)
    .addNode("echo", async (s) => {
      most = Math.max(most, ++running);
      await sleep(5);
      running -= 1;
      return { hello: `${s.hello}!` };
    })
    .addEdge(START, "echo")
    .compile();
  const out = await graph.batch([{ hello: "a" }, { hello: "b" }, { hello: "c" }], [{ maxConcurrency: 2 }, {}, {}]);
  assert.deepEqual(out, [{ hello: "a!" }, { hello: "b!" }, { hello: "c!" }]);
  assert.equal(most, 2);
  await assert.rejects(graph.batch([{ hello: "a" }], [{}, {}]), /same length/);
  const failing = new StateGraph(State)
    .addNode("f", () => {
      throw new Error("boom");
    })
    .addEdge(START, "f")
    .compile();
  const [error] = await failing.batch([{ hello: "a" }], undefined, { returnExceptions: true });
  assert.equal(error.message, "boom");
});

test("a run's signal cancels it: Error('Abort'), running nodes see config.signal aborted", async () => {
  let aborted = false;
  const graph = new StateGraph(State)
    .addNode("slow", (_s, config) => {
      assert.ok(config.signal instanceof AbortSignal);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve({ hello: "late" }), 500);
        config.signal.addEventListener("abort", () => {
          aborted = true;
          clearTimeout(timer);
          reject(new Error("AbortError"));
        });
      });
    })
    .addEdge(START, "slow")
    .compile({ checkpointer: new MemorySaver() });
  const controller = new AbortController();
  const config = { ...thread(), signal: controller.signal };
  setTimeout(() => controller.abort(), 20);
  await assert.rejects(graph.invoke({ hello: "x" }, config), { message: "Abort" });
  assert.ok(aborted);
  // Nothing of the cancelled task is saved: it is still next, without an error.
  const state = await graph.getState(config);
  assert.deepEqual(state.next, ["slow"]);
  assert.equal(state.tasks[0].error, undefined);
  // An already aborted signal never starts the run's nodes.
  let started = false;
  const idle = new StateGraph(State).addNode("n", () => ((started = true), {})).addEdge(START, "n").compile();
  await assert.rejects(idle.invoke({ hello: "x" }, { signal: AbortSignal.abort() }), { message: "Abort" });
  assert.equal(started, false);
});

test("a failing task aborts its step's other tasks; the first failure is thrown", async () => {
  let cancelled = false;
  const graph = new StateGraph(State)
    .addNode("slow", (_s, config) => new Promise((_resolve, reject) => {
      config.signal.addEventListener("abort", () => {
        cancelled = true;
        reject(new Error("AbortError"));
      });
    }))
    .addNode("bad", async () => {
      await sleep(5);
      throw new Error("I am bad");
    })
    .addConditionalEdges(START, () => ["slow", "bad"])
    .compile();
  await assert.rejects(graph.invoke({ hello: "x" }), { message: "I am bad" });
  assert.ok(cancelled);
});

test("stepTimeout and stream.cancel() end a run with Error('Abort')", async () => {
  const graph = new StateGraph(State)
    .addNode("slow", (_s, config) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve({ hello: "done" }), 300);
      config.signal.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("AbortError"))));
    }))
    .addEdge(START, "slow")
    .compile();
  graph.stepTimeout = 10;
  await assert.rejects(graph.invoke({ hello: "x" }), { message: "Abort" });
  graph.stepTimeout = undefined;
  const stream = await graph.stream({ hello: "x" });
  assert.ok(stream.signal instanceof AbortSignal);
  setTimeout(() => stream.cancel(), 10);
  assert.deepEqual(await stream.next(), { value: undefined, done: true });
  assert.ok(stream.signal.aborted);
});

test("compile({ store }): nodes get config.store and getStore(), subgraphs too", async () => {
  const store = new InMemoryStore();
  const sub = new StateGraph(State)
    .addNode("write", async (s, config) => {
      assert.equal(getStore(), config.store);
      await config.store.put(["notes"], "k", { text: s.hello });
      return {};
    })
    .addEdge(START, "write")
    .compile();
  const graph = new StateGraph(State).addNode("sub", sub).addEdge(START, "sub").compile({ store });
  assert.equal(graph.store, store);
  assert.equal(graph.withConfig({ metadata: { a: 1 } }).store, store);
  await graph.withConfig({ metadata: { a: 1 } }).invoke({ hello: "remember me" });
  assert.deepEqual((await store.get(["notes"], "k")).value, { text: "remember me" });
  assert.deepEqual((await store.search(["notes"])).map((i) => i.key), ["k"]);
  assert.throws(() => new StateGraph(State).compile({ store: {} }), { code: "INVALID_ARGUMENT" });
});

test("getCurrentTaskInput() is the running node's state", async () => {
  const graph = new StateGraph(State)
    .addNode("n", async () => {
      await sleep(1);
      return { hello: `${getCurrentTaskInput().hello}!` };
    })
    .addEdge(START, "n")
    .compile();
  assert.deepEqual(await graph.invoke({ hello: "hi" }), { hello: "hi!" });
  assert.throws(() => getCurrentTaskInput(), { code: "CONFIG_OUTSIDE_NODE" });
});

test("chronograph/zod/schema writes LangGraph.js's JSON schemas; a zod context validates configurable", async () => {
  const state = z.object({
    foo: z.string(),
    items: withLangGraph(z.array(z.string()), {
      reducer: { fn: (a, b) => a.concat(b), schema: z.union([z.string(), z.array(z.string())]) },
      default: () => [],
    }),
  });
  const context = z.object({ prompt: z.string().min(1) });
  const graph = new StateGraph(state, context).addNode("a", () => ({ foo: "a" })).addEdge(START, "a").compile();
  assert.equal(graph.builder._schemaRuntimeDefinition, state);
  assert.deepEqual(getStateTypeSchema(graph).required, ["foo", "items"]);
  assert.deepEqual(Object.keys(getUpdateTypeSchema(graph).properties.items), ["anyOf"]);
  assert.equal(getUpdateTypeSchema(graph).required, undefined);
  assert.deepEqual(getInputTypeSchema(graph), getUpdateTypeSchema(graph));
  assert.deepEqual(getConfigTypeSchema(graph).properties.prompt, { type: "string", minLength: 1 });
  assert.deepEqual(await graph.invoke({ foo: "x" }, { configurable: { prompt: "p" } }), { foo: "a", items: [] });
  await assert.rejects(graph.invoke({ foo: "x" }, { configurable: { prompt: "" } }));
  const plain = new StateGraph(State).addNode("n", () => ({})).addEdge(START, "n").compile();
  assert.equal(getStateTypeSchema(plain), undefined);
});

test("ToolNode runs the last AI message's tool calls; toolsCondition routes to it", async () => {
  const add = tool(async ({ a, b }) => String(a + b), {
    name: "add",
    description: "adds",
    schema: z.object({ a: z.number(), b: z.number() }),
  });
  const node = new ToolNode([add]);
  const ai = new AIMessage({ content: "", tool_calls: [{ name: "add", args: { a: 1, b: 2 }, id: "c1" }, { name: "nope", args: {}, id: "c2" }] });
  const { messages } = await node.invoke({ messages: [new HumanMessage("hi"), ai] });
  assert.deepEqual(
    messages.map((m) => [m.getType(), m.tool_call_id, m.content, m.status]),
    [
      ["tool", "c1", "3", "success"],
      ["tool", "c2", 'Error: Tool "nope" not found.\n Please fix your mistakes.', "error"],
    ],
  );
  assert.equal(toolsCondition({ messages: [ai] }), "tools");
  assert.equal(toolsCondition({ messages: [new HumanMessage("x")] }), END);
});

test("LangGraph.js APIs the package lacks fail with a GraphValueError naming the difference", () => {
  for (const f of [() => new MessageGraph()]) {
    assert.throws(f, (e) => e instanceof GraphValueError && e.code === "UNSUPPORTED" && /not supported by chronograph/.test(e.message));
  }
});

test("the delta channels run: DeltaChannel, DeltaValue and LangGraph.js's own DeltaChannel, with its snapshotFrequency check", async () => {
  assert.throws(() => new DeltaChannel(messagesDeltaReducer, { snapshotFrequency: 0 }), /snapshotFrequency must be a positive integer, got 0/);
  const field = new DeltaValue(z.array(z.string()).default(() => []), { inputSchema: z.string(), reducer: (s, w) => [...s, ...w], snapshotFrequency: 2 });
  assert.equal(DeltaValue.isInstance(field) && DeltaValue.isInstance(MessagesDeltaValue), true);
  const lg = await import("@langchain/langgraph");
  const states = [
    new StateSchema({ log: field }),
    Annotation.Root({ log: new DeltaChannel((s, w) => [...s, ...w], { snapshotFrequency: 2 }) }),
    Annotation.Root({ log: new lg.DeltaChannel((s, w) => [...s, ...w], { snapshotFrequency: 2 }) }),
  ];
  for (const state of states) {
    const graph = new StateGraph(state)
      .addNode("a", (s) => ({ log: `a${s.log.length}` }))
      .addNode("b", (s) => ({ log: `b${s.log.length}` }))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .addEdge("a", END)
      .addEdge("b", END)
      .compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: "t" } };
    assert.deepEqual((await graph.invoke({ log: "in" }, thread)).log, ["in", "a1", "b1"]);
    // Two supersteps updated it: the snapshot restarted its counters (LangGraph.js leaves them out then).
    const history = [];
    for await (const s of graph.getStateHistory(thread)) history.push(s.metadata.counters_since_delta_snapshot ?? null);
    assert.deepEqual(history, [null, { log: [1, 2] }, { log: [0, 1] }]);
  }
  const out = messagesDeltaReducer([new HumanMessage({ content: "a", id: "1" })], [[new AIMessage({ content: "b", id: "1" })], new HumanMessage("c")]);
  assert.deepEqual(out.map((m) => [m.content, m.id]), [["b", "1"], ["c", undefined]]);
});

test("a Pregel whose fields do not fit together fails with LangGraph.js's GraphValidationError", () => {
  assert.throws(() => new Pregel({ nodes: {} }), { name: "GraphValidationError", message: "Channels not provided" });
  const node = Channel.subscribeTo("a");
  assert.throws(() => new Pregel({ nodes: { node }, channels: {}, inputChannels: "a", outputChannels: "a" }), {
    name: "GraphValidationError",
    message: "Subscribed channel 'a' not in channels",
  });
  assert.equal(new Graph().addNode("x", (v) => v).addEdge(START, "x").compile() instanceof Pregel, true);
});

test("without @langchain/langgraph-checkpoint, InMemoryStore is the package's own, with the same API", async () => {
  // CHRONOGRAPH_LANGCHAIN=off hides the optional peers, as when they are not installed.
  const program = `
    import { InMemoryStore } from "chronograph";
    const store = new InMemoryStore();
    await store.put(["users", "a"], "1", { n: 1, tag: "x" });
    await store.put(["users", "b"], "2", { n: 5, tag: "y" });
    const results = {
      own: !("indexConfig" in store),
      get: (await store.get(["users", "a"], "1")).value,
      search: (await store.search(["users"], { filter: { n: { $gt: 2 } } })).map((i) => i.key),
      namespaces: await store.listNamespaces({ prefix: ["users"] }),
      deep: await store.listNamespaces({ maxDepth: 1 }),
    };
    await store.delete(["users", "a"], "1");
    results.deleted = await store.get(["users", "a"], "1");
    try { await store.put(["a.b"], "k", {}); } catch (e) { results.bad = e.code; }
    try { new InMemoryStore({ index: {} }); } catch (e) { results.index = e.code; }
    console.log(JSON.stringify(results));
  `;
  assert.deepEqual(runWithoutPeers(program), {
    own: true,
    get: { n: 1, tag: "x" },
    search: ["2"],
    namespaces: [["users", "a"], ["users", "b"]],
    deep: [["users"]],
    deleted: null,
    bad: "INVALID_NAMESPACE",
    index: "UNSUPPORTED",
  });
});

test("a node function is called with `this` naming its node, as LangGraph.js's RunnableCallable", async () => {
  class Node {
    constructor(name) {
      this.name = name;
    }
    call() {
      return { hello: this.name };
    }
  }
  const graph = new StateGraph(State).addNode("first", new Node("unused").call).addEdge(START, "first").compile();
  assert.deepEqual(await graph.invoke({ hello: "x" }), { hello: "first" });
});

test("chronograph/web is the main entry (LangGraph.js's browser-safe entry), chronograph/remote's RemoteGraph fails naming the difference", async () => {
  const web = await import("chronograph/web");
  const main = await import("chronograph");
  assert.equal(web.StateGraph, main.StateGraph);
  assert.equal(web.MemorySaver, main.MemorySaver);
  const graph = new web.StateGraph(web.Annotation.Root({ n: web.Annotation() }))
    .addNode("inc", (s) => ({ n: s.n + 1 }))
    .setEntryPoint("inc")
    .setFinishPoint("inc")
    .compile();
  assert.deepEqual(await graph.invoke({ n: 1 }), { n: 2 });
  const { RemoteGraph } = await import("chronograph/remote");
  assert.throws(
    () => new RemoteGraph({ graphId: "agent", url: "http://localhost:2024" }),
    (e) => e instanceof GraphValueError && e.code === "UNSUPPORTED" && /^RemoteGraph .* is not supported by chronograph: /.test(e.message),
  );
});
