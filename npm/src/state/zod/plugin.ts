// LangGraph.js's zod plugin, which `import "@langchain/langgraph/zod"` (here
// `chronograph/zod`) installs: every zod schema (zod 3 and 4) gets
// `schema.langgraph.reducer(fn, updateSchema)` and
// `schema.langgraph.metadata(jsonSchemaExtra)`, which record the field's
// meta as `withLangGraph` does. The package does not depend on zod: the zod
// the application has is found where its own packages are (Node only; in a
// browser, use `withLangGraph` or the zod 4 `registry`).
import { withLangGraph, type SchemaMeta } from "./meta.js";

/** What the plugin adds to a zod schema. */
interface PluginMethods {
  metadata(jsonSchemaExtra: Record<string, unknown>): unknown;
  reducer(fn: (a: never, b: never) => unknown, updateSchema?: unknown): unknown;
}

/** A minimal `require` (the package has no `@types/node` dependency). */
interface NodeRequire {
  (id: string): unknown;
  resolve(id: string): string;
}

/** The `langgraph` getter of another plugin on `base` (LangGraph.js's, in a process that loads both libraries), looked up at each use. */
function theirs(base: object): ((this: object) => unknown) | undefined {
  const getter = Object.getOwnPropertyDescriptor(base, "langgraph")?.get;
  return getter === undefined || getter === ours ? undefined : getter;
}

/** The plugin's getter: records the meta here, and through another plugin on `ZodType.prototype` if there is one. */
function ours(this: object): PluginMethods {
  const schema = this;
  const other = bases.find((b) => b.isPrototypeOf(schema));
  const previous = (other === undefined ? undefined : theirs(other)?.call(schema)) as PluginMethods | undefined;
  return {
    metadata(jsonSchemaExtra) {
      previous?.metadata(jsonSchemaExtra);
      return withLangGraph(schema, { jsonSchemaExtra });
    },
    reducer(fn, updateSchema) {
      previous?.reducer(fn, updateSchema);
      // No default given: `withLangGraph` takes the schema's own `.default()`, as LangGraph.js does.
      return withLangGraph(schema, { reducer: { schema: updateSchema, fn } } as SchemaMeta);
    },
  };
}

/** The `ZodType.prototype`s the plugin is installed for. */
const bases: object[] = [];

/**
 * Adds `langgraph` to the schemas of one zod: on `ZodType.prototype`, or,
 * when LangGraph.js's plugin is there already (it cannot be redefined), on
 * each schema class's prototype (`ZodString`, `ZodArray`, ...), which
 * calls LangGraph.js's too, so both libraries read the meta.
 */
function install(zod: Record<string, unknown>, base: object): void {
  bases.push(base);
  const descriptor = { configurable: true, get: ours };
  if (Object.getOwnPropertyDescriptor(base, "langgraph")?.configurable !== false) {
    Object.defineProperty(base, "langgraph", descriptor);
    return;
  }
  for (const value of Object.values(zod)) {
    const prototype = typeof value === "function" ? (value as { prototype?: unknown }).prototype : undefined;
    if (typeof prototype === "object" && prototype !== null && prototype !== base && base.isPrototypeOf(prototype)) {
      Object.defineProperty(prototype, "langgraph", descriptor);
    }
  }
}

/** The `z` of zod 3 and 4 as the application imports them (ESM), found beside the package or the app's entry. */
async function zods(): Promise<Record<string, unknown>[]> {
  type Proc = { getBuiltinModule?: (id: string) => unknown; cwd?: () => string; argv?: string[] };
  const proc = (globalThis as { process?: Proc }).process;
  const mod = proc?.getBuiltinModule?.("module") as { createRequire(from: string): NodeRequire } | undefined;
  const url = proc?.getBuiltinModule?.("url") as { pathToFileURL(p: string): URL } | undefined;
  if (mod === undefined || url === undefined) return [];
  const bases = [import.meta.url, proc?.argv?.[1], `${proc?.cwd?.() ?? "."}/`].filter((b): b is string => typeof b === "string" && b !== "");
  for (const base of bases) {
    let manifest: string;
    let exports: Record<string, { import?: string | { default?: string } }> | undefined;
    try {
      const require = mod.createRequire(base);
      manifest = require.resolve("zod/package.json");
      exports = (require(manifest) as { exports?: typeof exports }).exports;
    } catch {
      continue;
    }
    const found: Record<string, unknown>[] = [];
    for (const sub of ["./v3", "./v4"]) {
      const entry = exports?.[sub]?.import;
      const file = typeof entry === "string" ? entry : entry?.default;
      if (file === undefined) continue;
      try {
        const m = (await import(new URL(file, url.pathToFileURL(manifest)).href)) as { z?: Record<string, unknown> };
        if (m.z !== undefined) found.push(m.z);
      } catch {
        // This zod has no such entry.
      }
    }
    return found;
  }
  return [];
}

for (const z of await zods()) {
  const base = (z.ZodType as { prototype?: unknown } | undefined)?.prototype;
  if (typeof base === "object" && base !== null) install(z, base);
}
