// The bridge to LangGraph.js savers (one of the three savers: see
// engine_saver.ts): Chronograph's engine on any LangGraph.js checkpointer
// (PostgresSaver, SqliteSaver, ... : anything with BaseCheckpointSaver's
// async methods).
//
// The engine runs synchronously on its own in-memory store; the saver is
// asynchronous. `SaverBridge` joins them read-through / write-behind: before
// an operation on a thread it loads the thread from the saver into the
// in-memory store (once per thread and process), the engine runs at full
// speed, and after the operation every checkpoint and write the saver does
// not have yet is put to it, parents before children, each checkpoint before
// the writes against it, and the operation resolves only once the saver has
// them all. A process killed between two operations loses nothing.
//
// Data goes in the saver the way LangGraph.js writes it, so either engine
// continues a thread the other wrote: messages as LangChain message classes
// (the saver's serializer writes them as LangChain's serialized form),
// channel versions as the saver's own kind (integers for LangGraph.js's
// savers), metadata and writes as they are.
import { RAW, THREAD_STORE, type ThreadAccess, type ThreadStore } from "../internal/raw.js";
import { MemorySaver } from "./engine_saver.js";
import { toEngine, toLangGraph } from "./records.js";
import type { Json, ThreadExport } from "../pregel/types.js";

/** A LangGraph.js `RunnableConfig`, as far as savers read it. */
interface SaverConfig {
  configurable?: { thread_id?: string; checkpoint_ns?: string; checkpoint_id?: string; [key: string]: unknown };
}

/** A LangGraph.js checkpoint (format 4). */
interface LangGraphCheckpoint {
  v: number;
  id: string;
  ts: string;
  channel_values: Record<string, unknown>;
  channel_versions: Record<string, number | string>;
  versions_seen: Record<string, Record<string, number | string>>;
}

/** A LangGraph.js `CheckpointTuple`. */
interface LangGraphTuple {
  config: SaverConfig;
  checkpoint: LangGraphCheckpoint;
  metadata?: object;
  parentConfig?: SaverConfig;
  pendingWrites?: [string, string, unknown][];
}

/**
 * What Chronograph needs of a LangGraph.js checkpointer: the async methods
 * of `@langchain/langgraph-checkpoint`'s `BaseCheckpointSaver`.
 */
export interface AsyncCheckpointSaver {
  getTuple(config: SaverConfig): Promise<LangGraphTuple | undefined>;
  list(config: SaverConfig, options?: { limit?: number; before?: SaverConfig; filter?: Record<string, unknown> }): AsyncIterable<LangGraphTuple>;
  put(config: SaverConfig, checkpoint: LangGraphCheckpoint, metadata: object, newVersions: Record<string, number | string>): Promise<SaverConfig>;
  putWrites(config: SaverConfig, writes: [string, unknown][], taskId: string, taskPath?: string): Promise<void>;
  deleteThread?(threadId: string): Promise<void>;
  getNextVersion?(current: number | string | undefined): number | string;
}

/** Whether `v` looks like a LangGraph.js checkpointer. */
export function isAsyncSaver(v: unknown): v is AsyncCheckpointSaver {
  if (v === null || typeof v !== "object") return false;
  const s = v as Record<string, unknown>;
  try {
    return ["getTuple", "list", "put", "putWrites"].every((m) => typeof s[m] === "function");
  } catch {
    // A revoked Proxy or a throwing getter is no saver (compile then names the option).
    return false;
  }
}

/** LangGraph's control channels and their fixed write slots (WRITES_IDX_MAP). */
const CONTROL_IDX: Record<string, number> = { __error__: -1, __scheduled__: -2, __interrupt__: -3, __resume__: -4 };

/**
 * Integer versions (LangGraph.js's) carry the engine's `<counter>.<salt>` as
 * `counter * 2^20 + salt mod 2^20`: ordered by counter as the engine orders
 * them, and distinct between branches, whose versions share a counter (a
 * saver such as PostgresSaver keys values by channel and version).
 */
