// Subgraphs, Send and Command with LangGraph.js's shapes: `new Send(node, args)` from
// routers and in `Command.goto`, `Command` returned by nodes (also `graph:
// Command.PARENT` from inside a subgraph), a compiled graph as a node, `getState(config,
// { subgraphs: true })`, the state API on a subgraph's config, and `stream(..., {
// subgraphs: true })` yielding `[namespace, chunk]` as LangGraph.js does (the expected
// sequences below are what @langchain/langgraph 1.7 yields for the same graphs).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Command, END, MemorySaver, START, Send, StateGraph, interrupt } from "chronograph";
import * as chronograph from "chronograph";
import { expectedSubgraphs, subgraphs } from "./browser/subgraphs.mjs";
import { collect, sleep } from "./support.mjs";

let threads = 0;
const thread = () => ({ configurable: { thread_id: `sg-${++threads}` } });

/** `log` appends; `x` keeps the last value. */
const channels = () => ({ log: "append", x: "last_value" });

/** `a -> child[inner]`; `inner` asks first when `ask`. */
function parentAndChild({ ask = false } = {}) {
  const child = new StateGraph(channels())
    .addNode("inner", () => (ask ? { log: ["inner"], x: interrupt("q?") } : { log: ["inner"] }))
    .addEdge(START, "inner")
    .compile();
  return new StateGraph(channels())
    .addNode("a", () => ({ log: ["a"] }))
    .addNode("child", child)
    .addEdge(START, "a")
    .addEdge("a", "child")
    .compile({ checkpointer: new MemorySaver() });
}

/** The id of the task that runs `name` at the thread's newest checkpoint. */
async function taskId(graph, config, name) {
  const s = await graph.getState(config);
  return s.tasks.find((t) => t.name === name).id;
}

test("Send: a router fans out one task per Send, each given its args, mixed with node names", async () => {
  const seen = [];
  const graph = new StateGraph({ items: "last_value", results: "append", n: "sum" })
    .addNode("split", () => ({ items: ["a", "b", "c"] }))
    .addNode("work", (arg) => (seen.push(arg), { results: [`did:${arg.item}`], n: 1 }))
    .addNode("audit", (state) => ({ results: [`audit saw ${state.results.length}`] }))
    .addEdge(START, "split")
    .addConditionalEdges("split", (state) => [...state.items.map((item) => new Send("work", { item })), "audit"])
    .compile({ checkpointer: new MemorySaver() });
  const config = thread();
  const out = await graph.invoke({ results: [], n: 10 }, config);
  // Writes apply in task path order: the PULL task's (`~__pregel_pull, audit`) before the Sends'.
  assert.deepEqual(out, { items: ["a", "b", "c"], results: ["audit saw 0", "did:a", "did:b", "did:c"], n: 13 });
  assert.deepEqual(seen, [{ item: "a" }, { item: "b" }, { item: "c" }]);
  const history = await collect(graph.getStateHistory(config));
  const fanOut = history.find((s) => s.next.length === 4);
  // PUSH tasks first, in Send order, then the PULL task.
  assert.deepEqual(fanOut.next, ["work", "work", "work", "audit"]);
  assert.equal(new Set(fanOut.tasks.map((t) => t.id)).size, 4);
});

test("Send: any JSON argument (a number is given as itself); a Send to an unknown node is dropped", async () => {
  const seen = [];
  const graph = new StateGraph({ log: "append" })
    .addNode("start", () => ({ log: ["start"] }))
    .addNode("w", async (arg) => (await sleep(1), seen.push(arg), { log: [JSON.stringify(arg)] }))
    .addEdge(START, "start")
    .addConditionalEdges("start", async () => [new Send("w", 7), new Send("nowhere", {}), new Send("w", [1, { k: null }])])
    .compile({ checkpointer: new MemorySaver() });
  const out = await graph.invoke({ log: [] }, thread());
  assert.deepEqual(out.log, ["start", "7", '[1,{"k":null}]']);
  assert.deepEqual(seen, [7, [1, { k: null }]]);
});

