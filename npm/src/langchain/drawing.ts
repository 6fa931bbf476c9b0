// LangGraph.js's `graph.getGraph({ xray })` / `getGraphAsync`, and
// `getSubgraphs` / `getSubgraphsAsync`: the compiled graph as
// `@langchain/core`'s drawable `Graph` (`drawMermaid()`,
// `drawMermaidPng()`, `toJSON()`), built exactly as LangGraph.js's
// `CompiledGraph.getGraph` builds it (graph/graph.js), from what the
// builder was given: its nodes (their runnables, metadata and `ends`), its
// edges and joins, its conditional edges (labelled by their path maps).
// `@langchain/core` is an optional peer (internal/peers.ts): without it, drawing
// fails with a `GraphValueError` of code `MISSING_PEER`.
//
// The builder's calls are recorded in its record as they succeed
// (`recordNode`, `recordEdge`, `recordBranch`); a compiled graph reads its
// builder's record when drawn, as LangGraph.js's reads `this.builder`.
import { GraphValueError, withCode, plainError } from "../errors.js";
import { importPeer, peerManifest, peersSwitchedOff, requirePeer } from "../internal/peers.js";
import { END, START } from "../constants.js";

/** What drawing uses of `@langchain/core` (and `zod`, which it depends on). */
interface Core {
  Graph: new () => DrawableGraph;
  Runnable: new () => object;
  validate(id: string): boolean;
  /** `z.any()`, the schema of the start and end nodes; a plain schema without zod. */
  anySchema: unknown;
}

/** The `@langchain/core/runnables/graph` `Graph` methods used here. */
export interface DrawableGraph {
  nodes: Record<string, DrawnNode>;
  edges: unknown[];
  addNode(data: unknown, id?: string, metadata?: Record<string, unknown>): DrawnNode;
  addEdge(source: DrawnNode, target: DrawnNode, data?: string, conditional?: boolean): unknown;
  extend(graph: DrawableGraph, prefix?: string): [DrawnNode | undefined, DrawnNode | undefined];
  trimFirstNode(): void;
  trimLastNode(): void;
  /** Mermaid text: `{ withStyles, curveStyle, nodeColors, wrapLabelNWords }`. */
  drawMermaid(params?: { withStyles?: boolean; curveStyle?: string; nodeColors?: Record<string, string>; wrapLabelNWords?: number }): string;
  /** A PNG of the Mermaid text, drawn by the mermaid.ink service (core's, as in LangGraph.js: it needs the network). */
  drawMermaidPng(params?: { withStyles?: boolean; curveStyle?: string; nodeColors?: Record<string, string>; wrapLabelNWords?: number; backgroundColor?: string }): Promise<Blob>;
  toJSON(): object;
}

/** A node of a drawable graph. */
interface DrawnNode {
  id: string;
  name?: string;
  data: unknown;
  metadata?: Record<string, unknown>;
}

/** One node as the builder was given it (LangGraph.js's `builder.nodes[key]`). */
interface NodeRecord {
  /** The node's function, Runnable or compiled graph. */
  action: unknown;
  metadata?: Record<string, unknown>;
  ends?: string[];
  subgraphs?: unknown[];
  /** LangGraph.js's `runnable` of the node, made on first draw. */
  runnable?: unknown;
}

/** A conditional edge's possible ends: path-map key → node (LangGraph.js's `Branch.ends`). */
type BranchEnds = Record<string, string> | undefined;

/** What a builder was given, in LangGraph.js's shapes (plain objects: same key order rules). */
export interface DrawingRecord {
  nodes: Record<string, NodeRecord>;
  edges: [string, string][];
  waitingEdges: [string[], string][];
  branches: Record<string, Record<string, { ends: BranchEnds }>>;
}

/** What a compiled graph draws from: its builder's record (live, as LangGraph.js's `builder`) and its interrupts. */
export interface Drawing {
  record: DrawingRecord;
  interruptBefore?: unknown;
  interruptAfter?: unknown;
}

