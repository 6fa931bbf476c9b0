// LangGraph.js's `BaseCheckpointSaver` over our store (one of the three
// savers: see engine_saver.ts), exported by `chronograph/langgraph`:
// Chronograph's checkpoint store as a drop-in checkpointer for LangGraph.js
// graphs. `MemorySaver` implements
// `@langchain/langgraph-checkpoint`'s `BaseCheckpointSaver` (an optional peer
// dependency: only this entry needs it) over the engine's `InMemorySaver`
// (core/wasm/src/langgraph_store.rs), which keeps each channel version's
// value once: a `put` stores only the channels of its `newVersions`.
//
// Values are serialized with the saver's `serde` (LangGraph.js's
// `JsonPlusSerializer` by default) exactly as LangGraph.js's own savers do,
// so messages, `Send`s, `DeltaSnapshot`s, `Map`s and the rest come back as
// the same classes; the store keeps the serialized text (metadata as JSON, for `filter`).
import { BaseCheckpointSaver, JsonPlusSerializer, TASKS, getCheckpointId, maxChannelVersion } from "./checkpoint_peer.js";
import type { ChannelVersions, Checkpoint, CheckpointListOptions, CheckpointMetadata } from "@langchain/langgraph-checkpoint";
import type { CheckpointTuple, PendingWrite, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import * as raw from "../wasm/chronograph.js";
import { addressOf, argumentError, missingCheckpointId, missingThreadId } from "./saver_errors.js";

/**
 * LangGraph.js channel versions are integers; the engine's are
 * `<counter>.<salt>`. An integer `n` is stored as `n.<INTEGER_SALT>` (a salt
 * the engine never hands out: it counts up from 0), which orders like `n`
 * and comes back as the number `n` (the store writes it so:
 * core/wasm/src/types/checkpoint_tuple.rs `VersionsAs::Marked`).
 */
const INTEGER_SALT = "18446744073709551615";
const INTEGER_SUFFIX = `.${INTEGER_SALT}`;

/** Marks a value whose serializer type is not `json` (bytes), stored as base64. */
const TYPED = "chronograph_serialized";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The wasm module's memory and a byte view on it (taken on first use: the module is loaded by then). */
let memory: WebAssembly.Memory | undefined;
let memoryBytes = new Uint8Array(0);

/** The memory as bytes; a new view once it grew (the old one is then detached, of length 0). */
function memoryView(): Uint8Array {
  if (memoryBytes.byteLength === 0) {
    memory ??= raw.wasmMemory() as WebAssembly.Memory;
    memoryBytes = new Uint8Array(memory.buffer);
  }
  return memoryBytes;
}

/**
 * Writes `texts` one after the other, as UTF-8, into the store's staging
 * buffer (core/wasm/src/linear_memory.rs) for the store call that follows, and
 * returns their lengths in bytes: `TextEncoder.encodeInto` writes a long
 * value's text ~20x faster than wasm-bindgen's copy of a string argument
 * (a JS loop over its characters). Room for one byte per character is
 * made first; a text that needs more (not ASCII) gets room for three
 * bytes per character, for itself and the texts after it, and is written
 * again.
 */
function stage(texts: string[]): Uint32Array {
  let room = 0;
  for (const text of texts) room += text.length;
  let at = raw.stageText(room);
  let view = memoryView();
  const lengths = new Uint32Array(texts.length);
  let used = 0;
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!;
    let r = encoder.encodeInto(text, view.subarray(at + used, at + room));
    if (r.read < text.length) {
      let rest = 0;
      for (let j = i; j < texts.length; j++) rest += texts[j]!.length;
      room = used + 3 * rest;
      at = raw.stageText(room);
      view = memoryView();
      r = encoder.encodeInto(text, view.subarray(at + used, at + room));
    }
    lengths[i] = r.written;
    used += r.written;
  }
  return lengths;
}

function versionIn(v: unknown, where: string): string {
  if (typeof v === "number") {
    if (!Number.isSafeInteger(v) || v < 0) {
      throw argumentError(`${where}: channel version ${v} is not a non-negative integer`);
    }
    return `${v}${INTEGER_SUFFIX}`;
  }
  if (typeof v === "string") return v;
  throw argumentError(`${where}: channel version must be a number or a string, got ${typeof v}`);
}