test("Send objects shaped like LangGraph.js's ({lg_name, node, args} or {node, args}) are read as Sends", async () => {
  const graph = new StateGraph({ log: "append" })
    .addNode("start", () => ({}))
    .addNode("w", (arg) => ({ log: [arg.v] }))
    .addEdge(START, "start")
    .addConditionalEdges("start", () => [{ lg_name: "Send", node: "w", args: { v: "tagged" } }, { node: "w", args: { v: "plain" } }])
    .compile();
  assert.deepEqual((await graph.invoke({ log: [] })).log, ["tagged", "plain"]);
});

test("Command from a node: its update plus goto (a name, names, Sends), in addition to its edges", async () => {
  const graph = new StateGraph({ log: "append" })
    .addNode("router", () => new Command({ update: { log: ["router"] }, goto: ["left", new Send("right", { from: "router" })] }), { ends: ["left", "right"] })
    .addNode("left", () => new Command({ update: { log: ["left"] }, goto: "merge" }), { ends: ["merge"] })
    .addNode("right", (arg) => ({ log: [`right from ${arg.from}`] }))
    .addNode("merge", () => ({ log: ["merge"] }))
    .addNode("audit", async () => (await sleep(1), { log: ["audit"] }))
    .addEdge(START, "router")
    .addEdge("left", "audit")
    .compile({ checkpointer: new MemorySaver() });
  const config = thread();
  const out = await graph.invoke({ log: [] }, config);
  assert.deepEqual(out.log, ["router", "left", "right from router", "audit", "merge"]);
  const steps = (await collect(graph.getStateHistory(config))).reverse().map((s) => s.next);
  assert.deepEqual(steps, [["__start__"], ["router"], ["right", "left"], ["merge", "audit"], []]);
  // A goto to END adds nothing; a name that is not a node is dropped.
  const quiet = new StateGraph({ log: "append" })
    .addNode("n", () => new Command({ update: { log: ["n"] }, goto: [END, "ghost"] }))
    .addEdge(START, "n")
    .compile();
  assert.deepEqual(await quiet.invoke({ log: [] }), { log: ["n"] });
  // LangGraph.js's other update form: [channel, value] pairs.
  const pairs = new StateGraph({ log: "append", x: "last_value" })
    .addNode("n", () => new Command({ update: [["log", ["n"]], ["x", 1]] }))
    .addEdge(START, "n")
    .compile();
  assert.deepEqual(await pairs.invoke({ log: [] }), { log: ["n"], x: 1 });
  const twice = new StateGraph({ log: "append" })
    .addNode("n", () => new Command({ update: [["log", ["a"]], ["log", ["b"]]] }))
    .addEdge(START, "n")
    .compile();
  // A channel named twice is written twice, in order, through its reducer (LangGraph.js).
  assert.deepEqual(await twice.invoke({ log: [] }), { log: ["a", "b"] });
});

test("addNode(name, fn, { ends }) declares destinations: compile checks them; they route nothing", async () => {
  const bad = new StateGraph({ x: "last_value" }).addNode("a", () => ({}), { ends: ["zz"] }).addEdge(START, "a");
  assert.throws(() => bad.compile(), { name: "Error", code: "INVALID_GRAPH", message: "Found edge ending at unknown node `zz`" });
  // One name is taken like a list of one.
  new StateGraph({ x: "last_value" }).addNode("b", () => ({})).addNode("a", () => ({}), { ends: "b" }).addEdge(START, "a").compile();
  const graph = new StateGraph({ x: "last_value" })
    .addNode("a", () => ({ x: 1 }), { ends: ["b", END] })
    .addNode("b", () => ({ x: 2 }))
    .addEdge(START, "a")
    .compile();
  assert.deepEqual(await graph.invoke({ x: 0 }), { x: 1 });
  assert.throws(() => new StateGraph({ x: "last_value" }).addNode("a", () => ({}), 5), { name: "TypeError", code: "INVALID_ARGUMENT" });
  assert.throws(() => new StateGraph({ x: "last_value" }).addNode("a", () => ({}), { ends: [1] }), { name: "TypeError", code: "INVALID_ARGUMENT" });
});

