// State definitions as LangGraph.js writes them: `Annotation` /
// `Annotation.Root`, `StateSchema` with standard-schema (zod) fields,
// `ReducedValue`, and the older `{ channels }` / `{ stateSchema }` forms;
// plus the package's own `{ key: "append" }` form. `channelsOf` turns any
// of them into the one form the bindings read
// (core/wasm/src/node.rs `channel_from_js`): key → reducer name, `null`,
// or `{ reducer?, default? }`, in declaration order.
import { argumentError, describe, isRecord, thrownText } from "../internal/args.js";
import { GraphValueError, StateGraphInputError, withCode, plainError } from "../errors.js";
import type { ReducerName } from "../pregel/types.js";
import { OVERWRITE, overwriteOf, type OverwriteValue } from "../constants.js";
import { isZodObject, schemaMetaRegistry, zodShape, ZodInputValidator } from "./zod/meta.js";
import type { MessageChannels } from "../langchain/message_classes.js";
import { getSchemaDefaultGetter } from "./schema_helpers.js";

/** Where a reducer that is one of the engine's own says so (it then runs in the engine). */
export const BUILTIN_REDUCER = Symbol.for("chronograph.builtinReducer");

/** A channel of a state definition (LangGraph.js's `BaseChannel`, as far as a state definition uses it). */
export abstract class BaseChannel<ValueType = unknown, UpdateType = unknown> {
  /** LangGraph.js's tag of the channel kind. */
  abstract readonly lc_graph_name: string;
  /** The value type, for type inference only. */
  declare ValueType: ValueType;
  /** The update type, for type inference only. */
  declare UpdateType: UpdateType;
}

/** A channel that keeps the last value written (two writes in one superstep are an error). */
export class LastValue<ValueType = unknown> extends BaseChannel<ValueType, ValueType> {
  readonly lc_graph_name = "LastValue";
  constructor(readonly initialValueFactory?: () => ValueType) {
    super();
  }
}

/** A channel that folds every write into its value with `operator`, starting from `initialValueFactory()`; an `Overwrite` replaces the value instead. */
export class BinaryOperatorAggregate<ValueType = unknown, UpdateType = ValueType> extends BaseChannel<ValueType, OverwriteValue<ValueType> | UpdateType> {
  readonly lc_graph_name = "BinaryOperatorAggregate";
  constructor(
    readonly operator: (a: ValueType, b: UpdateType) => ValueType,
    readonly initialValueFactory?: () => ValueType,
  ) {
    super();
  }
}

/** A reducer and default, as `Annotation(...)` and `{ channels }` take them (`value` is LangGraph.js's older name of `reducer`). */
export type SingleReducer<ValueType, UpdateType = ValueType> =
  | { reducer: (a: ValueType, b: UpdateType) => ValueType; default?: () => ValueType }
  | { value: (a: ValueType, b: UpdateType) => ValueType; default?: () => ValueType }
  | null;

/** A state definition: key → channel (or `Annotation` itself, a last-value channel). */
export interface StateDefinition {
  [key: string]: BaseChannel | ((...args: never[]) => BaseChannel);
}

/**
 * The value type of a channel of a state definition. `Annotation<T>` used
 * as a value (not called) is the overloaded function, whose last signature
 * gives `T`.
 */
export type ExtractValueType<C> = ChannelType<C, "ValueType">;

/** The update type of a channel of a state definition. */
export type ExtractUpdateType<C> = ChannelType<C, "UpdateType">;

/** Type `T` of a channel of a state definition: of the channel, or of what `Annotation<…>` used as a value returns. */
type ChannelType<C, T extends "ValueType" | "UpdateType"> = C extends BaseChannel
  ? C[T]
  : C extends (...args: never[]) => infer R
    ? R extends BaseChannel
      ? R[T]
      : never
    : never;

/** The state a state definition describes. */
export type StateType<SD extends StateDefinition> = { [K in keyof SD]: ExtractValueType<SD[K]> };
/** An update of that state: some of its keys, each of its channel's update type. */
export type UpdateType<SD extends StateDefinition> = { [K in keyof SD]?: ExtractUpdateType<SD[K]> };

