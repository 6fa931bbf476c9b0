// The data shapes that cross the package's surface (LangGraph.js's names
// and fields): configs, snapshots, tasks, checkpoints. Shapes follow
// LangGraph.js: camelCase snapshot fields (`createdAt`, `parentConfig`),
// snake_case config keys (`thread_id`, `checkpoint_id`). The bindings
// (core/wasm/src/types/) produce them.
import type { Command, Send } from "../command.js";
import type { MemorySaver } from "../checkpoint/engine_saver.js";
import type { AsyncCheckpointSaver } from "../checkpoint/saver_bridge.js";
import type { RetryPolicy } from "./retry.js";
import type { BaseStore } from "../checkpoint/store.js";
import type { BaseCache, CachePolicy } from "./cache.js";
import type { TimeoutPolicy } from "./timeout.js";
import type { NodeError } from "../errors.js";

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

/** A built-in reducer. */
export type ReducerName = "last_value" | "append" | "sum" | "add_messages" | "messages_delta" | "untracked";

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
  /** Superstep budget (default 25, as in LangGraph.js). */
  recursionLimit?: number;
  /** Extra keys copied into the metadata of every checkpoint the run writes (primitives only). */
  metadata?: { [key: string]: unknown };
  /** For `stream(input, config)`: the stream mode, when not given as the third argument. */
  streamMode?: StreamMode | StreamMode[];
  /** For `stream(input, config)`: also stream subgraphs, when not given in the third argument. */
  subgraphs?: boolean;
  /** LangGraph.js v1's runtime context: nodes read it as `config.context` (validated by the graph's context schema). */
  context?: unknown;
  /** This run's breakpoints before nodes, in place of the compiled ones (`"*"`: every node). */
  interruptBefore?: string[] | "*";
  /** This run's breakpoints after nodes, in place of the compiled ones. */
  interruptAfter?: string[] | "*";
  /**
   * What a run or update does when another run or update of the same
   * thread (same checkpointer, same `thread_id`) is in flight:
   * `"enqueue"` (the default) waits its turn, in arrival order;
   * `"reject"` fails at once with a `ThreadBusyError` (code
   * `"THREAD_BUSY"`). Different threads always run concurrently.
   */
  multitaskStrategy?: "enqueue" | "reject";
  /** This run's long-term store, in place of the compiled one (nodes get it as `config.store`). */
  store?: BaseStore;
  /**
   * Cancels the run when aborted: it rejects at once with LangGraph.js's
   * `Error("Abort")`, and the nodes still running see their own
   * `config.signal` aborted. What finished tasks wrote stays in the thread.
   */
  signal?: AbortSignal;
  /**
   * LangChain callback handlers (`BaseCallbackHandler`s, a tracer, a
   * `CallbackManager`): with `@langchain/core` installed they see the run,
   * each task, each subgraph and each router as chain runs, as in
   * LangGraph.js (without it, the run as one chain run).
   */
  callbacks?: unknown;
  /** Tags of the run's chain run (its tasks' runs inherit them); nodes get them as `config.tags`. */
  tags?: string[];
  /** LangChain's `maxConcurrency`: passed on to nodes as `config.maxConcurrency` (and used by `batch`). */
  maxConcurrency?: number;
  /** The name of the run's chain run (default: the graph's `getName()`); nodes get their own name as `config.runName`. */
  runName?: string;
  /** The id of the run's chain run (default: a new UUID). */
  runId?: string;
}

/** One event of `streamEvents` (LangChain's `StreamEvent`, v1 and v2). */
export interface StreamEvent {
  /** `on_chain_start`, `on_chain_stream`, `on_chain_end`, `on_custom_event`, `on_chat_model_stream`, ... */
  event: string;
  /** The run's name (a node's, the graph's, `RunnableLambda`), or a custom event's. */
  name: string;
  run_id: string;
  tags?: string[];
  /** The run's metadata: the graph run's, with a task's `langgraph_step`, `langgraph_node`, ... */
  metadata: { [key: string]: unknown };
  /** `input` (start, end), `chunk` (stream), `output` (end), or a custom event's data. */
  data: { input?: unknown; output?: unknown; chunk?: unknown; [key: string]: unknown };
}

