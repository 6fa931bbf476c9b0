// A node's policies (`addNode`'s `retryPolicy`, `cachePolicy`, `timeout`) and
// the builder's defaults (`setNodeDefaults`), resolved when the graph
// compiles, as LangGraph.js resolves them: a node's own policy wins; a
// `cachePolicy: false` turns the default off; error-handler nodes take the
// default retry and timeout but never the default cache.
import { argumentError, describe, isRecord, option } from "../internal/args.js";
import { cachePolicyOf, type CachePolicy } from "../pregel/cache.js";
import { withRetry, type RetryPolicy } from "../pregel/retry.js";
import { timeoutPolicyOf, withTimeout, type ResolvedTimeoutPolicy, type TimeoutPolicy } from "../pregel/timeout.js";
import type { UserNode } from "../pregel/runtime.js";
import { handledFailure } from "../pregel/cancel.js";

/** `setNodeDefaults`' argument (LangGraph.js's `NodeDefaults`). */
export interface NodeDefaults<S = never> {
  /** Retry policy of every node without its own. */
  retryPolicy?: RetryPolicy;
  /** Cache policy of every regular node without its own (`true`: `{}`). */
  cachePolicy?: CachePolicy | boolean;
  /** Timeout of every node without its own (milliseconds or a policy). */
  timeout?: number | TimeoutPolicy;
  /** Error handler of every regular node without its own. */
  errorHandler?: (state: S, error: import("../errors.js").NodeError, config: unknown) => unknown;
}

/** The defaults as `setNodeDefaults` keeps them (merged call after call). */
export interface ResolvedDefaults {
  retryPolicy?: RetryPolicy;
  cachePolicy?: CachePolicy;
  timeout?: ResolvedTimeoutPolicy;
  errorHandler?: (state: unknown, error: unknown, config: unknown) => unknown;
}

/** `defaults` merged into `into`, field by field (LangGraph.js's `setNodeDefaults`). */
export function mergeDefaults(into: ResolvedDefaults, defaults: unknown): void {
  const what = "setNodeDefaults(defaults)";
  if (!isRecord(defaults)) throw argumentError(`${what}: defaults must be an object like {retryPolicy, cachePolicy, timeout, errorHandler}, got ${describe(defaults)}`);
  const retry = option(defaults, "retryPolicy", what);
  if (retry !== undefined) {
    if (!isRecord(retry)) throw argumentError(`${what}.retryPolicy must be an object like {maxAttempts}, got ${describe(retry)}`);
    into.retryPolicy = retry as RetryPolicy;
  }
  const cache = option(defaults, "cachePolicy", what);
  if (cache !== undefined) into.cachePolicy = cachePolicyOf(`${what}.cachePolicy`, cache) || undefined;
  const timeout = option(defaults, "timeout", what);
  if (timeout !== undefined) into.timeout = timeoutPolicyOf(`${what}.timeout`, timeout);
  const handler = option(defaults, "errorHandler", what);
  if (handler !== undefined) {
    if (typeof handler !== "function") throw argumentError(`${what}.errorHandler must be a function, got ${describe(handler)}`);
    into.errorHandler = handler as ResolvedDefaults["errorHandler"];
  }
}

/**
 * A node's policies: its own (from `addNode`) and, for the retry and the
 * timeout, those the last `compile` resolved, which its function reads
 * on each call. (A builder compiled twice with different defaults in
 * between gives both graphs the later ones.)
 */
export interface NodePolicies {
  own: { retryPolicy?: RetryPolicy; cachePolicy?: CachePolicy | false; timeout?: ResolvedTimeoutPolicy; errorHandler?: boolean };
  /** An error-handler node (`__error_handler__<node>`, `__default_error_handler__`). */
  handler: boolean;
  /** A subgraph node: retries and timeouts do not apply (the engine runs it). */
  subgraph: boolean;
  retryPolicy?: RetryPolicy;
  timeout?: ResolvedTimeoutPolicy;
  /** Its failures go to an error handler (its own, or the default one). */
  routed?: boolean;
}

/** The cache policy `node` compiles with under `defaults` (`undefined`: none). */
export function resolvePolicies(node: NodePolicies, defaults: ResolvedDefaults): CachePolicy | undefined {
  node.retryPolicy = node.own.retryPolicy ?? defaults.retryPolicy;
  node.timeout = node.own.timeout ?? defaults.timeout;
  node.routed = !node.handler && (node.own.errorHandler === true || defaults.errorHandler !== undefined);
  if (node.handler || node.own.cachePolicy === false) return undefined;
  return node.own.cachePolicy ?? defaults.cachePolicy;
}

/**
 * `fn` run with the retry and timeout `policies` hold when it is called:
 * the timeout around each attempt, the retries around them (LangGraph.js's
 * `_runWithRetry` over `runAttemptWithTimeout`). Without either, a plain call.
 */
export function withPolicies(fn: UserNode, policies: NodePolicies): UserNode {
  const call = fn as unknown as (state: unknown, config: unknown) => unknown;
  let made: { retry?: RetryPolicy; timeout?: ResolvedTimeoutPolicy; fn: (state: unknown, config: unknown) => unknown } | undefined;
  // A function, not an arrow: the node keeps the `this` it is called with (pregel/runtime.ts `wrapNode`).
  const run = function (this: unknown, state: unknown, config: unknown): unknown {
    const { retryPolicy: retry, timeout } = policies;
    if (retry === undefined && timeout === undefined) return call.call(this, state, config);
    if (made === undefined || made.retry !== retry || made.timeout !== timeout) {
      let f = timeout === undefined ? fn : withTimeout(fn, timeout);
      if (retry !== undefined) f = withRetry(f, retry);
      made = { retry, timeout, fn: f as unknown as (state: unknown, config: unknown) => unknown };
    }
    return made.fn.call(this, state, config);
  };
  return function (this: unknown, state: unknown, config: unknown): unknown {
    if (!policies.routed) return run.call(this, state, config);
    // A failure its error handler takes does not fail the superstep (pregel/cancel.ts).
    let out: unknown;
    try {
      out = run.call(this, state, config);
    } catch (e) {
      throw handledFailure(e);
    }
    return isThenable(out) ? out.then(undefined, (e: unknown) => Promise.reject(handledFailure(e))) : out;
  } as unknown as UserNode;
}

function isThenable(v: unknown): v is Promise<unknown> {
  return v !== null && (typeof v === "object" || typeof v === "function") && typeof (v as { then?: unknown }).then === "function";
}
