// LangChain callback runs of a graph's run, as LangGraph.js reports them
// (its Pregel `_streamIterator`, and the `RunnableSequence` of each task's
// node): the run is a chain run (named `runName`, else the graph's name);
// each task a chain run nested in it, named after its node, tagged
// `graph:step:N` (and `langsmith:hidden` for `__start__`) besides the run's
// tags, with the run's metadata and the task's `langgraph_step`,
// `langgraph_node`, `langgraph_triggers`, `langgraph_path`,
// `langgraph_checkpoint_ns`, `checkpoint_ns` (and the node's own
// `metadata`); a subgraph's run nested in the task that runs it, its tasks
// in it; each router of a conditional edge a `RunnableLambda` run in the
// task it routes from. A node gets its task's run as `config.callbacks`
// and runs in LangChain's async context, so what it calls (a chat model, a
// runnable, `dispatchCustomEvent`), with its config or without, nests in
// its task; a graph it invokes is a run nested there too.
//
// The engine reports every task's start and end (the internal
// `"__task_runs"` stream mode; the subgraphs' tasks with their namespace,
// as the run streams subgraphs internally), and each subgraph's state
// (internal `"values"`): a task's run starts as the engine schedules it
// (its node waits for the start, as LangGraph.js's does) and ends when the
// engine is done with it: after its routers, with its node's return value
// (`__start__`: the run input; a subgraph node: the subgraph's state) or
// its error (a pause is a `GraphInterrupt`).
//
// Order: LangGraph.js awaits each callback inside its task, so a task's end
// comes before the next superstep's starts, and its stream's reader gets a
// chunk after the loop went on (the superstep's other tasks ended, the next
// ones started). Here the calls of one graph level follow the engine's
// order (a start after the ends before it), and the run's stream chunks are
// handed on after the root graph's calls made up to then (`deliver`); what
// runs deeper (a node's code, a subgraph's run) waits for those chunks. Two
// branches of a superstep beside a subgraph can still interleave
// differently from LangGraph.js: the engine runs a subgraph's first steps
// at once, LangGraph.js awaits the callbacks of each.
import * as raw from "../wasm/chronograph.js";
import { START } from "../constants.js";
import { GraphInterrupt } from "../errors.js";
import type { CallbackManager, ChainRun, CoreCallbacks } from "./core_callbacks.js";
import { runMetadata } from "../pregel/node_config.js";

/** What the runs read of a compiled graph. */
export interface RunGraph {
  /** Its name (`compile({ name })`, else `"LangGraph"`). */
  readonly runName: string;
  /** Node `node`'s own metadata (`addNode(name, fn, { metadata })`). */
  nodeMetadata(node: string): Record<string, unknown> | undefined;
  /** The compiled graph node `node` runs, when it is a subgraph node. */
  subgraph(node: string): RunGraph | undefined;
  /** A state of the graph as its nodes see it (messages as LangChain instances). */
  revive(values: unknown): unknown;
}

/** How LangGraph.js serializes a compiled graph, and a task's node, in a chain run. */
const GRAPH = { lc: 1, type: "not_implemented", id: ["langgraph", "CompiledStateGraph"] };
const SEQUENCE = { lc: 1, type: "not_implemented", id: ["langchain_core", "runnables", "RunnableSequence"] };
const LAMBDA = { lc: 1, type: "not_implemented", id: ["langchain_core", "runnables", "RunnableLambda"] };

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** LangChain's `_coerceToDict`: an object as it is, anything else as `{ [key]: value }`. */
function asDict(value: unknown, key: string): unknown {
  return value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date) ? value : { [key]: value };
}

/** One graph running in the run: the root, a subgraph, a graph a node invoked. */
interface Level {
  run: Promise<ChainRun | undefined>;
  /** The tags and metadata of its config (its tasks' start from them). */
  tags: string[];
  metadata: Record<string, unknown>;
  graph: RunGraph | undefined;
  /** Its latest state (`"values"` chunk): a subgraph's output. */
  values?: unknown;
  /**
   * The ends of its tasks so far, one after the other in the engine's
   * order: its next tasks' starts, and its own end, wait for them
   * (LangGraph.js ends a task inside the task, before the next superstep).
   */
  ends: Promise<unknown>;
  /** A subgraph's level, ended with the task that runs it (a graph a node invoked ends itself). */
  auto: boolean;
  ended: boolean;
}

