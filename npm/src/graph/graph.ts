// LangGraph.js's `Graph` (graph/graph.ts): a graph without a state schema,
// whose nodes pass values along edges. It compiles to a `Pregel` as
// LangGraph.js's does: an `EphemeralValue` channel per node that the node
// writes its result to, `__start__` and `__end__` channels for the input
// and the output, an edge adds its source's channel to the target's
// triggers (and to what it reads: the first that has a value).
//
// As in LangGraph.js 1.7.3, a conditional edge adds its destinations'
// `branch:<start>:<name>:<end>` trigger channels but routes nothing: its
// `attachBranch` pipes the branch's writer into a node it then discards.
import { argumentError, describe, isArray, isRecord } from "../internal/args.js";
import { END, START } from "../constants.js";
import { EphemeralValue } from "../channels/index.js";
import { UnreachableNodeError, graphError } from "../errors.js";
import { Channel, ChannelWrite, PASSTHROUGH, Pregel, PregelNode, type PregelParams, type RunnableLike } from "../pregel/index.js";
import type { RetryPolicy } from "../pregel/retry.js";

/** LangSmith's tag of a run it hides (LangGraph.js tags its own writers with it). */
const TAG_HIDDEN = "langsmith:hidden";

/** A conditional edge (LangGraph.js's `Branch`): its router and, when given, where its results go. */
export class Branch {
  readonly path: RunnableLike;
  readonly ends: Record<string, string> | undefined;
  constructor(options: { path: RunnableLike; pathMap?: Record<string, string> | string[] }) {
    this.path = options.path;
    const map = options.pathMap;
    this.ends = isArray(map) ? Object.fromEntries(map.map((n) => [n, n])) : map;
  }
}

/** One node of a {@link Graph}, as added. */
export interface GraphNodeSpec {
  runnable: RunnableLike;
  metadata?: Record<string, unknown>;
  subgraphs?: unknown[];
  ends?: string[];
}

/** The options of a `Graph` node. */
export interface GraphAddNodeOptions {
  metadata?: Record<string, unknown>;
  subgraphs?: unknown[];
  ends?: string[];
  retryPolicy?: RetryPolicy;
}

function isRunnableLike(v: unknown): v is RunnableLike {
  return typeof v === "function" || (isRecord(v) && typeof v.invoke === "function");
}

/**
 * LangGraph.js's `Graph`: nodes are functions (or runnables) of the value
 * the previous node returned; `addEdge(a, b)` passes `a`'s result to `b`.
 * Each node has at most one outgoing edge (use a `StateGraph` for more).
 */
export class Graph {
  nodes: Record<string, GraphNodeSpec> = {};
  edges = new Set<[string, string]>();
  branches: Record<string, Record<string, Branch>> = {};
  entryPoint: string | undefined;
  compiled = false;

