// The argument errors LangGraph.js's savers throw, shared by the package's
// savers for LangGraph.js (langgraph_saver.ts; compact_saver.ts, the base of
// SqliteSaver and PostgresSaver).
import type { RunnableConfig } from "@langchain/core/runnables";

/** A `TypeError` with `code`, as the package's other argument errors. */
export function argumentError(message: string): TypeError & { code: string } {
  const e = new TypeError(message) as TypeError & { code: string };
  e.code = "INVALID_ARGUMENT";
  return e;
}

/** LangGraph.js's message for a `put`/`putWrites` config without `thread_id`. */
export function missingThreadId(what: string): Error & { code: string } {
  const e = new Error(
    `Failed to ${what}. The passed RunnableConfig is missing a required "thread_id" field in its "configurable" property. ` +
      'When using a checkpointer, you must pass a "thread_id" so the checkpointer knows which conversation thread to ' +
      'persist state for. Example: graph.stream(input, { configurable: { thread_id: "my-thread-id" } })',
  ) as Error & { code: string };
  e.code = "MISSING_THREAD_ID";
  return e;
}

/** LangGraph.js's message for a `putWrites` config without `checkpoint_id`. */
export function missingCheckpointId(): Error & { code: string } {
  const e = new Error(
    'Failed to put writes. The passed RunnableConfig is missing a required "checkpoint_id" field in its "configurable" property.',
  ) as Error & { code: string };
  e.code = "MISSING_CHECKPOINT_ID";
  return e;
}

/**
 * A channel version already stored with another value: two writers (two
 * processes on one file, most likely) wrote one thread at once. The put
 * that gets it wrote nothing.
 */
export function versionConflict(thread_id: string, ns: string, channel: string, version: string): Error & { code: string } {
  const e = new Error(
    `Failed to put checkpoint: version ${version} of channel "${channel}" of thread "${thread_id}"` +
      `${ns === "" ? "" : ` (namespace "${ns}")`} is already stored with a different value. Another writer put this ` +
      "thread at the same time; nothing of this checkpoint was written. Read the thread again and retry.",
  ) as Error & { code: string };
  e.code = "CHECKPOINT_CONFLICT";
  return e;
}

/**
 * The thread and namespace a `put`/`putWrites` config addresses (a missing
 * namespace is the root, ""): `missingThreadId(what)` without a thread,
 * an argument error naming `call` when either is not a string.
 */
export function addressOf(config: RunnableConfig, what: string, call = what): { thread_id: string; checkpoint_ns: string } {
  const thread_id = config.configurable?.thread_id;
  if (thread_id === undefined) throw missingThreadId(what);
  if (typeof thread_id !== "string") throw argumentError(`${call}: thread_id must be a string`);
  const checkpoint_ns = config.configurable?.checkpoint_ns ?? "";
  if (typeof checkpoint_ns !== "string") throw argumentError(`${call}: checkpoint_ns must be a string`);
  return { thread_id, checkpoint_ns };
}
