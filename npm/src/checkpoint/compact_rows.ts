// The rows of the compact savers (compact_saver.ts: SqliteSaver on SQLite,
// PostgresSaver on PostgreSQL) and the checks both run on them: what a
// backend reads and writes, whatever its SQL.
//
// A channel version is stored once, keyed as LangGraph's PostgreSQL saver
// keys its blobs (thread, namespace, channel, version); a row is a full
// value, an empty channel, or a delta (the tail appended to its
// `base_version`: delta.ts).
import { versionConflict } from "./saver_errors.js";

/** `kind` of a blob row: the channel is empty at this version. */
export const EMPTY = 0;
/** `kind` of a blob row holding the whole value. */
export const FULL = 1;
/** `kind` of a blob row holding the tail appended to its `base_version`. */
export const DELTA = 2;

/** A blob row, as a backend inserts it (after the thread and namespace). */
export type BlobRow = [
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

/** A stored blob row, as read back to compare it with a second write of its version. */
export interface StoredBlob {
  kind: number;
  base_version: string | null;
  type: string | null;
  value: unknown;
  digest: string | null;
}

/** A row of the checkpoints table as read. */
export interface CheckpointRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  /** The checkpoint as JSON, without its id (the key) and values (blobs). */
  checkpoint: string;
  metadata_type: string;
  metadata: Uint8Array | string | null;
}

/** One row of a version's chain (snapshot first), as read. */
export interface ChainRow {
  kind: number;
  type: string | null;
  value: unknown;
}

/** A stored version's place in its chain, as read. */
export interface PositionRow {
  depth: number;
  base_bytes: number;
  delta_bytes: number;
  digest: string | null;
}

/** A pending write as read. */
export interface WriteRow {
  task_id: string;
  channel: string;
  type: string | null;
  value: unknown;
}

/** A pending write, as a backend inserts it. */
export type WriteInsert = [
  thread_id: string,
  checkpoint_ns: string,
  checkpoint_id: string,
  task_id: string,
  idx: number,
  channel: string,
  type: string,
  value: unknown,
  task_path: string,
];

/** Which checkpoints `list` reads, newest first (every field optional). */
export interface ListQuery {
  thread_id?: string;
  checkpoint_ns?: string;
  checkpoint_id?: string;
  /** Only checkpoints with a smaller id. */
  before?: string;
  /** At most this many rows (only when no metadata filter applies). */
  limit?: number;
}

