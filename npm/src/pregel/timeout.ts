// `addNode(name, fn, { timeout })`: LangGraph.js's per-attempt node timeouts
// (pregel/timeout.ts `runAttemptWithTimeout`), run around the JS function
// (inside its retries): the attempt races a `runTimeout` watchdog (from its
// start) and an `idleTimeout` one (from its last progress: a chunk written
// to `config.writer`, or `config.heartbeat()`). When one fires first the
// attempt's `config.signal` is aborted, what it writes from then on is
// dropped, and it fails with a `NodeTimeoutError`.
import { argumentError, describe, isRecord } from "../internal/args.js";
import { NodeTimeoutError, plainError } from "../errors.js";
import type { UserNode } from "./runtime.js";

/** LangGraph.js's `TimeoutPolicy` (milliseconds). */
export interface TimeoutPolicy {
  /** Longest an attempt may run. */
  runTimeout?: number;
  /** Longest an attempt may go without progress. */
  idleTimeout?: number;
  /** What counts as progress: `"auto"` (writes to `config.writer`, heartbeats; default) or `"heartbeat"` only. */
  refreshOn?: "auto" | "heartbeat";
}

/** A policy as LangGraph.js's `coerceTimeoutPolicy` leaves it. */
export interface ResolvedTimeoutPolicy {
  runTimeout?: number;
  idleTimeout?: number;
  refreshOn: "auto" | "heartbeat";
}

function timeoutMs(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0) throw plainError(`${field} must be greater than 0`, "INVALID_ARGUMENT");
  return value;
}

/**
 * LangGraph.js's `coerceTimeoutPolicy`: a number is a `runTimeout`; a
 * policy without either limit is none. Its errors are LangGraph.js's.
 */
export function timeoutPolicyOf(what: string, value: unknown): ResolvedTimeoutPolicy | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" && !isRecord(value)) {
    throw argumentError(`${what} must be milliseconds or {runTimeout, idleTimeout, refreshOn}, got ${describe(value)}`);
  }
  const policy = (typeof value === "number" ? { runTimeout: value } : value) as TimeoutPolicy;
  const refreshOn = policy.refreshOn ?? "auto";
  if (refreshOn !== "auto" && refreshOn !== "heartbeat") throw plainError('refreshOn must be "auto" or "heartbeat"', "INVALID_ARGUMENT");
  const runTimeout = timeoutMs(policy.runTimeout, "runTimeout");
  const idleTimeout = timeoutMs(policy.idleTimeout, "idleTimeout");
  if (runTimeout === undefined && idleTimeout === undefined) return undefined;
  return { runTimeout, idleTimeout, refreshOn };
}

/** The config fields an attempt gets its own of. */
interface AttemptConfig {
  signal?: AbortSignal;
  writer?: (chunk: unknown) => unknown;
  heartbeat?: () => void;
  metadata?: { langgraph_node?: unknown };
}

/** Each node call's own `config.signal` and `config.writer`, before its first attempt replaced them. */
const untimed = new WeakMap<object, Pick<AttemptConfig, "signal" | "writer">>();

/** An abort signal that aborts with the first of `signals` (`AbortSignal.any` where it exists). */
function anySignal(signals: AbortSignal[]): AbortSignal {
  const any = (AbortSignal as unknown as { any?: (s: AbortSignal[]) => AbortSignal }).any;
  if (any !== undefined) return any(signals);
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    s.addEventListener("abort", () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

/**
 * `fn` with each call run under `policy` (see the module comment). The
 * call gets its own `config.signal` (the run's, aborted also when the
 * attempt times out), `config.heartbeat()` and a guarded `config.writer`.
 */
export function withTimeout(fn: UserNode, policy: ResolvedTimeoutPolicy): UserNode {
  const call = fn as unknown as (state: unknown, config: unknown) => unknown;
  // A function, not an arrow: the node keeps the `this` it is called with (pregel/runtime.ts `wrapNode`).
  return function (this: unknown, state: unknown, config: unknown): Promise<unknown> {
    const attempt = config as AttemptConfig;
    let active = true;
    let lastProgress = Date.now();
    const touch = () => {
      lastProgress = Date.now();
    };
    const autoTouch = () => {
      if (policy.refreshOn === "auto") lastProgress = Date.now();
    };
    const timeoutController = new AbortController();
    // The run's signal and writer, as the first attempt found them (a retry gets the same config).
    let base = untimed.get(attempt);
    if (base === undefined) untimed.set(attempt, (base = { signal: attempt.signal, writer: attempt.writer }));
    const { signal: outer, writer } = base;
    const signal = outer === undefined ? timeoutController.signal : anySignal([outer, timeoutController.signal]);
    const own = (key: string, value: unknown) => Object.defineProperty(config, key, { value, enumerable: true, configurable: true, writable: true });
    own("signal", signal);
    own("heartbeat", () => {
      if (policy.idleTimeout !== undefined) touch();
    });
    if (typeof writer === "function") {
      own("writer", (chunk: unknown) => {
        if (!active) return undefined;
        autoTouch();
        return writer(chunk);
      });
    }
    const start = Date.now();
    let outcome: Promise<{ type: "ok"; value: unknown } | { type: "err"; error: unknown }>;
    try {
      outcome = Promise.resolve(call.call(this, state, config)).then(
        (value) => ({ type: "ok" as const, value }),
        (error: unknown) => ({ type: "err" as const, error }),
      );
    } catch (error) {
      outcome = Promise.resolve({ type: "err" as const, error });
    }
    let runTimer: ReturnType<typeof setTimeout> | undefined;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const watchdog = new Promise<{ type: "timeout"; kind: "run" | "idle" }>((resolve) => {
      if (policy.runTimeout !== undefined) runTimer = setTimeout(() => resolve({ type: "timeout", kind: "run" }), policy.runTimeout);
      const idleMs = policy.idleTimeout;
      if (idleMs !== undefined) {
        const checkIdle = () => {
          const remaining = lastProgress + idleMs - Date.now();
          if (remaining <= 0) resolve({ type: "timeout", kind: "idle" });
          else idleTimer = setTimeout(checkIdle, remaining);
        };
        idleTimer = setTimeout(checkIdle, idleMs);
      }
    });
    return Promise.race([outcome, watchdog]).then((first) => {
      clearTimeout(runTimer);
      clearTimeout(idleTimer);
      let settled: typeof first = first;
      if (settled.type !== "timeout") {
        // A node that blocked past its limit finished "in time" for the race: LangGraph.js checks the clock too.
        const now = Date.now();
        if (policy.runTimeout !== undefined && now - start >= policy.runTimeout) settled = { type: "timeout", kind: "run" };
        else if (policy.idleTimeout !== undefined && now - lastProgress >= policy.idleTimeout) settled = { type: "timeout", kind: "idle" };
      }
      if (settled.type === "ok") return settled.value;
      if (settled.type === "err") throw settled.error;
      const elapsed = Date.now() - start;
      active = false;
      timeoutController.abort();
      throw new NodeTimeoutError({
        node: String(attempt.metadata?.langgraph_node),
        elapsed,
        kind: settled.kind,
        runTimeout: policy.runTimeout,
        idleTimeout: policy.idleTimeout,
      });
    });
  } as unknown as UserNode;
}
