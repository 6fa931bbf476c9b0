// LangChain message classes at the JS boundary. The engine keeps messages
// as plain JSON (`{type, content, id, ...}`); LangGraph.js keeps them as
// `@langchain/core` message instances (its `messagesStateReducer` coerces
// every message-like value into one). When `@langchain/core` is installed
// (an optional peer dependency) this module makes the package do the same
// where a caller looks: a message instance goes into the engine as
// `{type, ...its kwargs}` (the kwargs LangChain serializes it with, in
// their order: the engine keeps a message's fields in order), and a
// message comes out of the engine as an instance of its class again, made
// the way LangGraph.js makes it (`new Class(kwargs)` for a message that
// was an instance, `coerceMessageLikeToMessage` for one that was a plain
// object). Without `@langchain/core` nothing here changes a value.
//
// `@langchain/core` is looked up on first need (langchain/core_messages.ts).
import { CLASS_OF_TYPE, classesPossible, messageClasses, noteMessageClass, type LcMessage } from "./core_messages.js";

export { classesPossible, loadMessageClasses, messageClasses, type CoreMessages, type LcMessage } from "./core_messages.js";


// ---------------------------------------------------------------------------
// Into the engine
// ---------------------------------------------------------------------------

/** Whether a message instance went into the engine in this process (so values may hold some to revive). */
let instancesSeen = false;

/** Notes that values of the engine hold messages that were instances (a thread loaded from a LangGraph.js saver). */
export function noteInstances(): void {
  instancesSeen = true;
}

/** `@langchain/core`'s brand of its message instances (`BaseMessage.isInstance` checks it). */
const MESSAGE_BRAND = Symbol.for("langchain.message");

/**
 * Whether `v` is a LangChain message instance: by `@langchain/core`'s own
 * brand (`Symbol.for("langchain.message")`, set on every message instance
 * since `@langchain/core` 1.0), which needs no import and holds whichever
 * copy of the package made it; duck-typed for an older copy without the
 * brand. Its `lc_kwargs` may be another message (`new AIMessage(message)`
 * keeps its argument there).
 */
export function isMessageInstance(v: unknown): v is LcMessage {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const m = v as Partial<LcMessage> & { lc_namespace?: unknown; [MESSAGE_BRAND]?: unknown };
  if (m.lc_kwargs === null || typeof m.lc_kwargs !== "object") return false;
  return m[MESSAGE_BRAND] === true || (typeof m._getType === "function" && Array.isArray(m.lc_namespace));
}

