// Errors: every bad input gets a real Error with a `name`, a machine-readable
// `code` and LangGraph.js's text (or a message naming the bad argument);
// nothing surfaces as a wasm trap or a thrown string.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ChronographError,
  Command,
  EmptyInputError,
  END,
  GraphRecursionError,
  GraphSpecError,
  GraphValueError,
  InvalidUpdateError,
  MemorySaver,
  MessagesAnnotation,
  messagesStateReducer,
  Send,
  START,
  StateGraph,
  StateGraphInputError,
  UnreachableNodeError,
} from "chronograph";
import { collect } from "./support.mjs";

/** Asserts that `run` throws (or rejects with) an Error of `cls` with `name`, `code` and a message matching `message`. */
async function fails(run, cls, name, code, message) {
  let error;
  try {
    await run();
  } catch (e) {
    error = e;
  }
  assert.ok(error !== undefined, "expected an error");
  assert.ok(error instanceof Error, `a real Error, got ${typeof error}: ${error}`);
  assert.ok(error instanceof cls, `an instance of ${cls.name}, got ${error.constructor.name}`);
  assert.equal(error.name, name);
  assert.equal(error.code, code);
  if (typeof message === "string") assert.equal(error.message, message);
  else assert.match(error.message, message);
  assert.doesNotMatch(error.message, /unreachable|null pointer|recursive use/);
  return error;
}

const chat = () =>
  new StateGraph({ messages: "add_messages", x: "last_value" })
    .addNode("a", () => ({ x: 1 }))
    .addNode("b", () => ({ x: 2 }))
    .addEdge(START, "a")
    .addEdge(START, "b");
const cfg = { configurable: { thread_id: "errors" } };

test("builder arguments are validated and named", async () => {
  const T = TypeError;
  const A = "INVALID_ARGUMENT";
  // What is no object at all gets LangGraph.js's StateGraphInputError (its fixed text).
  for (const state of [42, undefined, null, "state", [1]]) {
    await fails(() => new StateGraph(state), StateGraphInputError, "StateGraphInputError", A, "Invalid StateGraph input. Make sure to pass a valid StateDefinition, Annotation.Root, or Zod schema.");
  }
  await fails(() => new StateGraph({ x: "max" }), T, "TypeError", A, 'channels.x must be "last_value", "append", "sum", "add_messages", "untracked" or {reducer, default}, got "max"');
  await fails(() => new StateGraph({ x: { reducer: 5 } }), T, "TypeError", A, "channels.x.reducer must be a function, got the number 5");
  await fails(() => new StateGraph({ x: { reducer: (a, b) => b, default: [] } }), T, "TypeError", A, "channels.x.default must be a function, got an array");
  await fails(() => new StateGraph({}).addNode(5, () => ({})), T, "TypeError", A, "addNode(name, fn): name must be a string, got the number 5");
  await fails(() => new StateGraph({}).addNode("a", "nope"), T, "TypeError", A, 'addNode("a", fn): fn must be a function, got the string "nope"');
  await fails(() => new StateGraph({}).addEdge(null, "a"), T, "TypeError", A, /addEdge\(from, to\): from must be a node name/);
  await fails(() => new StateGraph({}).addEdge("a", ["b"]), T, "TypeError", A, "addEdge(from, to): to must be a string, got an array");
  await fails(() => new StateGraph({}).addConditionalEdges("a", "b"), T, "TypeError", A, 'addConditionalEdges(from, router, pathMap): router must be a function, got the string "b"');
  await fails(() => new StateGraph({}).addConditionalEdges("a", () => "b", 3), T, "TypeError", A, /pathMap: invalid type/);
  await fails(() => chat().compile({ checkpointer: {} }), T, "TypeError", A, "compile(options): options.checkpointer must be a MemorySaver, a LangGraph.js checkpointer (getTuple, list, put, putWrites), true or false");
  await fails(() => chat().compile({ interruptBefore: 1 }), T, "TypeError", A, "compile(options): interruptBefore must be a string or an array of strings, got the number 1");
});

