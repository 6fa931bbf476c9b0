// LangGraph.js's helpers that find the running node through its async
// context (`writer`, `getWriter`, `getPreviousState`, `pushMessage`),
// reading the node's config where pregel/runtime.ts keeps it (Node's
// AsyncLocalStorage; in a browser, before the node's first `await`). Each
// does what LangGraph.js 1.7.3's does in a StateGraph node, texts included.
import { plainError } from "../errors.js";
import * as raw from "../wasm/chronograph.js";
import { messageClasses, toEngine, type LcMessage } from "../langchain/message_classes.js";
import { configNotRetrievable, runningConfig, runningMessages, runningTask } from "./runtime.js";
import type { NodeConfig } from "./types.js";

/** A config as these helpers read it. */
type AnyConfig = NodeConfig & { writer?: (chunk: unknown) => unknown; configurable?: Record<string, unknown> };

/**
 * LangGraph.js's `writer(chunk)`: calls `configurable.writer` of the running
 * node's config, which LangGraph.js 1.7.3 sets only for its functional API:
 * in a StateGraph node it does nothing (use `config.writer` or `getWriter()`
 * for `"custom"` chunks), as there. Throws outside a node.
 */
export function writer<T>(chunk: T): unknown {
  const config = runningConfig() as AnyConfig | undefined;
  // LangGraph.js's texts (its plain Errors), with the package's codes.
  if (!config) throw Object.assign(new Error("Called interrupt() outside the context of a graph."), { code: "CONFIG_OUTSIDE_NODE" });
  const conf = config.configurable;
  if (!conf) throw Object.assign(new Error("No configurable found in config"), { code: "INVALID_ARGUMENT" });
  return (conf.writer as ((chunk: T) => unknown) | undefined)?.(chunk);
}

/**
 * The `"custom"` stream writer of `config`, else of the running node
 * (LangGraph.js's `getWriter`): `undefined` when the run does not stream
 * `"custom"`.
 */
export function getWriter(config?: NodeConfig): ((chunk: unknown) => void) | undefined {
  const runConfig = (config ?? runningConfig()) as AnyConfig | undefined;
  if (runConfig === undefined) throw configNotRetrievable("getWriter");
  return (runConfig.writer || runConfig.configurable?.writer) as ((chunk: unknown) => void) | undefined;
}

/**
 * LangGraph.js's `getPreviousState()` of its functional API (the previous
 * return value of an `entrypoint` on the thread): a StateGraph node has
 * none, so it is `undefined` there; outside a node it throws LangGraph.js's
 * `TypeError`.
 */
export function getPreviousState<StateT>(): StateT {
  const config = runningConfig() as AnyConfig;
  return config.configurable?.__pregel_previous as StateT;
}

/** What {@link pushMessage} takes besides the message: the node's config, and the state key to write to. */
export type PushMessageOptions = Partial<NodeConfig> & { stateKey?: string | null };

/**
 * LangGraph.js's `pushMessage(message, options)`: streams `message` in the
 * run's `"messages"` mode at once (with the node's config metadata) and
 * writes it to the state key `stateKey` (`"messages"`; `null`: none), as
 * if the node had returned it (the running node's: `options` may be its
 * config, which a browser needs after the node's first `await`). The message needs an `id`. Returns the
 * message (a LangChain message instance when `@langchain/core` is there).
 */
export function pushMessage(message: unknown, options?: PushMessageOptions): LcMessage {
  const { stateKey: userStateKey, ...userConfig } = (options ?? {}) as PushMessageOptions;
  let stateKey: string | undefined = userStateKey ?? "messages";
  if (userStateKey === null) stateKey = undefined;
  const core = messageClasses();
  const validMessage = (core ? core.coerceMessageLikeToMessage(message) : message) as LcMessage;
  if (!validMessage?.id) throw plainError("Message ID is required.", "INVALID_ARGUMENT");
  const stream = runningMessages();
  if (stream !== undefined) stream.messages.push(stream.taskId, validMessage);
  const task = runningTask(userConfig);
  if (stateKey && task !== undefined) raw.taskWrite(task, toEngine([[stateKey, validMessage]]));
  return validMessage;
}
