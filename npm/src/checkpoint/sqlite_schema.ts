// The tables of `SqliteSaver` (sqlite_saver.ts) and their statements.
//
// Tables are prefixed `chronograph_`, so a file that also holds LangGraph.js's
// own SqliteSaver tables (`checkpoints`, `writes`) keeps both. The rows are
// those of compact_rows.ts; postgres_schema.ts holds the same tables for
// PostgreSQL.
import { chainQuery, compactTables, pruneStatements, type PruneStatements } from "./compact_sql.js";
import type { SqliteDatabase, SqliteStatement } from "./sqlite_driver.js";

/** The schema this code writes; a newer one in a file is refused. */
export const SCHEMA_VERSION = 2;

const TABLES = compactTables("", { bytes: "BLOB", tableOptions: " WITHOUT ROWID", idCollation: "" });

/** The prepared statements of a saver. */
export interface Statements {
  latest: SqliteStatement;
  byId: SqliteStatement;
  versionsOf: SqliteStatement;
  writesOf: SqliteStatement;
  sendsOf: SqliteStatement;
  chain: SqliteStatement;
  position: SqliteStatement;
  insertCheckpoint: SqliteStatement;
  insertBlob: SqliteStatement;
  storedBlob: SqliteStatement;
  reserveVersions: SqliteStatement;
  insertWrite: SqliteStatement;
  replaceWrite: SqliteStatement;
  raiseMaxVersion: SqliteStatement;
  deleteThread: SqliteStatement[];
  /** `prune`'s statements (compact_sql.ts). */
  prune: Record<keyof PruneStatements, SqliteStatement>;
}

const ROW = "SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata_type, metadata FROM chronograph_checkpoints";

/** The columns `list` reads (its WHERE and ORDER BY are added per call). */
export const LIST_SELECT = ROW;

/**
 * Creates the tables (once) in WAL mode, as LangGraph.js's SqliteSaver
 * does (with a WAL kept small), and checks the schema version: a file written by a newer schema is
 * refused with a message, never read or written by guess.
 */
export function openSchema(db: SqliteDatabase): Statements {
  db.pragma("journal_mode = WAL");
  // The WAL is part of what a saver costs on disk: checkpoint it into the file every
  // 64 pages (256 KB; SQLite's default is 4 MB) and cut it back to that size after.
  db.pragma("wal_autocheckpoint = 64");
  db.pragma("journal_size_limit = 262144");
  db.exec("CREATE TABLE IF NOT EXISTS chronograph_schema (version INTEGER NOT NULL, max_channel_version INTEGER NOT NULL DEFAULT 0)");
  const row = db.prepare("SELECT version FROM chronograph_schema").get() as { version: number } | undefined;
  if (row !== undefined && row.version > SCHEMA_VERSION) {
    const e = new Error(
      `This SQLite file holds chronograph checkpoints in schema version ${row.version}, newer than this chronograph's (${SCHEMA_VERSION}): ` +
        "upgrade chronograph to read it. Nothing was changed.",
    ) as Error & { code: string };
    e.code = "UNSUPPORTED_SCHEMA";
    throw e;
  }
  db.transaction(() => {
    db.exec(TABLES);
    if (row === undefined) db.prepare("INSERT INTO chronograph_schema (version) VALUES (?)").run(SCHEMA_VERSION);
    else if (row.version < 2) {
      // Version 1 had no digests: its rows are compared by their bytes (see SqliteSaver.put).
      db.exec("ALTER TABLE chronograph_blobs ADD COLUMN digest TEXT");
      db.prepare("UPDATE chronograph_schema SET version = ?").run(SCHEMA_VERSION);
    }
  }).immediate();
  return {
    latest: db.prepare(`${ROW} WHERE thread_id = ? AND checkpoint_ns = ? ORDER BY checkpoint_id DESC LIMIT 1`),
    byId: db.prepare(`${ROW} WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?`),
    versionsOf: db.prepare("SELECT checkpoint FROM chronograph_checkpoints WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"),
    writesOf: db.prepare(
      "SELECT task_id, channel, type, value FROM chronograph_writes WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ? ORDER BY task_id, idx",
    ),
    sendsOf: db.prepare(
      "SELECT type, value FROM chronograph_writes WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ? AND channel = ? ORDER BY task_path, task_id, idx",
    ),
    chain: db.prepare(chainQuery("chronograph_blobs", ["@thread_id", "@ns", "@channel", "@version"])),
    position: db.prepare(
      "SELECT depth, base_bytes, delta_bytes, digest FROM chronograph_blobs WHERE thread_id = ? AND checkpoint_ns = ? AND channel = ? AND version = ?",
    ),
    insertCheckpoint: db.prepare(
      "INSERT OR REPLACE INTO chronograph_checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata_type, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ),
    // A version is written once; a second write of it is compared with the first (SqliteSaver.put).
    insertBlob: db.prepare(
      "INSERT OR IGNORE INTO chronograph_blobs (thread_id, checkpoint_ns, channel, version, kind, base_version, depth, base_bytes, delta_bytes, type, value, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    storedBlob: db.prepare(
      "SELECT kind, base_version, type, value, digest FROM chronograph_blobs WHERE thread_id = ? AND checkpoint_ns = ? AND channel = ? AND version = ?",
    ),
    // A block of versions for one saver alone: above every version of the file and above `?`.
    reserveVersions: db.prepare(
      "UPDATE chronograph_schema SET max_channel_version = max(max_channel_version, ?) + ? RETURNING max_channel_version AS hi",
    ),
    insertWrite: db.prepare(
      "INSERT OR IGNORE INTO chronograph_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value, task_path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    replaceWrite: db.prepare(
      "INSERT OR REPLACE INTO chronograph_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value, task_path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    raiseMaxVersion: db.prepare("UPDATE chronograph_schema SET max_channel_version = max(max_channel_version, ?)"),
    deleteThread: ["chronograph_checkpoints", "chronograph_blobs", "chronograph_writes"].map((t) =>
      db.prepare(`DELETE FROM ${t} WHERE thread_id = ?`),
    ),
    prune: Object.fromEntries(Object.entries(pruneStatements("", () => "?")).map(([k, text]) => [k, db.prepare(text)])) as Statements["prune"],
  };
}
