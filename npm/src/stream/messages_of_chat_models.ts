// streamMode "messages" for the chat models nodes call: LangGraph.js adds its
// StreamMessagesHandler to the run's callbacks, so a LangChain chat model a
// node invokes (with the node's config or without: LangChain's async context
// carries it) streams its reply token by token (the handler prefers
// streaming), each chunk emitted as `[chunk, metadata]` with the metadata of
// the model's run (`tags`, `name`, then the task's and the model's metadata);
// a model that streamed nothing emits its whole reply when it ends. The
// handler here is that handler's chat-model half; the messages nodes return
// are stream/messages_of_nodes.ts's, which shares the ids seen (a reply that was
// streamed is not emitted again when the node returns it).
import { messageClasses, type LcMessage } from "../langchain/message_classes.js";
import type { NodeMessages } from "./messages_of_nodes.js";

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function isMessage(v: unknown): v is LcMessage {
  return isRecord(v) && isRecord(v.lc_kwargs) && (typeof v._getType === "function" || typeof v.getType === "function");
}

/** Where a run's chunks come from: its checkpoint namespace less the task's own segments (LangGraph.js's `eventNamespace`). */
function eventNamespace(checkpointNs: string, metadata: Record<string, unknown>): string[] {
  const ns = checkpointNs.split("|");
  let path = metadata.langgraph_path;
  let taskSegments = 1;
  while (Array.isArray(path) && path[0] === "__pregel_push" && path[path.length - 1] === true) {
    taskSegments += 1;
    path = path[1];
  }
  return ns.slice(0, Math.max(ns.length - taskSegments, 0));
}

/**
 * The callback handler (LangChain's handler methods; `lc_prefer_streaming`
 * makes chat models stream) of one run's `"messages"` stream, `messages`:
 * with `subgraphs` false, a model called in a subgraph's node emits nothing.
 */
export function chatModelStreamer(messages: NodeMessages, subgraphs: boolean): Record<string, unknown> {
  const metadatas = new Map<string, [string[], Record<string, unknown>]>();
  const streamed = new Set<string>();
  const stableIds = new Map<string, string>();
  /** LangGraph.js's `_emit` for a model's message: its id made stable across the run's chunks. */
  const emit = (meta: [string[], Record<string, unknown>], message: LcMessage, runId: string, dedupe: boolean) => {
    if (dedupe && message.id != null && messages.hasSeen(message.id)) return;
    let id = message.id;
    if ((message.getType?.() ?? message._getType()) === "tool") {
      id ??= `run-${runId}-tool-${String((message as { tool_call_id?: unknown }).tool_call_id)}`;
    } else {
      if (id == null || id === `run-${runId}`) id = stableIds.get(runId) ?? id ?? `run-${runId}`;
      if (!stableIds.has(runId)) stableIds.set(runId, id);
    }
    if (id !== message.id) {
      message.id = id;
      message.lc_kwargs.id = id;
    }
    messages.chatModel(message, meta[1], meta[0]);
  };
  return {
    name: "StreamMessagesHandler",
    lc_prefer_streaming: true,
    handleChatModelStart(_llm: unknown, _messages: unknown, runId: string, _parent: unknown, _extra: unknown, tags?: string[], metadata?: Record<string, unknown>, name?: string) {
      if (!metadata || tags?.includes("langsmith:nostream") || tags?.includes("nostream")) return;
      const namespace = metadata.langgraph_checkpoint_ns ?? metadata.checkpoint_ns;
      if (typeof namespace !== "string" || namespace === "") return;
      const ns = eventNamespace(namespace, metadata);
      if (!subgraphs && ns.length > 0) return;
      metadatas.set(runId, [ns, { tags, name, ...metadata }]);
    },
    handleLLMNewToken(token: string, _idx: unknown, runId: string, _parent: unknown, _tags: unknown, fields?: { chunk?: { message?: unknown } }) {
      streamed.add(runId);
      const meta = metadatas.get(runId);
      if (meta === undefined) return;
      const chunk = fields?.chunk?.message;
      if (isMessage(chunk)) return emit(meta, chunk, runId, false);
      const Chunk = (messageClasses() as unknown as { AIMessageChunk?: new (f: object) => LcMessage } | null)?.AIMessageChunk;
      if (Chunk !== undefined) emit(meta, new Chunk({ content: token }), runId, false);
    },
    handleLLMEnd(output: { generations?: { message?: unknown }[][] }, runId: string) {
      const meta = metadatas.get(runId);
      if (meta === undefined) return;
      if (!streamed.has(runId)) {
        const message = output?.generations?.[0]?.[0]?.message;
        if (isMessage(message)) emit(meta, message, runId, true);
      }
      streamed.delete(runId);
      metadatas.delete(runId);
      stableIds.delete(runId);
    },
    handleLLMError(_error: unknown, runId: string) {
      metadatas.delete(runId);
    },
  };
}

/** `config` with `handler` added to its callbacks, as LangGraph.js adds its messages handler (a copy; a manager copied, not changed). */
export function withHandler(config: unknown, handler: object): unknown {
  const base = isRecord(config) ? config : {};
  const callbacks = base.callbacks;
  let next: unknown;
  if (callbacks == null) next = [handler];
  else if (Array.isArray(callbacks)) next = [...callbacks, handler];
  else {
    const manager = callbacks as { copy?: () => { addHandler(h: object, inherit: boolean): void } };
    if (typeof manager.copy !== "function") return config;
    const copied = manager.copy();
    copied.addHandler(handler, true);
    next = copied;
  }
  return { ...base, callbacks: next };
}