test("graph mistakes are reported by compile with LangGraph's texts", async () => {
  // LangGraph.js's validate() throws plain Errors; a duplicate or reserved node name fails in addNode.
  const V = Error;
  await fails(() => chat().addEdge("a", "nowhere").compile(), V, "Error", "INVALID_GRAPH", "Found edge ending at unknown node `nowhere`");
  await fails(() => chat().addNode("a", () => ({})), V, "Error", "INVALID_GRAPH", "Node `a` already present.");
  // LangGraph.js checks reachability before (instead of) an entry point.
  await fails(() => new StateGraph({ x: null }).addNode("a", () => ({})).compile(), UnreachableNodeError, "UnreachableNodeError", "UNREACHABLE_NODE", /^Node `a` is not reachable\./);
  await fails(() => chat().compile({ interruptBefore: ["zz"] }), V, "Error", "INVALID_GRAPH", "Interrupt node `zz` not found");
  await fails(() => StateGraph.fromSpec({ nodes: { a: { writes: [{ sett: {} }] } } }), GraphSpecError, "GraphSpecError", "INVALID_SPEC", /^nodes\.a\.writes\[0\]\.sett: unknown field `sett`/);
});

test("run inputs and configs are validated and named", async () => {
  const graph = chat().compile({ checkpointer: new MemorySaver() });
  const T = TypeError;
  const A = "INVALID_ARGUMENT";
  await fails(() => graph.invoke(42, cfg), T, "TypeError", A, "input must be an object of channel values, null, or a Command, got the number 42");
  await fails(() => graph.invoke({ x: 2n ** 70n }, cfg), T, "TypeError", "INVALID_VALUE", /^input\.x: a BigInt outside the safe integer range/);
  await fails(() => graph.invoke({}, "t1"), T, "TypeError", A, 'config must be an object like {configurable: {thread_id: "1"}}, got the string "t1"');
  await fails(() => graph.invoke({}, { configurable: 5 }), T, "TypeError", A, "config.configurable must be an object, got the number 5");
  await fails(() => graph.invoke({}, { configurable: { thread_id: [1] } }), T, "TypeError", A, "config.configurable.thread_id must be a string or a number, got an array");
  await fails(() => graph.invoke({}, { configurable: { thread_id: "t", checkpoint_id: 7 } }), T, "TypeError", A, "config.configurable.checkpoint_id must be a string, got the number 7");
  await fails(() => graph.invoke({}, { ...cfg, recursionLimit: "lots" }), T, "TypeError", A, 'config.recursionLimit must be an integer, got the string "lots"');
  await fails(() => graph.getState(null), GraphValueError, "GraphValueError", "MISSING_THREAD_ID", "Checkpointer requires one or more of the following 'configurable' keys: thread_id, checkpoint_ns, checkpoint_id");
  await fails(() => collect(graph.getStateHistory(cfg, { limit: -1 })), T, "TypeError", A, /limit must not be negative/);
  await fails(() => collect(graph.stream({}, cfg, { streamMode: "bogus" })), T, "TypeError", A, /streamMode "bogus" is not supported/);
  await fails(() => graph.updateState(cfg, { x: 1 }, 3), T, "TypeError", A, "updateState(config, values, asNode): asNode must be a string, got the number 3");
  await fails(() => graph.bulkUpdateState(cfg, [{ updates: "x" }]), T, "TypeError", A, /supersteps\[0\]\.updates must be an array/);
  await fails(() => graph.invoke(new Command({ goto: [{ node: "a" }] }), cfg), T, "TypeError", A, /Command\.goto must be a node name/);
  await fails(() => graph.invoke(new Command({ goto: "zz" }), cfg), T, "TypeError", A, 'Command.goto names an unknown node "zz" (nodes: a, b)');
  await fails(() => graph.invoke(new Command({ goto: "a", graph: Command.PARENT }), cfg), InvalidUpdateError, "InvalidUpdateError", "INVALID_UPDATE", "There is no parent graph.");
  await fails(() => graph.invoke(new Command({ goto: "a", graph: 7 }), cfg), T, "TypeError", A, 'Command.graph must be Command.PARENT ("__parent__") or undefined, got the number 7');
  assert.throws(() => new Send(3, {}), { name: "TypeError", code: A, message: "new Send(node, args): node must be a string, got a number" });
});

test("engine errors are instances of the package's classes", async () => {
  const e = await fails(() => chat().compile({ checkpointer: new MemorySaver() }).invoke({}, { configurable: { thread_id: "cls" } }), InvalidUpdateError, "InvalidUpdateError", "INVALID_UPDATE", /^Invalid update for channel "x" with values \[1,2\]: LastValue can only receive one value per step\./);
  assert.ok(e instanceof ChronographError);
  assert.match(e.stack, /InvalidUpdateError/);
});

