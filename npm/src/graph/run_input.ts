// What a run's input, context and state writes become before the engine
// takes them, from the graph's state definition: the input validated
// against a `StateSchema` (or a zod object state), the context against the
// context schema, and id-less message instances given their ids, as
// LangGraph.js does.
import { isArray, isRecord, option } from "../internal/args.js";
import { isCommandLike } from "../command.js";
import { GraphValueError, withCode, plainError } from "../errors.js";
import { isZodObject } from "../state/zod/meta.js";
import { checkConfigurable } from "../state/zod/definitions.js";
import { assignMessageIds, toEngine } from "../langchain/message_classes.js";
import type { StateDefinitionInfo } from "../state/definitions.js";

/**
 * The run's `context` (LangGraph.js v1's runtime context), validated
 * against the graph's context schema when it has one (a standard schema).
 */
export function runContext(definition: StateDefinitionInfo | undefined, config: unknown): unknown {
  const context = option(config, "context", "config");
  const schema = definition?.contextSchema;
  if (schema === undefined) return context;
  // LangGraph.js: without a `context`, a zod context schema validates `configurable` instead.
  if (context === undefined) {
    if (isZodObject(schema)) checkConfigurable(schema, option(config, "configurable", "config"));
    return context;
  }
  const checked = schema["~standard"].validate(context);
  if ("then" in checked) throw withCode(new GraphValueError("config.context: an async context schema is not supported"), "UNSUPPORTED");
  if (checked.issues) throw plainError(`Validation failed for the context: ${JSON.stringify(checked.issues)}`, "INVALID_ARGUMENT");
  return checked.value;
}

/**
 * Calls `run` with the run input as the engine takes it: validated
 * against a `StateSchema` state first, as LangGraph.js does. Without a
 * schema the input goes through untouched (and synchronously: it may be
 * anything, even a revoked Proxy, whose mistakes the bindings name).
 */
export function withInput<T>(definition: StateDefinitionInfo | undefined, input: unknown, run: (input: unknown) => Promise<T>): Promise<T> {
  const schema = definition?.inputSchema ?? definition?.schema;
  if (schema === undefined || input == null || typeof input !== "object") return run(input);
  const validated = async (): Promise<{ input: unknown }> => {
    if (!isCommandLike(input)) return { input: await schema.validateInput(input) };
    if (input.update === undefined) return { input };
    const update = isArray(input.update) ? Object.fromEntries(input.update) : input.update;
    const checked = "validateUpdate" in schema ? await schema.validateUpdate(update) : await schema.validateInput(update);
    const copy = Object.assign(Object.create(Object.getPrototypeOf(input) as object) as object, input, { update: checked });
    return { input: copy };
  };
  return validated().then((v) => run(v.input));
}

/**
 * What a caller writes to the state (a run's input, a `Command`, an
 * update) as the engine takes it: its id-less message instances given
 * ids in place first, as LangGraph.js's reducer gives them.
 */
export function written<T>(definition: StateDefinitionInfo | undefined, v: T): T {
  const keys = definition?.messages?.keys;
  if (keys !== undefined) assignMessageIds(v, keys);
  return toEngine(v);
}

/** `bulkUpdateState`'s supersteps, each update's `values` as {@link written} makes them. */
export function writtenSupersteps<T>(definition: StateDefinitionInfo | undefined, supersteps: T): T {
  const keys = definition?.messages?.keys;
  try {
    if (keys !== undefined && isArray(supersteps)) {
      for (const step of supersteps as unknown[]) {
        const updates = isRecord(step) ? step.updates : undefined;
        if (isArray(updates)) for (const u of updates as unknown[]) if (isRecord(u)) assignMessageIds(u.values, keys);
      }
    }
  } catch {
    // A getter or Proxy trap that throws (a revoked Proxy): the bindings read the value again and name what is wrong.
  }
  return toEngine(supersteps);
}
