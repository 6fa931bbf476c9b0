// The names the package exports (re-exported by the entries node.js and browser.js).
export { START, END, INPUT, COPY, INTERRUPT, isInterrupted } from "./constants.js";
export { StateGraph, CompiledStateGraph, type GraphNode, type LooseReducer, type StateGraphConstructor, type StateGraphOptions } from "./graph.js";
export {
  Annotation,
  AnnotationRoot,
  BaseChannel,
  BinaryOperatorAggregate,
  LastValue,
  ReducedValue,
  StateSchema,
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
  type MessageLike,
} from "./messages.js";
export { MessagesZodMeta, MessagesZodState } from "./messages_zod.js";
export { MemorySaver, InMemorySaver } from "./saver.js";
export { MessageGraph, entrypoint, task } from "./unsupported.js";
export { Graph, CompiledGraph, type GraphAddNodeOptions, type GraphNodeSpec } from "./plain_graph.js";
export type { AsyncCheckpointSaver } from "./bridge.js";
export { Command, Send, isCommand, type CommandParams } from "./command.js";
export { interrupt, getConfig, getCurrentTaskInput, getStore } from "./runtime.js";
export { InMemoryStore, type BaseStore, type InMemoryStoreConstructor, type Item, type SearchItem, type StoreOperation } from "./store.js";
export type { RetryPolicy } from "./retry.js";
export {
  BaseLangGraphError,
  ChronographError,
  EmptyChannelError,
  InvalidUpdateError,
  GraphRecursionError,
  EmptyInputError,
  GraphValueError,
  GraphSpecError,
  GraphInterrupt,
  NodeInterrupt,
  ThreadBusyError,
  UnreachableNodeError,
  type ErrorFields,
  type ErrorOptions,
  type RaisedInterrupt,
} from "./errors.js";
export type * from "./types.js";