/** Everything one `put` writes, in one transaction. */
export interface PutRows {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  blobs: BlobRow[];
  /** The checkpoint as JSON, without its id and values. */
  checkpoint: string;
  metadata_type: string;
  metadata: unknown;
  /** The highest integer version among the new ones (0 without one). */
  highest: number;
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
 * Throws `CHECKPOINT_CONFLICT` unless the row already stored for a version
 * holds the value about to be written: compared by digest when both have
 * one (whatever bytes the serializer made), else by kind and bytes. A
 * backend calls it inside its put transaction when a version's row exists.
 */
export function assertSameVersion(stored: StoredBlob, row: BlobRow, thread_id: string, ns: string): void {
  const [channel, version, kind, base, , , , type, value, rowDigest] = row;
  let same: boolean;
  if (stored.kind === EMPTY || kind === EMPTY) same = stored.kind === kind;
  else if (stored.digest !== null && rowDigest !== null) same = stored.digest === rowDigest;
  else same = stored.kind === kind && stored.base_version === base && stored.type === type && sameBytes(stored.value, value);
  if (!same) throw versionConflict(thread_id, ns, channel, version);
}

/** Data read from a BLOB/bytea column, as the serializer expects it (the drivers give a Buffer). */
export function bytesOf(data: unknown): Uint8Array | string {
  if (typeof data === "string") return data;
  if (data instanceof Uint8Array) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
  return "";
}

/** Deep equality of metadata values (a `list` filter). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * The test hook of the fault tests (npm/test/interop/sqlite-faults.test.mjs,
 * postgres-saver.test.mjs): with `CHRONOGRAPH_TEST_KILL_IN_PUT=N` in its
 * environment, a process SIGKILLs itself inside its Nth `put`'s
 * transaction, after the version rows are written and before the
 * checkpoint row and the commit. Not for use outside tests: it exists to
 * show a killed `put` leaves nothing half-written.
 */
const killInPut: number | undefined = (() => {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const n = Number(env?.["CHRONOGRAPH_TEST_KILL_IN_PUT"]);
  return Number.isInteger(n) && n > 0 ? n : undefined;
})();
let putsInProcess = 0;

/** Runs the kill hook (see {@link killInPut}) at one more `put`: backends call it inside the put transaction. */
export function maybeKillInPut(): void {
  if (killInPut === undefined) return;
  putsInProcess += 1;
  if (putsInProcess !== killInPut) return;
  const proc = (globalThis as { process?: { pid: number; kill(pid: number, signal: string): void } }).process;
  proc?.kill(proc.pid, "SIGKILL");
}

/** Versions a saver reserves at once in its database (see {@link VersionBlocks}). */
export const VERSION_BLOCK = 256;

/**
 * The channel versions one saver hands out: integers above the version
 * they replace and above every version this saver handed out, taken from
 * a block reserved in the database for this saver alone, so that two
 * branches forked from one checkpoint, or two processes writing one
 * thread, never give one version two values (the savers key values by
 * version). LangGraph.js's default, `current + 1`, would.
 */
export class VersionBlocks {
  /** The highest version handed out or seen stored here. */
  #last = 0;
  #lo = 1;
  #hi = 0;

  /**
   * The next version after `current`. When it falls outside the block,
   * `reserveNow(atLeast, count)` reserves a new one at once (a backend with
   * a synchronous driver); without it (or when it returns `undefined`) the
   * version is handed out as is: a backend with an asynchronous driver
   * reserves ahead instead (see {@link wanted}), and a version another
   * writer also took fails one `put` with `CHECKPOINT_CONFLICT`, never
   * silently.
   */
  next(current: number | undefined, reserveNow?: (atLeast: number, count: number) => number | undefined): number {
    let next = Math.max(current ?? 0, this.#last) + 1;
    if (next <= this.#hi) {
      // Below the block: its first version is above `current` too.
      next = Math.max(next, this.#lo);
    } else {
      const hi = reserveNow?.(next - 1, VERSION_BLOCK);
      if (hi !== undefined) {
        this.accept(hi);
        next = this.#lo;
      }
    }
    this.#last = next;
    return next;
  }

  /**
   * The least top of a new block when the current one runs low (under half
   * a block left above `seen`, a version just read, and above every
   * version handed out); `undefined` when it does not.
   */
  wanted(seen = 0): number | undefined {
    const from = Math.max(seen, this.#last);
    return this.#hi - from < VERSION_BLOCK / 2 ? from : undefined;
  }

  /** A block reserved up to `hi` (its `VERSION_BLOCK` versions end there). */
  accept(hi: number): void {
    if (hi <= this.#hi) return;
    this.#lo = Math.max(hi - VERSION_BLOCK + 1, this.#last + 1);
    this.#hi = hi;
  }

  /** Whether `version` lies beyond every block reserved here (so the database must learn of it). */
  beyond(version: number): boolean {
    return version > this.#hi;
  }

  /** Notes a version stored by a `put` (handed out by another saver object, perhaps). */
  stored(version: number): void {
    if (version > this.#last) this.#last = version;
  }
}

/** The key of a channel version among recently stored lists (thread first: `forget` goes by it). */
export function listKey(thread_id: string, ns: string, channel: string, version: string): string {
  return `${thread_id}\u0000${ns}\u0000${channel}\u0000${version}`;
}
