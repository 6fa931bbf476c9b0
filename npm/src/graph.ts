// The graph API: `StateGraph` (the builder) and `CompiledStateGraph` (runs
// and the state API), over the raw classes of core/src/wasm/.
import * as raw from "./wasm/chronograph.js";
import { argumentError, describe, flag, hide, isArray, isInstance, option } from "./args.js";
import { RAW } from "./internal.js";
import { laneOptions, onThread, wrapNode, type UserNode } from "./runtime.js";
import { listed } from "./lazy.js";
import { MemorySaver } from "./saver.js";
import { chunkIterator } from "./stream.js";
import type { Command } from "./command.js";
import type {
  AddNodeOptions,
  ChannelSpec,
  ChunkStream,
  CompileOptions,
  GetStateOptions,
  GraphSpec,
  ListOptions,
  NamespacedChunk,
  NamespacedTaggedChunk,
  NodeFunction,
  Router,
  RunnableConfig,
  RunOutput,
  StateSnapshot,
  StateUpdate,
  StateValues,
  StreamChunks,
  StreamMode,
  TaggedChunk,
  UpdatedConfig,
} from "./types.js";

/**
 * A graph builder. `channels` maps each state key to its reducer:
 * `"last_value"` (default), `"append"`, `"sum"`, `"add_messages"`, or
 * `{ reducer: (current, update) => next, default?: () => initial }`.
 * Methods chain; graph mistakes are reported by `compile`.
 */
export class StateGraph<S extends object = StateValues> {
  /** @internal */
  declare readonly [RAW]: raw.WasmStateGraph;

  /** `channels` maps each state key to its reducer. */
  constructor(channels: { [K in keyof NoInfer<S>]: ChannelSpec }) {
    hide(this, RAW, new raw.WasmStateGraph(channels));
  }

  /** A builder from the JSON graph format (tests/conformance/FORMAT.md), nodes made of built-in ops. */
  static fromSpec(spec: GraphSpec): StateGraph<StateValues> {
    return hide(Object.create(StateGraph.prototype) as StateGraph<StateValues>, RAW, raw.WasmStateGraph.fromSpec(spec));
  }

  /**
   * Adds a node: `fn(state, config)` returns an update object or a
   * `Command` (or a Promise of either); `options.ends` lists where a
   * returned `Command` may go (drawn as conditional edges; `compile` checks
   * that they exist).
   */
  addNode(name: string, fn: NodeFunction<S>, options?: AddNodeOptions): this;
  /**
   * A compiled graph as a node (a subgraph): it starts from this graph's
   * values of the channels both declare (or a `Send`'s args), keeps its
   * checkpoints in the task's namespace of this graph's checkpointer, and
   * its final state is the node's update.
   */
  addNode(name: string, subgraph: CompiledStateGraph<object>, options?: AddNodeOptions): this;
  addNode(name: string, action: NodeFunction<S> | CompiledStateGraph<object>, options?: AddNodeOptions): this {
    if (options != null && typeof options !== "object") {
      throw argumentError(`addNode(name, action, options): options must be an object like {ends}, got ${describe(options)}`);
    }
    const ends = option(options, "ends", "addNode(name, action, options): options");
    if (isInstance(action, CompiledStateGraph)) this[RAW].addSubgraph(name, action[RAW], ends);
    else this[RAW].addNode(name, typeof action === "function" ? wrapNode(action as UserNode) : action, ends);
    return this;
  }

  /** Adds an edge; with several sources, `to` runs once all of them have run (a join). */
  addEdge(from: string | string[], to: string): this {
    this[RAW].addEdge(from, to);
    return this;
  }

  /**
   * Adds a conditional edge: `router(state)` returns a node name, a `Send`,
   * or an array of them (or a Promise of that). `pathMap` maps router
   * results to nodes, or lists the possible destinations.
   */
  addConditionalEdges(from: string, router: Router<S>, pathMap?: { [result: string]: string } | string[]): this {
    this[RAW].addConditionalEdges(from, router, pathMap);
    return this;
  }