/** `Annotation.Root(...)`'s result: a state definition with its types (`typeof State.State`). */
export class AnnotationRoot<SD extends StateDefinition = StateDefinition> {
  readonly lc_graph_name = "AnnotationRoot";
  /** The state (type only: `typeof MyState.State`). */
  declare State: StateType<SD>;
  /** An update (type only: `typeof MyState.Update`). */
  declare Update: UpdateType<SD>;
  /** A node of a graph of this state (type only: `typeof MyState.Node`). */
  declare Node: (state: StateType<SD>, config?: unknown) => UpdateType<SD> | Promise<UpdateType<SD>>;
  constructor(readonly spec: SD) {}

  /** Whether `value` is an `AnnotationRoot` (also one of another copy of the package). */
  static isInstance(value: unknown): value is AnnotationRoot {
    return isRecord(value) && value.lc_graph_name === "AnnotationRoot";
  }
}

/** `Annotation`: a channel of an `Annotation.Root` state; `Annotation.Root` makes the state. */
export interface AnnotationFunction {
  /** A last-value channel. */
  <ValueType>(): LastValue<ValueType>;
  /** A channel with a reducer (and a default). */
  <ValueType, UpdateType = ValueType>(annotation: SingleReducer<ValueType, UpdateType>): BinaryOperatorAggregate<ValueType, UpdateType>;
  /** The state definition of a graph. */
  Root: <S extends StateDefinition>(sd: S) => AnnotationRoot<S>;
}

/** LangGraph.js's `getChannel`: a reducer makes a `BinaryOperatorAggregate`, anything else a `LastValue` (a `default` without a reducer is dropped, as there). */
function channelOf<V, U>(annotation?: SingleReducer<V, U>): BaseChannel<V, OverwriteValue<V> | U> {
  if (isRecord(annotation)) {
    const a = annotation as { reducer?: (a: V, b: U) => V; value?: (a: V, b: U) => V; default?: () => V };
    if (a.reducer) return new BinaryOperatorAggregate<V, U>(a.reducer, a.default);
    if (a.value) return new BinaryOperatorAggregate<V, U>(a.value, a.default);
  }
  return new LastValue<V>() as BaseChannel<V, OverwriteValue<V> | U>;
}

/**
 * LangGraph.js's `Annotation`: `Annotation<T>` (or `Annotation<T>()`) is a
 * last-value channel, `Annotation<T>({ reducer, default })` a channel with
 * a reducer; `Annotation.Root({ ... })` the state of a graph.
 */
export const Annotation: AnnotationFunction = Object.assign(
  function Annotation<V, U = V>(annotation?: SingleReducer<V, U>) {
    return channelOf(annotation);
  } as AnnotationFunction,
  { Root: <S extends StateDefinition>(sd: S) => new AnnotationRoot(sd) },
);

// ---------------------------------------------------------------------------
// StateSchema (the current docs' form, with standard-schema fields such as zod's)
// ---------------------------------------------------------------------------

/** A Standard Schema (zod 3.24+, valibot, arktype, ...): what `StateSchema` fields are. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => { value: Output; issues?: undefined } | { issues: readonly unknown[] } | Promise<{ value: Output; issues?: undefined } | { issues: readonly unknown[] }>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** The output type of a standard schema. */
export type SchemaOutput<S> = S extends StandardSchemaV1<unknown, infer O> ? O : unknown;
/** The input type of a standard schema. */
export type SchemaInput<S> = S extends StandardSchemaV1<infer I, unknown> ? I : unknown;

function isStandardSchema(v: unknown): v is StandardSchemaV1 {
  return (typeof v === "object" || typeof v === "function") && v !== null && "~standard" in v;
}

const REDUCED_VALUE = Symbol.for("langgraph.state.reduced_value");
const UNTRACKED_VALUE = Symbol.for("langgraph.state.untracked_value");
const DELTA_VALUE = Symbol.for("langgraph.state.delta_value");
const STATE_SCHEMA = Symbol.for("langgraph.state.state_schema");

/** A `StateSchema` field kept in a delta channel (LangGraph.js's `DeltaValue`, channels/delta.ts), as this module reads it. */
interface DeltaField {
  readonly valueSchema: StandardSchemaV1;
  readonly inputSchema: StandardSchemaV1;
  readonly reducer: (state: never, writes: never[]) => unknown;
  readonly snapshotFrequency?: number;
}

