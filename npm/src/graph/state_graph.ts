// The graph API: `StateGraph` (the builder) and `CompiledStateGraph` (runs
// and the state API), over the raw classes of core/wasm/src/.
import * as raw from "../wasm/chronograph.js";
import { argumentError, describe, flag, hide, isArray, isInstance, isRecord, option, thrownText } from "../internal/args.js";
import { CHUNK, DEFINITION, ENGINE, RAW, SAVER, THREAD_STORE, type ThreadAccess, type ThreadStore } from "../internal/raw.js";
import { END, INTERRUPT, START } from "../constants.js";
import { isCommandLike } from "../command.js";
import { GraphValueError, graphError, withCode, plainError } from "../errors.js";
import { retryPolicyOf } from "../pregel/retry.js";
import { timeoutPolicyOf } from "../pregel/timeout.js";
import { BatchedCache, cacheOption, cachePolicyOf, keyOf, type BaseCache } from "../pregel/cache.js";
import { ignoresConfig } from "../pregel/config_use.js";
import { mergeDefaults, resolvePolicies, withPolicies, type NodeDefaults, type NodePolicies, type ResolvedDefaults } from "./node_policies.js";
import {
  DEFAULT_ERROR_HANDLER_NODE,
  defaultHandlerNameTaken,
  errorHandlerName,
  errorHandlerOf,
  handlerNameTaken,
  handlerNode,
  type NodeErrorHandler,
} from "./error_handlers.js";
import {
  AnnotationRoot,
  channelsOf,
  nodeInputChannels,
  type RawChannel,
  type BaseChannel,
  type StandardSchemaV1,
  type StateDefinition,
  type StateDefinitionInfo,
  type StateSchema,
  type StateSchemaFields,
  type StateType,
  type UpdateType,
} from "../state/definitions.js";
import { laneOptions, onThread, runningRuns, runningTask, withRunData, wrapNode, type RawNode, type RunData, type UserNode } from "../pregel/runtime.js";
import { listed } from "../internal/lazy.js";
import { MemorySaver } from "../checkpoint/engine_saver.js";
import { SaverBridge, isAsyncSaver } from "../checkpoint/saver_bridge.js";
import { chunkIterator } from "../stream/chunk_iterator.js";
import { loadChatModelStream } from "../langchain/core_callbacks.js";
import { modesWithRuns, nestedChunks, nestedRun, rootChunks, withCallbacks } from "../langchain/callback_runs.js";
import { streamEventsV3, type GraphRunStream, type StreamTransformerFactory } from "../stream/run_stream.js";
import { routed, type RunGraph } from "../langchain/task_runs.js";
import { streamEvents, type EventStream } from "../stream/langchain_events.js";
import { batchRuns } from "../langchain/batch.js";
import { RunCancel, cancellable, runSignal } from "../pregel/cancel.js";
import { compiledStore, runStore, storeOfGraph, storeOption, type BaseStore } from "../checkpoint/store.js";
import { ZodInputValidator, isZodObject, type ZodObjectState, type ZodOutput } from "../state/zod/meta.js";
import { checkConfigurable, runtimeDefinitions } from "../state/zod/definitions.js";
import { assignMessageIds, classesPossible, loadMessageClasses, messageChannelsOf, toEngine } from "../langchain/message_classes.js";
import { NodeMessages } from "../stream/messages_of_nodes.js";
import { chatModelStreamer, withHandler } from "../stream/messages_of_chat_models.js";
import {
  drawGraph,
  drawGraphAsync,
  drawingFor,
  recordBranch,
  recordEdge,
  recordNode,
  setCompiledCheck,
  setDrawing,
  shareDrawing,
  subgraphsOf,
  type DrawableGraph,
  type DrawConfig,
} from "../langchain/drawing.js";
import type { Command } from "../command.js";
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
  StreamEvent,
  StreamEventsOptions,
  StreamMode,
  TaggedChunk,
  UpdatedConfig,
} from "../pregel/types.js";
import { checkedByEngine, engineChunks } from "../internal/seam.js";

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

/** Whether `v` is a LangChain Runnable-like object: it has `invoke(input, config)`. */
function isRunnable(v: unknown): v is { invoke(input: unknown, config?: unknown): unknown } {
  return probeRunnable(v);
}

function probeRunnable(v: unknown): boolean {
  try {
    return typeof v === "object" && v !== null && typeof (v as { invoke?: unknown }).invoke === "function";
  } catch {
    return false;
  }
}

/** A Runnable as a node function. */
function runnableNode(r: { invoke(input: unknown, config?: unknown): unknown }): UserNode {
  return (state: unknown, config: unknown) => r.invoke(state, config);
}

/**
 * A node function called as LangGraph.js calls it: with `this` its
 * `RunnableCallable`, whose `name` is the node's name (so an unbound method
 * such as `new Node("a").call` reads `this.name`).
 */

/** Node names each builder was given so far (LangGraph.js refuses a duplicate or reserved name in `addNode`). */
const nodeNames = new WeakMap<object, Set<string>>();

/**
 * Each builder's channels so far: its state's, then those node input
 * schemas added (LangGraph.js's `this.channels`, which a node name must not
 * shadow and a later input schema must agree with).
 */
const builderChannels = new WeakMap<object, Record<string, RawChannel>>();

/** Each builder's nodes' `metadata` (addNode's option), by node name. */
const builderMetadata = new WeakMap<object, Map<string, Record<string, unknown>>>();

/** Each builder's nodes' policies (retry, cache, timeout), resolved with its defaults at compile. */
const builderPolicies = new WeakMap<object, Map<string, NodePolicies>>();

/** Each builder's `setNodeDefaults`. */
const builderDefaults = new WeakMap<object, ResolvedDefaults>();

/** Each compiled graph's cache queue (LangGraph.js's `AsyncBatchedCache`), settled before a run resolves. */
const batchedCaches = new WeakMap<object, BatchedCache>();

/** Each builder's nodes as the user gave them, for the compiled graph's `nodes`. */
const builderNodes = new WeakMap<object, Map<string, GraphNode>>();

/**
 * One of a compiled graph's `nodes` (LangGraph.js's `PregelNode`): its
 * `invoke` runs the node's own function (or subgraph) on `input`, outside
 * any run: no checkpoint, no writes, the function's return value as it is.
 */
export interface GraphNode {
  /** The node's name. */
  readonly name: string;
  /** Calls the node on `input` and resolves to what it returns. */
  invoke(input: unknown, config?: RunnableConfig): Promise<unknown>;
}

/** The compiled graph of each subgraph node (a graph's runs report the subgraph's run under its name). */
const subgraphOf = new WeakMap<GraphNode, CompiledStateGraph<object>>();

/** A `GraphNode` over `call`, a node function or a compiled subgraph's `invoke`. */
function graphNode(name: string, call: (input: unknown, config: RunnableConfig) => unknown): GraphNode {
  return { name, invoke: async (input, config) => call(input, config ?? {}) };
}

/** What `addNode`'s third argument may hold. */
const NODE_OPTIONS = new Set(["ends", "subgraphs", "retryPolicy", "input", "defer", "cachePolicy", "timeout", "errorHandler", "metadata"]);

