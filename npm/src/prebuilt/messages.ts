// What the prebuilt agents read of a LangChain message (`@langchain/core/messages`
// instances, duck-typed: the package does not import `@langchain/core` statically):
// its type (`getType()`), LangGraph.js's `isAIMessage`, `isToolMessage` and
// `isBaseMessage`, and the tool calls an AI message carries.

/** A tool call of an AI message (`{ name, args, id }`). */
export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
  type?: "tool_call";
}

/** A LangChain message as the prebuilt agents read it. */
export interface MessageFields {
  content?: unknown;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  lc_kwargs?: Record<string, unknown>;
  getType?(): string;
  _getType?(): string;
}

/** The message's type (`"ai"`, `"tool"`, ...) when it is a LangChain message instance. */
export function messageType(m: unknown): string | undefined {
  if (m === null || typeof m !== "object") return undefined;
  const msg = m as MessageFields;
  if (typeof msg.getType === "function") return msg.getType();
  if (typeof msg._getType === "function") return msg._getType();
  return undefined;
}

/** LangChain's `isBaseMessage`: a message instance (it has `_getType()`). */
export function isBaseMessage(m: unknown): m is MessageFields {
  return m !== null && typeof m === "object" && typeof (m as MessageFields)._getType === "function";
}

/** LangChain's `isAIMessage` (an `AIMessage` or `AIMessageChunk`). */
export function isAIMessage(m: unknown): m is MessageFields {
  return messageType(m) === "ai";
}

/** LangChain's `isToolMessage`. */
export function isToolMessage(m: unknown): m is MessageFields {
  return messageType(m) === "tool";
}
