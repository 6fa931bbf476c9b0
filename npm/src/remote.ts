// `chronograph/remote`, LangGraph.js's `@langchain/langgraph/remote`: its
// `RemoteGraph` runs a graph deployed on a LangGraph server, which the
// package (an engine in the page or the process, no server) has no part of.
// It fails at construction with a `GraphValueError` (code `UNSUPPORTED`)
// rather than a missing module.
import { unsupported } from "./graph/unsupported.js";

/** LangGraph.js's `RemoteGraph` (a graph on a LangGraph server): not provided; throws on construction. */
export class RemoteGraph {
  constructor(_params?: unknown) {
    throw unsupported(
      "RemoteGraph (LangGraph.js's client of a graph deployed on a LangGraph server)",
      "chronograph runs graphs in the process; compile the graph here, or use @langchain/langgraph/remote for a deployed one",
    );
  }
}
