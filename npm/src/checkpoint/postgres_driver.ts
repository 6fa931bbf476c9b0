// pg, the PostgreSQL driver of `PostgresSaver`: an optional peer
// dependency, loaded on first use. Only the Node entry of
// `chronograph/langgraph` (langgraph-node.js) can load it: it registers a
// loader here, so no browser bundle, and nothing of `chronograph/web`,
// imports the driver or Node's modules.
import { unsupported } from "../graph/unsupported.js";
import { DriverHolder } from "./driver_loader.js";

/** A query's result, as far as the saver uses pg's. */
export interface PostgresResult {
  rows: Record<string, unknown>[];
  rowCount: number | null;
}

/** A pg client or pool, as far as the saver queries it. */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<PostgresResult>;
}

/** A client checked out of a pool (one connection: a transaction's). */
export interface PostgresPoolClient extends PostgresQueryable {
  release(error?: Error | boolean): void;
}

/** A pg `Pool`, as far as the saver uses it. */
export interface PostgresPool extends PostgresQueryable {
  connect(): Promise<PostgresPoolClient>;
  end(): Promise<void>;
}

/** pg's `Pool` constructor. */
export type PostgresPoolClass = new (options: { connectionString: string }) => PostgresPool;

/** pg's `Pool` class, loaded on first use. */
const driver = new DriverHolder<PostgresPoolClass>("PostgresSaver", "pg", "PostgresSaver connects to PostgreSQL with pg, which runs in Node.js only", (module) => {
  const pg = module as { Pool?: unknown; default?: { Pool?: unknown } };
  const Pool = pg.Pool ?? pg.default?.Pool;
  if (typeof Pool !== "function") throw unsupported("PostgresSaver with this pg", "its module exports no Pool class");
  return Pool as PostgresPoolClass;
});

/** Registers how pg is loaded (the Node entry does, at import). */
export function registerPostgresDriver(load: () => unknown): void {
  driver.register(load);
}

/**
 * pg's `Pool` class, loaded on first call; an error that says to install
 * it when it is missing (or in a browser, where PostgreSQL is out of reach).
 */
export function postgresDriver(): PostgresPoolClass {
  return driver.get();
}
