// LangGraph.js's delta channels (beta): `DeltaChannel`, the `DeltaValue`
// StateSchema field and the prebuilt `MessagesDeltaValue`. A delta channel
// reads like a reducer channel (its reducer folds a superstep's writes as
// one batch), but a checkpoint stores no value for it: the value is rebuilt
// from the writes of the checkpoint's ancestors (and a snapshot every
// `snapshotFrequency` steps). The engine stores every channel's value in its
// checkpoints, so these are not provided: `new DeltaChannel(...)` and a
// StateSchema with a `DeltaValue` field (`MessagesDeltaValue` included)
// throw a `GraphValueError` of code `UNSUPPORTED` that names the difference,
// instead of running with other checkpoints. `messagesDeltaReducer`, a
// plain function, is in state/messages.ts.
import { deltaUnsupported } from "../graph/unsupported.js";
import { BaseChannel, type StandardSchemaV1 } from "../state/definitions.js";
import { messagesDeltaReducer, MessagesValue } from "../state/messages.js";

const DELTA_VALUE = Symbol.for("langgraph.state.delta_value");

/** A reducer over a superstep's writes as one batch: `(state, writes) => state`. */
export type DeltaReducer<ValueType = unknown, UpdateType = ValueType> = (state: ValueType, writes: UpdateType[]) => ValueType;

/** LangGraph.js's `DeltaChannel` (beta): not provided; throws on construction (see {@link deltaUnsupported}). */
export class DeltaChannel<ValueType = unknown, UpdateType = ValueType> extends BaseChannel<ValueType, UpdateType> {
  readonly lc_graph_name = "DeltaChannel";
  constructor(_reducer?: DeltaReducer<ValueType, UpdateType>, _options?: { snapshotFrequency?: number; initialValueFactory?: () => ValueType }) {
    super();
    deltaUnsupported("DeltaChannel");
  }
}

/**
 * LangGraph.js's `DeltaValue` (beta), a StateSchema field kept in a
 * `DeltaChannel`: it can be made (its fields are LangGraph.js's), but a
 * `StateSchema` with one fails when a graph is built from it (see {@link deltaUnsupported}).
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
    this.inputSchema = "inputSchema" in init && init.inputSchema !== undefined ? init.inputSchema : (valueSchema as unknown as StandardSchemaV1<Input, unknown>);
    if (init.snapshotFrequency !== undefined) this.snapshotFrequency = init.snapshotFrequency;
    if (init.jsonSchemaExtra !== undefined) this.jsonSchemaExtra = init.jsonSchemaExtra;
  }

  /** Whether `value` is a `DeltaValue` (also LangGraph.js's own). */
  static isInstance(value: unknown): value is DeltaValue {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[DELTA_VALUE] === true;
  }
}

/** LangGraph.js's `MessagesDeltaValue` (beta): `MessagesValue` kept in a `DeltaChannel`; a StateSchema with it fails (see {@link deltaUnsupported}). */
export const MessagesDeltaValue = new DeltaValue(MessagesValue.valueSchema, {
  inputSchema: MessagesValue.inputSchema,
  reducer: messagesDeltaReducer as DeltaReducer,
  jsonSchemaExtra: { langgraph_type: "messages", description: "A list of chat messages" },
});