test("a compiled graph added with addNode runs as a subgraph in its own namespace", async () => {
  const graph = parentAndChild();
  const config = thread();
  assert.deepEqual(await graph.invoke({ log: [] }, config), { log: ["a", "a", "inner"] });
  const list = await collect(graph.checkpointer.list(config));
  const namespaces = [...new Set(list.map((t) => t.config.configurable.checkpoint_ns))].sort();
  assert.equal(namespaces.length, 2);
  assert.equal(namespaces[0], "");
  assert.match(namespaces[1], /^child:[0-9a-f-]{36}$/);
  const inner = list.filter((t) => t.config.configurable.checkpoint_ns !== "");
  assert.deepEqual(
    inner.map((t) => [t.metadata.source, t.metadata.step]).reverse(),
    [
      ["input", -1],
      ["loop", 0],
      ["loop", 1],
    ],
  );
  // Every subgraph checkpoint maps the root namespace to the root checkpoint it ran under.
  assert.ok(inner.every((t) => typeof t.metadata.parents[""] === "string"));
});

test("getState: a subgraph task's state is its namespace, or with { subgraphs: true } its snapshot", async () => {
  const graph = parentAndChild({ ask: true });
  const config = thread();
  const paused = await graph.invoke({ log: [] }, config);
  assert.deepEqual(paused.__interrupt__.map((i) => i.value), ["q?"]);
  const plain = await graph.getState(config);
  const [task] = plain.tasks;
  assert.equal(task.name, "child");
  assert.deepEqual(task.state, { configurable: { thread_id: config.configurable.thread_id, checkpoint_ns: `child:${task.id}` } });
  assert.deepEqual(task.interrupts.map((i) => i.value), ["q?"]);

  const deep = await graph.getState(config, { subgraphs: true });
  const sub = deep.tasks[0].state;
  assert.deepEqual(sub.values, { log: ["a"] });
  assert.deepEqual(sub.next, ["inner"]);
  assert.deepEqual(sub.tasks.map((t) => [t.name, t.interrupts.map((i) => i.value)]), [["inner", ["q?"]]]);
  assert.deepEqual(sub.metadata.parents, { "": plain.config.configurable.checkpoint_id });
  const { configurable } = sub.config;
  assert.equal(configurable.checkpoint_ns, `child:${task.id}`);
  assert.deepEqual(configurable.checkpoint_map, {
    "": plain.config.configurable.checkpoint_id,
    [`child:${task.id}`]: configurable.checkpoint_id,
  });
  assert.equal(sub.parentConfig.configurable.checkpoint_ns, `child:${task.id}`);
  // The root snapshot itself carries no checkpoint_map.
  assert.equal(deep.config.configurable.checkpoint_map, undefined);
  await assert.rejects(graph.getState(config, { subgraphs: 1 }), { name: "TypeError", code: "INVALID_ARGUMENT" });

  // Resumed: the subgraph finishes and the parent goes on.
  assert.deepEqual(await graph.invoke(new Command({ resume: 5 }), config), { log: ["a", "a", "inner"], x: 5 });
  const done = await graph.getState(config, { subgraphs: true });
  assert.deepEqual(done.tasks, []);
});

test("getStateHistory and updateState work on a subgraph's config (its namespace)", async () => {
  const graph = parentAndChild({ ask: true });
  const config = thread();
  await graph.invoke({ log: [] }, config);
  const { state: nsConfig } = (await graph.getState(config)).tasks[0];
  const history = await collect(graph.getStateHistory(nsConfig));
  assert.deepEqual(
    history.map((s) => [s.metadata.source, s.metadata.step, s.config.configurable.checkpoint_ns]),
    [
      ["loop", 0, nsConfig.configurable.checkpoint_ns],
      ["input", -1, nsConfig.configurable.checkpoint_ns],
    ],
  );
  assert.ok(history.every((s) => s.config.configurable.checkpoint_map[nsConfig.configurable.checkpoint_ns] === s.config.configurable.checkpoint_id));

  const { state: sub } = (await graph.getState(config, { subgraphs: true })).tasks[0];
  const updated = await graph.updateState(sub.config, { x: 9 });
  assert.equal(updated.configurable.checkpoint_ns, nsConfig.configurable.checkpoint_ns);
  assert.equal(updated.configurable.checkpoint_map[nsConfig.configurable.checkpoint_ns], updated.configurable.checkpoint_id);
  const after = await graph.getState(updated);
  assert.equal(after.metadata.source, "update");
  assert.deepEqual(after.values, { log: ["a"], x: 9 });
  await assert.rejects(graph.updateState({ configurable: { thread_id: config.configurable.thread_id, checkpoint_ns: "nope:1" } }, { x: 1 }), {
    name: "GraphValueError",
    message: 'Subgraph "nope" not found',
  });
});