/** A node whose updates of a zod object state's fields are parsed by zod, as LangGraph.js does (other states: the node itself). */
function validatingUpdates(call: UserNode, schema: StateDefinitionInfo["schema"]): UserNode {
  if (!(schema instanceof ZodInputValidator)) return call;
  const node = call as unknown as (state: unknown, config: unknown) => unknown;
  // A function, not an arrow: the node keeps the `this` it is called with (pregel/runtime.ts `wrapNode`).
  return function (this: unknown, state: unknown, config: unknown) {
    const out = node.call(this, state, config);
    return out instanceof Promise ? out.then((r) => schema.validateNodeResult(r)) : schema.validateNodeResult(out);
  } as unknown as UserNode;
}

/** `addNode`'s `metadata`, checked and copied. */
function nodeMetadata(name: string, metadata: unknown): Record<string, unknown> | undefined {
  if (metadata === undefined || metadata === null) return undefined;
  if (!isRecord(metadata)) throw argumentError(`addNode(${JSON.stringify(name)}, action, options).metadata must be an object, got ${describe(metadata)}`);
  return { ...metadata };
}

/** Checks `addNode`'s options: `ends` goes to the bindings; LangGraph.js options the engine lacks fail, naming the difference. */
function nodeOptions(name: string, options: unknown): AddNodeOptions {
  if (options == null) return {};
  if (typeof options !== "object") {
    throw argumentError(`addNode(name, action, options): options must be an object like {ends}, got ${describe(options)}`);
  }
  const what = `addNode(${JSON.stringify(name)}, action, options): options`;
  let keys: string[];
  try {
    keys = Object.keys(options);
  } catch (e) {
    throw argumentError(`${what}: reading its keys threw ${thrownText(e)}`, e);
  }
  for (const key of keys) {
    if (!NODE_OPTIONS.has(key)) throw argumentError(`${what}.${key} is not an option of addNode (options: ${[...NODE_OPTIONS].join(", ")})`);
  }
  return options as AddNodeOptions;
}

/**
 * A `streamMode` array copied into a plain one before anything reads it (a
 * Proxy whose traps throw, or a sparse array of 2**31 holes, is refused
 * here with INVALID_ARGUMENT); a single mode as given (the bindings check
 * the names).
 */
function ownModes(modes: unknown): unknown {
  if (!isArray(modes)) return modes;
  let list: unknown[];
  try {
    const length = (modes as unknown[]).length;
    if (length > MAX_STREAM_MODES) throw argumentError(`stream(input, config, options): streamMode lists ${length} modes; at most ${MAX_STREAM_MODES}`);
    list = Array.from(modes as unknown[]);
  } catch (e) {
    if (e instanceof TypeError && (e as { code?: unknown }).code === "INVALID_ARGUMENT") throw e;
    throw argumentError(`stream(input, config, options): streamMode: reading it threw ${thrownText(e)}`, e);
  }
  return list;
}

/** The longest `streamMode` list read (there are 8 modes; repeats are allowed, as in LangGraph.js). */
const MAX_STREAM_MODES = 1024;

/**
 * A graph builder over a state definition: LangGraph.js's
 * `Annotation.Root`, `StateSchema`, `{ channels }` and `{ stateSchema }`
 * forms, or the package's own `{ key: "last_value" | "append" | "sum" |
 * "add_messages" | { reducer, default } }`. Methods chain; graph mistakes
 * are reported by `compile`.
 */
class StateGraphImpl<S extends object = StateValues, U extends object = Partial<S>> {
  /** @internal */
  declare readonly [RAW]: raw.WasmStateGraph;
  /** @internal */
  declare readonly [DEFINITION]: StateDefinitionInfo | undefined;

  constructor(state: unknown, options?: unknown) {
    const info = channelsOf(state);
    // The bindings read the channels first: they name what is wrong with the package's own form.
    const graph = new raw.WasmStateGraph(info.channels);
    if (info.inputChannels !== undefined) graph.setInputSchema(info.inputChannels);
    if (info.outputChannels !== undefined) graph.setOutputSchema(info.outputChannels);
    // Every channel of the state and of its input and output schemas (LangGraph.js's `channels`).
    let all: Record<string, RawChannel>;
    try {
      all = { ...info.outputChannels, ...info.inputChannels, ...info.channels };
    } catch (e) {
      throw argumentError(`new StateGraph(state): reading the channels threw ${thrownText(e)}`, e);
    }
    const definition = { ...info, contextSchema: contextOption(options), messages: messageChannelsOf(all) };
    hide(this, RAW, graph);
    hide(this, DEFINITION, definition);
    builderChannels.set(this, all);
    // LangGraph.js's `_schemaRuntimeDefinition` & co., read by `chronograph/zod/schema`.
    for (const [key, value] of Object.entries(runtimeDefinitions(state, options))) hide(this, key, value);
  }

  /** A builder from the JSON graph format (tests/conformance/FORMAT.md), nodes made of built-in ops. */
  static fromSpec(spec: GraphSpec): StateGraph<StateValues> {
    const graph = Object.create(StateGraphImpl.prototype) as StateGraph<StateValues>;
    hide(graph, DEFINITION, undefined);
    return hide(graph, RAW, raw.WasmStateGraph.fromSpec(spec));
  }

