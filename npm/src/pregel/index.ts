// `chronograph/pregel` (LangGraph.js's `@langchain/langgraph/pregel`): the
// low-level graph API. `new Pregel({ nodes, channels, inputChannels,
// outputChannels, ... })` with nodes made by `Channel.subscribeTo(...)`,
// piped through functions and runnables and into `Channel.writeTo(...)`.
//
// The graph runs on the engine's own `Pregel` (core/src/graph/pregel.rs,
// through core/wasm/src/pregel.rs): channels, triggers, what each node
// reads and the channel writes of its result are the engine's; a node's
// piped steps run here, as one JS function, and a `ChannelWrite` run
// inside them writes through the task (`taskWrite`). The graph is
// compiled when first used, and again when `validate()` is called or its
// `checkpointer` changes (LangGraph.js reads these fields at each run).
import * as raw from "../wasm/chronograph.js";
import { argumentError, describe, hide, isArray, isRecord } from "../internal/args.js";
import { CHUNK, ENGINE, RAW, SAVER } from "../internal/raw.js";
import { CompiledStateGraph, engineOf } from "../graph/compiled_state_graph.js";
import { mergeConfigs } from "../graph/run_config.js";
import { saverOf } from "../checkpoint/checkpointer.js";
import { pregelChannelSpec } from "../channels/index.js";
import { GraphValidationError, GraphValueError, InvalidUpdateError, graphError, withCode } from "../errors.js";
import { runningTask, wrapNode, type UserNode } from "./runtime.js";
import { withRetry, type RetryPolicy } from "./retry.js";
import { MessageChannels, toEngine } from "../langchain/message_classes.js";
import { Send } from "../command.js";
import type { MemorySaver } from "../checkpoint/engine_saver.js";
import type { BaseStore } from "../checkpoint/store.js";
import type { ChunkStream, ListOptions, NodeConfig, RunnableConfig, StateSnapshot, StateUpdate, StreamMode, UpdatedConfig } from "./types.js";
import { checkedByEngine, declaredAs } from "../internal/seam.js";

/** The channel of `Send` packets (reserved). */
const TASKS = "__pregel_tasks";
/** LangGraph.js's marker of a write of the node's result (the same symbol, so its entries work here). */
export const PASSTHROUGH: { readonly [key: symbol]: true } = { [Symbol.for("LG_PASSTHROUGH")]: true };
const isPassthrough = (v: unknown): boolean => isRecord(v) && (v as Record<symbol, unknown>)[Symbol.for("LG_PASSTHROUGH")] !== undefined;
const isSkipWrite = (v: unknown): boolean => isRecord(v) && (v as Record<symbol, unknown>)[Symbol.for("LG_SKIP_WRITE")] !== undefined;

/** Anything a node pipes its value through: a function `(input, config)`, or a runnable (`invoke(input, config)`). */
export type RunnableLike = ((input: never, config: never) => unknown) | { invoke(input: never, config?: never): unknown };

/** Whether `v` has an `invoke` method (a LangChain runnable, a compiled graph, a `ChannelWrite`, ...). */
function isRunnable(v: unknown): v is { invoke(input: unknown, config?: unknown): unknown } {
  try {
    return typeof v === "object" && v !== null && typeof (v as { invoke?: unknown }).invoke === "function";
  } catch {
    return false;
  }
}

/** Calls one step on `input`. */
function callStep(step: RunnableLike, input: unknown, config: unknown): unknown {
  if (typeof step === "function") return (step as (i: unknown, c: unknown) => unknown)(input, config);
  return (step as { invoke(i: unknown, c: unknown): unknown }).invoke(input, config);
}

/**
 * A node's steps in order, each given the previous one's result (what
 * LangGraph.js's `PregelNode.bound` is, a `RunnableSequence`); no step
 * passes the input through.
 */
export class NodeSteps {
  constructor(readonly steps: readonly RunnableLike[] = []) {}