function versionsIn(versions: Record<string, unknown> | undefined, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(versions ?? {})) out[k] = versionIn(v, where);
  return out;
}

function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i += 1) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * Whether JSON data holds something `JsonPlusSerializer` revives (an object
 * with an `lc` key): if not, the parsed data is already what it would return.
 */
function needsRevival(v: unknown): boolean {
  if (v === null || typeof v !== "object") return false;
  if (Array.isArray(v)) return v.some(needsRevival);
  if ("lc" in v) return true;
  for (const k in v) if (needsRevival((v as Record<string, unknown>)[k])) return true;
  return false;
}

/**
 * Whether `value` is plain JSON data that `JsonPlusSerializer` writes
 * exactly as `JSON.stringify` does: strings, numbers, booleans, `null`,
 * arrays and plain objects of them, without `undefined` (it writes that as
 * `{lc: 2, type: "undefined"}`), `toJSON` or `lg_name` (a `Send`). Anything
 * else (class instances, `Map`s, messages, cycles, nesting too deep for
 * the stack) is left to the serializer.
 */
function plainJson(value: unknown): boolean {
  try {
    return plain(value);
  } catch {
    return false;
  }
}

function plain(v: unknown): boolean {
  switch (typeof v) {
    case "string":
    case "number":
    case "boolean":
      return true;
    case "object": {
      if (v === null) return true;
      const proto = Object.getPrototypeOf(v);
      if (proto === Array.prototype) {
        const a = v as unknown[];
        for (let i = 0; i < a.length; i++) if (!plain(a[i])) return false;
        return true;
      }
      if (proto !== Object.prototype && proto !== null) return false;
      const o = v as Record<string, unknown>;
      if ("toJSON" in o || "lg_name" in o) return false;
      for (const k in o) if (!plain(o[k])) return false;
      return true;
    }
    default:
      return false;
  }
}

/**
 * A tuple as the store writes it (core/wasm/src/langgraph_store.rs
 * `write_tuple`): already LangGraph.js's `CheckpointTuple` (integer versions
 * as numbers, serialized values parsed in place), but for the revival of
 * what the serializer revives; `channel_values` is `null` when it stays in
 * the page until read.
 */
type StoredTuple = CheckpointTuple & { checkpoint: { channel_values: Record<string, unknown> | null; updated_channels?: string[] } };

/** Where a listed checkpoint's values wait: its page and index, and how many of the page's still wait. */
interface Waiting {
  page: raw.WasmLangGraphStorePage;
  i: number;
  left: { n: number };
}

/**
 * The `channel_values` of listed checkpoints: still in their page
 * (`Waiting`), or read or assigned (the value). Kept beside the object, so
 * that its property stays the same accessor for good: turning it into a
 * data property would change the object's hidden class, and V8 shares
 * those with the checkpoint objects LangGraph.js builds in its own loop.
 */
const listedValues = new WeakMap<object, { waiting?: Waiting; value?: unknown }>();

/** Lets go of a listed checkpoint's place in its page (the page is freed once none waits). */
function release(w: Waiting): void {
  if (--w.left.n === 0) w.page.free();
}

/**
 * `checkpoint.channel_values` of a listed tuple whose values need no
 * revival: parsed from its page on first read, then kept; an assignment
 * replaces it (unread values are dropped). One accessor pair shared by
 * every listed checkpoint, defined when the object is made (an accessor
 * added, never a property redefined).
 */
const lazyValues: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: object) {
    const slot = listedValues.get(this);
    if (slot === undefined) return undefined;
    const w = slot.waiting;
    if (w !== undefined) {
      slot.waiting = undefined;
      const text = w.page.valuesText(w.i);
      release(w);
      slot.value = text === undefined ? undefined : JSON.parse(text);
    }
    return slot.value;
  },
  set(this: object, value: unknown) {
    const slot = listedValues.get(this);
    if (slot === undefined) {
      listedValues.set(this, { value });
      return;
    }
    if (slot.waiting !== undefined) release(slot.waiting);
    slot.waiting = undefined;
    slot.value = value;
  },
};