/** One task's run. */
interface TaskRun {
  run: Promise<ChainRun | undefined>;
  level: Level;
  name: string;
  ns: string;
  input: unknown;
  tags: string[];
  metadata: Record<string, unknown>;
  /** Set when a JS node ran it: its callbacks, what it returned or threw. */
  node?: { callbacks?: CallbackManager; output?: unknown; error?: { thrown: unknown } };
  /** Runs in it that its end waits for (its routers', a subgraph's). */
  inner: Promise<unknown>[];
  ended: boolean;
}

/** A task's start or end as the engine reports it (core/wasm/src/task_run_chunk.rs). */
interface TaskChunk {
  event: "start" | "end";
  id: string;
  name: string;
  step: number;
  input?: unknown;
  triggers?: string[];
  path?: unknown[];
  result?: Record<string, unknown>;
  interrupts?: unknown[];
  error?: { message: string; name: string } | null;
}

/** A graph run a node started (see {@link GraphRuns.nested}). */
export interface NestedRun {
  /** Settles once its chain run started. */
  started: Promise<unknown>;
  end(output: unknown): Promise<void>;
  fail(error: unknown): Promise<void>;
}

/** How many runs with callbacks are in flight (routers look their task up only then). */
let active = 0;
/** The tasks of those runs by checkpoint namespace (`node:task_id`, nested with `|`), for routers. */
const byNamespace = new Map<string, { runs: GraphRuns; task: TaskRun }>();

/** What a node's config gets in a run with callbacks. */
interface NodeRunConfig {
  callbacks?: unknown;
  metadata?: Record<string, unknown>;
  tags?: string[];
}

/** An outcome: an output, or an error. */
type Outcome = { output: unknown } | { error: unknown };

/** The callback runs of one graph run (see the file comment). */
export class GraphRuns {
  readonly #core: CoreCallbacks;
  readonly #root: Level;
  readonly #levels = new Map<string, Level>();
  readonly #tasks = new Map<string, TaskRun>();
  /** Every callback call so far (the root ends after them). */
  readonly #calls: Promise<unknown>[] = [];
  /** The root graph's calls since chunks were last scheduled (they come before those chunks). */
  #recent: Promise<unknown>[] = [];
  /** Chunks of the run waiting for the callback calls reported before them. */
  #chunks: (() => void)[] = [];
  #scheduled = false;
  /** The chunks handed on so far, in order. */
  #handed: Promise<unknown> = Promise.resolve();
  /** Tasks whose JS node was called before the engine reported the task (a subgraph's: reported after the poll). */
  readonly #early = new Map<string, () => void>();
  /** The last error a node threw (a subgraph task failing with it reports the same object). */
  #lastError: unknown;
  #done = false;

  private constructor(core: CoreCallbacks, root: Level) {
    this.#core = core;
    this.#root = root;
    this.#levels.set("", root);
    if (active++ === 0) raw.setRouterTasks(true);
  }

  /**
   * The runs of a run of `graph` on `input` with `config` (its callbacks,
   * tags, metadata, `runName`, `runId`); `undefined` when its callbacks
   * have no handlers. The root's chain run is being started: await
   * {@link started} before the engine runs, as LangGraph.js does.
   */
  static start(core: CoreCallbacks, graph: RunGraph, config: Record<string, unknown>, input: unknown): GraphRuns | undefined {
    const tags = Array.isArray(config.tags) ? [...(config.tags as string[])] : [];
    const metadata = runMetadata(config);
    const manager = core.configure(config.callbacks, undefined, tags, undefined, metadata, undefined, { tracerInheritableMetadata: tracingMetadata(config) });
    if (manager === undefined) return undefined;
    const runName = typeof config.runName === "string" ? config.runName : graph.runName;
    const runId = typeof config.runId === "string" ? config.runId : undefined;
    const run = manager.handleChainStart(GRAPH, asDict(input, "input"), runId, undefined, undefined, undefined, runName);
    return new GraphRuns(core, { run, tags, metadata, graph, ends: run, auto: false, ended: false });
  }

  /** Settles once the root's chain run has started. */
  get started(): Promise<unknown> {
    return this.#root.run;
  }