  /** The steps, then `step`. */
  pipe(step: RunnableLike): NodeSteps {
    return new NodeSteps([...this.steps, step]);
  }

  /** Runs the steps on `input`, with the node's `config`. */
  async invoke(input: unknown, config?: unknown): Promise<unknown> {
    let out = input;
    for (const step of this.steps) out = await callStep(step, out, config);
    return out;
  }

  /** `invoke` for each input (LangChain's `batch`). */
  batch(inputs: unknown[], config?: unknown): Promise<unknown[]> {
    return Promise.all(inputs.map((input, i) => this.invoke(input, isArray(config) ? config[i] : config)));
  }
}

/** One write of a {@link ChannelWrite}: to `channel` (the node's result for `PASSTHROUGH`, through `mapper` when given), or a `Send`. */
export type ChannelWriteEntry = { channel: string; value: unknown; skipNone?: boolean; mapper?: RunnableLike } | Send;

/**
 * LangGraph.js's `ChannelWrite`: the writes a node makes of its result.
 * As a node's writer (`.pipe(Channel.writeTo([...]))`) the engine makes
 * them; run inside a node's steps (in a `RunnableEach`, say) it writes
 * through the running task. Either way it passes its input on.
 */
export class ChannelWrite {
  readonly lc_graph_name = "ChannelWrite";
  /** What it writes, in order. */
  readonly writes: ChannelWriteEntry[];
  /** Its tags (kept, not used by the engine). */
  readonly tags: string[] | undefined;

  constructor(writes: ChannelWriteEntry[], tags?: string[]) {
    if (!isArray(writes)) throw argumentError(`new ChannelWrite(writes): writes must be an array of entries, got ${describe(writes)}`);
    this.writes = writes;
    this.tags = tags;
  }

  /** Whether `v` is a writer (a `ChannelWrite`, also LangGraph.js's own). */
  static isWriter(v: unknown): v is ChannelWrite {
    return v instanceof ChannelWrite || (isRecord(v) && v.lc_graph_name === "ChannelWrite" && isArray(v.writes));
  }

  /** Writes its entries for `input` through the running task (the node whose config is `config`); resolves to `input`. */
  async invoke(input: unknown, config?: unknown): Promise<unknown> {
    const pairs: [string, unknown][] = [];
    for (const w of this.writes) {
      if (isSend(w)) {
        pairs.push([TASKS, { node: w.node, arg: w.args }]);
        continue;
      }
      if (w.channel === TASKS) throw new InvalidUpdateError("Cannot write to the reserved channel TASKS");
      let value = isPassthrough(w.value) ? input : w.value;
      if (w.mapper !== undefined) value = await callStep(w.mapper, value, config);
      if (isSkipWrite(value) || (w.mapper !== undefined && w.skipNone && value === undefined)) continue;
      pairs.push([w.channel, value]);
    }
    const task = runningTask(config);
    if (task === undefined) throw withCode(new GraphValueError("A ChannelWrite was invoked outside a running node: it writes through the node's task"), "WRITE_OUTSIDE_NODE");
    raw.taskWrite(task, toEngine(pairs));
    return input;
  }

  /** `invoke` for each input (what `RunnableEach` calls). */
  batch(inputs: unknown[], config?: unknown): Promise<unknown[]> {
    return Promise.all(inputs.map((input, i) => this.invoke(input, isArray(config) ? config[i] : config)));
  }

  /** The entries as the bindings take them (core/wasm/src/pregel.rs `channel_write`). */
  toEngine(): unknown[] {
    return this.writes.map((w) => {
      if (isSend(w)) return { send: { node: w.node, args: toEngine(w.args) } };
      if (!isRecord(w) || typeof w.channel !== "string") {
        throw withCode(new GraphValueError(`ChannelWrite entry ${describe(w)}: only { channel, value, skipNone, mapper } entries and Sends are supported`), "UNSUPPORTED");
      }
      const passthrough = isPassthrough(w.value);
      const mapper = w.mapper;
      return {
        channel: w.channel,
        passthrough,
        ...(passthrough ? {} : { value: toEngine(w.value) }),
        skipNone: w.skipNone === true,
        ...(mapper === undefined ? {} : { mapper: (v: unknown) => callStep(mapper, v, undefined) }),
      };
    });
  }
}

