// `chronograph/zod/schema` (LangGraph.js's `@langchain/langgraph/zod/schema`):
// the JSON schemas of a compiled graph's state, update, input, output and
// config, as LangGraph Studio reads them. A zod object's schema is written
// by `@langchain/core`'s `toJsonSchema` (an optional peer dependency, as in
// LangGraph.js: these functions fail, naming it, when it is missing), with
// the fields' reducer update schemas and `jsonSchemaExtra` applied exactly
// as LangGraph.js's `SchemaMetaRegistry.getExtendedChannelSchemas` does; a
// `StateSchema`'s comes from its fields' standard JSON schemas.
import { importPeer, peersSwitchedOff } from "../../internal/peers.js";
import { GraphValueError, withCode } from "../../errors.js";
import { isRecord } from "../../internal/args.js";
import { PARTIAL_STATE, type RuntimeDefinitions } from "./definitions.js";
import { StateSchema } from "../definitions.js";
import { schemaMetaRegistry, type SchemaMetaRegistry } from "./meta.js";
import { getJsonSchemaFromSchema } from "../schema_helpers.js";

/** What the module uses of `@langchain/core/utils/types` and `/utils/json_schema`. */
interface CoreSchemaUtils {
  toJsonSchema(schema: unknown): Record<string, unknown>;
  getInteropZodObjectShape(schema: unknown): Record<string, unknown>;
  extendInteropZodObject(schema: unknown, shape: Record<string, unknown>): unknown;
  interopZodObjectPartial(schema: unknown): unknown;
  getSchemaDescription(schema: unknown): string | undefined;
  isZodSchemaV3(schema: unknown): boolean;
}

/** Looked up once, when this subpath is imported. */
const core: CoreSchemaUtils | undefined = peersSwitchedOff()
  ? undefined
  : await (async () => {
      const types = (await importPeer("@langchain/core", "./utils/types")) as Partial<CoreSchemaUtils> | undefined;
      const json = (await importPeer("@langchain/core", "./utils/json_schema")) as Partial<CoreSchemaUtils> | undefined;
      if (typeof json?.toJsonSchema !== "function" || typeof types?.extendInteropZodObject !== "function") return undefined;
      return { ...types, toJsonSchema: json.toJsonSchema } as CoreSchemaUtils;
    })();

function utils(): CoreSchemaUtils {
  if (core === undefined) {
    throw withCode(
      new GraphValueError("chronograph/zod/schema: the JSON schema of a zod object is written by @langchain/core (npm install @langchain/core), as in LangGraph.js"),
      "MISSING_PEER",
    );
  }
  return core;
}

/** A JSON schema (LangGraph.js's `JSONSchema`). */
export type JSONSchema = Record<string, unknown>;

/** Which of LangGraph.js's schema effects to apply. */
interface Effects {
  withReducerSchema?: boolean;
  withJsonSchemaExtrasAsDescription?: boolean;
  asPartial?: boolean;
}

/** Extended schemas by effects, then by schema (LangGraph.js caches them so). */
const extended = new Map<string, WeakMap<object, unknown>>();

/** LangGraph.js's `SchemaMetaRegistry.getExtendedChannelSchemas`: a zod object with its fields' meta applied. */
function extendedSchema(registry: SchemaMetaRegistry, schema: object, effects: Effects): unknown {
  const z = utils();
  const key = Object.entries(effects)
    .filter(([, v]) => v === true)
    .map(([k]) => k)
    .sort()
    .join("|");
  let cache = extended.get(key);
  if (cache === undefined) extended.set(key, (cache = new WeakMap()));
  const hit = cache.get(schema);
  if (hit !== undefined) return hit;
  let out: unknown = schema;
  if (effects.withReducerSchema || effects.withJsonSchemaExtrasAsDescription) {
    const shape: Record<string, unknown> = {};
    for (const [field, fieldSchema] of Object.entries(z.getInteropZodObjectShape(schema))) {
      const meta = registry.get(fieldSchema);
      let written = effects.withReducerSchema ? (meta?.reducer?.schema ?? fieldSchema) : fieldSchema;
      if (effects.withJsonSchemaExtrasAsDescription && meta?.jsonSchemaExtra) {
        const description = z.getSchemaDescription(written) ?? z.getSchemaDescription(fieldSchema);
        written = (written as { describe(d: string): unknown }).describe(`lg:${JSON.stringify({ ...meta.jsonSchemaExtra, description })}`);
      }
      shape[field] = written;
    }
    out = z.extendInteropZodObject(schema, shape);
    if (z.isZodSchemaV3(out)) (out as { _def: { unknownKeys: string } })._def.unknownKeys = "strip";
  }
  if (effects.asPartial) out = z.interopZodObjectPartial(out);
  cache.set(schema, out);
  return out;
}

/** LangGraph.js's `applyJsonSchemaExtrasFromDescription`: `lg:{...}` descriptions become the keys they hold. */
function extrasFromDescription(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(extrasFromDescription);
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, extrasFromDescription(v)]));
  if (typeof out.description === "string" && out.description.startsWith("lg:")) {
    const extras = JSON.parse(out.description.slice(3)) as Record<string, unknown>;
    delete out.description;
    Object.assign(out, extras);
  }
  return out;
}