  /**
   * A chunk of the engine's run (namespace `ns`): the tasks' starts and ends
   * (`"__task_runs"`) and the subgraphs' states (`"values"`).
   */
  chunk(mode: string, chunk: unknown, ns: string[]): void {
    // What a cancelled run's engine still reports (it finishes its superstep in the background).
    if (this.#done) return;
    if (mode === "values") {
      const level = this.#levels.get(ns.join("|"));
      if (level !== undefined && ns.length > 0) level.values = level.graph?.revive(chunk) ?? chunk;
      return;
    }
    const c = chunk as TaskChunk;
    if (c.event === "start") this.#start(c, ns);
    else this.#end(c);
  }

  /**
   * Hands a chunk of the run's stream on (`push`) once the callback calls
   * the engine reported before it, and the starts it reported with it, were
   * made: LangGraph.js's stream reaches its reader after its loop went on to
   * the next tasks.
   */
  deliver(push: () => void): void {
    this.#chunks.push(push);
    if (this.#scheduled) return;
    this.#scheduled = true;
    // Handed on at the end of this turn, after the root graph's calls made in it; the
    // calls nested deeper (a subgraph's) made in it wait for these chunks.
    let handed!: () => void;
    const previous = this.#handed;
    this.#handed = new Promise<void>((resolve) => (handed = resolve));
    queueMicrotask(() => {
      this.#scheduled = false;
      const chunks = this.#chunks;
      this.#chunks = [];
      // The root graph's calls made so far, and those made while they were: LangGraph.js's
      // loop goes on (its other tasks end, the next ones start) before its reader gets a chunk.
      const before = async () => {
        for (let calls = this.#recent; calls.length > 0; calls = this.#recent) {
          this.#recent = [];
          await Promise.allSettled(calls);
        }
      };
      void previous
        .then(before)
        .then(() => {
          for (const c of chunks) c();
        })
        .finally(handed);
    });
  }

  /**
   * Runs a JS node's `call` for task `taskId` once its chain run started,
   * with that run as `config.callbacks`, in LangChain's async context; what
   * it returns or throws is the task's outcome.
   */
  node(taskId: string, config: NodeRunConfig, call: () => unknown): unknown {
    if (this.#done) return call();
    const task = this.#tasks.get(taskId);
    if (task !== undefined) return this.#runNode(task, config, call);
    // A subgraph's task is reported once the engine's poll that called its node is over (a
    // graph a node invoked: once the root loop forwarded it); a task never reported runs alone.
    return new Promise<void>((resolve) => {
      this.#early.set(taskId, resolve);
      setTimeout(resolve, 0);
    }).then(() => {
      this.#early.delete(taskId);
      const known = this.#tasks.get(taskId);
      return known === undefined ? call() : this.#runNode(known, config, call);
    });
  }

  #runNode(task: TaskRun, config: NodeRunConfig, call: () => unknown): Promise<unknown> {
    const node: NonNullable<TaskRun["node"]> = {};
    task.node = node;
    // After the chunks handed on before it too: LangGraph.js's reader gets them while the node starts.
    const handed = this.#handed;
    return Promise.all([task.run, handed])
      .then(([run]) => {
        if (run !== undefined) config.callbacks = node.callbacks = run.getChild();
        // What LangGraph.js's node sees, and what the runs it starts with its config inherit.
        config.metadata = { ...task.metadata };
        config.tags = [...task.tags];
        return this.#core.runWithConfig(config, call);
      })
      .then(
        (output) => {
          node.output = output;
          return output;
        },
        (thrown: unknown) => {
          node.error = { thrown };
          this.#lastError = thrown;
          throw thrown;
        },
      );
  }

  /**
   * A graph invoked (or streamed) by the node of task `taskId`, in the
   * node's task: its run nests in the node's (`config.callbacks`, with the
   * node's tags and metadata, the call's own `config` over them, as
   * LangGraph.js merges the node's config from the async context), and its
   * tasks in it. `undefined` when the task is not this run's.
   */
  nested(taskId: string, graph: RunGraph, input: unknown, config: unknown): NestedRun | undefined {
    const task = this.#tasks.get(taskId);
    if (task === undefined || this.#done) return undefined;
    const own = isRecord(config) ? config : {};
    const tags = [...task.tags, ...(Array.isArray(own.tags) ? (own.tags as string[]) : [])];
    const metadata = runMetadata({ metadata: { ...task.metadata, ...(isRecord(own.metadata) ? own.metadata : {}) }, configurable: own.configurable });
    const callbacks = own.callbacks ?? task.node?.callbacks;
    const runName = typeof own.runName === "string" ? own.runName : graph.runName;
    const manager = this.#core.configure(callbacks, undefined, tags, undefined, metadata);
    const run = this.#call([], () => manager?.handleChainStart(GRAPH, asDict(input, "input"), undefined, undefined, undefined, undefined, runName));
    const level: Level = { run, tags, metadata, graph, ends: run, auto: false, ended: false };
    this.#levels.set(task.ns, level);
    // Its graph's last events reach the run once the root loop forwarded them, after its promise settled.
    const close = (outcome: Outcome) =>
      new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => {
        if (this.#levels.get(task.ns) === level) this.#levels.delete(task.ns);
        return this.#endLevel(level, outcome);
      });
    return { started: run, end: (output) => close({ output }).then(() => undefined), fail: (error) => close({ error }).then(() => undefined) };
  }

  /** The checkpoint namespace of task `taskId`, as levels (`[]` when it is not this run's). */
  namespaceOf(taskId: string): string[] {
    return this.#tasks.get(taskId)?.ns.split("|") ?? [];
  }

  /** The root's end: its output (the run's final state), once every task's run ended. */
  async finish(output: unknown): Promise<void> {
    await this.#settle({ output });
  }

  /** The root's end with the run's error (the tasks still open end with it too). */
  async fail(error: unknown): Promise<void> {
    await this.#settle({ error });
  }

  async #settle(outcome: Outcome): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    if (--active === 0) raw.setRouterTasks(false);
    for (const [ns, entry] of byNamespace) if (entry.runs === this) byNamespace.delete(ns);
    // Tasks a cancel or a failure left open end with the run's error, innermost first.
    const error = "error" in outcome ? outcome.error : undefined;
    for (const task of [...this.#tasks.values()].reverse()) {
      if (!task.ended) this.#endTask(task, { error: error ?? new Error("the run ended before the task") });
    }
    // The chunks scheduled last are handed on after this turn.
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    for (let n = -1; n !== this.#calls.length; ) {
      n = this.#calls.length;
      await Promise.allSettled([...this.#calls, this.#handed]);
    }
    await this.#endLevel(this.#root, outcome);
  }

  /** The level of namespace `key`: a subgraph's is started from the task that runs it. */
  #level(key: string): Level {
    const known = this.#levels.get(key);
    if (known !== undefined) return known;
    const last = key.slice(key.lastIndexOf("|") + 1);
    const parent = this.#tasks.get(last.slice(last.indexOf(":") + 1));
    if (parent === undefined) return this.#root;
    const graph = parent.level.graph?.subgraph(parent.name);
    const tags = parent.tags;
    const metadata = { ls_integration: "langgraph", ...parent.metadata };
    const run = this.#call([parent.run, this.#handed], (r) =>
      this.#core
        .configure((r as ChainRun | undefined)?.getChild(), undefined, tags, undefined, metadata)
        ?.handleChainStart(GRAPH, asDict(parent.input, "input"), undefined, undefined, undefined, undefined, graph?.runName ?? "LangGraph"),
    );
    const level: Level = { run, tags, metadata, graph, ends: run, auto: true, ended: false };
    this.#levels.set(key, level);
    return level;
  }

  #start(c: TaskChunk, ns: string[]): void {
    const level = this.#level(ns.join("|"));
    const taskNs = [...ns, `${c.name}:${c.id}`].join("|");
    const metadata: Record<string, unknown> = {
      ...level.metadata,
      langgraph_step: c.step,
      langgraph_node: c.name,
      langgraph_triggers: c.triggers,
      langgraph_path: c.path,
      langgraph_checkpoint_ns: taskNs,
      checkpoint_ns: taskNs,
      ...level.graph?.nodeMetadata(c.name),
    };
    const tags = c.name === START ? [...level.tags, "langsmith:hidden"] : level.tags;
    // What the node is given: a state with its messages as instances (a `Send`'s argument as it is).
    const input = c.path?.[0] === "__pregel_push" ? c.input : (level.graph?.revive(c.input) ?? c.input);
    const run = this.#call(
      [level.run, level.ends],
      (r) =>
        this.#core
          .configure((r as ChainRun | undefined)?.getChild(`graph:step:${c.step}`), undefined, tags, undefined, metadata)
          ?.handleChainStart(SEQUENCE, asDict(input, "input"), undefined, undefined, undefined, undefined, c.name),
      level === this.#root,
    );
    const task: TaskRun = { run, level, name: c.name, ns: taskNs, input, tags, metadata, inner: [], ended: false };
    this.#tasks.set(c.id, task);
    byNamespace.set(taskNs, { runs: this, task });
    this.#early.get(c.id)?.();
  }

  #end(c: TaskChunk): void {
    const task = this.#tasks.get(c.id);
    if (task === undefined || task.ended) return;
    const node = task.node;
    if (c.error) {
      const thrown = node?.error?.thrown;
      const last = this.#lastError as { message?: unknown } | undefined;
      this.#endTask(task, { error: thrown ?? (last?.message === c.error.message ? last : errorOf(c.error)) });
    } else if (c.interrupts?.length) {
      this.#endTask(task, { error: node?.error?.thrown ?? new GraphInterrupt(JSON.stringify(c.interrupts, null, 2)) });
    } else {
      const sub = this.#levels.get(task.ns);
      const output = node !== undefined ? node.output : task.name === START ? task.input : sub?.auto ? (sub.values ?? c.result) : task.level.graph?.revive(c.result) ?? c.result;
      this.#endTask(task, { output });
    }
  }

