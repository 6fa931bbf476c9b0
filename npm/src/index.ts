// The names the package exports (re-exported by the entries node.js and browser.js).
export { START, END, INPUT, COPY, INTERRUPT, isInterrupted, Overwrite, type OverwriteValue } from "./constants.js";
export { StateGraph, type LooseReducer, type StateGraphConstructor, type StateGraphOptions } from "./graph/state_graph.js";
export { CompiledStateGraph } from "./graph/compiled_state_graph.js";
export type { GraphNode } from "./graph/nodes.js";
export {
  Annotation,
  AnnotationRoot,
  BaseChannel,
  BinaryOperatorAggregate,
  LastValue,
  ReducedValue,
  StateSchema,
  UntrackedValue,
  type AnnotationFunction,
  type ExtractUpdateType,
  type ExtractValueType,
  type FieldUpdate,
  type FieldValue,
  type SchemaInput,
  type SchemaOutput,
  type SingleReducer,
  type StandardSchemaV1,
  type StateDefinition,
  type ReducedValueLike,
  type StateSchemaField,
  type StateSchemaFields,
  type StateType,
  type UpdateType,
} from "./state/definitions.js";
export {
  MessagesAnnotation,
  MessagesValue,
  REMOVE_ALL_MESSAGES,
  addMessages,
  messagesStateReducer,
  messagesDeltaReducer,
  type MessageLike,
} from "./state/messages.js";
export { MessagesZodMeta, MessagesZodState } from "./state/zod/messages.js";
export { MemorySaver, InMemorySaver } from "./checkpoint/engine_saver.js";
export type { DrawableGraph, DrawConfig } from "./langchain/drawing.js";
export { MessageGraph } from "./graph/unsupported.js";
export { entrypoint, task, type Entrypoint, type EntrypointConfig, type EntrypointFinal, type EntrypointOptions, type TaskOptions } from "./func/index.js";
export { UntrackedValueChannel } from "./channels/index.js";
export { DeltaChannel, DeltaValue, MessagesDeltaValue, type DeltaReducer } from "./channels/delta.js";
export { Graph, CompiledGraph, type GraphAddNodeOptions, type GraphNodeSpec } from "./graph/graph.js";
export type { AsyncCheckpointSaver } from "./checkpoint/saver_bridge.js";
export { AsyncBatchedStore, BaseCheckpointSaver, BaseStore, copyCheckpoint, emptyCheckpoint } from "./checkpoint/reexports.js";
export { getJsonSchemaFromSchema, getSchemaDefaultGetter, isSerializableSchema, isStandardSchema } from "./state/schema_helpers.js";
// LangGraph.js's streaming-protocol exports (ChatModelStreamImpl, GraphCallbackHandler, RunControl,
// create*Transformer, filterLifecycleEntries, filterSubgraphHandles, isNativeTransformer): that file's all.
export * from "./stream/protocol_exports.js";
export { COMMAND_SYMBOL, Command, CommandInstance, Send, isCommand, type CommandParams } from "./command.js";
export { interrupt, getConfig, getCurrentTaskInput, getStore } from "./pregel/runtime.js";
export { writer, getWriter, getPreviousState, pushMessage, type PushMessageOptions } from "./pregel/node_context.js";
export { InMemoryStore, type InMemoryStoreConstructor, type Item, type SearchItem, type StoreOperation } from "./checkpoint/store.js";
export type { RetryPolicy } from "./pregel/retry.js";
export type { TimeoutPolicy } from "./pregel/timeout.js";
export type { NodeDefaults } from "./graph/node_policies.js";
export { InMemoryCache, type BaseCache, type CachePolicy, type CacheFullKey, type InMemoryCacheConstructor } from "./pregel/cache.js";
export {
  BaseLangGraphError,
  ChronographError,
  EmptyChannelError,
  InvalidUpdateError,
  GraphRecursionError,
  EmptyInputError,
  GraphValueError,
  GraphSpecError,
  GraphBubbleUp,
  GraphDrained,
  GraphInterrupt,
  MultipleSubgraphsError,
  NodeInterrupt,
  ParentCommand,
  RemoteException,
  StateGraphInputError,
  UnknownInterruptError,
  _markInvalidResume,
  getSubgraphsSeenSet,
  isGraphBubbleUp,
  isGraphDrained,
  isGraphInterrupt,
  isInvalidResume,
  isParentCommand,
  isUnknownInterruptError,
  type UnknownInterruptFields,
  ThreadBusyError,
  UnreachableNodeError,
  NodeTimeoutError,
  NodeError,
  isNodeTimeoutError,
  isNodeError,
  type NodeTimeoutFields,
  type ErrorFields,
  type ErrorOptions,
  type RaisedInterrupt,
} from "./errors.js";
export { GraphRunStream, SubgraphRunStream, createGraphRunStream, type StreamTransformerFactory, type ValuesProjection } from "./stream/run_stream.js";
export {
  StreamChannel,
  StreamChannel as EventLog,
  STREAM_EVENTS_V3_MODES,
  convertToProtocolEvent,
  isCheckpointEnvelope,
  type InterruptPayload,
  type ProtocolEvent,
  type StreamTransformer,
} from "./stream/protocol.js";
export type { LifecycleEntry } from "./stream/transformers.js";
export type { EventStream } from "./stream/langchain_events.js";
export type * from "./pregel/types.js";
