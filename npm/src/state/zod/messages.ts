// The prebuilt chat state as a zod object: LangGraph.js's `MessagesZodMeta`
// (the meta of a messages field) and `MessagesZodState`
// (`z.object({ messages })`). Kept apart from state/messages.ts because
// `MessagesZodState` needs zod itself, which the package does not depend
// on: it is built from the user's zod on first use.
import { plainError } from "../../errors.js";
import { messagesStateReducer } from "../messages.js";
import { withLangGraph, type SchemaMeta, type ZodObjectState } from "./meta.js";
import type { MessageLike } from "../messages.js";

/** LangGraph.js's `MessagesZodMeta`: a messages field (`messagesStateReducer`, default `[]`), for `.register(registry, MessagesZodMeta)`. */
export const MessagesZodMeta: SchemaMeta = {
  reducer: { fn: messagesStateReducer as (a: unknown, b: unknown) => unknown },
  jsonSchemaExtra: { langgraph_type: "messages" },
  default: () => [],
};

/** What `MessagesZodState` needs of zod 3. */
interface Zod3 {
  z: { object(shape: Record<string, unknown>): object; custom(): object };
}

/** zod 3 (`zod/v3`, which zod 3.25+ and 4 both ship), loaded where the program's own packages are found. */
function loadZod(): Zod3 {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown; cwd?: () => string; argv?: string[] } }).process;
  const mod = proc?.getBuiltinModule?.("module") as { createRequire(from: string): (id: string) => unknown } | undefined;
  if (mod === undefined) {
    throw plainError("MessagesZodState needs zod; in a browser build your state with z.object({ messages: z.custom().register(registry, MessagesZodMeta) })", "MISSING_PEER");
  }
  // From the package first (an installed copy sits beside zod), then from the
  // application's entry script (a linked package does not see the app's
  // node_modules), then from the working directory.
  const bases = [import.meta.url, proc?.argv?.[1], `${proc?.cwd?.() ?? "."}/`].filter((b): b is string => typeof b === "string" && b !== "");
  for (const base of bases) {
    try {
      return mod.createRequire(base)("zod/v3") as Zod3;
    } catch {
      // Try the next place.
    }
  }
  throw plainError("MessagesZodState needs zod (3.25 or later): npm install zod", "MISSING_PEER");
}

let built: object | undefined;
/** `z.object({ messages: withLangGraph(z.custom(), MessagesZodMeta) })`, built once. */
function messagesZodState(): object {
  if (built === undefined) {
    const { z } = loadZod();
    built = z.object({ messages: withLangGraph(z.custom(), MessagesZodMeta) });
  }
  return built;
}

/**
 * LangGraph.js's `MessagesZodState`: the chat state as a zod object
 * (`MessagesZodState.extend({ ... })` adds fields). Built from zod on first
 * use, so importing the package does not need zod.
 */
export const MessagesZodState: ZodObjectState & { readonly _output: { messages: MessageLike[] }; extend(shape: Record<string, unknown>): ZodObjectState } = new Proxy(
  {},
  {
    get: (_, key) => {
      const real = messagesZodState();
      const value = Reflect.get(real, key, real);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(real) : value;
    },
    has: (_, key) => Reflect.has(messagesZodState(), key),
    ownKeys: () => Reflect.ownKeys(messagesZodState()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(messagesZodState(), key);
      return d === undefined ? undefined : { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(messagesZodState()),
  },
) as never;
