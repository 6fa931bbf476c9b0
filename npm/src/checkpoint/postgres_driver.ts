// pg, the PostgreSQL driver of `PostgresSaver`: an optional peer
// dependency, loaded on first use. Only the Node entry of
// `chronograph/langgraph` (langgraph-node.js) can load it: it registers a
// loader here, so no browser bundle, and nothing of `chronograph/web`,
// imports the driver or Node's modules.
import { unsupported } from "../graph/unsupported.js";
import { loadDriver } from "./driver_loader.js";

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

/** How the Node entry loads the driver (unset in a browser). */
let loader: (() => unknown) | undefined;

/** Registers how pg is loaded (the Node entry does, at import). */
export function registerPostgresDriver(load: () => unknown): void {
  loader = load;
}

let loaded: PostgresPoolClass | undefined;

/**
 * pg's `Pool` class, loaded on first call; an error that says to install
 * it when it is missing (or in a browser, where PostgreSQL is out of reach).
 */
export function postgresDriver(): PostgresPoolClass {
  if (loaded !== undefined) return loaded;
  const pg = loadDriver(loader, "PostgresSaver", "pg", "PostgresSaver connects to PostgreSQL with pg, which runs in Node.js only") as {
    Pool?: unknown;
    default?: { Pool?: unknown };
  };
  const Pool = pg.Pool ?? pg.default?.Pool;
  if (typeof Pool !== "function") throw unsupported("PostgresSaver with this pg", "its module exports no Pool class");
  loaded = Pool as PostgresPoolClass;
  return loaded;
}
