// `PostgresSaver`, exported by `chronograph/langgraph`: a persistent
// LangGraph.js checkpointer on PostgreSQL (pg, an optional peer:
// postgres_driver.ts) whose size grows with a conversation, not with its
// square: the compact format of SqliteSaver (compact_saver.ts), in
// PostgreSQL's tables (postgres_schema.ts). This file keeps PostgreSQL's
// part: its queries, its transactions and its locks.
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import type { DeltaOptions } from "./delta.js";
import { CompactSaver } from "./compact_saver.js";
import { VERSION_BLOCK, assertSameVersion, maybeKillInPut } from "./compact_rows.js";
import type { ChainRow, CheckpointRow, ListQuery, PositionRow, PutRows, StoredBlob, WriteInsert, WriteRow } from "./compact_rows.js";
import { postgresDriver, type PostgresPool, type PostgresQueryable } from "./postgres_driver.js";
import { unchanged, type PruneBlob, type PruneRows } from "./prune.js";
import { setupSchema, statementsFor, type PostgresStatements } from "./postgres_schema.js";

/** PostgresSaver's options: LangGraph.js's (`schema`) and the delta policy's. */
export interface PostgresSaverOptions extends DeltaOptions {
  /** The PostgreSQL schema of the tables (default `public`, as LangGraph.js's PostgresSaver). */
  schema?: string;
}

/** A value for a BYTEA parameter: text as its UTF-8 bytes (pg would send a string as bytea's escaped text). */
function bytea(value: unknown): unknown {
  return typeof value === "string" ? new TextEncoder().encode(value) : value;
}

/** The highest integer channel version of a checkpoint (0 without one). */
function highestVersion(tuple: CheckpointTuple): number {
  let highest = 0;
  for (const v of Object.values(tuple.checkpoint.channel_versions ?? {})) if (typeof v === "number" && v > highest) highest = v;
  return highest;
}

/**
 * LangGraph.js's `PostgresSaver` (`@langchain/langgraph-checkpoint-postgres`),
 * with the same constructors: `PostgresSaver.fromConnString(url, { schema })`
 * then `await saver.setup()`, or `new PostgresSaver(pool, serde, { schema })`
 * over a pg `Pool`; `end()` closes the pool. It implements
 * `BaseCheckpointSaver` (`getTuple`, `list` with `filter`/`before`/`limit`,
 * `put`, `putWrites`, `deleteThread`, `getNextVersion`), storing each
 * channel version once and a list that grew by appending as its new tail.
 * Every write is one transaction; the writes of one thread take a
 * transaction-scoped advisory lock on it, so two writers of one thread
 * serialize. Its tables are its own (`chronograph_*`): it does not read
 * threads LangGraph.js's PostgresSaver wrote.
 */
export class PostgresSaver extends CompactSaver {
  /** The pg pool. */
  readonly pool: PostgresPool;
  /** The PostgreSQL schema of the tables. */
  readonly schema: string;
  readonly #sql: PostgresStatements;
  #ready: Promise<void> | undefined;

  constructor(pool: PostgresPool, serde?: SerializerProtocol, options?: PostgresSaverOptions) {
    super(serde, options);
    this.pool = pool;
    this.schema = options?.schema ?? "public";
    this.#sql = statementsFor(this.schema);
  }

  /** A saver on a new pg `Pool` for `connString`, as LangGraph.js's (then `await saver.setup()`). */
  static fromConnString(connString: string, options?: PostgresSaverOptions): PostgresSaver {
    const Pool = postgresDriver();
    return new PostgresSaver(new Pool({ connectionString: connString }), undefined, options);
  }

