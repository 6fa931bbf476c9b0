// The config a node function gets, made as LangGraph.js makes it: the
// run's config as its loop holds it (`ensureLangGraphConfig` of the
// caller's config in `_streamIterator`: LangGraph.js's keys in their order,
// `ls_integration` and the `configurable` keys it copies into `metadata`,
// a `writer` and an `interrupt`), then the task's part (`_prepareSingleTask`:
// `langgraph_*` metadata, `checkpoint_map`, the task's `checkpoint_ns`,
// `store`, `runName`, `executionInfo`).
//
// The run's part is made once per run ({@link runConfig}); each node call
// copies it ({@link nodeConfig}), so no two calls share an object, as in
// LangGraph.js (the caller's own values, such as `configurable` entries,
// are shared by reference there too).
//
// Where this differs from LangGraph.js, and why: there is no `callbacks`
// (LangGraph.js's child CallbackManager: the package reports a run to
// LangChain handlers as one chain run, langchain/plain_callbacks.ts) and no `control`
// (LangGraph.js's `RunControl` drains a run at a superstep boundary, which
// the engine has no hook for); `runName` is left out where LangGraph.js's
// callbacks drop it (the run has `callbacks`, or streams `"messages"`).

import { ownCopy } from "../internal/args.js";
import { PULL, PUSH } from "../constants.js";
import type { NodeConfig } from "./types.js";

/** The keys LangGraph.js keeps of a run's config (`CONFIG_KEYS` of pregel/utils/config.js). */
const CONFIG_KEYS = new Set([
  "tags", "metadata", "callbacks", "runName", "maxConcurrency", "recursionLimit", "configurable", "runId",
  "outputKeys", "streamMode", "store", "writer", "interrupt", "context", "interruptBefore", "interruptAfter",
  "checkpointDuring", "durability", "signal", "heartbeat", "executionInfo", "serverInfo", "control",
]);

/** Kept keys with a place of their own (the first five), or that the run takes for itself (`_streamIterator`, `_defaults`). */
const PLACED = new Set(["tags", "metadata", "callbacks", "recursionLimit", "configurable", "runId", "streamMode", "outputKeys", "interruptBefore", "interruptAfter"]);

/** The keys of `configurable` LangGraph.js copies into a run's metadata (`PROPAGATE_TO_METADATA`). */
const PROPAGATED = ["thread_id", "checkpoint_id", "checkpoint_ns", "task_id", "run_id", "assistant_id", "graph_id"];

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * A run's metadata as LangGraph.js's loop holds it: `ls_integration`, the
 * caller's `metadata`, `model` (LangChain's `ensureConfig` copies a string
 * `configurable.model`), then the `configurable` keys LangGraph.js copies in.
 */
export function runMetadata(config: unknown): Record<string, unknown> {
  const c = isRecord(config) ? config : {};
  const configurable = isRecord(c.configurable) ? c.configurable : {};
  const metadata: Record<string, unknown> = { ls_integration: "langgraph", ...(isRecord(c.metadata) ? c.metadata : {}) };
  if (typeof configurable.model === "string" && metadata.model === undefined) metadata.model = configurable.model;
  for (const key of PROPAGATED) {
    if (!(key in metadata) && configurable[key] !== undefined) metadata[key] = configurable[key];
  }
  return metadata;
}

/** What one run gives every node config (see {@link runConfig}). */
export interface RunConfig {
  readonly tags: unknown[];
  readonly metadata: Record<string, unknown>;
  readonly recursionLimit: unknown;
  readonly configurable: Record<string, unknown>;
  /** The caller's other kept keys, in their order (`signal` last when the caller gave none). */
  readonly extras: [string, unknown][];
  /** LangGraph.js's `serverInfo`, for a run config naming an assistant or a graph. */
  readonly serverInfo: { assistantId: string; graphId: string; user: unknown } | undefined;
  /** Whether nodes get `runName` (their name): not where LangGraph.js's callbacks drop it. */
  readonly runName: boolean;
  /** The run's long-term store (the run's `config.store`, else the root graph's). */
  readonly store: unknown;
}

/**
 * The run's part of its nodes' configs, from the caller's `config`:
 * `context` is the run's validated context, `streamsMessages` whether the
 * run streams `"messages"` (LangGraph.js then adds a callback handler,
 * which drops `runName`).
 */
