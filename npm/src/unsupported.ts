// LangGraph.js names the package does not provide, each failing at once
// with a `GraphValueError` (code `UNSUPPORTED`) that names the difference,
// instead of a `TypeError: ... is not a constructor`: its low-level Pregel
// API (`Pregel`, `Channel` from `chronograph/pregel`), the graphs without
// a state schema (`Graph`, `MessageGraph`) and the functional API
// (`entrypoint`, `task`). README.md ("What still differs") lists them.
import { GraphValueError, withCode } from "./errors.js";

/** The error of a LangGraph.js API the package does not have. */
export function unsupported(what: string, instead: string): GraphValueError {
  return withCode(new GraphValueError(`${what} is not supported by chronograph: ${instead}`), "UNSUPPORTED");
}

/** LangGraph.js's `Graph` (nodes pass values along edges, no state schema): not provided; throws on construction. */
export class Graph {
  constructor() {
    throw unsupported("Graph (LangGraph.js's graph without a state schema)", "build a StateGraph, whose nodes read and update a state");
  }
}

/** LangGraph.js's low-level `Pregel` (nodes subscribed to channels): not provided; throws on construction. */
export class Pregel {
  constructor(_fields?: unknown) {
    throw unsupported("Pregel (LangGraph.js's low-level graph of channels)", "build a StateGraph and compile it");
  }
}

/** LangGraph.js's `Channel` helpers of the low-level `Pregel` API: each throws. */
export const Channel = {
  /** LangGraph.js's `Channel.subscribeTo(channels)`: not provided. */
  subscribeTo(_channels?: unknown, _options?: unknown): never {
    throw unsupported("Channel.subscribeTo (LangGraph.js's low-level Pregel API)", "build a StateGraph");
  },
  /** LangGraph.js's `Channel.writeTo(channels)`: not provided. */
  writeTo(_channels?: unknown, _writes?: unknown): never {
    throw unsupported("Channel.writeTo (LangGraph.js's low-level Pregel API)", "build a StateGraph");
  },
};

/** LangGraph.js's deprecated `MessageGraph` (a graph whose state is a message list): not provided; throws on construction. */
export class MessageGraph {
  constructor() {
    throw unsupported("MessageGraph (deprecated in LangGraph.js)", "use new StateGraph(MessagesAnnotation)");
  }
}

/** LangGraph.js's functional API `entrypoint(options, fn)`: not provided; throws. */
export function entrypoint(_options?: unknown, _fn?: unknown): never {
  throw unsupported("entrypoint (LangGraph.js's functional API)", "build a StateGraph");
}

/** LangGraph.js's functional API `task(name, fn)`: not provided; throws. */
export function task(_options?: unknown, _fn?: unknown): never {
  throw unsupported("task (LangGraph.js's functional API)", "build a StateGraph, a node per task");
}
