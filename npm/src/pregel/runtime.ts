// What runs around a JS node: its config, the task `interrupt()` reaches,
// and the per-thread queue that keeps runs and updates of one thread from
// interleaving. `setup` (setup.ts) installs Node's AsyncLocalStorage here.
import * as raw from "../wasm/chronograph.js";
import { argumentError, describe, hide, option, ownCopy, thrownText } from "../internal/args.js";
import { GraphValueError, ThreadBusyError, withCode } from "../errors.js";
import type { Json, NodeConfig } from "./types.js";
import { THREAD_STORE, type ThreadAccess, type ThreadStore } from "../internal/raw.js";
import { assignMessageIds, classesPossible, reviveWrittenIfAny, toEngine, type MessageChannels } from "../langchain/message_classes.js";
import type { NodeMessages } from "../stream/messages_of_nodes.js";
import type { BaseStore } from "../checkpoint/store.js";
import { caught, noteResult } from "./parent_command.js";
import type { RunCancel } from "./cancel.js";
import { nodeConfig, runConfig, writerNamespace, type RunConfig } from "./node_config.js";
import type { GraphRuns } from "../langchain/task_runs.js";

/** The running node as `interrupt()` and the thread queues look it up. */
interface Running {
  /** The task number the bindings gave the node call (core/wasm/src/task.rs). */
  task: number;
  /** The thread its run is on. */
  thread: string | undefined;
  /** `false` when the graph the run was started on has no checkpointer. */
  checkpointed?: boolean;
  /** The node's config (what `getStore()` and `getConfig()` read). */
  config?: NodeConfig;
  /** The state (or `Send` argument) the node was given (what `getCurrentTaskInput()` reads). */
  input?: unknown;
  /** The LangChain callback runs of its run, when it has callbacks (a graph the node invokes nests in them). */
  runs?: GraphRuns;
  /** The task's id. */
  taskId?: string;
  /** The run's `"messages"` stream, when it streams that mode (what `pushMessage` emits to). */
  messages?: NodeMessages;
}

/** The subset of Node's `AsyncLocalStorage` the package uses. */
export interface AsyncStorage {
  getStore(): unknown;
  run<A extends unknown[], R>(store: unknown, fn: (...args: A) => R, ...args: A): R;
}

let storage: AsyncStorage | null = null;
let current: Running | null = null;

/** Installs the async context of the platform (Node's AsyncLocalStorage; `null` in browsers). */
export function setStorage(s: AsyncStorage | null): void {
  storage = s;
}

/** A new async context of the platform's kind (`null` in browsers): `@langchain/core`'s, when the package sets it up. */
export function newAsyncStorage(): AsyncStorage | null {
  return storage === null ? null : new (storage.constructor as new () => AsyncStorage)();
}

/** The running node: from the async context, else the synchronous call in progress. */
function running(): Running | null {
  return (storage?.getStore() as Running | undefined) ?? current;
}

/** The task of the node running now (`config`'s, when it is a node's config), if any. */
export function runningTask(config?: unknown): number | undefined {
  let task: unknown;
  try {
    task = config == null ? undefined : (config as Record<symbol, unknown>)[TASK];
  } catch {
    task = undefined;
  }
  return typeof task === "number" ? task : running()?.task;
}

/** Where a node's config keeps its task (non-enumerable: invisible to the node). */
export const TASK = Symbol("chronograph.task");

/**
 * Pauses the running node with `value`; on resume (`new Command({resume})`)
 * the node runs again from its first line and this call returns the answer.
 * In Node it works anywhere in a node, also after `await`. In a browser it
 * finds its node only before the node's first `await`; after one, pass the
 * node's config: `interrupt(value, config)`.
 */