function isSend(v: unknown): v is Send {
  return v instanceof Send || (isRecord(v) && v.lg_name === "Send" && typeof v.node === "string");
}

/** What a {@link PregelNode} is made of (LangGraph.js's `PregelNodeArgs`). */
export interface PregelNodeFields {
  /** What the node reads: an array (the first channel that has a value) or `{ key: channel }` (an object of them). */
  channels: string[] | Record<string, string>;
  /** The channels whose update runs the node. */
  triggers: string[];
  /** Applied to what the node reads, before its steps. */
  mapper?: (input: never) => unknown;
  /** Its writers, run on its result in order. */
  writers?: ChannelWrite[];
  /** What it runs: a runnable, or nothing (its input passes on). */
  bound?: RunnableLike | NodeSteps;
  /** Its metadata (in its tasks' config). */
  metadata?: Record<string, unknown>;
  /** Its tags. */
  tags?: string[];
  /** Its retry policy (else the graph's). */
  retryPolicy?: RetryPolicy;
}

/**
 * A node of a {@link Pregel} (LangGraph.js's `PregelNode`): made by
 * `Channel.subscribeTo`, extended by `pipe` (a function or runnable: a
 * step; a `ChannelWrite`: a writer) and `join` (more channels to read).
 */
export class PregelNode {
  readonly lc_graph_name = "PregelNode";
  /** LangGraph.js's runnable name of a node. */
  readonly name = "PregelNode";
  channels: string[] | Record<string, string>;
  triggers: string[];
  mapper: ((input: never) => unknown) | undefined;
  writers: ChannelWrite[];
  bound: RunnableLike | NodeSteps;
  metadata: Record<string, unknown>;
  tags: string[];
  retryPolicy: RetryPolicy | undefined;

  constructor(fields: PregelNodeFields) {
    if (!isRecord(fields)) throw argumentError(`new PregelNode(fields): fields must be an object, got ${describe(fields)}`);
    this.channels = fields.channels;
    this.triggers = fields.triggers ?? [];
    this.mapper = fields.mapper;
    this.writers = fields.writers ?? [];
    this.bound = fields.bound ?? new NodeSteps();
    this.metadata = fields.metadata ?? {};
    this.tags = fields.tags ?? [];
    this.retryPolicy = fields.retryPolicy;
  }

  #with(changes: Partial<PregelNodeFields>): PregelNode {
    return new PregelNode({
      channels: this.channels,
      triggers: this.triggers,
      mapper: this.mapper,
      writers: this.writers,
      bound: this.bound,
      metadata: this.metadata,
      tags: this.tags,
      retryPolicy: this.retryPolicy,
      ...changes,
    });
  }

  /** The same node reading `channels` too (each under its own name); its `channels` must be an object. */
  join(channels: string[]): PregelNode {
    if (!isArray(channels)) throw graphError("channels must be a list");
    if (typeof this.channels !== "object" || isArray(this.channels)) throw graphError("all channels must be named when using .join()");
    return this.#with({ channels: { ...this.channels, ...Object.fromEntries(channels.map((c) => [c, c])) } });
  }

  /** The same node with `step` after its steps, or (a `ChannelWrite`) after its writers. */
  pipe(step: RunnableLike | ChannelWrite): PregelNode {
    if (ChannelWrite.isWriter(step)) return this.#with({ writers: [...this.writers, step] });
    if (typeof step !== "function" && !isRunnable(step)) {
      throw argumentError(`pipe(step): step must be a function, a runnable or a ChannelWrite, got ${describe(step)}`);
    }
    const steps = this.bound instanceof NodeSteps ? this.bound : new NodeSteps([this.bound]);
    return this.#with({ bound: steps.pipe(step) });
  }

  /** Its writers, consecutive `ChannelWrite`s merged into one (LangGraph.js's `getWriters`). */
  getWriters(): ChannelWrite[] {
    const out = [...this.writers];
    while (out.length > 1 && ChannelWrite.isWriter(out[out.length - 1]) && ChannelWrite.isWriter(out[out.length - 2])) {
      const [a, b] = out.slice(-2) as [ChannelWrite, ChannelWrite];
      out.splice(out.length - 2, 2, new ChannelWrite([...a.writes, ...b.writes], a.tags));
    }
    return out;
  }

  /** Runs the node's steps on `input` (its writers write nothing outside a run). */
  invoke(input: unknown, config?: RunnableConfig): Promise<unknown> {
    return Promise.resolve(callStep(this.bound as RunnableLike, input, config));
  }
}

