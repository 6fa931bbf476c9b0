// The SQL both compact savers run, in the dialect of each: the tables
// (sqlite_schema.ts, postgres_schema.ts) and the recursive query that reads
// a version's delta chain. The rows are those of compact_rows.ts.
import { DELTA, FULL } from "./compact_rows.js";

/** What differs between SQLite's and PostgreSQL's spelling of the tables. */
export interface TableDialect {
  /** The type of serialized values (`BLOB`, `BYTEA`). */
  bytes: string;
  /** Written after each table's definition (SQLite's `WITHOUT ROWID`). */
  tableOptions: string;
  /** The collation of `checkpoint_id`, so ids compare by their bytes (uuid6 ids sort by time). */
  idCollation: string;
}

/**
 * The three tables, named `${prefix}chronograph_*` (`prefix`: a quoted
 * schema and a dot, or nothing). Created only when missing.
 */
export function compactTables(prefix: string, d: TableDialect): string {
  const id = `checkpoint_id TEXT${d.idCollation} NOT NULL`;
  return `
CREATE TABLE IF NOT EXISTS ${prefix}chronograph_checkpoints (
  thread_id TEXT NOT NULL,
  checkpoint_ns TEXT NOT NULL DEFAULT '',
  ${id},
  parent_checkpoint_id TEXT,
  checkpoint TEXT NOT NULL, -- the checkpoint as JSON, without its id (the key) and values (blobs)
  metadata_type TEXT NOT NULL,
  metadata ${d.bytes},
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
)${d.tableOptions};
CREATE TABLE IF NOT EXISTS ${prefix}chronograph_blobs (
  thread_id TEXT NOT NULL,
  checkpoint_ns TEXT NOT NULL DEFAULT '',
  channel TEXT NOT NULL,
  version TEXT NOT NULL,
  kind INTEGER NOT NULL,
  base_version TEXT,
  depth INTEGER NOT NULL DEFAULT 0,
  base_bytes INTEGER NOT NULL DEFAULT 0,
  delta_bytes INTEGER NOT NULL DEFAULT 0,
  type TEXT,
  value ${d.bytes},
  digest TEXT, -- the value's fingerprint digest (delta.ts), so a second write of a version is compared by value
  PRIMARY KEY (thread_id, checkpoint_ns, channel, version)
)${d.tableOptions};
CREATE TABLE IF NOT EXISTS ${prefix}chronograph_writes (
  thread_id TEXT NOT NULL,
  checkpoint_ns TEXT NOT NULL DEFAULT '',
  ${id},
  task_id TEXT NOT NULL,
  idx INTEGER NOT NULL,
  channel TEXT NOT NULL,
  type TEXT,
  value ${d.bytes},
  task_path TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
)${d.tableOptions};`;
}

/**
 * A version's chain, snapshot first: the row asked for, then each
 * `base_version` a delta points to, in one recursive query (a read is one
 * query per channel, however long the chain). `p` spells the parameters
 * thread, namespace, channel and version in the driver's syntax.
 */
export function chainQuery(blobs: string, p: [thread: string, ns: string, channel: string, version: string]): string {
  return `
WITH RECURSIVE chain(kind, base_version, type, value, step) AS (
  SELECT kind, base_version, type, value, 0 FROM ${blobs}
   WHERE thread_id = ${p[0]} AND checkpoint_ns = ${p[1]} AND channel = ${p[2]} AND version = ${p[3]}
  UNION ALL
  SELECT b.kind, b.base_version, b.type, b.value, c.step + 1 FROM chain c
    JOIN ${blobs} b
      ON b.thread_id = ${p[0]} AND b.checkpoint_ns = ${p[1]} AND b.channel = ${p[2]} AND b.version = c.base_version
   WHERE c.kind = ${DELTA}
)
SELECT kind, type, value FROM chain ORDER BY step DESC`;
}

/** The statements of a prune (compact_saver.ts `prune`), each as SQL text. */
export interface PruneStatements {
  threadIds: string;
  /** A thread's checkpoints as `checkpoint_ns, checkpoint_id` (what the transaction compares with the plan). */
  idsOf: string;
  blobIndex: string;
  deleteCheckpoint: string;
  deleteWritesOf: string;
  deleteBlob: string;
  /** Rewrites a kept delta as a snapshot: type, value and snapshot size first, then the key. */
  rebaseBlob: string;
}

/**
 * The prune statements on tables named `${prefix}chronograph_*`; `p(n)`
 * spells the nth parameter (1-based) in the driver's syntax.
 */
export function pruneStatements(prefix: string, p: (n: number) => string): PruneStatements {
  const checkpoints = `${prefix}chronograph_checkpoints`;
  const blobs = `${prefix}chronograph_blobs`;
  const writes = `${prefix}chronograph_writes`;
  const checkpointKey = `thread_id = ${p(1)} AND checkpoint_ns = ${p(2)} AND checkpoint_id = ${p(3)}`;
  return {
    threadIds: `SELECT DISTINCT thread_id FROM ${checkpoints} ORDER BY thread_id`,
    idsOf: `SELECT checkpoint_ns, checkpoint_id FROM ${checkpoints} WHERE thread_id = ${p(1)}`,
    blobIndex: `SELECT checkpoint_ns, channel, version, kind, base_version FROM ${blobs} WHERE thread_id = ${p(1)}`,
    deleteCheckpoint: `DELETE FROM ${checkpoints} WHERE ${checkpointKey}`,
    deleteWritesOf: `DELETE FROM ${writes} WHERE ${checkpointKey}`,
    deleteBlob: `DELETE FROM ${blobs} WHERE thread_id = ${p(1)} AND checkpoint_ns = ${p(2)} AND channel = ${p(3)} AND version = ${p(4)}`,
    rebaseBlob:
      `UPDATE ${blobs} SET kind = ${FULL}, base_version = NULL, depth = 0, delta_bytes = 0, type = ${p(1)}, value = ${p(2)}, base_bytes = ${p(3)} ` +
      `WHERE thread_id = ${p(4)} AND checkpoint_ns = ${p(5)} AND channel = ${p(6)} AND version = ${p(7)}`,
  };
}
