// Channel versions stored as deltas: the storage logic the persistent savers
// share (compact_saver.ts, the base of SqliteSaver and PostgresSaver).
//
// LangGraph's savers store a channel's whole value again for each new
// version, so a message list that grows by two messages a turn is written
// in full at every superstep: the database grows with the square of the
// turns. Here a version whose value extends the value of the version it
// replaced (a list whose prefix is that value: `add_messages`, `concat`
// reducers) is stored as its appended tail over that base version. `put`
// receives values, not reducers, so the append is detected from the values
// themselves, before the saver's serializer runs: the tail is a value the
// serializer turns into bytes like any other (an encrypting serde works).
//
// Chains are bounded by full snapshots. A snapshot is written when the
// chain reaches `maxDepth` deltas, or once the tails stored since the last
// snapshot outweigh `snapshotRatio` times that snapshot: the sizes of the
// snapshots then grow geometrically, so their total stays a fixed fraction
// of the value's size and storage grows linearly with a conversation,
// while a read joins at most `maxDepth` rows (one query per channel).

/** Knobs of the delta policy (see {@link DeltaPolicy}). */
export interface DeltaOptions {
  /** Most deltas between a read and its snapshot (default 1024). */
  maxDepth?: number;
  /** A new snapshot once the tails since the last one weigh this many times that snapshot (default 4). */
  snapshotRatio?: number;
}

/** How a stored version relates to its snapshot: what the policy needs to place the next one. */
export interface ChainPosition {
  /** Deltas between this version and its snapshot (0: it is the snapshot). */
  depth: number;
  /** Bytes of the snapshot this version's chain starts from. */
  baseBytes: number;
  /** Bytes of the tails stored since that snapshot, this version's included. */
  deltaBytes: number;
}

/**
 * A version's value as the delta logic remembers it: its elements'
 * fingerprints (see {@link fingerprints}) and its place in its chain.
 */
export interface StoredList extends ChainPosition {
  /** Fingerprint of each element, in order. */
  elements: string[];
  /** The version's stored digest (see {@link digest}; `null` when it has none). */
  digest: string | null;
}

/** Why a value cannot be fingerprinted (it then gets a full version). */
class NotComparable extends Error {}

/** Constructors whose instances `JSON.stringify` writes without their content. */
function opaque(v: object): boolean {
  return (
    v instanceof Map ||
    v instanceof Set ||
    v instanceof WeakMap ||
    v instanceof WeakSet ||
    ArrayBuffer.isView(v) ||
    v instanceof ArrayBuffer ||
    v instanceof Promise
  );
}

/**
 * `JSON.stringify` replacer that keeps what plain JSON text would blur:
 * `undefined`, non-finite numbers and the class of a non-plain object are
 * written as tagged objects; values whose JSON drops their content (Maps,
 * Sets, binary data, functions, symbols, bigints) make the value not
 * comparable.
 */
function strictReplacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  switch (typeof raw) {
    case "undefined":
      return { "\u0000undefined": true };
    case "number":
      return Number.isFinite(raw) ? value : { "\u0000number": String(raw) };
    case "function":
    case "symbol":
    case "bigint":
      throw new NotComparable();
    case "object": {
      if (raw === null) return value;
      if (opaque(raw)) throw new NotComparable();
      const proto = Object.getPrototypeOf(raw);
      if (proto === Object.prototype || proto === Array.prototype || proto === null) return value;
      // A class instance (a message, a Date): its class and what its JSON says
      // (its own fields when it has no toJSON: a plain copy, so the tag is not applied again).
      return { "\u0000class": (raw as object).constructor?.name ?? "", value: value === raw ? { ...(raw as object) } : value };
    }
    default:
      return value;
  }
}

/**
 * A text per element of `list` such that two elements with equal texts are
 * serialized alike by any serializer that goes by values (LangGraph.js's
 * `JsonPlusSerializer` and serializers wrapping it); `undefined` when an
 * element cannot be compared that way (the list then gets a full version).
 */
export function fingerprints(list: readonly unknown[]): string[] | undefined {
  const out = new Array<string>(list.length);
  try {
    for (let i = 0; i < list.length; i++) out[i] = JSON.stringify(list[i], strictReplacer) ?? "";
  } catch {
    // NotComparable, a cycle, a throwing toJSON or getter: not a delta.
    return undefined;
  }
  return out;
}

/** Whether `base` is a prefix of `next` (both fingerprinted). */
export function extendsList(base: readonly string[], next: readonly string[]): boolean {
  if (next.length < base.length) return false;
  for (let i = 0; i < base.length; i++) if (base[i] !== next[i]) return false;
  return true;
}

/** The default policy: snapshots after 1,024 deltas or once tails weigh 4x the snapshot. */
const DEFAULTS: Required<DeltaOptions> = { maxDepth: 1024, snapshotRatio: 4 };

