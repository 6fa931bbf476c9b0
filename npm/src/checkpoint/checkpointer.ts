// The saver a compiled graph's engine runs on, from the `checkpointer` its
// caller gave (`compile({ checkpointer })`, a `Pregel`'s field): the
// engine's own saver (engine_saver.ts) as it is; any other LangGraph.js
// checkpointer behind the saver bridge (saver_bridge.ts), one bridge per
// checkpointer.
import { argumentError, isInstance } from "../internal/args.js";
import { MemorySaver } from "./engine_saver.js";
import { SaverBridge, isAsyncSaver, type AsyncCheckpointSaver } from "./saver_bridge.js";
import type { RunnableConfig } from "../pregel/types.js";

/** The saver methods a LangGraph.js checkpointer overrides when it subclasses `MemorySaver`. */
const SAVER_METHODS = ["getTuple", "list", "put", "putWrites", "getNextVersion"];

/** Whether `saver` is a `MemorySaver` subclass with a saver method of its own (LangGraph.js's savers are subclassed so). */
function overridesSaver(saver: MemorySaver): boolean {
  return SAVER_METHODS.some((m) => m in saver && Reflect.get(saver, m) !== Reflect.get(MemorySaver.prototype, m));
}

/**
 * The saver a graph's engine runs on, from the `checkpointer` its caller
 * gave (`what` names the option): a `MemorySaver` itself; any other
 * LangGraph.js checkpointer (PostgresSaver, SqliteSaver, a `MemorySaver`
 * subclass with saver methods of its own, ...) behind the engine's store
 * (saver_bridge.ts), which loads threads from it and hands them back;
 * `undefined` for none, `true` (LangGraph.js's subgraph with a history of
 * its own) or `false` (no checkpointing).
 */
export function saverOf(checkpointer: unknown, what: string): MemorySaver | undefined {
  const own = isInstance(checkpointer, MemorySaver) && !overridesSaver(checkpointer);
  if (own) return checkpointer;
  if (checkpointer == null || typeof checkpointer === "boolean") return undefined;
  if (!isAsyncSaver(checkpointer)) {
    throw argumentError(`${what} must be a MemorySaver, a LangGraph.js checkpointer (getTuple, list, put, putWrites), true or false`);
  }
  return bridgeOf(checkpointer);
}

/**
 * The bridge of each LangGraph.js checkpointer (keyed by the caller's own
 * object, which has no room for it): graphs compiled with the same
 * checkpointer share one engine store, as they share a `MemorySaver`.
 */
const bridges = new WeakMap<AsyncCheckpointSaver, SaverBridge>();

function bridgeOf(saver: AsyncCheckpointSaver): SaverBridge {
  let bridge = bridges.get(saver);
  if (bridge === undefined) bridges.set(saver, (bridge = new SaverBridge(saver)));
  return bridge;
}

/**
 * For a run on a thread of a LangGraph.js checkpointer (saver_bridge.ts): what
 * starts putting the run's checkpoints as its first node starts, as
 * LangGraph.js puts a run's first checkpoint while its first tasks run
 * (the rest go once the run ends). Nothing for the engine's own saver.
 */
export function earlyFlush(saver: MemorySaver | undefined, thread: string | undefined, config: RunnableConfig | undefined): (() => void) | undefined {
  if (!(saver instanceof SaverBridge) || thread === undefined) return undefined;
  let started = false;
  return () => {
    if (started) return;
    started = true;
    // With the run's config, as the flush after the run (LangGraph.js's loop puts with it).
    saver.flushSoon(thread, { config, run: true });
  };
}
