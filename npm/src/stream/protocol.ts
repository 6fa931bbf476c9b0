// The streaming protocol of `streamEvents(input, { version: "v3" })`, as
// LangGraph.js 1.7 defines it (its `src/stream/`: convert.ts, mux.ts,
// stream-channel.ts): a run's stream chunks (`[namespace, mode, payload]`,
// subgraphs included) become protocol events `{ type: "event", seq, method,
// params: { namespace, timestamp, data } }`, which a mux hands through
// transformers (stream/transformers.ts) to the run's event log, iterated
// by `GraphRunStream` (stream/run_stream.ts).
import { plainError } from "../errors.js";
import { INTERRUPT, isInterrupted } from "../constants.js";

import type { Namespace } from "../pregel/types.js";
export type { Namespace };

/** One protocol event (LangGraph.js's `ProtocolEvent`). */
export interface ProtocolEvent {
  type: "event";
  seq: number;
  /** `values`, `updates`, `messages`, `tasks`, `checkpoints`, `custom`, `lifecycle`, `custom:<channel>`, ... */
  method: string;
  params: {
    namespace: Namespace;
    timestamp: number;
    /** The node, for `updates` and `messages`. */
    node?: string;
    data: unknown;
  };
}

/**
 * The stream modes `streamEvents(..., { version: "v3" })` runs with
 * (LangGraph.js's `STREAM_EVENTS_V3_MODES`; chronograph has no `"tools"`
 * stream: see README.md).
 */
export const STREAM_EVENTS_V3_MODES = ["values", "updates", "messages", "tools", "custom", "tasks"] as const;

/** Whether `payload` is a checkpoint envelope (`{ id, parent_id?, step, source }`), not a full `"checkpoints"` chunk. */
export function isCheckpointEnvelope(payload: unknown): boolean {
  if (payload == null || typeof payload !== "object") return false;
  const p = payload as Record<string, unknown>;
  return typeof p.id === "string" && ("source" in p || typeof p.step === "number") && !("values" in p) && !("config" in p);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A `"messages"` payload's data and node (`[data, metadata]`; the node run's id joins the data). */
function unwrapMessagesPayload(payload: unknown): { data: unknown; node?: string } {
  if (!Array.isArray(payload) || payload.length !== 2) return { data: payload };
  const [data, metadata] = payload as [unknown, unknown];
  if (!isRecord(metadata)) return { data: payload };
  const node = typeof metadata.langgraph_node === "string" ? metadata.langgraph_node : undefined;
  const runId = typeof metadata.run_id === "string" ? metadata.run_id : undefined;
  return { data: runId != null && isRecord(data) ? { ...data, run_id: runId } : data, node };
}

/** An `"updates"` payload as `{ node, values }` (its first entry). */
function convertUpdatesPayload(payload: unknown): { node?: string; values: unknown } {
  if (!isRecord(payload)) return { values: {} };
  const entries = Object.entries(payload);
  if (entries.length === 0) return { values: {} };
  const [node, values] = entries[0]!;
  return { node, values: typeof values === "object" && values !== null ? values : { value: values } };
}

/** LangGraph.js's `convertToProtocolEvent`: the protocol events of one stream chunk. */
export function convertToProtocolEvent({ namespace: ns, mode, payload, seq }: { namespace: Namespace; mode: string; payload: unknown; seq: number }): ProtocolEvent[] {
  const timestamp = Date.now();
  const event = (method: string, data: unknown, node?: string): ProtocolEvent[] => [
    { type: "event", seq, method, params: { namespace: ns, timestamp, ...(node !== undefined ? { node } : {}), data } },
  ];
  switch (mode) {
    case "messages": {
      const { data, node } = unwrapMessagesPayload(payload);
      return event("messages", data, node || undefined);
    }
    case "checkpoints":
      return isCheckpointEnvelope(payload) ? event("checkpoints", payload) : [];
    case "values":
    case "tasks":
      return event(mode, payload);
    case "updates": {
      const data = convertUpdatesPayload(payload);
      return event("updates", data, typeof data.node === "string" ? data.node : undefined);
    }
    case "custom":
      return event("custom", isRecord(payload) && "name" in payload ? payload : { payload });
    default:
      return [];
  }
}

const STREAM_CHANNEL_BRAND = Symbol.for("langgraph.stream_channel");

/**
 * LangGraph.js's `StreamChannel`: an append-only log that any number of
 * readers iterate from any position. `StreamChannel.remote(name)` in a
 * transformer's projection is also forwarded into the run's events as
 * `custom:<name>`.
 */
export class StreamChannel<T = unknown> {
  readonly [STREAM_CHANNEL_BRAND] = true;
  readonly channelName: string | undefined;
  #items: T[] = [];
  #waiters: (() => void)[] = [];
  #done = false;
  #error: unknown;
  #onPush: ((item: T) => void) | undefined;

