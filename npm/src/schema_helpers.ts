// LangGraph.js's helpers over Standard Schema values (zod, valibot, ...),
// exported by its main entry: the same checks, in the same order.

/** A Standard Schema value as these helpers read it. */
type Standard = { "~standard": { validate?(value: unknown): unknown; jsonSchema?: { input(options: { target: string }): Record<string, unknown> } } };

/** Whether `schema` is a Standard Schema (an object whose `~standard` has `validate`; LangGraph.js's `isStandardSchema`). */
export function isStandardSchema(schema: unknown): boolean {
  return (
    typeof schema === "object" &&
    schema !== null &&
    "~standard" in schema &&
    typeof (schema as Standard)["~standard"] === "object" &&
    (schema as Standard)["~standard"] !== null &&
    "validate" in (schema as Standard)["~standard"]
  );
}

/** Whether `schema` writes a JSON schema (`~standard.jsonSchema`). */
function isStandardJSONSchema(schema: unknown): boolean {
  return (
    typeof schema === "object" &&
    schema !== null &&
    "~standard" in schema &&
    typeof (schema as Standard)["~standard"] === "object" &&
    (schema as Standard)["~standard"] !== null &&
    "jsonSchema" in (schema as Standard)["~standard"]
  );
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
