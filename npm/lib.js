// The public API of the `chronograph` package: LangGraph.js shapes over the
// raw wasm-bindgen classes of core/src/wasm/ (async methods, async
// iterables, `new Command({...})`, `interrupt()`, chaining builders).
// Shared by the Node entry (node.js) and the browser entry (browser.js),
// which load the wasm module and then call `setup`.
import * as raw from "./wasm/chronograph.js";

/** The entry of every graph. */
export const START = "__start__";
/** The exit of every graph. */
export const END = "__end__";
/** `asNode` value that makes `updateState` behave like new input. */
export const INPUT = "__input__";
/** `asNode` value that makes `updateState` copy a checkpoint (a sibling). */
export const COPY = "__copy__";

const RAW = Symbol("chronograph.raw");
const TASK = Symbol("chronograph.task");

/** Base class of the errors the engine raises. */
export class ChronographError extends Error {
  constructor(message) {
    super(message);
    this.name = "ChronographError";
  }
}

function errorClass(name) {
  const cls = class extends ChronographError {
    constructor(message) {
      super(message);
      this.name = name;
    }
  };
  Object.defineProperty(cls, "name", { value: name });
  return cls;
}

/** An update the graph cannot accept (code `INVALID_UPDATE`, ...). */
export const InvalidUpdateError = errorClass("InvalidUpdateError");
/** A run used up its `recursionLimit` (code `GRAPH_RECURSION_LIMIT`). */
export const GraphRecursionError = errorClass("GraphRecursionError");
/** A run started with nothing to do (code `EMPTY_INPUT`). */
export const EmptyInputError = errorClass("EmptyInputError");
/** A bad value or configuration (codes `MISSING_CHECKPOINTER`, `INVALID_GRAPH`, ...). */
export const GraphValueError = errorClass("GraphValueError");
/** A malformed graph document given to `StateGraph.fromSpec` (code `INVALID_SPEC`). */
export const GraphSpecError = errorClass("GraphSpecError");
/** Thrown by `interrupt()` to pause a node; let it propagate (code `GRAPH_INTERRUPT`). */
export const GraphInterrupt = errorClass("GraphInterrupt");
/**
 * A call that changes a thread found the thread busy (code `THREAD_BUSY`):
 * with `multitaskStrategy: "reject"` while another run or update of the
 * thread is in flight or queued, or when a node calls it on its own thread.
 */
export const ThreadBusyError = errorClass("ThreadBusyError");

function argumentError(message, cause) {
  const e = new TypeError(message, cause === undefined ? undefined : { cause });
  e.code = "INVALID_ARGUMENT";
  return e;
}

/**
 * `obj[key]` for an options object the caller passed (`undefined` when
 * `obj` is `null` or `undefined`): a getter or Proxy trap that throws
 * becomes an `INVALID_ARGUMENT` TypeError naming `what`, with the thrown
 * value as its `cause`, like every other error of the package.
 */
function option(obj, key, what) {
  if (obj == null) return undefined;
  try {
    return obj[key];
  } catch (e) {
    throw argumentError(`${what}.${String(key)}: reading it threw ${thrownText(e)}`, e);
  }
}

function hide(target, key, value) {
  Object.defineProperty(target, key, { value, enumerable: false });
  return target;
}

let storage = null;
let current = null;

/**
 * Called once by the entry module after the wasm module is loaded.
 * `asyncStorage` is Node's AsyncLocalStorage (null in browsers): with it,
 * `interrupt()` finds its node across `await`s.
 */
export function setup(asyncStorage) {
  storage = asyncStorage;
  raw.registerUpdateText(updateText);
  raw.registerDefineLazy(defineLazy);
  raw.registerErrorClasses({
    InvalidUpdateError,
    GraphRecursionError,
    EmptyInputError,
    GraphValueError,
    GraphSpecError,
    GraphInterrupt,
    ThreadBusyError,
  });
}

/**
 * LangGraph's `Send`: run `node` once in the next superstep, given `args`
 * instead of the state (a map-reduce fan-out). Return Sends from a router
 * (mixed with node names) or in a `Command`'s `goto`.
 */
export class Send {
  constructor(node, args) {
    if (typeof node !== "string") {
      throw argumentError(`new Send(node, args): node must be a string, got ${describe(node)}`);
    }
    this.lg_name = "Send";
    this.node = node;
    this.args = args;
  }

