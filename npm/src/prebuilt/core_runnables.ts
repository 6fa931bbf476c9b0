// `@langchain/core/runnables`, an optional peer dependency, for the prebuilt
// agents: LangGraph.js builds `createReactAgent`'s model call as LangChain
// runnables (`prompt` piped into the model, `withAgentName`'s sequence), and
// what a LangChain callback handler sees of a run (the runs, their names and
// `seq:step:N` tags) comes from them. Looked up on first need, never at import,
// as `@langchain/core/messages` is (langchain/core_messages.ts).
import { importPeer, peersSwitchedOff, requirePeer } from "../internal/peers.js";
import { GraphValueError, withCode } from "../errors.js";

/** A LangChain Runnable, as far as the agents use one. */
export interface CoreRunnable {
  invoke(input: unknown, config?: unknown): Promise<unknown>;
  pipe(next: unknown): CoreRunnable;
  withConfig(config: Record<string, unknown>): CoreRunnable;
}

/** A `RunnableBinding` (`model.bindTools(...)`, `withConfig(...)`): its model and what it binds. */
export interface CoreRunnableBinding extends CoreRunnable {
  bound: unknown;
  kwargs?: Record<string, unknown>;
  config?: Record<string, unknown>;
  configFactories?: unknown;
}

/** A `RunnableSequence`: its steps. */
export interface CoreRunnableSequence extends CoreRunnable {
  steps: unknown[];
}

/** What the agents use of `@langchain/core/runnables`. */
export interface CoreRunnables {
  RunnableLambda: { from(fn: (input: never, config?: never) => unknown): CoreRunnable };
  RunnableSequence: { from(steps: unknown[]): CoreRunnable };
  RunnableBinding: new (fields: Record<string, unknown>) => CoreRunnable;
}

/** The module once looked up: `null` when it is not installed. */
let core: CoreRunnables | null | undefined;

function usable(m: unknown): CoreRunnables | null {
  if (m === null || typeof m !== "object") return null;
  const c = m as Partial<CoreRunnables>;
  const ok =
    typeof c.RunnableLambda?.from === "function" &&
    typeof c.RunnableSequence?.from === "function" &&
    typeof c.RunnableBinding === "function";
  return ok ? (m as CoreRunnables) : null;
}

function missing(what: string): GraphValueError {
  return withCode(new GraphValueError(`${what} needs @langchain/core (npm install @langchain/core), as in LangGraph.js`), "MISSING_PEER");
}

/** `@langchain/core/runnables`, looked up (once) asynchronously; fails naming `what` when it is not installed. */
export async function loadRunnables(what: string): Promise<CoreRunnables> {
  if (core === undefined) core = peersSwitchedOff() ? null : usable(await importPeer("@langchain/core", "./runnables"));
  if (core === null) throw missing(what);
  return core;
}

/**
 * `@langchain/core/runnables` now, for a synchronous API (`withAgentName`):
 * the module already looked up, else loaded with `require` (Node 20.19+,
 * 22.12+); fails naming `what` when that cannot be done.
 */
export function runnablesNow(what: string): CoreRunnables {
  if (core === undefined && !peersSwitchedOff()) {
    const found = usable(requirePeer("@langchain/core", "./runnables"));
    if (found !== null) core = found;
  }
  if (core === undefined || core === null) throw missing(what);
  return core;
}

/** A runnable (LangChain's `Runnable.isRunnable`: `lc_runnable` is set). */
export function isRunnable(thing: unknown): thing is CoreRunnable {
  return thing !== null && typeof thing === "object" && Boolean((thing as { lc_runnable?: unknown }).lc_runnable);
}

/** LangChain's `RunnableBinding.isRunnableBinding`. */
export function isRunnableBinding(thing: unknown): thing is CoreRunnableBinding {
  return thing !== null && typeof thing === "object" && isRunnable((thing as { bound?: unknown }).bound);
}

/** LangChain's `RunnableSequence.isRunnableSequence`. */
export function isRunnableSequence(thing: unknown): thing is CoreRunnableSequence {
  return thing !== null && typeof thing === "object" && Array.isArray((thing as { middle?: unknown }).middle) && isRunnable(thing);
}