function isPlainRecord(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A message instance as the engine keeps it: `{type, ...kwargs}`, the
 * kwargs LangChain serializes it with (`Serializable.toJSON`: each key of
 * `lc_kwargs`, with the instance's current value) in their order. A
 * message chunk becomes its non-chunk class first, as LangGraph.js's
 * reducer makes it.
 */
export function messageToEngine(m: LcMessage): Record<string, unknown> {
  const type = typeof m.getType === "function" ? m.getType() : m._getType();
  noteMessageClass(m, type);
  let message = m;
  const core = messageClasses();
  // A chunk, or a message made from another (its kwargs are that message): made again from its fields.
  if ((/Chunk$/.test(m.constructor.name) || !isPlainRecord(m.lc_kwargs)) && core) {
    const Class = core[CLASS_OF_TYPE[type] ?? "AIMessage"];
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(m)) if (k !== "type" && k !== "tool_call_chunks" && !k.startsWith("lc_")) fields[k] = v;
    message = new Class(fields);
  }
  instancesSeen = true;
  const out: Record<string, unknown> = { type };
  const own = message as LcMessage & Record<string, unknown>;
  for (const key of Object.keys(message.lc_kwargs)) {
    // LangChain serializes a message as JSON: an `undefined` field (a ToolMessage's
    // `artifact`) is absent once LangGraph.js's saver has stored it, not `null`.
    const value = withoutUndefined(key in own ? own[key] : message.lc_kwargs[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** `v` with the `undefined` properties of its objects left out, as `JSON.stringify` leaves them (copied only where one is). */
function withoutUndefined(v: unknown, depth = 0): unknown {
  if (v === null || typeof v !== "object" || depth > 64) return v;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = withoutUndefined(v[i], depth + 1);
      if (x !== v[i]) (out ??= v.slice())[i] = x;
    }
    return out ?? v;
  }
  if (!isPlainRecord(v)) return v;
  let out: Record<string, unknown> | undefined;
  for (const [k, x] of Object.entries(v)) {
    const y = withoutUndefined(x, depth + 1);
    if (y === x && x !== undefined) continue;
    out ??= { ...v };
    if (y === undefined) delete out[k];
    else out[k] = y;
  }
  return out ?? v;
}

/** A new message id as LangGraph.js's reducer makes one (`uuid` v4); `undefined` where the platform has none. */
export function newMessageId(): string | undefined {
  return (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.();
}

/**
 * LangGraph.js's `messagesStateReducer` gives a message instance that has
 * no id one in place (`m.id = v4(); m.lc_kwargs.id = m.id`), so the object
 * a node returned (or a caller passed in) carries the id the state keeps:
 * done here to the instances written to the channels `keys`, in an update
 * object or a `Command`'s update. A chunk (`AIMessageChunk`) is not
 * changed: the reducer makes a new message of it.
 */
export function assignMessageIds(v: unknown, keys: readonly string[]): void {
  if (keys.length === 0 || !classesPossible() || v === null || typeof v !== "object") return;
  try {
    const command = v as { lg_name?: unknown; update?: unknown };
    if (command.lg_name === "Command") {
      const update = command.update;
      if (Array.isArray(update)) {
        if (update.length > MAX_ITEMS) return;
        for (const pair of update) if (Array.isArray(pair) && keys.includes(pair[0] as string)) idsOf(pair[1]);
      } else if (update !== null && typeof update === "object") assignMessageIds(update, keys);
      return;
    }
    if (Array.isArray(v)) {
      // A node may return several updates and Commands. (Past the engine's
      // limit the bindings refuse the value: a sparse array of 2**32 - 1 holes
      // must not be walked here first.)
      if (v.length > MAX_ITEMS) return;
      for (const item of v) if (item !== null && typeof item === "object") assignMessageIds(item, keys);
      return;
    }
    const update = v as Record<string, unknown>;
    for (const key of keys) if (key in update) idsOf(update[key]);
  } catch {
    // A getter or Proxy trap that throws: the bindings read the value again and name what is wrong.
  }
}

/** Gives each message instance of a channel's written value (one, or a list) an id if it has none. */
function idsOf(value: unknown): void {
  if (Array.isArray(value) && value.length > MAX_ITEMS) return;
  for (const m of Array.isArray(value) ? value : [value]) {
    if (!isMessageInstance(m) || (m.id !== undefined && m.id !== null) || /Chunk$/.test(m.constructor.name)) continue;
    const id = newMessageId();
    if (id === undefined) return;
    m.id = id;
    m.lc_kwargs.id = id;
  }
}

/**
 * `v` with every message instance in it (in plain objects and arrays, and
 * in a `Command`'s `update`) as the engine keeps messages; `v` itself when
 * it holds none (the usual case, and always without `@langchain/core`).
 */
export function toEngine<T>(v: T): T {
  if (!classesPossible()) return v;
  try {
    return convert(v, 0) as T;
  } catch {
    // A getter or Proxy trap that throws: the bindings read the value again and name what is wrong.
    return v;
  }
}

/** The longest array {@link toEngine} and the id and message-channel scans look into (the engine's own limit, core/wasm/src/value.rs `MAX_ITEMS`). */
export const MAX_ITEMS = 1 << 22;

function convert(v: unknown, depth: number): unknown {
  if (v === null || typeof v !== "object" || depth > 64) return v;
  if (Array.isArray(v)) {
    // A sparse array of a huge length is the bindings' to refuse, not a loop here.
    if (v.length > MAX_ITEMS) return v;
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = convert(v[i], depth + 1);
      if (x !== v[i]) (out ??= v.slice())[i] = x;
    }
    return out ?? v;
  }
  if (isMessageInstance(v)) return messageToEngine(v);
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) {
    // A Command: its update may carry messages (its other fields are the bindings' to read).
    const command = v as { lg_name?: unknown; update?: unknown };
    if (command.lg_name === "Command" && command.update != null) {
      const update = convert(command.update, depth + 1);
      if (update === command.update) return v;
      return Object.assign(Object.create(proto as object) as object, v, { update });
    }
    return v;
  }
  let out: Record<string, unknown> | undefined;
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const x = convert(o[k], depth + 1);
    if (x !== o[k]) (out ??= { ...o })[k] = x;
  }
  return out ?? v;
}

// ---------------------------------------------------------------------------
// Out of the engine
// ---------------------------------------------------------------------------

/**
 * Whether an engine message came from a message instance: the kwargs of
 * every LangChain message hold `additional_kwargs` and `response_metadata`
 * (its constructor adds them), a plain message object rarely both.
 */
function fromInstance(m: Record<string, unknown>): boolean {
  return isPlainRecord(m.additional_kwargs) && isPlainRecord(m.response_metadata);
}

/**
 * One engine message as LangGraph.js shows it: an instance of its class,
 * made from its kwargs when it was an instance (as LangGraph.js revives a
 * checkpoint), else coerced from the object as LangGraph.js's reducer
 * coerces a plain message. Anything else is left as it is.
 */
export function reviveMessage(m: unknown): unknown {
  const core = messageClasses();
  if (!core || !isPlainRecord(m) || typeof m.type !== "string") return m;
  const name = CLASS_OF_TYPE[m.type];
  if (name === undefined) return m;
  try {
    if (fromInstance(m)) {
      const { type: _type, ...kwargs } = m;
      return new core[name](kwargs);
    }
    if (generatedId(m)) {
      // LangGraph.js's reducer gives an id-less message its id after coercing it: last among its kwargs.
      const { id, ...rest } = m;
      const message = core.coerceMessageLikeToMessage(rest);
      message.id = id as string;
      message.lc_kwargs.id = id;
      return message;
    }
    return core.coerceMessageLikeToMessage(m);
  } catch {
    return m;
  }
}

/** A version-4 UUID, as the engine generates message ids. */
const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * Whether the engine gave a plain message its id: a UUID in the last
 * place (where the engine adds it). A caller's own UUID there reads the
 * same; its only difference is the place of `id` among the kwargs.
 */
function generatedId(m: Record<string, unknown>): boolean {
  if (typeof m.id !== "string" || !UUID4.test(m.id)) return false;
  const keys = Object.keys(m);
  return keys[keys.length - 1] === "id";
}

/**
 * A value holding what a node wrote (an update, a task's result, an
 * interrupt value) as LangGraph.js shows it: messages that were instances
 * become instances again; plain message objects stay plain, as written.
 */
export function reviveWritten<T>(v: T, depth = 0): T {
  if (!messageClasses() || v === null || typeof v !== "object" || depth > 64) return v;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = reviveWritten(v[i], depth + 1);
      if (x !== v[i]) (out ??= v.slice())[i] = x;
    }
    return (out ?? v) as T;
  }
  const record: unknown = v;
  if (!isPlainRecord(record)) return v;
  if (isWrittenMessage(record)) return reviveMessage(record) as T;
  // Copied where it changes: the engine's JS values may be shared with the state cache.
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(record)) {
    const x = reviveWritten(record[k], depth + 1);
    if (x !== record[k]) (out ??= { ...record })[k] = x;
  }
  return (out ?? v) as T;
}