  /**
   * Creates the schema and tables if needed and checks the schema version
   * (a database of another version is refused: code `UNSUPPORTED_SCHEMA`).
   * Every method waits for it, so calling it is optional here.
   */
  setup(): Promise<void> {
    this.#ready ??= this.#createTables().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  /** `setupSchema` on a connection of its own; the first block of versions it reserved is this saver's. */
  async #createTables(): Promise<void> {
    const client = await this.pool.connect();
    try {
      this.versions.accept(await setupSchema(client, this.schema, this.#sql, this.versions.wanted() ?? 0, VERSION_BLOCK));
    } finally {
      client.release();
    }
  }

  /** Closes the pool (as LangGraph.js's `end`). */
  async end(): Promise<void> {
    await this.pool.end();
  }

  /** pg's driver is asynchronous: versions are reserved ahead instead (`afterRead`, `writeCheckpoint`). */
  protected reserveVersionsNow(): undefined {
    return undefined;
  }

  /** Reserves a new block of versions when a thread read may soon need versions above this saver's block. */
  protected override async afterRead(tuple: CheckpointTuple): Promise<void> {
    const atLeast = this.versions.wanted(highestVersion(tuple));
    if (atLeast === undefined) return;
    const hi = await this.#query(this.#sql.reserveVersions, [atLeast, VERSION_BLOCK]);
    this.versions.accept(Number(hi[0]!["hi"]));
  }

  protected async readCheckpoint(thread_id: string, ns: string, id: string | undefined): Promise<CheckpointRow | undefined> {
    const rows = id === undefined ? await this.#query(this.#sql.latest, [thread_id, ns]) : await this.#query(this.#sql.byId, [thread_id, ns, id]);
    return rows[0] as CheckpointRow | undefined;
  }

  protected async readCheckpoints(query: ListQuery): Promise<CheckpointRow[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      args.push(value);
      where.push(`${clause} $${args.length}`);
    };
    if (query.thread_id !== undefined) add("thread_id =", query.thread_id);
    if (query.checkpoint_ns !== undefined) add("checkpoint_ns =", query.checkpoint_ns);
    if (query.checkpoint_id !== undefined) add("checkpoint_id =", query.checkpoint_id);
    if (query.before !== undefined) add("checkpoint_id <", query.before);
    let text = `${this.#sql.listSelect}${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY checkpoint_id DESC`;
    if (query.limit !== undefined) text += ` LIMIT ${query.limit}`;
    return (await this.#query(text, args)) as unknown as CheckpointRow[];
  }

  protected async readHead(thread_id: string, ns: string, id: string): Promise<string | undefined> {
    return (await this.#query(this.#sql.versionsOf, [thread_id, ns, id]))[0]?.["checkpoint"] as string | undefined;
  }

  protected async readChain(thread_id: string, ns: string, channel: string, version: string): Promise<ChainRow[]> {
    return (await this.#query(this.#sql.chain, [thread_id, ns, channel, version])) as unknown as ChainRow[];
  }

  protected async readPosition(thread_id: string, ns: string, channel: string, version: string): Promise<PositionRow | undefined> {
    return (await this.#query(this.#sql.position, [thread_id, ns, channel, version]))[0] as PositionRow | undefined;
  }

  protected async readWrites(thread_id: string, ns: string, id: string): Promise<WriteRow[]> {
    return (await this.#query(this.#sql.writesOf, [thread_id, ns, id])) as unknown as WriteRow[];
  }

  protected async readSends(thread_id: string, ns: string, id: string, channel: string): Promise<Pick<ChainRow, "type" | "value">[]> {
    return (await this.#query(this.#sql.sendsOf, [thread_id, ns, id, channel])) as unknown as Pick<ChainRow, "type" | "value">[];
  }

  /**
   * One transaction under the thread's advisory lock: a second writer of
   * the thread waits for it, then finds a version already stored with
   * another value (CHECKPOINT_CONFLICT) or none; nothing of a failed or
   * killed put is kept. A new block of versions is reserved in it when
   * this saver's runs low.
   */
  protected async writeCheckpoint(put: PutRows): Promise<void> {
    const sql = this.#sql;
    const { thread_id, checkpoint_ns: ns } = put;
    const atLeast = this.versions.wanted(put.highest);
    const hi = await this.#transaction(async (client) => {
      await this.#lockThread(client, thread_id);
      for (const b of put.blobs) {
        const inserted = await client.query(sql.insertBlob, [thread_id, ns, ...b.slice(0, 8), bytea(b[8]), b[9]]);
        if (inserted.rowCount !== null && inserted.rowCount > 0) continue;
        const stored = (await client.query(sql.storedBlob, [thread_id, ns, b[0], b[1]])).rows[0] as unknown as StoredBlob;
        assertSameVersion(stored, b, thread_id, ns);
      }
      maybeKillInPut();
      const { checkpoint_id, parent_checkpoint_id, checkpoint, metadata_type, metadata } = put;
      await client.query(sql.insertCheckpoint, [thread_id, ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata_type, bytea(metadata)]);
      // A version handed out beyond this saver's blocks: later reservations go above it.
      if (this.versions.beyond(put.highest)) await client.query(sql.raiseMaxVersion, [put.highest]);
      if (atLeast === undefined) return undefined;
      return Number((await client.query(sql.reserveVersions, [atLeast, VERSION_BLOCK])).rows[0]!["hi"]);
    });
    if (hi !== undefined) this.versions.accept(hi);
  }

  protected async writeWrites(rows: WriteInsert[], replace: boolean): Promise<void> {
    const insert = replace ? this.#sql.replaceWrite : this.#sql.insertWrite;
    if (rows.length === 0) return;
    await this.#transaction(async (client) => {
      await this.#lockThread(client, rows[0]![0]);
      for (const row of rows) await client.query(insert, [...row.slice(0, 7), bytea(row[7]), row[8]]);
    });
  }

  protected async removeThread(thread_id: string): Promise<void> {
    await this.#transaction(async (client) => {
      await this.#lockThread(client, thread_id);
      for (const text of this.#sql.deleteThread) await client.query(text, [thread_id]);
    });
  }

  protected async readThreadIds(): Promise<string[]> {
    return (await this.#query(this.#sql.prune.threadIds, [])).map((r) => r["thread_id"] as string);
  }

  protected async readBlobIndex(thread_id: string): Promise<PruneBlob[]> {
    return (await this.#query(this.#sql.prune.blobIndex, [thread_id])) as unknown as PruneBlob[];
  }

  /** One transaction under the thread's advisory lock: its writers wait for it. */
  protected async writePrune(rows: PruneRows): Promise<boolean> {
    const sql = this.#sql.prune;
    const { thread_id } = rows;
    return this.#transaction(async (client) => {
      await this.#lockThread(client, thread_id);
      const now = (await client.query(sql.idsOf, [thread_id])).rows.map((r): [string, string] => [r["checkpoint_ns"] as string, r["checkpoint_id"] as string]);
      if (!unchanged(rows.planned, now)) return false;
      for (const [ns, id] of rows.checkpoints) {
        await client.query(sql.deleteCheckpoint, [thread_id, ns, id]);
        await client.query(sql.deleteWritesOf, [thread_id, ns, id]);
      }
      for (const [ns, channel, version] of rows.versions) await client.query(sql.deleteBlob, [thread_id, ns, channel, version]);
      for (const [ns, channel, version, type, value, bytes] of rows.rebased) {
        await client.query(sql.rebaseBlob, [type, bytea(value), bytes, thread_id, ns, channel, version]);
      }
      return true;
    });
  }

  /** The saver's tables with their indexes and TOAST (`pg_total_relation_size`). */
  protected async storageBytes(): Promise<number> {
    return Number((await this.#query(this.#sql.storageBytes, [this.schema]))[0]!["bytes"]);
  }

  /**
   * `VACUUM FULL` of the saver's tables when asked (`vacuum: true`): it
   * returns the space to the operating system but locks each table while
   * it rewrites it. Without it, autovacuum marks the deleted rows' space
   * reusable, and the tables stop growing until new rows fill it.
   */
  protected async reclaimStorage(vacuum: boolean | undefined): Promise<void> {
    if (vacuum !== true) return;
    for (const table of this.#sql.tableNames) await this.#query(`VACUUM FULL ${table}`, []);
  }

  /** Serializes this transaction with every other write of `thread_id` in this schema (released at its end). */
  async #lockThread(client: PostgresQueryable, thread_id: string): Promise<void> {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))", [this.schema, thread_id]);
  }

  /** A read, once the schema is set up. */
  async #query(text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
    await this.setup();
    return (await this.pool.query(text, values)).rows;
  }

  /** `fn` in one transaction on one pooled connection: committed when it resolves, rolled back when it throws. */
  async #transaction<R>(fn: (client: PostgresQueryable) => Promise<R>): Promise<R> {
    await this.setup();
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const out = await fn(client);
      await client.query("COMMIT");
      return out;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