/** A compiled graph as drawing sees it (graph/state_graph.ts `CompiledStateGraph`). */
export interface Drawable {
  getGraph(config?: DrawConfig): DrawableGraph;
  getGraphAsync(config?: DrawConfig): Promise<DrawableGraph>;
}

/** `getGraph`'s config: `xray` draws subgraphs inside their nodes (a number: that many levels). */
export interface DrawConfig {
  xray?: boolean | number;
}

/** A new builder's record (nothing added yet). */
export function newDrawingRecord(): DrawingRecord {
  return { nodes: {}, edges: [], waitingEdges: [], branches: {} };
}

/** Records `addNode(name, action, options)` in a builder's `record`. */
export function recordNode(record: DrawingRecord, name: string, action: unknown, options: { metadata?: unknown; ends?: unknown; subgraphs?: unknown } | undefined): void {
  record.nodes[name] = {
    action,
    metadata: options?.metadata as Record<string, unknown> | undefined,
    ends: Array.isArray(options?.ends) ? (options.ends as string[]) : undefined,
    subgraphs: Array.isArray(options?.subgraphs) ? (options.subgraphs as unknown[]) : undefined,
  };
}

/** Records `addEdge(from, to)` in a builder's `record` (several sources: a join). */
export function recordEdge(record: DrawingRecord, from: string | string[], to: string): void {
  if (typeof from === "string") record.edges.push([from, to]);
  else record.waitingEdges.push([[...from], to]);
}

/** Records `addConditionalEdges(source, path, pathMap)` in a builder's `record` under LangGraph.js's branch name. */
export function recordBranch(record: DrawingRecord, source: string, path: unknown, pathMap: unknown): void {
  const ends: BranchEnds = Array.isArray(pathMap)
    ? (pathMap as string[]).reduce<Record<string, string>>((acc, n) => {
        acc[n] = n;
        return acc;
      }, {})
    : (pathMap as Record<string, string> | undefined);
  // LangGraph.js names a branch after its path's Runnable ("condition" for a function).
  const runnableName = isCoreRunnable(path) ? (path as { getName(): string }).getName() : "RunnableLambda";
  const name = runnableName === "RunnableLambda" ? "condition" : runnableName;
  const branches = record.branches;
  (branches[source] ??= {})[name] = { ends };
}

/** A compiled graph's drawing; a graph from `StateGraph.fromSpec` has none (an `UNSUPPORTED` error). */
export function drawingFor(d: Drawing | undefined, what: string): Drawing {
  if (d === undefined) {
    throw withCode(
      new GraphValueError(`${what}: a graph from StateGraph.fromSpec cannot be drawn (its topology is in its spec); build it with addNode and addEdge`),
      "UNSUPPORTED",
    );
  }
  return d;
}

// ---------------------------------------------------------------------------
// @langchain/core
// ---------------------------------------------------------------------------

let core: Core | undefined;

/** The error of drawing without `@langchain/core`. */
function missingCore(what: string): GraphValueError {
  return withCode(
    new GraphValueError(`${what} needs @langchain/core (npm install @langchain/core): it draws the graph with @langchain/core's Graph, as LangGraph.js does`),
    "MISSING_PEER",
  );
}

/** `@langchain/core`'s modules as drawing uses them, `undefined` where one is missing. */
function coreFrom(graph: unknown, runnables: unknown, uuid: unknown, zod: unknown): Core | undefined {
  const g = graph as { Graph?: Core["Graph"] } | undefined;
  const r = runnables as { Runnable?: Core["Runnable"] } | undefined;
  const u = uuid as { validate?: Core["validate"] } | undefined;
  if (typeof g?.Graph !== "function" || typeof r?.Runnable !== "function" || typeof u?.validate !== "function") return undefined;
  const z = (zod as { z?: { any(): unknown } } | undefined)?.z;
  // Without zod (core depends on it, so it is there), the start node's schema is the JSON schema z.any() gives.
  const anySchema = typeof z?.any === "function" ? z.any() : { $schema: "https://json-schema.org/draft/2020-12/schema" };
  return { Graph: g.Graph, Runnable: r.Runnable, validate: u.validate, anySchema };
}

