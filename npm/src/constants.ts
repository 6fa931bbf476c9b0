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

/** The key of LangGraph's `Overwrite` in its wire form, `{ __overwrite__: value }`. */
export const OVERWRITE = "__overwrite__";

/** LangGraph.js's `OverwriteValue`: an update in `Overwrite`'s wire form, `{ __overwrite__: value }`. */
export interface OverwriteValue<ValueType> {
  [OVERWRITE]: ValueType;
}

/**
 * LangGraph's `Overwrite`: an update that replaces a reducer channel's value
 * instead of being folded in by the reducer (`{ log: new Overwrite([]) }`).
 * Two of them to one channel in a superstep are an `InvalidUpdateError`; the
 * superstep's other writes to the channel are dropped. The plain
 * `{ __overwrite__: value }` form does the same. A last-value channel keeps
 * it as it is written (as the plain `{ __overwrite__: value }` object, where
 * LangGraph.js keeps the instance).
 */
export class Overwrite<ValueType = unknown> implements OverwriteValue<ValueType> {
  lg_name = "Overwrite";
  readonly [OVERWRITE]: ValueType;
  constructor(value: ValueType) {
    this[OVERWRITE] = value;
  }
  /** The value the channel gets. */
  get value(): ValueType {
    return this[OVERWRITE];
  }
  /** The wire form, `{ __overwrite__: value }`. */
  toJSON(): { __overwrite__: ValueType } {
    return { [OVERWRITE]: this[OVERWRITE] };
  }
  /** Whether `value` is an `Overwrite` (this class's, LangGraph.js's, or the wire form), as LangGraph.js tells. */
  static isInstance<ValueType>(value: unknown): value is Overwrite<ValueType> {
    if (!value || typeof value !== "object") return false;
    if (OVERWRITE in value) return true;
    return "lg_name" in value && (value as { lg_name?: unknown }).lg_name === "Overwrite";
  }
}

/** LangGraph.js's `_getOverwriteValue`: `[true, value]` for an update that is an Overwrite (`{ __overwrite__ }` or `{ type: "__overwrite__", value }`), else `[false, undefined]`. */
export function overwriteOf(update: unknown): [boolean, unknown] {
  if (typeof update === "object" && update !== null) {
    if (OVERWRITE in update) return [true, (update as Record<string, unknown>)[OVERWRITE]];
    const rec = update as Record<string, unknown>;
    if (rec.type === OVERWRITE && "value" in rec) return [true, rec.value];
  }
  return [false, undefined];
}