/** Whether `value` is a `DeltaValue` (ours or LangGraph.js's). */
function isDeltaField(value: unknown): value is DeltaField {
  return isRecord(value) && (value as Record<symbol, unknown>)[DELTA_VALUE] === true;
}

/** A `StateSchema` field with a reducer: its value schema (with its default) and how updates fold in. */
export class ReducedValue<Value = unknown, Input = Value> {
  readonly [REDUCED_VALUE] = true;
  readonly valueSchema: StandardSchemaV1<unknown, Value>;
  readonly inputSchema: StandardSchemaV1<Input, unknown>;
  readonly reducer: (current: Value, next: Input) => Value;
  readonly jsonSchemaExtra?: Record<string, unknown>;

  constructor(
    valueSchema: StandardSchemaV1<unknown, Value>,
    init: { reducer: (current: Value, next: Input) => Value; inputSchema?: StandardSchemaV1<Input, unknown>; jsonSchemaExtra?: Record<string, unknown> },
  ) {
    this.valueSchema = valueSchema;
    this.reducer = init.reducer;
    this.inputSchema = init.inputSchema ?? (valueSchema as StandardSchemaV1<Input, unknown>);
    if (init.jsonSchemaExtra !== undefined) this.jsonSchemaExtra = init.jsonSchemaExtra;
  }

  /** Whether `value` is a `ReducedValue` (also LangGraph.js's own). */
  static isInstance(value: unknown): value is ReducedValue {
    return isRecord(value) && (value as Record<symbol, unknown>)[REDUCED_VALUE] === true;
  }
}

/**
 * LangGraph.js's `UntrackedValue`: a `StateSchema` field whose value is kept
 * while a run goes on but never checkpointed (snapshots, history and runs
 * started from a checkpoint do not have it; its writes are not stored).
 * `schema` (optional) gives its type and `.default()`; with `guard` (the
 * default) two writes in one superstep are an `InvalidUpdateError`, without
 * it the last one is kept.
 */
export class UntrackedValue<Value = unknown> {
  readonly [UNTRACKED_VALUE] = true;
  readonly schema?: StandardSchemaV1<unknown, Value>;
  readonly guard: boolean;
  constructor(schema?: StandardSchemaV1<unknown, Value>, init?: { guard?: boolean }) {
    if (schema !== undefined) this.schema = schema;
    this.guard = init?.guard ?? true;
  }

  /** Whether `value` is an `UntrackedValue` (also LangGraph.js's own). */
  static isInstance(value: unknown): value is UntrackedValue {
    return typeof value === "object" && value !== null && UNTRACKED_VALUE in value;
  }
}

/** What a `StateSchema` field with a reducer is, whatever its value and input types. */
export interface ReducedValueLike {
  readonly valueSchema: StandardSchemaV1;
  readonly inputSchema: StandardSchemaV1;
  reducer(current: never, next: never): unknown;
}
/** A field of a `StateSchema`. */
export type StateSchemaField = StandardSchemaV1 | ReducedValueLike | UntrackedValue<unknown>;
/** The fields of a `StateSchema`. */
export interface StateSchemaFields {
  [key: string]: StateSchemaField;
}

/** The value type of a `StateSchema` field. */
export type FieldValue<F> = F extends ReducedValue<infer V, infer _I> ? V : F extends UntrackedValue<infer V> ? V : SchemaOutput<F>;
/** The update type of a `StateSchema` field. */
export type FieldUpdate<F> = F extends ReducedValue<infer _V, infer I> ? I : F extends UntrackedValue<infer V> ? V : SchemaInput<F>;

/**
 * LangGraph.js's `StateSchema`: a state definition whose fields are
 * standard schemas (zod), a field's `.default()` being the channel's
 * default, and `ReducedValue`s for fields with a reducer. Run input is
 * validated field by field against it, as in LangGraph.js.
 */
