// `CompiledStateGraph`: what `StateGraph.compile()` returns (and what a
// `Pregel` runs on), over the engine's compiled graph: runs (`invoke`,
// `stream`, `streamEvents`, `batch`) and the state API (`getState`,
// `getStateHistory`, `updateState`, `bulkUpdateState`, `getLineage`).
import * as raw from "../wasm/chronograph.js";
import { argumentError, describe, flag, hide, isArray, isInstance, option } from "../internal/args.js";
import { CHUNK, DEFINITION, ENGINE, RAW, SAVER, THREAD_STORE, type ThreadAccess, type ThreadStore } from "../internal/raw.js";
import type { BaseCache, BatchedCache } from "../pregel/cache.js";
import type { StateDefinitionInfo } from "../state/definitions.js";
import { laneOptions, onThread, runningRuns, runningTask, withRunData, type RunData } from "../pregel/runtime.js";
import { listed } from "../internal/lazy.js";
import type { MemorySaver } from "../checkpoint/engine_saver.js";
import { earlyFlush } from "../checkpoint/checkpointer.js";
import { chunkIterator } from "../stream/chunk_iterator.js";
import { deepestMapNamespace, deliverer, emitterOf, engineChunks, streamRequest, type Emit } from "../stream/graph_chunks.js";
import { loadChatModelStream } from "../langchain/core_callbacks.js";
import { modesWithRuns, nestedChunks, nestedRun, rootChunks, withCallbacks } from "../langchain/callback_runs.js";
import { streamEventsV3, type GraphRunStream, type StreamTransformerFactory } from "../stream/run_stream.js";
import type { RunGraph } from "../langchain/task_runs.js";
import { streamEvents, type EventStream } from "../stream/langchain_events.js";
import { batchRuns } from "../langchain/batch.js";
import { RunCancel, cancellable, runSignal } from "../pregel/cancel.js";
import { runStore, type BaseStore } from "../checkpoint/store.js";
import { classesPossible, loadMessageClasses } from "../langchain/message_classes.js";
import { NodeMessages } from "../stream/messages_of_nodes.js";
import { chatModelStreamer, withHandler } from "../stream/messages_of_chat_models.js";
import { drawGraph, drawGraphAsync, drawingFor, setCompiledCheck, subgraphsOf, type DrawableGraph, type DrawConfig, type Drawing } from "../langchain/drawing.js";
import { bindConfig, echoConfig, mergeConfigs, taskMetadataOf, withDefaultLimit } from "./run_config.js";
import { runContext, withInput, written, writtenSupersteps } from "./run_input.js";
import type { GraphNode } from "./nodes.js";
import type { Command } from "../command.js";
import type {
  ChunkStream,
  GetStateOptions,
  ListOptions,
  NamespacedChunk,
  NamespacedTaggedChunk,
  RunnableConfig,
  RunOutput,
  StateSnapshot,
  StateUpdate,
  StateValues,
  StreamChunks,
  StreamEvent,
  StreamEventsOptions,
  StreamMode,
  TaggedChunk,
  UpdatedConfig,
} from "../pregel/types.js";

/** The compiled graph a `Pregel` runs on (pregel/index.ts), when `v` is one. */
export function engineOf(v: unknown): CompiledStateGraph<object> | undefined {
  let engine: unknown;
  try {
    engine = (v as { [ENGINE]?: unknown } | null | undefined)?.[ENGINE];
  } catch {
    return undefined; // a revoked Proxy is no Pregel
  }
  return typeof engine === "function" ? (engine as () => CompiledStateGraph<object>).call(v) : undefined;
}

