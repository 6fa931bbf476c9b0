// LangGraph.js's default serializer (`JsonPlusSerializer` of
// @langchain/langgraph-checkpoint) read synchronously, for the compact
// savers' lazy `channel_values` in `list` (compact_saver.ts): a getter
// cannot await `loadsTyped`, which is asynchronous only because LangChain's
// `load` may import optional modules. What the default serializer writes of
// a chat (plain JSON, its `lc: 2` records, LangChain messages) needs no
// import, so it is decoded here by the same steps in the same order:
// `_reviver` bottom-up, and for a LangChain object `load(JSON.stringify(it))`
// top-down, building `@langchain/core/messages`' classes with their keys
// mapped as `load` maps them. A text holding anything else (another
// LangChain class, a secret, an escaped object, a `DeltaSnapshot`) is not
// read by `decoderOf`, and is decoded eagerly through the serializer, as before.
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { JsonPlusSerializer } from "./checkpoint_peer.js";
import { foundMessageModule, loadMessageClasses } from "../langchain/core_messages.js";

/** `load`'s default depth limit (@langchain/core/load `DEFAULT_MAX_DEPTH`). */
const MAX_DEPTH = 50;
/** Every `"lc"` key of a compact JSON text (as fast-safe-stringify writes it: no spaces). */
const LC_KEYS = /"lc":/g;
/** The records this module decodes: a LangChain message, and `_default`'s `undefined` and constructor records. */
const KNOWN_RECORDS = /"lc":(?:1,"type":"constructor","id":\["langchain_core","messages","(\w+)"\],"kwargs":|2,"type":"(?:undefined|constructor)")/g;

/**
 * A synchronous decoder of what `serde` wrote, or `undefined` when `serde`
 * is not LangGraph.js's default serializer itself (a subclass, or an
 * encrypting serializer, may read differently) or `@langchain/core` is not
 * installed. Loads the message classes first (the only await).
 */
export async function syncReader(serde: SerializerProtocol): Promise<SyncReader | undefined> {
  if (typeof JsonPlusSerializer !== "function" || Object.getPrototypeOf(serde) !== JsonPlusSerializer.prototype) return undefined;
  await loadMessageClasses();
  const messages = foundMessageModule();
  return messages === null || messages === undefined ? undefined : new SyncReader(messages);
}

/** Reads the default serializer's `["json", bytes]` (and `["bytes", ...]`) values without awaiting. */
export class SyncReader {
  readonly #messages: Record<string, unknown>;
  readonly #aliases = new Map<unknown, Record<string, string>>();

  constructor(messages: Record<string, unknown>) {
    this.#messages = messages;
  }

  /**
   * The decoder of one stored value, giving what the serializer's
   * `loadsTyped(type, data)` gives, without awaiting; `undefined` when the
   * value holds anything this module does not decode.
   */
  decoderOf(type: string, data: Uint8Array | string): (() => unknown) | undefined {
    if (type === "bytes") return () => (typeof data === "string" ? new TextEncoder().encode(data) : data);
    if (type !== "json") return undefined;
    const text = typeof data === "string" ? data : new TextDecoder().decode(data);
    if (text.includes("__lc_escaped__")) return undefined;
    let keys = 0;
    for (const _ of text.matchAll(LC_KEYS)) keys++;
    let known = 0;
    if (keys > 0) {
      for (const m of text.matchAll(KNOWN_RECORDS)) {
        if (m[1] !== undefined && typeof this.#messages[m[1]] !== "function") return undefined;
        known++;
      }
    }
    return known === keys ? () => this.#revive(JSON.parse(text)) : undefined;
  }

  /** JsonPlusSerializer's `_reviver`: children first, then the record they make up. */
  #revive(value: unknown): unknown {
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((item) => this.#revive(item));
    const obj: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) obj[k] = this.#revive(v);
    if (obj.lc === 2 && obj.type === "undefined") return undefined;
    if (obj.lc === 2 && obj.type === "constructor") return reviveConstructorRecord(obj) ?? obj;
    if (obj.lc === 1 && obj.type === "constructor" && Array.isArray(obj.id)) return this.#load(JSON.parse(JSON.stringify(obj)), 0);
    return obj;
  }

