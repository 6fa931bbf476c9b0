// Where the package's classes keep their raw wasm-bindgen object: a
// non-enumerable symbol-keyed property, invisible to `Object.keys`, JSON
// and the type declarations, but readable by the other classes of the
// package (a graph reads its saver's, a parent graph its subgraph's).

/** The key of the raw object behind a `StateGraph`, `CompiledStateGraph` or `MemorySaver`. */
export const RAW: unique symbol = Symbol("chronograph.raw");

/** The key of what a graph learned from its state definition (state/definitions.ts `StateDefinitionInfo`). */
export const DEFINITION: unique symbol = Symbol("chronograph.definition");

/**
 * The key of a saver's thread store (checkpoint/saver_bridge.ts `SaverBridge`, the engine's
 * store in front of a LangGraph.js checkpointer): `onThread` loads the
 * thread before an operation and flushes it after.
 */
export const THREAD_STORE: unique symbol = Symbol("chronograph.threadStore");

/**
 * How an operation reaches a thread: its config, and whether it runs the
 * graph (`invoke`, `stream`) or reads a state (`getState`). Updates and
 * listings pass none.
 */
export interface ThreadAccess {
  /** The caller's config (a run's, or `getState`'s). */
  config: unknown;
  /** Whether the operation is a run. */
  run: boolean;
}

/** What `onThread` calls around an operation on a thread of a saver with a {@link THREAD_STORE}. */
export interface ThreadStore {
  /** Makes the thread's checkpoints available to the engine. */
  load(threadId: string, access?: ThreadAccess): Promise<void>;
  /** Hands the thread's new checkpoints and writes on to where they are kept. */
  flush(threadId: string, access?: ThreadAccess): Promise<void>;
}

/**
 * The key of the saver a compiled graph's runs use (a `MemorySaver`, or
 * the `SaverBridge` in front of a LangGraph.js checkpointer), for the
 * thread queues and loads; `checkpointer` is what the caller sees.
 */
export const SAVER: unique symbol = Symbol("chronograph.saver");

/** The key of a graph's hook on its stream chunks (a `Pregel`'s: npm/src/pregel.ts). */
export const CHUNK: unique symbol = Symbol("chronograph.chunk");


/** The key of a `Pregel`'s method giving the compiled graph it runs on (a `StateGraph` node may be a `Pregel`). */
export const ENGINE: unique symbol = Symbol("chronograph.engine");