export class StateSchema<F extends StateSchemaFields = StateSchemaFields> {
  readonly [STATE_SCHEMA] = true;
  /** The state (type only: `typeof MyState.State`). */
  declare State: { [K in keyof F]: FieldValue<F[K]> };
  /** An update (type only: `typeof MyState.Update`). */
  declare Update: { [K in keyof F]?: FieldUpdate<F[K]> };
  constructor(readonly fields: F) {}

  /** Whether `value` is a `StateSchema` (also LangGraph.js's own). */
  static isInstance(value: unknown): value is StateSchema {
    return isRecord(value) && (value as Record<symbol, unknown>)[STATE_SCHEMA] === true;
  }

  /**
   * LangGraph.js's `validateInput`: each key of `data` that is a field is
   * validated with the field's schema (a `ReducedValue`'s input schema) and
   * replaced by the parsed value; a failure throws LangGraph.js's error.
   */
  async validateInput(data: unknown): Promise<unknown> {
    if (data == null || typeof data !== "object") return data;
    const result: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data)) {
      const field = (this.fields as StateSchemaFields)[key];
      if (ReducedValue.isInstance(field) || isDeltaField(field)) {
        // LangGraph.js: an Overwrite's value is validated with the value schema, and re-wrapped.
        const [isOverwrite, replacement] = overwriteOf(value);
        if (isOverwrite) {
          const checked = await field.valueSchema["~standard"].validate(replacement);
          if (checked.issues) throw plainError(`Validation failed for field "${key}": ${JSON.stringify(checked.issues)}`, "INVALID_UPDATE");
          result[key] = { [OVERWRITE]: checked.value };
          continue;
        }
      }
      const schema =
        field === undefined ? undefined : ReducedValue.isInstance(field) || isDeltaField(field) ? field.inputSchema : UntrackedValue.isInstance(field) ? field.schema : isStandardSchema(field) ? field : undefined;
      if (schema === undefined) {
        result[key] = value;
        continue;
      }
      const checked = await schema["~standard"].validate(value);
      if (checked.issues) throw plainError(`Validation failed for field "${key}": ${JSON.stringify(checked.issues)}`, "INVALID_UPDATE");
      result[key] = checked.value;
    }
    return result;
  }
}


// ---------------------------------------------------------------------------
// From any state definition to the bindings' form
// ---------------------------------------------------------------------------

/** The bindings' form of one channel (`twin`: see {@link reducedChannel}). */
export type RawChannel = ReducerName | null | { reducer?: ReducerName | ((a: never, b: never) => unknown); default?: () => unknown; twin?: ReducerTwin; guard?: boolean; delta?: number };

/** A JS reducer the engine has a native twin of (core/wasm/src/node.rs `Twin`). */
type ReducerTwin = "concat" | "add";

/**
 * The reducers LangGraph.js's docs write most, by their source text:
 * `(a, b) => a.concat(b)` and `(a, b) => a + b` (any parameter names; arrow
 * or `function` form). Their result depends on nothing but the arguments,
 * so the engine may compute it natively (it does while the value is a list,
 * or both are numbers, and calls the function otherwise): the state then
 * never crosses into JS to be folded, which is what makes a growing list
 * cost O(update), not O(list), per superstep.
 */
const TWINS: [RegExp, ReducerTwin][] = [
  [/^\(?(\w+),(\w+)\)?=>\(?\1\.concat\(\2\)\)?$/, "concat"],
  [/^function\w*\((\w+),(\w+)\)\{return\1\.concat\(\2\);?\}$/, "concat"],
  [/^\(?(\w+),(\w+)\)?=>\(?\1\+\2\)?$/, "add"],
  [/^function\w*\((\w+),(\w+)\)\{return\1\+\2;?\}$/, "add"],
];

/** The native twin of reducer `fn`, if its source is one of {@link TWINS}. */
function twinOf(fn: unknown): ReducerTwin | undefined {
  if (typeof fn !== "function") return undefined;
  let source: string;
  try {
    source = Function.prototype.toString.call(fn).replace(/\s+/g, "");
  } catch {
    return undefined;
  }
  for (const [pattern, twin] of TWINS) {
    const m = pattern.exec(source);
    // Two distinct parameters: `(a, a) => a.concat(a)` is another function.
    if (m && m[1] !== m[2]) return twin;
  }
  return undefined;
}