export function runConfig(config: unknown, context: unknown, store: unknown, streamsMessages: boolean): RunConfig {
  const c = isRecord(config) ? config : {};
  const callbacks = c.callbacks !== undefined || streamsMessages;
  const extras: [string, unknown][] = [];
  for (const [key, value] of Object.entries(c)) {
    if (value === undefined || !CONFIG_KEYS.has(key) || PLACED.has(key) || (key === "runName" && callbacks)) continue;
    extras.push([key, key === "context" ? context : value]);
  }
  if (!("signal" in c) || c.signal === undefined) extras.push(["signal", undefined]);
  const configurable = isRecord(c.configurable) ? c.configurable : {};
  const metadata = runMetadata(c);
  return {
    tags: Array.isArray(c.tags) ? [...new Set(c.tags as unknown[])] : [],
    metadata,
    recursionLimit: c.recursionLimit ?? 25,
    configurable,
    extras,
    serverInfo: serverInfo(configurable, metadata),
    runName: !callbacks,
    store,
  };
}

/** LangGraph.js's `_buildServerInfo`: set when the run names an assistant, a graph or an authenticated user. */
function serverInfo(configurable: Record<string, unknown>, metadata: Record<string, unknown>): RunConfig["serverInfo"] {
  const assistantId = configurable.assistant_id ?? metadata.assistant_id;
  const graphId = configurable.graph_id ?? metadata.graph_id;
  const auth = configurable.langgraph_auth_user;
  const user = auth != null && typeof auth === "object" && "identity" in auth ? auth : undefined;
  if (assistantId == null && graphId == null && user == null) return undefined;
  return { assistantId: assistantId != null ? String(assistantId) : "", graphId: graphId != null ? String(graphId) : "", user };
}

/** What a node call adds to its run's part: the task. */
export interface TaskOfNode {
  node: string;
  step: number;
  taskId: string;
  /** The task's checkpoint namespace (`node:task_id`, under its parent's in a subgraph). */
  ns: string;
  /** The channel that triggered it (`__pregel_push` for a `Send`). */
  trigger: string;
  /** The index of its `Send`, -1 for a task a channel triggered. */
  push: number;
  /** The superstep's `checkpoint_map` (shared: copied here). */
  map: Record<string, string>;
  /** When the node call started (`Date.now()`), LangGraph.js's `executionInfo.nodeFirstAttemptTime`. */
  startedAt: number;
}

/**
 * A node's config, in LangGraph.js's key order: `tags`, `metadata`,
 * `recursionLimit`, `configurable`, the caller's other keys, `signal`
 * (`signal`, the run's cancellation's accessor, when it has one: pregel/cancel.ts), `writer`, `interrupt`,
 * `serverInfo`, `store`, `runName`, `executionInfo`.
 */
export function nodeConfig(
  run: RunConfig,
  task: TaskOfNode,
  writer: (chunk: unknown) => void,
  interrupt: unknown,
  store: unknown,
  signal: PropertyDescriptor | undefined,
): NodeConfig {
  const { ns, map } = task;
  // (Copied, then added to: V8 makes `{ ...o, key: v }` a slow object, about 9 µs a call here.)
  const metadata = ownCopy(run.metadata);
  metadata.langgraph_step = task.step;
  metadata.langgraph_node = task.node;
  metadata.langgraph_triggers = [task.trigger];
  metadata.langgraph_path = task.push < 0 ? [PULL, task.node] : [PUSH, task.push, false];
  metadata.langgraph_checkpoint_ns = ns;
  metadata.checkpoint_ns = ns;
  const configurable = ownCopy(run.configurable);
  configurable.checkpoint_map = ownCopy(map);
  configurable.checkpoint_id = undefined;
  configurable.checkpoint_ns = ns;
  const config: Record<string, unknown> = {
    tags: run.tags.slice(),
    metadata,
    recursionLimit: run.recursionLimit,
    configurable,
  };
  for (const [key, value] of run.extras) {
    // The run's node signal (pregel/cancel.ts) is an accessor from the start: turning the data property
    // into one later would make V8 keep the config as a slow (dictionary) object.
    if (key === "signal" && signal !== undefined) Object.defineProperty(config, key, signal);
    else config[key] = value;
  }
  config.writer ??= writer;
  config.interrupt ??= interrupt;
  if (run.serverInfo !== undefined) config.serverInfo ??= run.serverInfo;
  if (store !== undefined) config.store = store;
  if (run.runName) config.runName = task.node;
  const parent = ns.lastIndexOf("|");
  config.executionInfo = {
    checkpointId: map[parent < 0 ? "" : ns.slice(0, parent)],
    checkpointNs: ns,
    taskId: task.taskId,
    threadId: run.configurable.thread_id,
    runId: undefined,
    nodeAttempt: 1,
    nodeFirstAttemptTime: task.startedAt,
  };
  return config as unknown as NodeConfig;
}

/** The namespace a node's `config.writer` reports its chunks in: its task's parents (`[]` at the root), as LangGraph.js's writer does. */
export function writerNamespace(ns: string): string[] {
  const parts = ns.split("|");
  parts.pop();
  return parts;
}
