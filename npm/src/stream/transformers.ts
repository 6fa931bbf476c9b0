// The built-in transformers of `streamEvents(..., { version: "v3" })`, as
// LangGraph.js 1.7 has them (its `src/stream/transformers/`): subgraph
// discovery (a `SubgraphRunStream` per child namespace), the `lifecycle`
// channel (a graph's `running`/`started`, `completed`, `interrupted`,
// `failed`), the root's values log, and chat-model message streams.
import { StreamChannel, hasPrefix, nsKey, type Namespace, type ProtocolEvent, type StreamMux, type StreamTransformer } from "./protocol.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One entry of the `lifecycle` log. */
export interface LifecycleEntry {
  namespace: Namespace;
  timestamp: number;
  event: string;
  graph_name: string;
  cause?: Record<string, unknown>;
  error?: string;
}

/** What `pick` makes of the items of `log` from item `startAt` on (those it maps to `undefined` skipped). */
function picked<T, U>(log: StreamChannel<T>, startAt: number, pick: (item: T) => U | undefined): AsyncIterable<U> {
  return {
    [Symbol.asyncIterator]() {
      const base = log.iterate(startAt);
      return {
        async next(): Promise<IteratorResult<U>> {
          for (;;) {
            const result = await base.next();
            if (result.done) return { value: undefined, done: true };
            const value = pick(result.value);
            if (value !== undefined) return { value, done: false };
          }
        },
      };
    },
  };
}

/** The lifecycle entries at or below `path`, from entry `startAt` on. */
export function filterLifecycleEntries(log: StreamChannel<LifecycleEntry>, path: Namespace, startAt = 0): AsyncIterable<LifecycleEntry> {
  return picked(log, startAt, (entry) => (hasPrefix(entry.namespace, path) ? entry : undefined));
}

/** A namespace's graph name: its last level's node (`"root"` for the root). */
function guessGraphName(ns: Namespace): string {
  if (ns.length === 0) return "root";
  const last = ns[ns.length - 1]!;
  const colon = last.indexOf(":");
  return colon === -1 ? last : last.slice(0, colon);
}

function serializeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

/** A task result's `{ name, id }` (a node's, not `__`-named). */
function taskCompletion(data: unknown): { name: string; id: string } | undefined {
  if (!isRecord(data) || !("result" in data) || typeof data.name !== "string" || typeof data.id !== "string" || data.name.startsWith("__")) return undefined;
  return { name: data.name, id: data.id };
}

/** What a graph's lifecycle entry records. */
interface Tracked {
  namespace: Namespace;
  graphName: string;
  status: string | undefined;
}

interface Completion {
  namespace: Namespace;
  source: { type: "task" } | { type: "node"; parent: Namespace; node: string };
}

/** A lifecycle transformer's state and its steps (LangGraph.js keeps them in the closure of `createLifecycleTransformer`). */
class Lifecycle {
  readonly log = StreamChannel.local<LifecycleEntry>();
  readonly #namespaces = new Map<string, Tracked>();
  readonly #namespaceCause = new Map<string, Record<string, unknown>>();
  readonly #lcByNs = new Map<string, string | undefined>();
  readonly #pendingToolCalls = new Map<string, string>();
  readonly #pendingInterruptIds = new Set<string>();
  readonly #pendingCompletions: Completion[] = [];
  #emitter: { push(ns: Namespace, event: ProtocolEvent): void } | undefined;
  #inSelfEmit = 0;
  #finalized = false;

