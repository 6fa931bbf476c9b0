// What LangGraph.js's `StateGraph` keeps of its zod / `StateSchema`
// definitions for `chronograph/zod/schema` (and LangGraph Studio) to read:
// `builder._schemaRuntimeDefinition` and its input, output and config
// siblings, under LangGraph.js's own names.
import { isRecord } from "../../internal/args.js";
import { AnnotationRoot, StateSchema } from "../definitions.js";
import { isZodObject } from "./meta.js";

/** LangGraph.js's marker of an input that is a partial state (no input schema of its own). */
export const PARTIAL_STATE: unique symbol = Symbol.for("langgraph.state.partial") as never;

/** The definitions a builder keeps (LangGraph.js's field names). */
export interface RuntimeDefinitions {
  /** The state: a zod object or a `StateSchema` (else `undefined`). */
  _schemaRuntimeDefinition: unknown;
  /** The input schema, or {@link PARTIAL_STATE}. */
  _inputRuntimeDefinition: unknown;
  /** The output schema, else the state's. */
  _outputRuntimeDefinition: unknown;
  /** The zod context (config) schema, if any. */
  _configRuntimeSchema: unknown;
}

/** A zod object or a `StateSchema`: what LangGraph.js keeps as a runtime definition. */
function runtime(v: unknown): unknown {
  return StateSchema.isInstance(v) || isZodObject(v) ? v : undefined;
}

/**
 * The runtime definitions of `new StateGraph(state, options)`, as
 * LangGraph.js's constructor records them (`_normalizeToStateGraphInit`:
 * `{ state | stateSchema, input, output, context }`, or a state and a
 * context schema / `{ input, output, context }` options).
 */
export function runtimeDefinitions(state: unknown, options: unknown): RuntimeDefinitions {
  type Init = { state?: unknown; stateSchema?: unknown; input?: unknown; output?: unknown; context?: unknown };
  const isInit = isRecord(state) && !isZodObject(state) && !StateSchema.isInstance(state) && ("state" in state || "stateSchema" in state || "input" in state);
  const opts = (isRecord(options) ? options : {}) as Init;
  const contextOnly = isZodObject(options) || AnnotationRoot.isInstance(options);
  const given = (isInit ? state : { state }) as Init;
  const init: Init = contextOnly
    ? { ...given, context: options }
    : { ...given, input: given.input ?? opts.input, output: given.output ?? opts.output, context: given.context ?? opts.context };
  const schema = runtime(init.state ?? init.stateSchema ?? init.input);
  return {
    _schemaRuntimeDefinition: schema,
    _inputRuntimeDefinition: runtime(init.input) ?? PARTIAL_STATE,
    _outputRuntimeDefinition: runtime(init.output) ?? schema,
    _configRuntimeSchema: isZodObject(init.context) ? init.context : undefined,
  };
}

/**
 * LangGraph.js's `_validateContext` for a run without `context`: its
 * `configurable` parsed by the graph's zod context schema (zod's own
 * error when it does not fit; the run keeps its `configurable` as given).
 */
export function checkConfigurable(schema: object, configurable: unknown): void {
  const parse = (schema as { parse?: (v: unknown) => unknown }).parse;
  if (typeof parse === "function") parse.call(schema, configurable ?? {});
}