/**
 * The messages that were instances in a node's update (a channel's value,
 * or the items of a list), as instances: what LangGraph.js's "messages"
 * stream finds in a node's output. `{}` without `@langchain/core`.
 */
export function reviveWrittenMessages(update: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!messageClasses()) return out;
  for (const [key, v] of Object.entries(update)) {
    if (isWrittenMessage(v)) out[key] = reviveMessage(v);
    else if (Array.isArray(v)) out[key] = v.filter(isWrittenMessage).map(reviveMessage);
  }
  return out;
}

/** Whether a channel's value is a message that was an instance, or a list of them (judged by its first item). */
function isWrittenChannel(v: unknown): boolean {
  return isWrittenMessage(v) || (Array.isArray(v) && isWrittenMessage(v[0]));
}

/** A channel's value with its messages that were instances as instances (see {@link isWrittenChannel}). */
function reviveChannel(v: unknown): unknown {
  return isWrittenChannel(v) ? reviveWritten(v) : v;
}

/**
 * Lazy property `key` of `target` (descriptor `d`: a node's state, internal/lazy.ts)
 * as a lazy property whose value is `map` of what it reads; an assignment
 * still goes to the original setter (which drops the engine's value).
 */
function relazy(target: Record<string, unknown>, key: string, d: PropertyDescriptor, map: (v: unknown) => unknown): void {
  const { get, set } = d;
  const settle = (value: unknown) => Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      const value = map(get!.call(target));
      settle(value);
      return value;
    },
    set: (value: unknown) => {
      set?.call(target, value);
      settle(value);
    },
  });
}