  constructor(name?: string) {
    this.channelName = name;
  }

  /** A channel read in this process only. */
  static local<T = unknown>(): StreamChannel<T> {
    return new StreamChannel<T>();
  }

  /** A channel also forwarded into the run's events (method `custom:<name>`). */
  static remote<T = unknown>(name: string): StreamChannel<T> {
    return new StreamChannel<T>(name);
  }

  static isInstance(value: unknown): value is StreamChannel {
    return typeof value === "object" && value !== null && STREAM_CHANNEL_BRAND in value;
  }

  push(item: T): void {
    this.#items.push(item);
    this.#wake();
    this.#onPush?.(item);
  }

  /** An iterator from item `startAt` on, ending when the channel closes (throwing when it failed). */
  iterate(startAt = 0): AsyncIterator<T> {
    let cursor = startAt;
    return {
      next: async () => {
        for (;;) {
          if (cursor < this.#items.length) return { value: this.#items[cursor++] as T, done: false };
          if (this.#done) {
            if (this.#error) throw this.#error;
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => this.#waiters.push(resolve));
        }
      },
    };
  }

  toAsyncIterable(startAt = 0): AsyncIterable<T> {
    return { [Symbol.asyncIterator]: () => this.iterate(startAt) };
  }

  get(index: number): T {
    if (index < 0 || index >= this.#items.length) throw plainError(`StreamChannel index ${index} out of bounds (size=${this.#items.length})`, "INVALID_ARGUMENT", RangeError);
    return this.#items[index] as T;
  }

  get size(): number {
    return this.#items.length;
  }

  get done(): boolean {
    return this.#done;
  }

  close(): void {
    this.#done = true;
    this.#wake();
  }

  fail(err: unknown): void {
    this.#error = err;
    this.#done = true;
    this.#wake();
  }

  /** @internal The mux's forwarding of a remote channel. */
  _wire(fn: (item: T) => void): void {
    this.#onPush = fn;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this.iterate();
  }

  #wake(): void {
    for (const w of this.#waiters.splice(0)) w();
  }
}

/** A stream transformer (LangGraph.js's `StreamTransformer`): sees every event; `false` from `process` drops it. */
export interface StreamTransformer<P = unknown> {
  init(): P;
  process(event: ProtocolEvent): boolean;
  finalize?(): void | Promise<void>;
  fail?(err: unknown): void;
  onRegister?(handle: { push(ns: Namespace, event: ProtocolEvent): void }): void;
  /** A built-in transformer: its projection goes onto the run stream itself, not into `extensions`. */
  __native?: boolean;
}

/** Where a stream handle's values promise is settled (GraphRunStream's, stream/run_stream.ts). */
export const RESOLVE_VALUES: unique symbol = Symbol("resolveValues");
export const REJECT_VALUES: unique symbol = Symbol("rejectValues");

/** What the mux settles of a stream handle. */
export interface StreamHandle {
  [RESOLVE_VALUES](values: unknown): void;
  [REJECT_VALUES](err: unknown): void;
}

/** A namespace as a `Map` key. */
export function nsKey(ns: Namespace): string {
  return ns.join("\0");
}

/** Whether `ns` starts with `prefix`, level by level. */
export function hasPrefix(ns: Namespace, prefix: Namespace): boolean {
  if (prefix.length > ns.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (ns[i] !== prefix[i]) return false;
  return true;
}

/** One interrupt of a run (`run.interrupts`). */
export interface InterruptPayload {
  interruptId: string;
  payload: unknown;
}

/**
 * LangGraph.js's `StreamMux`: hands each protocol event through the
 * transformers, then appends it to the event log; settles the stream
 * handles' values when the run ends.
 */
export class StreamMux {
  /** @internal The protocol events in order. */
  readonly _events = StreamChannel.local<ProtocolEvent>();
  /** @internal The subgraph streams found so far. */
  readonly _discoveries = StreamChannel.local<{ ns: Namespace; stream: unknown }>();
  #nextEmitSeq = 0;
  #closed = false;
  #error: unknown;
  #interrupted = false;
  #currentNamespace: Namespace = [];
  readonly #transformers: StreamTransformer[] = [];
  readonly #channels: StreamChannel[] = [];
  readonly #streamMap = new Map<string, StreamHandle>();
  readonly #latestValues = new Map<string, unknown>();
  readonly #interrupts: InterruptPayload[] = [];
  readonly #finalValues: { name: string; promise: Promise<unknown> }[] = [];

  register(path: Namespace, stream: StreamHandle): void {
    this.#streamMap.set(nsKey(path), stream);
  }

  /** Adds a transformer (already `init()`ed), replaying the events so far through it. */
  addTransformer(transformer: StreamTransformer): void {
    const snapshot = this._events.size;
    this.#transformers.push(transformer);
    transformer.onRegister?.({ push: (ns, event) => this.push(ns, event) });
    for (let i = 0; i < snapshot; i += 1) transformer.process(this._events.get(i));
    if (this.#closed) {
      if (this.#error !== undefined) transformer.fail?.(this.#error);
      else void transformer.finalize?.();
    }
  }

  /** Forwards a projection's remote channels into the events (`custom:<name>`); its promises become final `custom` events. */
  wireChannels(projection: object): void {
    for (const [key, value] of Object.entries(projection)) {
      if (StreamChannel.isInstance(value)) {
        this.#channels.push(value);
        if (typeof value.channelName !== "string") continue;
        const method = `custom:${value.channelName}`;
        value._wire((item) => {
          this._events.push({ type: "event", seq: this.#nextEmitSeq++, method, params: { namespace: this.#currentNamespace, timestamp: Date.now(), data: item } });
        });
        continue;
      }
      if (value != null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function") {
        this.#finalValues.push({ name: key, promise: Promise.resolve(value) });
      }
    }
  }

  /** Hands `event` (of namespace `ns`) through the transformers, then appends it unless one dropped it. */
  push(ns: Namespace, event: ProtocolEvent): void {
    if (event.method === "values") this.#latestValues.set(nsKey(ns), event.params.data);
    const outer = this.#currentNamespace;
    this.#currentNamespace = ns;
    let keep = true;
    for (const transformer of this.#transformers) if (!transformer.process(event)) keep = false;
    this.#currentNamespace = outer;
    if (keep) this._events.push({ ...event, seq: this.#nextEmitSeq++ });
  }

  /** The run ended: values promises resolve, transformers finalize, the logs close. */
  close(): void {
    this.#closed = true;
    for (const [key, values] of this.#latestValues.entries()) this.#streamMap.get(key)?.[RESOLVE_VALUES](values);
    const finalizing: Promise<unknown>[] = [];
    for (const transformer of this.#transformers) {
      const result = transformer.finalize?.();
      if (result != null && typeof (result as Promise<void>).then === "function") finalizing.push(result as Promise<void>);
    }
    for (const channel of this.#channels) channel.close();
    if (this.#finalValues.length === 0 && finalizing.length === 0) {
      this._events.close();
      this._discoveries.close();
    } else {
      void Promise.allSettled([
        ...finalizing,
        ...this.#finalValues.map(async ({ name, promise }) => {
          try {
            const resolved = await promise;
            if (!this._events.done) {
              this._events.push({ type: "event", seq: this.#nextEmitSeq++, method: "custom", params: { namespace: [], timestamp: Date.now(), data: { name, payload: resolved } } });
            }
          } catch {
            // A projection that failed has no final value.
          }
        }),
      ]).then(() => {
        this._events.close();
        this._discoveries.close();
      });
    }
    for (const stream of this.#streamMap.values()) stream[RESOLVE_VALUES](undefined);
  }

  /** The run failed: everything fails with `err`. */
  fail(err: unknown): void {
    this.#closed = true;
    this.#error = err;
    for (const transformer of this.#transformers) transformer.fail?.(err);
    for (const channel of this.#channels) channel.fail(err);
    this._events.fail(err);
    this._discoveries.fail(err);
    for (const stream of this.#streamMap.values()) stream[REJECT_VALUES](err);
  }

  markInterrupted(interrupts: InterruptPayload[]): void {
    this.#interrupted = true;
    this.#interrupts.push(...interrupts);
  }

  get interrupted(): boolean {
    return this.#interrupted;
  }

  get interrupts(): readonly InterruptPayload[] {
    return this.#interrupts;
  }

  /** The events at or below namespace `path`, from event `startAt` on. */
  subscribeEvents(path: Namespace, startAt = 0): AsyncIterator<ProtocolEvent> {
    const base = this._events.iterate(startAt);
    return {
      async next() {
        for (;;) {
          const result = await base.next();
          if (result.done || hasPrefix(result.value.params.namespace, path)) return result;
        }
      },
    };
  }
}

/** Drains a run's `[namespace, mode, payload]` chunks into `mux` (LangGraph.js's `pump`). */
export async function pump(source: AsyncIterable<[Namespace, string, unknown]>, mux: StreamMux): Promise<void> {
  let seq = 0;
  try {
    for await (const [ns, mode, payload] of source) {
      if (mode === "values" && isInterrupted(payload)) {
        const interrupts = payload[INTERRUPT];
        mux.markInterrupted(interrupts.map((i) => ({ interruptId: i.id ?? "", payload: i.value })));
      }
      const events = convertToProtocolEvent({ namespace: ns, mode, payload, seq });
      seq += events.length;
      for (const event of events) mux.push(ns, event);
    }
  } catch (err) {
    mux.fail(err);
    return;
  }
  mux.close();
}