test("engine errors carry LangGraph.js's names, codes and texts", async () => {
  const graph = chat().compile({ checkpointer: new MemorySaver() });
  const t = (id) => ({ configurable: { thread_id: id } });
  await fails(() => graph.invoke({ messages: [] }, t("e1")), InvalidUpdateError, "InvalidUpdateError", "INVALID_UPDATE", /^Invalid update for channel "x" with values \[1,2\]: LastValue can only receive one value per step\.\n\nTroubleshooting URL: https:\/\/docs\.langchain\.com\/oss\/javascript\/langgraph\/INVALID_CONCURRENT_GRAPH_UPDATE\/\n$/);
  const noChain = new StateGraph({ x: "last_value" }).addNode("a", () => ({ x: 1 })).addEdge(START, "a").compile({ checkpointer: new MemorySaver() });
  await noChain.invoke({ x: 0 }, t("e2"));
  await fails(() => noChain.updateState(t("e2"), { x: 5 }, "zz"), InvalidUpdateError, "InvalidUpdateError", "INVALID_UPDATE", 'Node "zz" does not exist');
  const par = new StateGraph({ log: "append" })
    .addNode("p", () => ({ log: ["p"] }))
    .addNode("q", () => ({ log: ["q"] }))
    .addEdge(START, "p")
    .addEdge(START, "q")
    .compile({ checkpointer: new MemorySaver() });
  await par.invoke({ log: [] }, t("e3"));
  await fails(() => par.updateState(t("e3"), { log: ["?"] }), InvalidUpdateError, "InvalidUpdateError", "INVALID_UPDATE", 'Ambiguous update, specify "asNode"');
  await fails(() => par.bulkUpdateState(t("e3"), [{ updates: [{ values: { log: ["1"] } }, { values: { log: ["2"] } }] }]), InvalidUpdateError, "InvalidUpdateError", "INVALID_UPDATE", '"asNode" is required when applying multiple updates');
  await fails(() => par.invoke(new Command({}), t("e3")), EmptyInputError, "EmptyInputError", "EMPTY_INPUT", "Received empty Command input");
  await fails(() => par.invoke(null, t("fresh")), EmptyInputError, "EmptyInputError", "EMPTY_INPUT", `Received no input writes for "__start__"`);
  const loop = new StateGraph({ n: "sum" })
    .addNode("spin", () => ({ n: 1 }))
    .addEdge(START, "spin")
    .addEdge("spin", "spin")
    .compile();
  const e = await fails(() => loop.invoke({ n: 0 }, { recursionLimit: 5 }), GraphRecursionError, "GraphRecursionError", "GRAPH_RECURSION_LIMIT", /^Recursion limit of 5 reached without hitting a stop condition\. You can increase the limit by setting the "recursionLimit" config key\.\n\nTroubleshooting URL: https:\/\/docs\.langchain\.com\/oss\/javascript\/langgraph\/GRAPH_RECURSION_LIMIT\/\n$/);
  assert.equal(e.lc_error_code, "GRAPH_RECURSION_LIMIT");
  await fails(() => loop.invoke({ n: 0 }, { recursionLimit: 0 }), GraphValueError, "GraphValueError", "INVALID_VALUE", '"recursionLimit" must be at least 1');
  await fails(() => loop.getState(t("x")), GraphValueError, "GraphValueError", "MISSING_CHECKPOINTER", "No checkpointer set\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langgraph/MISSING_CHECKPOINTER/\n");
  // RuntimeError has no class of its own in LangGraph.js: a plain Error named RuntimeError.
  await fails(() => loop.invoke(new Command({ resume: 1 }), t("x")), Error, "RuntimeError", "INVALID_OPERATION", "Cannot use Command(resume=...) without checkpointer");
  const sum = new StateGraph({ n: "sum" }).addNode("a", () => ({ n: "one" })).addEdge(START, "a").compile();
  await fails(() => sum.invoke({ n: 1 }), TypeError, "TypeError", "INVALID_VALUE_TYPE", "unsupported operand type(s) for +: 'int' and 'str'");
});