/** Whether `v` is an engine message that was an instance. */
function isWrittenMessage(v: unknown): boolean {
  return isPlainRecord(v) && typeof v.type === "string" && v.type in CLASS_OF_TYPE && "content" in v && fromInstance(v);
}

/**
 * {@link reviveWritten} once a message instance went into the engine in
 * this process (else there is nothing to revive: a walk saved).
 */
export function reviveWrittenIfAny<T>(v: T): T {
  return instancesSeen && messageClasses() ? reviveWritten(v) : v;
}

/**
 * The message lists of one channel as instances, made incrementally: the
 * engine hands the same JS objects for the items a list keeps from one
 * version to the next (core/wasm/src/state_cache.rs), so the instances of
 * the longest prefix of items shared with the last list are reused and
 * only the new items are made (a 1,000-turn chat makes two per turn, not
 * two thousand).
 */
class ListReviver {
  #items: readonly unknown[] = [];
  #revived: unknown[] = [];

  revive(items: readonly unknown[]): unknown[] {
    const last = this.#items;
    const n = Math.min(last.length, items.length);
    let l = 0;
    // The engine's lists share a prefix (a list that grew is a copy of the cached prefix
    // and new items), so a shared item at the end of the last list means a shared
    // list: no scan in the usual case (a chat turn).
    if (n > 0 && n === last.length && items[n - 1] === last[n - 1] && items[0] === last[0]) l = n;
    else while (l < n && items[l] === last[l]) l++;
    const revived = this.#revived;
    revived.length = l;
    for (let i = l; i < items.length; i++) revived.push(reviveMessage(items[i]));
    // The engine's list is not handed out (the caller gets a copy of the instances),
    // so it is kept as is; the caller may change its copy.
    this.#items = items;
    return revived.slice();
  }
}

/**
 * The channels of one graph whose reducer is `messagesStateReducer`
 * (`add_messages`): LangGraph.js holds every item there as an instance.
 */
export class MessageChannels {
  /** The channel names. */
  readonly keys: readonly string[];
  /**
   * Whether a state is one channel's value, not a record of channels (a
   * `Pregel` with one output channel: an entrypoint's result): its message
   * instances are instances again wherever they are, as LangGraph.js keeps them.
   */
  readonly whole: boolean;
  readonly #lists = new Map<string, ListReviver>();

  constructor(keys: readonly string[], whole = false) {
    this.keys = keys;
    this.whole = whole;
  }

  /** A list of engine messages as instances (`cached`: reuse instances of the last list of the channel). */
  list(key: string, items: unknown, cached = true): unknown {
    if (!messageClasses() || !Array.isArray(items)) return items;
    if (!cached) return items.map(reviveMessage);
    let reviver = this.#lists.get(key);
    if (reviver === undefined) this.#lists.set(key, (reviver = new ListReviver()));
    return reviver.revive(items);
  }