test("Command({ graph: Command.PARENT }) from a subgraph node applies to the parent graph", async () => {
  const child = new StateGraph({ log: "append" })
    .addNode("escape", () => new Command({ update: { log: ["escape"] }, goto: "after", graph: Command.PARENT }))
    .addNode("never", () => ({ log: ["never"] }))
    .addEdge(START, "escape")
    .addEdge("escape", "never")
    .compile();
  const graph = new StateGraph({ log: "append" })
    .addNode("sub", child, { ends: ["after"] })
    .addNode("after", () => ({ log: ["after"] }))
    .addNode("edge", () => ({ log: ["edge"] }))
    .addEdge(START, "sub")
    .addEdge("sub", "edge")
    .compile({ checkpointer: new MemorySaver() });
  assert.deepEqual((await graph.invoke({ log: [] }, thread())).log, ["escape", "after", "edge"]);
});

test("stream with subgraphs: true yields [namespace, chunk] as LangGraph.js does", async () => {
  const graph = parentAndChild();
  const config = thread();
  const chunks = await collect(graph.stream({ log: [] }, config, { subgraphs: true }));
  const ns = [`child:${(await collect(graph.getStateHistory(config))).find((s) => s.next[0] === "child").tasks[0].id}`];
  assert.deepEqual(chunks, [
    [[], { a: { log: ["a"] } }],
    [ns, { inner: { log: ["inner"] } }],
    [[], { child: { log: ["a", "inner"] } }],
  ]);

  const multi = await collect(graph.stream({ log: [] }, thread(), { streamMode: ["updates", "values"], subgraphs: true }));
  const child = multi.find(([n]) => n.length === 1)[0];
  assert.deepEqual(multi, [
    [[], "values", { log: [] }],
    [[], "updates", { a: { log: ["a"] } }],
    [[], "values", { log: ["a"] }],
    [child, "values", { log: ["a"] }],
    [child, "updates", { inner: { log: ["inner"] } }],
    [child, "values", { log: ["a", "inner"] }],
    [[], "updates", { child: { log: ["a", "inner"] } }],
    [[], "values", { log: ["a", "a", "inner"] }],
  ]);

  // In the config, as LangGraph.js takes it.
  const values = await collect(graph.stream({ log: [] }, { ...thread(), streamMode: "values", subgraphs: true }));
  assert.deepEqual(
    values.map(([n, v]) => [n.length, v]),
    [
      [0, { log: [] }],
      [0, { log: ["a"] }],
      [1, { log: ["a"] }],
      [1, { log: ["a", "inner"] }],
      [0, { log: ["a", "a", "inner"] }],
    ],
  );

  // Without the flag, only this graph's chunks, shaped as before.
  assert.deepEqual(await collect(graph.stream({ log: [] }, thread())), [{ a: { log: ["a"] } }, { child: { log: ["a", "inner"] } }]);
  await assert.rejects(collect(graph.stream({ log: [] }, thread(), { subgraphs: "yes" })), { name: "TypeError", code: "INVALID_ARGUMENT" });
});

test("stream with subgraphs: an interrupt inside the subgraph is reported at both levels, and the resume streams the rest", async () => {
  const graph = parentAndChild({ ask: true });
  const config = thread();
  const first = await collect(graph.stream({ log: [] }, config, { subgraphs: true }));
  const child = [`child:${await taskId(graph, config, "child")}`];
  const [{ __interrupt__: raised }] = first[1].slice(1);
  assert.deepEqual(first, [
    [[], { a: { log: ["a"] } }],
    [child, { __interrupt__: raised }],
    [[], { __interrupt__: raised }],
  ]);
  assert.deepEqual(raised.map((i) => i.value), ["q?"]);
  const rest = await collect(graph.stream(new Command({ resume: 5 }), config, { subgraphs: true }));
  assert.deepEqual(rest, [
    [child, { inner: { log: ["inner"], x: 5 } }],
    [[], { child: { log: ["a", "inner"], x: 5 } }],
  ]);
});

