// Type declarations of the `chronograph` package (hand-written; no `any`).
// Data shapes follow LangGraph.js: camelCase snapshot fields (`createdAt`,
// `parentConfig`), snake_case config keys (`thread_id`, `checkpoint_id`).

/**
 * A JSON value: what state channels, updates and interrupt values hold.
 *
 * Every value handed to the engine (run inputs, `updateState` values, node
 * and reducer results, `interrupt()` values, `Command` fields, `put` /
 * `putWrites` / `importThread` data, `StateGraph.fromSpec` specs) must be
 * JSON data: no cycles, objects and arrays nested at most **256** levels
 * deep (the value itself is level 1; a whole checkpoint or thread export
 * may nest 16 more for its own structure), arrays of at most 2^22 (4,194,304) items,
 * no functions, symbols, `Set`s, typed arrays, or BigInts outside the safe
 * integer range (a safe BigInt reads as a number).
 * Anything else is refused with a `TypeError` whose `code` is
 * `"INVALID_VALUE"` and whose message names the path of the bad value
 * (`input.n.self: the value contains itself (a cycle); ...`); nothing is
 * stored and the module keeps working. `undefined` and `NaN` read as `null`,
 * `Map`s with string keys as objects, other objects by their own enumerable
 * properties.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** State values: channel name → value. */
export type StateValues = { [channel: string]: Json };

/** The entry of every graph. */
export declare const START: "__start__";
/** The exit of every graph. */
export declare const END: "__end__";
/** `asNode` value that makes `updateState` behave like new input. */
export declare const INPUT: "__input__";
/** `asNode` value that makes `updateState` copy a checkpoint (a sibling). */
export declare const COPY: "__copy__";

/** A built-in reducer. */
export type ReducerName = "last_value" | "append" | "sum" | "add_messages";

/** A JavaScript reducer: folds each value written in a superstep into the channel. */
export interface CustomChannel<T extends Json = Json> {
  /** `(current, written) => next`; must be synchronous. Without `default`, the first write is taken as is. */
  reducer(current: T, update: T): T;
  /** The value an empty channel starts from. */
  default?(): T;
}

/** How a state channel combines writes (`null`: `"last_value"`). */
export type ChannelSpec = ReducerName | { reducer: ReducerName } | CustomChannel | null;

/** The `configurable` part of a config. A falsy `checkpoint_id` means "the thread's latest". */
export interface Configurable {
  thread_id?: string | number;
  checkpoint_id?: string | null;
  checkpoint_ns?: string;
  [key: string]: unknown;
}

/** A run's configuration (LangGraph.js `RunnableConfig`). */
export interface RunnableConfig {
  configurable?: Configurable;
  /** Superstep budget (default 10007; the `__start__` step and the final tick count). */
  recursionLimit?: number;
  /** Extra keys copied into the metadata of every checkpoint the run writes (primitives only). */
  metadata?: { [key: string]: unknown };
  /** For `stream(input, config)`: the stream mode, when not given as the third argument. */
  streamMode?: StreamMode | StreamMode[];
  /** For `stream(input, config)`: also stream subgraphs, when not given in the third argument. */
  subgraphs?: boolean;
  /**
   * What a run or update does when another run or update of the same
   * thread (same checkpointer, same `thread_id`) is in flight:
   * `"enqueue"` (the default) waits its turn, in arrival order;
   * `"reject"` fails at once with a `ThreadBusyError` (code
   * `"THREAD_BUSY"`). Different threads always run concurrently.
   */
  multitaskStrategy?: "enqueue" | "reject";
}

/**
 * Namespace → checkpoint id: where a subgraph checkpoint sits (its
 * ancestors' checkpoints, `""` for the root graph's, plus its own).
 */
export type CheckpointMap = { [namespace: string]: string };

/** The address of one checkpoint. */
export interface CheckpointConfig {
  configurable: {
    thread_id: string;
    /** `""` for the root graph; `node:task_id` levels joined by `|` for a subgraph. */
    checkpoint_ns: string;
    checkpoint_id: string;
  };
}

/** The address of a snapshot's checkpoint: a subgraph checkpoint's also carries `checkpoint_map`. */
export interface SnapshotConfig {
  configurable: {
    thread_id: string;
    checkpoint_ns: string;
    /** Absent only for a subgraph namespace that has no checkpoint yet (`getState(config, { subgraphs: true })`). */
    checkpoint_id?: string;
    checkpoint_map?: CheckpointMap;
  };
}

