// better-sqlite3, the SQLite driver of `SqliteSaver`: an optional peer
// dependency, loaded on first use. Only the Node entry of
// `chronograph/langgraph` (langgraph-node.js) can load it: it registers a
// loader here (`require` from `node:module`), so no browser bundle, and
// nothing of `chronograph/web`, imports the driver or Node's modules.
import { unsupported } from "../graph/unsupported.js";
import { DriverHolder } from "./driver_loader.js";

/** A prepared statement, as far as the saver uses better-sqlite3's. */
export interface SqliteStatement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** A better-sqlite3 `Database`, as far as the saver uses it. */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /** A function running `fn` in a transaction; `.immediate` takes the write lock at its start (`BEGIN IMMEDIATE`). */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): ((...args: A) => R) & { immediate(...args: A): R };
  close(): unknown;
}

/** better-sqlite3's `Database` constructor. */
export type SqliteDatabaseClass = new (filename: string, options?: Record<string, unknown>) => SqliteDatabase;

/** better-sqlite3's `Database` class, loaded on first use. */
const driver = new DriverHolder<SqliteDatabaseClass>(
  "SqliteSaver",
  "better-sqlite3",
  "SqliteSaver writes a SQLite file with better-sqlite3, which runs in Node.js only",
  (module) => {
    const cls = (module as { default?: unknown }).default ?? module;
    if (typeof cls !== "function") throw unsupported("SqliteSaver with this better-sqlite3", "its module exports no Database class");
    return cls as SqliteDatabaseClass;
  },
);

/** Registers how better-sqlite3 is loaded (the Node entry does, at import): the module, `undefined` when it is not installed. */
export function registerSqliteDriver(load: () => unknown): void {
  driver.register(load);
}

/**
 * better-sqlite3's `Database` class, loaded on first call; an error that
 * says to install it when it is missing (or in a browser, where SQLite
 * files are out of reach).
 */
export function sqliteDriver(): SqliteDatabaseClass {
  return driver.get();
}