  /**
   * Adds a node: `fn(state, config)` returns an update object or a
   * `Command` (or a Promise of either); `options.ends` lists where a
   * returned `Command` may go (drawn as conditional edges; `compile` checks
   * that they exist).
   */
  addNode(name: string, fn: NodeFunction<S, U>, options?: AddNodeOptions): this;
  /**
   * A node with an input schema of its own (`options.input`): it reads that
   * schema's keys (`NodeInput`), private channels included.
   */
  addNode<NodeInput extends object>(name: string, fn: NodeFunction<NodeInput, U>, options: AddNodeOptions & { input: object }): this;
  /**
   * A compiled graph as a node (a subgraph): it starts from this graph's
   * values of the channels both declare (or a `Send`'s args), keeps its
   * checkpoints in the task's namespace of this graph's checkpointer, and
   * its final state is the node's update.
   */
  addNode(name: string, subgraph: CompiledStateGraph<object>, options?: AddNodeOptions): this;
  /** Several nodes at once (LangGraph.js): `{ name: fn, ... }`. */
  addNode(nodes: { [name: string]: NodeFunction<S, U> | CompiledStateGraph<object> }): this;
  /** Several nodes at once (LangGraph.js): `[[name, fn, options?], ...]`. */
  addNode(nodes: [string, NodeFunction<S, U> | CompiledStateGraph<object>, AddNodeOptions?][]): this;
  addNode(
    name: string | { [name: string]: NodeFunction<S, U> | CompiledStateGraph<object> } | [string, NodeFunction<S, U> | CompiledStateGraph<object>, AddNodeOptions?][],
    action?: NodeFunction<S, U> | CompiledStateGraph<object>,
    options?: AddNodeOptions,
  ): this {
    if (isArray(name) && action === undefined) {
      if ((name as unknown[]).length === 0) throw graphError("No nodes provided in `addNode`");
      for (const entry of name as unknown[]) {
        if (!isArray(entry)) throw argumentError(`addNode(nodes): each node must be [name, action, options?], got ${describe(entry)}`);
        const [n, a, o] = entry as [string, NodeFunction<S, U>, AddNodeOptions?];
        this.addNode(n, a, o);
      }
      return this;
    }
    if (isRecord(name) && action === undefined) {
      let nodes: [string, unknown][];
      try {
        nodes = Object.entries(name);
      } catch (e) {
        throw argumentError(`addNode(nodes): reading the nodes threw ${thrownText(e)}`, e);
      }
      if (nodes.length === 0) throw graphError("No nodes provided in `addNode`");
      for (const [n, a] of nodes) this.addNode(n, a as NodeFunction<S, U>);
      return this;
    }
    const label = typeof name === "string" ? name : "?";
    if (typeof name === "string") this.#claim(name);
    const checked = nodeOptions(label, options);
    const what = "addNode(name, action, options): options";
    const ends = checkedByEngine<raw.Names>(option(checked, "ends", what));
    const retry = retryPolicyOf(label, option(checked, "retryPolicy", what));
    const cachePolicy = cachePolicyOf(`addNode(${JSON.stringify(label)}, action, options).cachePolicy`, option(checked, "cachePolicy", what));
    const timeout = timeoutPolicyOf(`addNode(${JSON.stringify(label)}, action, options).timeout`, option(checked, "timeout", what));
    const errorHandler = errorHandlerOf(`addNode(${JSON.stringify(label)}, action, options).errorHandler`, option(checked, "errorHandler", what));
    const policies: NodePolicies = { own: { retryPolicy: retry, cachePolicy, timeout, errorHandler: errorHandler !== undefined }, handler: false, subgraph: false, retryPolicy: retry, timeout };
    // LangGraph.js registers the handler node first (`graph.nodes` lists it before the node).
    if (errorHandler !== undefined) this.#claimHandler(label, errorHandler);
    const input = option(checked, "input", what);
    // The input schema's channels join the graph's before anything is added (LangGraph.js's order).
    const inputChannels = input === undefined ? undefined : nodeInputChannels(input, `addNode(${JSON.stringify(label)}, action, options).input`, this.#channels());
    // A `Pregel` runs as a subgraph node on the compiled graph it is.
    action = engineOf(action) ?? action;
    if (isInstance(action, CompiledStateGraph)) {
      if (retry) throw withCode(new GraphValueError(`addNode(${JSON.stringify(label)}, subgraph, options).retryPolicy: a retry policy on a subgraph node is not supported`), "UNSUPPORTED");
      if (timeout) throw withCode(new GraphValueError(`addNode(${JSON.stringify(label)}, subgraph, options).timeout: a timeout on a subgraph node is not supported`), "UNSUPPORTED");
      policies.subgraph = true;
      if (option(checked, "metadata", what) != null) {
        throw withCode(new GraphValueError(`addNode(${JSON.stringify(label)}, subgraph, options).metadata: metadata on a subgraph node is not supported (its nodes' config.metadata would carry it)`), "UNSUPPORTED");
      }
      this[RAW].addSubgraph(name as string, action[RAW], ends);
      const subgraph = action;
      const node = graphNode(label, (input, config) => subgraph.invoke(input as never, config));
      subgraphOf.set(node, subgraph);
      this.#nodes().set(label, node);
    } else if (typeof action === "function" || isRunnable(action)) {
      // A LangChain Runnable (anything with `invoke(input, config)`) runs through its `invoke`.
      const call = typeof action === "function" ? (action as UserNode) : runnableNode(action);
      this.#nodes().set(label, graphNode(label, call as unknown as (input: unknown, config: RunnableConfig) => unknown));
      const metadata = nodeMetadata(label, option(checked, "metadata", what));
      if (metadata !== undefined) this.#metadata().set(label, metadata);
      // Every graph's nodes get `messages` (engineNode): a channel of any reducer may hold message
      // instances (LangGraph.js keeps them as written), which the node then sees as instances.
      this[RAW].addNode(name as string, engineNode(this as unknown as StateGraphImpl<object, object>, call, policies, metadata), ends);
    } else this[RAW].addNode(name as string, checkedByEngine<raw.EngineNode>(action), ends);
    this.#policies().set(label, policies);
    if (errorHandler !== undefined) this.#addErrorHandler(label, errorHandler);
    if (inputChannels !== undefined) this[RAW].setNodeInput(name as string, inputChannels);
    // LangGraph.js reads `defer` as a flag (`node?.defer ? LastValueAfterFinish : EphemeralValue`).
    if (option(checked, "defer", what)) this[RAW].setNodeDefer(name as string);
    recordNode(this, label, action, checked);
    return this;
  }

  /**
   * LangGraph.js's `setNodeDefaults`: policies for every node without its
   * own (`retryPolicy`, `timeout`; `cachePolicy` for regular nodes),
   * resolved when the graph compiles, so the call may come before or after
   * `addNode`; later calls override earlier ones field by field.
   * Subgraphs do not inherit them.
   */
  setNodeDefaults(defaults: NodeDefaults<S>): this {
    let resolved = builderDefaults.get(this);
    if (resolved === undefined) builderDefaults.set(this, (resolved = {}));
    mergeDefaults(resolved, defaults);
    return this;
  }

  /** Claims `__error_handler__<node>` (LangGraph.js's error when taken) and lists the handler among the nodes. */
  #claimHandler(node: string, handler: NodeErrorHandler<unknown>): void {
    const name = errorHandlerName(node);
    let names = nodeNames.get(this);
    if (names === undefined) nodeNames.set(this, (names = new Set()));
    if (names.has(name)) throw handlerNameTaken(node);
    names.add(name);
    this.#nodes().set(name, graphNode(name, (input, config) => handler(input, undefined as never, config)));
  }

