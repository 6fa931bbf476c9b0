// Values as LangGraph.js's serializer keeps them (`@langchain/langgraph-checkpoint`'s
// `JsonPlusSerializer`), at the boundary of the engine's JSON data:
//
// - the engine's records (core/wasm/src/records.rs): `{lc: 2, type: "undefined"}`
//   for `undefined`, `{lc: 2, type: "js_ref", id}` for a value held by reference
//   while its run goes on (core/wasm/src/held.rs), and LangGraph.js's
//   `{lc: 2, type: "constructor", id: ["Map"], ...}` for a `Map`, `Set`, `RegExp`,
//   `Error` or `Uint8Array`, revived as LangGraph.js's reviver revives them
//   (`reviveRecord`, `reviveRecords`);
// - `storedValue`: a value held by reference as a checkpointer stores it, the way
//   LangGraph.js's `MemorySaver` serializes and reads it back (functions dropped,
//   `Date`s as ISO strings, class instances as their own data, messages as the
//   engine's plain messages);
// - `toLangGraph` / `toEngine`: values of a thread on their way to and from a
//   LangGraph.js checkpointer (checkpoint/saver_bridge.ts).
import { plainError } from "../errors.js";
import * as raw from "../wasm/chronograph.js";
import type { Json } from "../pregel/types.js";
import { CLASS_OF_TYPE } from "../langchain/core_messages.js";

/** The engine's record for `undefined` (a fresh object: the engine may keep it). */
export function undefinedRecord(): { lc: 2; type: "undefined" } {
  return { lc: 2, type: "undefined" };
}

/** LangGraph.js's record of a value built by `constructor` (its `_encodeConstructorArgs`). */
function constructorRecord(name: string, method: string | undefined, args: unknown[]): Record<string, unknown> {
  return { lc: 2, type: "constructor", id: [name], method: method ?? null, args, kwargs: {} };
}

/**
 * LangGraph.js's `JsonPlusSerializer` `_default` (the replacer of its
 * `JSON.stringify`): the record of a value JSON does not hold, else the value.
 */
function jsonPlusDefault(obj: unknown): unknown {
  if (obj === undefined) return undefinedRecord();
  if (obj instanceof Set || obj instanceof Map) return constructorRecord(obj.constructor.name, undefined, [Array.from(obj)]);
  if (obj instanceof RegExp) return constructorRecord("RegExp", undefined, [obj.source, obj.flags]);
  if (obj instanceof Error) return constructorRecord("Error", undefined, [obj.message]);
  const send = obj as { lg_name?: unknown; node?: unknown; args?: unknown; timeout?: unknown } | null;
  if (send !== null && typeof send === "object" && send.lg_name === "Send") {
    return { node: send.node, args: send.args, ...(send.timeout !== undefined ? { timeout: send.timeout } : {}) };
  }
  if (obj instanceof Uint8Array) return constructorRecord("Uint8Array", "from", [Array.from(obj)]);
  return obj;
}

/** What {@link jsonPlusData} leaves out: a function, a symbol. */
const DROPPED = Symbol("dropped");

/**
 * `v` (under `key` of its holder) as the JSON data LangGraph.js's
 * serializer writes: `JSON.stringify` with the serializer's replacer
 * (`toJSON` first, then {@link jsonPlusDefault}; functions and symbols left
 * out of objects, `null` in arrays; non-finite numbers `null`), and a value
 * that contains itself written `"[Circular]"` where it repeats, as its
 * `fast-safe-stringify` does. A BigInt throws, as `JSON.stringify` does.
 */
function jsonPlusData(key: string, value: unknown, stack: object[]): unknown {
  let v = value;
  if (v !== null && (typeof v === "object" || typeof v === "bigint") && typeof (v as { toJSON?: unknown }).toJSON === "function") {
    v = (v as { toJSON(key: string): unknown }).toJSON(key);
  }
  v = jsonPlusDefault(v);
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      return Number.isFinite(v) ? v : null;
    case "bigint":
      throw plainError("Do not know how to serialize a BigInt", "INVALID_VALUE", TypeError);
    case "object": {
      if (v === null) return null;
      if (stack.includes(v)) return "[Circular]";
      stack.push(v);
      try {
        if (Array.isArray(v)) {
          return v.map((x, i) => {
            const out = jsonPlusData(String(i), x, stack);
            return out === DROPPED ? null : out;
          });
        }
        const out: Record<string, unknown> = {};
        for (const k of Object.keys(v)) {
          const x = jsonPlusData(k, (v as Record<string, unknown>)[k], stack);
          if (x !== DROPPED) out[k] = x;
        }
        return out;
      } finally {
        stack.pop();
      }
    }
    default:
      return DROPPED;
  }
}