/** `streamEvents`'s third argument: which runs' events to keep (LangChain's filters). */
export interface StreamEventsOptions {
  includeNames?: string[];
  includeTypes?: string[];
  includeTags?: string[];
  excludeNames?: string[];
  excludeTypes?: string[];
  excludeTags?: string[];
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

/** Checkpoint metadata in a snapshot or a stream chunk: source, step, parents, thread_id, plus the run's primitive config keys. */
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
  /** The error the task failed with: its `message` and `name`, as LangGraph.js keeps it. */
  error?: { message: string; name: string };
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

/** A task's keys in the metadata of its node's config and of its `"messages"` chunks (LangGraph.js's). */
interface TaskMetadata {
  langgraph_step: number;
  langgraph_node: string;
  /** The channel that scheduled the task (`branch:to:NODE`, a join's), or `__pregel_push` for a `Send`'s. */
  langgraph_triggers: string[];
  /** `["__pregel_pull", node]`, or `["__pregel_push", index, false]` for the index-th `Send`. */
  langgraph_path: (string | number | boolean)[];
  /** The task's checkpoint namespace (`node:task_id`, under its parent's in a subgraph). */
  langgraph_checkpoint_ns: string;
  checkpoint_ns: string;
}

/** The config a node function receives: the run's config plus the task's metadata. */
export interface NodeConfig {
  /** The run's tags (`config.tags`). */
  tags: string[];
  /** In a run with LangChain callbacks: the `CallbackManager` of the task's chain run (what the node calls with its config nests in it). */
  callbacks?: unknown;
  metadata: TaskMetadata & {
    /** LangGraph.js's run marker. */
    ls_integration: "langgraph";
    [key: string]: unknown;
  };
  recursionLimit: number;
  /** The run's `configurable`, with the task's `checkpoint_ns` and the `checkpoint_map` of its checkpoints (no `checkpoint_id`). */
  configurable: Configurable & { checkpoint_map: { [namespace: string]: string } };
  /** The run's `maxConcurrency`, when it gives one. */
  maxConcurrency?: number;
  /** The run's `context` (`invoke(input, { context })`), LangGraph.js v1's runtime context. */
  context?: unknown;
  /** Aborted when the run is cancelled (the run's `signal`, `stream.cancel()`, `stepTimeout`) or another task of the step failed. */
  signal?: AbortSignal;
  /** Sends a chunk to the `"custom"` stream (in the node's subgraph namespace); does nothing when the run does not stream `"custom"`. */
  writer: (chunk: unknown) => void;
  /** The package's `interrupt()`. */
  interrupt: <I = Json, R = Json>(value: I, config?: NodeConfig) => R;
  /** The long-term store (`compile({ store })`, or the run's `config.store`), shared across threads. */
  store?: BaseStore;
  /** The node's name (absent when the run has `callbacks` or streams `"messages"`, as in LangGraph.js). */
  runName?: string;
  /** Where the task runs (LangGraph.js's `ExecutionInfo`). */
  executionInfo: ExecutionInfo;
}

/** LangGraph.js's `ExecutionInfo`: the running task, in a node's `config.executionInfo`. */
export interface ExecutionInfo {
  /** The checkpoint the task's superstep runs from. */
  checkpointId: string;
  /** The task's checkpoint namespace. */
  checkpointNs: string;
  taskId: string;
  threadId?: string | number;
  runId?: string;
  /** 1, then 2, 3, ... for the retries of a `retryPolicy`. */
  nodeAttempt: number;
  /** `Date.now()` when the first attempt started. */
  nodeFirstAttemptTime: number;
}

/** A state update: some channels' new values (through their reducers). */
export type Update<U extends object> = U | null | undefined | void;

/**
 * A node: returns an update or a `Command` (its update plus where to go
 * next), or a Promise of either. May call `interrupt()`. A node run by a
 * `Send` is given the Send's `args` instead of the state. `U` is the
 * update's type (for `Annotation` states, each channel's update type).
 */
export type NodeFunction<S extends object, U extends object = Partial<S>> = (
  state: S,
  config: NodeConfig,
) => Update<U> | Command | Promise<Update<U> | Command>;

/** Where a router or a `Command` sends the run: a node name (or `END`), or a `Send`. */
export type Destination = string | Send;

/** A router: returns the next node(s) (or `END`) and/or `Send`s, or a Promise of them. */
export type Router<S extends object> = (state: S) => Destination | Destination[] | Promise<Destination | Destination[]>;

/** Options of `addNode`. */
export interface AddNodeOptions {
  /** Where a `Command` the node returns may go: drawn as conditional edges; each must be a node or `END`. */
  ends?: string[];
  /** Retry the node when it fails, with LangGraph.js's backoff. */
  retryPolicy?: RetryPolicy;
  /** LangGraph.js's drawing hint of the subgraphs a node calls; no effect on runs. */
  subgraphs?: unknown[];
  /**
   * The node's own input schema (an `Annotation.Root`, a `StateSchema`, a
   * zod object or a state definition): the node reads only its keys, and
   * keys the graph's state lacks become private channels, which nodes
   * write and read but a run's input and output leave out.
   */
  input?: object;
  /** Merged into the node's `config.metadata` (over the `langgraph_*` keys), as LangGraph.js does. */
  metadata?: Record<string, unknown>;
  /**
   * Run the node only once the run would otherwise end: after every other
   * pending branch, however many supersteps they take (a fan-in after
   * branches of different lengths, or after a `Send` fan-out, runs once).
   */
  defer?: boolean;
  /**
   * Cache the node's writes by its input, in the cache given to `compile`
   * (`true`: no expiry, the default key; `false`: not even with a
   * `setNodeDefaults` cache policy). A task whose key is cached does not
   * run: its cached writes are its writes, its update is streamed with
   * `__metadata__: { cached: true }`.
   */
  cachePolicy?: CachePolicy | boolean;
  /**
   * Fail an attempt of the node that runs longer than this many
   * milliseconds (or a `{ runTimeout, idleTimeout, refreshOn }` policy) with a
   * `NodeTimeoutError`; its `config.signal` is aborted then.
   */
  timeout?: number | TimeoutPolicy;
  /**
   * Runs when the node fails (after its retries; an `interrupt()` is no
   * failure): as node `__error_handler__<name>`, in the same superstep, on
   * the failed task's input, given a `NodeError` (`{ node, error }`); its
   * update or `Command` is applied and the run goes on. A handler that
   * fails fails the run.
   */
  errorHandler?: (state: never, error: NodeError, config: NodeConfig) => unknown;
}

/** Options of `compile`. */
export interface CompileOptions {
  /** The graph's name (LangGraph.js's `compile({ name })`): `graph.name`, `getName()`, its drawing as a subgraph node, its runs' name in LangChain callbacks and `streamEvents` (default `"LangGraph"`). */
  name?: string;
  /**
   * The saver: a `MemorySaver`, or any LangGraph.js checkpointer
   * (`PostgresSaver`, `SqliteSaver`, ...: the engine then runs on its own
   * store in front of it, loading a thread before each call and handing the
   * new checkpoints and writes to it before the call resolves). For a graph
   * run as a subgraph, `true` keeps one history per thread in its node's namespace.
   */
  checkpointer?: MemorySaver | AsyncCheckpointSaver | boolean;
  /** Pause before these nodes (`"*"`: every node). */
  interruptBefore?: string[] | "*";
  /** Pause after these nodes (`"*"`: every node). */
  interruptAfter?: string[] | "*";
  /**
   * Chronograph's own, for LangGraph (Python)'s conformance traces: where
   * LangGraph.js and LangGraph differ in the loop, behave as LangGraph
   * (its late serialization of a join's seen-set into saved checkpoints; a
   * `Command` cannot start a new thread's run). Default `false`: LangGraph.js.
   */
  pythonSemantics?: boolean;
  /** LangGraph's long-term memory store (`InMemoryStore`, or any LangGraph.js `BaseStore`): nodes get it as `config.store` and from `getStore()`. */
  store?: BaseStore;
  /**
   * Where nodes with a `cachePolicy` keep their writes: LangGraph.js's
   * `InMemoryCache` (from `@langchain/langgraph-checkpoint`, or this
   * package's) or any object with its `get`, `set` and `clear` methods.
   */
  cache?: BaseCache;
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

/** The stream modes. */
export type StreamMode = "values" | "updates" | "checkpoints" | "tasks" | "debug" | "custom" | "messages";

/**
 * The metadata of a `"messages"` chunk: the run's tags and metadata, and
 * the task that wrote the message (LangGraph.js's keys).
 */
export interface MessageChunkMetadata extends TaskMetadata {
  [key: string]: unknown;
  tags: string[];
  name: string;
}

/** A `"checkpoints"` chunk: a checkpoint as it is saved. */
export interface CheckpointChunk<S extends object = StateValues> {
  config: CheckpointConfig;
  metadata: CheckpointMetadata;
  values: Partial<S>;
  next: string[];
  parentConfig?: CheckpointConfig;
}

/** A `"tasks"` chunk: a task starting (with `input`, `triggers`) or its result (with `result`, `error`). */
export interface TaskChunk {
  id: string;
  name: string;
  /** A task starting: what the node is given. */
  input?: Json;
  /** A task starting: the channels that triggered it. */
  triggers?: string[];
  /** A task starting: the run's metadata. */
  metadata?: { [key: string]: Json };
  /** A finished task: its state writes. */
  result?: { [channel: string]: Json };
  error?: string | null;
  interrupts?: Interrupt[];
}

/** A `"debug"` chunk. */
export type DebugChunk<S extends object = StateValues> =
  | { step: number; type: "checkpoint"; timestamp: string; payload: CheckpointChunk<S> }
  | { step: number; type: "task" | "task_result"; timestamp: string; payload: TaskChunk };

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
  /** What nodes pass to `config.writer`. */
  custom: unknown;
  /**
   * Each LangChain message a node returned that the run had not seen yet
   * (an `@langchain/core` instance; plain message objects are not
   * streamed, as in LangGraph.js), with its metadata.
   */
  messages: [message: unknown, metadata: MessageChunkMetadata];
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

/** The stream `await graph.stream(...)` gives: its chunks, and LangGraph.js's `cancel` and `signal`. */
export interface CancellableStream<T> extends AsyncIterableIterator<T> {
  /** Cancels the run (its running nodes see `config.signal` aborted) and ends the iteration. */
  cancel(reason?: unknown): Promise<void>;
  /** Aborted once the run is cancelled. */
  readonly signal: AbortSignal;
}

/** `stream`'s result: an async iterable, and also a Promise of one (`await graph.stream(...)`). */
export type ChunkStream<T> = Promise<CancellableStream<T>> & AsyncIterable<T>;

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

/**
 * A stored checkpoint, as LangGraph.js's savers hand it out: channel
 * versions are LangGraph.js's integers (1, 2, 3, ...); a `put` also takes
 * the engine's version texts (`"<counter>.<salt>"`, as `exportThread`
 * writes them, with `updated_channels`).
 */
export interface Checkpoint {
  v: number;
  id: string;
  ts: string;
  channel_values: { [channel: string]: Json };
  channel_versions: ChannelVersions;
  versions_seen: { [node: string]: ChannelVersions };
  updated_channels?: string[] | null;
}

/** Channel → version (LangGraph.js's `ChannelVersions`). */
export type ChannelVersions = { [channel: string]: number | string };

/** A checkpoint with everything needed to resume from it (LangGraph.js `CheckpointTuple`). */
export interface CheckpointTuple {
  config: CheckpointConfig;
  checkpoint: Checkpoint;
  /** As it was stored: no `thread_id` of the saver's own (LangGraph.js's savers store none; snapshots add it). */
  metadata: Omit<CheckpointMetadata, "thread_id">;
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