/** What `updateState` and `bulkUpdateState` resolve to (`checkpoint_map` for an update of a subgraph). */
export interface UpdatedConfig {
  configurable: { thread_id: string; checkpoint_ns: string; checkpoint_id: string; checkpoint_map?: CheckpointMap };
  recursionLimit?: number;
}

/** An `interrupt(value)` raised by a node, and the id to resume it by. */
export interface Interrupt<V extends Json = Json> {
  value: V;
  id: string;
}

/** What wrote a checkpoint. */
export type CheckpointSource = "input" | "loop" | "update" | "fork";

/** Checkpoint metadata: source, step, parents, thread_id, plus the run's primitive config keys. */
export interface CheckpointMetadata {
  source: CheckpointSource;
  step: number;
  parents: { [namespace: string]: string };
  thread_id: string;
  [key: string]: Json;
}

/** Where a subgraph task keeps its checkpoints: its namespace, read like a thread (no checkpoint id). */
export interface SubgraphConfig {
  configurable: { thread_id: string; checkpoint_ns: string };
}

/** A task a checkpoint schedules (LangGraph.js `PregelTaskDescription`). */
export interface PregelTaskDescription {
  id: string;
  name: string;
  interrupts: Interrupt[];
  /** The stored error (Python `repr` text) when the task failed. */
  error?: string;
  /** For a finished task: its state writes. */
  result?: { [channel: string]: Json };
  /**
   * For a task that runs a subgraph: the subgraph's namespace as a config,
   * or with `getState(config, { subgraphs: true })` the subgraph's newest
   * snapshot (its tasks nest further).
   */
  state?: SubgraphConfig | StateSnapshot;
}

/** The state of a thread at one checkpoint (LangGraph.js `StateSnapshot`). */
export interface StateSnapshot<S extends object = StateValues> {
  values: Partial<S>;
  next: string[];
  config: SnapshotConfig;
  metadata?: CheckpointMetadata;
  createdAt?: string;
  parentConfig?: CheckpointConfig;
  tasks: PregelTaskDescription[];
}

/** The config a node function receives: the run's config plus the task's metadata. */
export interface NodeConfig {
  configurable: Configurable;
  recursionLimit?: number;
  metadata: { langgraph_node: string; langgraph_step: number; langgraph_task_id: string; [key: string]: Json };
}

/** A state update: some channels' new values (through their reducers). */
export type Update<S extends object> = Partial<S> | null | undefined | void;

/**
 * A node: returns an update or a `Command` (its update plus where to go
 * next), or a Promise of either. May call `interrupt()`. A node run by a
 * `Send` is given the Send's `args` instead of the state.
 */
export type NodeFunction<S extends object> = (
  state: S,
  config: NodeConfig,
) => Update<S> | Command | Promise<Update<S> | Command>;

/** Where a router or a `Command` sends the run: a node name (or `END`), or a `Send`. */
export type Destination = string | Send;

/** A router: returns the next node(s) (or `END`) and/or `Send`s, or a Promise of them. */
export type Router<S extends object> = (state: S) => Destination | Destination[] | Promise<Destination | Destination[]>;

/** Options of `addNode`. */
export interface AddNodeOptions {
  /** Where a `Command` the node returns may go: drawn as conditional edges; each must be a node or `END`. */
  ends?: string[];
}

/** Options of `compile`. */
export interface CompileOptions {
  checkpointer?: MemorySaver;
  /** Pause before these nodes (`"*"`: every node). */
  interruptBefore?: string[] | "*";
  /** Pause after these nodes (`"*"`: every node). */
  interruptAfter?: string[] | "*";
}

/** A graph in the JSON graph format (tests/conformance/FORMAT.md). */
export interface GraphSpec {
  channels?: { [channel: string]: { reducer?: ReducerName } };
  /** A node is made of built-in ops, or is a whole graph run as a subgraph. */
  nodes: { [node: string]: { writes?: SpecOp[] } | { subgraph: GraphSpec } };
  edges?: [string | string[], string][];
  conditional_edges?: (
    | { from: string; when?: { if: { channel: string; lt?: number; eq?: Json }; to: string }[]; else: string }
    /** `Send(to, {key: x})` for each item x of list channel `each`. */
    | { from: string; send: { to: string; each: string; key: string } }
  )[];
  compile?: { interrupt_before?: string | string[]; interrupt_after?: string | string[]; checkpointer?: boolean };
}