  /** Validates and compiles: `{ checkpointer, interruptBefore, interruptAfter }`. */
  compile(options: CompileOptions = {}): CompiledStateGraph<S> {
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
    return hide(new CompiledStateGraph<S>(compiled), "checkpointer", checkpointer ?? undefined);
  }
}

/** A compiled graph: runs (`invoke`, `stream`) and the state API. */
export class CompiledStateGraph<S extends object = StateValues> {
  /** @internal */
  declare readonly [RAW]: raw.WasmCompiledGraph;
  /** The checkpointer given to `compile`. */
  declare readonly checkpointer: MemorySaver | undefined;

  /** @internal Made by `StateGraph.compile()`. */
  constructor(compiled: raw.WasmCompiledGraph) {
    if (!isInstance(compiled, raw.WasmCompiledGraph)) {
      throw argumentError("CompiledStateGraph is made by StateGraph.compile()");
    }
    hide(this, RAW, compiled);
  }

  /**
   * Runs the graph from `input` (values), `null` (continue, or replay with
   * a `checkpoint_id`), or a `Command`. Runs, `updateState` and
   * `bulkUpdateState` of one thread take turns (see `multitaskStrategy`).
   */
  invoke(input: Partial<S> | null | Command, config?: RunnableConfig): Promise<RunOutput<S>> {
    const { thread, strategy } = laneOptions(config);
    return onThread(this.checkpointer, thread, strategy, "invoke(input, config)", () => this[RAW].invoke(input, config));
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
    const iterator = chunkIterator<unknown>((push) => {
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
          ? (mode: string, c: unknown, ns: string[]) => push([ns, mode, c])
          : (_mode: string, c: unknown, ns: string[]) => push([ns, c])
        : tagged
          ? (mode: string, c: unknown) => push([mode, c])
          : (_mode: string, c: unknown) => push(c);
      return onThread(this.checkpointer, thread, strategy, "stream(input, config)", () =>
        this[RAW].stream(input, config, modes, chunk, subgraphs),
      );
    });
    const result = Promise.resolve(iterator) as ChunkStream<unknown>;
    result[Symbol.asyncIterator] = () => iterator;
    return result;
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
    return this[RAW].getState(config, subgraphs);
  }

  /** Snapshots of the thread, newest first: `{ limit, before, filter }`. */
  async *getStateHistory(config: RunnableConfig, options?: ListOptions): AsyncIterableIterator<StateSnapshot<S>> {
    yield* listed<StateSnapshot<S>>(this[RAW].getStateHistory(config, options), "values", (s) => s);
  }

  /** Writes an `update` checkpoint as if `asNode` returned `values`; resolves to its config. */
  updateState(config: RunnableConfig, values: Partial<S> | null, asNode?: string): Promise<UpdatedConfig> {
    const { thread, strategy } = laneOptions(config);
    return onThread(this.checkpointer, thread, strategy, "updateState(config, values, asNode)", () =>
      this[RAW].updateState(config, values, asNode),
    );
  }

  /** Several supersteps of updates, each applied on the previous one's result: `[{ updates: [{ values, asNode, taskId? }] }]`. */
  bulkUpdateState(config: RunnableConfig, supersteps: { updates: StateUpdate<S>[] }[]): Promise<UpdatedConfig> {
    const { thread, strategy } = laneOptions(config);
    return onThread(this.checkpointer, thread, strategy, "bulkUpdateState(config, supersteps)", () =>
      this[RAW].bulkUpdateState(config, supersteps),
    );
  }

  /** The addressed checkpoint (or the latest) and its ancestors up to the root, child first. */
  async getLineage(config: RunnableConfig): Promise<StateSnapshot<S>[]> {
    return listed<StateSnapshot<S>>(this[RAW].getLineage(config), "values", (s) => s);
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