  #warnIfCompiled(message: string): void {
    if (this.compiled) console.warn(message);
  }

  /** Every edge. */
  get allEdges(): Set<[string, string]> {
    return this.edges;
  }

  /** Adds a node (or several: `{ name: fn }` or `[[name, fn, options?], ...]`). */
  addNode(key: string, action: RunnableLike, options?: GraphAddNodeOptions): this;
  addNode(nodes: Record<string, RunnableLike> | [string, RunnableLike, GraphAddNodeOptions?][]): this;
  addNode(...args: unknown[]): this {
    const many = args.length >= 1 && typeof args[0] !== "string";
    const nodes = (many ? (isArray(args[0]) ? args[0] : Object.entries(args[0] as object)) : [[args[0], args[1], args[2]]]) as [string, unknown, GraphAddNodeOptions?][];
    if (nodes.length === 0) throw graphError("No nodes provided in `addNode`");
    for (const [key, action, options] of nodes) {
      for (const reserved of ["|", ":"]) {
        if (key.includes(reserved)) throw graphError(`"${reserved}" is a reserved character and is not allowed in node names.`);
      }
      this.#warnIfCompiled(`Adding a node to a graph that has already been compiled. This will not be reflected in the compiled graph.`);
      if (key in this.nodes) throw graphError(`Node \`${key}\` already present.`);
      if (key === END) throw graphError(`Node \`${key}\` is reserved.`);
      if (!isRunnableLike(action)) throw argumentError(`addNode(${JSON.stringify(key)}, action): action must be a function or a runnable, got ${describe(action)}`);
      const subgraph = action instanceof Pregel || (isRecord(action) && typeof (action as { getState?: unknown }).getState === "function");
      this.nodes[key] = { runnable: action, metadata: options?.metadata, subgraphs: subgraph ? [action] : options?.subgraphs, ends: options?.ends };
    }
    return this;
  }

  /** Adds an edge: `endKey` runs on what `startKey` returned (`END`: it is the output). */
  addEdge(startKey: string, endKey: string): this {
    this.#warnIfCompiled(`Adding an edge to a graph that has already been compiled. This will not be reflected in the compiled graph.`);
    if (startKey === END) throw graphError("END cannot be a start node");
    if (endKey === START) throw graphError("START cannot be an end node");
    if ([...this.edges].some(([start]) => start === startKey) && !("channels" in this)) {
      throw graphError(`Already found path for ${startKey}. For multiple edges, use StateGraph.`);
    }
    this.edges.add([startKey, endKey]);
    return this;
  }

  /** Adds a conditional edge from `source` (see the module comment: LangGraph.js 1.7.3 routes nothing by it). */
  addConditionalEdges(source: string, path: RunnableLike, pathMap?: Record<string, string> | string[]): this;
  addConditionalEdges(options: { source: string; path: RunnableLike; pathMap?: Record<string, string> | string[] }): this;
  addConditionalEdges(
    source: string | { source: string; path: RunnableLike; pathMap?: Record<string, string> | string[] },
    path?: RunnableLike,
    pathMap?: Record<string, string> | string[],
  ): this {
    const options = typeof source === "object" ? source : { source, path: path as RunnableLike, pathMap };
    this.#warnIfCompiled("Adding an edge to a graph that has already been compiled. This will not be reflected in the compiled graph.");
    // A function is LangChain's `RunnableLambda`, which LangGraph.js names "condition".
    const named = typeof options.path === "function" ? undefined : (options.path as { getName?: () => string }).getName?.();
    const name = named === undefined || named === "RunnableLambda" ? "condition" : named;
    if (this.branches[options.source]?.[name]) throw graphError(`Condition \`${name}\` already present for node \`${String(source)}\``);
    (this.branches[options.source] ??= {})[name] = new Branch(options);
    return this;
  }

  /** @deprecated use `addEdge(START, key)` instead */
  setEntryPoint(key: string): this {
    this.#warnIfCompiled("Setting the entry point of a graph that has already been compiled. This will not be reflected in the compiled graph.");
    return this.addEdge(START, key);
  }

  /** @deprecated use `addEdge(key, END)` instead */
  setFinishPoint(key: string): this {
    this.#warnIfCompiled("Setting a finish point of a graph that has already been compiled. This will not be reflected in the compiled graph.");
    return this.addEdge(key, END);
  }

  /** Validates (LangGraph.js's checks) and compiles to a {@link CompiledGraph}. */
  compile(options: { checkpointer?: PregelParams["checkpointer"]; interruptBefore?: string[] | "*"; interruptAfter?: string[] | "*"; name?: string } = {}): CompiledGraph {
    const { checkpointer, interruptBefore, interruptAfter, name } = options;
    this.validate([...(isArray(interruptBefore) ? interruptBefore : []), ...(isArray(interruptAfter) ? interruptAfter : [])]);
    const compiled = new CompiledGraph({
      builder: this,
      checkpointer,
      interruptAfter,
      interruptBefore,
      autoValidate: false,
      nodes: {},
      channels: { [START]: new EphemeralValue(), [END]: new EphemeralValue() },
      inputChannels: START,
      outputChannels: END,
      streamChannels: [],
      streamMode: "values",
      name,
    });
    for (const [key, node] of Object.entries(this.nodes)) compiled.attachNode(key, node);
    for (const [start, end] of this.edges) compiled.attachEdge(start, end);
    for (const [start, branches] of Object.entries(this.branches)) {
      for (const [branchName, branch] of Object.entries(branches)) compiled.attachBranch(start, branchName, branch);
    }
    return compiled.validate();
  }

  /** LangGraph.js's `Graph.validate`: edge sources and targets are nodes, every node is reachable, interrupt nodes exist. */
  validate(interrupt?: string[]): void {
    const sources = new Set([...this.allEdges].map(([src]) => src));
    for (const start of Object.keys(this.branches)) sources.add(start);
    for (const source of sources) {
      if (source !== START && !(source in this.nodes)) throw graphError(`Found edge starting at unknown node \`${source}\``);
    }
    const targets = new Set([...this.allEdges].map(([, target]) => target));
    for (const [start, branches] of Object.entries(this.branches)) {
      for (const branch of Object.values(branches)) {
        if (branch.ends != null) for (const end of Object.values(branch.ends)) targets.add(end);
        else {
          targets.add(END);
          for (const node of Object.keys(this.nodes)) if (node !== start) targets.add(node);
        }
      }
    }
    for (const node of Object.values(this.nodes)) for (const target of node.ends ?? []) targets.add(target);
    for (const node of Object.keys(this.nodes)) {
      if (!targets.has(node)) {
        throw new UnreachableNodeError(
          [
            `Node \`${node}\` is not reachable.`,
            "",
            "If you are returning Command objects from your node,",
            'make sure you are passing names of potential destination nodes as an "ends" array',
            'into ".addNode(..., { ends: ["node1", "node2"] })".',
          ].join("\n"),
          { lc_error_code: "UNREACHABLE_NODE" },
        );
      }
    }
    for (const target of targets) {
      if (target !== END && !(target in this.nodes)) throw graphError(`Found edge ending at unknown node \`${target}\``);
    }
    if (interrupt) for (const node of interrupt) if (!(node in this.nodes)) throw graphError(`Interrupt node \`${node}\` is not present`);
    this.compiled = true;
  }
}

