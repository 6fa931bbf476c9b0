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
import { BaseCheckpointSaver, TASKS, WRITES_IDX_MAP, getCheckpointId, maxChannelVersion } from "./checkpoint_peer.js";
import type { ChannelVersions, Checkpoint, CheckpointListOptions, CheckpointMetadata } from "@langchain/langgraph-checkpoint";
import type { CheckpointTuple, PendingWrite, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import { DeltaPolicy, RecentLists, digest, fingerprints, rebuild, snapshotPosition, type ChainPosition, type DeltaOptions, type StoredList } from "./delta.js";
import { sqliteDriver, type SqliteDatabase } from "./sqlite_driver.js";
import { DELTA, EMPTY, FULL, LIST_SELECT, openSchema, type CheckpointRow, type Statements } from "./sqlite_schema.js";
import { addressOf, argumentError, missingCheckpointId, versionConflict } from "./saver_errors.js";

/** A blob row, ready for `insertBlob` (after the thread, namespace). */
type BlobRow = [
  channel: string,
  version: string,
  kind: number,
  base: string | null,
  depth: number,
  baseBytes: number,
  deltaBytes: number,
  type: string | null,
  value: unknown,
  digest: string | null,
];

/** Versions a saver reserves at once in the file (see `getNextVersion`). */
const VERSION_BLOCK = 256;

/** A stored blob row, as `storedBlob` reads it. */
interface StoredBlob {
  kind: number;
  base_version: string | null;
  type: string | null;
  value: unknown;
  digest: string | null;
}

/** Whether two BLOB/TEXT column values hold the same bytes. */
function sameBytes(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    return a.byteLength === b.byteLength && a.every((x, i) => x === b[i]);
  }
  if (typeof a === "string" || typeof b === "string") {
    const text = (x: unknown) => (typeof x === "string" ? x : x instanceof Uint8Array ? new TextDecoder().decode(x) : x);
    return text(a) === text(b);
  }
  return false;
}

/**
 * Whether the row already stored for a version holds the value about to be
 * written: by digest when both have one (whatever bytes the serializer
 * made), else by kind and bytes.
 */
function sameVersion(stored: StoredBlob, row: BlobRow): boolean {
  const [, , kind, base, , , , type, value, rowDigest] = row;
  if (stored.kind === EMPTY || kind === EMPTY) return stored.kind === kind;
  if (stored.digest !== null && rowDigest !== null) return stored.digest === rowDigest;
  return stored.kind === kind && stored.base_version === base && stored.type === type && sameBytes(stored.value, value);
}

/**
 * The test hook of the fault tests (npm/test/interop/sqlite-faults.test.mjs):
 * with `CHRONOGRAPH_TEST_KILL_IN_PUT=N` in its environment, a process
 * SIGKILLs itself inside its Nth `put`'s transaction, after the version rows
 * are written and before the checkpoint row and the commit. Not for use
 * outside tests: it exists to show a killed `put` leaves nothing half-written.
 */
const killInPut: number | undefined = (() => {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const n = Number(env?.["CHRONOGRAPH_TEST_KILL_IN_PUT"]);
  return Number.isInteger(n) && n > 0 ? n : undefined;
})();
let putsInProcess = 0;