/** LangGraph.js's `Channel`: the node and write helpers of the low-level API. */
export class Channel {
  /**
   * A node triggered by `channels`: one channel (its value is the node's
   * input; with `key`, `{ [key]: value }`), or several (an object of their
   * values, each under its name).
   */
  static subscribeTo(channels: string | string[], options?: { key?: string; tags?: string[] }): PregelNode {
    const { key, tags } = { key: undefined, tags: undefined, ...(options ?? {}) };
    if (isArray(channels) && key !== undefined) throw graphError("Can't specify a key when subscribing to multiple channels");
    let read: string[] | Record<string, string>;
    if (typeof channels === "string") read = key ? { [key]: channels } : [channels];
    else if (isArray(channels)) read = Object.fromEntries(channels.map((c) => [c, c]));
    else throw argumentError(`Channel.subscribeTo(channels): channels must be a channel name or an array of them, got ${describe(channels)}`);
    return new PregelNode({ channels: read, triggers: isArray(channels) ? [...channels] : [channels], tags });
  }

  /**
   * A writer of the node's result to each of `channels`, and of `writes`:
   * a value to write as it is, or a function (or runnable) of the result,
   * whose `undefined` writes nothing.
   */
  static writeTo(channels: string[], writes?: Record<string, unknown>): ChannelWrite {
    const entries: ChannelWriteEntry[] = channels.map((channel) => ({ channel, value: PASSTHROUGH, skipNone: false }));
    for (const [channel, value] of Object.entries(writes ?? {})) {
      if (typeof value === "function" || isRunnable(value)) entries.push({ channel, value: PASSTHROUGH, skipNone: true, mapper: value as RunnableLike });
      else entries.push({ channel, value, skipNone: false });
    }
    return new ChannelWrite(entries);
  }
}

/** What a {@link Pregel} is made of (LangGraph.js's `PregelParams`). */
export interface PregelParams {
  /** The nodes by name. */
  nodes: Record<string, PregelNode>;
  /** The channels by name (`LastValue`, `Topic`, ... from `chronograph/channels`). */
  channels: Record<string, unknown>;
  /** Where the input goes: one channel (the input itself) or several (the input object's keys). */
  inputChannels: string | string[];
  /** What a run returns: one channel's value, or an object of several. */
  outputChannels: string | string[];
  /** What `stream` and snapshots show (default: every channel). */
  streamChannels?: string | string[];
  /** The stream mode(s) of a `stream` call that names none (default `"values"`). */
  streamMode?: StreamMode | StreamMode[];
  /** Pause before these nodes (`"*"`: all). */
  interruptBefore?: string[] | "*";
  /** Pause after these nodes (`"*"`: all). */
  interruptAfter?: string[] | "*";
  /** Milliseconds a superstep may take before the run is cancelled. */
  stepTimeout?: number;
  /** LangGraph.js's debug printing (accepted, not printed). */
  debug?: boolean;
  /** Where checkpoints go: a `MemorySaver`, a LangGraph.js checkpointer, `true` (a subgraph's own history) or `false` (none). */
  checkpointer?: MemorySaver | object | boolean;
  /** The retry policy of nodes without one. */
  retryPolicy?: RetryPolicy;
  /** A config every run and state call starts from. */
  config?: RunnableConfig;
  /** The long-term store nodes get as `config.store`. */
  store?: BaseStore;
  /** The graph's name. */
  name?: string;
  /** Validate the fields when constructed (default `true`). */
  autoValidate?: boolean;
}