  toJSON() {
    return { lg_name: this.lg_name, node: this.node, args: this.args };
  }
}

/**
 * LangGraph's `Command`: resume an interrupt (`resume`), update state
 * (`update`), go to nodes or Sends (`goto`). Pass it as `invoke`'s input,
 * or return it from a node (its update plus where to go next, in addition
 * to the node's edges; `graph: Command.PARENT` addresses the graph that
 * runs this one as a subgraph).
 */
export class Command {
  constructor(args = {}) {
    if (args === null || (typeof args !== "object" && typeof args !== "function")) {
      throw argumentError(`new Command(args): args must be an object like {resume, update, goto}, got ${describe(args)}`);
    }
    const resume = option(args, "resume", "new Command(args): args");
    const update = option(args, "update", "new Command(args): args");
    const goto = option(args, "goto", "new Command(args): args");
    const graph = option(args, "graph", "new Command(args): args");
    this.lg_name = "Command";
    if (resume !== undefined) this.resume = resume;
    if (update !== undefined) this.update = update;
    if (graph !== undefined) this.graph = graph;
    // As LangGraph.js: always a list.
    this.goto = goto === undefined || goto === null ? [] : isArray(goto) ? goto : [goto];
  }

  /** `graph` value addressing the graph that runs this one as a subgraph. */
  static PARENT = "__parent__";
}

/**
 * Pauses the running node with `value`; on resume (`new Command({resume})`)
 * the node runs again from its first line and this call returns the answer.
 * In Node it works anywhere in a node, also after `await`. In a browser it
 * finds its node only before the node's first `await`; after one, pass the
 * node's config: `interrupt(value, config)`.
 */
export function interrupt(value, config) {
  const task = option(config, TASK, "interrupt(value, config): config") ?? (storage?.getStore() ?? current)?.task;
  if (task == null) {
    const e = new GraphValueError(
      "Called interrupt() outside the context of a graph. In a browser, call it before the node's first await, or pass the node's config: interrupt(value, config).",
    );
    e.code = "INTERRUPT_OUTSIDE_NODE";
    throw e;
  }
  return raw.taskInterrupt(task, value);
}

/**
 * Whether `v` is JSON data that `JSON.stringify` + the engine's JSON
 * parser read exactly as the bindings' field-by-field conversion does:
 * strings, booleans, null, safe integers (not other numbers: the parser
 * may round a decimal text), arrays without holes, and objects whose
 * prototype is Object.prototype or null. Anything else (undefined,
 * functions, class instances, Dates, deep or cyclic values) is left to
 * the field-by-field conversion, which also reports what is not plain data.
 */
