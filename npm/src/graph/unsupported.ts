// LangGraph.js names the package does not provide, each failing at once
// with a `GraphValueError` (code `UNSUPPORTED`) that names the difference,
// instead of a `TypeError: ... is not a constructor`: the deprecated
// `MessageGraph`. README.md ("What still differs") lists it.
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