/** Loads `@langchain/core` synchronously (Node), else finds it loaded already; throws without it. */
function coreSync(what: string): Core {
  if (core !== undefined) return core;
  if (peersSwitchedOff()) throw missingCore(what);
  const graph = requirePeer("@langchain/core", "./runnables/graph");
  if (graph === undefined) {
    if (peerManifest("@langchain/core") === undefined && !isBrowser()) throw missingCore(what);
    throw withCode(
      new GraphValueError(`${what} could not load @langchain/core synchronously here: call \`await graph.getGraphAsync()\` (it loads it), after which getGraph() works too`),
      "MISSING_PEER",
    );
  }
  const manifest = peerManifest("@langchain/core");
  core = coreFrom(
    graph,
    requirePeer("@langchain/core", "./runnables"),
    requirePeer("@langchain/core", "./utils/uuid"),
    requirePeer("zod", "./v4", manifest) ?? requirePeer("zod", "./v4"),
  );
  if (core === undefined) throw missingCore(what);
  return core;
}

/** Loads `@langchain/core` (an `import()` where `require` cannot); throws without it. */
async function coreAsync(what: string): Promise<Core> {
  if (core !== undefined) return core;
  if (peersSwitchedOff()) throw missingCore(what);
  if (!isBrowser() && requirePeer("@langchain/core", "./runnables/graph") !== undefined) return coreSync(what);
  const [graph, runnables, uuid, zod] = await Promise.all([
    importPeer("@langchain/core", "./runnables/graph"),
    importPeer("@langchain/core", "./runnables"),
    importPeer("@langchain/core", "./utils/uuid"),
    importPeer("zod", "./v4"),
  ]);
  core = coreFrom(graph, runnables, uuid, zod);
  if (core === undefined) throw missingCore(what);
  return core;
}

