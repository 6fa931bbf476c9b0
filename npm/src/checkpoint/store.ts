// LangGraph's long-term memory store: what `compile({ store })` hands to
// nodes as `config.store` (and `getStore()`), shared across threads.
// `InMemoryStore` is `@langchain/langgraph-checkpoint`'s own (LangGraph.js
// re-exports that one) when that optional peer dependency is installed;
// otherwise the package's, with the same `BaseStore` API (below) but no
// vector index (`new InMemoryStore({ index })` fails, naming that).
import { checkpointPeer } from "../internal/peers.js";
import { GraphValueError, withCode, plainError } from "../errors.js";
import { argumentError, describe, option } from "../internal/args.js";

/** A stored item (LangGraph.js's `Item`). */
export interface Item {
  value: Record<string, unknown>;
  key: string;
  namespace: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** A search result: an item and its similarity score (`undefined` without a vector index). */
export interface SearchItem extends Item {
  score?: number;
}

/** A filter operator of `search` (`{ field: { $gt: 3 } }`); a plain value matches by `===`. */
export type FilterOperators = { $eq?: unknown; $ne?: unknown; $gt?: unknown; $gte?: unknown; $lt?: unknown; $lte?: unknown; $in?: unknown[]; $nin?: unknown[] };

/** The operations of `batch` (LangGraph.js's `Operation`s). */
export type StoreOperation =
  | { namespace: string[]; key: string }
  | { namespace: string[]; key: string; value: Record<string, unknown> | null; index?: false | string[] }
  | { namespacePrefix: string[]; filter?: Record<string, unknown>; limit?: number; offset?: number; query?: string }
  | { matchConditions?: { matchType: "prefix" | "suffix"; path: string[] }[]; maxDepth?: number; limit: number; offset: number };

/** LangGraph.js's `BaseStore` API: what a node finds in `config.store`. */
export interface BaseStore {
  batch(operations: StoreOperation[]): Promise<unknown[]>;
  get(namespace: string[], key: string): Promise<Item | null>;
  search(namespacePrefix: string[], options?: { filter?: Record<string, unknown>; limit?: number; offset?: number; query?: string }): Promise<SearchItem[]>;
  put(namespace: string[], key: string, value: Record<string, unknown>, index?: false | string[]): Promise<void>;
  delete(namespace: string[], key: string): Promise<void>;
  listNamespaces(options?: { prefix?: string[]; suffix?: string[]; maxDepth?: number; limit?: number; offset?: number }): Promise<string[][]>;
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

/** `new InMemoryStore(options)`. */
export interface InMemoryStoreConstructor {
  new (options?: { index?: unknown }): BaseStore;
}

/** LangGraph.js's `InvalidNamespaceError` text for a bad namespace (thrown as a `GraphValueError`, code `INVALID_NAMESPACE`). */
function checkNamespace(namespace: unknown, allowEmpty: boolean): asserts namespace is string[] {
  const fail = (message: string): never => {
    throw withCode(new GraphValueError(message), "INVALID_NAMESPACE");
  };
  if (!Array.isArray(namespace)) fail(`Namespace must be an array of strings, got ${typeof namespace}.`);
  const labels = namespace as unknown[];
  if (labels.length === 0 && !allowEmpty) fail("Namespace cannot be empty.");
  for (const label of labels) {
    if (typeof label !== "string") fail(`Invalid namespace label '${String(label)}' found in ${labels}. Namespace labels must be strings, but got ${typeof label}.`);
    const text = label as string;
    if (text === "") fail(`Namespace labels cannot be empty strings. Got ${text} in ${labels}`);
    if (text.includes(".")) fail(`Invalid namespace label '${text}' found in ${labels}. Namespace labels cannot contain periods ('.').`);
    if (text.includes(":")) fail(`Invalid namespace label '${text}'. Namespace labels cannot contain colons (':').`);
  }
}

/** Whether `item` matches one filter entry (LangGraph.js's `compareValues`). */
function matches(itemValue: unknown, filter: unknown): boolean {
  if (filter === null || typeof filter !== "object" || !Object.keys(filter).some((k) => k.startsWith("$"))) return itemValue === filter;
  return Object.entries(filter as FilterOperators)
    .filter(([op]) => op.startsWith("$"))
    .every(([op, value]) => {
      switch (op) {
        case "$eq": return itemValue === value;
        case "$ne": return itemValue !== value;
        case "$gt": return Number(itemValue) > Number(value);
        case "$gte": return Number(itemValue) >= Number(value);
        case "$lt": return Number(itemValue) < Number(value);
        case "$lte": return Number(itemValue) <= Number(value);
        case "$in": return Array.isArray(value) && value.includes(itemValue);
        case "$nin": return !Array.isArray(value) || !value.includes(itemValue);
        default: return false;
      }
    });
}

/**
 * The package's in-memory store, used when `@langchain/langgraph-checkpoint`
 * is not installed: LangGraph.js's `InMemoryStore` without a vector index
 * (`search` ignores `query` and returns items in insertion order, as
 * LangGraph.js does without `index`).
 */
class OwnInMemoryStore implements BaseStore {
  /** `namespace.join(":")` → key → item. */
  readonly #data = new Map<string, Map<string, Item>>();