/** A compiled {@link Graph} (LangGraph.js's `CompiledGraph`): a `Pregel` whose `builder` is the graph. */
export class CompiledGraph extends Pregel {
  declare builder: Graph;

  constructor({ builder, ...rest }: PregelParams & { builder: Graph }) {
    super(rest);
    this.builder = builder;
  }

  /** A node: its channel (what it returns), and the node that writes its result there. */
  attachNode(key: string, node: GraphNodeSpec): void {
    this.channels[key] = new EphemeralValue();
    this.nodes[key] = new PregelNode({ channels: [], triggers: [], metadata: node.metadata })
      .pipe(node.runnable)
      .pipe(new ChannelWrite([{ channel: key, value: PASSTHROUGH }], [TAG_HIDDEN]));
    (this.streamChannels as string[]).push(key);
  }

  /** An edge: `end` reads and is triggered by `start`'s channel; an edge to `END` writes `start`'s result there. */
  attachEdge(start: string, end: string): void {
    if (end === END) {
      if (start === START) throw graphError("Cannot have an edge from START to END");
      this.nodes[start]!.writers.push(new ChannelWrite([{ channel: END, value: PASSTHROUGH }], [TAG_HIDDEN]));
    } else {
      this.nodes[end]!.triggers.push(start);
      (this.nodes[end]!.channels as string[]).push(start);
    }
  }

  /** A conditional edge's trigger channels (LangGraph.js 1.7.3 attaches no writer to them: see the module comment). */
  attachBranch(start: string, name: string, branch: Branch): void {
    if (start === START && !this.nodes[START]) this.nodes[START] = Channel.subscribeTo(START, { tags: [TAG_HIDDEN] });
    const ends = branch.ends ? Object.values(branch.ends) : Object.keys(this.nodes);
    for (const end of ends) {
      if (end === END) continue;
      const channel = `branch:${start}:${name}:${end}`;
      this.channels[channel] = new EphemeralValue();
      this.nodes[end]!.triggers.push(channel);
      (this.nodes[end]!.channels as string[]).push(channel);
    }
  }
}
