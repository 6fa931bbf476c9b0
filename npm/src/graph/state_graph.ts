// `StateGraph`, the graph builder: nodes, edges, conditional edges and
// their options as LangGraph.js takes them, over the engine's builder
// (core/wasm/src/), and `compile`, which makes a `CompiledStateGraph`
// (compiled_state_graph.ts). Everything a builder was given lives in one
// private object (`BuilderState`).
import * as raw from "../wasm/chronograph.js";
import { argumentError, describe, flag, hide, isArray, isInstance, isRecord, option, thrownText } from "../internal/args.js";
import { DEFINITION, RAW, SAVER } from "../internal/raw.js";
import { END, START } from "../constants.js";
import { GraphValueError, graphError, withCode } from "../errors.js";
import { retryPolicyOf } from "../pregel/retry.js";
import { timeoutPolicyOf } from "../pregel/timeout.js";
import { BatchedCache, cacheOption, cachePolicyOf, keyOf } from "../pregel/cache.js";
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
import { wrapNode, type RawNode, type UserNode } from "../pregel/runtime.js";
import { saverOf } from "../checkpoint/checkpointer.js";
import { routed } from "../langchain/task_runs.js";
import { storeOption, type BaseStore } from "../checkpoint/store.js";
import { type ZodObjectState, type ZodOutput } from "../state/zod/meta.js";
import { runtimeDefinitions } from "../state/zod/definitions.js";
import { loadMessageClasses, messageChannelsOf } from "../langchain/message_classes.js";
import { newDrawingRecord, recordBranch, recordEdge, recordNode, type DrawingRecord } from "../langchain/drawing.js";
import { CompiledStateGraph, engineOf } from "./compiled_state_graph.js";
import { graphNode, isRunnable, nodeMetadata, nodeOptions, runnableNode, validatingUpdates, type GraphNode } from "./nodes.js";
import type { AddNodeOptions, ChannelSpec, CompileOptions, GraphSpec, NodeFunction, Router, RunnableConfig, StateValues } from "../pregel/types.js";

/** Everything a builder was given so far, in one private object (LangGraph.js keeps these as the builder's fields). */
interface BuilderState {
  /** Node names taken (LangGraph.js refuses a duplicate or reserved name in `addNode`). */
  readonly names: Set<string>;
  /**
   * Its channels: its state's, then those node input schemas added
   * (LangGraph.js's `this.channels`, which a node name must not shadow and
   * a later input schema must agree with). None for a builder from
   * `fromSpec`: its channels are the engine's alone.
   */
  readonly channels: Record<string, RawChannel>;
  /** Its nodes as the user gave them, for the compiled graph's `nodes`. */
  readonly nodes: Map<string, GraphNode>;
  /** The compiled graph of each subgraph node. */
  readonly subgraphs: Map<string, CompiledStateGraph<object>>;
  /** Its nodes' `metadata` (addNode's option), by node name. */
  readonly metadata: Map<string, Record<string, unknown>>;
  /** Its nodes' policies (retry, cache, timeout), resolved with its defaults at compile. */
  readonly policies: Map<string, NodePolicies>;
  /** Its `setNodeDefaults`. */
  readonly defaults: ResolvedDefaults;
  /** What `getGraph` draws (langchain/drawing.ts), from the first node or edge recorded on. */
  drawing: DrawingRecord | undefined;
  /**
   * The store it was last compiled with. A subgraph's nodes fall back on
   * it when the run has none (LangGraph.js: a subgraph's loop uses
   * `config.store ?? this.store`, and its parent's task config carries the
   * parent's store).
   */
  store: BaseStore | undefined;
  /** `store` as its nodes' configs read it when the run brought none (pregel/runtime.ts `wrapNode`). */
  readonly storeOf: () => BaseStore | undefined;
}

/** A new builder's state over `channels`. */
function builderState(channels: Record<string, RawChannel>): BuilderState {
  const state: BuilderState = {
    names: new Set(),
    channels,
    nodes: new Map(),
    subgraphs: new Map(),
    metadata: new Map(),
    policies: new Map(),
    defaults: {},
    drawing: undefined,
    store: undefined,
    storeOf: () => state.store,
  };
  return state;
}

