// Messages in graph state: `messagesStateReducer` (LangGraph's
// `add_messages`, which runs in the engine when it is a channel's reducer),
// and the prebuilt `MessagesAnnotation` / `MessagesValue` states.
import { plainError } from "../errors.js";
import { Annotation, BUILTIN_REDUCER, ReducedValue, type StandardSchemaV1 } from "./definitions.js";
import { messageClasses, type CoreMessages } from "../langchain/message_classes.js";
import { asMessage } from "../internal/seam.js";

/** A message as plain data: `{ role | type, content, id?, ... }`. */
export interface MessageLike {
  [key: string]: unknown;
  id?: string;
  content?: unknown;
}

/** LangGraph.js's marker id of a `RemoveMessage` that clears the list. */
export const REMOVE_ALL_MESSAGES = "__remove_all__";

function isRemove(m: MessageLike): boolean {
  return m.type === "remove" || m.role === "remove";
}

/**
 * LangGraph.js's `messagesStateReducer` (`addMessages`): appends messages,
 * a message whose id is already there replaces it, a remove message
 * deletes it (`__remove_all__`: everything before it), and messages
 * without an id get a new UUID. As a channel's reducer it runs in the
 * engine (LangGraph's `add_messages`); called directly, here: on
 * `@langchain/core` message instances, as LangGraph.js's, once a graph
 * found `@langchain/core` installed (langchain/message_classes.ts), else on plain
 * message objects.
 */
export function messagesStateReducer<M extends MessageLike>(left: M | M[], right: M | M[]): M[] {
  const core = messageClasses();
  if (core) return classReducer(core, left, right).map((m) => asMessage<M>(m));
  const leftMessages = (Array.isArray(left) ? left : [left]).map((m) => ({ ...m }));
  const rightMessages = (Array.isArray(right) ? right : [right]).map((m) => ({ ...m }));
  for (const m of [...leftMessages, ...rightMessages]) if (m.id == null) m.id = crypto.randomUUID();
  return mergeById(leftMessages, rightMessages, isRemove);
}
Object.defineProperty(messagesStateReducer, BUILTIN_REDUCER, { value: "add_messages" });

/** A message instance as `classReducer` reads it. */
interface Instance {
  id?: string | undefined;
  lc_kwargs: Record<string, unknown>;
  getType?(): string;
}

/**
 * LangGraph.js's `messagesStateReducer` itself, for when `@langchain/core`
 * is installed: messages are coerced to instances
 * (`coerceMessageLikeToMessage`), and the result is instances, as there.
 */
function classReducer(core: CoreMessages, left: unknown, right: unknown): Instance[] {
  const toMessage = (m: unknown): Instance => core.coerceMessageLikeToMessage(m);
  const leftMessages = (Array.isArray(left) ? left : [left]).map(toMessage);
  const rightMessages = (Array.isArray(right) ? right : [right]).map(toMessage);
  const isRemove = (m: Instance) => m instanceof core.RemoveMessage;
  const withId = (m: Instance) => {
    if (m.id === null || m.id === undefined) {
      m.id = crypto.randomUUID();
      m.lc_kwargs.id = m.id;
    }
  };
  leftMessages.forEach(withId);
  rightMessages.forEach(withId);
  return mergeById(leftMessages, rightMessages, isRemove);
}

/**
 * The merge both reducers share (LangGraph's `add_messages`): a message with
 * a known id replaces it in place, a remove marker drops it (an unknown id
 * is an error), `REMOVE_ALL_MESSAGES` keeps only what follows it, anything
 * else is appended. Every message has an id by now.
 */