  /** @langchain/core's `load` reviver, top-down, for message records and plain JSON. */
  #load(value: unknown, depth: number): unknown {
    if (depth > MAX_DEPTH) {
      throw new Error(`Maximum recursion depth (${MAX_DEPTH}) exceeded during deserialization. This may indicate a malicious payload or you may need to increase maxDepth.`);
    }
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((v) => this.#load(v, depth + 1));
    const record = value as Record<string, unknown>;
    if (record.lc === 1 && record.type === "constructor" && "id" in record && "kwargs" in record) {
      const id = record.id as unknown[];
      const name = String(id[id.length - 1]);
      // decoderOf let through only `["langchain_core", "messages", <a class of the module>]` (a message's
      // own `toJSON` names one again); anything else here is a text built to pass its count: refused.
      const builder = this.#messages[name] as new (fields: Record<string, unknown>) => object;
      if (id.length !== 3 || id[0] !== "langchain_core" || id[1] !== "messages" || typeof builder !== "function") {
        throw new Error(`Invalid identifer: $ -> ${JSON.stringify(record)}`);
      }
      const kwargs = this.#load(record.kwargs, depth + 1) as Record<string, unknown>;
      const aliases = this.#aliasesOf(builder);
      const fields: Record<string, unknown> = {};
      for (const key in kwargs) if (Object.hasOwn(kwargs, key)) fields[aliases[key] || camelCase(key)] = kwargs[key];
      const instance = new builder(fields);
      Object.defineProperty(instance.constructor, "name", { value: name });
      return instance;
    }
    const result: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(record)) result[key] = this.#load(v, depth + 1);
    return result;
  }

  /** `load`'s `combineAliasesAndInvert`: the class chain's `lc_aliases`, JSON key to field. */
  #aliasesOf(builder: new (fields: Record<string, unknown>) => object): Record<string, string> {
    let inverted = this.#aliases.get(builder);
    if (inverted !== undefined) return inverted;
    const aliases: Record<string, string> = {};
    for (let current: unknown = builder; current && (current as { prototype?: unknown }).prototype; current = Object.getPrototypeOf(current)) {
      Object.assign(aliases, Reflect.get((current as { prototype: object }).prototype, "lc_aliases"));
    }
    inverted = {};
    for (const [key, v] of Object.entries(aliases)) inverted[v] = key;
    this.#aliases.set(builder, inverted);
    return inverted;
  }
}

/** @langchain/core's `camelCase` of a JSON key (load/map_keys.js). */
function camelCase(key: string): string {
  const trimmed = key.trim();
  if (!/[-_\s]/.test(trimmed)) return trimmed;
  return trimmed
    .replace(/[-_\s]+/g, "_")
    .toLowerCase()
    .replace(/_+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** JsonPlusSerializer's `reviveConstructorRecord`: the closed set of `lc: 2` constructors; `undefined` keeps the record inert. */
function reviveConstructorRecord(record: Record<string, unknown>): unknown {
  const id = record.id;
  const named = (n: string) => Array.isArray(id) && id.length === 1 && id[0] === n;
  const noMethod = record.method === undefined || record.method === null;
  const args = record.args;
  const singleArray = Array.isArray(args) && args.length === 1 && Array.isArray(args[0]);
  if (named("Set") && noMethod) return singleArray ? new Set(args[0] as unknown[]) : undefined;
  if (named("Map") && noMethod) {
    if (!singleArray || !(args[0] as unknown[]).every((e) => Array.isArray(e) && e.length === 2)) return undefined;
    return new Map(args[0] as [unknown, unknown][]);
  }
  if (named("RegExp") && noMethod) {
    if (!Array.isArray(args) || args.length !== 2 || typeof args[0] !== "string" || typeof args[1] !== "string") return undefined;
    try {
      return new RegExp(args[0], args[1]);
    } catch {
      return undefined;
    }
  }
  if (named("Error") && noMethod) {
    if (!Array.isArray(args) || args.length !== 1 || typeof args[0] !== "string") return undefined;
    return new Error(args[0]);
  }
  if (named("Uint8Array") && (noMethod || record.method === "from")) {
    if (!singleArray || !(args[0] as unknown[]).every((b) => typeof b === "number" && Number.isInteger(b) && b >= 0 && b <= 255)) return undefined;
    return new Uint8Array(args[0] as number[]);
  }
  return undefined;
}