/** `fromSpec`'s mark, as the constructor's first argument (its second is then the spec): no caller has it. */
const FROM_SPEC = Symbol("StateGraph.fromSpec");

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
  /** See `BuilderState`. */
  readonly #state: BuilderState;

  constructor(state: unknown, options?: unknown) {
    if (state === FROM_SPEC) {
      hide(this, DEFINITION, undefined);
      hide(this, RAW, raw.WasmStateGraph.fromSpec(options as GraphSpec));
      this.#state = builderState({});
      return;
    }
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
    this.#state = builderState(all);
    // LangGraph.js's `_schemaRuntimeDefinition` & co., read by `chronograph/zod/schema`.
    for (const [key, value] of Object.entries(runtimeDefinitions(state, options))) hide(this, key, value);
  }

  /** A builder from the JSON graph format (tests/conformance/FORMAT.md), nodes made of built-in ops. */
  static fromSpec(spec: GraphSpec): StateGraph<StateValues> {
    return new StateGraphImpl(FROM_SPEC, spec);
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
    this.#addOne(name, action, options);
    return this;
  }

  /** `addNode(name, action, options)`: one node (`name` should be a string; the bindings name what else it is). */
  #addOne(name: unknown, action: unknown, options: unknown): void {
    const label = typeof name === "string" ? name : "?";
    if (typeof name === "string") this.#claim(name);
    const checked = nodeOptions(label, options);
    const what = "addNode(name, action, options): options";
    const where = `addNode(${JSON.stringify(label)}, action, options)`;
    const ends = option(checked, "ends", what);
    const retry = retryPolicyOf(label, option(checked, "retryPolicy", what));
    const cachePolicy = cachePolicyOf(`${where}.cachePolicy`, option(checked, "cachePolicy", what));
    const timeout = timeoutPolicyOf(`${where}.timeout`, option(checked, "timeout", what));
    const errorHandler = errorHandlerOf(`${where}.errorHandler`, option(checked, "errorHandler", what));
    const policies: NodePolicies = { own: { retryPolicy: retry, cachePolicy, timeout, errorHandler: errorHandler !== undefined }, handler: false, subgraph: false, retryPolicy: retry, timeout };
    // LangGraph.js registers the handler node first (`graph.nodes` lists it before the node).
    if (errorHandler !== undefined) this.#claimHandler(label, errorHandler);
    const input = option(checked, "input", what);
    // The input schema's channels join the graph's before anything is added (LangGraph.js's order).
    const inputChannels = input === undefined ? undefined : nodeInputChannels(input, `${where}.input`, this.#state.channels);
    // A `Pregel` runs as a subgraph node on the compiled graph it is.
    action = engineOf(action) ?? action;
    if (isInstance(action, CompiledStateGraph)) this.#addSubgraph(name as string, label, action, ends, checked, policies);
    else if (typeof action === "function" || isRunnable(action)) {
      // A LangChain Runnable (anything with `invoke(input, config)`) runs through its `invoke`.
      const call = typeof action === "function" ? (action as UserNode) : runnableNode(action);
      this.#addFunction(name as string, label, call, ends, checked, policies);
    } else this[RAW].addNode(name as string, action, ends);
    this.#state.policies.set(label, policies);
    if (errorHandler !== undefined) this.#addErrorHandler(label, errorHandler);
    if (inputChannels !== undefined) this[RAW].setNodeInput(name as string, inputChannels);
    // LangGraph.js reads `defer` as a flag (`node?.defer ? LastValueAfterFinish : EphemeralValue`).
    if (option(checked, "defer", what)) this[RAW].setNodeDefer(name as string);
    recordNode(this.#drawing(), label, action, checked);
  }

  /** A compiled graph as node `name` (a subgraph node: the engine runs it; no retry, timeout or metadata of its own). */
  #addSubgraph(name: string, label: string, subgraph: CompiledStateGraph<object>, ends: unknown, checked: AddNodeOptions, policies: NodePolicies): void {
    const where = `addNode(${JSON.stringify(label)}, subgraph, options)`;
    if (policies.retryPolicy) throw withCode(new GraphValueError(`${where}.retryPolicy: a retry policy on a subgraph node is not supported`), "UNSUPPORTED");
    if (policies.timeout) throw withCode(new GraphValueError(`${where}.timeout: a timeout on a subgraph node is not supported`), "UNSUPPORTED");
    policies.subgraph = true;
    if (option(checked, "metadata", "addNode(name, action, options): options") != null) {
      throw withCode(new GraphValueError(`${where}.metadata: metadata on a subgraph node is not supported (its nodes' config.metadata would carry it)`), "UNSUPPORTED");
    }
    this[RAW].addSubgraph(name, subgraph[RAW], ends);
    this.#state.subgraphs.set(label, subgraph);
    this.#state.nodes.set(label, graphNode(label, (input, config) => subgraph.invoke(input as never, config)));
  }

  /** A node function (or a Runnable's `invoke`) as node `name`, with its metadata. */
  #addFunction(name: string, label: string, call: UserNode, ends: unknown, checked: AddNodeOptions, policies: NodePolicies): void {
    this.#state.nodes.set(label, graphNode(label, call as unknown as (input: unknown, config: RunnableConfig) => unknown));
    const metadata = nodeMetadata(label, option(checked, "metadata", "addNode(name, action, options): options"));
    if (metadata !== undefined) this.#state.metadata.set(label, metadata);
    // Every graph's nodes get `messages` (#engineNode): a channel of any reducer may hold message
    // instances (LangGraph.js keeps them as written), which the node then sees as instances.
    this[RAW].addNode(name, this.#engineNode(call, policies, metadata), ends);
  }

  /** A node function for the engine: `call` with its policies, zod checks, metadata and store, as every node of this builder has. */
  #engineNode(call: UserNode, policies: NodePolicies, metadata?: Record<string, unknown>): RawNode {
    const validated = validatingUpdates(call, this[DEFINITION]?.schema);
    const messages = this[DEFINITION]?.messages;
    // A node written `(state) => ...` has its config made only when asked for, unless a retry or a
    // timeout (which read it) wraps the call.
    const lazyConfig = ignoresConfig(call) ? () => policies.retryPolicy === undefined && policies.timeout === undefined : undefined;
    return wrapNode(withPolicies(validated, policies), { metadata, store: this.#state.storeOf, lazyConfig }, messages);
  }

  /**
   * LangGraph.js's `setNodeDefaults`: policies for every node without its
   * own (`retryPolicy`, `timeout`; `cachePolicy` for regular nodes),
   * resolved when the graph compiles, so the call may come before or after
   * `addNode`; later calls override earlier ones field by field.
   * Subgraphs do not inherit them.
   */
  setNodeDefaults(defaults: NodeDefaults<S>): this {
    mergeDefaults(this.#state.defaults, defaults);
    return this;
  }

  /** Claims `__error_handler__<node>` (LangGraph.js's error when taken) and lists the handler among the nodes. */
  #claimHandler(node: string, handler: NodeErrorHandler<unknown>): void {
    const name = errorHandlerName(node);
    const names = this.#state.names;
    if (names.has(name)) throw handlerNameTaken(node);
    names.add(name);
    this.#state.nodes.set(name, graphNode(name, (input, config) => handler(input, undefined as never, config)));
  }

  /** Node `node`'s error handler, as the engine's `__error_handler__<node>` node. */
  #addErrorHandler(node: string, handler: NodeErrorHandler<unknown>): void {
    const policies: NodePolicies = { own: {}, handler: true, subgraph: false };
    this[RAW].setNodeErrorHandler(node, this.#engineNode(handlerNode(handler), policies));
    this.#state.policies.set(errorHandlerName(node), policies);
  }

  /** The builder's drawing record, made when it first records something. */
  #drawing(): DrawingRecord {
    return (this.#state.drawing ??= newDrawingRecord());
  }

  /** LangGraph.js's checks of a new node's name, in its order, thrown by `addNode` itself. */
  #claim(name: string): void {
    const fail = (message: string) => {
      throw graphError(message);
    };
    if (Object.prototype.hasOwnProperty.call(this.#state.channels, name)) {
      throw graphError(`${name} is already being used as a state attribute (a.k.a. a channel), cannot also be used as a node name.`);
    }
    for (const reserved of ["|", ":"]) {
      if (name.includes(reserved)) fail(`"${reserved}" is a reserved character and is not allowed in node names.`);
    }
    const names = this.#state.names;
    if (names.has(name)) fail(`Node \`${name}\` already present.`);
    if (name === START || name === END) fail(`Node \`${name}\` is reserved.`);
    names.add(name);
  }

  /** Adds an edge; with several sources, `to` runs once all of them have run (a join). */
  addEdge(from: string | string[], to: string): this {
    this[RAW].addEdge(from, to);
    recordEdge(this.#drawing(), from, to);
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
    this[RAW].addConditionalEdges(from, route, pathMap);
    recordBranch(this.#drawing(), from as string, router, pathMap);
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
    const interruptBefore = option(options, "interruptBefore", what);
    const interruptAfter = option(options, "interruptAfter", what);
    const persistent = checkpointer === true;
    const saver = saverOf(checkpointer, "compile(options): options.checkpointer");
    const python = flag(option(options, "pythonSemantics", what), "compile(options): options.pythonSemantics");
    const store = storeOption(option(options, "store", what), "compile(options): options.store");
    const name = option(options, "name", what);
    if (name !== undefined && typeof name !== "string") throw argumentError(`compile(options): options.name must be a string, got ${describe(name)}`);
    const state = this.#state;
    state.store = store;
    const cache = cacheOption(option(options, "cache", what), "compile(options): options.cache");
    const batched = cache === undefined ? undefined : new BatchedCache(cache);
    const defaultHandler = this.#resolvePolicies();
    const compiled = this[RAW].compile(saver?.[RAW].share(), interruptBefore, interruptAfter, persistent, !python, batched);
    // `@langchain/core`, if installed, is looked up now: runs wait for the lookup (langchain/message_classes.ts).
    void loadMessageClasses();
    // The nodes' metadata as they are now (nodes added later are not in this graph).
    const definition = this[DEFINITION] && state.metadata.size ? { ...this[DEFINITION], nodeMetadata: new Map(state.metadata) } : this[DEFINITION];
    // What `getGraph` draws: the builder's record, live (as LangGraph.js's `builder`).
    const drawing = state.drawing === undefined ? undefined : { record: state.drawing, interruptBefore, interruptAfter };
    const subgraphs = new Map(state.subgraphs);
    const graph = new CompiledStateGraph<S, U>(compiled, definition, { unCheckpointed: checkpointer === false, batched, subgraphs, drawing });
    const nodes = [...state.nodes];
    if (defaultHandler !== undefined) nodes.push([DEFAULT_ERROR_HANDLER_NODE, defaultHandler]);
    hide(graph, "nodes", Object.freeze(Object.fromEntries(nodes)));
    hide(graph, "store", store);
    hide(graph, "name", name);
    hide(graph, "cache", cache);
    // LangGraph.js's `graph.builder` (what `chronograph/zod/schema` reads the definitions from).
    hide(graph, "builder", this);
    hide(graph, SAVER, saver);
    return hide(graph, "checkpointer", saver);
  }

  /**
   * Resolves every node's policies with the builder's defaults; the engine
   * gets each node's cache policy, and the default error handler (as node
   * `__default_error_handler__`, for this compile only). Returns that
   * handler's node, for the compiled graph's `nodes`.
   */
  #resolvePolicies(): GraphNode | undefined {
    const defaults = this.#state.defaults;
    const handler = defaults.errorHandler;
    let defaultHandler: GraphNode | undefined;
    if (handler === undefined) this[RAW].setDefaultErrorHandler(undefined);
    else {
      if (this.#state.names.has(DEFAULT_ERROR_HANDLER_NODE)) throw defaultHandlerNameTaken();
      const policies: NodePolicies = { own: {}, handler: true, subgraph: false };
      resolvePolicies(policies, defaults);
      this[RAW].setDefaultErrorHandler(this.#engineNode(handlerNode(handler), policies));
      defaultHandler = graphNode(DEFAULT_ERROR_HANDLER_NODE, (input, config) => handler(input, undefined, config));
    }
    const messages = this[DEFINITION]?.messages;
    for (const [name, node] of this.#state.policies) {
      const cache = resolvePolicies(node, defaults);
      if (cache === undefined) this[RAW].setNodeCachePolicy(name, undefined, undefined);
      else this[RAW].setNodeCachePolicy(name, keyOf(cache, messages?.keys.length ? messages : undefined), cache.ttl ?? undefined);
    }
    return defaultHandler;
  }
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
