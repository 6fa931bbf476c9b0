// `chronograph/channels` (LangGraph.js's `@langchain/langgraph/channels`):
// the channel classes a `Pregel` graph is built from. Each describes a
// channel; the engine keeps its value and applies its update rule
// (core/src/channels/kind.rs), so these classes have no `update`/`get` of
// their own. `LastValue` and `BinaryOperatorAggregate` are the ones state
// definitions use too (state/definitions.ts).
import { describe, isRecord } from "../internal/args.js";
import { GraphValueError, withCode } from "../errors.js";
import { BaseChannel, BinaryOperatorAggregate, LastValue, reducedChannel } from "../state/definitions.js";

export { BaseChannel, BinaryOperatorAggregate, LastValue };

/** LangGraph.js's `EmptyChannelError`: raised by LangGraph.js's channels when read empty (the engine reads empty channels as absent). */
export { EmptyChannelError } from "../errors.js";

/** The value written in the previous superstep, cleared after (two writes in one superstep are an error when `guard`). */
export class EphemeralValue<ValueType = unknown> extends BaseChannel<ValueType, ValueType> {
  readonly lc_graph_name = "EphemeralValue";
  constructor(readonly guard: boolean = true) {
    super();
  }
}

/** The last value written in the previous superstep, cleared after; several writes are fine (they are assumed equal). */
export class AnyValue<ValueType = unknown> extends BaseChannel<ValueType, ValueType> {
  readonly lc_graph_name = "AnyValue";
}

/**
 * A list of the values written (an array written adds its items), emptied
 * each superstep unless it `accumulate`s; a `unique` topic adds a value only
 * the first time it is written (values compared as JSON data: LangGraph.js
 * compares objects by identity).
 */
export class Topic<ValueType = unknown> extends BaseChannel<ValueType[], ValueType | ValueType[]> {
  readonly lc_graph_name = "Topic";
  readonly unique: boolean;
  readonly accumulate: boolean;
  constructor(fields?: { unique?: boolean; accumulate?: boolean }) {
    super();
    this.unique = fields?.unique ?? false;
    this.accumulate = fields?.accumulate ?? false;
  }
}

/** Available once each of `names` was written to it; the task it triggers resets it. */
export class NamedBarrierValue<ValueType = unknown> extends BaseChannel<undefined, ValueType> {
  readonly lc_graph_name = "NamedBarrierValue";
  constructor(readonly names: Set<ValueType>) {
    super();
  }
}

/** A channel class of LangGraph.js the engine does not have: constructing one fails, naming it. */
function missing(name: string, why: string): never {
  throw withCode(new GraphValueError(`${name} is not supported by chronograph: ${why}`), "UNSUPPORTED");
}

/** LangGraph.js's `LastValueAfterFinish` (deferred nodes): not provided as a class (`addNode`'s `defer` makes it); throws on construction. */
export class LastValueAfterFinish extends BaseChannel {
  readonly lc_graph_name = "LastValueAfterFinish";
  constructor() {
    super();
    missing("LastValueAfterFinish", "the engine makes the channels of deferred nodes itself: use addNode(name, fn, { defer: true })");
  }
}

/** LangGraph.js's `NamedBarrierValueAfterFinish` (deferred nodes): not provided as a class (`addNode`'s `defer` makes it); throws on construction. */
export class NamedBarrierValueAfterFinish extends BaseChannel {
  readonly lc_graph_name = "NamedBarrierValueAfterFinish";
  constructor(_names?: unknown) {
    super();
    missing("NamedBarrierValueAfterFinish", "the engine makes the channels of deferred nodes itself: use addNode(name, fn, { defer: true })");
  }
}

/** LangGraph.js's `DynamicBarrierValue`: not supported; throws on construction. */
export class DynamicBarrierValue extends BaseChannel {
  readonly lc_graph_name = "DynamicBarrierValue";
  constructor() {
    super();
    missing("DynamicBarrierValue", "use a NamedBarrierValue");
  }
}

/**
 * LangGraph.js's `UntrackedValueChannel`: the last value written, kept while
 * a run goes on but never checkpointed (a run from a checkpoint starts from
 * `initialValueFactory()`, or empty). With `guard` (the default) two writes
 * in one superstep are an `InvalidUpdateError`. A channel of a state
 * definition (`Annotation.Root({ conn: new UntrackedValueChannel() })`); a
 * `Pregel`'s `channels` do not take it.
 */
export class UntrackedValueChannel<ValueType = unknown> extends BaseChannel<ValueType, ValueType> {
  readonly lc_graph_name = "UntrackedValue";
  readonly guard: boolean;
  readonly initialValueFactory?: () => ValueType;
  constructor(options?: { guard?: boolean; initialValueFactory?: () => ValueType }) {
    super();
    this.guard = options?.guard ?? true;
    if (options?.initialValueFactory) this.initialValueFactory = options.initialValueFactory;
  }
}

/** What the bindings take for one channel of a `Pregel` (core/wasm/src/pregel.rs `addChannel`). */
export type PregelChannelSpec =
  | { kind: "LastValue"; default?: () => unknown }
  | { kind: "BinaryOperatorAggregate"; reducer?: unknown; default?: () => unknown; twin?: string }
  | { kind: "EphemeralValue"; guard: boolean }
  | { kind: "AnyValue" }
  | { kind: "Topic"; accumulate: boolean; unique: boolean }
  | { kind: "NamedBarrierValue"; names: string[] };

/**
 * A channel of a `Pregel`'s `channels` in the bindings' form: one of the
 * classes above, or LangGraph.js's own instance of the same class (read by
 * its `lc_graph_name` and fields).
 */
export function pregelChannelSpec(name: string, channel: unknown): PregelChannelSpec {
  const c = channel as Record<string, unknown>;
  const kind = isRecord(channel) ? c.lc_graph_name : undefined;
  switch (kind) {
    case "LastValue": {
      const factory = c.initialValueFactory;
      return typeof factory === "function" ? { kind, default: factory as () => unknown } : { kind };
    }
    case "BinaryOperatorAggregate": {
      const reduced = reducedChannel(c.operator, c.initialValueFactory as (() => unknown) | undefined);
      return { kind, ...reduced };
    }
    case "EphemeralValue":
      return { kind, guard: c.guard !== false };
    case "AnyValue":
      return { kind };
    case "Topic":
      return { kind, accumulate: c.accumulate === true, unique: c.unique === true };
    case "NamedBarrierValue": {
      const names = c.names;
      return { kind, names: [...(names instanceof Set ? names : Array.isArray(names) ? names : [])].map(String) };
    }
    default:
      if (typeof kind === "string") missing(`channels.${name}: a ${kind} channel`, "use LastValue, BinaryOperatorAggregate, EphemeralValue, AnyValue, Topic or NamedBarrierValue");
      throw withCode(new GraphValueError(`channels.${name} must be a channel (new LastValue(), new Topic(), ...), got ${describe(channel)}`), "INVALID_ARGUMENT");
  }
}