function plainJson(v, depth) {
  switch (typeof v) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isSafeInteger(v);
    case "object": {
      if (v === null) return true;
      if (depth > 64) return false;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!plainJson(v[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const k of Object.keys(v)) if (!plainJson(v[k], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

/**
 * A node's result as JSON text when it is a plain object of plain JSON
 * data (the usual update), else undefined (core/src/wasm/node.rs
 * `registerUpdateText`): one `JSON.stringify` costs less than a
 * wasm crossing per field. A `Command` (anything with `lg_name`) is left to
 * the bindings, which read its fields.
 */
function updateText(v) {
  if (v === null || typeof v !== "object" || Array.isArray(v) || v.lg_name !== undefined) return undefined;
  return plainJson(v, 0) ? JSON.stringify(v) : undefined;
}

const INSPECT = Symbol.for("nodejs.util.inspect.custom");
/** What a state object's inspect method is asked for its token (util.inspect passes a number). */
const TOKEN = Symbol("chronograph.lazyToken");

/**
 * Releases the engine's values behind a collected state object's lazy
 * properties that were never read (core/src/wasm/state_cache.rs).
 */
const lazyStates = new FinalizationRegistry((token) => raw.releaseState(token));

/** A copy of a state object with every value read (so converted), in key order. */
function materialize(state) {
  const out = {};
  for (const key of Object.keys(state)) out[key] = state[key];
  return out;
}

/**
 * Called by the engine while it builds the state object a node or router
 * is handed (core/src/wasm/state_cache.rs `registerDefineLazy`): a list
 * channel whose JS array is not current becomes a lazy property, in its
 * place among the keys and enumerable like a data property. Its first read
 * converts it (`raw.lazyChannel`) and its assignment drops it unconverted
 * (`raw.dropLazyChannel`); either turns it into a plain writable data
 * property. `token` names the object's lazy values in the engine; the first
 * lazy property (`index` 0) also registers the object for the release of
 * what was never read, and gives it a non-enumerable `util.inspect` method
 * (so that `console.log` shows values, not getters), which is also where
 * the shared accessors find the token: a closure per object costs less
 * than a closure pair per property (whose fresh accessors also defeat
 * V8's shape caching) or a WeakMap entry.
 */
function defineLazy(obj, key, token, index) {
  if (index === 0) {
    lazyStates.register(obj, token);
    Object.defineProperty(obj, INSPECT, {
      value(depth) {
        return depth === TOKEN ? token : materialize(this);
      },
    });
  }
  Object.defineProperty(obj, key, lazyAccessor(lazyStateKind, key));
}

/** How a lazy state property reads and drops its value: through the object's token. */
const lazyStateKind = {
  descriptors: new Map(),
  read(target, key) {
    const t = stateToken(target);
    return typeof t === "number" ? raw.lazyChannel(t, key) : undefined;
  },
  drop(target, key) {
    const t = stateToken(target);
    if (typeof t === "number") raw.dropLazyChannel(t, key);
  },
};

function stateToken(target) {
  const inspect = target[INSPECT];
  return typeof inspect === "function" ? inspect(TOKEN) : undefined;
}

/**
 * The accessor pair of lazy property `key` of one `kind` of object (a node's
 * state, a listed item), shared by every such object: a pair per object
 * made a listing measurably slower, and fresh accessors defeat V8's shape
 * caching. The first read takes the value from `kind.read`, an assignment
 * releases it with `kind.drop`; either turns the property into a plain
 * writable data property in the same place among the keys.
 */
function lazyAccessor(kind, key) {
  let descriptor = kind.descriptors.get(key);
  if (descriptor) return descriptor;
  const settle = (target, value) =>
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  descriptor = {
    enumerable: true,
    configurable: true,
    get() {
      const value = kind.read(this, key);
      settle(this, value);
      return value;
    },
    set(value) {
      kind.drop(this, key);
      settle(this, value);
    },
  };
  kind.descriptors.set(key, descriptor);
  return descriptor;
}

/** A copy of JSON data (the run's config is JSON), so no two node calls share an object. */
function copyJson(v) {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(copyJson);
  const out = {};
  for (const k of Object.keys(v)) out[k] = copyJson(v[k]);
  return out;
}

/**
 * A JS node as the bindings call it (core/src/wasm/node.rs): `base` is the
 * run's config, converted once per run, with `metadata.langgraph_node`,
 * `langgraph_step` and `langgraph_task_id` already in their places (null);
 * each call gets its own copy with them filled in, as LangGraph.js's nodes do.
 * `task` is the running task's number (core/src/wasm/task.rs), kept where
 * `interrupt()` finds it and hands it back to the engine.
 */
function wrapNode(fn) {
  return (state, base, task, node, step, taskId) => {
    const config = copyJson(base);
    const metadata = config.metadata;
    metadata.langgraph_node = node;
    metadata.langgraph_step = step;
    metadata.langgraph_task_id = taskId;
    hide(config, TASK, task);
    // What `interrupt()` and the thread queues (`onThread`) look up: the
    // task, and the thread its run is on.
    const running = { task, thread: threadKey(config.configurable.thread_id) };
    const previous = current;
    current = running;
    try {
      return storage ? storage.run(running, fn, state, config) : fn(state, config);
    } finally {
      current = previous;
    }
  };
}

/**
 * One call at a time per thread: checkpointer → thread id → `{ tail,
 * pending }`, the settling of the last call queued on the thread and how
 * many are in flight or waiting. A thread with nothing in flight has no
 * entry.
 */
const lanes = new WeakMap();

/** `thread_id` as the engine reads it (a string, or a number as text); `undefined` for none. */
function threadKey(id) {
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}

/** `config.configurable.thread_id` and `config.multitaskStrategy`, read without letting a throw through. */
function laneOptions(config) {
  try {
    if (config === null || typeof config !== "object") return {};
    return { thread: threadKey(config.configurable?.thread_id), strategy: config.multitaskStrategy };
  } catch {
    return {};
  }
}

/**
 * Runs `op` (a call that changes thread `thread` of `saver` and returns a
 * Promise) once every call queued on that thread before it has settled:
 * runs, `updateState`, `bulkUpdateState` and the saver's writes of one
 * thread never interleave. With `strategy` `"reject"` a busy thread
 * rejects the call at once with a `ThreadBusyError`. A call from inside a
 * node of a run on the same thread is rejected too (it would wait for that
 * run, which waits for the node, forever); Node sees such a call anywhere
 * in the node, browsers only before the node's first `await`. Calls
 * without a checkpointer or a thread go straight through (the engine
 * reports what is missing).
 */
function onThread(saver, thread, strategy, what, op) {
  if (strategy !== undefined && strategy !== "enqueue" && strategy !== "reject") {
    return Promise.reject(
      argumentError(`${what}: config.multitaskStrategy must be "enqueue" (the default) or "reject", got ${describe(strategy)}`),
    );
  }
  if (saver == null || thread === undefined) return op();
  let threads = lanes.get(saver);
  if (threads === undefined) lanes.set(saver, (threads = new Map()));
  const lane = threads.get(thread);
  if (lane !== undefined) {
    const inside = (storage?.getStore() ?? current)?.thread === thread;
    if (inside || strategy === "reject") {
      const why = inside
        ? "it was called from inside a node of a run on the same thread, which would wait for that run forever"
        : 'another run or update of the thread is in flight (multitaskStrategy: "reject")';
      const e = new ThreadBusyError(`${what}: thread ${JSON.stringify(thread)} is busy: ${why}`);
      e.code = "THREAD_BUSY";
      return Promise.reject(e);
    }
  }
  // An idle thread runs the call at once (no extra turn of the event loop).
  const run = lane === undefined ? op() : lane.tail.then(op, op);
  const entry = lane ?? { tail: undefined, pending: 0 };
  entry.pending++;
  const done = () => {
    if (--entry.pending === 0 && threads.get(thread) === entry) threads.delete(thread);
  };
  entry.tail = Promise.resolve(run).then(done, done);
  threads.set(thread, entry);
  return run;
}

/** An optional boolean option (`undefined` and `null` are `false`). */
function flag(v, what) {
  if (v == null) return false;
  if (typeof v !== "boolean") throw argumentError(`${what} must be a boolean, got ${describe(v)}`);
  return v;
}

/** A thrown value in a message: an Error's `name: message`, else its type. */
function thrownText(e) {
  try {
    return isInstance(e, Error) ? `${e.name}: ${e.message}` : typeof e === "string" ? JSON.stringify(e) : `a ${typeof e}`;
  } catch {
    return "an unreadable value";
  }
}

/** `v instanceof cls`; a revoked Proxy (on which it throws) is no instance. */
function isInstance(v, cls) {
  try {
    return v instanceof cls;
  } catch {
    return false;
  }
}

/** `Array.isArray(v)`; a revoked Proxy (on which it throws) is no array. */
function isArray(v) {
  try {
    return Array.isArray(v);
  } catch {
    return false;
  }
}

/** A short description of a JS value for argument errors. */
function describe(v) {
  if (typeof v === "string") return `the string ${JSON.stringify(v)}`;
  if (v === null) return "null";
  return typeof v === "object" ? (isArray(v) ? "an array" : "an object") : `a ${typeof v}`;
}

/**
 * A graph builder. `channels` maps each state key to its reducer:
 * `"last_value"` (default), `"append"`, `"sum"`, `"add_messages"`, or
 * `{ reducer: (current, update) => next, default?: () => initial }`.
 */
export class StateGraph {
  constructor(channels) {
    hide(this, RAW, new raw.WasmStateGraph(channels));
  }

  /** A builder from the JSON graph format (tests/conformance/FORMAT.md). */
  static fromSpec(spec) {
    return hide(Object.create(StateGraph.prototype), RAW, raw.WasmStateGraph.fromSpec(spec));
  }

  /**
   * Adds a node: `fn(state, config)` returns an update object or a
   * `Command` (or a Promise of either); or a compiled graph, which runs as
   * a subgraph. `options.ends` lists where a returned `Command` may go
   * (drawn as conditional edges; `compile` checks that they exist).
   */
  addNode(name, action, options) {
    if (options != null && typeof options !== "object") {
      throw argumentError(`addNode(name, action, options): options must be an object like {ends}, got ${describe(options)}`);
    }
    const ends = option(options, "ends", "addNode(name, action, options): options");
    if (isInstance(action, CompiledStateGraph)) this[RAW].addSubgraph(name, action[RAW], ends);
    else this[RAW].addNode(name, typeof action === "function" ? wrapNode(action) : action, ends);
    return this;
  }

  /** Adds an edge; with several sources, `to` waits for all of them (a join). */
  addEdge(from, to) {
    this[RAW].addEdge(from, to);
    return this;
  }

  /**
   * Adds a conditional edge: `router(state)` returns a node name, a `Send`,
   * or an array of them (or a Promise of that).
   */
  addConditionalEdges(from, router, pathMap) {
    this[RAW].addConditionalEdges(from, router, pathMap);
    return this;
  }

  /** Validates and compiles: `{ checkpointer, interruptBefore, interruptAfter }`. */
  compile(options = {}) {
    if (options === null || typeof options !== "object") {
      throw argumentError(`compile(options): options must be an object, got ${typeof options}`);
    }
    const what = "compile(options): options";
    const checkpointer = option(options, "checkpointer", what);
    const interruptBefore = option(options, "interruptBefore", what);
    const interruptAfter = option(options, "interruptAfter", what);
    if (checkpointer != null && !isInstance(checkpointer, MemorySaver)) {
      throw argumentError("compile(options): options.checkpointer must be a MemorySaver");
    }
    const compiled = this[RAW].compile(checkpointer?.[RAW].share(), interruptBefore, interruptAfter);
    return hide(new CompiledStateGraph(compiled), "checkpointer", checkpointer ?? undefined);
  }
}

/** An async iterator over chunks pushed by a run, ending with the run. */
function chunkIterator(start) {
  const queue = [];
  let head = 0;
  let finished = false;
  let failure = null;
  let wake = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  let started;
  try {
    started = start((chunk) => {
      if (!finished) queue.push(chunk);
      notify();
    });
  } catch (e) {
    started = Promise.reject(e);
  }
  started.then(
    () => {
      finished = true;
      notify();
    },
    (e) => {
      failure = e;
      finished = true;
      notify();
    },
  );
  return {
    async next() {
      for (;;) {
        if (head < queue.length) {
          const value = queue[head];
          queue[head++] = undefined;
          return { value, done: false };
        }
        if (failure) {
          const e = failure;
          failure = null;
          throw e;
        }
        if (finished) return { value: undefined, done: true };
        await new Promise((resolve) => (wake = resolve));
      }
    },
    async return() {
      finished = true;
      queue.length = head = 0;
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/** A compiled graph: runs (`invoke`, `stream`) and the state API. */
export class CompiledStateGraph {
  constructor(compiled) {
    if (!isInstance(compiled, raw.WasmCompiledGraph)) {
      throw argumentError("CompiledStateGraph is made by StateGraph.compile()");
    }
    hide(this, RAW, compiled);
  }

  /**
   * Runs the graph from `input` (values, `null` to continue, or a
   * `Command`). Runs and updates of one thread take turns (see `onThread`).
   */
  invoke(input, config) {
    const { thread, strategy } = laneOptions(config);
    return onThread(this.checkpointer, thread, strategy, "invoke(input, config)", () => this[RAW].invoke(input, config));
  }

  /**
   * Runs the graph and yields chunks as they happen. `streamMode` (in the
   * third argument or in `config`): `"values"`, `"updates"` (default),
   * `"checkpoints"`, `"tasks"`, `"debug"`, or an array of them (chunks are
   * then `[mode, chunk]`). With `subgraphs: true` (same places) the
   * subgraphs' chunks come too, each as `[namespace, chunk]` (or
   * `[namespace, mode, chunk]`): `namespace` lists the `node:task_id`
   * levels of the graph that reported it, `[]` for this graph. The result
   * is an async iterable and also a Promise of one (LangGraph.js's
   * `await graph.stream(...)`).
   */
  stream(input, config, options) {
    const iterator = chunkIterator((push) => {
      const modes =
        option(options, "streamMode", "stream(input, config, options): options") ??
        option(config, "streamMode", "stream(input, config): config") ??
        "updates";
      const subgraphs = flag(
        option(options, "subgraphs", "stream(input, config, options): options") ??
          option(config, "subgraphs", "stream(input, config): config"),
        "stream(input, config, options): subgraphs",
      );
      const tagged = isArray(modes);
      const { thread, strategy } = laneOptions(config);
      const chunk = subgraphs
        ? tagged
          ? (mode, c, ns) => push([ns, mode, c])
          : (mode, c, ns) => push([ns, c])
        : tagged
          ? (mode, c) => push([mode, c])
          : (mode, c) => push(c);
      return onThread(this.checkpointer, thread, strategy, "stream(input, config)", () =>
        this[RAW].stream(input, config, modes, chunk, subgraphs),
      );
    });
    const result = Promise.resolve(iterator);
    result[Symbol.asyncIterator] = () => iterator;
    return result;
  }

  /**
   * The state at `config`'s checkpoint, or the thread's latest (with
   * finished tasks applied). A task that runs a subgraph has `state`: the
   * subgraph's namespace as a config, or with `{ subgraphs: true }` that
   * subgraph's newest snapshot (nested to any depth).
   */
  async getState(config, options) {
    if (options != null && typeof options !== "object") {
      throw argumentError(`getState(config, options): options must be an object like {subgraphs}, got ${describe(options)}`);
    }
    const subgraphs = flag(option(options, "subgraphs", "getState(config, options): options"), "getState(config, options): options.subgraphs");
    return this[RAW].getState(config, subgraphs);
  }

  /** Snapshots of the thread, newest first: `{ limit, before, filter }`. */
  async *getStateHistory(config, options) {
    yield* listed(this[RAW].getStateHistory(config, options), "values", (s) => s);
  }

  /** Writes an `update` checkpoint as if `asNode` returned `values`; resolves to its config. */
  updateState(config, values, asNode) {
    const { thread, strategy } = laneOptions(config);
    return onThread(this.checkpointer, thread, strategy, "updateState(config, values, asNode)", () =>
      this[RAW].updateState(config, values, asNode),
    );
  }

  /** Several supersteps of updates: `[{ updates: [{ values, asNode, taskId? }] }]`. */
  bulkUpdateState(config, supersteps) {
    const { thread, strategy } = laneOptions(config);
    return onThread(this.checkpointer, thread, strategy, "bulkUpdateState(config, supersteps)", () =>
      this[RAW].bulkUpdateState(config, supersteps),
    );
  }

  /** The addressed checkpoint (or the latest) and its ancestors up to the root, child first. */
  async getLineage(config) {
    return listed(this[RAW].getLineage(config), "values", (s) => s);
  }

  /** Channel values converted for JS nodes so far (unchanged channels are reused). Unstable. */
  get _stateConversions() {
    return this[RAW].stateConversions;
  }

  /** Values converted for JS nodes so far, counting list items one by one (a grown list costs its new items). Unstable. */
  get _stateItemsConverted() {
    return this[RAW].stateItemsConverted;
  }
}

/**
 * The items of a listing (core/src/wasm/listing.rs): parsed from its one
 * JSON text, and in each `holder(item)` the property `key` (`values`,
 * `channel_values`; `null` in the text, so already in its place among the
 * keys) becomes a lazy one that converts that item's values from the engine
 * on first read (as JSON text, for one `JSON.parse`) and then keeps them:
 * listing a long history for its metadata converts no values. The property stays enumerable and
 * assignable, as on an eager object. The listing is freed once every
 * item's values were read or replaced (else when it is collected).
 */
function listed(listing, key, holder, versions = false) {
  const items = JSON.parse(listing.takeText());
  const shared = { listing, unsettled: items.length * (versions ? 2 : 1) };
  const descriptor = lazyAccessor(listedKind, key);
  const versionDescriptors = versions ? VERSION_KEYS.map((k) => [k, lazyAccessor(listedVersionsKind, k)]) : [];
  for (let i = 0; i < items.length; i++) {
    const target = holder(items[i]);
    const pending = { shared, i };
    pendingValues.set(target, pending);
    // Redefining an existing property keeps its place in the key order.
    Object.defineProperty(target, key, descriptor);
    if (versions) {
      pendingVersions.set(target, pending);
      for (const [k, d] of versionDescriptors) Object.defineProperty(target, k, d);
    }
  }
  if (items.length === 0) listing.free();
  return items;
}

/** A listed checkpoint's version maps, lazy (one JSON text holds both). */
const VERSION_KEYS = ["channel_versions", "versions_seen"];

/** Listed checkpoints whose version maps were not read yet: checkpoint → `{shared, i}`. */
const pendingVersions = new WeakMap();

/**
 * Reads both version maps of a listed checkpoint (on the first read or
 * assignment of either) and makes them plain data properties.
 */
function settleVersions(target) {
  if (!pendingVersions.has(target)) return undefined;
  const text = takePending(pendingVersions, target, (listing, i) => listing.versionsText(i));
  const maps = text === undefined ? undefined : JSON.parse(text);
  for (const k of VERSION_KEYS) {
    Object.defineProperty(target, k, { value: maps?.[k], writable: true, enumerable: true, configurable: true });
  }
  return maps;
}

/** How a listed checkpoint's lazy version maps are read and dropped. */
const listedVersionsKind = {
  descriptors: new Map(),
  read(target, key) {
    return settleVersions(target)?.[key];
  },
  drop(target) {
    settleVersions(target);
  },
};

/** Lazy items still waiting for their values: item → `{shared, i}`. */
const pendingValues = new WeakMap();

/**
 * Takes `target`'s entry out of `waiting` (`pendingValues` or
 * `pendingVersions`), first reading its text with `read(listing, i)` if
 * given; the listing is freed once nothing of it waits.
 */
function takePending(waiting, target, read) {
  const pending = waiting.get(target);
  if (!pending) return undefined;
  waiting.delete(target);
  const text = read?.(pending.shared.listing, pending.i);
  if (--pending.shared.unsettled === 0) pending.shared.listing.free();
  return text;
}

/** How a listed item's lazy values are read (JSON text from the listing) and dropped. */
const listedKind = {
  descriptors: new Map(),
  read(target) {
    const text = takePending(pendingValues, target, (listing, i) => listing.valuesText(i));
    return text === undefined ? undefined : JSON.parse(text);
  },
  drop(target) {
    takePending(pendingValues, target);
  },
};

/**
 * LangGraph.js's in-memory checkpointer. Share one between graphs, or use
 * it alone: `getTuple`, `list`, `put`, `putWrites`, `deleteThread`, and
 * `exportThread` / `importThread` (format `chronograph.thread.v1`).
 */
export class MemorySaver {
  constructor() {
    hide(this, RAW, new raw.WasmMemorySaver());
  }

  /** The addressed checkpoint, or the thread's newest; `undefined` when there is none. */
  async getTuple(config) {
    return this[RAW].getTuple(config);
  }

  /** Checkpoints newest first: `{ limit, before, filter }`. */
  async *list(config, options) {
    yield* listed(this[RAW].list(config, options), "channel_values", (t) => t.checkpoint, true);
  }

  /**
   * Stores `checkpoint` under `config`'s checkpoint (its parent); resolves
   * to its config. Like every write of a thread, it waits for the runs and
   * updates of the thread in flight.
   */
  put(config, checkpoint, metadata, newVersions) {
    return this.#write(laneOptions(config).thread, "put(config, checkpoint, metadata, newVersions)", () =>
      this[RAW].put(config, checkpoint, metadata, newVersions ?? {}),
    );
  }

  /** Stores a task's writes (`[channel, value][]`) against `config`'s checkpoint. */
  putWrites(config, writes, taskId) {
    return this.#write(laneOptions(config).thread, "putWrites(config, writes, taskId)", () => {
      this[RAW].putWrites(config, writes, taskId, "");
    });
  }

  /** Forgets a thread. */
  deleteThread(threadId) {
    return this.#write(threadKey(threadId), "deleteThread(threadId)", () => {
      this[RAW].deleteThread(threadId);
    });
  }

  /** Everything stored for a thread, branches and pending writes included; `undefined` if unknown. */
  async exportThread(threadId) {
    return this[RAW].exportThread(threadId);
  }

  /** Loads a thread written by `exportThread`, replacing a thread of the same id. */
  importThread(data) {
    let thread;
    try {
      thread = threadKey(data?.thread_id);
    } catch {
      thread = undefined;
    }
    return this.#write(thread, "importThread(data)", () => {
      this[RAW].importThread(data);
    });
  }

  /** Runs the synchronous write `op` on `thread`'s queue (`onThread`); resolves to its result. */
  #write(thread, what, op) {
    return onThread(this, thread, undefined, what, async () => op());
  }

  /** Ids of every stored thread, sorted. */
  async threadIds() {
    return this[RAW].threadIds();
  }
}

export { MemorySaver as InMemorySaver };