  /** Node `node`'s error handler, as the engine's `__error_handler__<node>` node. */
  #addErrorHandler(node: string, handler: NodeErrorHandler<unknown>): void {
    const policies: NodePolicies = { own: {}, handler: true, subgraph: false };
    this[RAW].setNodeErrorHandler(node, engineNode(this as unknown as StateGraphImpl<object, object>, handlerNode(handler), policies));
    this.#policies().set(errorHandlerName(node), policies);
  }

  /** The builder's nodes' policies so far (see `builderPolicies`). */
  #policies(): Map<string, NodePolicies> {
    let policies = builderPolicies.get(this);
    if (policies === undefined) builderPolicies.set(this, (policies = new Map()));
    return policies;
  }

  /** The builder's nodes' metadata so far (see `builderMetadata`). */
  #metadata(): Map<string, Record<string, unknown>> {
    let metadata = builderMetadata.get(this);
    if (metadata === undefined) builderMetadata.set(this, (metadata = new Map()));
    return metadata;
  }

  /** The builder's nodes so far (see `builderNodes`). */
  #nodes(): Map<string, GraphNode> {
    let nodes = builderNodes.get(this);
    if (nodes === undefined) builderNodes.set(this, (nodes = new Map()));
    return nodes;
  }

  /** The builder's channels so far (see `builderChannels`). */
  #channels(): Record<string, RawChannel> {
    let channels = builderChannels.get(this);
    // A builder from `fromSpec` has no state definition: its channels are the engine's alone.
    if (channels === undefined) builderChannels.set(this, (channels = {}));
    return channels;
  }

  /** LangGraph.js's checks of a new node's name, in its order, thrown by `addNode` itself. */
  #claim(name: string): void {
    const fail = (message: string) => {
      throw graphError(message);
    };
    if (Object.prototype.hasOwnProperty.call(this.#channels(), name)) {
      throw graphError(`${name} is already being used as a state attribute (a.k.a. a channel), cannot also be used as a node name.`);
    }
    for (const reserved of ["|", ":"]) {
      if (name.includes(reserved)) fail(`"${reserved}" is a reserved character and is not allowed in node names.`);
    }
    let names = nodeNames.get(this);
    if (names === undefined) nodeNames.set(this, (names = new Set()));
    if (names.has(name)) fail(`Node \`${name}\` already present.`);
    if (name === START || name === END) fail(`Node \`${name}\` is reserved.`);
    names.add(name);
  }

  /** Adds an edge; with several sources, `to` runs once all of them have run (a join). */
  addEdge(from: string | string[], to: string): this {
    this[RAW].addEdge(from, to);
    recordEdge(this, from, to);
    return this;
  }

  /** LangGraph.js's older form of `addEdge(START, key)`. @deprecated use `addEdge(START, key)` instead */
  setEntryPoint(key: string): this {
    return this.addEdge(START, key);
  }

  /** LangGraph.js's older form of `addEdge(key, END)`. @deprecated use `addEdge(key, END)` instead */
  setFinishPoint(key: string): this {
    return this.addEdge(key, END);
  }

  /**
   * Adds a conditional edge: `router(state)` returns a node name, a `Send`,
   * or an array of them (or a Promise of that). `pathMap` maps router
   * results to nodes, or lists the possible destinations.
   */
  addConditionalEdges(from: string, router: Router<S>, pathMap?: { [result: string]: string } | string[]): this;
  /** LangGraph.js's object form: `{ source, path, pathMap }`. */
  addConditionalEdges(options: { source: string; path: Router<S>; pathMap?: { [result: string]: string } | string[] }): this;
  addConditionalEdges(
    source: string | { source: string; path: Router<S>; pathMap?: { [result: string]: string } | string[] },
    path?: Router<S>,
    map?: { [result: string]: string } | string[],
  ): this {
    const branch = isRecord(source) && path === undefined && map === undefined ? source : undefined;
    const from = branch === undefined ? (source as string) : option(branch, "source", "addConditionalEdges(options): options");
    const router = branch === undefined ? path : option(branch, "path", "addConditionalEdges(options): options");
    const pathMap = branch === undefined ? map : option(branch, "pathMap", "addConditionalEdges(options): options");
    const messages = this[DEFINITION]?.messages;
    // A router reads message instances too, as LangGraph.js's do (`isAIMessage(last)`, `toolsCondition`).
    const read =
      messages !== undefined && typeof router === "function"
        ? (state: S) => (router as (state: S) => unknown)(messages.values(state))
        : router;
    // In a run with LangChain callbacks the engine tells a router its task (`ns`): the call is a run in it.
    const route =
      typeof read === "function" ? (state: S, ns?: string) => (ns === undefined ? (read as (state: S) => unknown)(state) : routed(ns, state, () => (read as (state: S) => unknown)(state))) : read;
    // The caller's source, router and path map: the bindings check them.
    this[RAW].addConditionalEdges(checkedByEngine(from), checkedByEngine(route), checkedByEngine(pathMap));
    recordBranch(this, from as string, router, pathMap);
    return this;
  }

  /** LangGraph.js's `addSequence`: nodes in order, each with an edge to the next; `[name, fn][]` or `{ name: fn }`. */
  addSequence(nodes: [string, NodeFunction<S, U>][] | { [name: string]: NodeFunction<S, U> }): this {
    const list: [string, NodeFunction<S, U>][] = isArray(nodes) ? (nodes as [string, NodeFunction<S, U>][]) : Object.entries(nodes);
    if (list.length === 0) throw graphError("Sequence requires at least one node.");
    let previous: string | undefined;
    for (const [name, fn] of list) {
      this.addNode(name, fn);
      if (previous !== undefined) this.addEdge(previous, name);
      previous = name;
    }
    return this;
  }

  /** Validates and compiles: `{ checkpointer, interruptBefore, interruptAfter }`. */
  compile(options: CompileOptions = {}): CompiledStateGraph<S, U> {
    if (options === null || typeof options !== "object") {
      throw argumentError(`compile(options): options must be an object, got ${typeof options}`);
    }
    const what = "compile(options): options";
    const checkpointer = option(options, "checkpointer", what);
    const interruptBefore = checkedByEngine<raw.Names>(option(options, "interruptBefore", what));
    const interruptAfter = checkedByEngine<raw.Names>(option(options, "interruptAfter", what));
    const persistent = checkpointer === true;
    const saver = saverOf(checkpointer, "compile(options): options.checkpointer");
    const python = flag(option(options, "pythonSemantics", what), "compile(options): options.pythonSemantics");
    const store = storeOption(option(options, "store", what), "compile(options): options.store");
    const name = option(options, "name", what);
    if (name !== undefined && typeof name !== "string") throw argumentError(`compile(options): options.name must be a string, got ${describe(name)}`);
    compiledStore(this, store);
    const cache = cacheOption(option(options, "cache", what), "compile(options): options.cache");
    const batched = cache === undefined ? undefined : new BatchedCache(cache);
    const defaultHandler = resolveBuilderPolicies(this as unknown as StateGraphImpl<object, object>);
    const compiled = this[RAW].compile(saver?.[RAW].share(), interruptBefore, interruptAfter, persistent, !python, batched);
    // `@langchain/core`, if installed, is looked up now: runs wait for the lookup (langchain/message_classes.ts).
    void loadMessageClasses();
    // The nodes' metadata as they are now (nodes added later are not in this graph).
    const metadata = builderMetadata.get(this);
    const definition = this[DEFINITION] && metadata?.size ? { ...this[DEFINITION], nodeMetadata: new Map(metadata) } : this[DEFINITION];
    const graph = new CompiledStateGraph<S, U>(compiled, definition);
    const nodes = [...(builderNodes.get(this) ?? [])];
    if (defaultHandler !== undefined) nodes.push([DEFAULT_ERROR_HANDLER_NODE, defaultHandler]);
    hide(graph, "nodes", Object.freeze(Object.fromEntries(nodes)));
    // What `getGraph` draws.
    setDrawing(graph, this, interruptBefore, interruptAfter);
    if (checkpointer === false) unCheckpointed.add(graph);
    hide(graph, "store", store);
    hide(graph, "name", name);
    hide(graph, "cache", cache);
    if (batched !== undefined) batchedCaches.set(graph, batched);
    // LangGraph.js's `graph.builder` (what `chronograph/zod/schema` reads the definitions from).
    hide(graph, "builder", this);
    hide(graph, SAVER, saver);
    return hide(graph, "checkpointer", saver);
  }
}

/** A node function for the engine: `call` with its policies, zod checks, metadata and store, as every node of `builder` has. */
function engineNode(builder: StateGraphImpl<object, object>, call: UserNode, policies: NodePolicies, metadata?: Record<string, unknown>): RawNode {
  const validated = validatingUpdates(call, builder[DEFINITION]?.schema);
  const messages = builder[DEFINITION]?.messages;
  // A node written `(state) => ...` has its config made only when asked for, unless a retry or a
  // timeout (which read it) wraps the call.
  const lazyConfig = ignoresConfig(call) ? () => policies.retryPolicy === undefined && policies.timeout === undefined : undefined;
  return wrapNode(withPolicies(validated, policies), { metadata, store: storeOfGraph(builder), lazyConfig }, messages);
}

/**
 * Resolves every node's policies of `builder` with its defaults; the
 * engine gets each node's cache policy, and the default error handler (as
 * node `__default_error_handler__`, for this compile only). Returns that
 * handler's node, for the compiled graph's `nodes`. (A function, not a
 * method: a builder from `fromSpec` has no private methods.)
 */