/** LangGraph.js's `DeltaChannel` check of its `snapshotFrequency`, with its wording (a plain `Error`, as there). */
export function checkSnapshotFrequency(frequency: number): void {
  if (!Number.isInteger(frequency) || frequency <= 0) throw new Error(`snapshotFrequency must be a positive integer, got ${String(frequency)}`);
}

/** LangGraph.js's `DeltaChannel` default `snapshotFrequency`. */
const DEFAULT_SNAPSHOT_FREQUENCY = 100;
/** LangGraph.js's mark on `messagesDeltaReducer` (state/messages.ts marks ours too). */
const MESSAGES_DELTA_REDUCER = Symbol.for("langgraph.messages_delta_reducer");

/**
 * LangGraph.js's `DeltaChannel` (beta) in the bindings' form: a reducer
 * channel starting from `factory()` (else `[]`), flagged `delta` with its
 * snapshot frequency, for which the engine writes LangGraph.js's delta
 * metadata (core/src/pregel/delta.rs). Its batch `reducer(state, writes)`
 * must be batching-invariant (LangGraph.js requires it: it replays
 * ancestors' writes in batches of its own choosing), so the engine folds a
 * superstep's writes one at a time, each as a batch of one: the value is
 * the one LangGraph.js computes. `messagesDeltaReducer` is the engine's
 * native `messages_delta`.
 */
export function deltaChannel(reducer: unknown, snapshotFrequency: number | undefined, factory: (() => unknown) | undefined): RawChannel {
  const frequency = snapshotFrequency ?? DEFAULT_SNAPSHOT_FREQUENCY;
  checkSnapshotFrequency(frequency);
  if (typeof reducer !== "function") throw argumentError(`a DeltaChannel's reducer must be a function, got ${describe(reducer)}`);
  const initial = factory ?? (() => []);
  if ((reducer as unknown as Record<symbol, unknown>)[MESSAGES_DELTA_REDUCER] === true) return { reducer: "messages_delta", default: initial, delta: frequency };
  const batch = reducer as (state: unknown, writes: unknown[]) => unknown;
  return { reducer: (state: never, write: never) => batch(state, [write]), default: initial, delta: frequency };
}

/** A channel folding writes with `fn` (an engine built-in's name when it is one), from `factory()` when given. */
export function reducedChannel(fn: unknown, factory?: () => unknown): Exclude<RawChannel, string | null> {
  const out: Exclude<RawChannel, string | null> = { reducer: reducerOf(fn) };
  if (factory) out.default = factory;
  const twin = typeof out.reducer === "function" ? twinOf(fn) : undefined;
  if (twin) out.twin = twin;
  return out;
}

/** What `new StateGraph(...)` learned from its state definition. */
export interface StateDefinitionInfo {
  /** key → the bindings' channel form, in declaration order. */
  channels: Record<string, RawChannel>;
  /** What the run input is validated with, if anything: a `StateSchema`, or a zod object state's validator. */
  schema?: StateSchema | ZodInputValidator;
  /** The context schema the run's `context` is validated with, if any. */
  contextSchema?: StandardSchemaV1 | undefined;
  /** A separate input schema's validator (else the run input goes through `schema`). */
  inputSchema?: StateSchema | ZodInputValidator;
  /** A separate input schema's channels: a run's input writes only these (others are dropped, as in LangGraph.js). */
  inputChannels?: Record<string, RawChannel>;
  /** A separate output schema's channels: a run returns only these. */
  outputChannels?: Record<string, RawChannel>;
  /** Set by `compile`: each node's `addNode` metadata, which its task chunks and messages carry as in LangGraph.js. */
  nodeMetadata?: ReadonlyMap<string, Record<string, unknown>>;
  /** Its `messagesStateReducer` channels, whose messages are LangChain instances where a caller sees them. */
  messages?: MessageChannels | undefined;
}

function unsupported(what: string): never {
  throw withCode(new GraphValueError(what), "UNSUPPORTED");
}

/** A reducer as the bindings take it: a built-in's name when it is one of the engine's own. */
function reducerOf(fn: unknown): ReducerName | ((a: never, b: never) => unknown) {
  const builtin = typeof fn === "function" && BUILTIN_REDUCER in fn ? fn[BUILTIN_REDUCER] : undefined;
  if (typeof builtin === "string") return builtin as ReducerName;
  return fn as (a: never, b: never) => unknown;
}