/** What a compiled graph keeps for its runs besides its public fields: one private object per graph. */
export interface CompiledParts {
  /**
   * Compiled with `checkpointer: false`: LangGraph.js's "no checkpointing",
   * even when a node calls the graph (it does not join the node's task).
   */
  unCheckpointed: boolean;
  /** The cache queue (LangGraph.js's `AsyncBatchedCache`), settled before a run resolves. */
  batched: BatchedCache | undefined;
  /** The compiled graph of each subgraph node (a graph's runs report the subgraph's run under its name). */
  subgraphs: ReadonlyMap<string, CompiledStateGraph<object>>;
  /** What `getGraph` draws: the builder's record and the interrupts (none for a graph from `fromSpec`). */
  drawing: Drawing | undefined;
  /** The config a `withConfig` graph starts its calls from. */
  bound: RunnableConfig | undefined;
  /** What the graph's callback runs read of it (langchain/task_runs.ts), made on the first run. */
  runGraph: RunGraph | undefined;
}

/** The parts of a graph `compile` did not give (a `Pregel`'s, a `withConfig` copy's before it is filled in). */
function plainParts(given: Partial<CompiledParts> | undefined): CompiledParts {
  return {
    unCheckpointed: given?.unCheckpointed ?? false,
    batched: given?.batched,
    subgraphs: given?.subgraphs ?? new Map(),
    drawing: given?.drawing,
    bound: given?.bound,
    runGraph: undefined,
  };
}

/**
 * `op()` once `@langchain/core` was looked up (langchain/message_classes.ts): at
 * once, but on a graph's first run, which waits for the lookup.
 */
function classesKnown<T>(op: () => Promise<T>): Promise<T> {
  const pending = loadMessageClasses();
  return pending === undefined ? op() : pending.then(op);
}

/** A compiled graph: runs (`invoke`, `stream`) and the state API. */
export class CompiledStateGraph<S extends object = StateValues, U extends object = Partial<S>> {
  /** @internal */
  declare readonly [RAW]: raw.WasmCompiledGraph;
  /** @internal */
  declare readonly [DEFINITION]: StateDefinitionInfo | undefined;
  /** The update type (type only). */
  declare readonly "~UpdateType": U;
  /** The checkpointer given to `compile`. */
  declare readonly checkpointer: MemorySaver | undefined;
  /** @internal The saver the runs use (see `SAVER`). */
  declare readonly [SAVER]: MemorySaver | undefined;
  /** @internal A subclass's hook on each stream chunk (see `CHUNK`). */
  declare readonly [CHUNK]?: (mode: string, chunk: unknown) => unknown;
  /** The stream mode `stream` uses when its call names none (LangGraph.js's `graph.streamMode`; `"updates"` when unset). */
  declare streamMode?: StreamMode[];
  /** The nodes by name, each callable on its own (LangGraph.js's `graph.nodes`); empty for a graph from `fromSpec`. */
  declare readonly nodes: { readonly [name: string]: GraphNode };
  /** The long-term store given to `compile` (nodes get it as `config.store`). */
  declare readonly store: BaseStore | undefined;
  /** The name given to `compile` (its runs' name in LangChain callbacks and `streamEvents`; `getName()` defaults to `"LangGraph"`). */
  declare readonly name: string | undefined;
  /** The node cache given to `compile` (LangGraph.js's `graph.cache`). */
  declare readonly cache: BaseCache | undefined;
  /** LangGraph.js's `stepTimeout`: milliseconds a superstep may take before the run is cancelled (`Error("Abort")`). */
  stepTimeout?: number;
  /** See `CompiledParts`. */
  readonly #parts: CompiledParts;

  /** @internal Made by `StateGraph.compile()` (and by a `Pregel`, which runs on one). */
  constructor(compiled: raw.WasmCompiledGraph, definition?: StateDefinitionInfo, parts?: Partial<CompiledParts>) {
    if (!isInstance(compiled, raw.WasmCompiledGraph)) {
      throw argumentError("CompiledStateGraph is made by StateGraph.compile()");
    }
    hide(this, RAW, compiled);
    hide(this, DEFINITION, definition);
    this.#parts = plainParts(parts);
  }