function resolveBuilderPolicies(builder: StateGraphImpl<object, object>): GraphNode | undefined {
  const defaults = builderDefaults.get(builder) ?? {};
  const handler = defaults.errorHandler;
  let defaultHandler: GraphNode | undefined;
  if (handler === undefined) builder[RAW].setDefaultErrorHandler(undefined);
  else {
    if (nodeNames.get(builder)?.has(DEFAULT_ERROR_HANDLER_NODE)) throw defaultHandlerNameTaken();
    const policies: NodePolicies = { own: {}, handler: true, subgraph: false };
    resolvePolicies(policies, defaults);
    builder[RAW].setDefaultErrorHandler(engineNode(builder, handlerNode(handler), policies));
    defaultHandler = graphNode(DEFAULT_ERROR_HANDLER_NODE, (input, config) => handler(input, undefined, config));
  }
  const messages = builder[DEFINITION]?.messages;
  for (const [name, node] of builderPolicies.get(builder) ?? []) {
    const cache = resolvePolicies(node, defaults);
    if (cache === undefined) builder[RAW].setNodeCachePolicy(name, undefined, undefined);
    else builder[RAW].setNodeCachePolicy(name, keyOf(cache, messages?.keys.length ? messages : undefined), cache.ttl ?? undefined);
  }
  return defaultHandler;
}

/**
 * `new StateGraph(state, options)`'s second argument: LangGraph.js v1's
 * context schema (a zod object or any standard schema; an `Annotation.Root`
 * only describes types), or `{ context }`. Nodes get the run's `context`
 * as `config.context`.
 */
function contextOption(options: unknown): StandardSchemaV1 | undefined {
  if (options === undefined || options === null) return undefined;
  const schema = isRecord(options) && "context" in options ? options.context : options;
  if (isRecord(schema) && "~standard" in schema) return schema as unknown as StandardSchemaV1;
  if (schema === undefined || AnnotationRoot.isInstance(schema)) return undefined;
  if (isRecord(options)) {
    for (const key of ["input", "output", "interrupt", "writer", "nodes"]) {
      if (options[key] !== undefined) {
        throw withCode(new GraphValueError(`new StateGraph(state, options): options.${key} is not supported`), "UNSUPPORTED");
      }
    }
  }
  throw argumentError(`new StateGraph(state, contextSchema): the context schema must be a zod object or an Annotation.Root, got ${describe(schema)}`);
}

/** Options of `new StateGraph(state, options)`: LangGraph.js's context schema (or `{ context }`). */
export type StateGraphOptions = AnnotationRoot | StandardSchemaV1 | { context?: AnnotationRoot | StandardSchemaV1 };

/** A `{ channels }` entry whatever its value type: `{ reducer | value, default }`. */
export interface LooseReducer {
  reducer?(a: never, b: never): unknown;
  value?(a: never, b: never): unknown;
  default?(): unknown;
}

/** `new StateGraph(...)`: the state definition decides the state's type. */
export interface StateGraphConstructor {
  /** LangGraph.js's `Annotation.Root` state. */
  new <SD extends StateDefinition>(state: AnnotationRoot<SD>, options?: StateGraphOptions): StateGraph<StateType<SD>, UpdateType<SD>>;
  /** LangGraph.js's `StateSchema` state (zod fields). */
  new <F extends StateSchemaFields>(state: StateSchema<F>, options?: StateGraphOptions): StateGraph<StateSchema<F>["State"], StateSchema<F>["Update"]>;
  /** A zod object (zod 3 or 4) as the state, its fields' reducers from `chronograph/zod`. */
  new <Z extends ZodObjectState>(state: Z, options?: StateGraphOptions): StateGraph<ZodOutput<Z>, Partial<ZodOutput<Z>>>;
  /** `{ state, input?, output? }` with zod objects. */
  new <Z extends ZodObjectState>(init: { state: Z; input?: ZodObjectState; output?: ZodObjectState }, options?: StateGraphOptions): StateGraph<ZodOutput<Z>, Partial<ZodOutput<Z>>>;
  /** LangGraph.js's `{ stateSchema }` / `{ state }` form. */
  new <SD extends StateDefinition>(init: { stateSchema: AnnotationRoot<SD> } | { state: AnnotationRoot<SD> }, options?: StateGraphOptions): StateGraph<StateType<SD>, UpdateType<SD>>;
  /** LangGraph.js's older `{ channels: { key: { reducer | value, default } | null } }` form. */
  new (init: { channels: { [key: string]: LooseReducer | BaseChannel | null } }): StateGraph<StateValues>;
  /** A state definition (`Annotation.Root(...).spec`). */
  new <SD extends StateDefinition>(state: SD, options?: StateGraphOptions): StateGraph<StateType<SD>, UpdateType<SD>>;
  /** The package's own form: `channels` maps each state key to its reducer. */
  new <S extends object = StateValues>(channels: { [K in keyof NoInfer<S>]: ChannelSpec }): StateGraph<S>;
  /** A builder from the JSON graph format (tests/conformance/FORMAT.md), nodes made of built-in ops. */
  fromSpec(spec: GraphSpec): StateGraph<StateValues>;
  readonly prototype: StateGraph<object>;
}

/** A graph builder (see {@link StateGraphConstructor} for the state definitions it takes). */
export type StateGraph<S extends object = StateValues, U extends object = Partial<S>> = StateGraphImpl<S, U>;
/** A graph builder (see {@link StateGraphConstructor} for the state definitions it takes). */
export const StateGraph = StateGraphImpl as unknown as StateGraphConstructor;

/** LangGraph.js's default `recursionLimit` (LangGraph's is 10000 and more; the engine's default follows it). */
const DEFAULT_RECURSION_LIMIT = 25;

/** `config` with LangGraph.js's default `recursionLimit` when it gives none (a copy then). */
function withDefaultLimit(config: unknown): unknown {
  if (config != null && typeof config !== "object") return config;
  if (option(config, "recursionLimit", "config") !== undefined || option(config, "recursion_limit", "config") !== undefined) return config;
  try {
    return { ...(config as object), recursionLimit: DEFAULT_RECURSION_LIMIT };
  } catch (e) {
    // A getter or Proxy trap of the caller's config threw while it was copied.
    throw argumentError(`config: reading it threw ${thrownText(e)}`, e);
  }
}

/**
 * Graphs compiled with `checkpointer: false`: LangGraph.js's "no
 * checkpointing", even when a node calls them (they do not join the
 * node's task).
 */
const unCheckpointed = new WeakSet<object>();

/** Notes `checkpointer` (a compiled graph's, as its caller gave it) for `#joinedTask`: `false` keeps it out of the running task. */
export function markCheckpointer(graph: object, checkpointer: unknown): void {
  if (checkpointer === false) unCheckpointed.add(graph);
  else unCheckpointed.delete(graph);
}

/** Whether `saver` is a `MemorySaver` subclass with a saver method of its own (LangGraph.js's savers are subclassed so). */
function overridesSaver(saver: MemorySaver): boolean {
  const own = MemorySaver.prototype as unknown as Record<string, unknown>;
  const mine = saver as unknown as Record<string, unknown>;
  return ["getTuple", "list", "put", "putWrites", "getNextVersion"].some((m) => m in mine && mine[m] !== own[m]);
}

/**
 * The saver a graph's engine runs on, from the `checkpointer` its caller
 * gave (`what` names the option): a `MemorySaver` itself; any other
 * LangGraph.js checkpointer (PostgresSaver, SqliteSaver, a `MemorySaver`
 * subclass with saver methods of its own, ...) behind the engine's store
 * (checkpoint/saver_bridge.ts), which loads threads from it and hands them back;
 * `undefined` for none, `true` (LangGraph.js's subgraph with a history of
 * its own) or `false` (no checkpointing).
 */