/** One built-in op of a spec node. */
export type SpecOp =
  | { set: { [channel: string]: Json } }
  | { reply: string; prefix?: string }
  | { incr: string; by?: number }
  | { interrupt: Json; resume_to?: string }
  | { fail_if: { channel: string; equals: Json } }
  /** Writes `[prefix + x]` to `collect`, x the value at `from` of the node's input. */
  | { collect: string; from: string; prefix?: string }
  /** The node returns `Command({update: <its writes>, goto})`, for the parent graph with `graph: "parent"`. */
  | { goto: string | string[]; graph?: "parent" };

/** A graph builder. Methods chain; graph mistakes are reported by `compile`. */
export declare class StateGraph<S extends object = StateValues> {
  /** `channels` maps each state key to its reducer. */
  constructor(channels: { [K in keyof NoInfer<S>]: ChannelSpec });
  /** A builder from the JSON graph format (nodes made of built-in ops). */
  static fromSpec(spec: GraphSpec): StateGraph<StateValues>;
  /** A node function; `options.ends` lists where a `Command` it returns may go. */
  addNode(name: string, fn: NodeFunction<S>, options?: AddNodeOptions): this;
  /**
   * A compiled graph as a node (a subgraph): it starts from this graph's
   * values of the channels both declare (or a `Send`'s args), keeps its
   * checkpoints in the task's namespace of this graph's checkpointer, and
   * its final state is the node's update.
   */
  addNode(name: string, subgraph: CompiledStateGraph<object>, options?: AddNodeOptions): this;
  /** With several sources, `to` runs once all of them have run (a join). */
  addEdge(from: string | string[], to: string): this;
  /** `pathMap` maps router results to nodes, or lists the possible destinations. */
  addConditionalEdges(from: string, router: Router<S>, pathMap?: { [result: string]: string } | string[]): this;
  compile(options?: CompileOptions): CompiledStateGraph<S>;
}

/** The stream modes. */
export type StreamMode = "values" | "updates" | "checkpoints" | "tasks" | "debug";

/** A `"checkpoints"` chunk: a checkpoint as it is saved. */
export interface CheckpointChunk<S extends object = StateValues> {
  config: CheckpointConfig;
  metadata: CheckpointMetadata;
  values: Partial<S>;
  next: string[];
  parentConfig?: CheckpointConfig;
}

/** A `"tasks"` chunk: a task starting (`{id, name}`) or finished (with `error` and `interrupts`). */
export interface TaskChunk {
  id: string;
  name: string;
  error?: string | null;
  interrupts?: Interrupt[];
}

/** A `"debug"` chunk. */
export type DebugChunk<S extends object = StateValues> =
  | { type: "checkpoint"; timestamp: string; step: number; payload: CheckpointChunk<S> }
  | { type: "task" | "task_result"; timestamp: string; step: number; payload: TaskChunk };

/** What a run reports when `interrupt()` or a breakpoint paused it. */
export interface InterruptChunk {
  __interrupt__: Interrupt[];
}

/** The chunk type of each stream mode. */
export interface StreamChunks<S extends object> {
  values: Partial<S> | InterruptChunk;
  updates: { [node: string]: Partial<S> | null } | InterruptChunk;
  checkpoints: CheckpointChunk<S>;
  tasks: TaskChunk;
  debug: DebugChunk<S>;
}

/** With an array of modes, chunks are `[mode, chunk]`. */
export type TaggedChunk<S extends object, M extends StreamMode> = { [K in M]: [K, StreamChunks<S>[K]] }[M];

/**
 * The graph a chunk of `stream(..., { subgraphs: true })` comes from: its
 * `node:task_id` levels, `[]` for the graph streamed.
 */
export type Namespace = string[];

/** With `subgraphs: true`: `[namespace, chunk]` (subgraphs' chunks have their own state's shape). */
export type NamespacedChunk<M extends StreamMode> = [Namespace, StreamChunks<StateValues>[M]];

/** With `subgraphs: true` and an array of modes: `[namespace, mode, chunk]`. */
export type NamespacedTaggedChunk<M extends StreamMode> = { [K in M]: [Namespace, K, StreamChunks<StateValues>[K]] }[M];

/** Options of `stream` (they may also be given in its `config`). */
export interface StreamOptions<M extends StreamMode | StreamMode[] = StreamMode | StreamMode[]> {
  streamMode?: M;
  /** Also stream the chunks of the subgraphs the run runs, each tagged with its namespace. */
  subgraphs?: boolean;
}