  #resolveGraphName(ns: Namespace): string {
    if (ns.length === 0) return "root";
    const lc = this.#lcByNs.get(nsKey(ns));
    return typeof lc === "string" && lc.length > 0 ? lc : guessGraphName(ns);
  }

  #recordIdentity(ns: Namespace, data: unknown): void {
    const key = nsKey(ns);
    if (this.#lcByNs.has(key)) return;
    const lc = isRecord(data) && isRecord(data.metadata) ? data.metadata.lc_agent_name : undefined;
    this.#lcByNs.set(key, typeof lc === "string" ? lc : undefined);
  }

  #recordPendingToolCalls(data: unknown): void {
    if (!isRecord(data) || typeof data.id !== "string") return;
    const input = data.input;
    let toolCallId: string | undefined;
    if (isRecord(input) && isRecord(input.tool_call)) {
      if (typeof input.tool_call.id === "string") toolCallId = input.tool_call.id;
    } else if (Array.isArray(input)) {
      for (const call of input) {
        if (isRecord(call) && typeof call.id === "string") {
          toolCallId = call.id;
          break;
        }
      }
    }
    if (toolCallId != null) this.#pendingToolCalls.set(data.id, toolCallId);
  }

  #deriveToolCallCause(ns: Namespace): Record<string, unknown> | undefined {
    if (ns.length === 0) return undefined;
    const lc = this.#lcByNs.get(nsKey(ns));
    if (typeof lc !== "string" || lc.length === 0) return undefined;
    const segment = ns[ns.length - 1]!;
    const colon = segment.indexOf(":");
    if (colon === -1) return undefined;
    const toolCallId = this.#pendingToolCalls.get(segment.slice(colon + 1));
    return typeof toolCallId === "string" && toolCallId.length > 0 ? { type: "toolCall", tool_call_id: toolCallId } : undefined;
  }

  #emit(ns: Namespace, status: string, extras?: { cause?: Record<string, unknown>; error?: string }): void {
    const key = nsKey(ns);
    let current = this.#namespaces.get(key);
    const graphName = current?.graphName ?? this.#resolveGraphName(ns);
    if (current != null && current.status === status && current.graphName === graphName && extras?.error == null) return;
    if (current == null) this.#namespaces.set(key, (current = { namespace: ns, graphName, status }));
    else current.status = status;
    const data = { event: status, graph_name: graphName, ...(extras?.cause != null ? { cause: extras.cause } : {}), ...(extras?.error != null ? { error: extras.error } : {}) };
    const timestamp = Date.now();
    this.log.push({ namespace: ns, timestamp, ...data });
    if (this.#emitter == null) return;
    this.#inSelfEmit += 1;
    try {
      this.#emitter.push(ns, { type: "event", seq: 0, method: "lifecycle", params: { namespace: ns, timestamp, data } });
    } finally {
      this.#inSelfEmit -= 1;
    }
  }

  #trackNamespace(ns: Namespace): void {
    const key = nsKey(ns);
    if (!this.#namespaces.has(key)) this.#namespaces.set(key, { namespace: ns, graphName: this.#resolveGraphName(ns), status: undefined });
  }

  #flushPendingCompletions(): void {
    for (const completion of this.#pendingCompletions.splice(0)) {
      if (this.#namespaces.get(nsKey(completion.namespace))?.status === "started") this.#emit(completion.namespace, "completed");
    }
  }

  #enqueueCompletion(completion: Completion): void {
    const key = nsKey(completion.namespace);
    if (this.#namespaces.get(key)?.status !== "started") return;
    if (this.#pendingCompletions.some((p) => nsKey(p.namespace) === key)) return;
    this.#pendingCompletions.push(completion);
  }

  #removePendingNodeCompletions(parent: Namespace, node: string): void {
    const pending = this.#pendingCompletions;
    for (let i = pending.length - 1; i >= 0; i -= 1) {
      const source = pending[i]!.source;
      if (source.type === "node" && source.node === node && nsKey(source.parent) === nsKey(parent)) pending.splice(i, 1);
    }
  }

  #ensureStarted(ns: Namespace): void {
    for (let length = 1; length <= ns.length; length += 1) {
      const prefix = ns.slice(0, length);
      if (this.#namespaces.has(nsKey(prefix))) continue;
      this.#trackNamespace(prefix);
      const cause = this.#namespaceCause.get(nsKey(prefix)) ?? this.#deriveToolCallCause(prefix);
      this.#emit(prefix, "started", cause != null ? { cause } : undefined);
    }
  }

  #cascadeTerminalStatus(status: string): void {
    for (const rec of this.#namespaces.values()) if (rec.namespace.length > 0 && rec.status === "started") this.#emit(rec.namespace, status);
    this.#emit([], status);
    this.log.close();
  }

  #findStartedChildForNode(parent: Namespace, node: string): Namespace | undefined {
    for (const rec of this.#namespaces.values()) {
      if (rec.namespace.length !== parent.length + 1 || rec.status !== "started" || !hasPrefix(rec.namespace, parent)) continue;
      const last = rec.namespace[rec.namespace.length - 1]!;
      if (last === node || last.startsWith(`${node}:`)) return rec.namespace;
    }
    return undefined;
  }

  /** The run stream registered the transformer: the root is `running`. */
  register(handle: { push(ns: Namespace, event: ProtocolEvent): void }): void {
    this.#emitter = handle;
    this.#trackNamespace([]);
    this.#emit([], "running");
  }

  /** One protocol event of the run: namespaces it shows start, tasks and updates complete them. */
  process(event: ProtocolEvent): boolean {
    const ns = event.params.namespace;
    if (this.#inSelfEmit > 0) return true;
    const completion = event.method === "tasks" ? taskCompletion(event.params.data) : undefined;
    if (completion != null) this.#removePendingNodeCompletions(ns, completion.name);
    else if (event.method === "tasks") {
      this.#recordIdentity(ns, event.params.data);
      this.#recordPendingToolCalls(event.params.data);
    }
    this.#flushPendingCompletions();
    if (event.method === "lifecycle") {
      const data = event.params.data;
      if (isRecord(data) && data.event === "started" && isRecord(data.cause) && typeof data.cause.type === "string") this.#namespaceCause.set(nsKey(ns), data.cause);
      this.#ensureStarted(ns);
      return false;
    }
    this.#ensureStarted(ns);
    if (event.method === "input" && isRecord(event.params.data) && event.params.data.event === "requested" && typeof event.params.data.id === "string") {
      this.#pendingInterruptIds.add(event.params.data.id);
    }
    if (completion != null) {
      const child = [...ns, `${completion.name}:${completion.id}`];
      if (this.#namespaces.get(nsKey(child))?.status === "started") this.#enqueueCompletion({ namespace: child, source: { type: "task" } });
    }
    if (event.method === "updates") {
      const node = event.params.node;
      if (typeof node === "string" && !node.startsWith("__")) {
        const child = this.#findStartedChildForNode(ns, node);
        if (child != null) this.#enqueueCompletion({ namespace: child, source: { type: "node", parent: ns, node } });
      }
    }
    return true;
  }

  /** The run ended: open namespaces take its end status (`interrupted` when an input was requested). */
  finalize(): void {
    if (this.#finalized) return;
    this.#finalized = true;
    this.#flushPendingCompletions();
    this.#cascadeTerminalStatus(this.#pendingInterruptIds.size > 0 ? "interrupted" : "completed");
  }

  /** The run failed: open namespaces and the root are `failed`. */
  fail(err: unknown): void {
    if (this.#finalized) return;
    this.#finalized = true;
    for (const rec of this.#namespaces.values()) if (rec.namespace.length > 0 && rec.status === "started") this.#emit(rec.namespace, "failed");
    this.#emit([], "failed", { error: serializeError(err) });
    this.log.fail(err);
  }
}

/**
 * LangGraph.js's `createLifecycleTransformer`: `lifecycle` events for the
 * root (`running` first) and each subgraph namespace (`started` when it is
 * first seen, `completed` once its task's result or its node's update came,
 * the run's end status for those still open).
 */
export function createLifecycleTransformer(): StreamTransformer<{ _lifecycleLog: StreamChannel<LifecycleEntry>; lifecycle: AsyncIterable<LifecycleEntry> }> {
  const lifecycle = new Lifecycle();
  const log = lifecycle.log;
  return {
    __native: true,
    init: () => ({ _lifecycleLog: log, lifecycle: filterLifecycleEntries(log, [], 0) }),
    onRegister(handle) {
      lifecycle.register(handle);
    },
    process(event) {
      return lifecycle.process(event);
    },
    finalize() {
      lifecycle.finalize();
    },
    fail(err) {
      lifecycle.fail(err);
    },
  };
}

/** LangGraph.js's `createValuesTransformer`: the `values` of namespace `path`, as a log. */
export function createValuesTransformer(path: Namespace): StreamTransformer<{ _valuesLog: StreamChannel<unknown> }> {
  const valuesLog = StreamChannel.local<unknown>();
  return {
    init: () => ({ _valuesLog: valuesLog }),
    process(event) {
      if (event.method === "values" && event.params.namespace.length === path.length && hasPrefix(event.params.namespace, path)) valuesLog.push(event.params.data);
      return true;
    },
    finalize: () => valuesLog.close(),
    fail: (err) => valuesLog.fail(err),
  };
}

/** The child streams (one level below `path`) a discovery log announces, from entry `startAt` on. */
export function filterSubgraphHandles<S>(log: StreamChannel<{ ns: Namespace; stream: unknown }>, path: Namespace, startAt = 0): AsyncIterable<S> {
  const depth = path.length + 1;
  return picked(log, startAt, ({ ns, stream }) => (ns.length === depth && hasPrefix(ns, path) ? (stream as S) : undefined));
}

/** LangGraph.js's `createSubgraphDiscoveryTransformer`: a stream handle per top-level namespace seen. */
export function createSubgraphDiscoveryTransformer(
  mux: StreamMux,
  createStream: (path: Namespace, discoveryStart: number, eventStart: number) => unknown,
): StreamTransformer<{ subgraphs: AsyncIterable<unknown> }> {
  const seen = new Set<string>();
  return {
    __native: true,
    init: () => ({ subgraphs: filterSubgraphHandles(mux._discoveries, [], 0) }),
    process(event) {
      const ns = event.params.namespace;
      if (ns.length === 0) return true;
      const top = ns.slice(0, 1);
      const key = nsKey(top);
      if (seen.has(key)) return true;
      seen.add(key);
      const stream = createStream(top, mux._discoveries.size, mux._events.size);
      mux.register(top, stream as Parameters<StreamMux["register"]>[1]);
      mux._discoveries.push({ ns: top, stream });
      return true;
    },
  };
}

/** `@langchain/core`'s `ChatModelStream` class (its message events as a stream), when it is installed. */
export type ChatModelStreamClass = new (source: AsyncIterable<unknown>) => object;

/** A message event's stream key: its run, else its id. */
function messageStreamKey(data: Record<string, unknown>): string {
  if (typeof data.run_id === "string") return `run:${data.run_id}`;
  if (data.event === "message-start" && typeof data.id === "string") return `message:${data.id}`;
  return "__default__";
}

/**
 * LangGraph.js's `createMessagesTransformer`: a `ChatModelStream` per
 * message (`message-start` … `message-finish`) one level below `path`
 * (from node `node` only, when given). Without `@langchain/core`
 * (`ChatModelStream` undefined), no messages.
 */
export function createMessagesTransformer(path: Namespace, ChatModelStream: ChatModelStreamClass | undefined, node?: string): StreamTransformer<{ messages: AsyncIterable<unknown> }> {
  const log = StreamChannel.local<unknown>();
  const active = new Map<string, { source: StreamChannel<unknown> }>();
  const ignored = new Set<string>();
  return {
    init: () => ({ messages: log.toAsyncIterable() }),
    process(event) {
      if (event.method !== "messages" || ChatModelStream === undefined) return true;
      const ns = event.params.namespace;
      if (!hasPrefix(ns, path) || ns.length !== path.length + 1) return true;
      if (node !== undefined && event.params.node !== node) return true;
      const data = event.params.data as Record<string, unknown>;
      const key = messageStreamKey(data);
      switch (data.event) {
        case "message-start": {
          if (data.role === "tool") {
            ignored.add(key);
            break;
          }
          const source = StreamChannel.local<unknown>();
          const stream = Object.assign(new ChatModelStream(source.toAsyncIterable()), { namespace: ns, node: event.params.node });
          active.set(key, { source });
          source.push(data);
          log.push(stream);
          break;
        }
        case "content-block-start":
        case "content-block-delta":
        case "content-block-finish":
        case "error":
          if (!ignored.has(key)) active.get(key)?.source.push(data);
          break;
        case "message-finish": {
          if (ignored.delete(key)) break;
          const stream = active.get(key);
          if (stream) {
            stream.source.push(data);
            stream.source.close();
            active.delete(key);
          }
          break;
        }
      }
      return true;
    },
    finalize() {
      for (const [key, stream] of active) {
        stream.source.push({ event: "message-finish" });
        stream.source.close();
        active.delete(key);
      }
      ignored.clear();
      log.close();
    },
    fail(err) {
      for (const [key, stream] of active) {
        stream.source.fail(err);
        active.delete(key);
      }
      ignored.clear();
      log.fail(err);
    },
  };
}
