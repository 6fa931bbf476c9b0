// `@langchain/core`'s callback system, an optional peer dependency, looked
// up once on first need (a run given `config.callbacks`, `streamEvents`),
// never at import: LangChain's `CallbackManager` (the chain runs a graph's
// run and its tasks report, as LangGraph.js reports them: langchain/task_runs.ts),
// the async context LangChain's runnables read their parent run from
// (`AsyncLocalStorageProviderSingleton`), and `Runnable`, whose
// `streamEvents` the package's `streamEvents` runs (stream/langchain_events.ts).
import { importPeer, peersSwitchedOff } from "../internal/peers.js";
import { newAsyncStorage } from "../pregel/runtime.js";

/** A LangChain `CallbackManager`, as far as the package uses it. */
export interface CallbackManager {
  /** The handlers it calls (`BaseCallbackHandler`s). */
  readonly handlers: readonly unknown[];
  /** Starts a chain run: `handleChainStart(serialized, inputs, runId, runType, tags, metadata, runName)`. */
  handleChainStart(
    serialized: object,
    inputs: unknown,
    runId?: string,
    runType?: string,
    tags?: string[],
    metadata?: object,
    runName?: string,
  ): Promise<ChainRun>;
}

/** A LangChain `CallbackManagerForChainRun`: one chain run that was started. */
export interface ChainRun {
  readonly runId: string;
  /** The manager of the runs nested in this one (`tag`: a tag of those runs alone). */
  getChild(tag?: string): CallbackManager;
  handleChainEnd(outputs: unknown): Promise<void>;
  handleChainError(error: unknown): Promise<void>;
}

/** `CallbackManager`'s static side: `_configureSync` (what LangGraph.js and LangChain's runnables call). */
interface CallbackManagerClass {
  _configureSync(
    inheritableHandlers: unknown,
    localHandlers: unknown,
    inheritableTags?: string[],
    localTags?: string[],
    inheritableMetadata?: object,
    localMetadata?: object,
    options?: object,
  ): CallbackManager | undefined;
}

/** What the package uses of `@langchain/core`'s callbacks. */
export interface CoreCallbacks {
  /** LangChain's `CallbackManager._configureSync`: the manager of a run's handlers, tags and metadata (`undefined`: no handlers). */
  configure: CallbackManagerClass["_configureSync"];
  /** Runs `fn` with `config` as the async context's runnable config (LangChain's `AsyncLocalStorageProviderSingleton.runWithConfig`). */
  runWithConfig<T>(config: object, fn: () => T): T;
  /** LangChain's `Runnable` class (whose `streamEvents` stream/langchain_events.ts runs). */
  Runnable: abstract new () => object;
}

/** Looked up: the modules, `null` when `@langchain/core` is not installed. */
let found: CoreCallbacks | null | undefined;
let loading: Promise<CoreCallbacks | null> | undefined;

/**
 * `@langchain/core`'s callbacks once looked up (`null`: not installed, or
 * `CHRONOGRAPH_LANGCHAIN=off`): at once after the first lookup, else a
 * Promise of them.
 */
export function loadCallbacks(): CoreCallbacks | null | Promise<CoreCallbacks | null> {
  if (found !== undefined) return found;
  if (peersSwitchedOff()) return (found = null);
  loading ??= importCallbacks().then(
    (c) => (found = c),
    () => (found = null),
  );
  return loading;
}

/** `@langchain/core`'s callbacks if they were looked up and found (`undefined`: not looked up yet). */
export function coreCallbacks(): CoreCallbacks | null | undefined {
  return found;
}

async function importCallbacks(): Promise<CoreCallbacks | null> {
  const [manager, singletons, runnables] = (await Promise.all([
    importPeer("@langchain/core", "./callbacks/manager"),
    importPeer("@langchain/core", "./singletons"),
    importPeer("@langchain/core", "./runnables"),
  ])) as [
    { CallbackManager?: Partial<CallbackManagerClass> } | undefined,
    { AsyncLocalStorageProviderSingleton?: unknown } | undefined,
    { Runnable?: unknown } | undefined,
  ];
  const CallbackManager = manager?.CallbackManager;
  const storage = singletons?.AsyncLocalStorageProviderSingleton as
    | { runWithConfig?: unknown; initializeGlobalInstance?(instance: unknown): void }
    | undefined;
  const Runnable = runnables?.Runnable;
  if (typeof CallbackManager?._configureSync !== "function" || typeof storage?.runWithConfig !== "function" || typeof Runnable !== "function") {
    return null;
  }
  // LangChain's async context, as LangGraph.js sets it up in Node (a no-op when something already did).
  const context = newAsyncStorage();
  if (context !== null) storage.initializeGlobalInstance?.(context);
  const configure = CallbackManager._configureSync.bind(CallbackManager) as CoreCallbacks["configure"];
  const runWithConfig = (storage.runWithConfig as (config: object, fn: () => unknown) => unknown).bind(storage) as CoreCallbacks["runWithConfig"];
  return { configure, runWithConfig, Runnable: Runnable as CoreCallbacks["Runnable"] };
}

/** `@langchain/core`'s `ChatModelStream` (`language_models/stream`), once looked up: `undefined` without it. */
let chatModelStream: Promise<(new (source: AsyncIterable<unknown>) => object) | undefined> | undefined;

/** Looks up `@langchain/core`'s `ChatModelStream` (what `streamEvents` v3's `messages` projections are made of). */
export function loadChatModelStream(): Promise<(new (source: AsyncIterable<unknown>) => object) | undefined> {
  if (peersSwitchedOff()) return Promise.resolve(undefined);
  chatModelStream ??= importPeer("@langchain/core", "./language_models/stream").then(
    (m) => {
      const cls = (m as { ChatModelStream?: unknown } | undefined)?.ChatModelStream;
      return typeof cls === "function" ? (cls as new (source: AsyncIterable<unknown>) => object) : undefined;
    },
    () => undefined,
  );
  return chatModelStream;
}