/** Options of `getState`. */
export interface GetStateOptions {
  /** Give each subgraph task's `state` as that subgraph's newest snapshot. */
  subgraphs?: boolean;
}

/** `stream`'s result: an async iterable, and also a Promise of one (`await graph.stream(...)`). */
export type ChunkStream<T> = Promise<AsyncIterableIterator<T>> & AsyncIterable<T>;

/** What `invoke` resolves to: the state, plus `__interrupt__` when `interrupt()` paused the run. */
export type RunOutput<S extends object> = Partial<S> & { __interrupt__?: Interrupt[] };

/** Options of `getStateHistory` and `MemorySaver.list`. */
export interface ListOptions {
  limit?: number;
  /** Only checkpoints older than this one (a config or a checkpoint id). */
  before?: RunnableConfig | string;
  /** Every key must equal the checkpoint's metadata value. */
  filter?: { [key: string]: Json };
}

/** One update of `bulkUpdateState`. */
export interface StateUpdate<S extends object = StateValues> {
  values: Partial<S> | null;
  asNode?: string;
  taskId?: string;
}

/** A compiled graph: runs and the state API. */
export declare class CompiledStateGraph<S extends object = StateValues> {
  private constructor();
  /** The checkpointer given to `compile`. */
  readonly checkpointer: MemorySaver | undefined;
  /**
   * Runs from `input` (values), `null` (continue, or replay with a `checkpoint_id`), or a `Command`.
   * Runs, `updateState` and `bulkUpdateState` of one thread take turns (see `multitaskStrategy`).
   */
  invoke(input: Partial<S> | null | Command, config?: RunnableConfig): Promise<RunOutput<S>>;
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
   * The addressed checkpoint, or the thread's latest with finished tasks
   * applied. A `config` whose `checkpoint_ns` names a subgraph task's
   * namespace reads that subgraph's checkpoints.
   */
  getState(config: RunnableConfig, options?: GetStateOptions): Promise<StateSnapshot<S>>;
  /** Snapshots newest first. */
  getStateHistory(config: RunnableConfig, options?: ListOptions): AsyncIterableIterator<StateSnapshot<S>>;
  /** Writes an `update` checkpoint as if `asNode` returned `values`; resolves to its config. */
  updateState(config: RunnableConfig, values: Partial<S> | null, asNode?: string): Promise<UpdatedConfig>;
  /** Several supersteps of updates, each applied on the previous one's result. */
  bulkUpdateState(config: RunnableConfig, supersteps: { updates: StateUpdate<S>[] }[]): Promise<UpdatedConfig>;
  /** The addressed checkpoint (or the latest) and its ancestors up to the root, child first. */
  getLineage(config: RunnableConfig): Promise<StateSnapshot<S>[]>;
  /** Channel values converted for JS nodes so far (unchanged channels are reused). Unstable. */
  readonly _stateConversions: number;
  /** Values converted for JS nodes so far, counting list items one by one (a grown list costs its new items). Unstable. */
  readonly _stateItemsConverted: number;
}

/**
 * LangGraph's `Send`: run `node` once in the next superstep, given `args`
 * instead of the state. Return it from a router (mixed with node names) or
 * in a `Command`'s `goto`. A Send to a node the graph does not have is dropped.
 */
export declare class Send<A extends Json = Json> {
  constructor(node: string, args: A);
  readonly lg_name: "Send";
  node: string;
  args: A;
  toJSON(): { lg_name: "Send"; node: string; args: A };
}

/**
 * LangGraph's `Command`: resume an interrupt, update state, go to nodes.
 * As `invoke`'s input it resumes or steers a thread; returned by a node it
 * is the node's update plus where to go next (in addition to its edges).
 */
export declare class Command<R extends Json = Json> {
  constructor(args?: {
    resume?: R | { [interruptId: string]: Json };
    /** Channel values, or `[channel, value]` pairs (each channel once). */
    update?: { [channel: string]: Json } | [string, Json][];
    goto?: Destination | Destination[];
    /** `Command.PARENT`: the command is for the graph that runs this one as a subgraph. */
    graph?: typeof Command.PARENT;
  });
  /** `graph` value addressing the parent graph (from a node inside a subgraph). */
  static readonly PARENT: "__parent__";
  readonly lg_name: "Command";
  resume?: R | { [interruptId: string]: Json };
  update?: { [channel: string]: Json } | [string, Json][];
  /** Always a list, as in LangGraph.js. */
  goto: Destination[];
  graph?: typeof Command.PARENT;
}