const SALT_BITS = 2 ** 20;

function engineVersion(v: number | string): string {
  if (typeof v === "number") {
    const counter = Math.floor(v / SALT_BITS);
    return `${counter}.${v - counter * SALT_BITS}`;
  }
  return v;
}

function saverVersion(v: string, kind: "number" | "string"): number | string {
  if (kind === "string") return v;
  const dot = v.indexOf(".");
  const counter = Number(v.slice(0, dot));
  const salt = Number(BigInt(v.slice(dot + 1)) % BigInt(SALT_BITS));
  return counter * SALT_BITS + salt;
}

function mapVersions<T extends number | string, U>(m: Record<string, T>, f: (v: T) => U): Record<string, U> {
  const out: Record<string, U> = {};
  for (const [k, v] of Object.entries(m ?? {})) out[k] = f(v);
  return out;
}

function mapSeen<T extends number | string, U>(
  m: Record<string, Record<string, T>>,
  f: (v: T) => U,
): Record<string, Record<string, U>> {
  const out: Record<string, Record<string, U>> = {};
  for (const [node, seen] of Object.entries(m ?? {})) out[node] = mapVersions(seen, f);
  return out;
}

/** One namespace of a thread as the saver holds it. */
interface Known {
  /** Checkpoint ids the saver has. */
  checkpoints: Set<string>;
  /** `${checkpoint id}\u0000${task id}\u0000${idx}` of the writes the saver has. */
  writes: Set<string>;
}

/**
 * The engine's in-memory saver in front of a LangGraph.js checkpointer:
 * what `compile({ checkpointer })` makes of a saver that is not
 * Chronograph's own. Graphs use it like a `MemorySaver`; the runtime calls
 * `load` before and `flush` after each operation on a thread.
 */
export class SaverBridge extends MemorySaver implements ThreadStore {
  /** The LangGraph.js checkpointer behind it. */
  readonly backend: AsyncCheckpointSaver;
  /** Per thread, then namespace: what the backend holds (threads loaded so far). */
  readonly #known = new Map<string, Map<string, Known>>();
  /** Whether the backend's channel versions are numbers (LangGraph.js's default) or strings, once asked. */
  #kind: "number" | "string" | undefined;
  /** Per thread, the flush in flight: the next one waits for it (so nothing is put twice). */
  readonly #flushing = new Map<string, Promise<void>>();

  constructor(backend: AsyncCheckpointSaver) {
    super();
    this.backend = backend;
    Object.defineProperty(this, THREAD_STORE, { value: this, enumerable: false });
  }

