// Cancelling a run as LangGraph.js does: the run's `signal`, `stream.cancel()`
// and the graph's `stepTimeout` end the run at once with LangGraph.js's
// `Error("Abort")`, and each node sees `config.signal`, aborted then, or
// when another task fails.
//
// Where this differs from LangGraph.js, and why: the engine runs a
// superstep's tasks to completion before it saves their writes (LangGraph's
// Python loop, which the engine follows, does the same), so a cancelled
// run's promise settles at once but the engine finishes the superstep in
// the background, and the thread takes its next call after that. A task
// that settles after the cancel has nothing saved (core `ErrorKind::Cancelled`),
// as LangGraph.js saves nothing of it; tasks that finished before it keep
// their writes.

import { plainError } from "../errors.js";
import { argumentError, describe, option } from "../internal/args.js";

/** What a node of a cancelled run throws in place of its outcome (code `RUN_CANCELLED`: core/wasm/src/error.rs). */
function cancelled(): Error & { code: string } {
  const e = new Error("the run was cancelled") as Error & { code: string };
  e.code = "RUN_CANCELLED";
  return e;
}

/** A superstep under `stepTimeout`: its timer runs while some of its nodes do. */
interface TimedStep {
  key: string;
  running: number;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * The cancellation of one run: `signal` (the caller's), `cancel()`
 * (`stream.cancel()`) or `stepTimeout` (ms per superstep) abort it.
 *
 * Nodes get one signal per run (LangGraph.js: one per superstep), made
 * on first read (an `AbortController` costs more than an engine superstep)
 * and aborted when the run is cancelled or a task fails. Per run is the
 * same as per superstep because a task's failure ends the run with its
 * superstep, and LangGraph.js's failure of a subgraph's task fails the
 * parent's task too, aborting the parent's superstep; it differs only for a
 * failure a node catches (a subgraph invoked in a `try`), which aborts the
 * rest of the run here.
 */
export class RunCancel {
  /** Set when the run is cancelled (plain data: an `AbortController` per run costs more than a small run). */
  #cancelled: { reason: unknown } | undefined;
  /** What a cancel wakes: the run's promise (`race`). */
  readonly #onCancel: (() => void)[] = [];
  /** The stream's `signal`, made on first read. */
  #run: AbortController | undefined;
  /** The nodes' signal, once a node read it. */
  #nodes: AbortController | undefined;
  /**
   * `config.signal` of every node of the run (pregel/node_config.ts defines it): a getter that makes
   * the signal on first read.
   */
  readonly signalProperty: PropertyDescriptor = { enumerable: true, configurable: true, get: () => this.#signal() };
  /** Whether a task failed (the nodes' signal is then aborted), and the first failure (LangGraph.js throws that one). */
  #failed: { error: unknown } | undefined;
  /** How to abort each task still running (async), until the first failure aborts them. */
  #running: Set<() => void> | undefined;
  /** Failures that came after the first (LangGraph.js does not throw them). */
  #late: WeakSet<object> | undefined;
  readonly #stepTimeout: number | undefined;
  #steps: Map<string, TimedStep> | undefined;
  /** Whether anything can cancel the run: a caller's signal, a step timeout, a stream (its `cancel()`). */
  readonly #cancellable: boolean;
  #unlisten: (() => void) | undefined;

  constructor(signal: AbortSignal | undefined, stepTimeout: number | undefined, streamed = false) {
    this.#stepTimeout = typeof stepTimeout === "number" && stepTimeout > 0 ? stepTimeout : undefined;
    this.#cancellable = streamed || signal !== undefined || this.#stepTimeout !== undefined;
    if (signal === undefined) return;
    if (signal.aborted) this.cancel(signal.reason);
    else {
      const onAbort = () => this.cancel(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#unlisten = () => signal.removeEventListener("abort", onAbort);
    }
  }

  /** Aborted when the run is cancelled. */
  get signal(): AbortSignal {
    if (this.#run === undefined) {
      this.#run = new AbortController();
      if (this.#cancelled !== undefined) this.#run.abort(this.#cancelled.reason);
    }
    return this.#run.signal;
  }

  /** Cancels the run (its promise rejects with `Error("Abort")`; running nodes see their signal aborted). */
  cancel(reason?: unknown): void {
    if (this.#cancelled !== undefined) return;
    this.#cancelled = { reason };
    this.#run?.abort(reason);
    for (const wake of this.#onCancel) wake();
    if (this.#nodes !== undefined && !this.#nodes.signal.aborted) this.#nodes.abort(reason);
  }

  /** The nodes' signal, made on first read: aborted already when a task failed or the run was cancelled. */
  #signal(): AbortSignal {
    if (this.#nodes === undefined) {
      this.#nodes = new AbortController();
      if (this.#cancelled !== undefined) this.#nodes.abort(this.#cancelled.reason);
      else if (this.#failed !== undefined) this.#nodes.abort();
    }
    return this.#nodes.signal;
  }

  /** The timed step of `ns` (the task's namespace; its graph is the part before the last `|`) at `step`. */
  #timed(ns: string, step: number): TimedStep {
    const key = `${ns.slice(0, Math.max(0, ns.lastIndexOf("|")))}@${step}`;
    this.#steps ??= new Map();
    let s = this.#steps.get(key);
    if (s === undefined) {
      s = { key, running: 0, timer: setTimeout(() => this.cancel(plainError("Step timed out", "STEP_TIMEOUT")), this.#stepTimeout) };
      this.#steps.set(key, s);
    }
    s.running += 1;
    return s;
  }

  /**
   * Runs node `call` of step `step` (namespace `ns`), whose `config.signal`
   * is {@link signalProperty}: a node of a cancelled run does not start, and
   * whatever it returns or throws after the cancel is not saved; its
   * failure aborts the other running tasks, as in LangGraph.js.
   */
  node(ns: string, step: number, call: () => unknown): unknown {
    if (this.#cancelled !== undefined) throw cancelled();
    const timed = this.#stepTimeout === undefined ? undefined : this.#timed(ns, step);
    let result: unknown;
    try {
      result = call();
    } catch (e) {
      this.#fail(timed, e);
    }
    if (!isThenable(result)) {
      if (timed !== undefined) this.#settled(timed);
      return result;
    }
    const ok = (v: unknown) => {
      if (timed !== undefined) this.#settled(timed);
      if (this.#cancelled !== undefined) throw cancelled();
      return v;
    };
    // Still running when another task fails: it fails at once with LangGraph.js's AbortError (its
    // runner races each task with the aborted signal), which is saved as its error.
    return new Promise((resolve, reject) => {
      const abort = () => reject(this.#aborted());
      const running = (this.#running ??= new Set());
      running.add(abort);
      result.then(
        (v) => {
          running.delete(abort);
          try {
            resolve(ok(v));
          } catch (e) {
            reject(e);
          }
        },
        (e: unknown) => {
          running.delete(abort);
          try {
            this.#fail(timed, e);
          } catch (x) {
            reject(x);
          }
        },
      );
    });
  }

  /** The error of a task a failure aborted: the aborted signal's reason, a late failure (the run throws the first). */
  #aborted(): unknown {
    const e = new DOMException("This operation was aborted", "AbortError");
    (this.#late ??= new WeakSet()).add(e);
    return e;
  }

  /** A node threw `e`: the first failure aborts the running nodes; a node of a cancelled run has nothing saved. */
  #fail(timed: TimedStep | undefined, e: unknown): never {
    if (timed !== undefined) this.#settled(timed);
    if (this.#cancelled !== undefined) throw cancelled();
    if (!isBubbleUp(e) && !(e !== null && typeof e === "object" && handled.has(e))) {
      if (this.#failed !== undefined) {
        if (e !== null && typeof e === "object") (this.#late ??= new WeakSet()).add(e);
      } else {
        this.#failed = { error: e };
        this.#nodes?.abort();
        const running = this.#running;
        this.#running = undefined;
        for (const abort of running ?? []) abort();
      }
    }
    throw e;
  }

  /** A node of a timed step settled: the timer stops once none of the step's runs. */
  #settled(s: TimedStep): void {
    if (--s.running > 0) return;
    clearTimeout(s.timer);
    this.#steps?.delete(s.key);
  }

  /**
   * The run's promise as the caller sees it: rejected with LangGraph.js's
   * `Error("Abort")` as soon as the run is cancelled; a failure that came
   * after the first (the engine names the first in task order) gives way to
   * the first, which LangGraph.js throws.
   */
  race<T>(run: Promise<T>): Promise<T> {
    const settled = run.catch((e: unknown) => {
      if (e !== null && typeof e === "object" && this.#late?.has(e) && this.#failed !== undefined) throw this.#failed.error;
      throw e;
    });
    // Nothing can cancel the run: its promise is all there is (no listener or timer to drop).
    if (!this.#cancellable) return settled;
    const done = () => this.#dispose();
    run.then(done, done);
    if (this.#cancelled !== undefined) {
      settled.catch(() => {});
      return Promise.reject(plainError("Abort", "RUN_CANCELLED"));
    }
    return new Promise<T>((resolve, reject) => {
      this.#onCancel.push(() => reject(plainError("Abort", "RUN_CANCELLED")));
      settled.then(resolve, reject);
    });
  }

  #dispose(): void {
    this.#unlisten?.();
    for (const s of this.#steps?.values() ?? []) clearTimeout(s.timer);
  }
}

/** Failures an error handler takes (LangGraph.js's runner's `handledExceptions`): they abort no other task. */
const handled = new WeakSet<object>();

/** Marks `e`, thrown by a node with an error handler, as handled; returns it. */
export function handledFailure(e: unknown): unknown {
  if (e !== null && typeof e === "object") handled.add(e);
  return e;
}

/** LangGraph.js's bubble-up errors (interrupts, parent commands): not failures of the step. */
function isBubbleUp(e: unknown): boolean {
  if (e === null || typeof e !== "object") return false;
  const { name, code } = e as { name?: unknown; code?: unknown };
  return name === "GraphInterrupt" || name === "NodeInterrupt" || name === "ParentCommand" || code === "GRAPH_INTERRUPT" || code === "PARENT_COMMAND";
}

function isThenable(v: unknown): v is Promise<unknown> {
  return v !== null && (typeof v === "object" || typeof v === "function") && typeof (v as { then?: unknown }).then === "function";
}

/**
 * `config.signal`, checked: an `AbortSignal` or nothing; with
 * `config.timeout` (milliseconds), aborted after that too, as LangChain's
 * `ensureConfig` makes the run's signal.
 */
export function runSignal(config: unknown): AbortSignal | undefined {
  const signal = option(config, "signal", "config");
  if (signal != null && !(signal instanceof AbortSignal)) throw argumentError(`config.signal must be an AbortSignal, got ${describe(signal)}`);
  const timeout = option(config, "timeout", "config");
  if (timeout == null) return signal ?? undefined;
  if (typeof timeout !== "number" || Number.isNaN(timeout)) throw argumentError(`config.timeout must be a number of milliseconds, got ${describe(timeout)}`);
  if (timeout <= 0) throw plainError("Timeout must be a positive number", "INVALID_ARGUMENT");
  const timer = AbortSignal.timeout(timeout);
  return signal == null ? timer : AbortSignal.any([signal, timer]);
}

/**
 * Gives a stream's iterator LangGraph.js's `cancel(reason)` and `signal`:
 * `cancel` cancels the run and ends the iteration (`next()` is then done).
 */
export function cancellable(iterator: AsyncIterableIterator<unknown>, cancel: RunCancel | undefined): void {
  if (cancel === undefined) return;
  const run = cancel;
  Object.defineProperties(iterator, {
    cancel: {
      value: async (reason?: unknown) => {
        run.cancel(reason);
        await iterator.return?.();
      },
    },
    signal: { get: () => run.signal },
  });
}
