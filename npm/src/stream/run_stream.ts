// `streamEvents(input, { version: "v3" })`: LangGraph.js 1.7's run stream
// (its `src/stream/run-stream.ts` and Pregel's `#streamEventsV3`), over the
// graph's own `stream()` with every mode the protocol maps to a channel
// and `subgraphs: true`. The result is a `GraphRunStream`: an async
// iterable of protocol events (stream/protocol.ts) with projections: `values`
// (each state, and a promise of the last), `output`, `subgraphs` (a
// `SubgraphRunStream` per child namespace), `lifecycle`, `messages`
// (chat-model message streams; `@langchain/core`'s `ChatModelStream`),
// `interrupted`/`interrupts`, `extensions` (the projections of the
// `transformers` given), and `abort()`/`signal`.
//
// What the engine's stream does not give as LangGraph.js's does, made here:
// the `checkpoints` envelopes (`{ id, parent_id, step, source }`, before
// each `values` chunk of their graph) from the `"checkpoints"` chunks, and
// the `messages` events (`message-start`, content blocks, `message-finish`)
// from the messages nodes return (the `"messages"` chunks), as LangGraph.js's
// protocol messages handler emits a node's final messages.
import {
  REJECT_VALUES,
  RESOLVE_VALUES,
  StreamMux,
  pump,
  type InterruptPayload,
  type Namespace,
  type ProtocolEvent,
  type StreamTransformer,
} from "./protocol.js";
import {
  createLifecycleTransformer,
  createMessagesTransformer,
  createSubgraphDiscoveryTransformer,
  createValuesTransformer,
  filterLifecycleEntries,
  filterSubgraphHandles,
  type ChatModelStreamClass,
  type LifecycleEntry,
} from "./transformers.js";
import { StreamChannel } from "./protocol.js";

const EMPTY: AsyncIterable<never> = { [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ value: undefined, done: true as const }) }) };

/** What a run stream's values give: each state as it comes, and (awaited) the last. */
export type ValuesProjection<V> = AsyncIterable<V> & PromiseLike<V | undefined>;

/**
 * LangGraph.js's `GraphRunStream`: the protocol events at or below `path`
 * (`[]`: the whole run), with its projections.
 */
export class GraphRunStream<V = unknown, E extends object = Record<string, unknown>> implements AsyncIterable<ProtocolEvent> {
  /** This stream's namespace (`[]` for the run's root). */
  readonly path: Namespace;
  /** The projections of the run's transformers. */
  readonly extensions: E;
  /** @internal */
  readonly _mux: StreamMux;
  readonly #eventStart: number;
  readonly #discoveryStart: number;
  readonly #abort: AbortController;
  #resolve: ((v: V | undefined) => void) | undefined;
  #reject: ((e: unknown) => void) | undefined;
  readonly #done: Promise<V | undefined>;
  /** @internal Set by {@link createGraphRunStream}. */
  _valuesLog: StreamChannel<unknown> | undefined;
  /** @internal */
  _messages: AsyncIterable<unknown> | undefined;
  /** @internal */
  _lifecycle: AsyncIterable<LifecycleEntry> | undefined;
  /** @internal */
  _subgraphs: AsyncIterable<SubgraphRunStream> | undefined;
  /** @internal The `ChatModelStream` class the messages projections build on (undefined: no `@langchain/core`). */
  _chatModelStream: ChatModelStreamClass | undefined;

  constructor(path: Namespace, mux: StreamMux, discoveryStart = 0, eventStart = 0, extensions?: E, abortController?: AbortController) {
    this.path = path;
    this._mux = mux;
    this.#discoveryStart = discoveryStart;
    this.#eventStart = eventStart;
    this.extensions = extensions ?? ({} as E);
    this.#abort = abortController ?? new AbortController();
    this.#done = new Promise<V | undefined>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.#done.catch(() => {});
  }