export function saverOf(checkpointer: unknown, what: string): MemorySaver | undefined {
  const own = isInstance(checkpointer, MemorySaver) && !overridesSaver(checkpointer);
  if (own) return checkpointer as MemorySaver;
  if (checkpointer == null || typeof checkpointer === "boolean") return undefined;
  if (!isAsyncSaver(checkpointer)) {
    throw argumentError(`${what} must be a MemorySaver, a LangGraph.js checkpointer (getTuple, list, put, putWrites), true or false`);
  }
  return bridgeOf(checkpointer);
}

/** The config each `withConfig` graph starts its calls from. */
const boundConfigs = new WeakMap<object, RunnableConfig>();

/**
 * `bound`'s runs and state calls with `from`'s methods, each call's config
 * merged over `base` (LangGraph.js's `withConfig`, and a `Pregel`'s `config`).
 */
export function bindConfig<G extends object>(bound: G, from: object, base: RunnableConfig): G {
  boundConfigs.set(bound, base);
  for (const method of ["invoke", "stream", "streamEvents", "getState", "getStateHistory", "updateState", "bulkUpdateState", "getLineage"] as const) {
    const own = (from as unknown as Record<string, ((...args: unknown[]) => unknown) | undefined>)[method];
    // A Pregel graph has no streamEvents of its own to bind.
    if (own === undefined) continue;
    const at = method === "invoke" || method === "stream" || method === "streamEvents" ? 1 : 0;
    hide(bound, method, function (this: unknown, ...args: unknown[]) {
      args[at] = mergeConfigs(base, args[at] as RunnableConfig | undefined);
      return own.apply(bound, args);
    });
  }
  return bound;
}

/** LangGraph.js's `mergeConfigs`: `extra` over `base`, `configurable` and `metadata` merged key by key, `tags` joined. */
export function mergeConfigs(base: RunnableConfig | undefined, extra: RunnableConfig | undefined): RunnableConfig {
  if (base === undefined) return extra ?? {};
  if (extra == null) return { ...base };
  const out: RunnableConfig = { ...base, ...extra };
  if (base.configurable !== undefined || extra.configurable !== undefined) out.configurable = { ...base.configurable, ...extra.configurable };
  if (base.metadata !== undefined || extra.metadata !== undefined) out.metadata = { ...base.metadata, ...extra.metadata };
  // LangGraph.js's `ensureLangGraphConfig` puts the bound config's tags before the call's.
  if (isArray(base.tags) && isArray(extra.tags)) out.tags = [...base.tags, ...extra.tags];
  return out;
}

/**
 * What LangGraph.js puts in a task's `metadata` in `"tasks"` and `"debug"`
 * chunks: its run marker and the run's own metadata.
 */
function taskMetadataOf(config: unknown): Record<string, unknown> {
  const metadata = option(config, "metadata", "config");
  return { ls_integration: "langgraph", ...(isRecord(metadata) ? metadata : {}) };
}

/**
 * LangGraph.js's root loop reports a breakpoint's `{ __interrupt__: [] }`
 * in the deepest namespace of the run config's `checkpoint_map` when it
 * streams subgraphs (`#interruptStreamNamespace`: a run started from a
 * subgraph's checkpoint config pauses "there"); `undefined` when the
 * config has no such map.
 */
function deepestMapNamespace(config: unknown): string[] | undefined {
  let map: unknown;
  try {
    map = (config as { configurable?: { checkpoint_map?: unknown } } | undefined)?.configurable?.checkpoint_map;
  } catch {
    return undefined;
  }
  if (!isRecord(map)) return undefined;
  let deepest = "";
  for (const key of Object.keys(map)) if (key !== "" && key.length > deepest.length) deepest = key;
  return deepest === "" ? undefined : deepest.split("|");
}

/** Whether `c` is a breakpoint's chunk, `{ __interrupt__: [] }`. */
function isBreakpointChunk(c: unknown): boolean {
  return isRecord(c) && isArray(c[INTERRUPT]) && (c[INTERRUPT] as unknown[]).length === 0 && Object.keys(c).length === 1;
}

/** A task-start chunk (`"tasks"`, or a `"debug"` one of type `task`) with its `metadata`. */
function withTaskMetadata(mode: string, c: unknown, metadata: Record<string, unknown>, nodes: StateDefinitionInfo["nodeMetadata"], ns: string[] | undefined): unknown {
  // A root node's own metadata follows (LangGraph.js's `proc.metadata`).
  const own = (name: unknown) => (!ns?.length && typeof name === "string" ? nodes?.get(name) : undefined);
  if (mode === "tasks" && isRecord(c) && "triggers" in c) c.metadata = { ...metadata, ...own(c.name) };
  else if (mode === "debug" && isRecord(c) && c.type === "task" && isRecord(c.payload)) c.payload.metadata = { ...metadata, ...own(c.payload.name) };
  return c;
}

/**
 * LangGraph.js's `getState` gives the caller's own config back (its
 * checkpointer's `getTuple` does) when there is no checkpoint, or when the
 * config names one: the snapshot's config is then a copy of it, as given.
 */
function echoConfig<S extends object>(snapshot: StateSnapshot<S>, config: RunnableConfig): StateSnapshot<S> {
  try {
    const own = config?.configurable;
    if (own == null || snapshot.config.configurable.checkpoint_map !== undefined) return snapshot;
    if (snapshot.metadata === undefined || own.checkpoint_id) {
      snapshot.config = { ...config, configurable: { ...own } } as StateSnapshot<S>["config"];
    }
  } catch {
    // An unreadable config was already refused by the engine; keep its answer.
  }
  return snapshot;
}

/** What a graph's callback runs read of it (langchain/task_runs.ts), made once per graph. */
const runGraphs = new WeakMap<object, RunGraph>();
function runGraphOf(graph: CompiledStateGraph<object>): RunGraph {
  let known = runGraphs.get(graph);
  if (known === undefined) {
    known = {
      runName: graph.getName(),
      nodeMetadata: (node) => graph[DEFINITION]?.nodeMetadata?.get(node),
      subgraph: (node) => {
        const own = Object.prototype.hasOwnProperty.call(graph.nodes, node) ? graph.nodes[node] : undefined;
        const sub = own === undefined ? undefined : subgraphOf.get(own);
        return sub === undefined ? undefined : runGraphOf(sub);
      },
      revive: (values) => graph[DEFINITION]?.messages?.values(values, false) ?? values,
    };
    runGraphs.set(graph, known);
  }
  return known;
}

/**
 * `op()` once `@langchain/core` was looked up (langchain/message_classes.ts): at
 * once, but on a graph's first run, which waits for the lookup.
 */
function classesKnown<T>(op: () => Promise<T>): Promise<T> {
  const pending = loadMessageClasses();
  return pending === undefined ? op() : pending.then(op);
}

/**
 * For a run on a thread of a LangGraph.js checkpointer (checkpoint/saver_bridge.ts): what
 * starts putting the run's checkpoints as its first node starts, as
 * LangGraph.js puts a run's first checkpoint while its first tasks run
 * (the rest go once the run ends). Nothing for the engine's own saver.
 */
function earlyFlush(saver: MemorySaver | undefined, thread: string | undefined, config: RunnableConfig | undefined): (() => void) | undefined {
  if (!(saver instanceof SaverBridge) || thread === undefined) return undefined;
  let started = false;
  return () => {
    if (started) return;
    started = true;
    // With the run's config, as the flush after the run (LangGraph.js's loop puts with it).
    saver.flushSoon(thread, { config, run: true });
  };
}

