// LangGraph.js's functional API (func/index.ts, pregel/call.ts): an
// `entrypoint` is a `Pregel` of one node, named after the entrypoint, that
// reads `__start__` and writes its return value to `__end__` and the value
// it saves to `__previous__`, as LangGraph.js builds it; a `task` is a
// function whose calls, from a running entrypoint or node, the engine runs
// as tasks of the caller's superstep (core/src/pregel/loop/call.rs): their
// return values are stored as the checkpoint's pending writes, so a resumed
// run gets them back instead of calling the function again.
import * as raw from "../wasm/chronograph.js";
import { END, PUSH, START } from "../constants.js";
import { EphemeralValue } from "../channels/index.js";
import { LastValue } from "../state/definitions.js";
import { ChannelWrite, PASSTHROUGH, Pregel, PregelNode } from "../pregel/index.js";
import { withRetry } from "../pregel/retry.js";
import type { RetryPolicy } from "../pregel/retry.js";
import { runningConfig, runningTask, wrapNode, type RawNode, type UserNode } from "../pregel/runtime.js";
import type { BaseStore } from "../checkpoint/store.js";
import type { Command } from "../command.js";
import type { NodeConfig, RunnableConfig } from "../pregel/types.js";
import { unsupported } from "../graph/unsupported.js";
import { declaredAs, nodeCall } from "../internal/seam.js";
import { reviveWrittenIfAny } from "../langchain/message_classes.js";

/** The channel of the value an entrypoint saves for its next run on the thread. */
const PREVIOUS = "__previous__";
/** Where a task's config keeps that value (LangGraph.js's `CONFIG_KEY_PREVIOUS_STATE`). */
const PREVIOUS_KEY = "__pregel_previous";
/** How many tasks each running caller called so far, by its config's `configurable` (a retry's config shares it). */
const callCounts = new WeakMap<object, number>();
/** LangSmith's tag of a run it hides (LangGraph.js tags the entrypoint's writer with it). */
const TAG_HIDDEN = "langsmith:hidden";

/** What `entrypoint.final` returns: the run's value, and what the next run on the thread sees as `previous`. */
export interface EntrypointFinal<ValueT, SaveT> {
  value?: ValueT;
  save?: SaveT;
  __lg_type: "__pregel_final";
}

/** The options of {@link task} (LangGraph.js's `TaskOptions`). */
export interface TaskOptions {
  /** The task's name: its updates and its checkpoint namespace are named by it. */
  name: string;
  /** Retries of a failed call. */
  retry?: RetryPolicy;
  /** Not supported (a call's cache). */
  cachePolicy?: unknown;
  /** Not supported (a call's timeout). */
  timeout?: unknown;
}

/** The options of {@link entrypoint} (LangGraph.js's `EntrypointOptions`). */
export interface EntrypointOptions {
  /** The entrypoint's name (its node's); LangGraph.js does not default it. */
  name?: string;
  /** Where its checkpoints go. */
  checkpointer?: unknown;
  /** The long-term store its functions get. */
  store?: BaseStore;
  /** Not supported (a cache for its tasks). */
  cache?: unknown;
  /** Not supported (a timeout for its node). */
  timeout?: unknown;
}

/** The config of an entrypoint's function (and of a task's). */
export type EntrypointConfig = NodeConfig;

function isGenerator(fn: unknown): boolean {
  const tag = (fn as { constructor?: { name?: string } } | null)?.constructor?.name;
  return tag === "GeneratorFunction" || tag === "AsyncGeneratorFunction";
}

/** `config` with LangGraph.js's previous-state key, read from the engine for the running task. */
function withPrevious(config: unknown): unknown {
  const task = runningTask(config);
  const configurable = (config as { configurable?: Record<string, unknown> } | null)?.configurable;
  // LangGraph.js reads it from the checkpoint: its message instances are instances.
  if (task !== undefined && configurable !== undefined) configurable[PREVIOUS_KEY] = reviveWrittenIfAny(raw.taskPrevious(task));
  return config;
}

function isFinal(value: unknown): value is EntrypointFinal<unknown, unknown> {
  return typeof value === "object" && value !== null && (value as { __lg_type?: unknown }).__lg_type === "__pregel_final";
}

/**
 * LangGraph.js's `task(name | options, fn)`: a function that, called from
 * a running entrypoint (or a graph's node), runs `fn` on its arguments as
 * a task of the caller's superstep and returns a Promise of its result.
 * Calls made together run concurrently; a call that finished before the
 * run paused (`interrupt()`) is not run again on resume: it returns its
 * stored result.
 */