export function interrupt<I = Json, R = Json>(value: I, config?: NodeConfig): R {
  const task = (option(config, TASK, "interrupt(value, config): config") as number | undefined) ?? running()?.task;
  if (task != null && running()?.checkpointed === false) {
    // LangGraph.js: a run that cannot be resumed must not pause.
    throw withCode(new GraphValueError("No checkpointer set", { lc_error_code: "MISSING_CHECKPOINTER" }), "MISSING_CHECKPOINTER");
  }
  if (task == null) {
    // LangGraph.js's text when there is no graph around the call.
    throw withCode(
      new GraphValueError(
        "Called interrupt() outside the context of a graph. In a browser, call it before the node's first await, or pass the node's config: interrupt(value, config).",
      ),
      "INTERRUPT_OUTSIDE_NODE",
    );
  }
  // Messages in the value, and in the answer, as they were given (langchain/message_classes.ts).
  return reviveWrittenIfAny(raw.taskInterrupt(task, toEngine(value))) as R;
}

/**
 * The config of the running node (LangGraph.js's `getConfig()`): in Node
 * anywhere in the node; in a browser only before its first `await`.
 * Outside a node `undefined`, as LangGraph.js's AsyncLocalStorage lookup
 * gives (typed as LangGraph.js types it).
 */
export function getConfig(): NodeConfig {
  return running()?.config as NodeConfig;
}

/**
 * LangGraph.js's error of a helper that needs the running node's config,
 * called outside a node (`getStore`, `getWriter`): its plain `Error` and
 * text, with code `CONFIG_OUTSIDE_NODE`.
 */
export function configNotRetrievable(helper: string): Error & { code: string } {
  const text = [
    "Config not retrievable. This is likely because you are running in an environment without support for AsyncLocalStorage.",
    `If you're running \`${helper}\` in such environment, pass the \`config\` from the node function directly.`,
  ].join("\n");
  return Object.assign(new Error(text), { code: "CONFIG_OUTSIDE_NODE" });
}

/** The running node's config, or `undefined` outside a node (what LangGraph.js's AsyncLocalStorage lookups see). */
export function runningConfig(): NodeConfig | undefined {
  return running()?.config;
}

/** The running node's task id and its run's `"messages"` stream, when it streams that mode. */
export function runningMessages(): { messages: NodeMessages; taskId: string } | undefined {
  const here = running();
  return here?.messages !== undefined && here.taskId !== undefined ? { messages: here.messages, taskId: here.taskId } : undefined;
}

/**
 * The state (or `Send` argument) the running node was given (LangGraph.js's
 * `getCurrentTaskInput()`): in Node anywhere in the node; in a browser
 * only before its first `await`.
 */
export function getCurrentTaskInput<T = unknown>(): T {
  const here = running();
  if (here === null) {
    throw withCode(
      new GraphValueError("getCurrentTaskInput() called outside of a node: call it while a node runs (in a browser, before the node's first await)."),
      "CONFIG_OUTSIDE_NODE",
    );
  }
  return here.input as T;
}

/**
 * The long-term store of the running node's graph (LangGraph.js's
 * `getStore()`): `config.store` of `config`, else of the running node;
 * `undefined` when the graph has none.
 */
export function getStore(config?: NodeConfig): BaseStore | undefined {
  const runConfig = config ?? running()?.config;
  if (runConfig === undefined) throw configNotRetrievable("getStore");
  return (runConfig as NodeConfig & { store?: BaseStore }).store;
}

/** The callback runs of the running node's run, and its task's id, when the run has callbacks. */
export function runningRuns(): { runs: GraphRuns; taskId: string } | undefined {
  const here = running();
  return here?.runs !== undefined && here.taskId !== undefined ? { runs: here.runs, taskId: here.taskId } : undefined;
}

/**
 * What one run gives its JS nodes: their config's run part (made from the
 * caller's config, pregel/node_config.ts), LangGraph.js's runtime `context`, the
 * `"custom"` stream mode's `writer`, and more. The engine carries only a
 * number for it, in `configurable` under `RUN_KEY` (keys starting with `__`
 * stay out of checkpoint metadata, as in LangGraph), and `wrapNode` finds
 * the data by it.
 */
