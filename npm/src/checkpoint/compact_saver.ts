// The compact savers' common part: LangGraph.js's `BaseCheckpointSaver`
// over a database that stores each channel version once, and a version
// that appends to the version it replaced as its tail (delta.ts). The two
// backends, `SqliteSaver` (sqlite_saver.ts) and `PostgresSaver`
// (postgres_saver.ts), keep only their SQL, their driver and their
// transactions; everything else is here: which rows a `put` writes, how a
// tuple is read back from them, `list`'s filters, version allocation and
// the argument errors.
//
// Values, metadata and writes go through the saver's `serde` as in
// LangGraph.js's savers; the checkpoint's own fields (id, versions,
// versions seen) are kept as JSON, as LangGraph's PostgreSQL saver keeps
// them. Every `put` and `putWrites` is one transaction of the backend.
import { BaseCheckpointSaver, TASKS, WRITES_IDX_MAP, getCheckpointId, maxChannelVersion } from "./checkpoint_peer.js";
import type { ChannelVersions, Checkpoint, CheckpointListOptions, CheckpointMetadata } from "@langchain/langgraph-checkpoint";
import type { CheckpointTuple, PendingWrite, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import { DeltaPolicy, RecentLists, digest, fingerprints, rebuild, snapshotPosition, type ChainPosition, type DeltaOptions, type StoredList } from "./delta.js";
import { DELTA, EMPTY, FULL, VersionBlocks, bytesOf, listKey, sameValue } from "./compact_rows.js";
import type { BlobRow, ChainRow, CheckpointRow, ListQuery, PositionRow, PutRows, WriteInsert, WriteRow } from "./compact_rows.js";
import { addressOf, argumentError, missingCheckpointId } from "./saver_errors.js";
import { defineDecodedLater } from "../internal/lazy.js";
import { syncReader, type SyncReader } from "./jsonplus_sync.js";
import { planThread, retentionOf, type PruneBlob, type PruneCheckpoint, type PruneOptions, type PruneResult, type PruneRows } from "./prune.js";

/** How many times a prune plans a thread again when writers changed it meanwhile. */
const PRUNE_ATTEMPTS = 3;

/**
 * A `BaseCheckpointSaver` whose channel versions are stored once, as
 * deltas where a list grew by appending. A backend implements the
 * abstract reads and writes below, each one query or one transaction.
 */
export abstract class CompactSaver extends BaseCheckpointSaver {
  readonly #policy: DeltaPolicy;
  readonly #recent = new RecentLists();
  /** The versions this saver hands out (see `getNextVersion`). */
  protected readonly versions = new VersionBlocks();

  constructor(serde?: SerializerProtocol, options?: DeltaOptions) {
    super(serde);
    this.#policy = new DeltaPolicy(options);
  }

  /** The addressed checkpoint, or the namespace's newest when `id` is undefined. */
  protected abstract readCheckpoint(thread_id: string, ns: string, id: string | undefined): Promise<CheckpointRow | undefined>;
  /** The checkpoints `query` selects, newest first. */
  protected abstract readCheckpoints(query: ListQuery): Promise<CheckpointRow[]>;
  /** A stored checkpoint's JSON (`checkpoint` column), `undefined` when there is none. */
  protected abstract readHead(thread_id: string, ns: string, id: string): Promise<string | undefined>;
  /** A version's chain, snapshot first: the row asked for and each `base_version` a delta points to. */
  protected abstract readChain(thread_id: string, ns: string, channel: string, version: string): Promise<ChainRow[]>;
  /** A stored version's chain position. */
  protected abstract readPosition(thread_id: string, ns: string, channel: string, version: string): Promise<PositionRow | undefined>;
  /** A checkpoint's pending writes, by task id and index. */
  protected abstract readWrites(thread_id: string, ns: string, id: string): Promise<WriteRow[]>;
  /** A checkpoint's writes to `channel`, by task path, task id and index (format < 4's pending sends). */
  protected abstract readSends(thread_id: string, ns: string, id: string, channel: string): Promise<Pick<ChainRow, "type" | "value">[]>;
  /**
   * Writes a `put` in one transaction: each blob row (an existing one
   * checked with `assertSameVersion`), then `maybeKillInPut()`, then the
   * checkpoint row; nothing of it when it fails.
   */
  protected abstract writeCheckpoint(put: PutRows): Promise<void>;
  /** Writes a task's writes in one transaction (`replace`: special writes replace, others keep the first). */
  protected abstract writeWrites(rows: WriteInsert[], replace: boolean): Promise<void>;
  /** Deletes a thread's checkpoints, versions and writes in one transaction. */
  protected abstract removeThread(thread_id: string): Promise<void>;
  /** A block of versions reserved at once, its top returned (a synchronous driver); `undefined` when the backend cannot. */
  protected abstract reserveVersionsNow(atLeast: number, count: number): number | undefined;
  /** Every thread with a checkpoint. */
  protected abstract readThreadIds(): Promise<string[]>;
  /** Every channel version of a thread (without its value). */
  protected abstract readBlobIndex(thread_id: string): Promise<PruneBlob[]>;
  /**
   * Applies a prune of one thread in one transaction, the thread's writers
   * held off; `false` (nothing done) when its checkpoints are no longer
   * those planned from (`rows.planned`: see `unchanged`).
   */
  protected abstract writePrune(rows: PruneRows): Promise<boolean>;
  /** The database's size in bytes, as `prune` reports it. */
  protected abstract storageBytes(): Promise<number>;
  /** Returns freed space to the operating system after a prune (`vacuum`: the caller's option, if given). */
  protected abstract reclaimStorage(vacuum: boolean | undefined): Promise<void>;
  /** Called with each tuple `getTuple` read (a backend reserves versions above it ahead of `getNextVersion`). */
  protected async afterRead(_tuple: CheckpointTuple): Promise<void> {}

  /**
   * A version above `current` and above every version this saver handed
   * out, from a block of versions reserved for this saver alone in the
   * database: never a version another branch, or another process writing
   * the same thread, uses (see `VersionBlocks`). LangGraph.js's default,
   * `current + 1`, gives two branches forked from one checkpoint the same
   * version for different values, and this saver keys values by version.
   */
  override getNextVersion(current: number | undefined): number {
    if (typeof current === "string") throw argumentError("getNextVersion(current): this saver's versions are integers");
    return this.versions.next(current, (atLeast, count) => this.reserveVersionsNow(atLeast, count));
  }

  /** The addressed checkpoint (`checkpoint_id`), or the namespace's newest; `undefined` when there is none. */
  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const thread_id = config.configurable?.thread_id;
    if (typeof thread_id !== "string") return undefined;
    const checkpoint_ns = config.configurable?.checkpoint_ns ?? "";
    const checkpoint_id = getCheckpointId(config) || undefined;
    const row = await this.readCheckpoint(thread_id, checkpoint_ns, checkpoint_id);
    if (row === undefined) return undefined;
    const tuple = await this.#tuple(row, await this.#metadata(row));
    // As LangGraph.js's savers: a tuple asked for by id carries the config it was asked with.
    if (checkpoint_id !== undefined) tuple.config = config;
    await this.afterRead(tuple);
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
    const query: ListQuery = {};
    if (typeof c.thread_id === "string" && c.thread_id !== "") query.thread_id = c.thread_id;
    if (typeof c.checkpoint_ns === "string") query.checkpoint_ns = c.checkpoint_ns;
    if (typeof c.checkpoint_id === "string" && c.checkpoint_id !== "") query.checkpoint_id = c.checkpoint_id;
    const beforeId = before?.configurable?.checkpoint_id;
    if (typeof beforeId === "string") query.before = beforeId;
    const wanted = Object.entries(filter ?? {}).filter(([, v]) => v !== undefined);
    const cap = limit === undefined || limit === null ? undefined : Math.max(0, Math.floor(limit));
    // Metadata goes through the serializer: the filter is applied here, the limit after it.
    if (cap !== undefined && wanted.length === 0) query.limit = cap;
    // With the default serializer, each tuple's values are decoded when first read (jsonplus_sync.ts).
    const reader = await syncReader(this.serde);
    let yielded = 0;
    for (const row of await this.readCheckpoints(query)) {
      if (cap !== undefined && yielded >= cap) return;
      const metadata = await this.#metadata(row);
      if (!wanted.every(([k, v]) => sameValue((metadata as Record<string, unknown>)[k], v))) continue;
      yielded += 1;
      yield await this.#tuple(row, metadata, reader);
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
    const parentVersions = parentId === null ? {} : await this.#versionsOf(thread_id, checkpoint_ns, parentId);
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
    const { channel_values: _values, id: _id, ...rest } = checkpoint;
    const omitted = omittedChannels(checkpoint.channel_versions, values, newVersions);
    const head = omitted.length === 0 ? rest : { ...rest, [OMITTED]: omitted };
    const [metadataType, metadataData] = await this.serde.dumpsTyped(metadata);
    await this.writeCheckpoint({
      thread_id,
      checkpoint_ns,
      checkpoint_id: checkpoint.id,
      parent_checkpoint_id: parentId,
      blobs,
      checkpoint: JSON.stringify(head),
      metadata_type: metadataType,
      metadata: metadataData,
      highest,
    });
    this.versions.stored(highest);
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
    const rows: WriteInsert[] = [];
    for (const [i, [channel, value]] of writes.entries()) {
      const [type, data] = await this.serde.dumpsTyped(value);
      const idx = (WRITES_IDX_MAP as Record<string, number>)[channel] ?? i;
      rows.push([thread_id, checkpoint_ns, checkpoint_id, taskId, idx, channel, type, data, taskPath ?? ""]);
    }
    // As LangGraph.js's savers: special writes (errors, interrupts) replace, regular ones keep the first.
    await this.writeWrites(
      rows,
      writes.every(([channel]) => channel in WRITES_IDX_MAP),
    );
  }

  /** Forgets a thread: its checkpoints, values and writes, in one transaction. */
  async deleteThread(threadId: string): Promise<void> {
    if (typeof threadId !== "string") throw argumentError("deleteThread(threadId): threadId must be a string");
    await this.removeThread(threadId);
    this.#recent.forget(`${threadId}\u0000`);
  }

  /**
   * Forgets old checkpoints, per thread (`threadIds`, or every thread):
   * LangGraph (Python)'s `prune(thread_ids, strategy="keep_latest")`, with
   * more to keep (`keep`: see `PruneOptions`). The engine chooses what
   * stays (`planPrune`: each namespace keeps its latest checkpoint, a
   * subgraph's namespace goes with the checkpoint that ran it); then, in one
   * transaction per thread, the dropped checkpoints, their pending writes
   * and the channel versions no kept checkpoint references are deleted, and
   * a kept version stored over a deleted one is rewritten whole: every kept
   * tuple reads back as before. Then the space is reclaimed (`vacuum`).
   */
  async prune(options: PruneOptions = {}): Promise<PruneResult> {
    const retention = retentionOf(options);
    const threadIds = options.threadIds ?? (await this.readThreadIds());
    if (!Array.isArray(threadIds) || threadIds.some((t) => typeof t !== "string")) throw argumentError("prune({ threadIds }): threadIds must be strings");
    const result: PruneResult = { threads: threadIds.length, dropped: 0, kept: 0, versionsDropped: 0, rebased: 0, bytesBefore: await this.storageBytes(), bytesAfter: 0 };
    for (const thread_id of threadIds) {
      await this.#pruneThread(thread_id, retention, result);
      this.#recent.forget(`${thread_id}\u0000`);
    }
    // Nothing deleted, nothing to give back (a VACUUM rewrites the whole file).
    if (result.dropped > 0 || result.versionsDropped > 0) await this.reclaimStorage(options.vacuum);
    result.bytesAfter = await this.storageBytes();
    return result;
  }

  /** One thread's prune, planned again when a writer changed the thread between the plan and its transaction. */
  async #pruneThread(thread_id: string, retention: Parameters<typeof planThread>[2], result: PruneResult): Promise<void> {
    for (let attempt = 0; attempt < PRUNE_ATTEMPTS; attempt++) {
      const checkpoints: PruneCheckpoint[] = [];
      for (const row of await this.readCheckpoints({ thread_id })) {
        const { checkpoint_ns: ns, checkpoint_id: id, parent_checkpoint_id: parent } = row;
        checkpoints.push({ ns, id, parent, head: JSON.parse(row.checkpoint) as PruneCheckpoint["head"], metadata: await this.#metadata(row) });
      }
      const { plan, unreferenced, orphans } = planThread(checkpoints, await this.readBlobIndex(thread_id), retention);
      const dropped = new Set(plan.drop);
      const rows: PruneRows = {
        thread_id,
        planned: checkpoints.map((c) => [c.ns, c.id]),
        checkpoints: checkpoints.filter((c) => dropped.has(c.id)).map((c) => [c.ns, c.id]),
        versions: unreferenced.map((b) => [b.checkpoint_ns, b.channel, b.version]),
        rebased: [],
      };
      for (const b of orphans) {
        // Read before anything is deleted; rewritten as a snapshot of the whole value, through the serializer.
        const value = await this.#value(thread_id, b.checkpoint_ns, b.channel, b.version);
        const [type, data] = await this.serde.dumpsTyped(value);
        rows.rebased.push([b.checkpoint_ns, b.channel, b.version, type, data, snapshotPosition(Array.isArray(value) ? fingerprints(value) : undefined).baseBytes]);
      }
      if (rows.checkpoints.length === 0 && rows.versions.length === 0) {
        result.kept += checkpoints.length;
        return;
      }
      if (await this.writePrune(rows)) {
        result.dropped += rows.checkpoints.length;
        result.kept += checkpoints.length - rows.checkpoints.length;
        result.versionsDropped += rows.versions.length;
        result.rebased += rows.rebased.length;
        return;
      }
    }
    throw new Error(`prune: thread ${thread_id} changed at each of ${PRUNE_ATTEMPTS} attempts (other processes are writing it); nothing of it was pruned, try again`);
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
    const position = await this.readPosition(thread_id, ns, channel, version);
    if (position === undefined) return undefined;
    const value = await this.#value(thread_id, ns, channel, version);
    const elements = Array.isArray(value) ? fingerprints(value) : undefined;
    if (elements === undefined) return undefined;
    const list = { elements, digest: position.digest, depth: position.depth, baseBytes: position.base_bytes, deltaBytes: position.delta_bytes };
    this.#recent.set(key, list);
    return list;
  }

  /** The channel versions of a stored checkpoint (`{}` when there is none). */
  async #versionsOf(thread_id: string, ns: string, checkpoint_id: string): Promise<Record<string, number | string>> {
    const head = await this.readHead(thread_id, ns, checkpoint_id);
    if (head === undefined) return {};
    return (JSON.parse(head) as Checkpoint).channel_versions ?? {};
  }

  /** A channel version's value, rebuilt from its chain; `undefined` when it is empty or absent. */
  async #value(thread_id: string, ns: string, channel: string, version: string): Promise<unknown> {
    const rows = chainOf(await this.readChain(thread_id, ns, channel, version), thread_id, channel, version);
    if (rows === undefined) return undefined;
    const pieces: unknown[] = [];
    for (const r of rows) pieces.push(await this.serde.loadsTyped(r.type ?? "json", bytesOf(r.value)));
    return rebuild(pieces[0], pieces.slice(1));
  }

  /**
   * A checkpoint's channel values, read from its versions' chains: decoded
   * now through the serializer, or, when `reader` decodes every stored
   * piece synchronously, on the first read of `checkpoint.channel_values`.
   */
  async #channelValues(checkpoint: Checkpoint, thread_id: string, ns: string, reader: SyncReader | undefined, omitted: string[] | undefined): Promise<void> {
    const chains: [string, ChainRow[]][] = [];
    for (const [channel, v] of Object.entries(checkpoint.channel_versions ?? {})) {
      // A channel LangGraph.js left out of this checkpoint (a delta channel between snapshots) stays out.
      if (omitted?.includes(channel)) continue;
      const version = String(v);
      const rows = chainOf(await this.readChain(thread_id, ns, channel, version), thread_id, channel, version);
      if (rows !== undefined) chains.push([channel, rows]);
    }
    const decoders = reader === undefined ? undefined : lazyDecoders(chains, reader);
    if (decoders !== undefined) {
      defineDecodedLater(checkpoint, "channel_values", () => valuesOf(decoders.map(([channel, pieces]) => [channel, pieces.map((decode) => decode())])));
      return;
    }
    const decoded: [string, unknown[]][] = [];
    for (const [channel, rows] of chains) {
      const pieces: unknown[] = [];
      for (const r of rows) pieces.push(await this.serde.loadsTyped(r.type ?? "json", bytesOf(r.value)));
      decoded.push([channel, pieces]);
    }
    checkpoint.channel_values = valuesOf(decoded);
  }

  /** A row's metadata, through the serializer. */
  async #metadata(row: CheckpointRow): Promise<CheckpointMetadata> {
    return (await this.serde.loadsTyped(row.metadata_type, bytesOf(row.metadata))) as CheckpointMetadata;
  }

  /** The tuple of a stored checkpoint: its values rebuilt (lazily with a `reader`), its writes read. */
  async #tuple(row: CheckpointRow, metadata: CheckpointMetadata, reader?: SyncReader): Promise<CheckpointTuple> {
    const { thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id } = row;
    const { v, [OMITTED]: omitted, ...head } = JSON.parse(row.checkpoint) as Omit<Checkpoint, "id"> & { [OMITTED]?: string[] };
    // LangGraph.js's key order: v, id, ts, ...
    const checkpoint = { v, id: checkpoint_id, ...head } as Checkpoint;
    await this.#channelValues(checkpoint, thread_id, checkpoint_ns, reader, omitted);
    const pendingWrites: [string, string, unknown][] = [];
    for (const w of await this.readWrites(thread_id, checkpoint_ns, checkpoint_id)) {
      pendingWrites.push([w.task_id, w.channel, await this.serde.loadsTyped(w.type ?? "json", bytesOf(w.value))]);
    }
    // Checkpoints before format 4 kept pending sends in the parent's writes (as LangGraph.js's savers migrate them).
    if (checkpoint.v < 4 && parent_checkpoint_id !== null) await this.#migratePendingSends(checkpoint, thread_id, checkpoint_ns, parent_checkpoint_id);
    const tuple: CheckpointTuple = { config: { configurable: { thread_id, checkpoint_ns, checkpoint_id } }, checkpoint, metadata, pendingWrites };
    if (parent_checkpoint_id !== null) tuple.parentConfig = { configurable: { thread_id, checkpoint_ns, checkpoint_id: parent_checkpoint_id } };
    return tuple;
  }

  /** Format < 4: the parent's `__pregel_tasks` writes become the `TASKS` channel. */
  async #migratePendingSends(checkpoint: Checkpoint, thread_id: string, ns: string, parentId: string): Promise<void> {
    const sends: unknown[] = [];
    for (const r of await this.readSends(thread_id, ns, parentId, TASKS)) sends.push(await this.serde.loadsTyped(r.type ?? "json", bytesOf(r.value)));
    checkpoint.channel_values[TASKS] = sends;
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
  }
}