/**
 * A value held by reference as a checkpointer stores it (core/wasm/src/held.rs
 * `stored`): the JSON data LangGraph.js's serializer writes for it, its
 * LangChain messages as the engine's plain messages. A value whose JSON is
 * nothing (a function) is stored as `undefined`.
 */
export function storedValue(v: unknown): unknown {
  const data = jsonPlusData("", v, []);
  return data === DROPPED ? undefinedRecord() : toEngine(data);
}

/** Whether `o` is one of the engine's records (`lc: 2` first, a string `type`). */
function isRecord(o: Record<string, unknown>): boolean {
  if (o.lc !== 2 || typeof o.type !== "string") return false;
  for (const k in o) return k === "lc";
  return false;
}

/** Whether `v` is an array of one array argument (a constructor record's `args`). */
const singleArrayArg = (args: unknown): args is [unknown[]] => Array.isArray(args) && args.length === 1 && Array.isArray(args[0]);

/**
 * A record (its contents revived) as the value it stands for:
 * `undefined`, the value held by reference, or what LangGraph.js's
 * `reviveConstructorRecord` makes of a constructor record; anything else,
 * or a malformed record, stays as it is (inert, as LangGraph.js keeps it).
 */
function reviveOne(o: Record<string, unknown>): unknown {
  switch (o.type) {
    case "undefined":
      return undefined;
    case "js_ref": {
      const held = typeof o.id === "number" ? raw.heldValue(o.id) : undefined;
      return held === undefined ? o : held;
    }
    case "constructor": {
      const id = o.id;
      if (!Array.isArray(id) || id.length !== 1) return o;
      const noMethod = o.method === undefined || o.method === null;
      const args = o.args as unknown[];
      try {
        if (id[0] === "Set" && noMethod && singleArrayArg(args)) return new Set(args[0]);
        if (id[0] === "Map" && noMethod && singleArrayArg(args) && args[0].every((e) => Array.isArray(e) && e.length === 2)) {
          return new Map(args[0] as [unknown, unknown][]);
        }
        if (id[0] === "RegExp" && noMethod && Array.isArray(args) && args.length === 2 && typeof args[0] === "string" && typeof args[1] === "string") {
          return new RegExp(args[0], args[1]);
        }
        if (id[0] === "Error" && noMethod && Array.isArray(args) && args.length === 1 && typeof args[0] === "string") return new Error(args[0]);
        if (id[0] === "Uint8Array" && (noMethod || o.method === "from") && singleArrayArg(args)) {
          const bytes = args[0];
          if (bytes.every((b) => typeof b === "number" && Number.isInteger(b) && b >= 0 && b <= 255)) return new Uint8Array(bytes as number[]);
        }
      } catch {
        // A record LangGraph.js's reviver would not revive either (a bad RegExp): inert.
      }
      return o;
    }
    default:
      return o;
  }
}

/**
 * Plain data (parsed JSON, or a record converted by the bindings) with its
 * records revived, innermost first as LangGraph.js's reviver does; changed
 * in place (the data is fresh), the result is what stands in `v`'s place.
 */
export function reviveRecords(v: unknown, depth = 0): unknown {
  if (v === null || typeof v !== "object" || depth > 300) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = reviveRecords(v[i], depth + 1);
    return v;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) o[k] = reviveRecords(o[k], depth + 1);
  return isRecord(o) ? reviveOne(o) : o;
}

/** A constructor record as its instance (the bindings' `registerReviveRecord`). */
export const reviveRecord = (record: unknown): unknown => reviveRecords(record);

/**
 * Data parsed from the engine's JSON text (listings, internal/lazy.ts) with its
 * records revived, when it may hold some (a record entered the engine,
 * and the text has one).
 */