  /** Ends a task's run: after the runs in it (its routers', a subgraph's level, ended first). */
  #endTask(task: TaskRun, outcome: Outcome): void {
    task.ended = true;
    if (byNamespace.get(task.ns)?.task === task) byNamespace.delete(task.ns);
    const sub = this.#levels.get(task.ns);
    if (sub?.auto) {
      this.#levels.delete(task.ns);
      task.inner.push(this.#endLevel(sub, "error" in outcome ? outcome : { output: sub.values ?? outcome.output }));
    }
    const level = task.level;
    level.ends = this.#end_(task.run, [level.ends, ...task.inner], outcome, true, level === this.#root);
  }

  #endLevel(level: Level, outcome: Outcome): Promise<unknown> {
    if (level.ended) return Promise.resolve();
    level.ended = true;
    return this.#end_(level.run, [level.ends], outcome, false, false);
  }

  /** An end call (of a task's run, or a graph's with `outcome` as it is), after `after`. */
  #end_(run: Promise<ChainRun | undefined>, after: Promise<unknown>[], outcome: Outcome, dict: boolean, root: boolean): Promise<unknown> {
    return this.#call(
      [run, ...after],
      (r) => {
        const chain = r as ChainRun | undefined;
        if ("error" in outcome) return chain?.handleChainError(outcome.error);
        return chain?.handleChainEnd(dict ? asDict(outcome.output, "output") : outcome.output);
      },
      root,
    );
  }

  /** A router's call for `task`, as a `RunnableLambda` run nested in the task's. */
  route(task: TaskRun, input: unknown, call: () => unknown): Promise<unknown> {
    const run = this.#call([task.run], (r) =>
      this.#core
        .configure((r as ChainRun | undefined)?.getChild(), undefined, task.tags, undefined, task.metadata)
        ?.handleChainStart(LAMBDA, asDict(input, "input"), undefined, undefined, undefined, undefined, "RunnableLambda"),
    );
    const routed = run.then(async (r) => {
      let output: unknown;
      try {
        output = await call();
      } catch (e) {
        await r?.handleChainError(e);
        throw e;
      }
      await r?.handleChainEnd(asDict(output, "output"));
      return output;
    });
    task.inner.push(routed.catch(() => undefined));
    this.#calls.push(task.inner.at(-1)!);
    return routed;
  }

  /** Calls `op` (a callback call) on the first of `after` once they all settled; its result, `undefined` if it failed. */
  #call<T>(after: Promise<unknown>[], op: (first: unknown) => T | Promise<T>, root = false): Promise<Awaited<T> | undefined> {
    const made = Promise.all(after.map((p) => p.catch(() => undefined)))
      .then(([first]) => op(first))
      .then(
        (v) => v as Awaited<T>,
        () => undefined,
      );
    this.#calls.push(made);
    if (root) this.#recent.push(made);
    return made;
  }
}

