// `SqliteSaver`, exported by `chronograph/langgraph`: a persistent
// LangGraph.js checkpointer on a SQLite file (better-sqlite3, an optional
// peer: sqlite_driver.ts) whose size grows with a conversation, not with
// its square.
//
// LangGraph.js's own SqliteSaver writes each checkpoint whole, every
// channel value included, so a message list is written again at every
// superstep. Here each channel version is stored once (sqlite_schema.ts),
// and a version that appends to the version it replaced is stored as its
// tail (delta.ts); what it shares with PostgresSaver is in compact_saver.ts.
// This file keeps SQLite's part: its statements and its transactions.
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { DeltaOptions } from "./delta.js";
import { CompactSaver } from "./compact_saver.js";
import { assertSameVersion, maybeKillInPut } from "./compact_rows.js";
import type { ChainRow, CheckpointRow, ListQuery, PositionRow, PutRows, StoredBlob, WriteInsert, WriteRow } from "./compact_rows.js";
import { sqliteDriver, type SqliteDatabase } from "./sqlite_driver.js";
import { LIST_SELECT, openSchema, type Statements } from "./sqlite_schema.js";
import { unchanged, type PruneBlob, type PruneRows } from "./prune.js";

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
export class SqliteSaver extends CompactSaver {
  /** The better-sqlite3 database. */
  readonly db: SqliteDatabase;
  #statements: Statements | undefined;

  constructor(db: SqliteDatabase, serde?: SerializerProtocol, options?: DeltaOptions) {
    super(serde, options);
    this.db = db;
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

  /** A block of versions, in one `BEGIN IMMEDIATE` transaction: above every version of the file and `atLeast`. */
  protected reserveVersionsNow(atLeast: number, count: number): number {
    const sql = this.#sql;
    return this.db.transaction(() => (sql.reserveVersions.get(atLeast, count) as { hi: number }).hi).immediate();
  }

  protected async readCheckpoint(thread_id: string, ns: string, id: string | undefined): Promise<CheckpointRow | undefined> {
    const sql = this.#sql;
    return (id === undefined ? sql.latest.get(thread_id, ns) : sql.byId.get(thread_id, ns, id)) as CheckpointRow | undefined;
  }

  protected async readCheckpoints(query: ListQuery): Promise<CheckpointRow[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      where.push(clause);
      args.push(value);
    };
    if (query.thread_id !== undefined) add("thread_id = ?", query.thread_id);
    if (query.checkpoint_ns !== undefined) add("checkpoint_ns = ?", query.checkpoint_ns);
    if (query.checkpoint_id !== undefined) add("checkpoint_id = ?", query.checkpoint_id);
    if (query.before !== undefined) add("checkpoint_id < ?", query.before);
    let sql = `${LIST_SELECT}${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY checkpoint_id DESC`;
    if (query.limit !== undefined) sql += ` LIMIT ${query.limit}`;
    this.setup();
    return this.db.prepare(sql).all(...args) as CheckpointRow[];
  }

