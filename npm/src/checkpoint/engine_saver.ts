// The engine's saver, one of the package's three savers (by role):
// - this file: the main entry's `MemorySaver` / `InMemorySaver`, LangGraph.js's
//   in-memory checkpointer over the engine's own saver (core/wasm/src/saver.rs),
//   which a compiled graph's engine runs on;
// - saver_bridge.ts: the bridge to LangGraph.js savers (`SaverBridge`), the
//   engine's saver in front of any LangGraph.js checkpointer;
// - langgraph_saver.ts: LangGraph.js's `BaseCheckpointSaver` over our store
//   (`chronograph/langgraph`'s `MemorySaver`), for LangGraph.js's own graphs.
// Its writes of a thread take turns with that thread's runs and updates
// (pregel/runtime.ts `onThread`).
import * as raw from "../wasm/chronograph.js";
import { hide } from "../internal/args.js";
import { GraphValueError, withCode } from "../errors.js";
import { RAW } from "../internal/raw.js";
import { listed } from "../internal/lazy.js";
import { MAX_ITEMS, MessageChannels, isMessageInstance, loadMessageClasses, messageClasses, reviveWrittenIfAny, toEngine } from "../langchain/message_classes.js";
import { checkpointPeer } from "../internal/peers.js";
import { laneOptions, onThread, threadKey } from "../pregel/runtime.js";
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointConfig,
  CheckpointMetadata,
  CheckpointTuple,
  Json,
  ListOptions,
  RunnableConfig,
  ThreadExport,
} from "../pregel/types.js";

/** The methods LangGraph.js's loop calls on its checkpointer. */
const SAVER_METHODS = ["getTuple", "list", "put", "putWrites", "getNextVersion"];

/** Where a `MemorySaver` subclass that overrides saver methods keeps LangGraph.js's own `MemorySaver` (see the class). */
const LANGGRAPH_SAVER: unique symbol = Symbol("chronograph.langgraphSaver");

/** LangGraph.js's `MemorySaver` as far as the package calls it. */
interface LangGraphMemorySaver {
  storage: unknown;
  writes: unknown;
  serde: unknown;
  getTuple(config: unknown): Promise<unknown>;
  list(config: unknown, options?: unknown): AsyncIterable<unknown>;
  put(config: unknown, checkpoint: unknown, metadata: unknown, newVersions: unknown): Promise<unknown>;
  putWrites(config: unknown, writes: unknown, taskId: string, taskPath?: string): Promise<void>;
  deleteThread(threadId: string): Promise<void>;
}

/**
 * The channels of a checkpoint given to `put` that hold message instances.
 * Never throws: a getter or Proxy trap that throws, or an array past the
 * engine's limit, is left to the bindings, which read the value again and
 * name what is wrong (with a code).
 */
function messageChannels(checkpoint: unknown): string[] {
  const messages: string[] = [];
  try {
    const values = (checkpoint as { channel_values?: unknown } | null)?.channel_values;
    if (values === null || typeof values !== "object") return messages;
    for (const [key, v] of Object.entries(values)) {
      if (Array.isArray(v) && v.length > 0 && v.length <= MAX_ITEMS && v.every(isMessageInstance)) messages.push(key);
    }
  } catch {
    return [];
  }
  return messages;
}

/** Whether a subclass's prototype chain (below `MemorySaver.prototype`) defines one of {@link SAVER_METHODS}. */
function overridesSaverMethods(proto: object | null): boolean {
  for (let p = proto; p !== null && p !== MemorySaver.prototype; p = Object.getPrototypeOf(p) as object | null) {
    if (SAVER_METHODS.some((m) => Object.prototype.hasOwnProperty.call(p, m))) return true;
  }
  return false;
}

/**
 * LangGraph.js's in-memory checkpointer. Share one between graphs, or use
 * it alone: `getTuple`, `list`, `put`, `putWrites`, `deleteThread`, and
 * `exportThread` / `importThread` (format `chronograph.thread.v1`). Its
 * writes of a thread wait for the runs and updates of that thread in
 * flight, like any run or update does.
 *
 * A subclass that overrides one of the methods LangGraph.js's loop calls
 * (`getTuple`, `list`, `put`, `putWrites`, `getNextVersion`) is a
 * LangGraph.js checkpointer, as it is in LangGraph.js: graphs call its
 * methods (through the engine's store in front of it, checkpoint/saver_bridge.ts), and its
 * own methods are those of `@langchain/langgraph-checkpoint`'s
 * `MemorySaver` (an optional peer dependency, required then), with its
 * `storage`, `writes` and `serde`, which the overrides may use.
 */
