// LangGraph.js's `withAgentName` (prebuilt/agentName.ts): a model whose AI
// input messages carry their agent's name inline in their content
// (`<name>agent</name><content>...</content>`), the name taken off again
// from the model's reply. Built of LangChain runnables (`@langchain/core`).
import { loadMessageClasses, messageClasses } from "../langchain/core_messages.js";
import { GraphValueError, withCode } from "../errors.js";
import { runnablesNow, type CoreRunnable } from "./core_runnables.js";
import { isAIMessage, isBaseMessage, type MessageFields } from "./messages.js";

/** How the agent's name is shown to the model (LangGraph.js's `AgentNameMode`). */
export type AgentNameMode = "inline";

/** A language model as the prebuilt agents call it (LangChain's `LanguageModelLike`: a Runnable). */
export interface LanguageModelLike {
  invoke(input: unknown, options?: unknown): Promise<unknown>;
}

const NAME_PATTERN = /<name>(.*?)<\/name>/s;
const CONTENT_PATTERN = /<content>(.*?)<\/content>/s;

/** A content block of a message (`{ type: "text", text }`, an image, ...). */
interface ContentBlock {
  type?: string;
  text?: unknown;
  [key: string]: unknown;
}

/** A new `AIMessage` of `fields` (`@langchain/core` is loaded: a model ran). */
function aiMessage(fields: Record<string, unknown>): MessageFields {
  const AIMessage = messageClasses()?.AIMessage;
  if (AIMessage === undefined) throw withCode(new GraphValueError("withAgentName needs @langchain/core (npm install @langchain/core), as in LangGraph.js"), "MISSING_PEER");
  return new AIMessage(fields);
}

/** The fields a message was made of (`lc_kwargs`), else the message itself. */
function fieldsOf(message: MessageFields): Record<string, unknown> {
  const kwargs = message.lc_kwargs ?? {};
  return Object.keys(kwargs).length > 0 ? kwargs : { ...message };
}

/** LangGraph.js's `_addInlineAgentName`: an AI message with a name gets it into its content. */
export function addInlineAgentName(message: unknown): unknown {
  if (!isBaseMessage(message) || !isAIMessage(message) || !message.name) return message;
  const { name } = message;
  const tag = (text: unknown) => `<name>${name}</name><content>${String(text)}</content>`;
  if (typeof message.content === "string") return aiMessage({ ...fieldsOf(message), content: tag(message.content), name: undefined });
  const updated: unknown[] = [];
  let textBlocks = 0;
  for (const block of (message.content ?? []) as (string | ContentBlock)[]) {
    if (typeof block === "string") {
      textBlocks += 1;
      updated.push(tag(block));
    } else if (typeof block === "object" && "type" in block && block.type === "text") {
      textBlocks += 1;
      updated.push({ ...block, text: tag(block.text) });
    } else updated.push(block);
  }
  if (!textBlocks) updated.unshift({ type: "text", text: `<name>${name}</name><content></content>` });
  return aiMessage({ ...message.lc_kwargs, content: updated, name: undefined });
}

/** LangGraph.js's `_removeInlineAgentName`: the name and content tags taken off an AI message's content. */
export function removeInlineAgentName(message: unknown): unknown {
  if (!isAIMessage(message) || !message.content) return message;
  let content: unknown = [];
  let name: string | undefined;
  if (Array.isArray(message.content)) {
    content = (message.content as ContentBlock[])
      .filter((block) => {
        if (block.type !== "text" || typeof block.text !== "string") return true;
        const nameMatch = block.text.match(NAME_PATTERN);
        const contentMatch = block.text.match(CONTENT_PATTERN);
        // An empty content block added because there was no text block to tag.
        if (nameMatch && (!contentMatch || contentMatch[1] === "")) {
          name = nameMatch[1];
          return false;
        }
        return true;
      })
      .map((block) => {
        if (block.type !== "text" || typeof block.text !== "string") return block;
        const nameMatch = block.text.match(NAME_PATTERN);
        const contentMatch = block.text.match(CONTENT_PATTERN);
        if (!nameMatch || !contentMatch) return block;
        name = nameMatch[1];
        return { ...block, text: contentMatch[1] };
      });
  } else {
    const text = String(message.content);
    const nameMatch = text.match(NAME_PATTERN);
    const contentMatch = text.match(CONTENT_PATTERN);
    if (!nameMatch || !contentMatch) return message;
    name = nameMatch[1];
    content = contentMatch[1];
  }
  return aiMessage({ ...fieldsOf(message), content, name });
}

/**
 * LangGraph.js's `withAgentName`: `model` as a `RunnableSequence` whose AI
 * input messages carry their name in their content (`"inline"`), the name
 * taken back out of the reply. Needs `@langchain/core`.
 */
export function withAgentName(model: LanguageModelLike, agentNameMode: AgentNameMode): CoreRunnable {
  if (agentNameMode !== "inline") throw new Error(`Invalid agent name mode: ${String(agentNameMode)}. Needs to be one of: "inline"`);
  const { RunnableLambda, RunnableSequence } = runnablesNow("withAgentName");
  const processInputMessages = async (messages: unknown[]) => {
    await loadMessageClasses();
    return messages.map(addInlineAgentName);
  };
  return RunnableSequence.from([RunnableLambda.from(processInputMessages), model, RunnableLambda.from(removeInlineAgentName)]);
}
