// Lazy values: properties whose value stays in the engine until it is read.
// Two kinds: the list channels of the state handed to a node or router
// (core/wasm/src/state_cache.rs), and the values of a listing's items
// (history, `MemorySaver.list`; core/wasm/src/listing.rs); and, outside the
// engine, a persistent saver's listed values, decoded on first read
// (`defineDecodedLater`). Each kind is
// an accessor pair shared by every object of the kind (fresh accessors per
// object defeat V8's shape caching), which turns into a plain writable data
// property on its first read or assignment, in its place among the keys.
import * as raw from "../wasm/chronograph.js";
import { revivedText } from "../checkpoint/records.js";

const INSPECT = Symbol.for("nodejs.util.inspect.custom");
/** What a state object's inspect method is asked for its token (util.inspect passes a number). */
const TOKEN = Symbol("chronograph.lazyToken");

/**
 * Releases the engine's values behind a collected state object's lazy
 * properties that were never read (core/wasm/src/state_cache.rs).
 */
const lazyStates = new FinalizationRegistry<number>((token) => raw.releaseState(token));

/** How one kind of lazy property reads and drops its value. */
interface LazyKind {
  descriptors: Map<string, PropertyDescriptor>;
  read(target: object, key: string): unknown;
  drop(target: object, key: string): void;
}

/** A copy of a state object with every value read (so converted), in key order. */
function materialize(state: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(state)) out[key] = state[key];
  return out;
}

/**
 * Called by the engine while it builds the state object a node or router
 * is handed (core/wasm/src/state_cache.rs `registerDefineLazy`): a list
 * channel whose JS array is not current becomes a lazy property, in its
 * place among the keys and enumerable like a data property. Its first read
 * converts it (`raw.lazyChannel`) and its assignment drops it unconverted
 * (`raw.dropLazyChannel`). `token` names the object's lazy values in the
 * engine; the first lazy property (`index` 0) also registers the object for
 * the release of what was never read, and gives it a non-enumerable
 * `util.inspect` method (so that `console.log` shows values, not getters),
 * which is also where the shared accessors find the token: a closure per
 * object costs less than a closure pair per property or a WeakMap entry.
 */
export function defineLazy(obj: object, key: string, token: number, index: number): void {
  if (index === 0) {
    lazyStates.register(obj, token);
    Object.defineProperty(obj, INSPECT, {
      value(this: Record<string, unknown>, depth: unknown) {
        return depth === TOKEN ? token : materialize(this);
      },
    });
  }
  Object.defineProperty(obj, key, lazyAccessor(lazyStateKind, key));
}

/** How a lazy state property reads and drops its value: through the object's token. */
const lazyStateKind: LazyKind = {
  descriptors: new Map(),
  read(target, key) {
    const t = stateToken(target);
    return typeof t === "number" ? raw.lazyChannel(t, key) : undefined;
  },
  drop(target, key) {
    const t = stateToken(target);
    if (typeof t === "number") raw.dropLazyChannel(t, key);
  },
};

function stateToken(target: object): unknown {
  const inspect = (target as Record<symbol, unknown>)[INSPECT];
  return typeof inspect === "function" ? inspect(TOKEN) : undefined;
}

/**
 * The accessor pair of lazy property `key` of one `kind` of object, shared
 * by every such object. The first read takes the value from `kind.read`,
 * an assignment releases it with `kind.drop`; either turns the property
 * into a plain writable data property in the same place among the keys.
 */
function lazyAccessor(kind: LazyKind, key: string): PropertyDescriptor {
  const known = kind.descriptors.get(key);
  if (known) return known;
  const settle = (target: object, value: unknown) =>
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  const descriptor: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: object) {
      const value = kind.read(this, key);
      settle(this, value);
      return value;
    },
    set(this: object, value: unknown) {
      kind.drop(this, key);
      settle(this, value);
    },
  };
  kind.descriptors.set(key, descriptor);
  return descriptor;
}

/** What `listed` needs of a listing (core/wasm/src/listing.rs `WasmListing`). */
export interface Listing {
  takeText(): string;
  valuesText(i: number): string | undefined;
  versionsText(i: number): string | undefined;
  free(): void;
}

/** A listing shared by its items, and how many of them still wait for it. */
interface Shared {
  listing: Listing;
  unsettled: number;
}
interface Pending {
  shared: Shared;
  i: number;
}

/**
 * The items of a listing: parsed from its one JSON text, and in each
 * `holder(item)` the property `key` (`values`, `channel_values`; `null` in
 * the text, so already in its place among the keys) becomes a lazy one
 * that converts that item's values from the engine on first read (as JSON
 * text, for one `JSON.parse`) and then keeps them: listing a long history
 * for its metadata converts no values. `revive`, when given, turns the
 * parsed values into what the caller sees (LangGraph.js's key order,
 * message classes). The listing is freed once every item's values were
 * read or replaced (else when it is collected).
 */
