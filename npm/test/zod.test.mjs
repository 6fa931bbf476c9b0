// Zod object states (issue 11): `new StateGraph(z.object({...}))` with reducers from
// `withLangGraph` (zod 3) and `.register(registry, ...)` (zod 4) of `chronograph/zod`,
// input parsed by zod, node updates validated, separate input/output schemas.
import { test } from "node:test";
import assert from "node:assert/strict";
import { z as z3 } from "zod/v3";
import * as z4 from "zod/v4";
import { StateGraph, MemorySaver, MessagesZodState, START, END } from "chronograph";
import { withLangGraph, registry } from "chronograph/zod";

const append = (a, b) => a.concat(b);

function chain(schema, node) {
  return new StateGraph(schema).addNode("n", node).addEdge(START, "n").addEdge("n", END).compile({ checkpointer: new MemorySaver() });
}

test("a zod 3 object is a state: withLangGraph gives a reducer and a default", async () => {
  const State = z3.object({ items: withLangGraph(z3.array(z3.string()), { reducer: { fn: append }, default: () => ["start"] }), last: z3.string().optional() });
  const graph = chain(State, (s) => ({ items: [`saw ${s.items.length}`], last: "n" }));
  const out = await graph.invoke({ items: ["a"] }, { configurable: { thread_id: "z3" } });
  assert.deepEqual(out, { items: ["start", "a", "saw 2"], last: "n" });
});

test("a zod 4 registry reducer and a registry default apply", async () => {
  const State = z4.object({ items: z4.array(z4.string()).register(registry, { reducer: { fn: append }, default: () => [] }), tag: z4.string().register(registry, { default: () => "none" }) });
  const graph = chain(State, (s) => ({ items: [s.tag] }));
  assert.deepEqual(await graph.invoke({ items: ["x"] }, { configurable: { thread_id: "z4" } }), { items: ["x", "none"], tag: "none" });
});

test("run input is parsed by zod: unknown keys dropped, a wrong type rejected, nothing stored", async () => {
  const State = z4.object({ count: z4.number() });
  const graph = chain(State, (s) => ({ count: s.count + 1 }));
  assert.deepEqual(await graph.invoke({ count: 1, junk: true }, { configurable: { thread_id: "in" } }), { count: 2 });
  const saver = new MemorySaver();
  const strict = new StateGraph(State).addNode("n", (s) => ({ count: s.count })).addEdge(START, "n").compile({ checkpointer: saver });
  await assert.rejects(strict.invoke({ count: "one" }, { configurable: { thread_id: "bad" } }), (e) => e.name === "ZodError");
  assert.equal((await strict.getState({ configurable: { thread_id: "bad" } })).config.configurable.checkpoint_id, undefined);
});

test("a node's update of a field is validated against the field's schema", async () => {
  const State = z4.object({ count: z4.number().max(10) });
  const graph = chain(State, () => ({ count: 15 }));
  await assert.rejects(graph.invoke({ count: 1 }, { configurable: { thread_id: "upd" } }), (e) => e.name === "ZodError");
});

test("separate input and output schemas: input writes its keys, invoke returns the output's", async () => {
  const Input = z4.object({ question: z4.string() });
  const Output = z4.object({ answer: z4.string() });
  const State = z4.object({ question: z4.string(), answer: z4.string().optional(), notes: z4.string().optional() });
  const graph = new StateGraph({ state: State, input: Input, output: Output })
    .addNode("n", (s) => ({ answer: `re: ${s.question}`, notes: "private" }))
    .addEdge(START, "n")
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "io" } };
  assert.deepEqual(await graph.invoke({ question: "q", notes: "ignored" }, config), { answer: "re: q" });
  assert.deepEqual((await graph.getState(config)).values, { question: "q", answer: "re: q", notes: "private" });
});

test("one key with two different reducers across schemas is LangGraph.js's error", () => {
  const a = z4.object({ xs: z4.array(z4.number()).register(registry, { reducer: { fn: append }, default: () => [] }) });
  const b = z4.object({ xs: z4.array(z4.number()).register(registry, { reducer: { fn: (x, y) => y }, default: () => [] }) });
  assert.throws(() => new StateGraph({ state: a, input: b }), /Channel "xs" already exists with a different type\./);
});

test("MessagesZodState is the chat state (messagesStateReducer, default [])", async () => {
  // A zod `.default()` alone is no channel default in LangGraph.js (only meta's `default` is).
  const graph = chain(MessagesZodState.extend({ turns: z3.number().optional() }), (s) => ({ messages: [{ role: "ai", content: `${s.messages.length}` }], turns: (s.turns ?? 0) + 1 }));
  const out = await graph.invoke({ messages: [{ role: "user", content: "hi", id: "h1" }] }, { configurable: { thread_id: "m" } });
  assert.equal(out.messages.length, 2);
  assert.equal(out.turns, 1);
});

test("chronograph/zod gives zod 3 schemas LangGraph.js's .langgraph.reducer() and .metadata()", async () => {
  // A process of its own: LangGraph.js's plugin (loaded by other tests) would have patched zod first.
  const program = `
    import { z as z3 } from "zod/v3";
    import { z as z4 } from "zod/v4";
    import { StateGraph, START } from "chronograph";
    import "chronograph/zod";
    import { getConfigTypeSchema } from "chronograph/zod/schema";
    const out = {};
    // zod 4 schemas do not inherit zod 4's ZodType.prototype, where LangGraph.js's plugin (and this one) goes:
    // there, as in LangGraph.js, .langgraph is undefined (use withLangGraph or .register(registry, meta)).
    out.v4 = typeof z4.string().langgraph;
    for (const [name, z] of [["v3", z3]]) {
      const state = z.object({
        foo: z.string(),
        items: z.array(z.string()).default(() => ["default"]).langgraph.reducer((a, b) => a.concat(b), z.array(z.string())),
      });
      const context = z.object({ prompt: z.string().langgraph.metadata({ langgraph_type: "prompt" }) });
      const graph = new StateGraph(state, context).addNode("a", () => ({ items: ["a"] })).addEdge(START, "a").compile();
      out[name] = { result: await graph.invoke({ foo: "x" }, { configurable: { prompt: "p" } }), prompt: getConfigTypeSchema(graph).properties.prompt };
    }
    console.log(JSON.stringify(out));
  `;
  const { spawnSync } = await import("node:child_process");
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", program], { cwd: new URL(".", import.meta.url), encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  const want = { result: { foo: "x", items: ["default", "a"] }, prompt: { type: "string", langgraph_type: "prompt" } };
  assert.deepEqual(JSON.parse(run.stdout), { v4: "undefined", v3: want });
});
