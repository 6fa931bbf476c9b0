// LangGraph.js's delta channels (beta): `DeltaChannel`, the `DeltaValue`
// StateSchema field and the prebuilt `MessagesDeltaValue`. A delta channel
// reads like a reducer channel whose reducer folds a superstep's writes as
// one batch. LangGraph.js stores no value for it in most checkpoints and
// rebuilds it from the ancestors' writes (a `DeltaSnapshot` every
// `snapshotFrequency` updates); the engine keeps every channel's value, and
// gives the checkpoints LangGraph.js's delta metadata (core/src/pregel/delta.rs),
// so values, `getState` and history read the same (docs/javascript.md,
// "Delta channels"). The bindings' form is `deltaChannel` (state/definitions.ts).
// `messagesDeltaReducer`, a plain function, is in state/messages.ts.
import { BaseChannel, checkSnapshotFrequency, type StandardSchemaV1 } from "../state/definitions.js";
import { messagesDeltaReducer, MessagesValue } from "../state/messages.js";

const DELTA_VALUE = Symbol.for("langgraph.state.delta_value");

/** A reducer over a superstep's writes as one batch: `(state, writes) => state`. */
export type DeltaReducer<ValueType = unknown, UpdateType = ValueType> = (state: ValueType, writes: UpdateType[]) => ValueType;

/**
 * LangGraph.js's `DeltaChannel` (beta): a channel folding each superstep's
 * writes with the batch `reducer(state, writes)` (batching-invariant, as
 * LangGraph.js requires), starting from `initialValueFactory()` (default
 * `[]`); an `Overwrite` replaces the value. `snapshotFrequency` (default 100)
 * is when LangGraph.js's checkpoints hold the whole value again, which the
 * metadata counters follow.
 */
export class DeltaChannel<ValueType = unknown, UpdateType = ValueType> extends BaseChannel<ValueType, UpdateType> {
  readonly lc_graph_name = "DeltaChannel";
  readonly reducer: DeltaReducer<ValueType, UpdateType>;
  readonly snapshotFrequency: number;
  readonly initialValueFactory: () => ValueType;
  constructor(reducer: DeltaReducer<ValueType, UpdateType>, options?: { snapshotFrequency?: number; initialValueFactory?: () => ValueType }) {
    super();
    const snapshotFrequency = options?.snapshotFrequency ?? 100;
    checkSnapshotFrequency(snapshotFrequency);
    this.reducer = reducer;
    this.snapshotFrequency = snapshotFrequency;
    this.initialValueFactory = options?.initialValueFactory ?? (() => [] as ValueType);
  }
}

/**
 * LangGraph.js's `DeltaValue` (beta), a StateSchema field kept in a
 * {@link DeltaChannel}: its value schema (whose default is the initial
 * value), input schema, batch reducer and snapshot frequency.
 */
export class DeltaValue<Value = unknown, Input = Value> {
  readonly [DELTA_VALUE] = true;
  readonly valueSchema: StandardSchemaV1<unknown, Value>;
  readonly inputSchema: StandardSchemaV1<Input, unknown>;
  readonly reducer: DeltaReducer<Value, Input>;
  readonly snapshotFrequency?: number;
  readonly jsonSchemaExtra?: Record<string, unknown>;
  constructor(
    valueSchema: StandardSchemaV1<unknown, Value>,
    init: { reducer: DeltaReducer<Value, Input>; inputSchema?: StandardSchemaV1<Input, unknown>; snapshotFrequency?: number; jsonSchemaExtra?: Record<string, unknown> },
  ) {
    this.reducer = init.reducer;
    this.valueSchema = valueSchema;
    this.inputSchema = "inputSchema" in init && init.inputSchema !== undefined ? init.inputSchema : (valueSchema as StandardSchemaV1<Input, unknown>);
    if (init.snapshotFrequency !== undefined) this.snapshotFrequency = init.snapshotFrequency;
    if (init.jsonSchemaExtra !== undefined) this.jsonSchemaExtra = init.jsonSchemaExtra;
  }

  /** Whether `value` is a `DeltaValue` (also LangGraph.js's own). */
  static isInstance(value: unknown): value is DeltaValue {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[DELTA_VALUE] === true;
  }
}

/** LangGraph.js's `MessagesDeltaValue` (beta): `MessagesValue` kept in a {@link DeltaChannel}, reduced by `messagesDeltaReducer`. */
export const MessagesDeltaValue = new DeltaValue(MessagesValue.valueSchema, {
  inputSchema: MessagesValue.inputSchema,
  reducer: messagesDeltaReducer as DeltaReducer,
  jsonSchemaExtra: { langgraph_type: "messages", description: "A list of chat messages" },
});
