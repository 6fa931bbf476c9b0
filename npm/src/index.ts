// The names the package exports (re-exported by the entries node.js and browser.js).
export { START, END, INPUT, COPY, INTERRUPT, isInterrupted, Overwrite, type OverwriteValue } from "./constants.js";
export { StateGraph, CompiledStateGraph, type GraphNode, type LooseReducer, type StateGraphConstructor, type StateGraphOptions } from "./graph.js";
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
} from "./state.js";
export {
  MessagesAnnotation,
  MessagesValue,
  REMOVE_ALL_MESSAGES,
  addMessages,
  messagesStateReducer,
  messagesDeltaReducer,
  type MessageLike,
} from "./messages.js";
export { MessagesZodMeta, MessagesZodState } from "./messages_zod.js";
export { MemorySaver, InMemorySaver } from "./saver.js";
export type { DrawableGraph, DrawConfig } from "./drawing.js";
export { MessageGraph } from "./unsupported.js";
export { entrypoint, task, type Entrypoint, type EntrypointConfig, type EntrypointFinal, type EntrypointOptions, type TaskOptions } from "./func.js";
export { UntrackedValueChannel } from "./channels.js";
export { DeltaChannel, DeltaValue, MessagesDeltaValue, type DeltaReducer } from "./delta.js";
export { Graph, CompiledGraph, type GraphAddNodeOptions, type GraphNodeSpec } from "./plain_graph.js";
export type { AsyncCheckpointSaver } from "./bridge.js";
export { AsyncBatchedStore, BaseCheckpointSaver, BaseStore, copyCheckpoint, emptyCheckpoint } from "./checkpoint_exports.js";
export { getJsonSchemaFromSchema, getSchemaDefaultGetter, isSerializableSchema, isStandardSchema } from "./schema_helpers.js";
export {
  ChatModelStreamImpl,
  GraphCallbackHandler,
  RunControl,
  createLifecycleTransformer,
  createMessagesTransformer,
  createSubgraphDiscoveryTransformer,
  createValuesTransformer,
  filterLifecycleEntries,
  filterSubgraphHandles,
  isNativeTransformer,
} from "./stream_exports.js";
export { COMMAND_SYMBOL, Command, CommandInstance, Send, isCommand, type CommandParams } from "./command.js";
export { interrupt, getConfig, getCurrentTaskInput, getStore } from "./runtime.js";
export { writer, getWriter, getPreviousState, pushMessage, type PushMessageOptions } from "./node_context.js";
export { InMemoryStore, type InMemoryStoreConstructor, type Item, type SearchItem, type StoreOperation } from "./store.js";
export type { RetryPolicy } from "./retry.js";
export type { TimeoutPolicy } from "./timeout.js";
export type { NodeDefaults } from "./node_policies.js";
export { InMemoryCache, type BaseCache, type CachePolicy, type CacheFullKey, type InMemoryCacheConstructor } from "./cache.js";
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
export { GraphRunStream, SubgraphRunStream, createGraphRunStream, type StreamTransformerFactory, type ValuesProjection } from "./run_stream.js";
export {
  StreamChannel,
  StreamChannel as EventLog,
  STREAM_EVENTS_V3_MODES,
  convertToProtocolEvent,
  isCheckpointEnvelope,
  type InterruptPayload,
  type ProtocolEvent,
  type StreamTransformer,
} from "./protocol.js";
export type { LifecycleEntry } from "./protocol_transformers.js";
export type { EventStream } from "./stream_events.js";
export type * from "./types.js";
