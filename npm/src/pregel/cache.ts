// Node caching: `addNode(name, fn, { cachePolicy })` with `compile({ cache })`,
// as LangGraph.js does it. The cache is any object with LangGraph.js's
// `BaseCache` methods (`@langchain/langgraph-checkpoint`'s `InMemoryCache`, a
// user's own); the engine asks it through `BatchedCache`, LangGraph.js's
// `AsyncBatchedCache` (one operation at a time, in order), and the key text
// of a task is made here, from the node's input as LangGraph.js makes it:
// `(keyFunc ?? JSON.stringify)([input])` (the engine hashes it with XXH3-128).
import { argumentError, describe, isRecord } from "../internal/args.js";
import { importPeer, peersSwitchedOff } from "../internal/peers.js";
import type { MessageChannels } from "../langchain/message_classes.js";
import { classesPossible } from "../langchain/core_messages.js";

/** A cache entry's address: `[namespace, key]`. */
export type CacheFullKey = [string[], string];

/** LangGraph.js's `BaseCache`: what `compile({ cache })` takes. */
export interface BaseCache<V = unknown> {
  /** The stored, unexpired entries of `keys`. */
  get(keys: CacheFullKey[]): Promise<{ key: CacheFullKey; value: V }[]>;
  /** Stores each value for `ttl` seconds (`undefined`: for ever). */
  set(pairs: { key: CacheFullKey; value: V; ttl?: number }[]): Promise<void>;
  /** Drops the entries of `namespaces`, or every entry when it is empty. */
  clear(namespaces: string[][]): Promise<void>;
}

/** LangGraph.js's `CachePolicy`: `ttl` in seconds, `keyFunc` of `[input]`. */
export interface CachePolicy {
  /** Seconds an entry lives (default: for ever). */
  ttl?: number;
  /** The text a task's key hashes, from `[input]` (default `JSON.stringify`). */
  keyFunc?: (args: unknown[]) => string;
}

/** `addNode`'s `cachePolicy` as LangGraph.js reads it: `true` is `{}`, `false` turns a default off. */
export function cachePolicyOf(what: string, value: unknown): CachePolicy | false | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "boolean") return value ? {} : false;
  if (!isRecord(value)) throw argumentError(`${what} must be an object like {ttl, keyFunc} or a boolean, got ${describe(value)}`);
  const { ttl, keyFunc } = value as { ttl?: unknown; keyFunc?: unknown };
  if (ttl != null && typeof ttl !== "number") throw argumentError(`${what}.ttl must be a number of seconds, got ${describe(ttl)}`);
  if (keyFunc != null && typeof keyFunc !== "function") throw argumentError(`${what}.keyFunc must be a function, got ${describe(keyFunc)}`);
  return value as CachePolicy;
}

/** `compile({ cache })`: an object with `get`, `set` and `clear` methods. */
export function cacheOption(value: unknown, what: string): BaseCache | undefined {
  if (value == null) return undefined;
  const methods = ["get", "set", "clear"];
  if (!isRecord(value) || methods.some((m) => typeof (value as Record<string, unknown>)[m] !== "function")) {
    throw argumentError(`${what} must be a cache like InMemoryCache (get, set, clear), got ${describe(value)}`);
  }
  return value as unknown as BaseCache;
}

/**
 * The function the engine calls with a task's input for its key text:
 * LangGraph.js's `(keyFunc ?? JSON.stringify)([input])`, on the input as
 * the node sees it (message instances where LangGraph.js has them).
 */
export function keyOf(policy: CachePolicy, messages: MessageChannels | undefined): (input: unknown) => string {
  const key = policy.keyFunc ?? ((args: unknown[]) => JSON.stringify(args));
  return (input) => {
    if (messages !== undefined && classesPossible()) messages.values(input);
    return key([input]);
  };
}

/**
 * LangGraph.js's `AsyncBatchedCache`: the cache's operations one after
 * another, in the order they were asked for (a lookup after a store sees
 * it); `stop()` resolves once the last one settled.
 */
export class BatchedCache implements BaseCache {
  #queue: Promise<unknown> = Promise.resolve();
  readonly #cache: BaseCache;

  constructor(cache: BaseCache) {
    this.#cache = cache;
  }

  get(keys: CacheFullKey[]): Promise<{ key: CacheFullKey; value: unknown }[]> {
    return this.#enqueue(() => this.#cache.get(keys));
  }

  set(pairs: { key: CacheFullKey; value: unknown; ttl?: number }[]): Promise<void> {
    return this.#enqueue(() => this.#cache.set(pairs));
  }

  clear(namespaces: string[][]): Promise<void> {
    return this.#enqueue(() => this.#cache.clear(namespaces));
  }

  /** Resolves once every operation asked for so far has settled. */
  async stop(): Promise<void> {
    await this.#queue;
  }

  #enqueue<T>(op: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(op);
    this.#queue = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }
}

/** An entry of the package's own `InMemoryCache`. */
interface OwnEntry {
  value: unknown;
  exp: number | null;
}

/**
 * The package's `InMemoryCache`, used when `@langchain/langgraph-checkpoint`
 * is not installed: LangGraph.js's, with values kept as JSON copies (its
 * serializer's job there) and `ttl` seconds measured by `Date.now()`.
 */
class OwnInMemoryCache implements BaseCache {
  /** Entries by namespace (joined with `,`) and key. */
  cache: Record<string, Record<string, OwnEntry>> = {};

  async get(keys: CacheFullKey[]): Promise<{ key: CacheFullKey; value: unknown }[]> {
    const now = Date.now();
    const found: { key: CacheFullKey; value: unknown }[] = [];
    for (const fullKey of keys) {
      const [namespace, key] = fullKey;
      const entries = this.cache[namespace.join(",")];
      const entry = entries?.[key];
      if (entry === undefined) continue;
      if (entry.exp == null || now < entry.exp) found.push({ key: fullKey, value: JSON.parse(JSON.stringify(entry.value)) as unknown });
      else delete entries![key];
    }
    return found;
  }

  async set(pairs: { key: CacheFullKey; value: unknown; ttl?: number }[]): Promise<void> {
    const now = Date.now();
    for (const { key: [namespace, key], value, ttl } of pairs) {
      const entries = (this.cache[namespace.join(",")] ??= {});
      entries[key] = { value: JSON.parse(JSON.stringify(value)) as unknown, exp: ttl != null ? ttl * 1e3 + now : null };
    }
  }

  async clear(namespaces: string[][]): Promise<void> {
    if (!namespaces.length) {
      this.cache = {};
      return;
    }
    for (const namespace of namespaces) delete this.cache[namespace.join(",")];
  }
}

/** `new InMemoryCache()`. */
export interface InMemoryCacheConstructor {
  new (): BaseCache;
}

/** `@langchain/langgraph-checkpoint`'s `InMemoryCache`, when the peer is installed (looked up once, at import). */
const peer = peersSwitchedOff() ? undefined : ((await importPeer("@langchain/langgraph-checkpoint", ".")) as { InMemoryCache?: unknown } | undefined);

/**
 * LangGraph's in-memory node cache: `@langchain/langgraph-checkpoint`'s
 * `InMemoryCache` when that is installed, else the package's (same API).
 */
export const InMemoryCache: InMemoryCacheConstructor =
  typeof peer?.InMemoryCache === "function" ? (peer.InMemoryCache as InMemoryCacheConstructor) : OwnInMemoryCache;
