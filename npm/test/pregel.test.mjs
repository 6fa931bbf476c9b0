// LangGraph.js's low-level API on the package (`chronograph/pregel`,
// `chronograph/channels`) and its `Graph`: each program runs on
// @langchain/langgraph 1.7.3 and on chronograph, and what it records must be
// the same (the compat suite's recorder and comparison: generated ids and
// timestamps normalized, nothing else).
import assert from "node:assert/strict";
import { test } from "node:test";
import { compareRuns, runProgram } from "./compat/harness.mjs";

/** Each engine's main entry with its `pregel` and `channels` subpaths' names. */
async function engines() {
  const langgraph = {
    ...(await import("@langchain/langgraph")),
    ...(await import("@langchain/langgraph/pregel")),
    ...(await import("@langchain/langgraph/channels")),
  };
  const chronograph = {
    ...(await import("chronograph")),
    ...(await import("chronograph/pregel")),
    ...(await import("chronograph/channels")),
  };
  return { langgraph, chronograph };
}

/** Runs `program(lg, t)` on both engines and asserts that they recorded the same. */
async function same(program) {
  const { langgraph, chronograph } = await engines();
  const ref = await runProgram(program, langgraph);
  const got = await runProgram(program, chronograph);
  assert.equal(ref.thrown, undefined, `the program fails on LangGraph.js: ${JSON.stringify(ref.thrown)}`);
  const { same: ok, diff } = compareRuns(ref, got);
  assert.ok(ok, `chronograph differs from LangGraph.js:\n${diff}`);
  return got;
}

test("a Topic that accumulates keeps every superstep's writes; one that does not, the last", () =>
  same(async (lg, t) => {
    const { Pregel, Channel, Topic, EphemeralValue, MemorySaver } = lg;
    const graph = (accumulate, checkpointer) =>
      new Pregel({
        nodes: {
          one: Channel.subscribeTo("a").pipe((x) => x + x).pipe(Channel.writeTo(["b", "c"])),
          two: Channel.subscribeTo("b").pipe((x) => x + x).pipe(Channel.writeTo(["c"])),
        },
        channels: { a: new EphemeralValue(), b: new EphemeralValue(), c: new Topic({ accumulate }) },
        inputChannels: ["a"],
        outputChannels: ["c"],
        checkpointer,
      });
    await t.result("accumulate", () => graph(true).invoke({ a: "foo" }));
    await t.result("last superstep", () => graph(false).invoke({ a: "foo" }));
    await t.stream("updates", () => graph(true).stream({ a: "x" }, { streamMode: "updates" }));
    const saved = graph(true, new MemorySaver());
    const config = { configurable: { thread_id: "topic" } };
    await t.result("with a checkpointer", () => saved.invoke({ a: "ab" }, config));
    await t.result("state", async () => {
      const s = await saved.getState(config);
      return { values: s.values, next: s.next, metadata: s.metadata };
    });
    await t.history("history", saved, config);
  }));

test("two writes to a LastValue in one superstep fail with LangGraph.js's InvalidUpdateError", () =>
  same(async (lg, t) => {
    const { Pregel, Channel, LastValue, EphemeralValue, AnyValue } = lg;
    const graph = (channel) =>
      new Pregel({
        nodes: {
          a: Channel.subscribeTo("x").pipe((x) => x + 1).pipe(Channel.writeTo(["y"])),
          b: Channel.subscribeTo("x").pipe((x) => x + 2).pipe(Channel.writeTo(["y"])),
        },
        channels: { x: new LastValue(), y: channel },
        inputChannels: "x",
        outputChannels: "y",
      });
    await t.result("LastValue", () => graph(new LastValue()).invoke(1));
    await t.result("EphemeralValue", () => graph(new EphemeralValue()).invoke(1));
    await t.result("AnyValue keeps the last write", () => graph(new AnyValue()).invoke(1));
    await t.result("no input", () => graph(new LastValue()).invoke(null));
    await t.result("not subscribed", () => new Pregel({ nodes: {}, channels: { x: new LastValue() }, inputChannels: "x", outputChannels: "x" }));
  }));

