// State definitions as zod objects, LangGraph.js's `@langchain/langgraph/zod`
// (here `chronograph/zod`): `withLangGraph(schema, meta)` (zod 3) and
// `schema.register(registry, meta)` (zod 4) give a field a reducer and a
// default; `new StateGraph(z.object({ ... }))` reads them. Nothing here
// imports zod: a zod object is read through its own API (`shape`, `extend`,
// `partial`, `parse`), so the package works without zod installed, and with
// whichever zod (3 or 4) the user's schemas come from.
import { argumentError, describe, isArray, isRecord } from "../../internal/args.js";
import { isCommandLike } from "../../command.js";
import { OVERWRITE, PARENT, overwriteOf } from "../../constants.js";

/** What LangGraph.js records about a zod field: its reducer (and the schema of an update), default, JSON-schema extras. */
export interface SchemaMeta<Value = unknown, Update = Value> {
  /** How updates fold in; `schema` validates an update when it differs from the value's. */
  reducer?: { schema?: unknown; fn: (a: Value, b: Update) => Value };
  /** The channel's default. */
  default?: () => Value;
  /** Extra JSON-schema keys (LangGraph Studio reads `langgraph_type`). */
  jsonSchemaExtra?: Record<string, unknown>;
}

/** Prefix of the description LangGraph.js writes JSON-schema extras into. */
export const META_EXTRAS_DESCRIPTION_PREFIX = "lg:";

/** A zod object as a state's type sees it: zod 4 keeps its output type in `_zod.output`, zod 3 in `_output`. */
export type ZodObjectState = { readonly _zod: { readonly output: object; readonly def: { readonly type: "object" } } } | { readonly _output: object; readonly shape: object };
/** The state a zod object describes. */
export type ZodOutput<Z> = Z extends { readonly _zod: { readonly output: infer O } } ? O : Z extends { readonly _output: infer O } ? O : Record<string, unknown>;

/** A zod object of either major version, as far as a state definition reads it. */
interface ZodObjectLike {
  readonly shape?: Record<string, unknown>;
  readonly _def?: { typeName?: string; shape?: () => Record<string, unknown> };
  readonly _zod?: { def?: { type?: string; shape?: Record<string, unknown> } };
  extend?(shape: Record<string, unknown>): ZodObjectLike;
  partial?(): ZodObjectLike;
  strip?(): ZodObjectLike;
  parse?(value: unknown): unknown;
}

/** A zod schema of either major version: zod 3 keeps `_def`, zod 4 `_zod`. */
function isZodSchema(v: unknown): boolean {
  return isRecord(v) && (isRecord((v as ZodObjectLike)._zod) || isRecord((v as ZodObjectLike)._def));
}

/** Whether `v` is a zod object (`z.object({...})`), zod 3 or 4. */
export function isZodObject(v: unknown): v is ZodObjectLike {
  if (!isRecord(v)) return false;
  const z = v as ZodObjectLike;
  return z._zod?.def?.type === "object" || z._def?.typeName === "ZodObject";
}

/** A zod object's fields, in declaration order. */
export function zodShape(schema: ZodObjectLike): Record<string, unknown> {
  if (schema._zod?.def?.shape !== undefined) return schema._zod.def.shape;
  return schema.shape ?? schema._def?.shape?.() ?? {};
}

/** A zod schema's default (`.default(...)`, what it parses `undefined` to), as LangGraph.js's `getInteropZodDefaultGetter` reads it. */
function zodDefault(schema: unknown): (() => unknown) | undefined {
  const parse = (schema as ZodObjectLike).parse;
  if (!isZodSchema(schema) || typeof parse !== "function") return undefined;
  try {
    const value = parse.call(schema, undefined);
    return () => value;
  } catch {
    return undefined;
  }
}

/**
 * LangGraph.js's `SchemaMetaRegistry`: the reducer and default of each zod
 * field, keyed by the field's schema object (one map, shared with the zod 4
 * `registry`).
 */
