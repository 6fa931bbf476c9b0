// The model call of `createReactAgent` (LangGraph.js's
// prebuilt/react_agent_executor.ts): the prompt as a runnable (a string or
// a system message put first, a function of the state, a Runnable), the
// model with the agent's tools bound (unless they already are), and the
// chat model under a binding or sequence (for `responseFormat`). Built of
// LangChain runnables, as there, so a callback handler sees the same runs.
import { loadMessageClasses, messageClasses } from "../langchain/core_messages.js";
import { GraphValueError, withCode } from "../errors.js";
import type { NodeConfig } from "../pregel/types.js";
import type { MessageLike } from "../state/messages.js";
import { isRunnable, isRunnableBinding, isRunnableSequence, loadRunnables, type CoreRunnable, type CoreRunnables } from "./core_runnables.js";
import { isBaseMessage, messageType, type MessageFields } from "./messages.js";
import type { LanguageModelLike } from "./agent_name.js";

/** A message or what LangChain turns into one (`"text"`, `["user", "text"]`, `{ role, content }`). */
export type BaseMessageLike = MessageLike | string | [string, unknown];

/**
 * What the model is given, made from the state before each call
 * (LangGraph.js's `Prompt`): a string or a `SystemMessage`, put before the
 * state's messages; a function of the state and config returning the
 * messages; or a Runnable.
 */
export type Prompt<S = AgentPromptState> =
  | string
  | MessageLike
  | ((state: S, config: NodeConfig) => BaseMessageLike[] | Promise<BaseMessageLike[]>)
  | LanguageModelLike;

/** @deprecated Use {@link Prompt} instead. */
export type StateModifier<S = AgentPromptState> = Prompt<S>;

/** @deprecated Use {@link Prompt} instead: a function of the messages alone, a string, a `SystemMessage` or a Runnable. */
export type MessageModifier =
  | string
  | MessageLike
  | ((messages: MessageLike[]) => MessageLike[] | Promise<MessageLike[]>)
  | LanguageModelLike;

/** The state a prompt reads: the agent's messages (and the rest of its state). */
export interface AgentPromptState {
  messages: MessageLike[];
  [key: string]: unknown;
}

/** A tool as the agent binds it: a LangChain tool (a Runnable with `name`), or a provider's own tool (a plain object). */
export type AgentTool = { name: string; invoke(input: unknown, config?: unknown): Promise<unknown> } | Record<string, unknown>;

/** A LangChain chat model (LangChain's `BaseChatModel`): it has `_modelType`. */
export interface ChatModelLike extends LanguageModelLike {
  _modelType(): string;
  bindTools?(tools: unknown[], kwargs?: unknown): unknown;
  withStructuredOutput(schema: unknown, config?: unknown): LanguageModelLike;
}

/** LangChain's `ConfigurableModel` (`initChatModel`): its model comes from `_model()`. */
interface ConfigurableModel {
  _queuedMethodOperations: Record<string, unknown>;
  _model(): Promise<unknown>;
}

const isObject = (v: unknown): v is object => v !== null && (typeof v === "object" || typeof v === "function");

export function isBaseChatModel(model: unknown): model is ChatModelLike {
  return isObject(model) && "invoke" in model && typeof model.invoke === "function" && "_modelType" in model;
}

function isConfigurableModel(model: unknown): model is ConfigurableModel {
  return isObject(model) && "_queuedMethodOperations" in model && "_model" in model && typeof model._model === "function";
}

/** A model step of a `RunnableSequence`: a binding, a chat model or a configurable model. */
const isModelStep = (step: unknown) => isRunnableBinding(step) || isBaseChatModel(step) || isConfigurableModel(step);

/** A tool's name, as a client tool (a Runnable) has one. */
const clientToolName = (tool: unknown): string[] => (isRunnable(tool) ? [String((tool as { name?: unknown }).name)] : []);