  /**
   * The running task a call from inside a node joins: LangGraph.js's
   * "subgraph called as a function". The node's config reaches the graph
   * (passed on, or through Node's async context), and with it the parent
   * run's thread, the task's namespace and the parent's checkpointer, which
   * LangGraph.js lends to the graph even when it was compiled with one of
   * its own (not with `checkpointer: false`): the graph runs as a subgraph
   * of the task, pauses the task, and the resume reaches it.
   */
  #joinedTask(config: unknown): number | undefined {
    return this.#parts.unCheckpointed ? undefined : runningTask(config);
  }

  /** `run`, settled once the cache operations it asked for have (LangGraph.js awaits `cache.stop()` as a run ends). */
  #cacheSettled<T>(run: Promise<T>): Promise<T> {
    const batched = this.#parts.batched;
    return batched === undefined ? run : run.finally(() => batched.stop());
  }

  /** What the graph's callback runs read of it (langchain/task_runs.ts), made once per graph. */
  #runGraph(): RunGraph {
    return (this.#parts.runGraph ??= {
      runName: this.getName(),
      nodeMetadata: (node) => this[DEFINITION]?.nodeMetadata?.get(node),
      subgraph: (node) => {
        const subgraph = this.#parts.subgraphs.get(node);
        return subgraph === undefined ? undefined : subgraph.#runGraph();
      },
      revive: (values) => this[DEFINITION]?.messages?.values(values, false) ?? values,
    });
  }

  /** LangGraph.js's `clearCache()`: drops every entry of the graph's cache (`cache.clear([])`). */
  async clearCache(): Promise<void> {
    await this.cache?.clear([]);
  }

  /** A state (a run's result) with LangChain message instances where LangGraph.js has them (langchain/message_classes.ts). */
  #values(values: unknown): unknown {
    return this[DEFINITION]?.messages?.values(values) ?? values;
  }

  /** The snapshots of a listing, their values lazy (internal/lazy.ts), their messages instances as in LangGraph.js. */
  #listed(listing: Parameters<typeof listed>[0]): StateSnapshot<S>[] {
    const messages = this[DEFINITION]?.messages;
    const items = listed<StateSnapshot<S>>(listing, "values", (s) => s, false, messages?.listed);
    if (messages !== undefined) for (const s of items) messages.snapshot(s, false);
    return items;
  }

  /** Reads of a thread kept by a LangGraph.js checkpointer load it first (checkpoint/saver_bridge.ts). */
  async #load(config: RunnableConfig, access?: ThreadAccess): Promise<void> {
    const store = (this[SAVER] as { [THREAD_STORE]?: ThreadStore } | undefined)?.[THREAD_STORE];
    const { thread } = laneOptions(config);
    if (store !== undefined && thread !== undefined) await store.load(thread, access);
  }

  /**
   * Runs the graph from `input` (values), `null` (continue, or replay with
   * a `checkpoint_id`), or a `Command`. Runs, `updateState` and
   * `bulkUpdateState` of one thread take turns (see `multitaskStrategy`).
   */
  invoke(input: Partial<S> | null | Command, config?: RunnableConfig): Promise<RunOutput<S>> {
    const task = this.#joinedTask(config);
    const output = (out: unknown) => this.#values(out) as RunOutput<S>;
    if (task !== undefined) {
      return nestedRun(this.#runGraph(), input, config, () => withInput(this[DEFINITION], input, (i) => this[RAW].invokeInTask(written(this[DEFINITION], i), task)).then(output));
    }
    const { thread, strategy } = laneOptions(config);
    let context: unknown;
    let signal: AbortSignal | undefined;
    try {
      context = runContext(this[DEFINITION], config);
      signal = runSignal(config);
    } catch (e) {
      // LangGraph.js validates the context inside the run: its failure is a rejection.
      return Promise.reject(e);
    }
    const cancel = new RunCancel(signal, this.stepTimeout);
    const data: RunData = { context, checkpointed: this[SAVER] !== undefined, store: runStore(this, config), cancel, onNodeStart: earlyFlush(this[SAVER], thread, config) };
    const [runConfig, forget] = withRunData(withDefaultLimit(config), data);
    const engineRun = withCallbacks(this.#runGraph(), config, input, data, output, (runs) =>
      onThread(this[SAVER], thread, strategy, "invoke(input, config)", () =>
        classesKnown(() =>
          this.#cacheSettled(
            withInput(this[DEFINITION], input, (i) =>
              runs === undefined
                ? this[RAW].invoke(written(this[DEFINITION], i), runConfig)
                : // LangGraph.js's invoke is a stream: with callbacks, the engine's task events report the tasks' runs.
                  this[RAW].stream(written(this[DEFINITION], i), runConfig, modesWithRuns([]), rootChunks(runs, [], false, () => {}), true, true),
            ).then(output),
          ),
        ),
        { config, run: true },
      ),
    );
    // The run's data stays until the engine is done: a cancelled run's promise settles before that.
    engineRun.then(forget, forget);
    return cancel.race(engineRun) as Promise<RunOutput<S>>;
  }

  /** With `subgraphs: true` in `config`: `[namespace, chunk]`. */
  stream<M extends StreamMode = "updates">(
    input: Partial<S> | null | Command,
    config: RunnableConfig & { subgraphs: true; streamMode?: M },
  ): ChunkStream<NamespacedChunk<M>>;
  stream(input: Partial<S> | null | Command, config?: RunnableConfig): ChunkStream<StreamChunks<S>["updates"]>;
  /** With `subgraphs: true`: `[namespace, chunk]`. */
  stream<M extends StreamMode = "updates">(
    input: Partial<S> | null | Command,
    config: RunnableConfig | undefined,
    options: { streamMode?: M; subgraphs: true },
  ): ChunkStream<NamespacedChunk<M>>;
  /** With `subgraphs: true` and an array of modes: `[namespace, mode, chunk]`. */
  stream<M extends StreamMode>(
    input: Partial<S> | null | Command,
    config: RunnableConfig | undefined,
    options: { streamMode: M[]; subgraphs: true },
  ): ChunkStream<NamespacedTaggedChunk<M>>;
  stream<M extends StreamMode>(
    input: Partial<S> | null | Command,
    config: RunnableConfig | undefined,
    options: { streamMode: M; subgraphs?: false },
  ): ChunkStream<StreamChunks<S>[M]>;
  stream<M extends StreamMode>(
    input: Partial<S> | null | Command,
    config: RunnableConfig | undefined,
    options: { streamMode: M[]; subgraphs?: false },
  ): ChunkStream<TaggedChunk<S, M>>;
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
  stream(input: Partial<S> | null | Command, config?: RunnableConfig, options?: { streamMode?: StreamMode | StreamMode[]; subgraphs?: boolean }): ChunkStream<unknown> {
    let cancel: RunCancel | undefined;
    const iterator = chunkIterator<unknown>((push) => {
      cancel = new RunCancel(runSignal(config), this.stepTimeout, true);
      return this.#streamRun(push, input, config, options, cancel);
    });
    // LangGraph.js's stream: `cancel(reason)` ends the run (its nodes see their signal aborted) and the iteration.
    cancellable(iterator, cancel);
    const result = Promise.resolve(iterator) as ChunkStream<unknown>;
    result[Symbol.asyncIterator] = () => iterator;
    return result;
  }

  /** `stream()`'s run: its chunks go to `push`; the Promise settles with the run. */
  #streamRun(push: (c: unknown) => void, input: unknown, config: RunnableConfig | undefined, options: unknown, cancel: RunCancel): Promise<unknown> {
    const request = streamRequest(config, options, this.streamMode);
    const { list, subgraphs } = request;
    const { thread, strategy } = laneOptions(config);
    const taskMetadata = taskMetadataOf(config);
    const emit = emitterOf(push, request);
    // "messages" chunks come from the nodes' results and updates (stream/messages_of_nodes.ts), which
    // read the "debug" and "updates" chunks: asked for, and dropped when not requested.
    const nodeMetadata = this[DEFINITION]?.nodeMetadata;
    const messages = list.includes("messages") ? new NodeMessages((c, ns) => emit("messages", c, ns), config, nodeMetadata) : undefined;
    // A chat model a node calls streams its reply into "messages" through a handler among the
    // run's callbacks, as LangGraph.js adds its own (stream/messages_of_chat_models.ts).
    const callbacksConfig = messages !== undefined && classesPossible() ? withHandler(config, chatModelStreamer(messages, subgraphs)) : config;
    const internal = messages === undefined ? [] : ["debug", "updates"].filter((m) => !list.includes(m));
    const breakpointNs = subgraphs ? deepestMapNamespace(config) : undefined;
    const shown = this[DEFINITION]?.messages;
    const deliver = deliverer({ emit, messages, internal, breakpointNs, adapt: this[CHUNK], shown, taskMetadata, nodeMetadata });
    // Custom chunks of subgraphs' nodes travel through the engine as tokens (see `writer`).
    const customs = new Map<number, unknown>();
    const chunk = engineChunks(deliver, customs);
    // "custom" chunks come from the nodes' `config.writer`, not from the engine.
    const custom = list.includes("custom");
    const engineModes = custom || messages !== undefined ? [...list.filter((m) => m !== "custom" && m !== "messages"), ...internal] : request.modes;
    const wanted = isArray(engineModes) ? (engineModes as string[]) : [engineModes as string];
    // Called inside a node: the graph's own chunks, from a run in that node's task (see `#joinedTask`).
    const task = this.#joinedTask(config);
    if (task !== undefined) return this.#streamInTask(task, input, config, engineModes, wanted, chunk);
    // A subgraph's node writes among its subgraph's events: its chunk goes into the engine's
    // queue of them (as a token: the chunk may be any value), to keep its place in the stream.
    let tokens = 0;
    const writer = custom
      ? (c: unknown, ns: string[], task: number) => {
          if (subgraphs && ns.length > 0) {
            const token = ++tokens;
            customs.set(token, c);
            if (raw.taskCustom(task, token)) return;
            customs.delete(token);
          }
          // With callbacks, a chunk waits for the task runs reported before it (langchain/task_runs.ts).
          if (data.runs === undefined) deliver("custom", c, ns);
          else data.runs.deliver(() => deliver("custom", c, ns));
        }
      : undefined;
    const data: RunData = {
      context: runContext(this[DEFINITION], config),
      writer,
      messages,
      checkpointed: this[SAVER] !== undefined,
      store: runStore(this, config),
      cancel,
      onNodeStart: earlyFlush(this[SAVER], thread, config),
    };
    const [runConfig, forget] = withRunData(withDefaultLimit(config), data);
    const engineRun = withCallbacks(this.#runGraph(), callbacksConfig, input, data, (out) => this.#values(out), (runs) =>
      onThread(this[SAVER], thread, strategy, "stream(input, config)", () =>
        classesKnown(() =>
          this.#cacheSettled(
            withInput(this[DEFINITION], input, (i) => {
              if (runs === undefined) return this[RAW].stream(written(this[DEFINITION], i), runConfig, engineModes, chunk, subgraphs, false);
              // With callbacks: the tasks' events (and the subgraphs' states) report their runs;
              // the engine streams subgraphs for them, and the caller gets only what it asked for.
              const tapped = rootChunks(runs, wanted, subgraphs, chunk as (mode: string, c: unknown, ns?: string[]) => void);
              return this[RAW].stream(written(this[DEFINITION], i), runConfig, modesWithRuns(wanted), tapped, true, true);
            }),
          ),
        ),
        { config, run: true },
      ),
    );
    engineRun.then(forget, forget);
    return cancel.race(engineRun);
  }

  /** `stream()` inside a node: a run in the node's task `task`; with callbacks, its tasks' events report their runs, nested in the node's task. */
  #streamInTask(task: number, input: unknown, config: RunnableConfig | undefined, engineModes: unknown, own: string[], chunk: Emit): Promise<undefined> {
    const parent = runningRuns();
    const modesIn = parent === undefined ? engineModes : modesWithRuns(own);
    const chunkIn = parent === undefined ? chunk : nestedChunks(parent.runs, parent.runs.namespaceOf(parent.taskId), own, chunk as (mode: string, c: unknown, ns?: string[]) => void);
    return nestedRun(this.#runGraph(), input, config, () =>
      withInput(this[DEFINITION], input, (i) => this[RAW].streamInTask(written(this[DEFINITION], i), task, modesIn, chunkIn)).then((out) => this.#values(out)),
    ).then(() => undefined);
  }

  /**
   * The addressed checkpoint, or the thread's latest (with finished tasks
   * applied). A `config` whose `checkpoint_ns` names a subgraph task's
   * namespace reads that subgraph's checkpoints. A task that runs a
   * subgraph has `state`: the subgraph's namespace as a config, or with
   * `{ subgraphs: true }` that subgraph's newest snapshot (nested to any depth).
   */
  async getState(config: RunnableConfig, options?: GetStateOptions): Promise<StateSnapshot<S>> {
    if (options != null && typeof options !== "object") {
      throw argumentError(`getState(config, options): options must be an object like {subgraphs}, got ${describe(options)}`);
    }
    const subgraphs = flag(option(options, "subgraphs", "getState(config, options): options"), "getState(config, options): options.subgraphs");
    // LangGraph.js's getState reads the checkpointer's `getTuple`.
    await this.#load(config, { config, run: false });
    await loadMessageClasses();
    const snapshot = this[RAW].getState(config, subgraphs) as StateSnapshot<S>;
    this[DEFINITION]?.messages?.snapshot(snapshot);
    return echoConfig(snapshot, config);
  }

  /** Snapshots of the thread, newest first: `{ limit, before, filter }`. */
  async *getStateHistory(config: RunnableConfig, options?: ListOptions): AsyncIterableIterator<StateSnapshot<S>> {
    await this.#load(config);
    await loadMessageClasses();
    yield* this.#listed(this[RAW].getStateHistory(config, options));
  }

  /** Writes an `update` checkpoint as if `asNode` returned `values`; resolves to its config. */
  updateState(config: RunnableConfig, values: Partial<S> | null, asNode?: string): Promise<UpdatedConfig> {
    const { thread, strategy } = laneOptions(config);
    return onThread(this[SAVER], thread, strategy, "updateState(config, values, asNode)", () =>
      this[RAW].updateState(config, written(this[DEFINITION], values), asNode),
    );
  }

  /** Several supersteps of updates, each applied on the previous one's result: `[{ updates: [{ values, asNode, taskId? }] }]`. */
  bulkUpdateState(config: RunnableConfig, supersteps: { updates: StateUpdate<S>[] }[]): Promise<UpdatedConfig> {
    const { thread, strategy } = laneOptions(config);
    return onThread(this[SAVER], thread, strategy, "bulkUpdateState(config, supersteps)", () =>
      this[RAW].bulkUpdateState(config, writtenSupersteps(this[DEFINITION], supersteps)),
    );
  }

  /** The addressed checkpoint (or the latest) and its ancestors up to the root, child first. */
  async getLineage(config: RunnableConfig): Promise<StateSnapshot<S>[]> {
    await this.#load(config);
    await loadMessageClasses();
    return this.#listed(this[RAW].getLineage(config));
  }

  /**
   * LangGraph.js's `withConfig`: the same graph (same engine, checkpointer
   * and threads) whose runs and state calls start from `config`, merged
   * under each call's own (`configurable` and `metadata` key by key).
   */
  withConfig(config: RunnableConfig): CompiledStateGraph<S, U> {
    // Made by the constructor, not `Object.create`: the private methods
    // (`#joinedTask`, `#load`, ...) and fields exist only on constructed instances.
    const parts = this.#parts;
    const bound = mergeConfigs(parts.bound, config);
    const copy = new CompiledStateGraph<S, U>(this[RAW], this[DEFINITION], { ...parts, bound });
    Object.setPrototypeOf(copy, Object.getPrototypeOf(this) as object);
    hide(copy, "checkpointer", this.checkpointer);
    hide(copy, SAVER, this[SAVER]);
    if (this.streamMode !== undefined) hide(copy, "streamMode", this.streamMode);
    if (this[CHUNK] !== undefined) hide(copy, CHUNK, this[CHUNK]);
    hide(copy, "nodes", this.nodes);
    hide(copy, "store", this.store);
    hide(copy, "name", this.name);
    hide(copy, "cache", this.cache);
    hide(copy, "builder", (this as { builder?: unknown }).builder);
    copy.stepTimeout = this.stepTimeout;
    return bindConfig(copy, this, bound);
  }

  /**
   * LangChain's `Runnable.batch`: `invoke` for each input, with
   * `configs[i]` (or one config for all), at most `maxConcurrency` at a
   * time (from the first config, else `options`); with
   * `returnExceptions`, a failed run's error takes its place in the result.
   */
  batch(
    inputs: (Partial<S> | null | Command)[],
    configs?: RunnableConfig | RunnableConfig[],
    options?: { maxConcurrency?: number; returnExceptions?: boolean },
  ): Promise<(RunOutput<S> | Error)[]> {
    return batchRuns((input, config) => this.invoke(input, config), inputs, configs, options);
  }

  /**
   * LangGraph.js's `getGraph({ xray })`: the graph as `@langchain/core`'s
   * drawable `Graph` (`drawMermaid()`, `drawMermaidPng()`, `toJSON()`),
   * the same nodes, edges and labels as LangGraph.js draws; `xray` draws
   * subgraphs inside their nodes (a number: that many levels). Needs
   * `@langchain/core` (a `GraphValueError` of code `MISSING_PEER`
   * without); in a browser, call `getGraphAsync` first, which loads it.
   */
  getGraph(config?: DrawConfig): DrawableGraph {
    return drawGraph(drawingFor(this.#parts.drawing, "getGraph()"), config, this.getSubgraphs());
  }

  /** LangGraph.js's `getGraphAsync({ xray })`: {@link getGraph}, loading `@langchain/core` where needed. */
  async getGraphAsync(config?: DrawConfig): Promise<DrawableGraph> {
    return drawGraphAsync(drawingFor(this.#parts.drawing, "getGraphAsync()"), config, this.getSubgraphs());
  }

  /**
   * LangGraph.js's `getSubgraphs(namespace, recurse)`: `[name, subgraph]`
   * for each node that is a compiled graph (or lists some in its
   * `subgraphs` option); only the one at `namespace` (`"parent|child"`,
   * nested ones with `recurse`) when given.
   */
  *getSubgraphs(namespace?: string, recurse?: boolean): Generator<[string, CompiledStateGraph<object>]> {
    yield* subgraphsOf(drawingFor(this.#parts.drawing, "getSubgraphs()"), namespace, recurse) as Generator<[string, CompiledStateGraph<object>]>;
  }

  /** LangGraph.js's `getSubgraphsAsync(namespace, recurse)`: {@link getSubgraphs}. */
  async *getSubgraphsAsync(namespace?: string, recurse?: boolean): AsyncGenerator<[string, CompiledStateGraph<object>]> {
    yield* this.getSubgraphs(namespace, recurse);
  }

  /** LangChain's `Runnable.getName(suffix)`: the compiled name, else `"LangGraph"`. */
  getName(suffix?: string): string {
    const name = this.name ?? "LangGraph";
    return suffix ? `${name}${suffix}` : name;
  }

  /** LangChain's Runnable marks, as LangGraph.js's compiled graphs have them (a drawn node's data reads them). */
  get lc_runnable(): true {
    return true;
  }

  /** LangChain's `lc_namespace` of LangGraph.js's compiled graph. */
  get lc_namespace(): string[] {
    return ["langgraph", "pregel"];
  }

  /** LangChain's `lc_id` of LangGraph.js's compiled graph. */
  get lc_id(): string[] {
    return ["langgraph", "pregel", "CompiledStateGraph"];
  }

  /**
   * LangChain's `streamEvents`: with `version: "v2"` (or `"v1"`), the
   * callback events of the run, as LangGraph.js streams them: the graph's
   * chain run (`on_chain_start`, its chunks as `on_chain_stream`,
   * `on_chain_end`), each task's and subgraph's run, each router's, the
   * custom events nodes dispatch and whatever their runnables report;
   * `includeNames`/`includeTypes`/`includeTags` and their `exclude*` in
   * `streamOptions` filter them. Needs `@langchain/core` (else the stream
   * fails with a `GraphValueError` of code `MISSING_LANGCHAIN_CORE`).
   * `cancel()` or breaking out of the loop cancels the run, as
   * `options.signal` does.
   */
  streamEvents(input: Partial<S> | null | Command, options: RunnableConfig & { version: "v1" | "v2"; encoding?: undefined }, streamOptions?: StreamEventsOptions): EventStream<StreamEvent>;
  /** With `encoding: "text/event-stream"`: the events as server-sent events (bytes). */
  streamEvents(input: Partial<S> | null | Command, options: RunnableConfig & { version: "v1" | "v2"; encoding: "text/event-stream" }, streamOptions?: StreamEventsOptions): EventStream<Uint8Array>;
  /**
   * With `version: "v3"`: LangGraph.js's streaming protocol, a Promise of a
   * `GraphRunStream`: an async iterable of protocol events `{ method,
   * params: { namespace, timestamp, data } }` (`lifecycle`, `checkpoints`,
   * `values`, `updates`, `tasks`, `custom`, `messages`; subgraphs' and the
   * graphs nodes invoke, under their task's namespace), with `values`,
   * `output`, `subgraphs`, `messages`, `lifecycle`, `interrupts`,
   * `extensions` (of `transformers`) and `abort()`.
   */
  streamEvents(
    input: Partial<S> | null | Command,
    options: RunnableConfig & { version: "v3"; encoding?: undefined; transformers?: StreamTransformerFactory[] },
  ): Promise<GraphRunStream<S>>;
  /** `version: "v3"` as server-sent events (`event: <method>[|namespace]`). */
  streamEvents(input: Partial<S> | null | Command, options: RunnableConfig & { version: "v3"; encoding: "text/event-stream"; transformers?: StreamTransformerFactory[] }): Promise<ReadableStream<Uint8Array>>;
  streamEvents(
    input: Partial<S> | null | Command,
    options: RunnableConfig & { version: "v1" | "v2" | "v3"; encoding?: string; transformers?: StreamTransformerFactory[] },
    streamOptions?: StreamEventsOptions,
  ): EventStream<unknown> | Promise<GraphRunStream<S> | ReadableStream<Uint8Array>> {
    const graph = this;
    const stream = (i: unknown, c: unknown) => graph.stream(i as never, c as RunnableConfig);
    if (option(options, "version", "streamEvents(input, options): options") === "v3") {
      return loadChatModelStream().then((cms) => streamEventsV3({ stream }, input, options as unknown as Record<string, unknown>, cms) as GraphRunStream<S> | ReadableStream<Uint8Array>);
    }
    return streamEvents({ stream, getName: () => graph.getName() }, input, options as unknown as Record<string, unknown>, streamOptions);
  }

  /** Channel values converted for JS nodes so far (unchanged channels are reused). Unstable. */
  get _stateConversions(): number {
    return this[RAW].stateConversions;
  }

  /** Values converted for JS nodes so far, counting list items one by one (a grown list costs its new items). Unstable. */
  get _stateItemsConverted(): number {
    return this[RAW].stateItemsConverted;
  }
}

setCompiledCheck((v) => isInstance(v, CompiledStateGraph));