  protected async readHead(thread_id: string, ns: string, id: string): Promise<string | undefined> {
    return (this.#sql.versionsOf.get(thread_id, ns, id) as { checkpoint: string } | undefined)?.checkpoint;
  }

  protected async readChain(thread_id: string, ns: string, channel: string, version: string): Promise<ChainRow[]> {
    return this.#sql.chain.all({ thread_id, ns, channel, version }) as ChainRow[];
  }

  protected async readPosition(thread_id: string, ns: string, channel: string, version: string): Promise<PositionRow | undefined> {
    return this.#sql.position.get(thread_id, ns, channel, version) as PositionRow | undefined;
  }

  protected async readWrites(thread_id: string, ns: string, id: string): Promise<WriteRow[]> {
    return this.#sql.writesOf.all(thread_id, ns, id) as WriteRow[];
  }

  protected async readSends(thread_id: string, ns: string, id: string, channel: string): Promise<Pick<ChainRow, "type" | "value">[]> {
    return this.#sql.sendsOf.all(thread_id, ns, id, channel) as Pick<ChainRow, "type" | "value">[];
  }

  /**
   * One write transaction, the write lock taken at its start: a second
   * process waits (or fails with SQLITE_BUSY after better-sqlite3's 5 s
   * timeout), and a version already stored with another value fails the
   * whole put (CHECKPOINT_CONFLICT): nothing of a failed or killed put is kept.
   */
  protected async writeCheckpoint(put: PutRows): Promise<void> {
    const sql = this.#sql;
    const { thread_id, checkpoint_ns: ns } = put;
    this.db.transaction(() => {
      for (const b of put.blobs) {
        if (sql.insertBlob.run(thread_id, ns, ...b).changes > 0) continue;
        assertSameVersion(sql.storedBlob.get(thread_id, ns, b[0], b[1]) as StoredBlob, b, thread_id, ns);
      }
      maybeKillInPut();
      sql.insertCheckpoint.run(thread_id, ns, put.checkpoint_id, put.parent_checkpoint_id, put.checkpoint, put.metadata_type, put.metadata);
      // Versions handed out by another saver object on the file lie above its blocks' reservations.
      if (put.highest > 0) sql.raiseMaxVersion.run(put.highest);
    }).immediate();
  }

  protected async writeWrites(rows: WriteInsert[], replace: boolean): Promise<void> {
    const sql = this.#sql;
    const insert = replace ? sql.replaceWrite : sql.insertWrite;
    this.db.transaction(() => {
      for (const row of rows) insert.run(...row);
    }).immediate();
  }

  protected async removeThread(thread_id: string): Promise<void> {
    const sql = this.#sql;
    this.db.transaction(() => {
      for (const s of sql.deleteThread) s.run(thread_id);
    }).immediate();
  }

  protected async readThreadIds(): Promise<string[]> {
    return (this.#sql.prune.threadIds.all() as { thread_id: string }[]).map((r) => r.thread_id);
  }

  protected async readBlobIndex(thread_id: string): Promise<PruneBlob[]> {
    return this.#sql.prune.blobIndex.all(thread_id) as PruneBlob[];
  }

  /** One `BEGIN IMMEDIATE` transaction: other writers of the file wait for it. */
  protected async writePrune(rows: PruneRows): Promise<boolean> {
    const sql = this.#sql.prune;
    const { thread_id } = rows;
    return this.db
      .transaction(() => {
        const now = (sql.idsOf.all(thread_id) as { checkpoint_ns: string; checkpoint_id: string }[]).map((r): [string, string] => [r.checkpoint_ns, r.checkpoint_id]);
        if (!unchanged(rows.planned, now)) return false;
        for (const [ns, id] of rows.checkpoints) {
          sql.deleteCheckpoint.run(thread_id, ns, id);
          sql.deleteWritesOf.run(thread_id, ns, id);
        }
        for (const [ns, channel, version] of rows.versions) sql.deleteBlob.run(thread_id, ns, channel, version);
        for (const [ns, channel, version, type, value, bytes] of rows.rebased) sql.rebaseBlob.run(type, value, bytes, thread_id, ns, channel, version);
        return true;
      })
      .immediate();
  }

  /** The file's pages (the WAL is checkpointed into it by `reclaimStorage`). */
  protected async storageBytes(): Promise<number> {
    this.setup();
    const pages = this.db.pragma("page_count", { simple: true }) as number;
    return pages * (this.db.pragma("page_size", { simple: true }) as number);
  }

  /**
   * `VACUUM` (unless `vacuum: false`), then the WAL checkpointed and cut
   * back: the file shrinks to what stays. `VACUUM` rather than
   * `auto_vacuum = INCREMENTAL`, which a file must have from its creation
   * (files written before would need a `VACUUM` to switch anyway) and which
   * leaves pages half full; `VACUUM` rewrites the file, so it takes time
   * in proportion to what stays and briefly needs that much free disk.
   */
  protected async reclaimStorage(vacuum: boolean | undefined): Promise<void> {
    if (vacuum === false) return;
    this.db.exec("VACUUM");
    this.db.pragma("wal_checkpoint(TRUNCATE)");
  }
}