/** The tools bound to a binding (`kwargs.tools`, or `config.tools` for models that bind with `withConfig`), or `null`. */
function boundToolsOf(model: { kwargs?: Record<string, unknown>; config?: Record<string, unknown> }): unknown[] | null {
  if (isObject(model.kwargs) && Array.isArray(model.kwargs.tools)) return model.kwargs.tools;
  if (isObject(model.config) && Array.isArray(model.config.tools)) return model.config.tools;
  return null;
}

/** The name of a bound tool in a provider's format (OpenAI, Anthropic/Google, Bedrock), if any. */
function boundToolName(tool: unknown): string | undefined {
  if (!isObject(tool)) return undefined;
  const t = tool as { type?: unknown; function?: { name?: string }; name?: string; toolSpec?: { name?: string } };
  if ("type" in t && t.type === "function") return t.function?.name;
  if ("name" in t) return t.name;
  if ("toolSpec" in t && isObject(t.toolSpec) && "name" in t.toolSpec) return t.toolSpec.name;
  return undefined;
}

/** LangGraph.js's `_shouldBindTools`: whether the agent binds its tools to `llm` (it has none bound), checking those it has. */
export async function shouldBindTools(llm: unknown, tools: unknown[]): Promise<boolean> {
  let model = llm;
  if (isRunnableSequence(model)) model = model.steps.find(isModelStep) ?? model;
  if (isConfigurableModel(model)) model = await model._model();
  if (!isRunnableBinding(model)) return true;
  let bound = boundToolsOf(model);
  // Google's style: one entry listing the functions.
  const first = bound?.[0];
  if (bound !== null && bound.length === 1 && isObject(first) && "functionDeclarations" in first) bound = first.functionDeclarations as unknown[];
  if (bound === null) return true;
  if (tools.length !== bound.length) throw new Error("Number of tools in the model.bindTools() and tools passed to createReactAgent must match");
  const toolNames = new Set(tools.flatMap(clientToolName));
  const boundNames = new Set<string>();
  for (const tool of bound) {
    const name = boundToolName(tool);
    if (name) boundNames.add(name);
  }
  const missing = [...toolNames].filter((x) => !boundNames.has(x));
  if (missing.length > 0) {
    throw new Error(`Missing tools '${missing.join(",")}' in the model.bindTools().Tools in the model.bindTools() must match the tools passed to createReactAgent.`);
  }
  return false;
}

/** LangGraph.js's `_simpleBindTools`: a chat model's `bindTools`, or that of a binding's model (the binding's config and kwargs kept). */
function simpleBindTools(core: CoreRunnables, llm: unknown, tools: unknown[]): unknown {
  if (isBaseChatModel(llm) && typeof llm.bindTools === "function") return llm.bindTools(tools);
  if (!isRunnableBinding(llm) || !isBaseChatModel(llm.bound) || typeof llm.bound.bindTools !== "function") return null;
  const next = llm.bound.bindTools(tools);
  if (isRunnableBinding(next)) {
    return new core.RunnableBinding({
      bound: next.bound,
      config: { ...llm.config, ...next.config },
      kwargs: { ...llm.kwargs, ...next.kwargs },
      configFactories: next.configFactories ?? llm.configFactories,
    });
  }
  return new core.RunnableBinding({ bound: next, config: llm.config, kwargs: llm.kwargs, configFactories: llm.configFactories });
}

/** LangGraph.js's `_bindTools`: `llm` with `tools` bound (a chat model, a binding, a configurable model, a sequence's model step). */
export async function bindTools(core: CoreRunnables, llm: unknown, tools: unknown[]): Promise<unknown> {
  const model = simpleBindTools(core, llm, tools);
  if (model) return model;
  if (isConfigurableModel(llm)) {
    const inner = simpleBindTools(core, await llm._model(), tools);
    if (inner) return inner;
  }
  if (isRunnableSequence(llm)) {
    const steps = llm.steps;
    const at = steps.findIndex(isModelStep);
    const bound = at >= 0 ? simpleBindTools(core, steps[at], tools) : null;
    if (bound) return core.RunnableSequence.from([...steps.slice(0, at), bound, ...steps.slice(at + 1)]);
  }
  throw new Error(`llm ${String(llm)} must define bindTools method.`);
}