test("stream with subgraphs: nested subgraphs, Send fan-outs to a subgraph, tasks and checkpoints modes", async () => {
  const leaf = new StateGraph({ log: "append", item: "last_value" })
    .addNode("leaf", (s) => ({ log: [`leaf ${s.item}`] }))
    .addEdge(START, "leaf")
    .compile();
  const middle = new StateGraph({ log: "append", item: "last_value" }).addNode("inner", leaf).addEdge(START, "inner").compile();
  const graph = new StateGraph({ log: "append", items: "last_value" })
    .addNode("split", () => ({ items: ["p", "q"] }))
    .addNode("outer", middle)
    .addEdge(START, "split")
    .addConditionalEdges("split", (s) => s.items.map((item) => new Send("outer", { item, log: [] })))
    .compile({ checkpointer: new MemorySaver() });
  const config = thread();
  const chunks = await collect(graph.stream({ log: [] }, config, { subgraphs: true, streamMode: ["updates", "tasks", "checkpoints"] }));
  const levels = (ns) => ns.map((l) => l.split(":")[0]).join("|");
  const updates = chunks.filter(([, mode]) => mode === "updates").map(([ns, , c]) => [levels(ns), Object.keys(c)[0]]);
  assert.deepEqual(updates, [
    ["", "split"],
    ["outer|inner", "leaf"],
    ["outer", "inner"],
    ["outer|inner", "leaf"],
    ["outer", "inner"],
    ["", "outer"],
    ["", "outer"],
  ]);
  // Each chunk's namespace is where its checkpoints are.
  for (const [ns, mode, c] of chunks) {
    if (mode === "checkpoints") assert.equal(c.config.configurable.checkpoint_ns, ns.join("|"));
  }
  const outerNamespaces = new Set(chunks.filter(([ns]) => ns.length > 0).map(([ns]) => ns[0]));
  assert.equal(outerNamespaces.size, 2, "one namespace per Send task");
  const final = await graph.getState(config);
  assert.deepEqual(final.values.log, ["leaf p", "leaf q"]);
});

test("the browser page's check: Sends to a subgraph that asks, resumed by id, escaping with Command.PARENT", async () => {
  assert.deepEqual(await subgraphs(chronograph), expectedSubgraphs);
});

test("a Command input may go to a Send (through __pregel_tasks), saved first as an input checkpoint (LangGraph.js)", async () => {
  const seen = [];
  const graph = new StateGraph({ log: "append" })
    .addNode("a", () => ({ log: ["a"] }), { ends: ["w"] })
    .addNode("w", (arg) => (seen.push(arg), { log: [`w ${arg}`] }))
    .addEdge(START, "a")
    .compile({ checkpointer: new MemorySaver() });
  const config = thread();
  await graph.invoke({ log: [] }, config);
  const before = (await collect(graph.getStateHistory(config))).length;
  assert.deepEqual((await graph.invoke(new Command({ goto: new Send("w", 7) }), config)).log, ["a", "w 7"]);
  assert.deepEqual(seen, [7]);
  const history = await collect(graph.getStateHistory(config));
  // A Command without `resume` starts a run: its writes are an `input` checkpoint, then w's step.
  assert.equal(history.length, before + 2);
  assert.deepEqual(
    history.slice(0, 2).map((s) => [s.metadata.source, s.metadata.step]),
    [
      ["loop", 3],
      ["input", 2],
    ],
  );
});

test("a quick node's update streams before a slow parallel subgraph's, each task committed as it settles (LangGraph.js)", async () => {
  const inner = new StateGraph(channels())
    .addNode("slow", async () => (await sleep(30), { log: ["slow"] }))
    .addEdge(START, "slow")
    .compile();
  const graph = new StateGraph(channels())
    .addNode("inner", inner)
    .addNode("quick", () => ({ log: ["quick"] }))
    .addEdge(START, "inner")
    .addEdge(START, "quick")
    .compile({ checkpointer: new MemorySaver() });
  const chunks = await collect(graph.stream({ log: [] }, thread(), { subgraphs: true }));
  const levels = chunks.map(([ns, c]) => [ns.map((l) => l.split(":")[0]).join("|"), Object.keys(c)[0]]);
  assert.deepEqual(levels, [
    ["", "quick"],
    ["inner", "slow"],
    ["", "inner"],
  ]);
});