  /**
   * The kind of the backend's channel versions, from its `getNextVersion`
   * (asked when a run first stores something, as LangGraph.js's loop asks
   * it for each new version: its failure fails the run).
   */
  #versionKind(): "number" | "string" {
    if (this.#kind === undefined) {
      // A `MemorySaver` subclass (with saver methods of its own) keeps the engine's versions.
      const engineStore = this.backend instanceof MemorySaver && this.backend.getNextVersion === undefined;
      this.#kind = engineStore || typeof this.backend.getNextVersion?.(undefined) === "string" ? "string" : "number";
    }
    return this.#kind;
  }

  /**
   * Loads `threadId` from the backend into the engine's store, once per
   * process. A run or a `getState` (`access`) first asks the backend for
   * the addressed checkpoint (`getTuple`, as LangGraph.js's loop and
   * `getState` do), so the backend's own failure is the operation's, and a
   * checkpoint the engine's copy lacks (written by another process or
   * engine since) reloads the thread. (A backend whose `getNextVersion`
   * throws fails a run when it first stores something: `#versionKind`.)
   */
  async load(threadId: string, access?: ThreadAccess): Promise<void> {
    if (access !== undefined) {
      const tuple = await this.backend.getTuple(getTupleConfig(access.config));
      const ns = tuple?.config?.configurable?.checkpoint_ns ?? "";
      const id = tuple?.checkpoint?.id;
      const known = this.#known.get(threadId);
      if (known !== undefined && id !== undefined && !known.get(ns)?.checkpoints.has(id)) this.#known.delete(threadId);
    }
    if (this.#known.has(threadId)) return;
    // Without an operation's config: the thread's latest, as LangGraph.js's loop reads a thread.
    if (access === undefined) await this.backend.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } });
    const namespaces = new Map<string, { tuples: LangGraphTuple[] }>();
    for await (const t of this.backend.list({ configurable: { thread_id: threadId } })) {
      const ns = t.config.configurable?.checkpoint_ns ?? "";
      if (!namespaces.has(ns)) namespaces.set(ns, { tuples: [] });
      namespaces.get(ns)!.tuples.push(t);
    }
    const known = new Map<string, Known>();
    this.#known.set(threadId, known);
    if (namespaces.size === 0) return;
    const data = { format: "chronograph.thread.v1", thread_id: threadId, namespaces: [] as unknown[] };
    // The root namespace first, as the engine exports them.
    const names = [...namespaces.keys()].sort((a, b) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0));
    for (const ns of names) {
      const tuples = namespaces.get(ns)!.tuples.sort((a, b) => (a.checkpoint.id < b.checkpoint.id ? -1 : 1));
      const k: Known = { checkpoints: new Set(), writes: new Set() };
      known.set(ns, k);
      const blobs = new Map<string, { channel: string; version: string; value?: Json }>();
      const checkpoints = [];
      for (const t of tuples) {
        const c = t.checkpoint;
        const channel_versions = mapVersions(c.channel_versions, engineVersion);
        for (const [channel, version] of Object.entries(channel_versions)) {
          const key = `${channel}\u0000${version}`;
          if (blobs.has(key)) continue;
          const blob: { channel: string; version: string; value?: Json } = { channel, version };
          if (Object.prototype.hasOwnProperty.call(c.channel_values ?? {}, channel)) {
            blob.value = toEngine(c.channel_values[channel]);
          }
          blobs.set(key, blob);
        }
        const slots = new Map<string, number>();
        const pending_writes = (t.pendingWrites ?? []).map(([task_id, channel, value]) => {
          let idx = CONTROL_IDX[channel];
          if (idx === undefined) {
            idx = slots.get(task_id) ?? 0;
            slots.set(task_id, idx + 1);
          }
          k.writes.add(`${c.id}\u0000${task_id}\u0000${idx}`);
          return { task_id, channel, value: toEngine(value), task_path: "", idx };
        });
        k.checkpoints.add(c.id);
        checkpoints.push({
          checkpoint: {
            v: c.v,
            id: c.id,
            ts: c.ts,
            channel_values: {},
            channel_versions,
            versions_seen: mapSeen(c.versions_seen ?? {}, engineVersion),
            updated_channels: Array.isArray((c as { updated_channels?: unknown }).updated_channels)
              ? (c as { updated_channels?: unknown }).updated_channels
              : null,
          },
          metadata: toEngine(t.metadata ?? {}),
          parent_id: t.parentConfig?.configurable?.checkpoint_id ?? null,
          pending_writes,
        });
      }
      (data.namespaces as unknown[]).push({ checkpoint_ns: ns, checkpoints, blobs: [...blobs.values()] });
    }
    // Straight to the engine: the caller holds the thread's queue (`importThread` would wait for it).
    this[RAW].importThread(data as unknown as ThreadExport);
  }

  /**
   * Puts to the backend every checkpoint and write of `threadId` it does
   * not have yet: checkpoints one after the other in id order (parents
   * first), the writes against each once it is stored. As LangGraph.js's
   * own loop does, the writes do not hold up the next checkpoint: they go
   * out alongside it (a saver with a connection pool, such as
   * PostgresSaver, runs them at the same time), and `flush` resolves when
   * everything is stored (it rejects with the first failure, after the
   * rest settled).
   */
  flush(threadId: string, access?: ThreadAccess): Promise<void> {
    const previous = this.#flushing.get(threadId);
    const next = previous === undefined ? this.#flush(threadId, access) : previous.then(
      () => this.#flush(threadId, access),
      () => this.#flush(threadId, access),
    );
    this.#flushing.set(threadId, next);
    const done = () => {
      if (this.#flushing.get(threadId) === next) this.#flushing.delete(threadId);
    };
    next.then(done, done);
    return next;
  }

  /**
   * Starts putting what a running operation on `threadId` stored so far,
   * in the background (LangGraph.js puts a run's checkpoints as it goes);
   * the flush after the operation waits for it and reports any failure.
   */
  flushSoon(threadId: string, access?: ThreadAccess): void {
    queueMicrotask(() => void this.flush(threadId, access).catch(() => {}));
  }

  async #flush(threadId: string, access?: ThreadAccess): Promise<void> {
    // A run's writes go out with its config, as LangGraph.js's loop puts them (a saver may read its `configurable`).
    const run = access?.run ? runConfigOf(access.config) : undefined;
    const data = this[RAW].exportThread(threadId) as unknown as ExportedThread | undefined;
    if (data === undefined) return;
    let known = this.#known.get(threadId);
    if (known === undefined) {
      known = new Map();
      this.#known.set(threadId, known);
    }
    const writes: Promise<void>[] = [];
    let failure: { error: unknown } | undefined;
    try {
      const kind = this.#versionKind();
      for (const ns of data.namespaces) {
        let k = known.get(ns.checkpoint_ns);
        if (k === undefined) {
          k = { checkpoints: new Set(), writes: new Set() };
          known.set(ns.checkpoint_ns, k);
        }
        const blobs = new Map<string, Json | undefined>();
        for (const b of ns.blobs) blobs.set(`${b.channel}\u0000${b.version}`, b.value);
        const versionsOf = new Map<string, Record<string, string>>();
        for (const c of ns.checkpoints) versionsOf.set(c.checkpoint.id, c.checkpoint.channel_versions);
        for (const c of ns.checkpoints) {
          const cp = c.checkpoint;
          const at = saverConfig(run, threadId, ns.checkpoint_ns, cp.id);
          if (!k.checkpoints.has(cp.id)) {
            const channel_values: Record<string, unknown> = {};
            for (const [channel, version] of Object.entries(cp.channel_versions)) {
              const value = blobs.get(`${channel}\u0000${version}`);
              if (value !== undefined) channel_values[channel] = toLangGraph(value);
            }
            // The channels whose version differs from the parent's: what a LangGraph.js run would pass.
            const parentVersions = c.parent_id ? versionsOf.get(c.parent_id) ?? {} : {};
            const newVersions: Record<string, number | string> = {};
            for (const [channel, version] of Object.entries(cp.channel_versions)) {
              if (parentVersions[channel] !== version) newVersions[channel] = saverVersion(version, kind);
            }
            const checkpoint: LangGraphCheckpoint = {
              v: cp.v,
              id: cp.id,
              ts: cp.ts,
              channel_values,
              channel_versions: mapVersions(cp.channel_versions, (v) => saverVersion(v, kind)),
              versions_seen: mapSeen(cp.versions_seen, (v) => saverVersion(v, kind)),
            };
            const parent = saverConfig(run, threadId, ns.checkpoint_ns, c.parent_id ?? undefined);
            await this.backend.put(parent, checkpoint, toLangGraph(c.metadata) as object, newVersions);
            k.checkpoints.add(cp.id);
          }
          // The task's writes go together (the saver numbers them by position).
          const byTask = new Map<string, ExportedWrite[]>();
          for (const w of c.pending_writes) {
            if (k.writes.has(`${cp.id}\u0000${w.task_id}\u0000${w.idx}`)) continue;
            if (!byTask.has(w.task_id)) byTask.set(w.task_id, []);
            byTask.get(w.task_id)!.push(w);
          }
          for (const [taskId, fresh] of byTask) {
            // Regular writes are numbered by position: send the task's whole list (the saver keeps the first of each slot).
            const regular = c.pending_writes.filter((w) => w.task_id === taskId && w.idx >= 0).sort((a, b) => a.idx - b.idx);
            const control = fresh.filter((w) => w.idx < 0);
            const sent = [...regular, ...control];
            const stored = k.writes;
            const sending = (async () => {
              if (fresh.some((w) => w.idx >= 0)) {
                await this.backend.putWrites(at, regular.map((w) => [w.channel, toLangGraph(w.value)]), taskId, fresh[0]!.task_path);
              }
              for (const w of control) await this.backend.putWrites(at, [[w.channel, toLangGraph(w.value)]], taskId, w.task_path);
              for (const w of sent) stored.add(`${cp.id}\u0000${w.task_id}\u0000${w.idx}`);
            })();
            // Handled now (a failure is reported once all settled, below), not
            // an unhandled rejection while the next checkpoints are put.
            sending.catch(() => {});
            writes.push(sending);
          }
        }
      }
    } catch (error) {
      failure = { error };
    }
    // Every write sent settles before `flush` does; the first failure is the one reported.
    const settled = await Promise.allSettled(writes);
    if (failure !== undefined) throw failure.error;
    const rejected = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (rejected !== undefined) throw rejected.reason;
  }

  /** Forgets a thread here and in the backend. */
  override async deleteThread(threadId: string): Promise<void> {
    await super.deleteThread(threadId);
    this.#known.delete(threadId);
    await this.backend.deleteThread?.(threadId);
  }
}