export function listed<T>(
  listing: Listing,
  key: string,
  holder: (item: T) => object,
  versions = false,
  revive?: (values: unknown, holder: object) => unknown,
): T[] {
  const items = revivedText(listing.takeText()) as T[];
  const shared: Shared = { listing, unsettled: items.length * (versions ? 2 : 1) };
  const descriptor = lazyAccessor(revive ? revivingKind(revive) : listedKind, key);
  const versionDescriptors = versions
    ? VERSION_KEYS.map((k) => [k, lazyAccessor(listedVersionsKind, k)] as const)
    : [];
  for (let i = 0; i < items.length; i++) {
    const target = holder(items[i]!);
    const pending: Pending = { shared, i };
    pendingValues.set(target, pending);
    // Redefining an existing property keeps its place in the key order.
    Object.defineProperty(target, key, descriptor);
    if (versions) {
      pendingVersions.set(target, pending);
      for (const [k, d] of versionDescriptors) Object.defineProperty(target, k, d);
    }
  }
  if (items.length === 0) listing.free();
  return items;
}

/** A listed checkpoint's version maps, lazy (one JSON text holds both). */
const VERSION_KEYS = ["channel_versions", "versions_seen"] as const;

/** Listed checkpoints whose version maps were not read yet. */
const pendingVersions = new WeakMap<object, Pending>();

/**
 * Reads both version maps of a listed checkpoint (on the first read or
 * assignment of either) and makes them plain data properties.
 */
function settleVersions(target: object): Record<string, unknown> | undefined {
  if (!pendingVersions.has(target)) return undefined;
  const text = takePending(pendingVersions, target, (listing, i) => listing.versionsText(i));
  const maps = text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
  for (const k of VERSION_KEYS) {
    Object.defineProperty(target, k, { value: maps?.[k], writable: true, enumerable: true, configurable: true });
  }
  return maps;
}

/** How a listed checkpoint's lazy version maps are read and dropped. */
const listedVersionsKind: LazyKind = {
  descriptors: new Map(),
  read(target, key) {
    return settleVersions(target)?.[key];
  },
  drop(target) {
    settleVersions(target);
  },
};

/** Lazy items still waiting for their values. */
const pendingValues = new WeakMap<object, Pending>();

/**
 * Takes `target`'s entry out of `waiting` (`pendingValues` or
 * `pendingVersions`), first reading its text with `read(listing, i)` if
 * given; the listing is freed once nothing of it waits.
 */
function takePending(
  waiting: WeakMap<object, Pending>,
  target: object,
  read?: (listing: Listing, i: number) => string | undefined,
): string | undefined {
  const pending = waiting.get(target);
  if (!pending) return undefined;
  waiting.delete(target);
  const text = read?.(pending.shared.listing, pending.i);
  if (--pending.shared.unsettled === 0) pending.shared.listing.free();
  return text;
}

/** How a listed item's lazy values are read (JSON text from the listing) and dropped. */
const listedKind: LazyKind = {
  descriptors: new Map(),
  read(target) {
    const text = takePending(pendingValues, target, (listing, i) => listing.valuesText(i));
    return text === undefined ? undefined : revivedText(text);
  },
  drop(target) {
    takePending(pendingValues, target);
  },
};

/** One `listedKind` per `revive` function (a graph's), so accessors stay shared per graph. */
const revivingKinds = new WeakMap<(values: unknown, holder: object) => unknown, LazyKind>();

function revivingKind(revive: (values: unknown, holder: object) => unknown): LazyKind {
  let kind = revivingKinds.get(revive);
  if (kind === undefined) {
    kind = {
      descriptors: new Map(),
      read(target, key) {
        const v = listedKind.read(target, key);
        return v === undefined ? v : revive(v, target);
      },
      drop: listedKind.drop,
    };
    revivingKinds.set(revive, kind);
  }
  return kind;
}

/** The decoders of properties defined by {@link defineDecodedLater}, by object. */
const pendingDecodes = new WeakMap<object, () => unknown>();

/** How a property of {@link defineDecodedLater} is read (its decoder, once) and dropped. */
const decodedLaterKind: LazyKind = {
  descriptors: new Map(),
  read(target) {
    const decode = pendingDecodes.get(target);
    pendingDecodes.delete(target);
    return decode?.();
  },
  drop(target) {
    pendingDecodes.delete(target);
  },
};

/**
 * Makes `obj[key]` (one such key per object) a lazy property whose value is
 * `decode()`, run on its first read; an assignment first drops the decoder.
 * A persistent saver's listed `channel_values` are this (compact_saver.ts).
 */
export function defineDecodedLater(obj: object, key: string, decode: () => unknown): void {
  pendingDecodes.set(obj, decode);
  Object.defineProperty(obj, key, lazyAccessor(decodedLaterKind, key));
}