/** Where a new version of a list goes: a delta over its base, or a snapshot. */
export type Placement = { kind: "delta"; tail: unknown[]; position: ChainPosition } | { kind: "full" };

/**
 * The delta policy of a saver: given the value a channel had at its
 * previous version and its new value, whether the new version is stored as
 * the appended tail or in full.
 */
export class DeltaPolicy {
  readonly #maxDepth: number;
  readonly #ratio: number;

  constructor(options: DeltaOptions = {}) {
    this.#maxDepth = Math.max(0, Math.floor(options.maxDepth ?? DEFAULTS.maxDepth));
    this.#ratio = Math.max(0, options.snapshotRatio ?? DEFAULTS.snapshotRatio);
  }

  /**
   * Where `value` (fingerprinted as `elements`) goes, over `base` (the
   * stored previous version, `undefined` when there is none or it is not a
   * list). `tailBytes` estimates the tail's size once serialized (the
   * length of its fingerprints: the serializer's own size is known only
   * after it ran).
   */
  place(value: readonly unknown[], elements: readonly string[], base: StoredList | undefined): Placement {
    if (base === undefined || !extendsList(base.elements, elements)) return { kind: "full" };
    const depth = base.depth + 1;
    let tailBytes = 0;
    for (let i = base.elements.length; i < elements.length; i++) tailBytes += elements[i]!.length;
    const deltaBytes = base.deltaBytes + tailBytes;
    if (depth > this.#maxDepth || deltaBytes > this.#ratio * Math.max(base.baseBytes, 1024)) return { kind: "full" };
    return { kind: "delta", tail: value.slice(base.elements.length), position: { depth, baseBytes: base.baseBytes, deltaBytes } };
  }
}

/** The position of a new snapshot of `elements` (fingerprinted). */
export function snapshotPosition(elements: readonly string[] | undefined): ChainPosition {
  let bytes = 0;
  for (const e of elements ?? []) bytes += e.length;
  return { depth: 0, baseBytes: bytes, deltaBytes: 0 };
}

/**
 * A value rebuilt from its chain, snapshot first: the snapshot's list with
 * each delta's tail appended in order. A copy: the pieces are left as read.
 */
export function rebuild(snapshot: unknown, tails: readonly unknown[]): unknown {
  if (tails.length === 0) return snapshot;
  if (!Array.isArray(snapshot)) throw new Error("corrupt channel version: a delta over a value that is not a list");
  const out = snapshot.slice();
  for (const tail of tails) {
    if (!Array.isArray(tail)) throw new Error("corrupt channel version: a delta that is not a list");
    for (const e of tail) out.push(e);
  }
  return out;
}

/**
 * Recently stored list versions, by key, so that a saver finds the value
 * a new version extends without reading it back (a bounded LRU: a version
 * evicted, or written by another process, is read from the database).
 */
export class RecentLists {
  readonly #entries = new Map<string, StoredList>();
  readonly #capacity: number;

  constructor(capacity = 256) {
    this.#capacity = capacity;
  }

  /** The version stored under `key`, if remembered. */
  get(key: string): StoredList | undefined {
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  /** Remembers a stored version (the oldest is forgotten past capacity). */
  set(key: string, list: StoredList): void {
    this.#entries.delete(key);
    this.#entries.set(key, list);
    if (this.#entries.size > this.#capacity) this.#entries.delete(this.#entries.keys().next().value!);
  }

  /** Forgets every version whose key starts with `prefix` (a deleted thread's). */
  forget(prefix: string): void {
    for (const key of [...this.#entries.keys()]) if (key.startsWith(prefix)) this.#entries.delete(key);
  }
}

/**
 * A digest of a value's fingerprints (see {@link fingerprints}): two
 * values with equal digests are, with overwhelming odds, equal. A saver
 * stores it with each version, so a second write of a version (another
 * process, a retried `put`) is compared with the first by value, whatever
 * bytes the serializer made (an encrypting one is not deterministic).
 * Two independent 53-bit string hashes (cyrb53), not a cryptographic hash:
 * it guards against mistakes, not against an attacker who can write the
 * database anyway.
 */
export function digest(elements: readonly string[]): string {
  let h1 = 0xdeadbeef ^ elements.length;
  let h2 = 0x41c6ce57 ^ elements.length;
  let g1 = 0x9e3779b9;
  let g2 = 0x85ebca6b;
  for (const text of elements) {
    // A separator between elements: ["ab"] and ["a", "b"] differ.
    for (let i = 0; i <= text.length; i++) {
      const c = i < text.length ? text.charCodeAt(i) : 0x1f;
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
      g1 = Math.imul(g1 ^ c, 2246822507);
      g2 = Math.imul(g2 ^ c, 3266489909);
    }
  }
  const mix = (a: number, b: number) => {
    const x = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
    const y = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
    return (4294967296 * (2097151 & y) + (x >>> 0)).toString(36);
  };
  return `${mix(h1, h2)}.${mix(g1, g2)}`;
}
