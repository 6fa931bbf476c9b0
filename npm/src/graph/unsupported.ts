// LangGraph.js names the package does not provide, each failing at once
// with a `GraphValueError` (code `UNSUPPORTED`) that names the difference,
// instead of a `TypeError: ... is not a constructor`: the deprecated
// `MessageGraph` and the delta channels (channels/delta.ts). README.md
// ("What still differs") lists them.
import { GraphValueError, withCode } from "../errors.js";

/** The error of a LangGraph.js API the package does not have. */
export function unsupported(what: string, instead: string): GraphValueError {
  return withCode(new GraphValueError(`${what} is not supported by chronograph: ${instead}`), "UNSUPPORTED");
}

/** LangGraph.js's deprecated `MessageGraph` (a graph whose state is a message list): not provided; throws on construction. */
export class MessageGraph {
  constructor() {
    throw unsupported("MessageGraph (deprecated in LangGraph.js)", "use new StateGraph(MessagesAnnotation)");
  }
}

/** Why a delta channel is not provided, and what to use instead. */
export function deltaUnsupported(what: string): never {
  throw unsupported(
    `${what} (LangGraph.js's delta channels: a checkpoint keeps no value for the channel and rebuilds it from its ancestors' writes)`,
    "the engine stores each channel's value in every checkpoint; use a reducer channel (Annotation({ reducer }), ReducedValue or MessagesValue), whose values, getState and history read the same",
  );
}