test("bad node and router results are errors naming the node", async () => {
  const returns = (value) => new StateGraph({ x: "last_value" }).addNode("n", () => value).addEdge(START, "n").compile();
  const e = await fails(() => returns(42).invoke({ x: 0 }), InvalidUpdateError, "InvalidUpdateError", "INVALID_UPDATE", /^Expected node "n" to return an object or an array containing at least one Command object, received number\n/);
  assert.equal(e.node, "n");
  await fails(
    () => returns(new Command({ goto: [5] })).invoke({ x: 0 }),
    InvalidUpdateError,
    "InvalidUpdateError",
    "INVALID_UPDATE",
    'Node "n" returned an invalid Command: Command.goto must be a node name, a Send, or an array of them, got the number 5',
  );
  await fails(
    () => returns({ lg_name: "Command", graph: 3 }).invoke({ x: 0 }),
    InvalidUpdateError,
    "InvalidUpdateError",
    "INVALID_UPDATE",
    'Node "n" returned an invalid Command: Command.graph must be Command.PARENT ("__parent__") or undefined, got the number 3',
  );
  const cyclic = {};
  cyclic.self = cyclic;
  await fails(() => returns(new Command({ update: { x: cyclic } })).invoke({ x: 0 }), TypeError, "TypeError", "INVALID_VALUE", /^Command\.update\.x\.self: the value contains itself/);
  // A Command for the parent graph from the root graph: LangGraph's ParentCommand (a plain Error of that name).
  await fails(
    () => returns(new Command({ update: { x: 1 }, goto: "n", graph: Command.PARENT })).invoke({ x: 0 }),
    Error,
    "ParentCommand",
    "PARENT_COMMAND",
    "Command(update={'x': 1}, goto='n')",
  );
  const toEnd = new StateGraph({ x: "last_value" })
    .addNode("n", () => ({}))
    .addEdge(START, "n")
    .addConditionalEdges("n", () => [new Send(END, {})])
    .compile();
  await fails(() => toEnd.invoke({ x: 0 }), InvalidUpdateError, "InvalidUpdateError", "INVALID_UPDATE", "Cannot send a packet to the END node");
  const badSend = new StateGraph({ x: "last_value" })
    .addNode("n", () => ({}))
    .addEdge(START, "n")
    .addConditionalEdges("n", () => [{ lg_name: "Send", node: 7, args: {} }])
    .compile();
  await fails(() => badSend.invoke({ x: 0 }), GraphValueError, "GraphValueError", "INVALID_VALUE", /^Branch condition returned unknown or null destination: the router of "n" returned an array/);
  const router = new StateGraph({ x: "last_value" })
    .addNode("n", () => ({}))
    .addEdge(START, "n")
    .addConditionalEdges("n", () => undefined)
    .compile();
  await fails(() => router.invoke({ x: 0 }), GraphValueError, "GraphValueError", "INVALID_VALUE", /^Branch condition returned unknown or null destination: the router of "n" returned undefined/);
  const asyncReducer = new StateGraph({ x: { reducer: async (a, b) => b } }).addNode("n", () => ({ x: 1 })).addEdge(START, "n").compile();
  await fails(() => asyncReducer.invoke({ x: 0 }), TypeError, "TypeError", "INVALID_VALUE_TYPE", "A reducer returned a Promise; reducers must be synchronous");
});

test("saver arguments and imports are validated", async () => {
  const saver = new MemorySaver();
  await fails(() => saver.deleteThread(5), TypeError, "TypeError", "INVALID_ARGUMENT", "deleteThread(threadId): threadId must be a string, got the number 5");
  await fails(() => saver.putWrites(cfg, "x", "t"), TypeError, "TypeError", "INVALID_ARGUMENT", /^putWrites\(config, writes, taskId\): writes: invalid type/);
  await fails(() => saver.importThread({ format: "other", thread_id: "t", namespaces: [] }), GraphValueError, "GraphValueError", "INVALID_EXPORT", 'Unsupported thread export format "other" (expected "chronograph.thread.v1")');
  await fails(() => saver.importThread({ thread_id: "t" }), TypeError, "TypeError", "INVALID_ARGUMENT", /^importThread\(data\): data: missing field `format`/);
});

test("errors LangGraph.js throws as a plain Error keep its class and text, with a code", async () => {
  const graph = new StateGraph({ x: "last_value" }).addNode("n", () => ({})).addEdge(START, "n").compile();
  await fails(() => graph.batch([{ x: 1 }, { x: 2 }], [{}, {}, {}]), Error, "Error", "INVALID_ARGUMENT", 'Passed "options" must be an array with the same length as the inputs, but got 3 options for 2 inputs');
  await fails(() => new StateGraph({ x: "last_value" }).addNode("n", () => ({}), { timeout: -5 }), Error, "Error", "INVALID_ARGUMENT", /must be greater than 0$/);
  const remove = new StateGraph(MessagesAnnotation)
    .addNode("n", () => ({ messages: [{ type: "remove", id: "nope" }] }))
    .addEdge(START, "n")
    .compile();
  const text = "Attempting to delete a message with an ID that doesn't exist ('nope')";
  await fails(() => remove.invoke({ messages: [] }), Error, "Error", "MESSAGE_NOT_FOUND", text);
  await fails(() => messagesStateReducer([], [{ type: "remove", id: "nope" }]), Error, "Error", "MESSAGE_NOT_FOUND", text);
});