export interface RunData {
  context?: unknown;
  /** With `streamMode: "custom"`: a chunk written by running task `task`, in namespace `ns` (its graph's: the task's parents). */
  writer?: (chunk: unknown, ns: string[], task: number) => void;
  /** `false` for a run of a graph without a checkpointer: `interrupt()` then fails, as in LangGraph.js. */
  checkpointed?: boolean;
  /** The `"messages"` stream of the run, when it streams that mode. */
  messages?: NodeMessages;
  /** The run's cancellation (its `signal`, `stream.cancel()`, `stepTimeout`): nodes get `config.signal` from it. */
  cancel?: RunCancel;
  /** The long-term store nodes get as `config.store`: the run's `config.store`, else the graph's `compile({ store })`. */
  store?: BaseStore;
  /** The run's LangChain callback runs, when its config has callbacks (langchain/task_runs.ts): each node runs in its task's. */
  runs?: GraphRuns;
  /** Called as each node of the run starts (a saver bridge starts putting the run's checkpoints then). */
  onNodeStart?: () => void;
  /** The run's part of its nodes' configs (pregel/node_config.ts), made by `withRunData`. */
  node?: RunConfig;
}

/** Where a run's token travels in `configurable`. */
const RUN_KEY = "__chronograph_run";
const runs = new Map<number, RunData>();
let nextRun = 0;
/** Tokens of settled runs, reused (see `withRunData`). */
const freeTokens: number[] = [];

/**
 * `config` with run data attached (a copy; `config` itself when it is no
 * object), and the function that forgets it once the run has settled.
 */
export function withRunData(config: unknown, data: RunData): [unknown, () => void] {
  // A config (or `configurable`) that is not an object goes to the engine as it is: the engine
  // names the mistake, and the run never reaches a node.
  const base = (config ?? {}) as { configurable?: Record<string, unknown> };
  if (typeof base !== "object") return [config, () => {}];
  const configurable = option(base, "configurable", "config");
  if (configurable != null && typeof configurable !== "object") return [config, () => {}];
  try {
    data.node = runConfig(base, data.context, data.store, data.messages !== undefined);
  } catch (e) {
    throw argumentError(`config: reading it threw ${thrownText(e)}`, e);
  }
  // The most recently freed token first: a thread's runs one after another carry the same
  // token, so the engine's config (compared by value) is converted once, not once per run.
  const token = freeTokens.pop() ?? ++nextRun;
  runs.set(token, data);
  let copy: object;
  try {
    // (Copies added to, not `{ ...o, key }`: V8 makes those slow objects, and this runs per run.)
    const own = configurable == null ? {} : ownCopy(configurable as object);
    own[RUN_KEY] = token;
    const whole = ownCopy(base);
    whole.configurable = own;
    copy = whole;
  } catch (e) {
    runs.delete(token);
    freeTokens.push(token);
    throw argumentError(`config: reading it threw ${thrownText(e)}`, e);
  }
  return [copy, () => (runs.delete(token) ? void freeTokens.push(token) : undefined)];
}

/** A node function as the user wrote it. */
export type UserNode = (state: never, config: never) => unknown;

/** A node as the bindings call it (core/wasm/src/node.rs). */
export type RawNode = (
  state: unknown,
  base: unknown,
  task: number,
  node: string,
  step: number,
  taskId: string,
  /** `undefined` for `node:taskId` (a root graph's task: core/wasm/src/node.rs `task_namespace`). */
  ns: string | undefined,
  trigger: string,
  push: number,
  map: Record<string, string>,
) => unknown;

/** The `writer` of a node of a run that does not stream `"custom"` (LangGraph.js's writes nothing then). */
const noWriter = (_chunk: unknown): void => {};

/** What a compiled graph adds to its nodes' configs (graph/state_graph.ts): `addNode`'s `metadata`, the graph's own store. */
export interface NodeExtras {
  /** Merged into `config.metadata` after the `langgraph_*` keys (LangGraph.js's `proc.metadata`). */
  metadata?: Record<string, unknown>;
  /** The store of the node's graph (`compile({ store })`), for a run that brought none. */
  store?: () => BaseStore | undefined;
  /**
   * Whether this call may leave the node's config unmade until something
   * reads it: the node function cannot see its second argument
   * (pregel/config_use.ts) and no policy around it needs the config now.
   */
  lazyConfig?: () => boolean;
}