/** An `UntrackedValue` channel in the bindings' form (core/wasm/src/node.rs `channel_from_js`). */
function untrackedChannel(guard: boolean, factory: (() => unknown) | undefined): RawChannel {
  return { reducer: "untracked", ...(guard ? {} : { guard: false }), ...(factory ? { default: factory } : {}) };
}

/** One channel of a LangGraph.js state definition (a channel, `Annotation` itself, or `{ reducer | value, default }` / `null` in `{ channels }`). */
function rawChannel(key: string, spec: unknown, where: string): RawChannel {
  let channel = spec;
  if (typeof channel === "function") {
    // LangGraph.js's channel factories (`Annotation<T>` and the like); a user's function that throws is named, coded.
    try {
      channel = (channel as () => unknown)();
    } catch (e) {
      throw argumentError(`${where}.${key}: calling its channel factory threw ${thrownText(e)}`, e);
    }
  }
  if (channel instanceof LastValue || (isRecord(channel) && channel.lc_graph_name === "LastValue")) {
    const factory = (channel as LastValue).initialValueFactory;
    return factory ? { default: factory } : null;
  }
  if (channel instanceof BinaryOperatorAggregate || (isRecord(channel) && channel.lc_graph_name === "BinaryOperatorAggregate")) {
    const c = channel as BinaryOperatorAggregate;
    return reducedChannel(c.operator, c.initialValueFactory);
  }
  if (isRecord(channel) && channel.lc_graph_name === "DeltaChannel") {
    const c = channel as { reducer?: unknown; snapshotFrequency?: number; initialValueFactory?: () => unknown };
    return deltaChannel(c.reducer, c.snapshotFrequency, c.initialValueFactory);
  }
  if (isRecord(channel) && channel.lc_graph_name === "UntrackedValue") {
    const c = channel as { guard?: unknown; initialValueFactory?: unknown };
    return untrackedChannel(c.guard !== false, typeof c.initialValueFactory === "function" ? (c.initialValueFactory as () => unknown) : undefined);
  }
  if (isRecord(channel) && typeof channel.lc_graph_name === "string") {
    unsupported(`${where}.${key}: channel kind ${channel.lc_graph_name} is not supported; use Annotation(), Annotation({ reducer, default }) or a StateSchema field`);
  }
  if (channel === null || channel === undefined) return null;
  if (isRecord(channel)) {
    const built = channelOf(channel as SingleReducer<unknown>);
    return rawChannel(key, built, where);
  }
  throw argumentError(`${where}.${key} must be a channel (Annotation(...)), got ${describe(spec)}`);
}

/** The channels of a `StateSchema`. */
function schemaChannels(schema: StateSchema, where: string): Record<string, RawChannel> {
  const out: Record<string, RawChannel> = {};
  for (const [key, field] of Object.entries(schema.fields)) {
    if (ReducedValue.isInstance(field)) {
      const factory = getSchemaDefaultGetter(field.valueSchema);
      out[key] = reducedChannel(field.reducer, factory);
    } else if (isDeltaField(field)) {
      out[key] = deltaChannel(field.reducer, field.snapshotFrequency, getSchemaDefaultGetter(field.valueSchema));
    } else if (UntrackedValue.isInstance(field)) {
      out[key] = untrackedChannel(field.guard, field.schema ? getSchemaDefaultGetter(field.schema) : undefined);
    } else if (isStandardSchema(field)) {
      const factory = getSchemaDefaultGetter(field);
      out[key] = factory ? { default: factory } : null;
    } else {
      throw argumentError(`Invalid state field "${key}": must be a schema, ReducedValue, DeltaValue, UntrackedValue, or ManagedValue`);
    }
  }
  return out;
}

/** The channels of a zod object state: a field with a reducer (`withLangGraph`, `registry`) folds updates; every other keeps the last value. */
function zodObjectChannels(schema: Parameters<typeof zodShape>[0]): Record<string, RawChannel> {
  const out: Record<string, RawChannel> = {};
  for (const [key, field] of Object.entries(zodShape(schema))) {
    const meta = schemaMetaRegistry.get(field);
    if (meta?.reducer) out[key] = reducedChannel(meta.reducer.fn, meta.default);
    else out[key] = meta?.default ? { default: meta.default } : null;
  }
  return out;
}