/**
 * LangGraph.js's `Pregel`: a graph of channels and nodes subscribed to them.
 * Runs and the state API are those of a compiled `StateGraph`: `invoke`
 * returns the output channels (a single channel's value itself), `stream`
 * yields the stream channels.
 */
export class Pregel {
  nodes: Record<string, PregelNode>;
  channels: Record<string, unknown>;
  inputChannels: string | string[];
  outputChannels: string | string[];
  streamChannels: string | string[] | undefined;
  streamMode: StreamMode[];
  interruptBefore: string[] | "*" | undefined;
  interruptAfter: string[] | "*" | undefined;
  stepTimeout: number | undefined;
  debug: boolean;
  retryPolicy: RetryPolicy | undefined;
  config: RunnableConfig | undefined;
  store: BaseStore | undefined;
  name: string | undefined;
  autoValidate: boolean;
  /** LangGraph.js's channel → the nodes it triggers (filled by `validate`). */
  triggerToNodes: Record<string, string[]> = {};
  /** What the graph was built from (a `Graph`'s builder). */
  declare builder?: unknown;
  /** The compiled graph runs use, and the checkpointer it was made with. */
  #engine: { graph: CompiledStateGraph<object>; checkpointer: unknown; raw: raw.WasmCompiledGraph } | undefined;
  #checkpointer: MemorySaver | object | boolean | undefined;

  constructor(fields: PregelParams) {
    if (!isRecord(fields)) throw argumentError(`new Pregel(fields): fields must be an object, got ${describe(fields)}`);
    const streamMode = fields.streamMode;
    this.nodes = fields.nodes;
    this.channels = fields.channels;
    if (isRecord(this.channels)) {
      const tasks = this.channels[TASKS];
      if (isRecord(tasks) && "lc_graph_name" in tasks && tasks.lc_graph_name !== "Topic") {
        throw graphError(`Channel '${TASKS}' is reserved and cannot be used in the graph.`);
      }
    }
    this.autoValidate = fields.autoValidate ?? true;
    this.streamMode = streamMode == null ? ["values"] : isArray(streamMode) ? streamMode : [streamMode];
    this.inputChannels = fields.inputChannels;
    this.outputChannels = fields.outputChannels;
    this.streamChannels = fields.streamChannels;
    this.interruptBefore = fields.interruptBefore;
    this.interruptAfter = fields.interruptAfter;
    this.stepTimeout = fields.stepTimeout;
    this.debug = fields.debug ?? false;
    if (fields.retryPolicy != null && !isRecord(fields.retryPolicy)) {
      throw argumentError(`new Pregel(fields): fields.retryPolicy must be an object like {maxAttempts}, got ${describe(fields.retryPolicy)}`);
    }
    this.retryPolicy = fields.retryPolicy ?? undefined;
    this.config = fields.config;
    this.store = fields.store;
    this.name = fields.name;
    this.#checkpointer = fields.checkpointer;
    if (this.autoValidate) this.validate();
  }

  /** Where checkpoints go (assigning one takes effect at the next run). */
  get checkpointer(): MemorySaver | object | boolean | undefined {
    return this.#checkpointer;
  }

  set checkpointer(checkpointer: MemorySaver | object | boolean | undefined) {
    this.#checkpointer = checkpointer;
  }

  /** LangGraph.js's `validateGraph` over the fields, with its texts; the graph is compiled again at its next run. */
  validate(): this {
    validateGraph(this);
    this.triggerToNodes = {};
    for (const [name, node] of Object.entries(this.nodes)) {
      for (const trigger of node.triggers) (this.triggerToNodes[trigger] ??= []).push(name);
    }
    this.#engine = undefined;
    return this;
  }