/**
 * A JS node as the bindings call it (core/wasm/src/node.rs): each call
 * gets its own config, made as LangGraph.js makes a node's config
 * (pregel/node_config.ts) from its run's part (`RunData.node`) and the task:
 * `node`, `step`, `taskId`, its checkpoint namespace `ns` (`node:task_id`,
 * under the parent's for a subgraph's node), the channel that triggered
 * it, the index of its `Send` (`push`) and the superstep's
 * `checkpoint_map`. `base`, the run's config as the engine holds it, is
 * what a run without run data (the bindings used alone) gives its nodes.
 * `task` is the running task's number (core/wasm/src/task.rs), kept
 * where `interrupt()` finds it and hands it back to the engine.
 * `messages`, the graph's message channels, makes the node see (and its
 * result hand the engine) LangChain message instances as LangGraph.js's
 * nodes do, when `@langchain/core` is installed (langchain/message_classes.ts).
 */
export function wrapNode(fn: UserNode, extras: NodeExtras = {}, messages?: MessageChannels): RawNode {
  const call = fn as unknown as (state: unknown, config: unknown) => unknown;
  // What the node function is called on: LangGraph.js calls it as a method of
  // the node's RunnableCallable, whose `name` is the node's name (a class
  // method passed unbound, `new Node("1").call`, reads `this.name`).
  let receiver: { readonly name: string } | undefined;
  return (state, base, task, node, step, taskId, taskNs, trigger, push, map) => {
    receiver ??= Object.freeze({ name: node });
    const ns = taskNs ?? `${node}:${taskId}`;
    const token = (base as { configurable?: Record<string, unknown> }).configurable?.[RUN_KEY];
    const run = token === undefined ? undefined : runs.get(token as number);
    // A run without run data (none is made without a config object) gets the engine's config as its own.
    const own = run?.node ?? runConfig(base, undefined, undefined, false);
    const taskRuns = run?.runs;
    const startedAt = Date.now();
    let made: NodeConfig | undefined;
    const makeConfig = (): NodeConfig => {
      const sink = run?.writer;
      const writer = sink === undefined ? noWriter : (chunk: unknown) => sink(chunk, writerNamespace(ns), task);
      const store = own.store ?? extras.store?.();
      const ofTask = { node, step, taskId, ns, trigger, push, map, startedAt };
      const config = nodeConfig(own, ofTask, writer, interrupt, store, run?.cancel?.signalProperty);
      hide(config, TASK, task);
      if (extras.metadata !== undefined) Object.assign(config.metadata, extras.metadata);
      return config;
    };
    // A node that cannot see its config gets none made unless something asks for it (the same
    // config, made then: its `executionInfo` still says when the node started).
    const lazy = taskRuns === undefined && extras.lazyConfig?.() === true;
    const config = lazy ? undefined : (made = makeConfig());
    run?.onNodeStart?.();
    // What `interrupt()` and the thread queues (`onThread`) look up: the
    // task, and the thread its run is on.
    const here: Running = {
      task,
      thread: threadKey(own.configurable.thread_id),
      get config() {
        return (made ??= makeConfig());
      },
      input: state,
    };
    if (run?.checkpointed === false) here.checkpointed = false;
    if (run?.messages !== undefined) {
      here.messages = run.messages;
      here.taskId = taskId;
    }
    const classes = classesPossible();
    // A command for the parent graph that the node lets through from a graph it invoked: applied
    // as if the node had returned it (pregel/parent_command.ts).
    const fail = (e: unknown) => {
      const command = caught(e, ns);
      return classes ? toEngine(command) : command;
    };
    let result: unknown;
    try {
      if (taskRuns === undefined) {
        const previous = current;
        current = here;
        try {
          if (messages !== undefined && classesPossible()) {
            messages.values(state);
            run?.messages?.start(state, messages.keys);
          }
          const cancel = run?.cancel;
          result =
            cancel === undefined
              ? storage
                ? storage.run(here, callOn, call, receiver, state, config)
                : call.call(receiver, state, config)
              : cancel.node(ns, step, () => (storage ? storage.run(here, callOn, call, receiver, state, config) : call.call(receiver, state, config)));
        } finally {
          current = previous;
        }
      } else result = callInTaskRun(taskRuns, here, run, messages, call, receiver, state, config, ns, step, taskId);
    } catch (e) {
      return fail(e);
    }
    // What the node returned: a command for the parent graph noted; its messages streamed
    // ("messages" mode), its message instances in the engine's form.
    const stream = run?.messages;
    const done = (r: unknown) => {
      noteResult(r, ns);
      if (!classes) return r;
      stream?.end(taskId, step, r);
      // LangGraph.js's reducer gives the node's id-less message instances their ids in place.
      if (messages !== undefined) assignMessageIds(r, messages.keys);
      return toEngine(r);
    };
    return isThenable(result) ? result.then(done, fail) : done(result);
  };
}