test("a Graph with a conditional edge and a checkpointer: values, history and stream chunks", () =>
  same(async (lg, t) => {
    const { Graph, START, END, MemorySaver } = lg;
    const graph = new Graph()
      .addNode("add", (x) => x + 1)
      .addNode("double", (x) => x * 2)
      .addNode("big", (x) => `${x} is big`)
      .addNode("small", (x) => `${x} is small`)
      .addEdge(START, "add")
      .addEdge("add", "double")
      .addConditionalEdges("double", (x) => (x > 5 ? "big" : "small"), ["big", "small"])
      .addEdge("big", END)
      .addEdge("small", END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "graph" } };
    await t.result("invoke", () => graph.invoke(2, config));
    await t.result("state", async () => {
      const s = await graph.getState(config);
      return { values: s.values, next: s.next, tasks: s.tasks, metadata: s.metadata };
    });
    await t.history("history", graph, config);
    await t.stream("stream", () => graph.stream(1, { configurable: { thread_id: "graph2" }, streamMode: ["values", "updates"] }));
    await t.result("two edges from a node", () => new Graph().addNode("a", (x) => x).addEdge(START, "a").addEdge("a", END).addEdge("a", "a"));
  }));

test("interruptBefore a Pregel node pauses the run; a resume runs the node", () =>
  same(async (lg, t) => {
    const { Pregel, Channel, LastValue, BinaryOperatorAggregate, MemorySaver, Command } = lg;
    const one = Channel.subscribeTo(["input"])
      .join(["total"])
      .pipe((i) => i.total + i.input)
      .pipe(Channel.writeTo([], { output: (x) => x, total: (x) => x }));
    const app = new Pregel({
      nodes: { one },
      channels: { total: new BinaryOperatorAggregate((a, b) => a + b, () => 0), input: new LastValue(), output: new LastValue() },
      inputChannels: "input",
      outputChannels: "output",
      interruptBefore: ["one"],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "paused" } };
    await t.result("paused", () => app.invoke(2, config));
    await t.result("state", async () => {
      const s = await app.getState(config);
      return { values: s.values, next: s.next, tasks: s.tasks.map((x) => x.name) };
    });
    await t.result("resumed", () => app.invoke(null, config));
    await t.result("again", () => app.invoke(3, config));
    await t.result("resumed again", () => app.invoke(null, config));
    await t.history("history", app, config);
    const bare = new Pregel({
      nodes: { chain: Channel.subscribeTo("input").pipe(Channel.writeTo(["output"])) },
      channels: { input: new LastValue(), output: new LastValue() },
      inputChannels: "input",
      outputChannels: "output",
      interruptBefore: ["chain"],
    });
    await t.result("without a checkpointer", () => bare.invoke("a"));
    await t.result("resume without a checkpointer", async () => {
      try {
        return await bare.invoke(new Command({ resume: "x" }));
      } catch (e) {
        return e.message;
      }
    });
  }));

test("a ChannelWrite run inside a node writes through its task; a Pregel runs inside another's node", async () => {
  const { RunnableEach } = await import("@langchain/core/runnables");
  await same(async (lg, t) => {
    const { Pregel, Channel, LastValue, Topic, MemorySaver } = lg;
    const inner = new Pregel({
      nodes: { one: Channel.subscribeTo("input").pipe((x) => x + 1).pipe(Channel.writeTo(["output"])) },
      channels: { input: new LastValue(), output: new LastValue() },
      inputChannels: "input",
      outputChannels: "output",
    });
    const app = new Pregel({
      nodes: {
        fan: Channel.subscribeTo("input")
          .pipe((xs) => xs.map((x) => x * 10))
          .pipe(new RunnableEach({ bound: Channel.writeTo(["inbox"]) })),
        each: Channel.subscribeTo("inbox").pipe(new RunnableEach({ bound: inner })).pipe(Channel.writeTo(["output"])),
      },
      channels: { input: new LastValue(), inbox: new Topic(), output: new LastValue() },
      inputChannels: "input",
      outputChannels: "output",
    });
    await t.result("invoke", () => app.invoke([1, 2]));
    // Assigning a checkpointer takes effect at the next run.
    app.checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: "nested" } };
    await t.result("checkpointed", () => app.invoke([3], config));
    await t.result("state", async () => (await app.getState(config)).values);
    await t.history("history", app, config);
  });
});