export class MemorySaver {
  /** @internal */
  declare readonly [RAW]: raw.WasmMemorySaver;
  /** @internal LangGraph.js's `MemorySaver` behind a subclass that overrides saver methods. */
  declare readonly [LANGGRAPH_SAVER]: LangGraphMemorySaver | undefined;

  constructor() {
    // LangGraph.js's integer channel versions (the engine keeps its salts to itself).
    hide(this, RAW, new raw.WasmMemorySaver("integer"));
    if (new.target === MemorySaver || !overridesSaverMethods(new.target.prototype as object)) return;
    const Peer = checkpointPeer?.MemorySaver as (new () => LangGraphMemorySaver) | undefined;
    if (Peer === undefined) {
      throw withCode(
        new GraphValueError(
          `${new.target.name || "a MemorySaver subclass"} overrides a checkpointer method (${SAVER_METHODS.join(", ")}): it is then a LangGraph.js checkpointer, whose MemorySaver storage needs @langchain/langgraph-checkpoint (install it)`,
        ),
        "MISSING_PEER",
      );
    }
    const inner = new Peer();
    hide(this, LANGGRAPH_SAVER, inner);
    // LangGraph.js's fields, shared with the inner saver (an override reads and writes them).
    for (const field of ["storage", "writes", "serde"] as const) {
      Object.defineProperty(this, field, {
        configurable: true,
        enumerable: true,
        get: () => inner[field],
        set: (v: unknown) => {
          inner[field] = v;
        },
      });
    }
  }

  /**
   * The addressed checkpoint, or the thread's newest; `undefined` when there
   * is none. As LangGraph.js's `MemorySaver`: a tuple asked for by id
   * carries the very config it was asked with; the newest carries
   * `{ thread_id, checkpoint_id, checkpoint_ns }`.
   */
  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const inner = this[LANGGRAPH_SAVER];
    if (inner !== undefined) return inner.getTuple(config) as Promise<CheckpointTuple | undefined>;
    await loadMessageClasses();
    const tuple = this[RAW].getTuple(config) as RawTuple | undefined;
    if (tuple === undefined) return tuple;
    const messages = takeMessageChannels(tuple);
    if (messages !== undefined) tuple.checkpoint.channel_values = messages.values(tuple.checkpoint.channel_values, false);
    revivePendingWrites(tuple);
    if ((config.configurable as { checkpoint_id?: unknown } | undefined)?.checkpoint_id) tuple.config = config as CheckpointConfig;
    else {
      const { thread_id, checkpoint_ns, checkpoint_id } = tuple.config.configurable;
      tuple.config = { configurable: { thread_id, checkpoint_id, checkpoint_ns } };
    }
    return tuple;
  }

  /** The addressed checkpoint (or the thread's newest) itself, without its metadata and writes; `undefined` when there is none (LangGraph.js's `BaseCheckpointSaver.get`). */
  async get(config: RunnableConfig): Promise<Checkpoint | undefined> {
    return (await this.getTuple(config))?.checkpoint;
  }

  /** Checkpoints newest first: `{ limit, before, filter }`; without a `thread_id`, every thread. */
  async *list(config?: RunnableConfig, options?: ListOptions): AsyncIterableIterator<CheckpointTuple> {
    const inner = this[LANGGRAPH_SAVER];
    if (inner !== undefined) return yield* inner.list(config ?? {}, options) as AsyncIterable<CheckpointTuple>;
    await loadMessageClasses();
    const items = listed<RawTuple>(this[RAW].list(config, options), "channel_values", (t) => t.checkpoint, true, reviveListed);
    for (const t of items) {
      const messages = takeMessageChannels(t);
      if (messages !== undefined) listedMessages.set(t.checkpoint, messages);
      revivePendingWrites(t);
    }
    yield* items;
  }

  /**
   * Stores `checkpoint` under `config`'s checkpoint (its parent); resolves
   * to its config. The values of the channels in `newVersions`, and of any
   * channel whose version is not its parent's, are kept; the others are
   * the parent's. Like every write of a thread, it waits for the runs and
   * updates of the thread in flight.
   */
  put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: Omit<CheckpointMetadata, "thread_id"> & { thread_id?: string },
    newVersions?: ChannelVersions,
  ): Promise<CheckpointConfig> {
    const inner = this[LANGGRAPH_SAVER];
    if (inner !== undefined) return inner.put(config, checkpoint, metadata, newVersions ?? {}) as Promise<CheckpointConfig>;
    // Message instances go in as the engine keeps messages; the channels holding them come back as instances.
    const messages = messageChannels(checkpoint);
    return this.#write(laneOptions(config).thread, "put(config, checkpoint, metadata, newVersions)", () =>
      this[RAW].put(config, toEngine(checkpoint), metadata, newVersions ?? {}, messages),
    );
  }

  /** Stores a task's writes (`[channel, value][]`) against `config`'s checkpoint. */
  putWrites(config: RunnableConfig, writes: [string, Json][], taskId: string, taskPath?: string): Promise<void> {
    const inner = this[LANGGRAPH_SAVER];
    if (inner !== undefined) return inner.putWrites(config, writes, taskId, taskPath);
    return this.#write(laneOptions(config).thread, "putWrites(config, writes, taskId)", () => {
      this[RAW].putWrites(config, writes, taskId, "");
    });
  }

  /** Forgets a thread. */
  deleteThread(threadId: string): Promise<void> {
    const inner = this[LANGGRAPH_SAVER];
    if (inner !== undefined) return inner.deleteThread(threadId);
    return this.#write(threadKey(threadId), "deleteThread(threadId)", () => {
      this[RAW].deleteThread(threadId);
    });
  }

  /** Everything stored for a thread, branches and pending writes included; `undefined` if unknown. */
  async exportThread(threadId: string): Promise<ThreadExport | undefined> {
    this.#ownStorage("exportThread(threadId)");
    return this[RAW].exportThread(threadId);
  }

  /** Loads a thread written by `exportThread`, replacing a thread of the same id. */
  importThread(data: ThreadExport): Promise<void> {
    try {
      this.#ownStorage("importThread(data)");
    } catch (e) {
      return Promise.reject(e);
    }
    let thread: string | undefined;
    try {
      thread = threadKey((data as { thread_id?: unknown } | null)?.thread_id);
    } catch {
      thread = undefined;
    }
    return this.#write(thread, "importThread(data)", () => {
      this[RAW].importThread(data);
    });
  }

  /** Refuses `what` on a subclass whose storage is LangGraph.js's (the engine's thread format is not there). */
  #ownStorage(what: string): void {
    if (this[LANGGRAPH_SAVER] === undefined) return;
    throw withCode(
      new GraphValueError(`${what}: this MemorySaver subclass overrides checkpointer methods and keeps LangGraph.js's storage, which has no chronograph.thread.v1 export`),
      "UNSUPPORTED",
    );
  }

  /** Runs the synchronous write `op` on `thread`'s queue (`onThread`); resolves to its result. */
  #write<T>(thread: string | undefined, what: string, op: () => T): Promise<T> {
    return onThread(this, thread, undefined, what, async () => op());
  }

  /** Ids of every stored thread, sorted. */
  async threadIds(): Promise<string[]> {
    const inner = this[LANGGRAPH_SAVER];
    if (inner !== undefined) return Object.keys(inner.storage as object).sort();
    return this[RAW].threadIds();
  }
}