function isBrowser(): boolean {
  return !(globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
}

/** Whether `v` is a LangChain Runnable (`Runnable.isRunnable`: it says `lc_runnable`). */
function isCoreRunnable(v: unknown): boolean {
  try {
    return v !== null && typeof v === "object" && (v as { lc_runnable?: unknown }).lc_runnable === true;
  } catch {
    return false;
  }
}

/** Makes LangGraph.js's runnable of a node over the loaded core's `Runnable` (see `standInsOf`). */
type MakeRunnable = (name: string, call: (input: unknown, config: unknown) => unknown, tools?: unknown[]) => object;

const standIns = new WeakMap<Core, MakeRunnable>();

/**
 * LangGraph.js's `RunnableCallable` (a node function as a Runnable named
 * after its node, `lc_id` `["langgraph", "RunnableCallable"]`) and
 * `ToolNode` (one with its tools), as subclasses of the loaded core's
 * `Runnable`: made once per core.
 */
function standInsOf(c: Core): MakeRunnable {
  let make = standIns.get(c);
  if (make === undefined) {
    const Base = c.Runnable as unknown as new () => { name?: string };
    class RunnableCallable extends Base {
      lc_namespace = ["langgraph"];
      readonly #call: (input: unknown, config: unknown) => unknown;
      constructor(name: string, call: (input: unknown, config: unknown) => unknown) {
        super();
        this.name = name;
        this.#call = call;
      }
      async invoke(input: unknown, config?: unknown): Promise<unknown> {
        return this.#call(input, config ?? {});
      }
    }
    class ToolNode extends RunnableCallable {
      tools: unknown[];
      constructor(name: string, call: (input: unknown, config: unknown) => unknown, tools: unknown[]) {
        super(name, call);
        this.tools = tools;
      }
    }
    make = (name, call, tools) => (tools === undefined ? new RunnableCallable(name, call) : new ToolNode(name, call, tools));
    standIns.set(c, make);
  }
  return make;
}

/** The chronograph compiled graph class, to tell subgraphs (set by graph/state_graph.ts: no import cycle). */
let isCompiled: (v: unknown) => v is Drawable & SubgraphHolder = (_v): _v is Drawable & SubgraphHolder => false;

/** Tells drawing how to recognize a compiled graph. */
export function setCompiledCheck(check: (v: unknown) => boolean): void {
  isCompiled = check as typeof isCompiled;
}

/** A compiled graph's own subgraphs (graph/state_graph.ts). */
interface SubgraphHolder {
  getSubgraphs(namespace?: string, recurse?: boolean): Generator<[string, Drawable & SubgraphHolder]>;
}

/** LangGraph.js's `nodeSpec.runnable` of a node: its Runnable or compiled graph as given, a node function as a `RunnableCallable`. */
function runnableOf(c: Core, key: string, node: NodeRecord): unknown {
  if (node.runnable !== undefined) return node.runnable;
  const a = node.action as { invoke?: (input: unknown, config: unknown) => unknown; tools?: unknown; name?: unknown };
  let runnable: unknown;
  if (isCompiled(a) || isCoreRunnable(a)) runnable = a;
  else if (typeof a === "function") runnable = standInsOf(c)(key, a as (input: unknown, config: unknown) => unknown);
  else {
    // An object with `invoke` (chronograph's ToolNode): a RunnableCallable under its own name, with its tools.
    const call = (input: unknown, config: unknown) => a.invoke?.call(a, input, config);
    const name = typeof a?.name === "string" ? a.name : key;
    runnable = standInsOf(c)(name, call, Array.isArray(a?.tools) ? (a.tools as unknown[]) : undefined);
  }
  node.runnable = runnable;
  return runnable;
}

// ---------------------------------------------------------------------------
// Subgraphs
// ---------------------------------------------------------------------------

/** LangGraph.js's `findSubgraphPregel`: a compiled graph, or one among a RunnableSequence's steps. */
function findSubgraph(candidate: unknown): (Drawable & SubgraphHolder) | undefined {
  const candidates = [candidate];
  for (const c of candidates) {
    if (isCompiled(c)) return c;
    const steps = (c as { steps?: unknown } | null)?.steps;
    if (c !== null && typeof c === "object" && Array.isArray(steps)) candidates.push(...steps);
  }
  return undefined;
}

/**
 * LangGraph.js's `Pregel.getSubgraphs(namespace, recurse)`: `[name,
 * subgraph]` for each node that is (or declares in `subgraphs`) a compiled
 * graph; only the one at `namespace` (`parent|child`) when given; nested
 * ones too (`name|sub`) with `recurse`.
 */
export function* subgraphsOf(drawing: Drawing, namespace?: string, recurse?: boolean): Generator<[string, Drawable & SubgraphHolder]> {
  for (const [name, node] of Object.entries(drawing.record.nodes)) {
    if (namespace !== undefined && namespace !== name && !namespace.startsWith(`${name}|`)) continue;
    const candidates = node.subgraphs?.length ? node.subgraphs : [node.action];
    for (const candidate of candidates) {
      const graph = findSubgraph(candidate);
      if (graph === undefined) continue;
      if (name === namespace) {
        yield [name, graph];
        return;
      }
      if (namespace === undefined) yield [name, graph];
      if (recurse) {
        const inner = namespace === undefined ? undefined : namespace.slice(name.length + 1);
        for (const [subName, sub] of graph.getSubgraphs(inner, recurse)) {
          yield [`${name}|${subName}`, sub];
          if (namespace !== undefined) return;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------
// getGraph
// ---------------------------------------------------------------------------

/** LangGraph.js's `_escapeMermaidKeywords`. */
function escapeKey(key: string): string {
  return key === "subgraph" ? `"${key}"` : key;
}

/** LangGraph.js's `_getToolNames`. */
function toolNames(node: unknown): string[] | undefined {
  const tools = (node as { tools?: unknown } | null | undefined)?.tools;
  if (!Array.isArray(tools) || tools.length === 0 || !tools.every((t) => typeof (t as { name?: unknown })?.name === "string")) return undefined;
  return tools.map((t) => (t as { name: string }).name);
}

/** `includes` as LangGraph.js calls it on `interruptBefore` / `interruptAfter` (an array, or `"*"` as a string). */
function includes(list: unknown, key: string): boolean {
  return typeof (list as { includes?: unknown } | null | undefined)?.includes === "function" && (list as string[]).includes(key);
}

/** `getGraph` (sync) or `getGraphAsync`: the same steps, each subgraph drawn the same way. */
type SubDraw = (sub: Drawable, config: DrawConfig) => DrawableGraph | Promise<DrawableGraph>;

/** LangGraph.js's `CompiledGraph.getGraph(config)` over `drawing`. */
export function drawGraph(drawing: Drawing, config: DrawConfig | undefined, subgraphs: Generator<[string, Drawable & SubgraphHolder]>): DrawableGraph {
  const c = coreSync("getGraph()");
  return draw(c, drawing, config, subgraphs, (sub, cfg) => sub.getGraph(cfg)) as DrawableGraph;
}

/** LangGraph.js's `CompiledGraph.getGraphAsync(config)` over `drawing`. */
export async function drawGraphAsync(drawing: Drawing, config: DrawConfig | undefined, subgraphs: Generator<[string, Drawable & SubgraphHolder]>): Promise<DrawableGraph> {
  const c = await coreAsync("getGraphAsync()");
  return draw(c, drawing, config, subgraphs, (sub, cfg) => sub.getGraphAsync(cfg), true);
}

function draw(c: Core, drawing: Drawing, config: DrawConfig | undefined, found: Generator<[string, Drawable & SubgraphHolder]>, subDraw: SubDraw, async: true): Promise<DrawableGraph>;
function draw(c: Core, drawing: Drawing, config: DrawConfig | undefined, found: Generator<[string, Drawable & SubgraphHolder]>, subDraw: SubDraw, async?: false): DrawableGraph;
function draw(c: Core, drawing: Drawing, config: DrawConfig | undefined, found: Generator<[string, Drawable & SubgraphHolder]>, subDraw: SubDraw, async = false): DrawableGraph | Promise<DrawableGraph> {
  const xray = config?.xray;
  const graph = new c.Graph();
  const record = drawing.record;
  const startNodes: Record<string, DrawnNode> = { [START]: graph.addNode({ schema: c.anySchema }, START) };
  const endNodes: Record<string, DrawnNode> = {};
  const subgraphs: Record<string, Drawable> = xray ? Object.fromEntries([...found].filter(([, g]) => isCompiled(g))) : {};
  const discovered: { src: string; dest: string; conditional: boolean }[] = [];
  const addEdge = (start: string, end: string, label?: string, conditional = false) => {
    if (end === END && endNodes[END] === undefined) endNodes[END] = graph.addNode({ schema: c.anySchema }, END);
    if (startNodes[start] === undefined) return;
    if (endNodes[end] === undefined) throw plainError(`End node ${end} not found!`, "INVALID_GRAPH");
    discovered.push({ src: start, dest: end, conditional });
    graph.addEdge(startNodes[start], endNodes[end], label !== end ? label : undefined, conditional);
  };
  const nodeDataStr = (id: string | undefined, data: unknown): string => {
    if (id !== undefined && !c.validate(id)) return id;
    if ((data as { lc_runnable?: unknown } | null | undefined)?.lc_runnable) {
      const r = data as { getName(): string };
      try {
        const name = r.getName();
        return name.startsWith("Runnable") ? name.slice(8) : name;
      } catch {
        return r.getName();
      }
    }
    return (data as { name?: string } | null)?.name ?? "UnknownSchema";
  };
  const entries = Object.entries(record.nodes);
  // One node at a time, as LangGraph.js does; a subgraph drawn with getGraphAsync is awaited in turn.
  const addNode = (key: string, spec: NodeRecord, drawn: DrawableGraph | undefined) => {
    const displayKey = escapeKey(key);
    const node = runnableOf(c, key, spec);
    const metadata: Record<string, unknown> = { ...spec.metadata };
    if (includes(drawing.interruptBefore, key) && includes(drawing.interruptAfter, key)) metadata.__interrupt = "before,after";
    else if (includes(drawing.interruptBefore, key)) metadata.__interrupt = "before";
    else if (includes(drawing.interruptAfter, key)) metadata.__interrupt = "after";
    const tools = toolNames(node);
    if (tools !== undefined) metadata.__tools = tools;
    if (drawn !== undefined) {
      drawn.trimFirstNode();
      drawn.trimLastNode();
      if (Object.keys(drawn.nodes).length > 1) {
        const [e, s] = graph.extend(drawn, displayKey);
        if (e === undefined) throw plainError(`Could not extend subgraph "${key}" due to missing entrypoint.`, "INVALID_GRAPH");
        if (s !== undefined) startNodes[displayKey] = { name: nodeDataStr(s.id, s.data), ...s };
        endNodes[displayKey] = { name: nodeDataStr(e.id, e.data), ...e };
        return;
      }
    }
    const added = graph.addNode(node, displayKey, metadata);
    startNodes[displayKey] = added;
    endNodes[displayKey] = added;
  };
  const drawnOf = (key: string, node: unknown): DrawableGraph | Promise<DrawableGraph> | undefined => {
    if (!xray) return undefined;
    const next = typeof xray === "number" ? xray - 1 : xray;
    const sub = subgraphs[key];
    if (sub !== undefined) return subDraw(sub, { ...config, xray: next });
    return (node as { getGraph(config?: unknown): DrawableGraph }).getGraph(config);
  };
  const finish = (): DrawableGraph => {
    const sortedEdges = [...record.edges, ...record.waitingEdges.flatMap(([starts, end]) => starts.map((start): [string, string] => [start, end]))].sort(([a], [b]) => {
      // LangGraph.js's comparator, as it is (never 1: `b > a` is `a < b`).
      if (a < b) return -1;
      else if (b > a) return 1;
      else return 0;
    });
    for (const [start, end] of sortedEdges) addEdge(escapeKey(start), escapeKey(end));
    for (const [start, branches] of Object.entries(record.branches)) {
      const defaultEnds: Record<string, string> = {
        ...Object.fromEntries(Object.keys(record.nodes).filter((k) => k !== start).map((k) => [escapeKey(k), escapeKey(k)])),
        [END]: END,
      };
      for (const branch of Object.values(branches)) {
        const ends = branch.ends !== undefined ? branch.ends : defaultEnds;
        for (const [label, end] of Object.entries(ends)) addEdge(escapeKey(start), escapeKey(end), label, true);
      }
    }
    for (const [key, node] of entries) if (node.ends !== undefined) for (const end of node.ends) addEdge(escapeKey(key), escapeKey(end), undefined, true);
    implicitEndEdges(discovered, addEdge);
    return graph;
  };
  if (!async) {
    for (const [key, spec] of entries) addNode(key, spec, drawnOf(key, runnableOf(c, key, spec)) as DrawableGraph | undefined);
    return finish();
  }
  return (async () => {
    for (const [key, spec] of entries) addNode(key, spec, await drawnOf(key, runnableOf(c, key, spec)));
    return finish();
  })();
}

/**
 * LangGraph.js's `addImplicitTerminalEndEdges`: an edge to END from each
 * node reached by a plain edge that leads nowhere (conditional edges'
 * targets are not sinks).
 */
function implicitEndEdges(
  discovered: { src: string; dest: string; conditional: boolean }[],
  addEdge: (start: string, end: string) => void,
): void {
  const sources = new Set(discovered.map((e) => e.src));
  const destinations = [...new Set(discovered.filter((e) => !e.conditional && e.dest !== END).map((e) => e.dest))].sort();
  for (const dest of destinations) {
    if (sources.has(dest)) continue;
    // (LangGraph.js skips error-handler nodes here; the package has none.)
    addEdge(dest, END);
  }
}