  constructor(options?: { index?: unknown }) {
    if (options?.index !== undefined) {
      throw withCode(
        new GraphValueError("new InMemoryStore({ index }): a vector index needs @langchain/langgraph-checkpoint's InMemoryStore (install it)"),
        "UNSUPPORTED",
      );
    }
  }

  /** Runs the operations; puts take effect after the reads of the same batch, as in LangGraph.js. */
  async batch(operations: StoreOperation[]): Promise<unknown[]> {
    const results: unknown[] = [];
    const puts = new Map<string, { namespace: string[]; key: string; value: Record<string, unknown> | null }>();
    for (const op of operations) {
      if ("namespace" in op) checkNamespace(op.namespace, true);
      if ("namespacePrefix" in op) results.push(this.#search(op));
      else if ("value" in op) {
        puts.set(`${op.namespace.join(":")}:${op.key}`, op);
        results.push(null);
      } else if ("key" in op) results.push(this.#data.get(op.namespace.join(":"))?.get(op.key) ?? null);
      else results.push(this.#namespaces(op));
    }
    for (const op of puts.values()) this.#put(op.namespace, op.key, op.value);
    return results;
  }

  #put(namespace: string[], key: string, value: Record<string, unknown> | null): void {
    const ns = namespace.join(":");
    let items = this.#data.get(ns);
    if (items === undefined) this.#data.set(ns, (items = new Map()));
    if (value === null) {
      items.delete(key);
      return;
    }
    const now = new Date();
    const item = items.get(key);
    if (item !== undefined) {
      item.value = value;
      item.updatedAt = now;
    } else items.set(key, { value, key, namespace, createdAt: now, updatedAt: now });
  }

  #search(op: { namespacePrefix: string[]; filter?: Record<string, unknown>; limit?: number; offset?: number }): SearchItem[] {
    if (op.namespacePrefix.length > 0) checkNamespace(op.namespacePrefix, false);
    const prefix = op.namespacePrefix.join(":");
    const found: SearchItem[] = [];
    for (const [ns, items] of this.#data) {
      if (prefix !== "" && ns !== prefix && !ns.startsWith(`${prefix}:`)) continue;
      for (const item of items.values()) {
        if (op.filter && !Object.entries(op.filter).every(([k, v]) => matches(item.value[k], v))) continue;
        found.push({ ...item, score: undefined });
      }
    }
    const offset = op.offset ?? 0;
    return found.slice(offset, offset + (op.limit ?? 10));
  }

  #namespaces(op: { matchConditions?: { matchType: string; path: string[] }[]; maxDepth?: number; limit?: number; offset?: number }): string[][] {
    let namespaces = [...this.#data.keys()].map((ns) => ns.split(":"));
    const fits = (c: { matchType: string; path: string[] }, ns: string[]) => {
      if (c.path.length > ns.length) return false;
      const at = c.matchType === "suffix" ? ns.length - c.path.length : 0;
      if (c.matchType !== "prefix" && c.matchType !== "suffix") throw plainError(`Unsupported match type: ${c.matchType}`, "INVALID_ARGUMENT");
      return c.path.every((label, i) => label === "*" || ns[at + i] === label);
    };
    if (op.matchConditions?.length) namespaces = namespaces.filter((ns) => op.matchConditions!.every((c) => fits(c, ns)));
    if (op.maxDepth !== undefined) namespaces = [...new Set(namespaces.map((ns) => ns.slice(0, op.maxDepth).join(":")))].map((ns) => ns.split(":"));
    namespaces.sort((a, b) => a.join(":").localeCompare(b.join(":")));
    const offset = op.offset ?? 0;
    return namespaces.slice(offset, offset + (op.limit ?? namespaces.length));
  }

  /** The item under `namespace` and `key`, or `null`. */
  async get(namespace: string[], key: string): Promise<Item | null> {
    checkNamespace(namespace, true);
    return (await this.batch([{ namespace, key }]))[0] as Item | null;
  }

  /** Items under `namespacePrefix` matching `filter` (`limit` 10 by default). */
  async search(namespacePrefix: string[], options: { filter?: Record<string, unknown>; limit?: number; offset?: number; query?: string } = {}): Promise<SearchItem[]> {
    checkNamespace(namespacePrefix, true);
    const { filter, limit = 10, offset = 0, query } = options;
    return (await this.batch([{ namespacePrefix, filter, limit, offset, query }]))[0] as SearchItem[];
  }

  /** Stores `value` under `namespace` and `key` (replacing an item there). */
  async put(namespace: string[], key: string, value: Record<string, unknown>, index?: false | string[]): Promise<void> {
    checkNamespace(namespace, false);
    if (namespace[0] === "langgraph") throw withCode(new GraphValueError(`Root label for namespace cannot be "langgraph". Got: ${namespace}`), "INVALID_NAMESPACE");
    await this.batch([{ namespace, key, value, index }]);
  }

  /** Removes the item under `namespace` and `key`. */
  async delete(namespace: string[], key: string): Promise<void> {
    checkNamespace(namespace, true);
    await this.batch([{ namespace, key, value: null }]);
  }

  /** The namespaces that hold items, filtered by `prefix`/`suffix` (`*` matches any label), cut at `maxDepth`. */
  async listNamespaces(options: { prefix?: string[]; suffix?: string[]; maxDepth?: number; limit?: number; offset?: number } = {}): Promise<string[][]> {
    const { prefix, suffix, maxDepth, limit = 100, offset = 0 } = options;
    const matchConditions: { matchType: "prefix" | "suffix"; path: string[] }[] = [];
    if (prefix) matchConditions.push({ matchType: "prefix", path: prefix });
    if (suffix) matchConditions.push({ matchType: "suffix", path: suffix });
    return (await this.batch([{ matchConditions: matchConditions.length ? matchConditions : undefined, maxDepth, limit, offset }]))[0] as string[][];
  }

  /** Nothing to start (LangGraph.js's stores may batch in the background). */
  start(): void {}

  /** Nothing to stop. */
  stop(): void {}
}

/** `@langchain/langgraph-checkpoint`, when the peer is installed (looked up once, at import). */
const peer = checkpointPeer;

/**
 * LangGraph.js's in-memory long-term store: `@langchain/langgraph-checkpoint`'s
 * when installed, else the package's (same API, no vector index).
 */
export const InMemoryStore: InMemoryStoreConstructor =
  typeof peer?.InMemoryStore === "function" ? (peer.InMemoryStore as InMemoryStoreConstructor) : OwnInMemoryStore;

/** Whether `v` has LangGraph.js's `BaseStore` API (what `compile({ store })` accepts). */
export function isStore(v: unknown): v is BaseStore {
  if (v === null || typeof v !== "object") return false;
  const s = v as Record<string, unknown>;
  return ["batch", "get", "put", "search"].every((m) => typeof s[m] === "function");
}

/**
 * `compile({ store })`'s value checked: a `BaseStore`, or nothing. An
 * `AsyncBatchedStore` gives the store it wraps: LangGraph.js's runs do the
 * same (each run batches through a wrapper of its own, started and stopped
 * with the run), and the wrapper itself, never started, would never answer.
 */
export function storeOption(store: unknown, what: string): BaseStore | undefined {
  if (store == null) return undefined;
  if (!isStore(store)) throw argumentError(`${what} must be a LangGraph.js store (batch, get, put, search), got ${describe(store)}`);
  const Batched = peer?.AsyncBatchedStore as (new (...args: never[]) => { store?: unknown }) | undefined;
  if (typeof Batched === "function" && store instanceof Batched && isStore(store.store)) return store.store;
  return store;
}

/** The store of a run of `graph`: the run's `config.store`, else the compiled one. */
export function runStore(graph: { store: BaseStore | undefined }, config: unknown): BaseStore | undefined {
  return storeOption(option(config, "store", "config"), "config.store") ?? graph.store;
}