/** A run's config as far as a saver sees it: a copy, `configurable` a plain object (empty when unreadable). */
function runConfigOf(config: unknown): { configurable: Record<string, unknown>; [key: string]: unknown } {
  try {
    const c = (config ?? {}) as { configurable?: unknown };
    const configurable = c.configurable !== null && typeof c.configurable === "object" ? { ...(c.configurable as object) } : {};
    return { ...(c as object), configurable };
  } catch {
    // A throwing getter: the engine refused the config already; the saver gets the thread alone.
    return { configurable: {} };
  }
}

/**
 * The config a checkpoint or its writes go to the backend with: LangGraph.js's
 * loop's (`{ ...run config, configurable: { checkpoint_ns, ...the run's
 * configurable, thread_id, checkpoint_ns, checkpoint_id } }`), the
 * checkpoint's address alone for an update.
 */
function saverConfig(run: ReturnType<typeof runConfigOf> | undefined, threadId: string, ns: string, checkpointId: string | undefined): SaverConfig {
  // Key order as LangGraph.js's: checkpoint_ns first, then the run's keys, then the address.
  const configurable: Record<string, unknown> = { checkpoint_ns: ns, ...run?.configurable };
  Object.assign(configurable, { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpointId });
  if (checkpointId === undefined) delete configurable.checkpoint_id;
  return { ...run, configurable } as SaverConfig;
}

/** The config of the backend's `getTuple` for an operation's config (a copy: the saver may keep it). */
function getTupleConfig(config: unknown): SaverConfig {
  return runConfigOf(config) as SaverConfig;
}

/** The engine's export format, as far as `flush` reads it. */
interface ExportedWrite {
  task_id: string;
  channel: string;
  value: Json;
  task_path: string;
  idx: number;
}
interface ExportedThread {
  thread_id: string;
  namespaces: {
    checkpoint_ns: string;
    checkpoints: {
      checkpoint: {
        v: number;
        id: string;
        ts: string;
        channel_versions: Record<string, string>;
        versions_seen: Record<string, Record<string, string>>;
      };
      metadata: Json;
      parent_id: string | null;
      pending_writes: ExportedWrite[];
    }[];
    blobs: { channel: string; version: string; value?: Json }[];
  }[];
}