  /** The channels snapshots and `stream` show, as an array. */
  get streamChannelsList(): string[] {
    const s = this.streamChannels;
    return isArray(s) ? s : s ? [s] : [...Object.keys(this.channels), ...(TASKS in this.channels ? [] : [TASKS])];
  }

  /** The channels snapshots and `stream` show, as given (one channel, or an array). */
  get streamChannelsAsIs(): string | string[] {
    return this.streamChannels ?? this.streamChannelsList;
  }

  /**
   * The compiled graph this runs on: compiled at the first run (and again
   * after `validate()`), given the `checkpointer` the fields hold now.
   * @internal
   */
  [ENGINE](): CompiledStateGraph<object> {
    let engine = this.#engine;
    const checkpointer = this.#checkpointer;
    if (engine === undefined || engine.checkpointer !== checkpointer) {
      const base = engine?.raw ?? compilePregel(this);
      const saver = saverOf(checkpointer, "Pregel: checkpointer");
      const compiled = base.withCheckpointer(saver?.[RAW].share(), checkpointer === true);
      engine = { graph: this.#runtime(compiled, saver, checkpointer === false), checkpointer, raw: base };
      this.#engine = engine;
    }
    engine.graph.stepTimeout = this.stepTimeout;
    return engine.graph;
  }

  /** A compiled graph over `compiled` that runs as this Pregel does (`unCheckpointed`: its checkpointer is `false`). */
  #runtime(compiled: raw.WasmCompiledGraph, saver: MemorySaver | undefined, unCheckpointed: boolean): CompiledStateGraph<object> {
    // No state definition, but message instances come out as instances (an entrypoint's result).
    const messages = new MessageChannels([], !isArray(this.outputChannels));
    const graph = new CompiledStateGraph<object>(compiled, { channels: {}, messages }, { unCheckpointed });
    hide(graph, SAVER, saver);
    hide(graph, "checkpointer", saver);
    hide(graph, "store", this.store);
    // Its runs' name in LangChain callbacks and `streamEvents` (LangGraph.js's `getName()`).
    hide(graph, "name", this.name);
    hide(graph, "nodes", this.nodes);
    hide(graph, "streamMode", this.streamMode);
    hide(graph, CHUNK, updatesOf(this.streamChannelsAsIs));
    return graph;
  }