/**
 * A node call of `wrapNode` in a run with LangChain callbacks: the node runs
 * once its task's run started, in it.
 */
function callInTaskRun(
  taskRuns: GraphRuns,
  here: Running,
  run: RunData | undefined,
  messages: MessageChannels | undefined,
  call: (state: unknown, config: unknown) => unknown,
  receiver: { readonly name: string },
  state: unknown,
  config: NodeConfig | undefined,
  ns: string,
  step: number,
  taskId: string,
): unknown {
  here.runs = taskRuns;
  here.taskId = taskId;
  if (messages !== undefined && classesPossible()) {
    messages.values(state);
    run?.messages?.start(state, messages.keys);
  }
  return taskRuns.node(taskId, config as NodeConfig, () => {
    const previous = current;
    current = here;
    try {
      const invoke = () => (storage ? storage.run(here, callOn, call, receiver, state, config) : call.call(receiver, state, config));
      return run?.cancel === undefined ? invoke() : run.cancel.node(ns, step, invoke);
    } finally {
      current = previous;
    }
  });
}

/**
 * Runs attempt number `attempt` (2 and on) of a node with a retry policy
 * (pregel/retry.ts): LangGraph.js gives each retry a new config whose
 * `executionInfo.nodeAttempt` counts it, and `getConfig()` returns it.
 */
export function retryAttempt(config: unknown, attempt: number, call: (config: unknown) => unknown): unknown {
  if (config === null || typeof config !== "object") return call(config);
  const next: Record<string | symbol, unknown> = { ...config };
  const info = (config as { executionInfo?: unknown }).executionInfo;
  if (info !== null && typeof info === "object") next.executionInfo = { ...info, nodeAttempt: attempt };
  // The node's task travels with its config, out of sight.
  hide(next, TASK, (config as Record<symbol, unknown>)[TASK]);
  const here = running();
  if (here === null) return call(next);
  const again: Running = { ...here, config: next as unknown as NodeConfig };
  const previous = current;
  current = again;
  try {
    return storage ? storage.run(again, call, next) : call(next);
  } finally {
    current = previous;
  }
}

/** `fn.call(self, state, config)`, for `AsyncStorage.run` (no closure per node call). */
function callOn(fn: (state: unknown, config: unknown) => unknown, self: unknown, state: unknown, config: unknown): unknown {
  return fn.call(self, state, config);
}

function isThenable(v: unknown): v is Promise<unknown> {
  return v !== null && (typeof v === "object" || typeof v === "function") && typeof (v as { then?: unknown }).then === "function";
}

/**
 * One call at a time per thread: checkpointer → thread id → `{ tail,
 * pending }`, the settling of the last call queued on the thread and how
 * many are in flight or waiting. A thread with nothing in flight has no
 * entry.
 */