/** A listed checkpoint whose values wait in `page` at `i`: a new object, keys in LangGraph.js's order. */
function lazyCheckpoint(c: StoredTuple["checkpoint"], waiting: Waiting): Checkpoint {
  // Its `channel_values` is defined next, as the accessor `lazyValues`.
  const out = { v: c.v, id: c.id, ts: c.ts } as Checkpoint & { updated_channels?: string[] };
  Object.defineProperty(out, "channel_values", lazyValues);
  out.channel_versions = c.channel_versions;
  out.versions_seen = c.versions_seen;
  if (c.updated_channels !== undefined) out.updated_channels = c.updated_channels;
  listedValues.set(out, { waiting });
  return out;
}

/**
 * LangGraph.js's `MemorySaver` on Chronograph's store: pass it as a
 * LangGraph.js graph's `checkpointer`, or use it on its own. It implements
 * `BaseCheckpointSaver` (`getTuple`, `list` with `filter`/`before`/`limit`,
 * `put`, `putWrites`, `deleteThread`, `getNextVersion`; `get` and
 * `getDeltaChannelHistory` from the base class) and keeps each channel
 * version's value once, so a long thread stores each message list version
 * one time instead of once per checkpoint. Its integer versions are unique
 * across branches (see `getNextVersion`).
 */
export class MemorySaver extends BaseCheckpointSaver {
  /** The engine's store. */
  readonly #store = new raw.WasmLangGraphStore();
  /** Whether `serde` is LangGraph.js's own (reading can then skip revival for plain data). */
  readonly #plainSerde: boolean;
  /** The highest integer channel version handed out or stored (see `getNextVersion`). */
  #lastVersion = 0;

  constructor(serde?: SerializerProtocol) {
    super(serde);
    this.#plainSerde = this.serde.constructor === JsonPlusSerializer;
  }

  /**
   * The version that follows `current`: one more than the highest integer
   * version this saver has handed out or stored, so never one a branch of
   * any thread already uses. LangGraph.js's default (`current + 1`) gives
   * two branches forked from one checkpoint the same version for different
   * values: harmless where every checkpoint keeps all its values, wrong in a
   * store that keeps each channel version once.
   */
  override getNextVersion(current: number | undefined): number {
    if (typeof current === "string") throw argumentError("getNextVersion(current): this saver's versions are integers");
    const next = Math.max(current ?? 0, this.#lastVersion) + 1;
    this.#lastVersion = next;
    return next;
  }

  /**
   * JSON text of a value, serialized with `serde`. With LangGraph.js's own
   * serializer, plain JSON data (see `plainJson`) is written by
   * `JSON.stringify` alone: the very text `JsonPlusSerializer` writes for
   * it (its replacer changes nothing there), several times faster.
   */
  async #dump(value: unknown): Promise<string> {
    if (this.#plainSerde && plainJson(value)) return JSON.stringify(value);
    const [type, data] = await this.serde.dumpsTyped(value);
    if (type === "json") return typeof data === "string" ? data : decoder.decode(data);
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    return JSON.stringify({ lc: 2, type: TYPED, serde_type: type, data: base64(bytes) });
  }

  /** A value the store kept (parsed in place from its serialized text) back, deserialized with `serde`. */
  async #load(value: unknown): Promise<unknown> {
    if (value !== null && typeof value === "object" && (value as { type?: unknown }).type === TYPED) {
      const typed = value as { serde_type: string; data: string };
      return this.serde.loadsTyped(typed.serde_type, fromBase64(typed.data));
    }
    if (this.#plainSerde && !needsRevival(value)) return value;
    return this.serde.loadsTyped("json", JSON.stringify(value));
  }

  /**
   * A serialized value the store kept, as the store hands it out: parsed
   * in place for LangGraph.js's serializer, its text for another (which
   * gets it back exactly as it wrote it).
   */
  async #loadStored(value: unknown): Promise<unknown> {
    if (this.#plainSerde || typeof value !== "string") return this.#load(value);
    const parsed: unknown = JSON.parse(value);
    if (parsed !== null && typeof parsed === "object" && (parsed as { type?: unknown }).type === TYPED) return this.#load(parsed);
    return this.serde.loadsTyped("json", value);
  }

  /**
   * A stored tuple the serializer must finish (values, metadata and writes
   * through `serde`; a format < 4 checkpoint migrated), in place.
   */
  async #revive(t: StoredTuple): Promise<CheckpointTuple> {
    const c = t.checkpoint;
    const values = c.channel_values ?? {};
    for (const k of Object.keys(values)) values[k] = await this.#loadStored(values[k]);
    c.channel_values = values;
    t.metadata = (await this.#load(t.metadata)) as CheckpointMetadata;
    for (const w of t.pendingWrites ?? []) w[2] = await this.#loadStored(w[2]);
    // Checkpoints before format 4 kept pending sends in the parent's writes.
    if (t.parentConfig !== undefined && c.v < 4) await this.#migratePendingSends(c, t.parentConfig.configurable!);
    return t;
  }

  /** Format < 4: the parent's `__pregel_tasks` writes become the `TASKS` channel (as LangGraph.js's savers do). */
  async #migratePendingSends(checkpoint: Checkpoint, parent: Record<string, unknown>): Promise<void> {
    const text = this.#store.getTuple(
      String(parent.thread_id),
      String(parent.checkpoint_ns ?? ""),
      String(parent.checkpoint_id),
      this.#plainSerde,
    );
    const writes = text === undefined ? [] : ((JSON.parse(text) as StoredTuple).pendingWrites ?? []);
    const sends: unknown[] = [];
    for (const [, channel, value] of writes) if (channel === TASKS) sends.push(await this.#loadStored(value));
    checkpoint.channel_values[TASKS] = sends;
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_versions[TASKS] =
      versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
  }

