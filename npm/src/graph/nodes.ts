// What `addNode` makes of what it is given: the node a compiled graph lists
// in `nodes` (LangGraph.js's `PregelNode`, callable on its own), the checks
// of its options and metadata, a LangChain Runnable as a node function, and
// the zod checks of a zod object state's node updates.
import { argumentError, describe, isRecord, thrownText } from "../internal/args.js";
import { ZodInputValidator } from "../state/zod/meta.js";
import type { StateDefinitionInfo } from "../state/definitions.js";
import type { UserNode } from "../pregel/runtime.js";
import type { AddNodeOptions, RunnableConfig } from "../pregel/types.js";

/**
 * One of a compiled graph's `nodes` (LangGraph.js's `PregelNode`): its
 * `invoke` runs the node's own function (or subgraph) on `input`, outside
 * any run: no checkpoint, no writes, the function's return value as it is.
 */
export interface GraphNode {
  /** The node's name. */
  readonly name: string;
  /** Calls the node on `input` and resolves to what it returns. */
  invoke(input: unknown, config?: RunnableConfig): Promise<unknown>;
}

/** A `GraphNode` over `call`, a node function or a compiled subgraph's `invoke`. */
export function graphNode(name: string, call: (input: unknown, config: RunnableConfig) => unknown): GraphNode {
  return { name, invoke: async (input, config) => call(input, config ?? {}) };
}

/** A LangChain Runnable-like object: it has `invoke(input, config)`. */
export interface RunnableLike {
  invoke(input: unknown, config?: unknown): unknown;
}

/** Whether `v` is a LangChain Runnable-like object (a throwing getter or a revoked Proxy is not). */
export function isRunnable(v: unknown): v is RunnableLike {
  try {
    return typeof v === "object" && v !== null && typeof (v as { invoke?: unknown }).invoke === "function";
  } catch {
    return false;
  }
}

/** A Runnable as a node function. */
export function runnableNode(r: RunnableLike): UserNode {
  return (state: unknown, config: unknown) => r.invoke(state, config);
}

/** What `addNode`'s third argument may hold. */
const NODE_OPTIONS = new Set(["ends", "subgraphs", "retryPolicy", "input", "defer", "cachePolicy", "timeout", "errorHandler", "metadata"]);

/** Checks `addNode`'s options: `ends` goes to the bindings; LangGraph.js options the engine lacks fail, naming the difference. */
export function nodeOptions(name: string, options: unknown): AddNodeOptions {
  if (options == null) return {};
  if (typeof options !== "object") {
    throw argumentError(`addNode(name, action, options): options must be an object like {ends}, got ${describe(options)}`);
  }
  const what = `addNode(${JSON.stringify(name)}, action, options): options`;
  let keys: string[];
  try {
    keys = Object.keys(options);
  } catch (e) {
    throw argumentError(`${what}: reading its keys threw ${thrownText(e)}`, e);
  }
  for (const key of keys) {
    if (!NODE_OPTIONS.has(key)) throw argumentError(`${what}.${key} is not an option of addNode (options: ${[...NODE_OPTIONS].join(", ")})`);
  }
  return options as AddNodeOptions;
}

/** `addNode`'s `metadata`, checked and copied. */
export function nodeMetadata(name: string, metadata: unknown): Record<string, unknown> | undefined {
  if (metadata === undefined || metadata === null) return undefined;
  if (!isRecord(metadata)) throw argumentError(`addNode(${JSON.stringify(name)}, action, options).metadata must be an object, got ${describe(metadata)}`);
  return { ...metadata };
}

/** A node whose updates of a zod object state's fields are parsed by zod, as LangGraph.js does (other states: the node itself). */
export function validatingUpdates(call: UserNode, schema: StateDefinitionInfo["schema"]): UserNode {
  if (!(schema instanceof ZodInputValidator)) return call;
  const node = call as unknown as (state: unknown, config: unknown) => unknown;
  // A function, not an arrow: the node keeps the `this` it is called with (pregel/runtime.ts `wrapNode`).
  return function (this: unknown, state: unknown, config: unknown) {
    const out = node.call(this, state, config);
    return out instanceof Promise ? out.then((r) => schema.validateNodeResult(r)) : schema.validateNodeResult(out);
  };
}