export class SchemaMetaRegistry {
  /** @internal schema → its meta. */
  _map = new Map<unknown, SchemaMeta>();

  /** The meta recorded for `schema`, if any. */
  get(schema: unknown): SchemaMeta | undefined {
    return this._map.get(schema);
  }

  /** Sets `schema`'s meta to `predicate(its current meta)`. */
  extend(schema: unknown, predicate: (meta: SchemaMeta | undefined) => SchemaMeta): void {
    this._map.set(schema, predicate(this.get(schema)));
  }

  /** Forgets `schema`'s meta. */
  remove(schema: unknown): this {
    this._map.delete(schema);
    return this;
  }

  /** Whether `schema` has meta. */
  has(schema: unknown): boolean {
    return this._map.has(schema);
  }
}

/** The registry `withLangGraph` writes to and `new StateGraph(zodObject)` reads. */
export const schemaMetaRegistry = new SchemaMetaRegistry();

/**
 * LangGraph.js's `withLangGraph(schema, meta)` (zod 3): gives a zod field a
 * reducer and a default. A reducer without a default takes the schema's
 * own `.default()`.
 */
export function withLangGraph<S, Value = unknown, Update = Value>(schema: S, meta: SchemaMeta<Value, Update>): S {
  if (meta.reducer && !meta.default) {
    const fallback = zodDefault(schema);
    if (fallback !== undefined) meta.default = fallback as () => Value;
  }
  if (meta.reducer) Object.assign(schema as object, { lg_reducer_schema: meta.reducer.schema ?? schema });
  schemaMetaRegistry.extend(schema, () => meta as SchemaMeta);
  return schema;
}

/**
 * LangGraph.js's zod 4 registry: `z.array(...).register(registry, { reducer, default })`.
 * zod 4's `register` calls `add`; the meta lands in the same map as `withLangGraph`'s.
 */
export class LanggraphZodMetaRegistry {
  /** @internal Shared with `parent`. */
  _map: Map<unknown, SchemaMeta>;
  /** @internal zod 4 registries keep schemas by `id` too. */
  _idmap = new Map<string, unknown>();

  constructor(readonly parent: SchemaMetaRegistry) {
    this._map = parent._map;
  }

  /** Records `meta` for `schema` (a reducer without a default takes the schema's own). */
  add<Value = unknown, Update = Value>(schema: unknown, ...meta: SchemaMeta<Value, Update>[]): this {
    const first = meta[0];
    if (first && !first.default) {
      const fallback = zodDefault(schema);
      if (fallback !== undefined) first.default = fallback as () => Value;
    }
    this._map.set(schema, (first ?? {}) as SchemaMeta);
    return this;
  }

  /** The meta recorded for `schema`, if any. */
  get(schema: unknown): SchemaMeta | undefined {
    return this._map.get(schema);
  }

  /** Whether `schema` has meta. */
  has(schema: unknown): boolean {
    return this._map.has(schema);
  }

  /** Forgets `schema`'s meta. */
  remove(schema: unknown): this {
    this._map.delete(schema);
    return this;
  }

  /** Forgets every schema's meta. */
  clear(): this {
    this._map.clear();
    this._idmap.clear();
    return this;
  }
}

/** The zod 4 registry of LangGraph.js's field meta. */
export const registry = new LanggraphZodMetaRegistry(schemaMetaRegistry);

/**
 * Validates run input against a zod object state as LangGraph.js does: the
 * state's schema with each reducer field's update schema, every field
 * optional, parsed by zod itself (unknown keys dropped, values transformed,
 * zod's own error on a mismatch).
 */
export class ZodInputValidator {
  #parser: ZodObjectLike | undefined;
  /** The state's own schema, every field optional: what an `Overwrite`'s value is parsed with (built once). */
  #values: ZodObjectLike | undefined;
  readonly #partialInput: boolean;