function mergeById<M extends { id?: unknown }>(left: M[], right: M[], isRemove: (m: M) => boolean): M[] {
  for (let i = right.length - 1; i >= 0; i--) {
    const m = right[i] as M;
    if (isRemove(m) && m.id === REMOVE_ALL_MESSAGES) return right.slice(i + 1);
  }
  const merged = [...left];
  const byId = new Map(merged.map((m, i) => [m.id, i]));
  const remove = new Set<unknown>();
  for (const m of right) {
    const at = byId.get(m.id);
    if (at !== undefined) {
      if (isRemove(m)) remove.add(m.id);
      else {
        remove.delete(m.id);
        merged[at] = m;
      }
    } else {
      if (isRemove(m)) throw plainError(`Attempting to delete a message with an ID that doesn't exist ('${m.id}')`, "MESSAGE_NOT_FOUND");
      byId.set(m.id, merged.length);
      merged.push(m);
    }
  }
  return merged.filter((m) => !remove.has(m.id));
}

/**
 * LangGraph.js's `messagesDeltaReducer` (the reducer of its beta
 * `DeltaChannel`s, here a plain function): folds a batch of writes (each a
 * message or a list of them) into `state`: a message with a known id
 * replaces it in place, a remove message drops it (an unknown id is no
 * error), `REMOVE_ALL_MESSAGES` clears what came before, a message without
 * an id is appended as it is (no id is given). On `@langchain/core`
 * instances once a graph found it installed (message chunks are not turned
 * into their message classes), else on plain message objects.
 */
export function messagesDeltaReducer<M extends MessageLike>(state: M[], writes: (M | M[])[]): M[] {
  const flat: unknown[] = [];
  for (const w of writes) if (Array.isArray(w)) flat.push(...w);
  else flat.push(w);
  const core = messageClasses();
  const toMessage = core ? (m: unknown) => asMessage<M>(core.coerceMessageLikeToMessage(m)) : (m: unknown) => ({ ...(m as M) });
  const removes = core ? (m: M) => m instanceof core.RemoveMessage : isRemove;
  const result: (M | null)[] = state.map(toMessage);
  const msgs = flat.map(toMessage);
  const index = new Map<unknown, number>();
  result.forEach((m, i) => {
    if (m?.id != null) index.set(m.id, i);
  });
  for (const msg of msgs) {
    const mid = msg.id;
    if (removes(msg) && mid === REMOVE_ALL_MESSAGES) {
      result.length = 0;
      index.clear();
    } else if (mid == null) result.push(msg);
    else if (removes(msg)) {
      const at = index.get(mid);
      if (at !== undefined) {
        result[at] = null;
        index.delete(mid);
      }
    } else if (index.has(mid)) result[index.get(mid) as number] = msg;
    else {
      index.set(mid, result.length);
      result.push(msg);
    }
  }
  return result.filter((m): m is M => m !== null);
}
// LangGraph.js's mark (`isMessagesDeltaReducer`): a DeltaChannel with it is the engine's native `messages_delta`.
Object.defineProperty(messagesDeltaReducer, Symbol.for("langgraph.messages_delta_reducer"), { value: true });

/** LangGraph.js's other name of {@link messagesStateReducer}. */
export const addMessages = messagesStateReducer;

/** The prebuilt state of a chat graph: `messages`, reduced by `messagesStateReducer`, starting empty. */
export const MessagesAnnotation = Annotation.Root({
  messages: Annotation<MessageLike[], MessageLike | MessageLike[]>({ reducer: messagesStateReducer, default: () => [] }),
});

/** A standard schema that accepts anything (`undefined` as `[]`): `MessagesValue`'s value schema. */
function uncheckedSchema<T>(fallback?: () => T): StandardSchemaV1<T, T> {
  return {
    "~standard": {
      version: 1,
      vendor: "chronograph",
      validate: (value: unknown) => ({ value: (value === undefined && fallback ? fallback() : value) as T }),
    },
  };
}

/** The prebuilt `StateSchema` field of a chat graph's messages (LangGraph.js's `MessagesValue`). */
export const MessagesValue = new ReducedValue<MessageLike[], MessageLike | MessageLike[]>(uncheckedSchema(() => []), {
  inputSchema: uncheckedSchema<MessageLike | MessageLike[]>(),
  reducer: messagesStateReducer,
  jsonSchemaExtra: { langgraph_type: "messages", description: "A list of chat messages" },
});