/**
 * Pauses the running node with `value`; on resume the node runs again and
 * this call returns the answer. In a browser, after the node's first
 * `await`, pass the node's config as the second argument.
 */
export declare function interrupt<R extends Json = Json>(value: Json, config?: NodeConfig): R;

/** A stored checkpoint (channel versions are strings, `"<counter>.<salt>"`). */
export interface Checkpoint {
  v: number;
  id: string;
  ts: string;
  channel_values: { [channel: string]: Json };
  channel_versions: { [channel: string]: string };
  versions_seen: { [node: string]: { [channel: string]: string } };
  updated_channels?: string[] | null;
}

/** A checkpoint with everything needed to resume from it (LangGraph.js `CheckpointTuple`). */
export interface CheckpointTuple {
  config: CheckpointConfig;
  checkpoint: Checkpoint;
  metadata: CheckpointMetadata;
  parentConfig?: CheckpointConfig;
  /** `[taskId, channel, value]`. */
  pendingWrites: [string, string, Json][];
}

/** A whole thread as JSON (`MemorySaver.exportThread`), branches and pending writes included. */
export interface ThreadExport {
  format: "chronograph.thread.v1";
  thread_id: string;
  namespaces: {
    checkpoint_ns: string;
    checkpoints: {
      checkpoint: Checkpoint;
      metadata: Omit<CheckpointMetadata, "thread_id">;
      parent_id: string | null;
      pending_writes: { task_id: string; channel: string; value: Json; task_path: string; idx: number }[];
    }[];
    blobs: { channel: string; version: string; value: Json }[];
  }[];
}

/**
 * LangGraph.js's in-memory checkpointer, usable on its own. Its writes of a
 * thread (`put`, `putWrites`, `deleteThread`, `importThread`) wait for the
 * runs and updates of that thread in flight, like any run or update does.
 */
export declare class MemorySaver {
  constructor();
  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined>;
  /** Newest first; without a `thread_id`, every thread. */
  list(config?: RunnableConfig, options?: ListOptions): AsyncIterableIterator<CheckpointTuple>;
  put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: Omit<CheckpointMetadata, "thread_id"> & { thread_id?: string },
    newVersions?: { [channel: string]: string },
  ): Promise<CheckpointConfig>;
  putWrites(config: RunnableConfig, writes: [string, Json][], taskId: string): Promise<void>;
  deleteThread(threadId: string): Promise<void>;
  exportThread(threadId: string): Promise<ThreadExport | undefined>;
  importThread(data: ThreadExport): Promise<void>;
  threadIds(): Promise<string[]>;
}

export { MemorySaver as InMemorySaver };

/** Fields every error of the package carries. */
export interface ErrorFields {
  /**
   * Machine-readable: `INVALID_UPDATE`, `GRAPH_RECURSION_LIMIT`, `EMPTY_INPUT`, `MISSING_CHECKPOINTER`,
   * `INVALID_ARGUMENT` (a `TypeError`: an argument of the wrong shape), `INVALID_VALUE` (a `TypeError`: a
   * value that is not JSON data, see `Json`; or a `GraphValueError`), `THREAD_BUSY` (`ThreadBusyError`),
   * `NODE_ERROR`, ...
   */
  code: string;
  /** The node that raised it, when a node did. */
  node?: string;
  /** LangGraph's troubleshooting code, when it has a page. */
  lc_error_code?: string;
}

/** Base class of the engine's errors. */
export declare class ChronographError extends Error implements ErrorFields {
  constructor(message?: string);
  code: string;
  node?: string;
  lc_error_code?: string;
}
export declare class InvalidUpdateError extends ChronographError {}
export declare class GraphRecursionError extends ChronographError {}
export declare class EmptyInputError extends ChronographError {}
export declare class GraphValueError extends ChronographError {}
export declare class GraphSpecError extends ChronographError {}
export declare class GraphInterrupt extends ChronographError {}
/**
 * A run or update found its thread busy (code `"THREAD_BUSY"`): another
 * one is in flight and the config says `multitaskStrategy: "reject"`, or
 * a node called it on its own run's thread (which would wait forever).
 */
export declare class ThreadBusyError extends ChronographError {}