export function task<ArgsT extends unknown[], OutputT>(
  optionsOrName: string | TaskOptions,
  func: (...args: ArgsT) => OutputT | Promise<OutputT>,
): (...args: ArgsT) => Promise<OutputT> {
  const options: TaskOptions = typeof optionsOrName === "string" ? { name: optionsOrName } : optionsOrName;
  const { name, retry } = options;
  if (isGenerator(func)) throw new Error("Generators are disallowed as tasks. For streaming responses, use config.write.");
  if (options.cachePolicy !== undefined || (options as { cache?: unknown }).cache !== undefined) {
    throw unsupported("task({ cachePolicy }) (a cache of LangGraph.js's functional-API tasks)", "leave the task uncached");
  }
  if (options.timeout !== undefined) throw unsupported("task({ timeout }) (a timeout of LangGraph.js's functional-API tasks)", "leave the task without a timeout");
  return (...args: ArgsT): Promise<OutputT> => {
    const task = runningTask();
    // LangGraph.js reads the running config's `configurable`: outside a run it has none.
    if (task === undefined) throw new TypeError("Cannot read properties of undefined (reading 'configurable')");
    // LangGraph.js's `langgraph_path` of a call: PUSH, the caller's path, the caller's call count, true.
    const caller = runningConfig();
    const calls = caller?.configurable as object | undefined;
    const index = calls === undefined ? 0 : (callCounts.get(calls) ?? 0);
    if (calls !== undefined) callCounts.set(calls, index + 1);
    const path = [PUSH, caller?.metadata?.langgraph_path, index, true];
    const run = (input: unknown, config: unknown): unknown => {
      const metadata = (config as { metadata?: Record<string, unknown> } | null)?.metadata;
      if (metadata !== undefined) metadata.langgraph_path = path;
      withPrevious(config);
      return func(...(input as ArgsT));
    };
    const fn = retry === undefined ? run : withRetry(run, retry);
    const node: RawNode = wrapNode(fn);
    // Its result as LangGraph.js hands it back: message instances are instances.
    const settled = (raw.taskCall(task, name, node, args) as Promise<OutputT>).then((r) => reviveWrittenIfAny(r));
    // The engine commits the call once the caller's code after it ran (LangGraph.js's runner
    // commits it a few turns after the caller's `await` returns): a turn after the caller's.
    const wake = () => queueMicrotask(() => raw.taskWake(task));
    settled.then(wake, wake);
    return settled;
  };
}

/** An entrypoint: a `Pregel` (LangGraph.js's return type) whose `invoke` takes the function's input (or a `Command`, or `null`) and resolves to its result. */
export type Entrypoint<InputT, OutputT> = {
  invoke(input: InputT | Command | null, config?: RunnableConfig): Promise<OutputT>;
} & Pregel;

/** The value an entrypoint's function returns: its result, or `entrypoint.final({ value, save })`. */
type Returned<T> = T extends EntrypointFinal<infer V, unknown> ? V : T;

interface EntrypointFunction {
  /**
   * LangGraph.js's `entrypoint(name | options, fn)`: a workflow whose
   * runs call `fn(input, config)` once per run, as one node named after
   * the entrypoint; `fn` calls tasks and may `interrupt()`. Its result is
   * the run's output (`getState().values`) and what the next run on the
   * thread sees as `getPreviousState()`, unless `fn` returns
   * `entrypoint.final({ value, save })`.
   */
  <InputT, OutputT>(
    optionsOrName: string | EntrypointOptions,
    func: (input: InputT, config: EntrypointConfig) => OutputT | Promise<OutputT>,
  ): Entrypoint<InputT, Returned<Awaited<OutputT>>>;
  /** A result that returns `value` and saves `save` for the thread's next run (its `getPreviousState()`). */
  final<ValueT, SaveT>(options: { value?: ValueT; save?: SaveT }): EntrypointFinal<ValueT, SaveT>;
}

/** See {@link EntrypointFunction}. */
export const entrypoint = declaredAs<EntrypointFunction>(function entrypoint(optionsOrName: string | EntrypointOptions, func: (input: never, config: never) => unknown) {
  const { name, checkpointer, store } = typeof optionsOrName === "string" ? { name: optionsOrName, checkpointer: undefined, store: undefined } : optionsOrName;
  if (isGenerator(func)) throw new Error("Generators are disallowed as entrypoints. For streaming responses, use config.write.");
  if (typeof optionsOrName !== "string") {
    if (optionsOrName.cache !== undefined) throw unsupported("entrypoint({ cache }) (a cache of LangGraph.js's functional-API tasks)", "leave the tasks uncached");
    if (optionsOrName.timeout !== undefined) throw unsupported("entrypoint({ timeout })", "leave the entrypoint without a timeout");
  }
  const call = nodeCall(func);
  const bound = (input: unknown, config: unknown) => call(input, withPrevious(config));
  const pluckReturnValue = (value: unknown) => (isFinal(value) ? value.value : value);
  const pluckSaveValue = (value: unknown) => (isFinal(value) ? value.save : value);
  const node = new PregelNode({
    bound,
    triggers: [START],
    channels: [START],
    writers: [
      new ChannelWrite(
        [
          { channel: END, value: PASSTHROUGH, mapper: pluckReturnValue },
          { channel: PREVIOUS, value: PASSTHROUGH, mapper: pluckSaveValue },
        ],
        [TAG_HIDDEN],
      ),
    ],
  });
  return new Pregel({
    name,
    checkpointer: checkpointer as Pregel["checkpointer"],
    nodes: { [String(name)]: node },
    channels: { [START]: new EphemeralValue(), [END]: new LastValue(), [PREVIOUS]: new LastValue() },
    inputChannels: START,
    outputChannels: END,
    streamChannels: END,
    streamMode: "updates",
    store,
  });
});

entrypoint.final = function final<ValueT, SaveT>({ value, save }: { value?: ValueT; save?: SaveT }): EntrypointFinal<ValueT, SaveT> {
  return { value, save, __lg_type: "__pregel_final" };
};