/** LangGraph.js's `_getModel`: the chat model under a sequence, a configurable model or a binding. */
export async function chatModelOf(llm: unknown): Promise<ChatModelLike> {
  let model = llm;
  if (isRunnableSequence(model)) model = model.steps.find(isModelStep) ?? model;
  if (isConfigurableModel(model)) model = await model._model();
  if (isRunnableBinding(model)) model = model.bound;
  if (!isBaseChatModel(model)) {
    throw new Error(`Expected \`llm\` to be a ChatModel or RunnableBinding (e.g. llm.bind_tools(...)) with invoke() and generate() methods, got ${constructorName(model)}`);
  }
  return model;
}

/** The name of `v`'s constructor, as LangGraph.js's errors name a model. */
export function constructorName(v: unknown): string {
  return isObject(v) ? String((v as { constructor?: { name?: unknown } }).constructor?.name) : typeof v;
}

/** A new `SystemMessage` (`@langchain/core` is loaded). */
export function systemMessage(content: string): MessageFields {
  const SystemMessage = messageClasses()?.SystemMessage;
  if (SystemMessage === undefined) throw withCode(new GraphValueError("createReactAgent needs @langchain/core (npm install @langchain/core), as in LangGraph.js"), "MISSING_PEER");
  return new SystemMessage({ content });
}

const PROMPT_RUNNABLE_NAME = "prompt";
const isSystemMessage = (p: unknown) => isBaseMessage(p) && messageType(p) === "system";

/** LangGraph.js's `_getPromptRunnable`. */
function promptRunnable(core: CoreRunnables, prompt: unknown): CoreRunnable {
  const named = (fn: (state: AgentPromptState, config?: NodeConfig) => unknown) => core.RunnableLambda.from(fn).withConfig({ runName: PROMPT_RUNNABLE_NAME });
  if (prompt == null) return named((state) => state.messages);
  if (typeof prompt === "string") {
    const system = systemMessage(prompt);
    return named((state) => [system, ...(state.messages ?? [])]);
  }
  if (isSystemMessage(prompt)) return named((state) => [prompt, ...state.messages]);
  if (typeof prompt === "function") return core.RunnableLambda.from(prompt as (state: never, config?: never) => unknown).withConfig({ runName: PROMPT_RUNNABLE_NAME });
  if (isRunnable(prompt)) return prompt;
  throw new Error(`Got unexpected type for 'prompt': ${typeof prompt}`);
}

/** LangGraph.js's `_convertMessageModifierToPrompt`. */
function messageModifierPrompt(core: CoreRunnables, modifier: unknown): unknown {
  if (typeof modifier === "string" || isSystemMessage(modifier)) return modifier;
  if (typeof modifier === "function") return async (state: AgentPromptState) => (modifier as (messages: MessageLike[]) => unknown)(state.messages);
  if (isRunnable(modifier)) return core.RunnableLambda.from((state: AgentPromptState) => state.messages).pipe(modifier);
  throw new Error(`Unexpected type for messageModifier: ${typeof modifier}`);
}

/** LangGraph.js's `_getPrompt`: one of `prompt`, `stateModifier`, `messageModifier`, as a runnable. */
export async function promptOf(prompt: unknown, stateModifier: unknown, messageModifier: unknown): Promise<CoreRunnable> {
  const core = await loadRunnables("createReactAgent");
  await loadMessageClasses();
  if ([prompt, stateModifier, messageModifier].filter((x) => x != null).length > 1) {
    throw new Error("Expected only one of prompt, stateModifier, or messageModifier, got multiple values");
  }
  let chosen = prompt;
  if (stateModifier != null) chosen = stateModifier;
  else if (messageModifier != null) chosen = messageModifierPrompt(core, messageModifier);
  return promptRunnable(core, chosen);
}
