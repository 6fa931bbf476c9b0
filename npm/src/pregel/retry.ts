// `addNode(name, fn, { retryPolicy })`: LangGraph.js's retries of a failing
// node (pregel/retry.ts `_runWithRetry`), run around the JS function, so the
// engine sees one call that either succeeds or fails with the last error.
import { argumentError, describe, isRecord } from "../internal/args.js";
import { isGraphBubbleUp, isGraphInterrupt } from "../errors.js";
import { retryAttempt, type UserNode } from "./runtime.js";

/** LangGraph.js's `RetryPolicy`. */
export interface RetryPolicy {
  /** Milliseconds before the first retry (default 500). */
  initialInterval?: number;
  /** Multiplier of the interval after each retry (default 2). */
  backoffFactor?: number;
  /** Longest interval in milliseconds (default 128000). */
  maxInterval?: number;
  /** Attempts in all, the first included (default 3). */
  maxAttempts?: number;
  /** Add up to a second of random delay (default true). */
  jitter?: boolean;
  /** Which errors to retry (default: LangGraph.js's: not aborts, `GraphValueError`s or HTTP 4xx but 408). */
  retryOn?: (e: unknown) => boolean;
  /** Log each retry with `console.log`, as LangGraph.js does (default true). */
  logWarning?: boolean;
}

/** HTTP statuses LangGraph.js does not retry. */
const DEFAULT_STATUS_NO_RETRY = [400, 401, 402, 403, 404, 405, 406, 407, 409];

/** LangGraph.js's `DEFAULT_RETRY_ON_HANDLER`. */
function defaultRetryOn(error: unknown): boolean {
  const e = error as { message?: string; name?: string; code?: unknown; status?: unknown; response?: { status?: unknown }; error?: { code?: unknown } };
  const message = String(e?.message ?? "");
  if (message.startsWith("Cancel") || message.startsWith("AbortError") || e?.name === "AbortError") return false;
  if (e?.name === "GraphValueError") return false;
  if (e?.code === "ECONNABORTED") return false;
  const status = e?.response?.status ?? e?.status;
  if (status && DEFAULT_STATUS_NO_RETRY.includes(Number(status))) return false;
  if (e?.error?.code === "insufficient_quota") return false;
  return true;
}

/** The policy given to `addNode`, checked (`undefined` when none). */
export function retryPolicyOf(node: string, policy: unknown): RetryPolicy | undefined {
  if (policy == null) return undefined;
  if (!isRecord(policy)) {
    throw argumentError(`addNode(${JSON.stringify(node)}, fn, options): options.retryPolicy must be an object like {maxAttempts}, got ${describe(policy)}`);
  }
  return policy as RetryPolicy;
}

/**
 * `fn` retried as LangGraph.js retries a task: up to `maxAttempts` attempts,
 * sleeping `min(maxInterval, initialInterval * backoffFactor ** (attempt - 1))`
 * (plus up to 1 s of jitter) between them, for errors `retryOn` accepts;
 * `interrupt()` is never retried. `beforeRetry(config)` runs before each
 * retry (a `Pregel` node forgets the writes its attempt made).
 */
export function withRetry(fn: UserNode, policy: RetryPolicy, beforeRetry?: (config: unknown) => void): UserNode {
  const call = fn as unknown as (state: unknown, config: unknown) => unknown;
  // A function, not an arrow: the node keeps the `this` it is called with (pregel/runtime.ts `wrapNode`).
  // The first attempt runs as the node would without a policy (a synchronous node stays
  // synchronous, its throw a throw): only a retry makes the call asynchronous.
  const retried = function (this: unknown, state: unknown, config: unknown): unknown {
    const self = this;
    const attempt = (attempts: number): unknown => {
      let out: unknown;
      try {
        out = attempts === 0 ? call.call(self, state, config) : retryAttempt(config, attempts + 1, (c) => call.call(self, state, c));
      } catch (error) {
        return retry(error, attempts + 1);
      }
      return isThenable(out) ? out.then(undefined, (error: unknown) => retry(error, attempts + 1)) : out;
    };
    // After failed attempt number `attempts`: throws what is not retried, else waits and tries again.
    const retry = (error: unknown, attempts: number): Promise<unknown> => {
      // An interrupt, a command for the parent graph: LangGraph.js's GraphBubbleUp is never retried.
      if (isGraphInterrupt(error) || isGraphBubbleUp(error)) throw error;
      if (attempts >= (policy.maxAttempts ?? 3)) throw error;
      if (!(policy.retryOn ?? defaultRetryOn)(error)) throw error;
      const initial = policy.initialInterval ?? 500;
      const interval = Math.min(policy.maxInterval ?? 128e3, initial * (policy.backoffFactor ?? 2) ** (attempts - 1));
      const sleepMs = (policy.jitter ?? true) ? interval + Math.random() * 1e3 : interval;
      return new Promise((resolve) => setTimeout(resolve, sleepMs)).then(() => {
        if (policy.logWarning ?? true) {
          const name = (error as { name?: string })?.name ?? "Error";
          const metadata = (config as { metadata?: { langgraph_node?: string } } | undefined)?.metadata;
          console.log(`Retrying task "${String(metadata?.langgraph_node)}" after ${sleepMs.toFixed(2)}ms (attempt ${attempts}) after ${name}: ${String(error)}`);
        }
        beforeRetry?.(config);
        return attempt(attempts);
      });
    };
    return attempt(0);
  };
  return retried as unknown as UserNode;
}

function isThenable(v: unknown): v is Promise<unknown> {
  return v !== null && (typeof v === "object" || typeof v === "function") && typeof (v as { then?: unknown }).then === "function";
}