  /** The addressed checkpoint (`checkpoint_id`), or the namespace's newest; `undefined` when there is none. */
  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const thread_id = config.configurable?.thread_id;
    if (typeof thread_id !== "string") return undefined;
    const checkpoint_ns = config.configurable?.checkpoint_ns ?? "";
    if (typeof checkpoint_ns !== "string") throw argumentError("getTuple(config): checkpoint_ns must be a string");
    const checkpoint_id = getCheckpointId(config) || undefined;
    const text = this.#store.getTuple(thread_id, checkpoint_ns, checkpoint_id, this.#plainSerde);
    if (text === undefined) return undefined;
    const tuple = await this.#revive(JSON.parse(text) as StoredTuple);
    // As LangGraph.js's MemorySaver: a tuple asked for by id carries the config it was asked with.
    if (checkpoint_id !== undefined) tuple.config = config;
    return tuple;
  }

  /**
   * Checkpoints newest first (per namespace): of `config`'s thread (every
   * thread without one), namespace (every one without) and checkpoint;
   * `before` keeps older ones, `filter` those whose metadata has the given
   * values, `limit` caps the count. The whole page crosses from the store
   * at once; with LangGraph.js's serializer, a checkpoint whose data holds
   * nothing to revive gets its `channel_values` parsed on first read.
   */
  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const { before, limit, filter } = options ?? {};
    const c = config?.configurable ?? {};
    const page = this.#store.list(
      typeof c.thread_id === "string" && c.thread_id !== "" ? c.thread_id : undefined,
      typeof c.checkpoint_ns === "string" ? c.checkpoint_ns : undefined,
      typeof c.checkpoint_id === "string" && c.checkpoint_id !== "" ? c.checkpoint_id : undefined,
      typeof before?.configurable?.checkpoint_id === "string" ? before.configurable.checkpoint_id : undefined,
      filter === undefined || filter === null ? undefined : JSON.stringify(filter),
      limit === undefined || limit === null ? undefined : Math.max(0, Math.floor(limit)),
      this.#plainSerde,
    );
    const tuples = JSON.parse(page.takeText()) as StoredTuple[];
    const revive = new Set(page.reviveList());
    const left = { n: 0 };
    for (let i = 0; i < tuples.length; i++) {
      const t = tuples[i]!;
      if (t.checkpoint.channel_values !== null) continue;
      left.n += 1;
      t.checkpoint = lazyCheckpoint(t.checkpoint, { page, i, left });
    }
    if (left.n === 0) page.free();
    for (let i = 0; i < tuples.length; i++) {
      const t = tuples[i]!;
      yield !this.#plainSerde || revive.has(i) ? await this.#revive(t) : t;
    }
  }

  /**
   * Stores `checkpoint` under `config`'s checkpoint (its parent) and the
   * values of the channels in `newVersions`; resolves to its config.
   */
  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const { thread_id, checkpoint_ns } = addressOf(config, "put checkpoint", "put(config, ...)");
    const parent = config.configurable?.checkpoint_id;
    const newVersionsIn = versionsIn(newVersions, "put(config, checkpoint, metadata, newVersions)");
    for (const v of Object.values(newVersions ?? {})) {
      if (typeof v === "number" && v > this.#lastVersion) this.#lastVersion = v;
    }
    const versions_seen: Record<string, Record<string, string>> = {};
    for (const [node, seen] of Object.entries(checkpoint.versions_seen ?? {})) {
      versions_seen[node] = versionsIn(seen, "put(config, checkpoint, ...): checkpoint.versions_seen");
    }
    const head = {
      v: checkpoint.v,
      id: checkpoint.id,
      ts: checkpoint.ts,
      channel_versions: versionsIn(checkpoint.channel_versions, "put(config, checkpoint, ...): checkpoint.channel_versions"),
      versions_seen,
      updated_channels: (checkpoint as { updated_channels?: string[] }).updated_channels ?? null,
      channel_values: {},
    };
    // Staged for the store: the checkpoint's head, its metadata, its new versions, then each new value.
    const texts = [JSON.stringify(head), await this.#dump(metadata), JSON.stringify(newVersionsIn)];
    const channels: string[] = [];
    const channelValues = checkpoint.channel_values as Record<string, unknown> | undefined;
    for (const channel of Object.keys(newVersionsIn)) {
      if (channelValues && Object.prototype.hasOwnProperty.call(channelValues, channel)) {
        channels.push(channel);
        texts.push(await this.#dump(channelValues[channel]));
      }
    }
    this.#store.put(thread_id, checkpoint_ns, typeof parent === "string" && parent !== "" ? parent : undefined, channels, stage(texts));
    return { configurable: { thread_id, checkpoint_ns, checkpoint_id: checkpoint.id } };
  }

  /** Stores a task's writes (`[channel, value][]`) against `config`'s checkpoint. */
  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const thread_id = config.configurable?.thread_id;
    const checkpoint_id = config.configurable?.checkpoint_id;
    if (thread_id === undefined) throw missingThreadId("put writes");
    if (checkpoint_id === undefined) throw missingCheckpointId();
    if (typeof thread_id !== "string" || typeof checkpoint_id !== "string" || typeof taskId !== "string") {
      throw argumentError("putWrites(config, writes, taskId): thread_id, checkpoint_id and taskId must be strings");
    }
    const checkpoint_ns = config.configurable?.checkpoint_ns ?? "";
    const channels: string[] = [];
    const texts: string[] = [];
    for (const [channel, value] of writes) {
      if (typeof channel !== "string") throw argumentError("putWrites(config, writes, taskId): a write's channel must be a string");
      channels.push(channel);
      texts.push(await this.#dump(value));
    }
    this.#store.putWrites(thread_id, checkpoint_ns, checkpoint_id, taskId, taskPath ?? "", channels, stage(texts));
  }

  /** Forgets a thread: its checkpoints, writes and values. */
  async deleteThread(threadId: string): Promise<void> {
    if (typeof threadId !== "string") throw argumentError("deleteThread(threadId): threadId must be a string");
    this.#store.deleteThread(threadId);
  }
}

/** LangGraph.js's other name for {@link MemorySaver}. */
export { MemorySaver as InMemorySaver };