const lanes = new WeakMap<object, Map<string, { tail: Promise<unknown> | undefined; pending: number }>>();

/** `thread_id` as the engine reads it (a string, or a number as text); `undefined` for none. */
export function threadKey(id: unknown): string | undefined {
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}

/** `config.configurable.thread_id` and `config.multitaskStrategy`, read without letting a throw through. */
export function laneOptions(config: unknown): { thread?: string; strategy?: unknown } {
  try {
    if (config === null || typeof config !== "object") return {};
    const c = config as { configurable?: { thread_id?: unknown }; multitaskStrategy?: unknown };
    return { thread: threadKey(c.configurable?.thread_id), strategy: c.multitaskStrategy };
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
 * node of a run on the same thread that does not join the node's task
 * (graph/state_graph.ts `#joinedTask`: a browser finds the task only before the node's
 * first `await`) is rejected too: it would wait for that run, which waits
 * for the node, forever. Calls
 * without a checkpointer or a thread go straight through (the engine
 * reports what is missing).
 */
export function onThread<T>(
  saver: object | null | undefined,
  thread: string | undefined,
  strategy: unknown,
  what: string,
  op: () => Promise<T>,
  access?: ThreadAccess,
): Promise<T> {
  if (strategy !== undefined && strategy !== "enqueue" && strategy !== "reject") {
    return Promise.reject(
      argumentError(`${what}: config.multitaskStrategy must be "enqueue" (the default) or "reject", got ${describe(strategy)}`),
    );
  }
  if (saver == null || thread === undefined) return op();
  const store = (saver as { [THREAD_STORE]?: ThreadStore })[THREAD_STORE];
  if (store !== undefined) {
    // A saver behind the engine's store (checkpoint/saver_bridge.ts): the thread is loaded before, and
    // what the operation stored is handed on after, even when it failed or was interrupted.
    const inner = op;
    op = async () => {
      await store.load(thread, access);
      try {
        return await inner();
      } finally {
        await store.flush(thread, access);
      }
    };
  }
  let threads = lanes.get(saver);
  if (threads === undefined) lanes.set(saver, (threads = new Map()));
  const lane = threads.get(thread);
  if (lane !== undefined) {
    const inside = running()?.thread === thread;
    if (inside || strategy === "reject") {
      const why = inside
        ? "it was called from inside a node of a run on the same thread, which would wait for that run forever"
        : 'another run or update of the thread is in flight (multitaskStrategy: "reject")';
      return Promise.reject(withCode(new ThreadBusyError(`${what}: thread ${JSON.stringify(thread)} is busy: ${why}`), "THREAD_BUSY"));
    }
  }
  // An idle thread runs the call at once (no extra turn of the event loop).
  const run = lane === undefined ? op() : (lane.tail as Promise<unknown>).then(op, op);
  const entry = lane ?? { tail: undefined, pending: 0 };
  entry.pending++;
  const lanesOfSaver = threads;
  const done = () => {
    if (--entry.pending === 0 && lanesOfSaver.get(thread) === entry) lanesOfSaver.delete(thread);
  };
  entry.tail = Promise.resolve(run).then(done, done);
  threads.set(thread, entry);
  return run;
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
function plainJson(v: unknown, depth: number): boolean {
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
      for (const k of Object.keys(v)) if (!plainJson((v as Record<string, unknown>)[k], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

/**
 * A node's result as JSON text when it is a plain object of plain JSON
 * data (the usual update), else undefined (core/wasm/src/node.rs
 * `registerUpdateText`): one `JSON.stringify` costs less than a
 * wasm crossing per field. A `Command` (anything with `lg_name`) is left to
 * the bindings, which read its fields.
 */
export function updateText(v: unknown): string | undefined {
  if (v === null || typeof v !== "object" || Array.isArray(v) || (v as { lg_name?: unknown }).lg_name !== undefined) return undefined;
  return plainJson(v, 0) ? JSON.stringify(v) : undefined;
}