  /**
   * `values` (a state: a run's result, a `values` chunk, a snapshot's
   * values) with its message channels as instances. A lazy property (a
   * node's state) stays lazy: its instances are made when it is read.
   */
  values<T>(values: T, cached = true): T {
    if (this.whole) return reviveWrittenIfAny(values);
    if (!messageClasses() || values === null || typeof values !== "object") return values;
    const target = values as Record<string, unknown>;
    for (const key of this.keys) {
      const d = Object.getOwnPropertyDescriptor(target, key);
      if (d === undefined) continue;
      if (d.get !== undefined) relazy(target, key, d, (v) => this.list(key, v, cached));
      else if (Array.isArray(d.value)) target[key] = this.list(key, d.value, cached);
    }
    if (instancesSeen) {
      // Other channels keep a message instance written to them as an instance (LangGraph.js
      // keeps it): a message, or a list of them, as a channel's value (not deeper: this runs
      // for every node call, and a list is judged by its first item). A lazy list (a node's
      // state) stays lazy.
      for (const key of Object.keys(target)) {
        if (this.keys.includes(key)) continue;
        const d = Object.getOwnPropertyDescriptor(target, key);
        if (d === undefined) continue;
        if (d.get !== undefined) relazy(target, key, d, reviveChannel);
        else if (isWrittenChannel(d.value)) target[key] = reviveWritten(d.value);
      }
    }
    return values;
  }

  /**
   * A stream chunk of mode `mode` from namespace `ns` with instances where
   * LangGraph.js's has them: states (`values`, a checkpoint's values, a
   * task's input) as {@link MessageChannels.values} makes them, what nodes
   * wrote as {@link reviveWritten}. A subgraph's state (its channels are
   * not this graph's) is revived as written.
   */
  chunk(mode: string, c: unknown, ns: readonly string[] | undefined): unknown {
    if (this.whole && (mode === "values" || !isPlainRecord(c))) return reviveWrittenIfAny(c);
    if (!messageClasses() || !isPlainRecord(c)) return c;
    const root = ns === undefined || ns.length === 0;
    const state = (v: unknown) => (root ? this.values(v) : reviveWrittenIfAny(v));
    switch (mode) {
      case "values":
        return state(c);
      case "checkpoints":
        if ("values" in c) c.values = state(c.values);
        if ("tasks" in c) c.tasks = reviveWrittenIfAny(c.tasks);
        return c;
      case "tasks":
        if ("input" in c) c.input = state(c.input);
        if ("result" in c) c.result = reviveWrittenIfAny(c.result);
        return c;
      case "debug": {
        const payload = c.payload;
        if (isPlainRecord(payload)) {
          if (c.type === "checkpoint" && "values" in payload) payload.values = state(payload.values);
          if ("input" in payload) payload.input = state(payload.input);
          for (const k of ["result", "tasks"]) if (k in payload) payload[k] = reviveWrittenIfAny(payload[k]);
        }
        return c;
      }
      default:
        return reviveWrittenIfAny(c);
    }
  }

  /**
   * A snapshot (`getState`, an item of `getStateHistory`) with instances
   * where LangGraph.js's has them: its values (`values: false` for a
   * listing's, which are lazy: {@link MessageChannels.listed}), and what
   * its tasks wrote and were interrupted with.
   */
  snapshot(s: unknown, values = true): void {
    if (!messageClasses() || !isPlainRecord(s)) return;
    if (values && "values" in s) s.values = this.values(s.values, false);
    if (Array.isArray(s.tasks) && instancesSeen) s.tasks = reviveWritten(s.tasks);
    if (Array.isArray(s.interrupts) && instancesSeen) s.interrupts = reviveWritten(s.interrupts);
  }

  /** {@link MessageChannels.values} for the items of a listing (one function per graph, so lazy accessors stay shared). */
  readonly listed = (values: unknown): unknown => this.values(values, false);
}

/** The message channels of a graph's channels (bindings' form); `undefined` for a form that cannot be read. */
export function messageChannelsOf(channels: Record<string, unknown> | undefined): MessageChannels | undefined {
  if (channels === null || typeof channels !== "object") return undefined;
  const keys: string[] = [];
  try {
    for (const [key, c] of Object.entries(channels)) {
      const reducer = c !== null && typeof c === "object" ? (c as { reducer?: unknown }).reducer : c;
      if (reducer === "add_messages" || reducer === "messages_delta") keys.push(key);
    }
  } catch {
    return undefined;
  }
  return new MessageChannels(keys);
}
