// The tables of `PostgresSaver` (postgres_saver.ts), their queries, and the
// schema's version check.
//
// The tables are those of SqliteSaver (sqlite_schema.ts; rows in
// compact_rows.ts) in the PostgreSQL schema the saver is given (`public`
// by default, as LangGraph.js's PostgresSaver), prefixed `chronograph_` so a
// schema that also holds LangGraph.js's own tables (`checkpoints`,
// `checkpoint_blobs`, `checkpoint_writes`) keeps both.
import { chainQuery, compactTables, pruneStatements, type PruneStatements } from "./compact_sql.js";
import type { PostgresQueryable } from "./postgres_driver.js";

/** The schema this code writes; another one in a database is refused. */
export const SCHEMA_VERSION = 2;

/** `name` as a quoted SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The statements of a saver on schema `schema`: each one SQL text with `$n` parameters. */
export interface PostgresStatements {
  /** The tables and the version row, for `setup`. */
  tables: string;
  schemaVersion: string;
  insertSchema: string;
  latest: string;
  byId: string;
  /** `list`'s columns (its WHERE, ORDER BY and LIMIT are added per call). */
  listSelect: string;
  versionsOf: string;
  writesOf: string;
  sendsOf: string;
  chain: string;
  position: string;
  insertCheckpoint: string;
  insertBlob: string;
  storedBlob: string;
  reserveVersions: string;
  raiseMaxVersion: string;
  insertWrite: string;
  replaceWrite: string;
  deleteThread: string[];
  /** `prune`'s statements (compact_sql.ts). */
  prune: PruneStatements;
  /** The bytes of the saver's tables, their indexes and TOAST included ($1: the schema). */
  storageBytes: string;
  /** The saver's tables, for `VACUUM FULL`. */
  tableNames: string[];
}

/** The statements on `schema` (see {@link PostgresStatements}). */
export function statementsFor(schema: string): PostgresStatements {
  const s = quoteIdent(schema);
  const checkpoints = `${s}.chronograph_checkpoints`;
  const blobs = `${s}.chronograph_blobs`;
  const writes = `${s}.chronograph_writes`;
  const meta = `${s}.chronograph_schema`;
  const row = `SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata_type, metadata FROM ${checkpoints}`;
  const writeColumns = "(thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value, task_path) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
  return {
    tables: `
CREATE SCHEMA IF NOT EXISTS ${s};
CREATE TABLE IF NOT EXISTS ${meta} (version INTEGER NOT NULL, max_channel_version BIGINT NOT NULL DEFAULT 0);
${compactTables(`${s}.`, { bytes: "BYTEA", tableOptions: "", idCollation: ' COLLATE "C"' })}`,
    schemaVersion: `SELECT version FROM ${meta}`,
    insertSchema: `INSERT INTO ${meta} (version) VALUES ($1)`,
    latest: `${row} WHERE thread_id = $1 AND checkpoint_ns = $2 ORDER BY checkpoint_id DESC LIMIT 1`,
    byId: `${row} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3`,
    listSelect: row,
    versionsOf: `SELECT checkpoint FROM ${checkpoints} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3`,
    writesOf: `SELECT task_id, channel, type, value FROM ${writes} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3 ORDER BY task_id, idx`,
    sendsOf: `SELECT type, value FROM ${writes} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3 AND channel = $4 ORDER BY task_path, task_id, idx`,
    chain: chainQuery(blobs, ["$1", "$2", "$3", "$4"]),
    position: `SELECT depth, base_bytes, delta_bytes, digest FROM ${blobs} WHERE thread_id = $1 AND checkpoint_ns = $2 AND channel = $3 AND version = $4`,
    insertCheckpoint:
      `INSERT INTO ${checkpoints} (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata_type, metadata) ` +
      "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) DO UPDATE SET " +
      "parent_checkpoint_id = EXCLUDED.parent_checkpoint_id, checkpoint = EXCLUDED.checkpoint, metadata_type = EXCLUDED.metadata_type, metadata = EXCLUDED.metadata",
    // A version is written once; a second write of it is compared with the first (PostgresSaver.writeCheckpoint).
    insertBlob:
      `INSERT INTO ${blobs} (thread_id, checkpoint_ns, channel, version, kind, base_version, depth, base_bytes, delta_bytes, type, value, digest) ` +
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING",
    storedBlob: `SELECT kind, base_version, type, value, digest FROM ${blobs} WHERE thread_id = $1 AND checkpoint_ns = $2 AND channel = $3 AND version = $4`,
    // A block of versions for one saver alone: above every version of the database and above $1.
    reserveVersions: `UPDATE ${meta} SET max_channel_version = GREATEST(max_channel_version, $1) + $2 RETURNING max_channel_version AS hi`,
    raiseMaxVersion: `UPDATE ${meta} SET max_channel_version = GREATEST(max_channel_version, $1)`,
    insertWrite: `INSERT INTO ${writes} ${writeColumns} ON CONFLICT DO NOTHING`,
    replaceWrite:
      `INSERT INTO ${writes} ${writeColumns} ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) DO UPDATE SET ` +
      "channel = EXCLUDED.channel, type = EXCLUDED.type, value = EXCLUDED.value, task_path = EXCLUDED.task_path",
    deleteThread: [checkpoints, blobs, writes].map((t) => `DELETE FROM ${t} WHERE thread_id = $1`),
    prune: pruneStatements(`${s}.`, (n) => `$${n}`),
    storageBytes:
      "SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace " +
      "WHERE n.nspname = $1 AND c.relkind = 'r' AND c.relname LIKE 'chronograph\\_%'",
    tableNames: [checkpoints, blobs, writes],
  };
}

/** The error of a database whose schema version this code does not write. */
function unsupportedSchema(schema: string, version: number): Error & { code: string } {
  const which = version > SCHEMA_VERSION ? "newer than this chronograph's" : "older than this chronograph's, and not one it migrates";
  const e = new Error(
    `The PostgreSQL schema "${schema}" holds chronograph checkpoints in schema version ${version}, ${which} (${SCHEMA_VERSION})` +
      `${version > SCHEMA_VERSION ? ": upgrade chronograph to read it" : ""}. Nothing was changed.`,
  ) as Error & { code: string };
  e.code = "UNSUPPORTED_SCHEMA";
  return e;
}

/**
 * Creates the schema and tables (once) and checks the schema version, in
 * one transaction on `client` under an advisory lock, so that savers of
 * several processes setting up one database at once do not race: a
 * database of another version is refused with a message, never read or
 * written by guess. Resolves to the top of a first block of versions
 * reserved for the saver (see `VersionBlocks`).
 */
export async function setupSchema(client: PostgresQueryable, schema: string, sql: PostgresStatements, atLeast: number, count: number): Promise<number> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('chronograph_setup'), hashtext($1))", [schema]);
    const exists = await client.query("SELECT to_regclass($1) IS NOT NULL AS found", [`${quoteIdent(schema)}.chronograph_schema`]);
    if (exists.rows[0]?.["found"] === true) {
      const row = (await client.query(sql.schemaVersion)).rows[0];
      const version = row === undefined ? undefined : Number(row["version"]);
      if (version !== undefined && version !== SCHEMA_VERSION) throw unsupportedSchema(schema, version);
    }
    await client.query(sql.tables);
    const present = (await client.query(sql.schemaVersion)).rows.length > 0;
    if (!present) await client.query(sql.insertSchema, [SCHEMA_VERSION]);
    const hi = Number((await client.query(sql.reserveVersions, [atLeast, count])).rows[0]!["hi"]);
    await client.query("COMMIT");
    return hi;
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}