/** Runs the kill hook (see {@link killInPut}) at one more `put`. */
function maybeKillInPut(): void {
  if (killInPut === undefined) return;
  putsInProcess += 1;
  if (putsInProcess !== killInPut) return;
  const proc = (globalThis as { process?: { pid: number; kill(pid: number, signal: string): void } }).process;
  proc?.kill(proc.pid, "SIGKILL");
}

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
  /** The block of versions this saver reserved in the file, `[lo, hi]` (empty at first). */
  #block = { lo: 1, hi: 0 };

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
   * A version above `current` and above every version this saver handed
   * out, from a block of versions reserved for this saver alone in the file
   * (one `BEGIN IMMEDIATE` transaction per 256 versions): never a version
   * another branch, or another process writing the same thread, uses.
   * LangGraph.js's default, `current + 1`, gives two branches forked from
   * one checkpoint the same version for different values, and this saver
   * keys values by version.
   */
  override getNextVersion(current: number | undefined): number {
    if (typeof current === "string") throw argumentError("getNextVersion(current): this saver's versions are integers");
    let next = Math.max(current ?? 0, this.#lastVersion) + 1;
    if (next < this.#block.lo || next > this.#block.hi) {
      const sql = this.#sql;
      const hi = this.db.transaction(() => (sql.reserveVersions.get(next - 1, VERSION_BLOCK) as { hi: number }).hi).immediate();
      this.#block = { lo: hi - VERSION_BLOCK + 1, hi };
      next = this.#block.lo;
    }
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
        blobs.push([channel, version, EMPTY, null, 0, 0, 0, null, null, null]);
        continue;
      }
      const previous = parentVersions[channel];
      const base = previous === undefined || String(previous) === version ? undefined : String(previous);
      blobs.push(await this.#blob(thread_id, checkpoint_ns, channel, version, values[channel], base, remembered));
    }
    // Stored without its values (blobs) and id (the row's key).
    const { channel_values: _values, id: _id, ...head } = checkpoint;
    const [metadataType, metadataData] = await this.serde.dumpsTyped(metadata);
    // One write transaction, the write lock taken at its start: a second process waits (or fails
    // with SQLITE_BUSY after better-sqlite3's 5 s timeout), and a version already stored with another
    // value fails the whole put (versionConflict): nothing of a failed or killed put is kept.
    this.db.transaction(() => {
      for (const b of blobs) {
        if (sql.insertBlob.run(thread_id, checkpoint_ns, ...b).changes > 0) continue;
        const stored = sql.storedBlob.get(thread_id, checkpoint_ns, b[0], b[1]) as StoredBlob;
        if (!sameVersion(stored, b)) throw versionConflict(thread_id, checkpoint_ns, b[0], b[1]);
      }
      maybeKillInPut();
      sql.insertCheckpoint.run(thread_id, checkpoint_ns, checkpoint.id, parentId, JSON.stringify(head), metadataType, metadataData);
      if (highest > 0) sql.raiseMaxVersion.run(highest);
    }).immediate();
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
    }).immediate();
  }

  /** Forgets a thread: its checkpoints, values and writes, in one transaction. */
  async deleteThread(threadId: string): Promise<void> {
    if (typeof threadId !== "string") throw argumentError("deleteThread(threadId): threadId must be a string");
    const sql = this.#sql;
    this.db.transaction(() => {
      for (const s of sql.deleteThread) s.run(threadId);
    }).immediate();
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
        // A delta's value is its base's plus its tail: its digest chains the base's (hashing the tail only).
        const sum = previous!.digest === null ? null : digest([previous!.digest, ...elements.slice(previous!.elements.length)]);
        remembered.push([listKey(thread_id, ns, channel, version), { elements: shared, digest: sum, ...placement.position }]);
        return positioned(channel, version, DELTA, base!, placement.position, type, data, sum);
      }
    }
    const [type, data] = await this.serde.dumpsTyped(value);
    const position = snapshotPosition(elements);
    const whole = elements ?? fingerprints([value]);
    const sum = whole === undefined ? null : digest(whole);
    if (elements !== undefined) remembered.push([listKey(thread_id, ns, channel, version), { elements, digest: sum, ...position }]);
    return positioned(channel, version, FULL, null, position, type, data, sum);
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
    const position = this.#sql.position.get(thread_id, ns, channel, version) as
      | { depth: number; base_bytes: number; delta_bytes: number; digest: string | null }
      | undefined;
    if (position === undefined) return undefined;
    const value = await this.#value(thread_id, ns, channel, version);
    const elements = Array.isArray(value) ? fingerprints(value) : undefined;
    if (elements === undefined) return undefined;
    const list = { elements, digest: position.digest, depth: position.depth, baseBytes: position.base_bytes, deltaBytes: position.delta_bytes };
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
function positioned(
  channel: string,
  version: string,
  kind: number,
  base: string | null,
  p: ChainPosition,
  type: string,
  data: unknown,
  sum: string | null,
): BlobRow {
  return [channel, version, kind, base, p.depth, p.baseBytes, p.deltaBytes, type, data, sum];
}
