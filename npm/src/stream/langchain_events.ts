// `streamEvents` with `version: "v1"` or `"v2"`: LangChain's event stream
// (`on_chain_start`, `on_chain_stream`, `on_chain_end`, `on_custom_event`,
// and the events of whatever the nodes call), made by `@langchain/core`'s
// own `Runnable.streamEvents` over the graph's `stream()`, as LangGraph.js's
// Pregel makes it: the run's callbacks (langchain/task_runs.ts) report the graph's
// run, each task's and each subgraph's to LangChain's
// `EventStreamCallbackHandler`, and the stream's chunks are the root run's
// `on_chain_stream`. `@langchain/core` is an optional peer dependency:
// without it the stream fails with a `GraphValueError` of code
// `MISSING_LANGCHAIN_CORE`. The result is LangGraph.js's
// `IterableReadableStreamWithAbortSignal`: a `ReadableStream` and an async
// iterator, whose `cancel()` (and breaking out of a `for await`) cancels
// the run, as its `signal` does.
import { GraphValueError, withCode, plainError } from "../errors.js";
import { loadCallbacks, type CoreCallbacks } from "../langchain/core_callbacks.js";

/** What `streamEvents` runs the events of: the graph's `stream` and its name. */
export interface EventSource {
  stream(input: unknown, config: unknown): unknown;
  getName(): string;
}

/** The error of `streamEvents` without `@langchain/core`. */
export function missingCore(what: string): GraphValueError {
  return withCode(
    new GraphValueError(`${what} needs @langchain/core, an optional peer dependency of chronograph: install it (npm install @langchain/core)`),
    "MISSING_LANGCHAIN_CORE",
  );
}

/**
 * A `ReadableStream` of what `open(signal)` streams (once it resolved),
 * iterable with `for await`; `cancel()` aborts `signal` (LangGraph.js's
 * `IterableReadableStreamWithAbortSignal`).
 */
export class EventStream<T> extends ReadableStream<T> implements AsyncIterableIterator<T> {
  readonly #abort: AbortController;
  #reader: ReadableStreamDefaultReader<T> | undefined;
  #inner: ReadableStreamDefaultReader<T> | undefined;

  constructor(open: (signal: AbortSignal) => Promise<ReadableStream<T>>) {
    const abort = new AbortController();
    let inner: ReadableStreamDefaultReader<T> | undefined;
    // Once cancelled, what the inner stream still settles with goes nowhere.
    let cancelled = false;
    super({
      start: async (controller) => {
        let source: ReadableStream<T>;
        try {
          source = await open(abort.signal);
        } catch (e) {
          if (!cancelled) controller.error(e);
          return;
        }
        if (cancelled) return void source.cancel();
        inner = source.getReader();
        this.#inner = inner;
        const reader = inner;
        const pump = (): Promise<void> =>
          reader.read().then(
            ({ done, value }) => {
              if (cancelled) return;
              if (done) return controller.close();
              controller.enqueue(value);
              return pump();
            },
            (e: unknown) => {
              if (!cancelled) controller.error(e);
            },
          );
        void pump();
      },
      cancel: (reason) => {
        cancelled = true;
        abort.abort(reason);
        return inner?.cancel(reason);
      },
    });
    this.#abort = abort;
  }

  /** Aborted when the stream is cancelled. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Cancels the run: its nodes see their signal aborted, the stream ends. */
  override async cancel(reason?: unknown): Promise<void> {
    this.#abort.abort(reason);
    this.#inner?.releaseLock();
  }

  async next(): Promise<IteratorResult<T>> {
    this.#reader ??= this.getReader();
    try {
      const result = await this.#reader.read();
      if (!result.done) return { done: false, value: result.value };
      this.#reader.releaseLock();
      return { done: true, value: undefined };
    } catch (e) {
      this.#reader.releaseLock();
      throw e;
    }
  }

  async return(): Promise<IteratorResult<T>> {
    this.#reader ??= this.getReader();
    if (this.locked) {
      const cancelled = this.#reader.cancel();
      this.#reader.releaseLock();
      await cancelled;
    }
    return { done: true, value: undefined };
  }

  async throw(e?: unknown): Promise<IteratorResult<T>> {
    await this.return();
    throw e;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** The `Runnable` `streamEvents` runs on, per source: its `stream` is the graph's. */
const hosts = new WeakMap<object, object>();

function hostOf(core: CoreCallbacks, source: EventSource): object {
  let host = hosts.get(source);
  if (host === undefined) {
    host = Object.create(core.Runnable.prototype as object) as object;
    Object.assign(host, { lc_serializable: false, stream: (input: unknown, config: unknown) => source.stream(input, config), getName: () => source.getName() });
    hosts.set(source, host);
  }
  return host;
}

/** Options of `streamEvents` (LangChain's `version`, `encoding`, and a run config). */
type EventsOptions = Record<string, unknown> & { version?: unknown; signal?: AbortSignal };

/** `streamEvents(input, options, streamOptions)` with version `"v1"` or `"v2"` (see the file comment). */
export function streamEvents(source: EventSource, input: unknown, options: EventsOptions, streamOptions: unknown): EventStream<unknown> {
  if (options.version !== "v1" && options.version !== "v2") {
    throw plainError(`Only versions "v1" and "v2" of the schema are currently supported.`, "INVALID_ARGUMENT");
  }
  return new EventStream<unknown>(async (signal) => {
    const core = await loadCallbacks();
    if (core === null) throw missingCore("streamEvents");
    const config = { ...options, signal: options.signal === undefined ? signal : AbortSignal.any([options.signal, signal]) };
    const streamEventsOf = (core.Runnable.prototype as { streamEvents(input: unknown, options: unknown, streamOptions: unknown): ReadableStream<unknown> }).streamEvents;
    return streamEventsOf.call(hostOf(core, source), input, config, streamOptions);
  });
}