/** Whether `v` is a LangGraph.js state definition (a channel, or `Annotation` itself, per key). */
function isStateDefinition(v: Record<string, unknown>): boolean {
  const values = Object.values(v);
  return values.length > 0 && values.every((c) => typeof c === "function" || c instanceof BaseChannel || (isRecord(c) && typeof c.lc_graph_name === "string"));
}

/** The channels of one schema argument (`state`, `stateSchema`, `input`, a bare definition). */
function definitionChannels(schema: unknown, where: string): StateDefinitionInfo {
  if (StateSchema.isInstance(schema)) return { channels: schemaChannels(schema, where), schema };
  if (AnnotationRoot.isInstance(schema)) return { channels: definitionOf(schema.spec, where) };
  if (isZodObject(schema)) return { channels: zodObjectChannels(schema), schema: new ZodInputValidator(schema) };
  if (isRecord(schema) && isStandardSchema(schema)) {
    unsupported(`${where}: a standard schema other than a zod object as the state is not supported; use a zod object, a StateSchema or Annotation.Root`);
  }
  if (isRecord(schema) && isStateDefinition(schema)) return { channels: definitionOf(schema, where) };
  throw argumentError(`${where}: Invalid schema type. Expected StateSchema, Zod object, AnnotationRoot, or StateDefinition, got ${describe(schema)}`);
}

function definitionOf(spec: Record<string, unknown>, where: string): Record<string, RawChannel> {
  const out: Record<string, RawChannel> = {};
  for (const [key, c] of Object.entries(spec)) out[key] = rawChannel(key, c, where);
  return out;
}

/**
 * What `new StateGraph(state, options)` is given, as the bindings' channels:
 * an `AnnotationRoot`, a `StateSchema`, a state definition, `{ channels }`,
 * `{ state | stateSchema }` (LangGraph.js's forms), or the package's own
 * `{ key: "append" | ... }`, with the channels of separate input and
 * output schemas beside the state's.
 */
export function channelsOf(state: unknown): StateDefinitionInfo {
  const where = "new StateGraph(state)";
  const kind = probe(() => kindOf(state));
  switch (kind?.form) {
    case "definition":
      return definitionChannels(kind.schema, kind.where ?? where);
    case "channels":
      return { channels: definitionOf((state as { channels: Record<string, unknown> }).channels, `${where}.channels`) };
    case "spec":
      return { channels: definitionOf(state as Record<string, unknown>, where) };
    case "io":
      return withInputOutput(state as { state?: unknown; stateSchema?: unknown; input?: unknown; output?: unknown }, where);
    case "unsupported":
      return unsupported(String(kind.schema));
    default:
      // Not an object at all: LangGraph.js's error (its text is fixed).
      if (!isRecord(state)) throw withCode(new StateGraphInputError(), "INVALID_ARGUMENT");
      // The package's own form (or junk), whose mistakes the bindings name.
      return { channels: state as Record<string, RawChannel> };
  }
}

/** `f()`, or `undefined` when reading the caller's value threw (a revoked Proxy, a throwing getter). */
function probe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** Which form of state definition `state` is. */
function kindOf(state: unknown): { form: "definition" | "channels" | "spec" | "own" | "io" | "unsupported"; schema?: unknown; where?: string } {
  const where = "new StateGraph(state)";
  if (StateSchema.isInstance(state) || AnnotationRoot.isInstance(state) || isZodObject(state)) return { form: "definition", schema: state };
  if (!isRecord(state)) return { form: "own" };
  const keys = Object.keys(state);
  const init = state as { channels?: unknown; state?: unknown; stateSchema?: unknown; input?: unknown; output?: unknown };
  if (keys.length === 1 && keys[0] === "channels" && isRecord(init.channels) && !isChannelSpec(init.channels)) return { form: "channels" };
  const schemaKey = ["state", "stateSchema"].find((k) => k in state && (AnnotationRoot.isInstance(state[k]) || StateSchema.isInstance(state[k]) || isZodObject(state[k])));
  const initKeys = ["state", "stateSchema", "input", "output", "context", "nodes"];
  if (schemaKey !== undefined || ((init.input !== undefined || init.output !== undefined) && keys.every((k) => initKeys.includes(k)))) {
    for (const k of ["input", "output"] as const) {
      if (init[k] !== undefined && init[k] !== (schemaKey && state[schemaKey])) return { form: "io" };
    }
    return { form: "definition", schema: schemaKey ? state[schemaKey] : init.input, where: `${where}.${schemaKey ?? "input"}` };
  }
  if (isStateDefinition(state)) return { form: "spec" };
  return { form: "own" };
}

