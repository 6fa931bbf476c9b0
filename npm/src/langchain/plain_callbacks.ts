// LangChain callback handlers given in a run's `config.callbacks` (a
// tracer, a `{ handleChainEnd }` object, a CallbackManager) when
// `@langchain/core` is not installed: they see the graph's run as one
// chain run, from its start to its output or its error (with it, the
// runs of the tasks nest in it: langchain/task_runs.ts).
import { isArray, isRecord } from "../internal/args.js";

/** What the package calls on a LangChain callback handler (`BaseCallbackHandler`'s chain methods). */
interface ChainHandler {
  ignoreChain?: boolean;
  handleChainStart?(chain: object, inputs: object, runId: string, parentRunId?: string, tags?: string[], metadata?: object, runType?: string, name?: string): unknown;
  handleChainEnd?(outputs: unknown, runId: string): unknown;
  handleChainError?(error: unknown, runId: string): unknown;
}

/** The handlers of `config.callbacks`: an array of them, or a CallbackManager's `handlers`. */
function handlersOf(config: unknown): ChainHandler[] {
  let callbacks: unknown;
  try {
    callbacks = isRecord(config) ? config.callbacks : undefined;
  } catch {
    return [];
  }
  const list = isArray(callbacks) ? callbacks : isRecord(callbacks) && isArray(callbacks.handlers) ? callbacks.handlers : [];
  return (list as unknown[]).filter((h): h is ChainHandler => isRecord(h) && (h as ChainHandler).ignoreChain !== true);
}

/** Whether `config.callbacks` names any handler (an array of them, or a CallbackManager). */
export function hasCallbacks(config: unknown): boolean {
  let callbacks: unknown;
  try {
    callbacks = isRecord(config) ? config.callbacks : undefined;
  } catch {
    return false;
  }
  if (callbacks == null) return false;
  return isArray(callbacks) ? callbacks.length > 0 : isRecord(callbacks);
}

/** What LangGraph.js's runs are serialized as in a chain run. */
const SERIALIZED = { lc: 1, type: "not_implemented", id: ["langgraph", "CompiledStateGraph"] };

/** A random v4 UUID, the run's id (LangChain's `runId`) when the config gives none. */
function runIdOf(config: unknown): string {
  const given = isRecord(config) ? config.runId : undefined;
  return typeof given === "string" ? given : globalThis.crypto.randomUUID();
}

/**
 * Runs `op` (a graph's run on `input`) as one chain run of the handlers in
 * `config.callbacks`: `handleChainStart`, then `handleChainEnd` with its
 * result or `handleChainError` with its error, each awaited before the run
 * settles. Without handlers, `op()` itself.
 */
export function traced<T>(config: unknown, input: unknown, op: () => Promise<T>): Promise<T> {
  const handlers = handlersOf(config);
  if (handlers.length === 0) return op();
  const runId = runIdOf(config);
  const c = config as { tags?: string[]; metadata?: object; runName?: string };
  const inputs = isRecord(input) ? input : { input };
  const each = async (call: (h: ChainHandler) => unknown) => {
    for (const h of handlers) await call(h);
  };
  return (async () => {
    await each((h) => h.handleChainStart?.(SERIALIZED, inputs, runId, undefined, c.tags, c.metadata, undefined, c.runName ?? "LangGraph"));
    let out: T;
    try {
      out = await op();
    } catch (error) {
      await each((h) => h.handleChainError?.(error, runId));
      throw error;
    }
    await each((h) => h.handleChainEnd?.(out, runId));
    return out;
  })();
}