  [Symbol.asyncIterator](): AsyncIterator<ProtocolEvent> {
    return this._mux.subscribeEvents(this.path, this.#eventStart);
  }

  /** The child graphs' streams, one level below this one, as they are found. */
  get subgraphs(): AsyncIterable<SubgraphRunStream> {
    return this._subgraphs ?? filterSubgraphHandles<SubgraphRunStream>(this._mux._discoveries, this.path, this.#discoveryStart);
  }

  /** Each state of this stream's graph as it comes; awaited, the last one. */
  get values(): ValuesProjection<V> {
    const log = this._valuesLog;
    const mux = this._mux;
    const path = this.path;
    const start = this.#eventStart;
    const iterable: AsyncIterable<V> = log
      ? (log.toAsyncIterable() as AsyncIterable<V>)
      : {
          [Symbol.asyncIterator]: () => {
            const base = mux.subscribeEvents(path, start);
            return {
              async next(): Promise<IteratorResult<V>> {
                for (;;) {
                  const result = await base.next();
                  if (result.done) return { value: undefined, done: true };
                  if (result.value.method === "values" && result.value.params.namespace.length === path.length) return { value: result.value.params.data as V, done: false };
                }
              },
            };
          },
        };
    const done = this.#done;
    return { [Symbol.asyncIterator]: () => iterable[Symbol.asyncIterator](), then: done.then.bind(done) as PromiseLike<V | undefined>["then"] };
  }

  /** The messages of this stream's graph's nodes, one `ChatModelStream` each (needs `@langchain/core`). */
  get messages(): AsyncIterable<unknown> {
    if (this._messages) return this._messages;
    const transformer = createMessagesTransformer(this.path, this._chatModelStream);
    this._messages = transformer.init().messages;
    this._mux.addTransformer(transformer);
    return this._messages;
  }

  /** The messages of node `node` only. */
  messagesFrom(node: string): AsyncIterable<unknown> {
    const transformer = createMessagesTransformer(this.path, this._chatModelStream, node);
    const projection = transformer.init();
    this._mux.addTransformer(transformer);
    return projection.messages;
  }

  /** The `lifecycle` entries of this stream's graphs. */
  get lifecycle(): AsyncIterable<LifecycleEntry> {
    return this._lifecycle ?? EMPTY;
  }

  /** The graph's last state, once the run ended (rejects with the run's error). */
  get output(): Promise<V | undefined> {
    return this.#done;
  }

  /** Whether the run paused at an interrupt. */
  get interrupted(): boolean {
    return this._mux.interrupted;
  }

  /** The interrupts the run paused at: `{ interruptId, payload }`. */
  get interrupts(): readonly InterruptPayload[] {
    return this._mux.interrupts;
  }

  /** Cancels the run (as its `signal` would). */
  abort(reason?: unknown): void {
    this.#abort.abort(reason);
  }

  /** Aborted by {@link abort}. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** @internal */
  [RESOLVE_VALUES](values: unknown): void {
    this.#resolve?.(values as V | undefined);
    this.#resolve = undefined;
  }

  /** @internal */
  [REJECT_VALUES](err: unknown): void {
    this.#reject?.(err);
    this.#reject = undefined;
  }
}

/** LangGraph.js's `SubgraphRunStream`: a child graph's stream, its `name` and `index` from its namespace's last level. */
export class SubgraphRunStream<V = unknown, E extends object = Record<string, unknown>> extends GraphRunStream<V, E> {
  /** The node that runs it. */
  readonly name: string;
  /** The number after the node's name in its level (`0` for a task id). */
  readonly index: number;

  constructor(path: Namespace, mux: StreamMux, discoveryStart = 0, eventStart = 0, extensions?: E, abortController?: AbortController) {
    super(path, mux, discoveryStart, eventStart, extensions, abortController);
    const last = path[path.length - 1] ?? "";
    const colon = last.lastIndexOf(":");
    if (colon >= 0) {
      this.name = last.slice(0, colon);
      const suffix = last.slice(colon + 1);
      this.index = /^\d+$/.test(suffix) ? Number(suffix) : 0;
    } else {
      this.name = last;
      this.index = 0;
    }
  }
}

/** A transformer factory (`streamEvents(..., { version: "v3", transformers: [() => transformer] })`). */
export type StreamTransformerFactory = () => StreamTransformer;

/**
 * LangGraph.js's `createGraphRunStream`: the run stream of `source` (a
 * graph's `stream(..., { subgraphs: true })` chunks), with the built-in
 * transformers and then `transformers`.
 */
export function createGraphRunStream<V = unknown>(
  source: AsyncIterable<[Namespace, string, unknown]>,
  transformers: StreamTransformerFactory[] = [],
  options?: { abortController?: AbortController; chatModelStream?: ChatModelStreamClass } | AbortController,
): GraphRunStream<V> {
  const { abortController, chatModelStream } = options instanceof AbortController ? { abortController: options, chatModelStream: undefined } : (options ?? {});
  const mux = new StreamMux();
  const lifecycle = createLifecycleTransformer();
  const lifecycleProjection = lifecycle.init();
  const lifecycleLog = lifecycleProjection._lifecycleLog;
  const discovery = createSubgraphDiscoveryTransformer(mux, (path, discoveryStart, eventStart) => {
    const sub = new SubgraphRunStream(path, mux, discoveryStart, eventStart);
    sub._chatModelStream = chatModelStream;
    sub._subgraphs = filterSubgraphHandles<SubgraphRunStream>(mux._discoveries, path, discoveryStart);
    sub._lifecycle = filterLifecycleEntries(lifecycleLog, path, lifecycleLog.size);
    return sub;
  });
  const subgraphs = discovery.init();
  mux.addTransformer(discovery);
  mux.addTransformer(lifecycle);
  const values = createValuesTransformer([]);
  const messages = createMessagesTransformer([], chatModelStream);
  mux.addTransformer(values);
  mux.addTransformer(messages);
  const extensions: Record<string, unknown> = {};
  const native: object[] = [];
  for (const factory of transformers) {
    const transformer = factory();
    mux.addTransformer(transformer);
    const projection = transformer.init();
    if (transformer.__native === true) native.push(projection as object);
    else Object.assign(extensions, projection);
    if (typeof projection === "object" && projection !== null && transformer.__native !== true) mux.wireChannels(projection);
  }
  const root = new GraphRunStream<V>([], mux, 0, 0, extensions, abortController);
  for (const projection of native) Object.assign(root, projection);
  root._chatModelStream = chatModelStream;
  root._valuesLog = values.init()._valuesLog;
  root._messages = messages.init().messages;
  root._lifecycle = lifecycleProjection.lifecycle;
  root._subgraphs = subgraphs.subgraphs as AsyncIterable<SubgraphRunStream>;
  mux.register([], root);
  pump(source, mux).catch(() => {});
  return root;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The modes the engine's stream is run with for v3 (LangGraph.js's but "tools"; the checkpoints' envelopes). */
export const V3_ENGINE_MODES = ["values", "updates", "messages", "custom", "tasks", "__checkpoint_meta"];

/**
 * The v3 source chunks of a graph's `stream(..., { streamMode:
 * V3_ENGINE_MODES, subgraphs: true })` chunks: what checkpoint each state
 * is becomes the `checkpoints` envelope before it, and each `"messages"`
 * chunk (`[message, metadata]`) the protocol's message events.
 */
export async function* protocolSource(chunks: AsyncIterable<[Namespace, string, unknown]>): AsyncGenerator<[Namespace, string, unknown]> {
  // A run id per node task whose messages stream (LangGraph.js's: the node's chain run's).
  const runIds = new Map<string, string>();
  for await (const [ns, mode, payload] of chunks) {
    if (mode === "__checkpoint_meta") yield [ns, "checkpoints", payload];
    else if (mode === "messages") {
      // Under the node's task's namespace, as LangGraph.js's protocol messages handler streams them.
      const metadata = Array.isArray(payload) && isRecord(payload[1]) ? payload[1] : {};
      const taskNs = typeof metadata.langgraph_checkpoint_ns === "string" ? metadata.langgraph_checkpoint_ns : undefined;
      if (taskNs === undefined) continue;
      let runId = runIds.get(taskNs);
      if (runId === undefined) runIds.set(taskNs, (runId = globalThis.crypto.randomUUID()));
      for (const data of messageEvents((payload as unknown[])[0], runId)) yield [taskNs.split("|"), mode, [data, { ...metadata, run_id: runId }]];
    } else yield [ns, mode, payload];
  }
}

/** A content block's start (LangGraph.js's `startBlockFor`). */
function startBlockFor(block: Record<string, unknown>): Record<string, unknown> {
  switch (block.type) {
    case "text":
      return { type: "text", text: "" };
    case "reasoning":
      return { type: "reasoning", reasoning: "" };
    case "tool_call":
    case "tool_call_chunk":
      return { type: "tool_call_chunk", ...(block.id != null ? { id: block.id } : {}), ...(block.name != null ? { name: block.name } : {}), args: "" };
    default:
      return block;
  }
}

/** A content block's delta (LangGraph.js's `deltaFor`). */
function deltaFor(block: Record<string, unknown>, index: number): Record<string, unknown> | undefined {
  switch (block.type) {
    case "text": {
      const text = typeof block.text === "string" ? block.text : "";
      return text.length > 0 ? { event: "content-block-delta", index, delta: { type: "text-delta", text } } : undefined;
    }
    case "reasoning": {
      const reasoning = typeof block.reasoning === "string" ? block.reasoning : "";
      return reasoning.length > 0 ? { event: "content-block-delta", index, delta: { type: "reasoning-delta", reasoning } } : undefined;
    }
    case "tool_call_chunk":
      return { event: "content-block-delta", index, delta: { type: "block-delta", fields: { ...block, type: "tool_call_chunk" } } };
    default:
      return undefined;
  }
}

/**
 * The protocol events of a message a node returned, as LangGraph.js's
 * protocol messages handler emits a final message (one without an id as
 * `run-<run id>`): none for a tool message.
 */
function messageEvents(message: unknown, runId: string): unknown[] {
  if (!isRecord(message)) return [];
  const type = typeof message._getType === "function" ? (message._getType as () => string)() : message.type;
  if (type === "tool") return [];
  const role = type === "human" ? "human" : type === "system" ? "system" : "ai";
  const id = typeof message.id === "string" ? message.id : `run-${runId}`;
  const events: unknown[] = [{ event: "message-start", id, ...(role !== "ai" ? { role } : {}) }];
  const content = message.content;
  const blocks = Array.isArray(content) ? (content as Record<string, unknown>[]) : typeof content === "string" && content.length > 0 ? [{ type: "text", text: content }] : [];
  blocks.forEach((block, offset) => {
    const index = typeof block.index === "number" ? block.index : offset;
    events.push({ event: "content-block-start", index, content: startBlockFor(block) });
    const delta = deltaFor({ ...block, index }, index);
    if (delta != null) events.push(delta);
    events.push({ event: "content-block-finish", index, content: block });
  });
  const usage = isRecord(message.usage_metadata) ? message.usage_metadata : undefined;
  const response = isRecord(message.response_metadata) ? message.response_metadata : undefined;
  events.push({ event: "message-finish", ...(usage != null ? { usage } : {}), ...(response != null ? { responseMetadata: response } : {}) });
  return events;
}

/** A graph as `streamEvents` v3 runs it: its `stream` (chunks `[namespace, mode, chunk]` with `subgraphs: true`). */
export interface V3Source {
  stream(input: unknown, config: Record<string, unknown>): PromiseLike<AsyncIterable<unknown>> | AsyncIterable<unknown>;
}

/** LangGraph.js's `protocolEventsToEventStream`: the run's events as server-sent events. */
function protocolEventsToEventStream(run: AsyncIterable<ProtocolEvent>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        for await (const event of run) {
          const namespace = event.params.namespace;
          const name = namespace.length ? `${event.method}|${namespace.join("|")}` : event.method;
          controller.enqueue(encoder.encode(`event: ${name}\ndata: ${JSON.stringify(event.params.data ?? {})}\n\n`));
        }
      } catch (error) {
        controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify({ message: String(error) })}\n\n`));
      } finally {
        controller.close();
      }
    },
  });
}

/**
 * `streamEvents(input, { version: "v3", transformers?, encoding? })`: the
 * run stream of `graph`'s run (see the file comment). `abort()` and the
 * options' `signal` cancel the run. With `encoding: "text/event-stream"`,
 * the events as server-sent events.
 */
export function streamEventsV3(
  graph: V3Source,
  input: unknown,
  options: Record<string, unknown>,
  chatModelStream: ChatModelStreamClass | undefined,
): GraphRunStream | ReadableStream<Uint8Array> {
  const { version: _version, encoding, transformers, ...rest } = options;
  const abortController = new AbortController();
  const given = rest.signal as AbortSignal | undefined;
  const signal = given === undefined ? abortController.signal : AbortSignal.any([given, abortController.signal]);
  const config = { ...rest, signal, streamMode: V3_ENGINE_MODES, subgraphs: true };
  const chunks: AsyncIterable<[Namespace, string, unknown]> = {
    async *[Symbol.asyncIterator]() {
      const stream = (await graph.stream(input, config)) as AsyncIterable<[Namespace, string, unknown]>;
      yield* protocolSource(stream);
    },
  };
  const run = createGraphRunStream(chunks, (transformers as StreamTransformerFactory[] | undefined) ?? [], { abortController, chatModelStream });
  return encoding === "text/event-stream" ? protocolEventsToEventStream(run) : run;
}