test("a resumed superstep streams its finished tasks' updates again, marked cached", async () => {
  const graph = new StateGraph(channels())
    .addNode("ask", () => ({ log: [interrupt("ok?")] }))
    .addNode("say", () => ({ log: ["said"] }))
    .addEdge(START, "ask")
    .addEdge(START, "say")
    .compile({ checkpointer: new MemorySaver() });
  const config = thread();
  const first = await collect(graph.stream({ log: [] }, config));
  // The task that threw settles first, its interrupt reported as it commits.
  assert.deepEqual(first.map((c) => Object.keys(c)[0]), ["__interrupt__", "say"]);
  assert.deepEqual(await collect(graph.stream(new Command({ resume: "yes" }), config)), [
    { say: { log: ["said"] }, __metadata__: { cached: true } },
    { ask: { log: ["yes"] } },
  ]);
});

test("streamed from a subgraph's checkpoint config, the breakpoint's interrupt comes in that subgraph's namespace (LangGraph.js)", async () => {
  const inner = new StateGraph(channels())
    .addNode("one", () => ({ log: ["one"] }))
    .addNode("two", () => ({ log: ["two"] }))
    .addEdge(START, "one")
    .addEdge("one", "two")
    .compile({ interruptBefore: ["two"] });
  const graph = new StateGraph(channels()).addNode("inner", inner).addEdge(START, "inner").compile({ checkpointer: new MemorySaver() });
  const config = thread();
  const first = await collect(graph.stream({ log: [] }, config, { subgraphs: true }));
  assert.deepEqual(first.at(-1), [[], { __interrupt__: [] }]);
  const outer = await graph.getState(config);
  const innerHistory = await collect(graph.getStateHistory(outer.tasks[0].state));
  const beforeOne = innerHistory.find((s) => s.next.includes("one"));
  const replay = await collect(graph.stream(null, { ...beforeOne.config, subgraphs: true }));
  const ns = beforeOne.config.configurable.checkpoint_ns.split("|");
  assert.deepEqual(replay.at(-1), [ns, { __interrupt__: [] }]);
});

test("a compiled graph streamed inside a node runs in the node's task, with its own checkpointer too, its chunks in the mode asked (LangGraph.js)", async () => {
  const saver = new MemorySaver();
  const inner = new StateGraph(channels())
    .addNode("step", () => ({ log: ["step"] }))
    .addEdge(START, "step")
    .compile({ checkpointer: saver });
  const graph = new StateGraph({ log: "append", seen: "last_value" })
    .addNode("outer", async (state) => {
      const seen = [];
      for await (const c of await inner.stream({ log: state.log }, { streamMode: "updates" })) seen.push(c);
      return { seen };
    })
    .addEdge(START, "outer")
    .compile({ checkpointer: saver });
  const config = thread();
  const out = await graph.invoke({ log: ["in"] }, config);
  assert.deepEqual(out.seen, [{ step: { log: ["step"] } }]);
  // Its checkpoints are in the task's namespace of the parent's thread.
  const spaces = new Set();
  for await (const t of saver.list(config)) spaces.add(t.config.configurable.checkpoint_ns.split(":")[0]);
  assert.deepEqual([...spaces].sort(), ["", "outer"]);
});

test("a graph compiled with checkpointer: false called inside a node runs on its own: interrupt() there has no checkpointer", async () => {
  const inner = new StateGraph(channels())
    .addNode("ask", () => ({ log: [interrupt("q?")] }))
    .addEdge(START, "ask")
    .compile({ checkpointer: false });
  const graph = new StateGraph(channels())
    .addNode("outer", (state) => inner.invoke({ log: state.log }))
    .addEdge(START, "outer")
    .compile({ checkpointer: new MemorySaver() });
  await assert.rejects(graph.invoke({ log: [] }, thread()), { name: "GraphValueError", message: /^No checkpointer set/ });
});
