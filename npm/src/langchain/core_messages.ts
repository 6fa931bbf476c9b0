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
  /** What a chat model's streamed token becomes without a chunk of its own (stream/messages_of_chat_models.ts). */
  AIMessageChunk?: MessageClass;
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
export type ClassName = Exclude<keyof CoreMessages, "coerceMessageLikeToMessage" | "AIMessageChunk">;

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
      effective = undefined;
    },
    () => {
      core = null;
      effective = undefined;
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

/**
 * The message classes of the application's own instances, by class name:
 * the constructor of each message instance that went into the engine
 * (noted by {@link noteMessageClass}). A revived message of that type is
 * made with that class, so the application gets back instances of the very
 * classes it passed in, even when the `@langchain/core` found from the
 * application (or beside the package) is another copy.
 */
const seen: Partial<Record<ClassName, MessageClass>> = {};
/** What {@link messageClasses} returns: `core` with the classes of `seen` in place; `undefined` to compute again. */
let effective: CoreMessages | null | undefined;

/**
 * Notes the class of a message instance of `type` that goes into the
 * engine (a chunk is made again as its non-chunk class, so not noted).
 * Costs a property read and a comparison per instance.
 */
export function noteMessageClass(m: LcMessage, type: string): void {
  const name = CLASS_OF_TYPE[type];
  const ctor = (m as { constructor?: unknown }).constructor as (MessageClass & { lc_name?: () => string }) | undefined;
  if (name === undefined || ctor === undefined || seen[name] === ctor) return;
  // LangChain's classes name themselves (`lc_name()`); a chunk class names itself `AIMessageChunk`.
  const named = typeof ctor.lc_name === "function" ? ctor.lc_name() : ctor.name;
  if (named !== name) return;
  seen[name] = ctor;
  effective = undefined;
}

/**
 * The message classes the package uses: those of the application's own
 * instances where it has seen one of a type ({@link noteMessageClass}),
 * else `@langchain/core/messages` as found from the application (after
 * {@link loadMessageClasses} settled); `null` without `@langchain/core`.
 */
export function messageClasses(): CoreMessages | null {
  if (effective !== undefined) return effective;
  if (core === undefined) return null;
  effective = core === null ? null : withSeenClasses(core);
  return effective;
}

/** `found` with the classes of the application's instances in place, and a coercion that makes those. */
function withSeenClasses(found: CoreMessages): CoreMessages {
  const names = Object.keys(seen) as ClassName[];
  if (names.length === 0 || names.every((n) => seen[n] === found[n])) return found;
  const out: CoreMessages = { ...found };
  for (const n of names) out[n] = seen[n]!;
  out.coerceMessageLikeToMessage = (m: unknown) => {
    const message = found.coerceMessageLikeToMessage(m);
    const name = CLASS_OF_TYPE[message._getType()];
    const Class = name === undefined ? undefined : seen[name];
    // Only a message of the found module's own class is made again (not a chunk, not a subclass).
    if (Class === undefined || Object.getPrototypeOf(message) !== found[name!].prototype) return message;
    return new Class({ ...message.lc_kwargs });
  };
  return out;
}

/**
 * `@langchain/core/messages` as found (the module itself, without the
 * application's classes in place): what LangChain's `load` builds messages
 * with; `null` without it, `undefined` before {@link loadMessageClasses}.
 */
export function foundMessageModule(): Record<string, unknown> | null | undefined {
  return core as unknown as Record<string, unknown> | null | undefined;
}

/** Whether message instances may be around: `@langchain/core` is installed, or not known yet not to be. */
export function classesPossible(): boolean {
  return core !== null;
}

