// `@langchain/core/messages`, an optional peer dependency, looked up once
// on first need (a graph's compile), never at import: the package works
// without it, and costs nothing for graphs that never run. What it is used
// for: langchain/message_classes.ts.
import { importPeer, peersSwitchedOff } from "../internal/peers.js";

/** What the package uses of `@langchain/core/messages`. */
export interface CoreMessages {
  HumanMessage: MessageClass;
  AIMessage: MessageClass;
  SystemMessage: MessageClass;
  ToolMessage: MessageClass;
  FunctionMessage: MessageClass;
  RemoveMessage: MessageClass;
  coerceMessageLikeToMessage(m: unknown): LcMessage;
}

/** A LangChain message class: `new Class(kwargs)`. */
type MessageClass = new (fields: Record<string, unknown>) => LcMessage;

/** A LangChain message instance, as far as the package reads it. */
export interface LcMessage {
  id?: string | undefined;
  lc_kwargs: Record<string, unknown>;
  getType?(): string;
  _getType(): string;
}

/** The names of the classes the package revives. */
export type ClassName = Exclude<keyof CoreMessages, "coerceMessageLikeToMessage">;

/**
 * LangChain's message class of each message `type`, as its instances
 * report it (`getType()`): the one table of the package, read where
 * messages are revived as instances (message_classes.ts) and where they
 * are written for LangGraph.js's savers and read back (checkpoint/records.ts).
 * A `developer` message is not a type of its own: LangChain coerces it into
 * a `SystemMessage` (and the engine's messages reducer into a `system` one).
 */
export const CLASS_OF_TYPE: Readonly<Record<string, ClassName>> = {
  human: "HumanMessage",
  ai: "AIMessage",
  system: "SystemMessage",
  tool: "ToolMessage",
  function: "FunctionMessage",
  remove: "RemoveMessage",
};

/** `@langchain/core/messages` once looked up: the module, `null` when it is not installed. */
let core: CoreMessages | null | undefined;
let loading: Promise<void> | undefined;

/**
 * Looks up `@langchain/core/messages` once; `undefined` once that is done
 * (the usual case: no await), else the Promise of it. Where the package
 * itself does not see it, it is looked up from the application's entry
 * module: a linked package (`npm link`, a symlinked `node_modules` entry)
 * resolves from its real path, outside the application.
 */
export function loadMessageClasses(): Promise<void> | undefined {
  if (core !== undefined) return undefined;
  if (peersSwitchedOff()) {
    core = null;
    return undefined;
  }
  loading ??= importCore().then(
    (m) => {
      core = m;
    },
    () => {
      core = null;
    },
  );
  return loading;
}

async function importCore(): Promise<CoreMessages | null> {
  return usable(await importPeer("@langchain/core", "./messages"));
}

function usable(m: unknown): CoreMessages | null {
  const c = m as Partial<CoreMessages> | null;
  if (!c || typeof c.coerceMessageLikeToMessage !== "function") return null;
  for (const name of Object.values(CLASS_OF_TYPE)) if (typeof c[name] !== "function") return null;
  return c as CoreMessages;
}

/** `@langchain/core/messages` if it was found (after {@link loadMessageClasses} settled). */
export function messageClasses(): CoreMessages | null {
  return core ?? null;
}

/** Whether message instances may be around: `@langchain/core` is installed, or not known yet not to be. */
export function classesPossible(): boolean {
  return core !== null;
}

