// The names the package exports (re-exported by the entries node.js and browser.js).
export { START, END, INPUT, COPY, INTERRUPT } from "./constants.js";
export { StateGraph, CompiledStateGraph } from "./graph.js";
export { MemorySaver, InMemorySaver } from "./saver.js";
export { Command, Send, isCommand, type CommandParams } from "./command.js";
export { interrupt } from "./runtime.js";
export {
  BaseLangGraphError,
  ChronographError,
  InvalidUpdateError,
  GraphRecursionError,
  EmptyInputError,
  GraphValueError,
  GraphSpecError,
  GraphInterrupt,
  ThreadBusyError,
  type ErrorFields,
  type ErrorOptions,
} from "./errors.js";
export type * from "./types.js";
