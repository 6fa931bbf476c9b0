// The reserved names of LangGraph.js, each written once: the package's
// exports, its graph code and its type declarations all read them here.

/** The entry of every graph. */
export const START = "__start__";
/** The exit of every graph. */
export const END = "__end__";
/** `asNode` value that makes `updateState` behave like new input. */
export const INPUT = "__input__";
/** `asNode` value that makes `updateState` copy a checkpoint (a sibling). */
export const COPY = "__copy__";
/** The key under which `invoke` and stream chunks report the interrupts that paused a run. */
export const INTERRUPT = "__interrupt__";
/** `Command.graph` value addressing the graph that runs this one as a subgraph. */
export const PARENT = "__parent__";
/** The first item of a task's `langgraph_path` when a channel triggered it. */
export const PULL = "__pregel_pull";
/** The first item of a task's `langgraph_path` (and its trigger) when a `Send` runs it. */
export const PUSH = "__pregel_push";

/** Whether a run's result (or a stream chunk) reports interrupts: it has an `__interrupt__` list (LangGraph.js's `isInterrupted`). */
export function isInterrupted(values: unknown): values is { [INTERRUPT]: { id?: string; value?: unknown }[] } {
  if (!values || typeof values !== "object") return false;
  if (!(INTERRUPT in values)) return false;
  return Array.isArray((values as Record<string, unknown>)[INTERRUPT]);
}