/**
 * One engine store per LangGraph.js checkpointer: graphs compiled with the
 * same checkpointer share it, as they share a `MemorySaver`.
 */
const bridges = new WeakMap<object, SaverBridge>();
function bridgeOf(saver: object): SaverBridge {
  let bridge = bridges.get(saver);
  if (bridge === undefined) bridges.set(saver, (bridge = new SaverBridge(saver as ConstructorParameters<typeof SaverBridge>[0])));
  return bridge;
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

  /** @internal Made by `StateGraph.compile()` (and by a `Pregel`, which runs on one). */
  constructor(compiled: raw.WasmCompiledGraph, definition?: StateDefinitionInfo) {
    if (!isInstance(compiled, raw.WasmCompiledGraph)) {
      throw argumentError("CompiledStateGraph is made by StateGraph.compile()");
    }
    hide(this, RAW, compiled);
    hide(this, DEFINITION, definition);
  }

  /**
   * The run's `context` (LangGraph.js v1's runtime context), validated
   * against the graph's context schema when it has one (a standard schema).
   */
  #context(config: unknown): unknown {
    const context = option(config, "context", "config");
    const schema = this[DEFINITION]?.contextSchema;
    if (schema === undefined) return context;
    // LangGraph.js: without a `context`, a zod context schema validates `configurable` instead.
    if (context === undefined) {
      if (isZodObject(schema)) checkConfigurable(schema, option(config, "configurable", "config"));
      return context;
    }
    const checked = schema["~standard"].validate(context);
    if ("then" in checked) throw withCode(new GraphValueError("config.context: an async context schema is not supported"), "UNSUPPORTED");
    if (checked.issues) throw plainError(`Validation failed for the context: ${JSON.stringify(checked.issues)}`, "INVALID_ARGUMENT");
    return checked.value;
  }

  /**
   * Calls `run` with the run input as the engine takes it: validated
   * against a `StateSchema` state first, as LangGraph.js does. Without a
   * schema the input goes through untouched (and synchronously: it may be
   * anything, even a revoked Proxy, whose mistakes the bindings name).
   */
  #withInput<T>(input: unknown, run: (input: unknown) => Promise<T>): Promise<T> {
    const definition = this[DEFINITION];
    const schema = definition?.inputSchema ?? definition?.schema;
    if (schema === undefined || input == null || typeof input !== "object") return run(input);
    const validated = async (): Promise<{ input: unknown }> => {
      if (!isCommandLike(input)) return { input: await schema.validateInput(input) };
      if (input.update === undefined) return { input };
      const update = isArray(input.update) ? Object.fromEntries(input.update) : input.update;
      const checked = "validateUpdate" in schema ? await schema.validateUpdate(update) : await schema.validateInput(update);
      const copy = Object.assign(Object.create(Object.getPrototypeOf(input) as object) as object, input, { update: checked });
      return { input: copy };
    };
    return validated().then((v) => run(v.input));
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
    return unCheckpointed.has(this) ? undefined : runningTask(config);
  }

  /** `run`, settled once the cache operations it asked for have (LangGraph.js awaits `cache.stop()` as a run ends). */
  #cacheSettled<T>(run: Promise<T>): Promise<T> {
    const batched = batchedCaches.get(this);
    return batched === undefined ? run : run.finally(() => batched.stop());
  }

  /** LangGraph.js's `clearCache()`: drops every entry of the graph's cache (`cache.clear([])`). */
  async clearCache(): Promise<void> {
    await this.cache?.clear([]);
  }

  /**
   * What a caller writes to the state (a run's input, a `Command`, an
   * update) as the engine takes it: its id-less message instances given
   * ids in place first, as LangGraph.js's reducer gives them.
   */
  #written<T>(v: T): T {
    const keys = this[DEFINITION]?.messages?.keys;
    if (keys !== undefined) assignMessageIds(v, keys);
    return toEngine(v);
  }

  /** `bulkUpdateState`'s supersteps, each update's `values` as {@link #written} makes them. */
  #writtenSupersteps<T>(supersteps: T): T {
    const keys = this[DEFINITION]?.messages?.keys;
    try {
      if (keys !== undefined && isArray(supersteps)) {
        for (const step of supersteps as unknown[]) {
          const updates = isRecord(step) ? step.updates : undefined;
          if (isArray(updates)) for (const u of updates as unknown[]) if (isRecord(u)) assignMessageIds(u.values, keys);
        }
      }
    } catch {
      // A getter or Proxy trap that throws (a revoked Proxy): the bindings read the value again and name what is wrong.
    }
    return toEngine(supersteps);
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
      return nestedRun(runGraphOf(this as unknown as CompiledStateGraph<object>), input, config, () => this.#withInput(input, (i) => this[RAW].invokeInTask(this.#written(i), task)).then(output));
    }
    const { thread, strategy } = laneOptions(config);
    let context: unknown;
    let signal: AbortSignal | undefined;
    try {
      context = this.#context(config);
      signal = runSignal(config);
    } catch (e) {
      // LangGraph.js validates the context inside the run: its failure is a rejection.
      return Promise.reject(e);
    }
    const cancel = new RunCancel(signal, this.stepTimeout);
    const data: RunData = { context, checkpointed: this[SAVER] !== undefined, store: runStore(this, config), cancel, onNodeStart: earlyFlush(this[SAVER], thread, config) };
    const [runConfig, forget] = withRunData(withDefaultLimit(config), data);
    const engineRun = withCallbacks(runGraphOf(this as unknown as CompiledStateGraph<object>), config, input, data, output, (runs) =>
      onThread(this[SAVER], thread, strategy, "invoke(input, config)", () =>
        classesKnown(() =>
          this.#cacheSettled(
            this.#withInput(input, (i) =>
              runs === undefined
                ? this[RAW].invoke(this.#written(i), runConfig)
                : // LangGraph.js's invoke is a stream: with callbacks, the engine's task events report the tasks' runs.
                  this[RAW].stream(this.#written(i), runConfig, modesWithRuns([]), rootChunks(runs, [], false, () => {}), true, true),
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
      const modes = ownModes(
        option(options, "streamMode", "stream(input, config, options): options") ??
          option(config, "streamMode", "stream(input, config): config") ??
          this.streamMode?.[0] ??
          "updates",
      );
      const subgraphs = flag(
        option(options, "subgraphs", "stream(input, config, options): options") ??
          option(config, "subgraphs", "stream(input, config): config"),
        "stream(input, config, options): subgraphs",
      );
      const tagged = isArray(modes);
      const { thread, strategy } = laneOptions(config);
      const taskMetadata = taskMetadataOf(config);
      const emit = subgraphs
        ? tagged
          ? (mode: string, c: unknown, ns: string[]) => push([ns, mode, c])
          : (_mode: string, c: unknown, ns: string[]) => push([ns, c])
        : tagged
          ? (mode: string, c: unknown) => push([mode, c])
          : (_mode: string, c: unknown) => push(c);
      const list = (tagged ? modes : [modes]) as unknown[];
      // "messages" chunks come from the nodes' results and updates (stream/messages_of_nodes.ts), which
      // read the "debug" and "updates" chunks: asked for, and dropped when not requested.
      const nodeMetadata = this[DEFINITION]?.nodeMetadata;
      const messages = list.includes("messages") ? new NodeMessages((c, ns) => emit("messages", c, ns), config, nodeMetadata) : undefined;
      // A chat model a node calls streams its reply into "messages" through a handler among the
      // run's callbacks, as LangGraph.js adds its own (stream/messages_of_chat_models.ts).
      const callbacksConfig = messages !== undefined && classesPossible() ? withHandler(config, chatModelStreamer(messages, subgraphs)) : config;
      const internal = messages === undefined ? [] : ["debug", "updates"].filter((m) => !list.includes(m));
      const breakpointNs = subgraphs ? deepestMapNamespace(config) : undefined;
      const adapt = this[CHUNK];
      // Custom chunks of subgraphs' nodes travel through the engine as tokens (see `writer`).
      const customs = new Map<number, unknown>();
      const deliver = (mode: string, c: unknown, ns: string[]) => {
        if (breakpointNs !== undefined && ns.length === 0 && isBreakpointChunk(c)) ns = breakpointNs;
        if (messages !== undefined) {
          if (mode === "debug") messages.debug(c, ns);
          else if (mode === "updates") messages.update(c, ns);
          if (internal.includes(mode)) return;
        }
        if (adapt !== undefined) c = adapt(mode, c);
        let shown = this[DEFINITION]?.messages?.chunk(mode, c, ns) ?? c;
        if (messages !== undefined) shown = messages.returned(mode, shown);
        emit(mode, withTaskMetadata(mode, shown, taskMetadata, nodeMetadata, ns), ns);
      };
      // What the engine streams: its "custom" chunks are the tokens of chunks kept here.
      const chunk = (mode: string, c: unknown, ns: string[]) => {
        if (mode !== "custom") return deliver(mode, c, ns);
        const value = customs.get(c as number);
        customs.delete(c as number);
        deliver(mode, value, ns);
      };
      // "custom" chunks come from the nodes' `config.writer`, not from the engine.
      const custom = list.includes("custom");
      // The caller's modes: the bindings check them.
      const engineModes = checkedByEngine<raw.EngineStreamMode | raw.EngineStreamMode[]>(
        custom || messages !== undefined ? [...list.filter((m) => m !== "custom" && m !== "messages"), ...internal] : modes,
      );
      // Called inside a node: the graph's own chunks, from a run in that node's task (see `#joinedTask`).
      const task = this.#joinedTask(config);
      if (task !== undefined) {
        // With callbacks: its tasks' events report their runs, nested in the node's task.
        const parent = runningRuns();
        const own = isArray(engineModes) ? engineModes : [engineModes];
        const modesIn = parent === undefined ? engineModes : modesWithRuns(own);
        const chunkIn = parent === undefined ? engineChunks(chunk) : nestedChunks(parent.runs, parent.runs.namespaceOf(parent.taskId), own, chunk as (mode: string, c: unknown, ns?: string[]) => void);
        return nestedRun(runGraphOf(this as unknown as CompiledStateGraph<object>), input, config, () =>
          this.#withInput(input, (i) => this[RAW].streamInTask(this.#written(i), task, modesIn, chunkIn)).then((out) => this.#values(out)),
        ).then(() => undefined);
      }
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
        context: this.#context(config),
        writer,
        messages,
        checkpointed: this[SAVER] !== undefined,
        store: runStore(this, config),
        cancel,
        onNodeStart: earlyFlush(this[SAVER], thread, config),
      };
      const [runConfig, forget] = withRunData(withDefaultLimit(config), data);
      const wanted = isArray(engineModes) ? engineModes : [engineModes];
      const engineRun = withCallbacks(runGraphOf(this as unknown as CompiledStateGraph<object>), callbacksConfig, input, data, (out) => this.#values(out), (runs) =>
        onThread(this[SAVER], thread, strategy, "stream(input, config)", () =>
          classesKnown(() =>
            this.#cacheSettled(
              this.#withInput(input, (i) => {
                if (runs === undefined) return this[RAW].stream(this.#written(i), runConfig, engineModes, engineChunks(chunk), subgraphs, false);
                // With callbacks: the tasks' events (and the subgraphs' states) report their runs;
                // the engine streams subgraphs for them, and the caller gets only what it asked for.
                const tapped = rootChunks(runs, wanted, subgraphs, chunk as (mode: string, c: unknown, ns?: string[]) => void);
                return this[RAW].stream(this.#written(i), runConfig, modesWithRuns(wanted), tapped, true, true);
              }),
            ),
          ),
          { config, run: true },
        ),
      );
      engineRun.then(forget, forget);
      return cancel.race(engineRun);
    });
    // LangGraph.js's stream: `cancel(reason)` ends the run (its nodes see their signal aborted) and the iteration.
    cancellable(iterator, cancel);
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
      this[RAW].updateState(config, this.#written(values), asNode),
    );
  }

  /** Several supersteps of updates, each applied on the previous one's result: `[{ updates: [{ values, asNode, taskId? }] }]`. */
  bulkUpdateState(config: RunnableConfig, supersteps: { updates: StateUpdate<S>[] }[]): Promise<UpdatedConfig> {
    const { thread, strategy } = laneOptions(config);
    return onThread(this[SAVER], thread, strategy, "bulkUpdateState(config, supersteps)", () =>
      this[RAW].bulkUpdateState(config, this.#writtenSupersteps(supersteps)),
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
    // (`#context`, `#withInput`, `#load`) exist only on constructed instances.
    const bound = new CompiledStateGraph<S, U>(this[RAW], this[DEFINITION]);
    Object.setPrototypeOf(bound, Object.getPrototypeOf(this) as object);
    hide(bound, "checkpointer", this.checkpointer);
    hide(bound, SAVER, this[SAVER]);
    if (this.streamMode !== undefined) hide(bound, "streamMode", this.streamMode);
    if (this[CHUNK] !== undefined) hide(bound, CHUNK, this[CHUNK]);
    hide(bound, "nodes", this.nodes);
    if (unCheckpointed.has(this)) unCheckpointed.add(bound);
    hide(bound, "store", this.store);
    hide(bound, "name", this.name);
    hide(bound, "cache", this.cache);
    const batched = batchedCaches.get(this);
    if (batched !== undefined) batchedCaches.set(bound, batched);
    hide(bound, "builder", (this as { builder?: unknown }).builder);
    shareDrawing(this, bound);
    bound.stepTimeout = this.stepTimeout;
    return bindConfig(bound, this, mergeConfigs(boundConfigs.get(this), config));
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
    return drawGraph(drawingFor(this, "getGraph()"), config, this.getSubgraphs());
  }

  /** LangGraph.js's `getGraphAsync({ xray })`: {@link getGraph}, loading `@langchain/core` where needed. */
  async getGraphAsync(config?: DrawConfig): Promise<DrawableGraph> {
    return drawGraphAsync(drawingFor(this, "getGraphAsync()"), config, this.getSubgraphs());
  }

  /**
   * LangGraph.js's `getSubgraphs(namespace, recurse)`: `[name, subgraph]`
   * for each node that is a compiled graph (or lists some in its
   * `subgraphs` option); only the one at `namespace` (`"parent|child"`,
   * nested ones with `recurse`) when given.
   */
  *getSubgraphs(namespace?: string, recurse?: boolean): Generator<[string, CompiledStateGraph<object>]> {
    yield* subgraphsOf(drawingFor(this, "getSubgraphs()"), namespace, recurse) as Generator<[string, CompiledStateGraph<object>]>;
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