/**
 * A router of a run with callbacks: `call()` as a `RunnableLambda` run in
 * the task of namespace `ns` (its conditional edge's source); `call()`
 * itself when no such run is in flight.
 */
export function routed(ns: string | undefined, input: unknown, call: () => unknown): unknown {
  if (active === 0 || ns === undefined) return call();
  const entry = byNamespace.get(ns);
  return entry === undefined ? call() : entry.runs.route(entry.task, input, call);
}

/** The Error of a task's stored `{ message, name }`. */
function errorOf(e: { message: string; name: string }): Error {
  const error = new Error(e.message);
  error.name = e.name;
  return error;
}

/**
 * LangGraph.js's `_getTracingMetadataDefaults`: the primitive
 * `configurable` values a LangSmith tracer adds to every run's metadata
 * (not `__` keys, nor ones that look like secrets).
 */
function tracingMetadata(config: Record<string, unknown>): Record<string, unknown> | undefined {
  const configurable = config.configurable;
  if (!isRecord(configurable)) return undefined;
  const context = isRecord(config.context) ? config.context : undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(configurable)) {
    if (context !== undefined && Object.prototype.hasOwnProperty.call(context, key) && Object.is(context[key], value)) {
      if (!key.startsWith("__")) out[key] = undefined;
      continue;
    }
    const lower = key.toLowerCase();
    const secret = ["key", "token", "secret", "password", "auth"].some((s) => lower.includes(s));
    if (key.startsWith("__") || secret || !["string", "number", "boolean"].includes(typeof value)) continue;
    out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