  #config(config: RunnableConfig | undefined): RunnableConfig | undefined {
    return this.config === undefined ? config : mergeConfigs(this.config, config);
  }

  /** Runs the graph on `input` (`null`: resume or replay; a `Command`); resolves to the output channels. */
  invoke(input: unknown, config?: RunnableConfig): Promise<unknown> {
    let graph: CompiledStateGraph<object>;
    try {
      graph = this[ENGINE]();
    } catch (e) {
      return Promise.reject(e);
    }
    return graph.invoke(input as never, this.#config(config));
  }

  /** Runs the graph and yields its chunks (`streamMode`: this graph's unless given; see `CompiledStateGraph.stream`). */
  stream(input: unknown, config?: RunnableConfig, options?: { streamMode?: StreamMode | StreamMode[]; subgraphs?: boolean }): ChunkStream<unknown> {
    return this[ENGINE]().stream(input as never, this.#config(config), options as never) as ChunkStream<unknown>;
  }

  /** `invoke` for each input (LangChain's `batch`). */
  batch(inputs: unknown[], configs?: RunnableConfig | RunnableConfig[], options?: { maxConcurrency?: number; returnExceptions?: boolean }): Promise<unknown[]> {
    const merged = isArray(configs) ? configs.map((c) => this.#config(c)) : this.#config(configs);
    return this[ENGINE]().batch(inputs as never[], merged as never, options);
  }

  /** The state at the addressed checkpoint, or the thread's latest. */
  getState(config: RunnableConfig, options?: { subgraphs?: boolean }): Promise<StateSnapshot<object>> {
    return this[ENGINE]().getState(this.#config(config) as RunnableConfig, options);
  }

  /** Snapshots of the thread, newest first. */
  getStateHistory(config: RunnableConfig, options?: ListOptions): AsyncIterableIterator<StateSnapshot<object>> {
    return this[ENGINE]().getStateHistory(this.#config(config) as RunnableConfig, options);
  }

  /** Writes an `update` checkpoint as if `asNode`'s writers wrote `values`. */
  updateState(config: RunnableConfig, values: unknown, asNode?: string): Promise<UpdatedConfig> {
    return this[ENGINE]().updateState(this.#config(config) as RunnableConfig, values as never, asNode);
  }

  /** Several supersteps of updates. */
  bulkUpdateState(config: RunnableConfig, supersteps: { updates: StateUpdate<object>[] }[]): Promise<UpdatedConfig> {
    return this[ENGINE]().bulkUpdateState(this.#config(config) as RunnableConfig, supersteps);
  }

  /** The addressed checkpoint (or the latest) and its ancestors, child first. */
  getLineage(config: RunnableConfig): Promise<StateSnapshot<object>[]> {
    return this[ENGINE]().getLineage(this.#config(config) as RunnableConfig);
  }

  /** LangChain's `streamEvents`, as `CompiledStateGraph.streamEvents` (same versions and options). */
  streamEvents(input: unknown, options: RunnableConfig & { version: "v1" | "v2" | "v3" }, streamOptions?: unknown): ReturnType<CompiledStateGraph<object>["streamEvents"]> {
    const engine = declaredAs<{ streamEvents(...a: unknown[]): ReturnType<CompiledStateGraph<object>["streamEvents"]> }>(this[ENGINE]());
    return engine.streamEvents(input, this.#config(options), streamOptions);
  }

  /** The same graph whose runs and state calls start from `config` (merged under each call's own), as LangGraph.js's `withConfig`. */
  withConfig(config: RunnableConfig): this {
    const fields = { ...this, checkpointer: this.#checkpointer, config: mergeConfigs(this.config, config), autoValidate: false };
    return new (this.constructor as new (f: PregelParams) => this)(fields as PregelParams);
  }

  /** A compiled graph is a `Pregel` in LangGraph.js: `instanceof Pregel` holds for both. */
  static [Symbol.hasInstance](v: unknown): boolean {
    return Function.prototype[Symbol.hasInstance].call(this, v) || (this === Pregel && v instanceof CompiledStateGraph);
  }
}

/** LangGraph.js's `validateGraph`, with its texts (`GraphValidationError`). */
function validateGraph(p: Pregel): void {
  const { nodes, channels, inputChannels, outputChannels, streamChannels, interruptAfter, interruptBefore } = p;
  if (!channels) throw new GraphValidationError("Channels not provided");
  const subscribed = new Set<string>();
  for (const [name, node] of Object.entries(nodes)) {
    if (name === "__interrupt__") throw new GraphValidationError(`"Node name __interrupt__ is reserved"`);
    if (!(node instanceof PregelNode)) throw new GraphValidationError(`Invalid node type ${typeof node}, expected PregelNode`);
    for (const t of node.triggers) subscribed.add(t);
  }
  const known = (c: string) => c in channels || c === TASKS;
  for (const chan of subscribed) if (!known(chan)) throw new GraphValidationError(`Subscribed channel '${chan}' not in channels`);
  if (!isArray(inputChannels)) {
    if (!subscribed.has(inputChannels)) throw new GraphValidationError(`Input channel ${inputChannels} is not subscribed to by any node`);
  } else if (inputChannels.every((c) => !subscribed.has(c))) {
    throw new GraphValidationError(`None of the input channels ${inputChannels} are subscribed to by any node`);
  }
  const outputs = new Set<string>(isArray(outputChannels) ? outputChannels : [outputChannels]);
  if (streamChannels !== undefined) for (const c of isArray(streamChannels) ? streamChannels : [streamChannels]) outputs.add(c);
  for (const chan of outputs) if (!known(chan)) throw new GraphValidationError(`Output channel '${chan}' not in channels`);
  for (const nodesOf of [interruptAfter, interruptBefore]) {
    if (nodesOf && nodesOf !== "*") for (const n of nodesOf) if (!(n in nodes)) throw new GraphValidationError(`Node ${n} not in nodes`);
  }
}

/** The engine's graph of `p`'s fields (without a checkpointer: `[ENGINE]` adds it). */
function compilePregel(p: Pregel): raw.WasmCompiledGraph {
  const builder = new raw.WasmPregel();
  for (const [name, channel] of Object.entries(p.channels)) {
    if (name === TASKS) continue;
    // Its reducer is the channel's `operator`, as the caller gave it: the bindings check it.
    builder.addChannel(name, checkedByEngine<raw.PregelChannelSpec>(pregelChannelSpec(name, channel)));
  }
  for (const [name, node] of Object.entries(p.nodes)) {
    const [spec, subgraph] = nodeSpec(node, p.retryPolicy);
    builder.addNode(name, spec, subgraph);
  }
  builder.setInputChannels(p.inputChannels);
  builder.setOutputChannels(p.outputChannels);
  builder.setStreamChannels(p.streamChannelsAsIs);
  const interrupt = (v: string[] | "*" | undefined) => (v === "*" ? ["*"] : v);
  return builder.compile(interrupt(p.interruptBefore), interrupt(p.interruptAfter));
}

/** One node as the bindings take it, and the compiled graph it is when its one step is one. */
function nodeSpec(node: PregelNode, graphRetry: RetryPolicy | undefined): [raw.PregelNodeSpec, raw.WasmCompiledGraph | undefined] {
  const steps = node.bound instanceof NodeSteps ? node.bound.steps : [node.bound];
  // The caller's write entries: the bindings check them.
  const writers = checkedByEngine<raw.ChannelWriteEntryIn[][]>(node.getWriters().map((w) => w.toEngine()));
  const base = { channels: node.channels, triggers: node.triggers, writers };
  if (steps.length === 0 && node.mapper === undefined) return [base, undefined];
  const only = steps.length === 1 && node.mapper === undefined ? steps[0] : undefined;
  const graph = engineOf(only) ?? (only instanceof CompiledStateGraph ? only : undefined);
  if (graph !== undefined) return [base, graph[RAW]];
  const mapper = node.mapper as ((input: unknown) => unknown) | undefined;
  const run = (input: unknown, config: NodeConfig): unknown => {
    const value = mapper === undefined ? input : mapper(input);
    return steps.length === 1 ? callStep(steps[0]!, value, config) : new NodeSteps(steps).invoke(value, config);
  };
  const policy = node.retryPolicy ?? graphRetry;
  // A retried node starts over: what its attempt wrote through the task goes.
  const fn = policy === undefined ? run : withRetry(run, policy, (config) => clearTaskWrites(config));
  const metadata = Object.keys(node.metadata ?? {}).length > 0 ? node.metadata : undefined;
  return [{ ...base, bound: wrapNode(fn as UserNode, { metadata }) }, undefined];
}

function clearTaskWrites(config: unknown): void {
  const task = runningTask(config);
  if (task !== undefined) raw.taskClearWrites(task);
}

/**
 * The `"updates"` chunks of a Pregel as LangGraph.js gives them: a task
 * that wrote none of the stream channels is `{ node: {} }` when they are
 * several, and no chunk entry at all (`{}`) when there is one.
 */
function updatesOf(stream: string | string[]): (mode: string, chunk: unknown) => unknown {
  const many = isArray(stream);
  return (mode, chunk) => {
    if (mode !== "updates" || !isRecord(chunk)) return chunk;
    for (const [node, update] of Object.entries(chunk)) {
      if (update !== null || node === "__interrupt__") continue;
      if (many) chunk[node] = {};
      else delete chunk[node];
    }
    return chunk;
  };
}
