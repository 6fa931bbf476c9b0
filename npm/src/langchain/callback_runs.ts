// How a graph's runs meet LangChain callbacks (graph/state_graph.ts calls these around
// the engine): with `@langchain/core`, the run's chain runs (langchain/task_runs.ts)
// are started and ended around the engine's run, which then streams the
// tasks' events (`"__task_runs"`) and the subgraphs' states (`"values"`)
// to them besides what the caller asked for; without it, langchain/plain_callbacks.ts's
// one chain run.
import { INTERRUPT } from "../constants.js";
import { hasCallbacks, traced } from "./plain_callbacks.js";
import { loadCallbacks } from "./core_callbacks.js";
import { runningRuns, type RunData } from "../pregel/runtime.js";
import { GraphRuns, type RunGraph } from "./task_runs.js";

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A run's output as its chain run ends with it: the state, without `__interrupt__` (LangGraph.js's `loop.output`). */
function withoutInterrupt(out: unknown): unknown {
  if (!isRecord(out) || !(INTERRUPT in out)) return out;
  const { [INTERRUPT]: _, ...values } = out;
  return values;
}

/**
 * `run(runs)`, a run of `graph` on `input` as the LangChain callbacks of
 * `config` see it, as LangGraph.js reports it: with `@langchain/core`, a
 * chain run per graph run, task and router (`data.runs` then reaches the
 * nodes, and `run` hands the engine's task events to `runs`), ended with
 * the run's output (`output` of what `run` resolves to) or error; without
 * it, one chain run. Without callbacks, `run(undefined)`.
 */
export function withCallbacks<T>(
  graph: RunGraph,
  config: unknown,
  input: unknown,
  data: RunData,
  output: (out: T) => unknown,
  run: (runs: GraphRuns | undefined) => Promise<T>,
): Promise<T> {
  if (!hasCallbacks(config)) return run(undefined);
  const begin = (core: Awaited<ReturnType<typeof loadCallbacks>>): Promise<T> => {
    if (core === null) return traced(config, input, () => run(undefined));
    const runs = GraphRuns.start(core, graph, config as Record<string, unknown>, input);
    if (runs === undefined) return run(undefined);
    data.runs = runs;
    const failed = async (e: unknown): Promise<never> => {
      await runs.fail(e);
      throw e;
    };
    return runs.started.then(
      () =>
        run(runs).then(async (out) => {
          await runs.finish(withoutInterrupt(output(out)));
          return out;
        }, failed),
      failed,
    );
  };
  const core = loadCallbacks();
  return core instanceof Promise ? core.then(begin) : begin(core);
}

/**
 * `run()`, `graph` invoked (or streamed) by a node of a run with LangChain
 * callbacks: a chain run nested in the node's task (its config's callbacks,
 * tags and metadata, under the call's own), its tasks in it. Otherwise `run()`.
 */
export function nestedRun<T>(graph: RunGraph, input: unknown, config: unknown, run: () => Promise<T>): Promise<T> {
  const parent = runningRuns();
  const nested = parent?.runs.nested(parent.taskId, graph, input, config);
  if (nested === undefined) return run();
  return nested.started.then(() =>
    run().then(
      async (out) => {
        await nested.end(withoutInterrupt(out));
        return out;
      },
      async (e: unknown) => {
        await nested.fail(e);
        throw e;
      },
    ),
  );
}

/** The engine's modes for a run with callbacks: the caller's, the tasks' events, the states. */
export function modesWithRuns(modes: string[]): string[] {
  return [...modes, "__task_runs", ...(modes.includes("values") ? [] : ["values"])];
}

/** What a stream chunk callback of the engine is called with. */
type OnChunk = (mode: string, chunk: unknown, ns?: string[]) => void;

/**
 * The engine's chunks of a run with callbacks (which always streams
 * subgraphs): the tasks' events and states to `runs`; what the caller
 * asked for (`modes`, the subgraphs' with `subgraphs`) to `chunk`, handed on
 * as LangGraph.js's reader gets it (`GraphRuns.deliver`).
 */
export function rootChunks(runs: GraphRuns, modes: string[], subgraphs: boolean, chunk: OnChunk): OnChunk {
  return (mode, c, ns) => {
    const level = ns ?? [];
    if (mode === "__task_runs") return runs.chunk(mode, c, level);
    if (mode === "values") {
      runs.chunk(mode, c, level);
      if (!modes.includes("values")) return;
    }
    if (subgraphs || level.length === 0) runs.deliver(() => chunk(mode, c, subgraphs ? level : undefined));
  };
}

/**
 * The chunks of a graph a node of a run with callbacks streams, in the
 * node's task (namespace `level`): the tasks' events and states to `runs`,
 * the rest (`modes`) to `chunk`.
 */
export function nestedChunks(runs: GraphRuns, level: string[], modes: string[], chunk: OnChunk): OnChunk {
  return (mode, c, ns) => {
    if (mode === "__task_runs" || mode === "values") runs.chunk(mode, c, level);
    if (mode === "__task_runs" || (mode === "values" && !modes.includes("values"))) return;
    chunk(mode, c, ns);
  };
}
