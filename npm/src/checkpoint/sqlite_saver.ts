// `SqliteSaver`, exported by `chronograph/langgraph`: a persistent
// LangGraph.js checkpointer on a SQLite file (better-sqlite3, an optional
// peer: sqlite_driver.ts) whose size grows with a conversation, not with
// its square.
//
// LangGraph.js's own SqliteSaver writes each checkpoint whole, every
// channel value included, so a message list is written again at every
// superstep. Here each channel version is stored once (sqlite_schema.ts),
// and a version that appends to the version it replaced is stored as its
// tail (delta.ts). Values, metadata and writes go through the saver's
// `serde` as in LangGraph.js's savers; the checkpoint's own fields (id,
// versions, versions seen) are kept as JSON, as LangGraph's PostgreSQL
// saver keeps them. Every `put` and `putWrites` is one transaction.
import { BaseCheckpointSaver, TASKS, WRITES_IDX_MAP, getCheckpointId, maxChannelVersion } from "@langchain/langgraph-checkpoint";
import type { ChannelVersions, Checkpoint, CheckpointListOptions, CheckpointMetadata } from "@langchain/langgraph-checkpoint";
import type { CheckpointTuple, PendingWrite, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import { DeltaPolicy, RecentLists, fingerprints, rebuild, snapshotPosition, type ChainPosition, type DeltaOptions, type StoredList } from "./delta.js";
import { sqliteDriver, type SqliteDatabase } from "./sqlite_driver.js";
import { DELTA, EMPTY, FULL, LIST_SELECT, openSchema, type CheckpointRow, type Statements } from "./sqlite_schema.js";
import { argumentError, missingCheckpointId, missingThreadId } from "./saver_errors.js";

/** A blob row, ready for `insertBlob` (after the thread, namespace). */
type BlobRow = [channel: string, version: string, kind: number, base: string | null, depth: number, baseBytes: number, deltaBytes: number, type: string | null, value: unknown];

/** Data read from a BLOB column, as the serializer expects it (better-sqlite3 gives a Buffer). */
function bytesOf(data: unknown): Uint8Array | string {
  if (typeof data === "string") return data;
  if (data instanceof Uint8Array) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
  return "";
}

/** Deep equality of metadata values (a `list` filter). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The thread and namespace a config addresses (a missing namespace is the root, ""). */
function addressOf(config: RunnableConfig, what: string): { thread_id: string; checkpoint_ns: string } {
  const thread_id = config.configurable?.thread_id;
  if (thread_id === undefined) throw missingThreadId(what);
  if (typeof thread_id !== "string") throw argumentError(`${what}: thread_id must be a string`);
  const checkpoint_ns = config.configurable?.checkpoint_ns ?? "";
  if (typeof checkpoint_ns !== "string") throw argumentError(`${what}: checkpoint_ns must be a string`);
  return { thread_id, checkpoint_ns };
}

/**
 * LangGraph.js's `SqliteSaver` (`@langchain/langgraph-checkpoint-sqlite`),
 * with the same constructors: `SqliteSaver.fromConnString(path)` or
 * `new SqliteSaver(db, serde)` over a better-sqlite3 `Database`. It
 * implements `BaseCheckpointSaver` (`getTuple`, `list` with
 * `filter`/`before`/`limit`, `put`, `putWrites`, `deleteThread`,
 * `getNextVersion`), storing each channel version once and a list that
 * grew by appending as its new tail, so a chat's file grows linearly with
 * its turns. Its tables are its own (`chronograph_*`): it does not read
 * threads LangGraph.js's SqliteSaver wrote.
 */
export class SqliteSaver extends BaseCheckpointSaver {
  /** The better-sqlite3 database. */
  readonly db: SqliteDatabase;
  #statements: Statements | undefined;
  readonly #policy: DeltaPolicy;
  readonly #recent = new RecentLists();
  /** The highest integer channel version handed out here (see `getNextVersion`). */
  #lastVersion = 0;

  constructor(db: SqliteDatabase, serde?: SerializerProtocol, options?: DeltaOptions) {
    super(serde);
    this.db = db;
    this.#policy = new DeltaPolicy(options);
  }

  /** A saver on the SQLite file at `connStringOrLocalPath` (`":memory:"` for none), as LangGraph.js's. */
  static fromConnString(connStringOrLocalPath: string, options?: DeltaOptions): SqliteSaver {
    const Database = sqliteDriver();
    return new SqliteSaver(new Database(connStringOrLocalPath), undefined, options);
  }

  /** Creates the tables if needed and checks the schema version (every method calls it). */
  setup(): void {
    this.#statements ??= openSchema(this.db);
  }

  get #sql(): Statements {
    this.setup();
    return this.#statements!;
  }

  /**
   * One more than the highest integer version this file or this saver has
   * handed out, so never a version another branch of any thread already
   * uses (LangGraph.js's default, `current + 1`, gives two branches forked
   * from one checkpoint the same version for different values, and this
   * saver keys values by version).
   */
  override getNextVersion(current: number | undefined): number {
    if (typeof current === "string") throw argumentError("getNextVersion(current): this saver's versions are integers");
    const stored = (this.#sql.maxVersion.get() as { v: number } | undefined)?.v ?? 0;
    const next = Math.max(current ?? 0, stored, this.#lastVersion) + 1;
    this.#lastVersion = next;
    return next;
  }

  /** The addressed checkpoint (`checkpoint_id`), or the namespace's newest; `undefined` when there is none. */
  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const thread_id = config.configurable?.thread_id;
    if (typeof thread_id !== "string") return undefined;
    const checkpoint_ns = config.configurable?.checkpoint_ns ?? "";
    const checkpoint_id = getCheckpointId(config) || undefined;
    const row = (
      checkpoint_id === undefined ? this.#sql.latest.get(thread_id, checkpoint_ns) : this.#sql.byId.get(thread_id, checkpoint_ns, checkpoint_id)
    ) as CheckpointRow | undefined;
    if (row === undefined) return undefined;
    const tuple = await this.#tuple(row, await this.#metadata(row));
    // As LangGraph.js's savers: a tuple asked for by id carries the config it was asked with.
    if (checkpoint_id !== undefined) tuple.config = config;
    return tuple;
  }

  /**
   * Checkpoints newest first: of `config`'s thread (every thread without
   * one), namespace (every one without) and checkpoint; `before` keeps
   * older ones, `filter` those whose metadata has the given values,
   * `limit` caps the count.
   */
  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const { before, limit, filter } = options ?? {};
    const c = config?.configurable ?? {};
    const where: string[] = [];
    const args: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      where.push(clause);
      args.push(value);
    };
    if (typeof c.thread_id === "string" && c.thread_id !== "") add("thread_id = ?", c.thread_id);
    if (typeof c.checkpoint_ns === "string") add("checkpoint_ns = ?", c.checkpoint_ns);
    if (typeof c.checkpoint_id === "string" && c.checkpoint_id !== "") add("checkpoint_id = ?", c.checkpoint_id);
    const beforeId = before?.configurable?.checkpoint_id;
    if (typeof beforeId === "string") add("checkpoint_id < ?", beforeId);
    const wanted = Object.entries(filter ?? {}).filter(([, v]) => v !== undefined);
    const cap = limit === undefined || limit === null ? undefined : Math.max(0, Math.floor(limit));
    // Metadata goes through the serializer: the filter is applied here, the limit after it.
    let sql = `${LIST_SELECT}${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY checkpoint_id DESC`;
    if (cap !== undefined && wanted.length === 0) sql += ` LIMIT ${cap}`;
    const rows = this.db.prepare(sql).all(...args) as CheckpointRow[];
    let yielded = 0;
    for (const row of rows) {
      if (cap !== undefined && yielded >= cap) return;
      const metadata = await this.#metadata(row);
      if (!wanted.every(([k, v]) => sameValue((metadata as Record<string, unknown>)[k], v))) continue;
      yielded += 1;
      yield await this.#tuple(row, metadata);
    }
  }

  /**
   * Stores `checkpoint` under `config`'s checkpoint (its parent) with the
   * values of the channels in `newVersions`, in one transaction; resolves
   * to its config.
   */
  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    const { thread_id, checkpoint_ns } = addressOf(config, "put checkpoint");
    const parent = config.configurable?.checkpoint_id;
    const parentId = typeof parent === "string" && parent !== "" ? parent : null;
    const sql = this.#sql;
    const parentVersions = parentId === null ? {} : this.#versionsOf(thread_id, checkpoint_ns, parentId);
    const values = (checkpoint.channel_values ?? {}) as Record<string, unknown>;
    const blobs: BlobRow[] = [];
    const remembered: [string, StoredList][] = [];
    let highest = 0;
    for (const [channel, v] of Object.entries(newVersions ?? {})) {
      if (typeof v === "number" && v > highest) highest = v;
      const version = String(v);
      if (!Object.prototype.hasOwnProperty.call(values, channel)) {
        blobs.push([channel, version, EMPTY, null, 0, 0, 0, null, null]);
        continue;
      }
      const previous = parentVersions[channel];
      const base = previous === undefined || String(previous) === version ? undefined : String(previous);
      blobs.push(await this.#blob(thread_id, checkpoint_ns, channel, version, values[channel], base, remembered));
    }
    // Stored without its values (blobs) and id (the row's key).
    const { channel_values: _values, id: _id, ...head } = checkpoint;
    const [metadataType, metadataData] = await this.serde.dumpsTyped(metadata);
    this.db.transaction(() => {
      for (const b of blobs) sql.insertBlob.run(thread_id, checkpoint_ns, ...b);
      sql.insertCheckpoint.run(thread_id, checkpoint_ns, checkpoint.id, parentId, JSON.stringify(head), metadataType, metadataData);
      if (highest > 0) sql.raiseMaxVersion.run(highest);
    })();
    if (highest > this.#lastVersion) this.#lastVersion = highest;
    for (const [key, list] of remembered) this.#recent.set(key, list);
    return { configurable: { thread_id, checkpoint_ns, checkpoint_id: checkpoint.id } };
  }

  /** Stores a task's writes (`[channel, value][]`) against `config`'s checkpoint, in one transaction. */
  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const { thread_id, checkpoint_ns } = addressOf(config, "put writes");
    const checkpoint_id = config.configurable?.checkpoint_id;
    if (checkpoint_id === undefined) throw missingCheckpointId();
    if (typeof checkpoint_id !== "string" || typeof taskId !== "string") {
      throw argumentError("putWrites(config, writes, taskId): checkpoint_id and taskId must be strings");
    }
    const rows: unknown[][] = [];
    for (const [i, [channel, value]] of writes.entries()) {
      const [type, data] = await this.serde.dumpsTyped(value);
      const idx = (WRITES_IDX_MAP as Record<string, number>)[channel] ?? i;
      rows.push([thread_id, checkpoint_ns, checkpoint_id, taskId, idx, channel, type, data, taskPath ?? ""]);
    }
    // As LangGraph.js's savers: special writes (errors, interrupts) replace, regular ones keep the first.
    const allSpecial = writes.every(([channel]) => channel in WRITES_IDX_MAP);
    const sql = this.#sql;
    const insert = allSpecial ? sql.replaceWrite : sql.insertWrite;
    this.db.transaction(() => {
      for (const row of rows) insert.run(...row);
    })();
  }

  /** Forgets a thread: its checkpoints, values and writes, in one transaction. */
  async deleteThread(threadId: string): Promise<void> {
    if (typeof threadId !== "string") throw argumentError("deleteThread(threadId): threadId must be a string");
    const sql = this.#sql;
    this.db.transaction(() => {
      for (const s of sql.deleteThread) s.run(threadId);
    })();
    this.#recent.forget(`${threadId}\u0000`);
  }

  /**
   * The row of one new channel version: the tail over `base` when the
   * value appends to it (see delta.ts), else the whole value. A list's
   * fingerprints are remembered for the version after it.
   */
  async #blob(
    thread_id: string,
    ns: string,
    channel: string,
    version: string,
    value: unknown,
    base: string | undefined,
    remembered: [string, StoredList][],
  ): Promise<BlobRow> {
    const elements = Array.isArray(value) ? fingerprints(value) : undefined;
    if (elements !== undefined) {
      const previous = base === undefined ? undefined : await this.#storedList(thread_id, ns, channel, base);
      const placement = this.#policy.place(value as unknown[], elements, previous);
      if (placement.kind === "delta") {
        const [type, data] = await this.serde.dumpsTyped(placement.tail);
        // The prefix's fingerprints are the base's own strings: remembered versions share them.
        const shared = previous!.elements.concat(elements.slice(previous!.elements.length));
        remembered.push([listKey(thread_id, ns, channel, version), { elements: shared, ...placement.position }]);
        return positioned(channel, version, DELTA, base!, placement.position, type, data);
      }
    }
    const [type, data] = await this.serde.dumpsTyped(value);
    const position = snapshotPosition(elements);
    if (elements !== undefined) remembered.push([listKey(thread_id, ns, channel, version), { elements, ...position }]);
    return positioned(channel, version, FULL, null, position, type, data);
  }

  /**
   * A stored list version's fingerprints and chain position: remembered
   * from a recent `put`, else read back (a version this process did not
   * write); `undefined` when it is not a list or cannot be compared.
   */
  async #storedList(thread_id: string, ns: string, channel: string, version: string): Promise<StoredList | undefined> {
    const key = listKey(thread_id, ns, channel, version);
    const hit = this.#recent.get(key);
    if (hit !== undefined) return hit;
    const position = this.#sql.position.get(thread_id, ns, channel, version) as { depth: number; base_bytes: number; delta_bytes: number } | undefined;
    if (position === undefined) return undefined;
    const value = await this.#value(thread_id, ns, channel, version);
    const elements = Array.isArray(value) ? fingerprints(value) : undefined;
    if (elements === undefined) return undefined;
    const list = { elements, depth: position.depth, baseBytes: position.base_bytes, deltaBytes: position.delta_bytes };
    this.#recent.set(key, list);
    return list;
  }

  /** The channel versions of a stored checkpoint (`{}` when there is none). */
  #versionsOf(thread_id: string, ns: string, checkpoint_id: string): Record<string, number | string> {
    const row = this.#sql.versionsOf.get(thread_id, ns, checkpoint_id) as { checkpoint: string } | undefined;
    if (row === undefined) return {};
    return (JSON.parse(row.checkpoint) as Checkpoint).channel_versions ?? {};
  }

  /** A channel version's value, rebuilt from its chain; `undefined` when it is empty or absent. */
  async #value(thread_id: string, ns: string, channel: string, version: string): Promise<unknown> {
    const rows = this.#sql.chain.all({ thread_id, ns, channel, version }) as { kind: number; type: string | null; value: unknown }[];
    if (rows.length === 0 || rows[rows.length - 1]!.kind === EMPTY) return undefined;
    if (rows[0]!.kind !== FULL) throw new Error(`corrupt channel version ${channel}@${version} of thread ${thread_id}: its delta chain has no snapshot`);
    const pieces: unknown[] = [];
    for (const r of rows) pieces.push(await this.serde.loadsTyped(r.type ?? "json", bytesOf(r.value)));
    return rebuild(pieces[0], pieces.slice(1));
  }

  /** A row's metadata, through the serializer. */
  async #metadata(row: CheckpointRow): Promise<CheckpointMetadata> {
    return (await this.serde.loadsTyped(row.metadata_type, bytesOf(row.metadata))) as CheckpointMetadata;
  }

  /** The tuple of a stored checkpoint: its values rebuilt, its writes read. */
  async #tuple(row: CheckpointRow, metadata: CheckpointMetadata): Promise<CheckpointTuple> {
    const { thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id } = row;
    const { v, ...head } = JSON.parse(row.checkpoint) as Omit<Checkpoint, "id">;
    // LangGraph.js's key order: v, id, ts, ...
    const checkpoint = { v, id: checkpoint_id, ...head } as Checkpoint;
    const channel_values: Record<string, unknown> = {};
    for (const [channel, version] of Object.entries(checkpoint.channel_versions ?? {})) {
      const value = await this.#value(thread_id, checkpoint_ns, channel, String(version));
      if (value !== undefined) channel_values[channel] = value;
    }
    checkpoint.channel_values = channel_values;
    const pendingWrites: [string, string, unknown][] = [];
    const writes = this.#sql.writesOf.all(thread_id, checkpoint_ns, checkpoint_id) as { task_id: string; channel: string; type: string | null; value: unknown }[];
    for (const w of writes) pendingWrites.push([w.task_id, w.channel, await this.serde.loadsTyped(w.type ?? "json", bytesOf(w.value))]);
    // Checkpoints before format 4 kept pending sends in the parent's writes (as LangGraph.js's savers migrate them).
    if (checkpoint.v < 4 && parent_checkpoint_id !== null) await this.#migratePendingSends(checkpoint, thread_id, checkpoint_ns, parent_checkpoint_id);
    const tuple: CheckpointTuple = { config: { configurable: { thread_id, checkpoint_ns, checkpoint_id } }, checkpoint, metadata, pendingWrites };
    if (parent_checkpoint_id !== null) tuple.parentConfig = { configurable: { thread_id, checkpoint_ns, checkpoint_id: parent_checkpoint_id } };
    return tuple;
  }

  /** Format < 4: the parent's `__pregel_tasks` writes become the `TASKS` channel. */
  async #migratePendingSends(checkpoint: Checkpoint, thread_id: string, ns: string, parentId: string): Promise<void> {
    const rows = this.#sql.sendsOf.all(thread_id, ns, parentId, TASKS) as { type: string | null; value: unknown }[];
    const sends: unknown[] = [];
    for (const r of rows) sends.push(await this.serde.loadsTyped(r.type ?? "json", bytesOf(r.value)));
    checkpoint.channel_values[TASKS] = sends;
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
  }
}

/** The key of a channel version among recently stored lists (thread first: `forget` goes by it). */
function listKey(thread_id: string, ns: string, channel: string, version: string): string {
  return `${thread_id}\u0000${ns}\u0000${channel}\u0000${version}`;
}

/** A blob row with its chain position. */
function positioned(channel: string, version: string, kind: number, base: string | null, p: ChainPosition, type: string, data: unknown): BlobRow {
  return [channel, version, kind, base, p.depth, p.baseBytes, p.deltaBytes, type, data];
}