/** A zod object's JSON schema with `effects` applied. */
function zodJsonSchema(registry: SchemaMetaRegistry, schema: object, effects: Effects): JSONSchema {
  return extrasFromDescription(utils().toJsonSchema(extendedSchema(registry, schema, { ...effects, withJsonSchemaExtrasAsDescription: true }))) as JSONSchema;
}

/** The builder's runtime definitions, when `graph` is a compiled graph (else `undefined`, as in LangGraph.js). */
function definitionsOf(graph: unknown): Partial<RuntimeDefinitions> | undefined {
  if (!isRecord(graph) || !isRecord((graph as { builder?: unknown }).builder)) return undefined;
  return (graph as { builder: Partial<RuntimeDefinitions> }).builder;
}

/** The schema of a state (`StateSchema` or zod object), whole or as an update. */
function schemaOf(def: unknown, registry: SchemaMetaRegistry, update: boolean): JSONSchema | undefined {
  if (def === undefined || def === null) return undefined;
  if (StateSchema.isInstance(def)) return update ? stateSchemaInput(def) : stateSchemaJson(def);
  return zodJsonSchema(registry, def as object, update ? { withReducerSchema: true, asPartial: true } : {});
}

/** The JSON schema of the graph's state; `undefined` for a state that is neither a zod object nor a `StateSchema`. */
export function getStateTypeSchema(graph: unknown, registry: SchemaMetaRegistry = schemaMetaRegistry): JSONSchema | undefined {
  return schemaOf(definitionsOf(graph)?._schemaRuntimeDefinition, registry, false);
}

/** The JSON schema of an update of the graph's state (reducers' update schemas, every field optional). */
export function getUpdateTypeSchema(graph: unknown, registry: SchemaMetaRegistry = schemaMetaRegistry): JSONSchema | undefined {
  return schemaOf(definitionsOf(graph)?._schemaRuntimeDefinition, registry, true);
}

/** The JSON schema of the graph's input (its input schema, else an update of its state). */
export function getInputTypeSchema(graph: unknown, registry: SchemaMetaRegistry = schemaMetaRegistry): JSONSchema | undefined {
  const defs = definitionsOf(graph);
  const input = defs?._inputRuntimeDefinition;
  return schemaOf(input === PARTIAL_STATE ? defs?._schemaRuntimeDefinition : input, registry, true);
}

/** The JSON schema of the graph's output (its output schema, else its state). */
export function getOutputTypeSchema(graph: unknown, registry: SchemaMetaRegistry = schemaMetaRegistry): JSONSchema | undefined {
  return schemaOf(definitionsOf(graph)?._outputRuntimeDefinition, registry, false);
}

/** The JSON schema of the graph's config (a zod context schema, `new StateGraph(state, contextSchema)`). */
export function getConfigTypeSchema(graph: unknown, registry: SchemaMetaRegistry = schemaMetaRegistry): JSONSchema | undefined {
  const config = definitionsOf(graph)?._configRuntimeSchema;
  return config === undefined ? undefined : zodJsonSchema(registry, config as object, {});
}


/** Whether a standard schema gives `undefined` a value (a default). */
function hasDefault(schema: unknown): boolean {
  const std = isRecord(schema) ? (schema["~standard"] as { validate?(v: unknown): unknown } | undefined) : undefined;
  if (typeof std?.validate !== "function") return false;
  try {
    const r = std.validate(undefined) as { issues?: unknown; then?: unknown } | undefined;
    return r !== undefined && typeof r === "object" && typeof r.then !== "function" && !r.issues;
  } catch {
    return false;
  }
}

/** One `StateSchema` field's JSON schema: its value (or input) schema's, with a `ReducedValue`'s extras. */
function fieldJson(field: unknown, input: boolean): [JSONSchema | undefined, unknown] {
  const f = field as { valueSchema?: unknown; inputSchema?: unknown; jsonSchemaExtra?: Record<string, unknown>; reducer?: unknown; schema?: unknown };
  if (isRecord(field) && typeof f.reducer === "function" && f.valueSchema !== undefined) {
    const own = getJsonSchemaFromSchema(input ? f.inputSchema : f.valueSchema);
    return [f.jsonSchemaExtra ? { ...(own ?? {}), ...f.jsonSchemaExtra } : own, f.valueSchema];
  }
  if (isRecord(field) && "~standard" in field) return [getJsonSchemaFromSchema(field), field];
  return [f?.schema !== undefined ? getJsonSchemaFromSchema(f.schema) : undefined, f?.schema];
}

/** LangGraph.js's `StateSchema.getJsonSchema()`: fields without a default are required. */
function stateSchemaJson(schema: StateSchema): JSONSchema {
  const properties: JSONSchema = {};
  const required: string[] = [];
  for (const [key, field] of Object.entries(schema.fields)) {
    const [json, valueSchema] = fieldJson(field, false);
    if (json === undefined) continue;
    properties[key] = json;
    if (!hasDefault(valueSchema)) required.push(key);
  }
  return { type: "object", properties, required: required.length > 0 ? required : undefined };
}

/** LangGraph.js's `StateSchema.getInputJsonSchema()`: every field optional, reducers' input schemas. */
function stateSchemaInput(schema: StateSchema): JSONSchema {
  const properties: JSONSchema = {};
  for (const [key, field] of Object.entries(schema.fields)) {
    const [json] = fieldJson(field, true);
    if (json !== undefined) properties[key] = json;
  }
  return { type: "object", properties };
}