/** A tuple as the bindings hand it out: with the names of its message channels, if any (core/wasm/src/tuple.rs). */
type RawTuple = CheckpointTuple & { messageChannels?: string[] };

/** The message channels of each listed checkpoint that has any (read when its lazy values are). */
const listedMessages = new WeakMap<object, MessageChannels>();

/** One `MessageChannels` per set of names (they are a graph's: few). */
const messageChannelsByNames = new Map<string, MessageChannels>();

/**
 * Takes the bindings' `messageChannels` off a tuple (the last key: V8
 * deletes it cheaply) and returns them, when `@langchain/core` is there to
 * make the messages instances.
 */
function takeMessageChannels(t: RawTuple): MessageChannels | undefined {
  const names = t.messageChannels;
  if (names === undefined) return undefined;
  delete t.messageChannels;
  if (!messageClasses()) return undefined;
  const key = names.join("\u0000");
  let channels = messageChannelsByNames.get(key);
  if (channels === undefined) messageChannelsByNames.set(key, (channels = new MessageChannels(names)));
  return channels;
}

/** A listed checkpoint's values, its message channels as instances (as LangGraph.js's savers revive them). */
function reviveListed(values: unknown, checkpoint: object): unknown {
  return listedMessages.get(checkpoint)?.values(values, false) ?? values;
}

/** What tasks wrote, with the message instances they wrote (LangGraph.js's savers keep them). */
function revivePendingWrites(t: CheckpointTuple): void {
  for (const w of t.pendingWrites) w[2] = reviveWrittenIfAny(w[2]);
}

/** LangGraph.js's other name for {@link MemorySaver}. */
export { MemorySaver as InMemorySaver };