/**
 * A version's chain rows, snapshot first; `undefined` when the version is
 * empty or absent; an error when its chain has lost its snapshot.
 */
function chainOf(rows: ChainRow[], thread_id: string, channel: string, version: string): ChainRow[] | undefined {
  if (rows.length === 0 || rows[rows.length - 1]!.kind === EMPTY) return undefined;
  if (rows[0]!.kind !== FULL) throw new Error(`corrupt channel version ${channel}@${version} of thread ${thread_id}: its delta chain has no snapshot`);
  return rows;
}

/** Each chain's pieces as synchronous decoders; `undefined` when one piece needs the serializer. */
function lazyDecoders(chains: [string, ChainRow[]][], reader: SyncReader): [string, (() => unknown)[]][] | undefined {
  const out: [string, (() => unknown)[]][] = [];
  for (const [channel, rows] of chains) {
    const pieces: (() => unknown)[] = [];
    for (const r of rows) {
      const decode = reader.decoderOf(r.type ?? "json", bytesOf(r.value));
      if (decode === undefined) return undefined;
      pieces.push(decode);
    }
    out.push([channel, pieces]);
  }
  return out;
}

/** Channel values from each chain's decoded pieces (a stored `undefined` is left out, as LangGraph.js's savers do). */
function valuesOf(chains: [string, unknown[]][]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [channel, pieces] of chains) {
    const value = rebuild(pieces[0], pieces.slice(1));
    if (value !== undefined) values[channel] = value;
  }
  return values;
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

/**
 * The checkpoint head's key listing {@link omittedChannels} (absent from
 * heads that omit none, so older rows read as before).
 */
const OMITTED = "__omitted_channels__";

/**
 * The channels a checkpoint has a version of but no value for, at a version
 * an earlier checkpoint stored (not in `newVersions`): LangGraph.js's
 * `DeltaChannel` between its snapshots, whose value is rebuilt from writes.
 * A channel version's stored value would otherwise come back in this
 * checkpoint too (a `DeltaSnapshot` of an ancestor), which is not what was
 * put.
 */
function omittedChannels(versions: ChannelVersions | undefined, values: Record<string, unknown>, newVersions: ChannelVersions | undefined): string[] {
  const out: string[] = [];
  for (const channel of Object.keys(versions ?? {})) {
    if (!Object.prototype.hasOwnProperty.call(values, channel) && !Object.prototype.hasOwnProperty.call(newVersions ?? {}, channel)) out.push(channel);
  }
  return out;
}