/** Whether a `{ channels }` value is itself one channel's spec (`{ reducer, default }`): then `channels` is a state key. */
function isChannelSpec(v: Record<string, unknown>): boolean {
  return "reducer" in v || "value" in v || "default" in v;
}

/** Whether two channels of one key are the same channel (LangGraph.js's `equals`: the same kind and reducer). */
function sameChannel(a: RawChannel, b: RawChannel): boolean {
  const reducer = (c: RawChannel) => (isRecord(c) ? c.reducer : typeof c === "string" ? c : undefined);
  return reducer(a) === reducer(b);
}

/**
 * LangGraph.js's `_addSchema`: `extra`'s channels join `channels` (one key,
 * one channel; a last-value channel defers to the one already there).
 */
function addSchema(channels: Record<string, RawChannel>, extra: Record<string, RawChannel>): void {
  for (const [key, channel] of Object.entries(extra)) {
    if (!(key in channels)) channels[key] = channel;
    else if (!sameChannel(channels[key] ?? null, channel) && isRecord(channel) && channel.reducer !== undefined) {
      throw plainError(`Channel "${key}" already exists with a different type.`, "INVALID_GRAPH");
    }
  }
}

/**
 * A node's input schema (`addNode(name, fn, { input })`: an
 * `Annotation.Root`, a `StateSchema`, a zod object or a state definition)
 * as the bindings' channels, in its order; its channels join `channels`,
 * the graph's so far, as LangGraph.js's `_addSchema` adds them.
 */
export function nodeInputChannels(schema: unknown, where: string, channels: Record<string, RawChannel>): Record<string, RawChannel> {
  const own = definitionChannels(schema, where).channels;
  addSchema(channels, own);
  return own;
}

/**
 * `new StateGraph({ state, input, output })` (or `{ input, output }`, the
 * input then being the state): LangGraph.js's channels are those of all
 * three (one key, one channel; a last-value channel defers to the other),
 * a run's input writes only the input schema's keys and is validated
 * against it, and `invoke` returns only the output schema's keys.
 */
function withInputOutput(init: { state?: unknown; stateSchema?: unknown; input?: unknown; output?: unknown }, where: string): StateDefinitionInfo {
  const stateSchema = init.state ?? init.stateSchema ?? init.input;
  const info = definitionChannels(stateSchema, `${where}.${init.state !== undefined ? "state" : init.stateSchema !== undefined ? "stateSchema" : "input"}`);
  // Every channel so far, to check each schema against (the engine gets each schema's own).
  const channels = { ...info.channels };
  let input: StateDefinitionInfo["schema"];
  const channelsOf = (schema: unknown, what: "input" | "output"): Record<string, RawChannel> | undefined => {
    if (schema === undefined || schema === stateSchema) return undefined;
    const extra = definitionChannels(schema, `${where}.${what}`);
    addSchema(channels, extra.channels);
    if (what === "input" && extra.schema !== undefined) {
      input = extra.schema instanceof ZodInputValidator ? new ZodInputValidator(extra.schema.schema, { partial: false }) : extra.schema;
    }
    return extra.channels;
  };
  const inputChannels = channelsOf(init.input, "input");
  const outputChannels = channelsOf(init.output, "output");
  const out: StateDefinitionInfo = { ...info };
  if (inputChannels !== undefined) out.inputChannels = inputChannels;
  if (input !== undefined) out.inputSchema = input;
  if (outputChannels !== undefined) out.outputChannels = outputChannels;
  return out;
}

