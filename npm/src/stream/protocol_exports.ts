// The streaming-protocol (streamEvents v3) internals LangGraph.js's main
// entry exports, under its names and signatures, over the package's own
// (stream/transformers.ts, which stream/run_stream.ts uses), and the two run
// controls the package does not have (`RunControl`, `GraphCallbackHandler`),
// which fail at construction with a `GraphValueError` of code `UNSUPPORTED`.
import { importPeer, peersSwitchedOff } from "../internal/peers.js";
import type { Namespace, StreamMux, StreamTransformer } from "./protocol.js";
import * as own from "./transformers.js";
import { unsupported } from "../graph/unsupported.js";

export { createValuesTransformer, filterLifecycleEntries, filterSubgraphHandles } from "./transformers.js";

/** Whether `t` is one of the run stream's own transformers (LangGraph.js's `isNativeTransformer`: `__native: true`). */
export function isNativeTransformer(t: object): boolean {
  return "__native" in t && (t as { __native?: unknown }).__native === true;
}

/**
 * `@langchain/core`'s `ChatModelStream` (`language_models/stream`), what v3's
 * `messages` projections are made of (LangGraph.js's `ChatModelStreamImpl`);
 * without `@langchain/core`, a class whose construction fails naming it.
 */
export const ChatModelStreamImpl: own.ChatModelStreamClass = await (async () => {
  const m = peersSwitchedOff() ? undefined : ((await importPeer("@langchain/core", "./language_models/stream")) as { ChatModelStream?: unknown } | undefined);
  if (typeof m?.ChatModelStream === "function") return m.ChatModelStream as own.ChatModelStreamClass;
  return class ChatModelStreamImpl {
    constructor() {
      throw unsupported("ChatModelStreamImpl without @langchain/core", "install @langchain/core, whose ChatModelStream this is");
    }
  } as unknown as own.ChatModelStreamClass;
})();

/** LangGraph.js's `createMessagesTransformer(path, nodeFilter)`: a `ChatModelStreamImpl` per message one level below `path`. */
export function createMessagesTransformer(path: Namespace, nodeFilter?: string): StreamTransformer<{ messages: AsyncIterable<unknown> }> {
  return own.createMessagesTransformer(path, ChatModelStreamImpl, nodeFilter);
}

/**
 * LangGraph.js's `createLifecycleTransformer()`; its options (root graph
 * name, initial status, naming and error hooks) are not supported: given
 * any, it fails with `UNSUPPORTED` rather than ignore them.
 */
export function createLifecycleTransformer(options: Record<string, unknown> = {}): ReturnType<typeof own.createLifecycleTransformer> {
  const given = Object.keys(options).filter((k) => options[k] !== undefined);
  if (given.length > 0) throw unsupported(`createLifecycleTransformer's options (${given.join(", ")})`, "call it without options (LangGraph.js's defaults)");
  return own.createLifecycleTransformer();
}

/** LangGraph.js's `createSubgraphDiscoveryTransformer(mux, { createStream })`: a stream handle per top-level namespace seen. */
export function createSubgraphDiscoveryTransformer(
  mux: StreamMux,
  options: { createStream: (path: Namespace, discoveryStart: number, eventStart: number) => unknown },
): StreamTransformer<{ _discoveries: unknown; subgraphs: AsyncIterable<unknown> }> {
  const transformer = own.createSubgraphDiscoveryTransformer(mux, options.createStream);
  return { ...transformer, init: () => ({ _discoveries: mux._discoveries, ...transformer.init() }) };
}

/**
 * LangGraph.js's `RunControl` (`config.control`, `requestDrain()` to stop a
 * run at the next superstep boundary with `GraphDrained`): not provided;
 * construction fails. Cancel a run with its `signal` instead.
 */
export class RunControl {
  constructor() {
    throw unsupported("RunControl (draining a run)", "cancel the run with config.signal (an AbortSignal)");
  }
}

/**
 * LangGraph.js's `GraphCallbackHandler` (a LangChain handler that is told
 * of interrupts and resumes): not provided; construction fails. A LangChain
 * handler's chain callbacks see the run (README.md).
 */
export class GraphCallbackHandler {
  constructor() {
    throw unsupported("GraphCallbackHandler (handleInterrupt / handleResume callbacks)", "use a LangChain callback handler's chain callbacks");
  }
}
