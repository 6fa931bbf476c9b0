// LangGraph.js's helpers over Standard Schema values (zod, valibot, ...),
// exported by its main entry: the same checks, in the same order.

/** A Standard Schema value as these helpers read it. */
type Standard = { "~standard": { validate?(value: unknown): unknown; jsonSchema?: { input(options: { target: string }): Record<string, unknown> } } };

/** Whether `schema` is an object whose `~standard` (an object) has `key`: LangGraph.js's checks, in its order. */
function hasStandard(schema: unknown, key: "validate" | "jsonSchema"): boolean {
  if (typeof schema !== "object" || schema === null || !("~standard" in schema)) return false;
  const standard = (schema as Standard)["~standard"];
  return typeof standard === "object" && standard !== null && key in standard;
}

/** Whether `schema` is a Standard Schema (an object whose `~standard` has `validate`; LangGraph.js's `isStandardSchema`). */
export function isStandardSchema(schema: unknown): boolean {
  return hasStandard(schema, "validate");
}

/** Whether `schema` writes a JSON schema (`~standard.jsonSchema`). */
function isStandardJSONSchema(schema: unknown): boolean {
  return hasStandard(schema, "jsonSchema");
}

/** Whether `schema` validates and writes a JSON schema (LangGraph.js's `isSerializableSchema`). */
export function isSerializableSchema(schema: unknown): boolean {
  return isStandardSchema(schema) && isStandardJSONSchema(schema);
}

/** The draft-07 JSON schema of `schema`'s input, `undefined` when it writes none or fails (LangGraph.js's `getJsonSchemaFromSchema`). */
export function getJsonSchemaFromSchema(schema: unknown): Record<string, unknown> | undefined {
  if (!isStandardJSONSchema(schema)) return undefined;
  try {
    return (schema as Standard)["~standard"].jsonSchema!.input({ target: "draft-07" });
  } catch {
    return undefined;
  }
}

/**
 * The default `schema` gives `undefined` (a zod `.default()`), as a
 * factory; `undefined` when it rejects `undefined`, validates
 * asynchronously or throws (LangGraph.js's `getSchemaDefaultGetter`).
 */
export function getSchemaDefaultGetter(schema: unknown): (() => unknown) | undefined {
  if (schema == null) return undefined;
  if (!isStandardSchema(schema)) return undefined;
  try {
    const result = (schema as Standard)["~standard"].validate!(undefined) as { issues?: unknown; value?: unknown; then?: unknown } | undefined;
    if (result && typeof result === "object" && !("then" in result && typeof result.then === "function")) {
      if (!result.issues) {
        const defaultValue = result.value;
        return () => defaultValue;
      }
    }
  } catch {
    // A schema that throws on `undefined` has no default.
  }
  return undefined;
}