export function revivedText(text: string): unknown {
  const v: unknown = JSON.parse(text);
  return raw.recordsSeen() && text.includes('"lc":2') ? reviveRecords(v) : v;
}

/** The `type` of each LangChain message class (the reverse of `CLASS_OF_TYPE`), for serialized messages. */
const TYPE_OF_CLASS: Record<string, string> = Object.fromEntries(Object.entries(CLASS_OF_TYPE).map(([t, c]) => [c, t]));

/** Whether `v` is a plain message as Chronograph keeps them (`{type, content, ...}`). */
function isPlainMessage(v: unknown): v is Record<string, unknown> & { type: string } {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const m = v as Record<string, unknown>;
  return typeof m.type === "string" && m.type in CLASS_OF_TYPE && "content" in m && !("lc" in m);
}

/**
 * A value of the engine as LangGraph.js keeps it: plain messages become
 * LangChain's serialized constructor form (`{lc: 1, type: "constructor",
 * id: [..., "HumanMessage"], kwargs}`), which the saver's serializer stores
 * as is and revives into message classes. Records stay the plain objects
 * they are: the saver's serializer writes them as they are and revives them.
 */
export function toLangGraph(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(toLangGraph);
  if (isPlainMessage(v)) {
    const { type, ...kwargs } = v;
    return { lc: 1, type: "constructor", id: ["langchain_core", "messages", CLASS_OF_TYPE[type]], kwargs };
  }
  if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = toLangGraph(x);
    return out;
  }
  return v;
}

/**
 * A value read from a LangGraph.js saver as the engine's JSON data:
 * LangChain messages (revived classes, or their serialized form) become
 * plain `{type, content, id, ...}` messages; `undefined`, `Map`s, `Set`s
 * and the like the records LangGraph.js's serializer writes for them;
 * other class instances their JSON.
 */
export function toEngine(v: unknown): Json {
  if (v === undefined) return undefinedRecord() as unknown as Json;
  if (v === null || typeof v !== "object") return v as Json;
  if (Array.isArray(v)) return v.map(toEngine);
  const o = v as Record<string, unknown>;
  // A serialized LangChain message (a saver that did not revive it).
  if (o.lc === 1 && o.type === "constructor" && Array.isArray(o.id)) {
    const cls = String(o.id[o.id.length - 1]).replace(/Chunk$/, "");
    const type = TYPE_OF_CLASS[cls];
    if (type) return messageDict(type, (o.kwargs ?? {}) as Record<string, unknown>);
  }
  // A revived LangChain message class.
  const getType = (o as { _getType?: () => string; getType?: () => string }).getType ?? (o as { _getType?: () => string })._getType;
  if (typeof getType === "function" && "content" in o && "lc_kwargs" in o) {
    return messageDict(getType.call(o), o);
  }
  if (typeof (o as { toJSON?: unknown }).toJSON === "function" && !(o instanceof Date)) {
    return toEngine((o as { toJSON: () => unknown }).toJSON());
  }
  if (o instanceof Date) return o.toISOString();
  const record = jsonPlusDefault(o);
  if (record !== o) return toEngine(record);
  const out: { [k: string]: Json } = {};
  for (const [k, x] of Object.entries(o)) if (typeof x !== "function" && typeof x !== "symbol") out[k] = toEngine(x);
  return out;
}

/** A message's fields that Chronograph keeps, from a class or its kwargs. */
function messageDict(type: string, m: Record<string, unknown>): Json {
  const out: { [k: string]: Json } = { type, content: toEngine(m.content) };
  for (const k of ["id", "name", "tool_call_id", "status"]) if (m[k] !== undefined && m[k] !== null) out[k] = toEngine(m[k]);
  for (const k of ["tool_calls", "invalid_tool_calls"]) {
    if (Array.isArray(m[k]) && (m[k] as unknown[]).length > 0) out[k] = toEngine(m[k]);
  }
  for (const k of ["additional_kwargs", "response_metadata"]) {
    const x = m[k];
    if (x && typeof x === "object" && Object.keys(x).length > 0) out[k] = toEngine(x);
  }
  return out;
}