  /** `partial: false` for a separate input schema, whose required fields a run's input must have (LangGraph.js parses it whole). */
  constructor(
    readonly schema: ZodObjectLike,
    { partial = true }: { partial?: boolean } = {},
  ) {
    this.#partialInput = partial;
  }

  /** The schema input is parsed with (built once). */
  #inputSchema(): ZodObjectLike {
    if (this.#parser !== undefined) return this.#parser;
    const overrides: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(zodShape(this.schema))) {
      const updateSchema = schemaMetaRegistry.get(field)?.reducer?.schema;
      if (updateSchema !== undefined) overrides[key] = updateSchema;
    }
    let s = this.schema;
    if (Object.keys(overrides).length > 0 && typeof s.extend === "function") {
      s = s.extend(overrides);
      // zod 3 keeps the original's unknown-key policy through `extend`; LangGraph.js strips.
      if (typeof s.strip === "function" && s._def?.typeName === "ZodObject") s = s.strip();
    }
    if (typeof s.partial !== "function" || typeof s.parse !== "function") {
      throw argumentError(`new StateGraph(state): a zod object without partial()/parse() (zod/mini?) cannot validate input, got ${describe(this.schema)}`);
    }
    this.#parser = this.#partialInput ? s.partial() : s;
    return this.#parser;
  }

  /** The input as zod parses it (keys the state does not have are dropped). */
  async validateInput(data: unknown): Promise<unknown> {
    if (data == null || typeof data !== "object") return data;
    return this.#inputSchema().parse!(data);
  }

  /** A `Command`'s update as LangGraph.js validates it: parsed, then each of its own keys read back. */
  async validateUpdate(update: Record<string, unknown>): Promise<unknown> {
    const parsed = this.#inputSchema().parse!(update) as Record<string, unknown>;
    return Object.fromEntries(Object.keys(update).map((k) => [k, parsed[k]]));
  }

  /**
   * A node's return value with its updates of the state's fields parsed as
   * LangGraph.js's `validateStateUpdates` does (each field on its own, other
   * keys as they are): a zod error there fails the node.
   */
  validateNodeResult(result: unknown): unknown {
    if (result == null || typeof result !== "object") return result;
    if (isCommandLike(result)) return this.#validateCommand(result);
    if (isArray(result)) return result.map((r) => (isCommandLike(r) ? this.#validateCommand(r) : this.validateNodeResult(r)));
    return Object.fromEntries(Object.entries(result).map(([k, v]) => [k, this.#field(k, v)]));
  }

  #validateCommand<C extends { update?: unknown; graph?: unknown }>(command: C): C {
    const update = command.update;
    if (update === undefined || command.graph === PARENT) return command;
    const pairs = isArray(update) ? (update as [string, unknown][]) : Object.entries(update as object);
    const checked = pairs.map(([k, v]) => [k, this.#field(k, v)] as [string, unknown]);
    const copy = Object.assign(Object.create(Object.getPrototypeOf(command) as object) as object, command) as C;
    copy.update = isArray(update) ? checked : Object.fromEntries(checked);
    return copy;
  }

  /** One update of field `key` parsed (its reducer's update schema when it has one); any other key as it is. */
  #field(key: string, value: unknown): unknown {
    if (!Object.prototype.hasOwnProperty.call(zodShape(this.schema), key)) return value;
    const [isOverwrite, replacement] = overwriteOf(value);
    if (isOverwrite) {
      // LangGraph.js: an Overwrite's value is parsed with the field's value schema, and re-wrapped.
      this.#values ??= (this.#inputSchema(), this.schema.partial!());
      const parsed = this.#values.parse!({ [key]: replacement }) as Record<string, unknown>;
      return Object.prototype.hasOwnProperty.call(parsed, key) ? { [OVERWRITE]: parsed[key] } : value;
    }
    const parsed = this.#inputSchema().parse!({ [key]: value }) as Record<string, unknown>;
    return Object.prototype.hasOwnProperty.call(parsed, key) ? parsed[key] : value;
  }
}
