// `chronograph/prebuilt` (LangGraph.js's `@langchain/langgraph/prebuilt`):
// `ToolNode`, the node that runs the tool calls of the last AI message, and
// `toolsCondition`, the router that sends a graph to it. Tools are
// LangChain tools (`@langchain/core/tools`): the node reads their `name`
// and calls their `invoke(toolCall, runtime)`, which returns a
// `ToolMessage` for a tool call, as LangGraph.js's `ToolNode` does.
import { END } from "../constants.js";
import { Command, isCommandLike } from "../command.js";
import { GraphValueError, isGraphInterrupt, withCode, plainError } from "../errors.js";
import { loadMessageClasses, messageClasses } from "../langchain/core_messages.js";
import type { NodeConfig } from "../pregel/types.js";
import { messageType, type MessageFields, type ToolCall } from "./messages.js";

export type { ToolCall };

/** A LangChain tool as `ToolNode` uses it. */
export interface ToolLike {
  name: string;
  invoke(call: ToolCall & { type: "tool_call" }, runtime?: unknown): Promise<unknown>;
}

/** `ToolNode`'s options (LangGraph.js's `ToolNodeOptions`). */
export type ToolNodeOptions = {
  name?: string;
  tags?: string[];
  handleToolErrors?: boolean;
};

/** A LangChain message as `ToolNode` reads it. */
type MessageLike = MessageFields;
const typeOf = messageType;

const isMessageArray = (v: unknown): v is MessageLike[] => Array.isArray(v) && v.every((m) => typeOf(m) !== undefined);

/**
 * LangGraph.js's `ToolNode`: runs every tool call of the last AI message
 * of `state.messages` (or of a message list) that has no `ToolMessage` yet,
 * concurrently, and returns their `ToolMessage`s as `{ messages }` (a
 * list for a list input). A tool's error becomes an error `ToolMessage`
 * (`handleToolErrors: false` lets it fail the node); a `Command` a tool
 * returns is passed on. A `Send` with `{ lg_tool_call, ...state }` runs one call.
 */
export class ToolNode {
  /** The node's name (LangGraph.js's default: `"tools"`). */
  readonly name: string;
  /** Whether a tool's error becomes an error `ToolMessage` (default) instead of failing the node. */
  handleToolErrors = true;

  constructor(
    readonly tools: ToolLike[],
    options?: ToolNodeOptions,
  ) {
    this.name = options?.name ?? "tools";
    this.handleToolErrors = options?.handleToolErrors ?? this.handleToolErrors;
  }

  /** Runs the tool calls (the node's function: `addNode("tools", new ToolNode(tools))`). */
  async invoke(input: unknown, config?: NodeConfig): Promise<unknown> {
    await loadMessageClasses();
    const core = messageClasses();
    if (core === null) {
      throw withCode(new GraphValueError("ToolNode needs @langchain/core (npm install @langchain/core), as in LangGraph.js"), "MISSING_PEER");
    }
    const ToolMessage = core.ToolMessage;
    const cfg = (config ?? {}) as NodeConfig & { store?: unknown; writer?: unknown };
    const runTool = async (call: ToolCall, state: unknown): Promise<unknown> => {
      const tool = this.tools.find((t) => t.name === call.name);
      try {
        if (tool === undefined) throw plainError(`Tool "${call.name}" not found.`, "TOOL_NOT_FOUND");
        const runtime = {
          ...cfg,
          state,
          toolCallId: call.id ?? "",
          config: cfg,
          context: cfg.context,
          store: cfg.store ?? null,
          writer: cfg.writer ?? null,
        };
        const output = await tool.invoke({ ...call, type: "tool_call" }, runtime);
        if (typeOf(output) === "tool" || isCommandLike(output)) return output;
        return new ToolMessage({
          status: "success",
          name: tool.name,
          content: typeof output === "string" ? output : JSON.stringify(output),
          tool_call_id: call.id,
        });
      } catch (e) {
        if (!this.handleToolErrors || isGraphInterrupt(e)) throw e;
        return new ToolMessage({
          status: "error",
          content: `Error: ${(e as Error)?.message}\n Please fix your mistakes.`,
          name: call.name,
          tool_call_id: call.id ?? "",
        });
      }
    };
    let outputs: unknown[];
    if (input !== null && typeof input === "object" && "lg_tool_call" in input) {
      const { lg_tool_call: call, ...state } = input as { lg_tool_call: ToolCall };
      outputs = [await runTool(call, state)];
    } else {
      const messages = isMessageArray(input)
        ? input
        : input !== null && typeof input === "object" && isMessageArray((input as { messages?: unknown }).messages)
          ? (input as { messages: MessageLike[] }).messages
          : undefined;
      if (messages === undefined) throw plainError("ToolNode only accepts BaseMessage[] or { messages: BaseMessage[] } as input.", "INVALID_ARGUMENT");
      const answered = new Set(messages.filter((m) => typeOf(m) === "tool").map((m) => m.tool_call_id));
      const ai = [...messages].reverse().find((m) => typeOf(m) === "ai");
      if (ai === undefined) throw plainError("ToolNode only accepts AIMessages as input.", "INVALID_ARGUMENT");
      const calls = (ai.tool_calls ?? []).filter((c) => c.id == null || !answered.has(c.id));
      outputs = await Promise.all(calls.map((c) => runTool(c, input)));
    }
    const asUpdate = (m: unknown) => (Array.isArray(input) ? [m] : { messages: [m] });
    if (!outputs.some(isCommandLike)) return Array.isArray(input) ? outputs : { messages: outputs };
    // LangGraph.js: tools' `Command`s pass on; parent `Send`s are gathered into one parent `Command`.
    const combined: unknown[] = [];
    let parent: Command | undefined;
    for (const out of outputs) {
      if (!isCommandLike(out)) {
        combined.push(asUpdate(out));
        continue;
      }
      const goto = (out as { goto?: unknown }).goto;
      const sends = Array.isArray(goto) && goto.every((g) => (g as { lg_name?: unknown })?.lg_name === "Send");
      if ((out as { graph?: unknown }).graph === Command.PARENT && sends) {
        if (parent !== undefined) (parent.goto as unknown[]).push(...(goto as unknown[]));
        else parent = new Command({ graph: Command.PARENT, goto: goto as never });
      } else combined.push(out);
    }
    if (parent !== undefined) combined.push(parent);
    return combined;
  }
}

/** LangGraph.js's `toolsCondition`: `"tools"` when the last message has tool calls, else `END`. */
export function toolsCondition(state: unknown): "tools" | typeof END {
  const messages = Array.isArray(state) ? state : (state as { messages?: unknown[] } | null)?.messages;
  const last = messages?.[messages.length - 1] as MessageLike | undefined;
  return last !== undefined && last !== null && typeof last === "object" && (last.tool_calls?.length ?? 0) > 0 ? "tools" : END;
}
