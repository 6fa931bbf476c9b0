// LangGraph.js's `createReactAgent` (prebuilt/react_agent_executor.ts,
// deprecated there for LangChain's `createAgent`), on the package's own
// `StateGraph`, `ToolNode` and `Send`: a graph whose `agent` node calls the
// model (the prompt first, the tools bound) and whose `tools` node runs the
// tool calls of its reply, until a reply has none; with a `pre_model_hook`
// and `post_model_hook` around the model, a `generate_structured_response`
// node for `responseFormat`, and `version: "v2"` sending each tool call to
// its own `tools` task. The graph has LangGraph.js's nodes, edges and
// routers, so its runs, checkpoints and streams are the same.
import { END, START } from "../constants.js";
import { Send } from "../command.js";
import { StateGraph, type StateGraphOptions } from "../graph/state_graph.js";
import type { CompiledStateGraph } from "../graph/compiled_state_graph.js";
import { Annotation, AnnotationRoot, channelsOf, type StandardSchemaV1, type StateDefinition, type StateSchema, type StateSchemaFields, type StateType } from "../state/definitions.js";
import { messagesStateReducer, type MessageLike, type MessagesAnnotation } from "../state/messages.js";
import { hide } from "../internal/args.js";
import { isMessageInstance, messageToEngine } from "../langchain/message_classes.js";
import type { ZodObjectState, ZodOutput } from "../state/zod/meta.js";
import type { BaseStore } from "../checkpoint/store.js";
import type { AddNodeOptions, CompileOptions, Json, NodeConfig, Router } from "../pregel/types.js";
import { ToolNode } from "./tool_node.js";
import { withAgentName, type LanguageModelLike } from "./agent_name.js";
import { loadRunnables, isRunnable, type CoreRunnable } from "./core_runnables.js";
import { isAIMessage, isToolMessage, type MessageFields, type ToolCall } from "./messages.js";
import {
  bindTools,
  chatModelOf,
  constructorName,
  isBaseChatModel,
  promptOf,
  shouldBindTools,
  systemMessage,
  type AgentTool,
  type MessageModifier,
  type Prompt,
  type StateModifier,
} from "./agent_model.js";

/**
 * The state of a `createReactAgent` graph (LangGraph.js's `AgentState`,
 * deprecated there): its messages and the structured response.
 */
export interface AgentState<StructuredResponseType extends object = Record<string, unknown>> {
  messages: MessageLike[];
  structuredResponse: StructuredResponseType;
}

/** The nodes of a `createReactAgent` graph (LangGraph.js's `N`, plus its hooks'). */
export type N = typeof START | "agent" | "tools";

/** LangGraph.js's `createReactAgentAnnotation`: `messages` (reduced by `messagesStateReducer`) and `structuredResponse`. */
export const createReactAgentAnnotation = <T extends object = Record<string, unknown>>() =>
  Annotation.Root({
    messages: Annotation<MessageLike[], MessageLike | MessageLike[]>({ reducer: messagesStateReducer, default: () => [] }),
    structuredResponse: Annotation<T>,
  });

/**
 * `llmInputMessages`'s reducer: the update's messages replace the value
 * (LangGraph.js's `(_, update) => messagesStateReducer([], update)`). The
 * engine keeps what a JS reducer returns as plain data, so the message
 * instances go back in its own form (their kwargs kept, as a node's writes
 * go in), which reads revive as instances, as LangGraph.js keeps them.
 */
function replaceMessages(_: MessageLike[], update: MessageLike | MessageLike[]): MessageLike[] {
  return messagesStateReducer([], update).map((m) => (isMessageInstance(m) ? messageToEngine(m) : m));
}

/** The private input of the `agent` node when there is a `preModelHook`: what the hook gives the model instead of the messages. */
const PreHookAnnotation = Annotation.Root({
  llmInputMessages: Annotation<MessageLike[], MessageLike | MessageLike[]>({ reducer: replaceMessages, default: () => [] }),
});

/** A state definition the agent runs on: an `Annotation.Root`, a `StateSchema` or a zod object (it must have `messages`). */
export type AgentStateSchema = { readonly lc_graph_name: "AnnotationRoot"; readonly spec: StateDefinition } | StateSchema<StateSchemaFields> | ZodObjectState;

/** The state of a state definition. */
export type AgentStateOf<A> = A extends { State: infer S } ? S : A extends ZodObjectState ? ZodOutput<A> : AgentState;
/** An update of that state. */
export type AgentUpdateOf<A> = A extends { Update: infer U } ? U : Partial<AgentStateOf<A>>;
/** What a `preModelHook` (and a dynamic model) reads: the state and the model's input messages. */
export type PreHookState<A> = AgentStateOf<A> & { llmInputMessages: MessageLike[] };

/** A node of the agent's graph given by the user: a function of the state, or a Runnable. */
export type AgentHook<S, U> = ((state: S, config: NodeConfig) => U | Promise<U>) | LanguageModelLike;

/** `responseFormat` with options: the schema, a system prompt for the structured call, and the model's options (`strict`, ...). */
export interface StructuredResponseSchemaOptions {
  schema: StandardSchemaV1 | Record<string, unknown>;
  prompt?: string;
  strict?: boolean;
  [key: string]: unknown;
}

/** The model, or a function returning it from the state and config (a dynamic model). */
export type AgentLlm<A> = LanguageModelLike | ((state: PreHookState<A>, runtime: NodeConfig) => LanguageModelLike | Promise<LanguageModelLike>);

/**
 * `createReactAgent`'s parameters (LangGraph.js's `CreateReactAgentParams`,
 * deprecated there for LangChain's `CreateAgentParams`).
 */
export type CreateReactAgentParams<A extends AgentStateSchema = AgentStateSchema, StructuredResponseType extends object = Record<string, unknown>, C = unknown> = {
  /** The chat model (one that can call tools), or a function of the state and config that returns one. */
  llm: AgentLlm<A>;
  /** The tools, or a `ToolNode` of them. */
  tools: ToolNode | AgentTool[];
  /** @deprecated Use prompt instead. */
  messageModifier?: MessageModifier;
  /** @deprecated Use prompt instead. */
  stateModifier?: StateModifier<AgentStateOf<A>>;
  /** What the model is given before each call (a string or a `SystemMessage` put first, a function of the state, a Runnable). */
  prompt?: Prompt<AgentStateOf<A>>;
  /** The graph's state (default: `createReactAgentAnnotation()`); it must have `messages`. */
  stateSchema?: A;
  /** The context schema (`new StateGraph(state, contextSchema)`). */
  contextSchema?: C;
  /** @deprecated Use checkpointer instead. */
  checkpointSaver?: CompileOptions["checkpointer"];
  /** The checkpointer (a thread's memory). */
  checkpointer?: CompileOptions["checkpointer"];
  /** Pause before these nodes (`"agent"`, `"tools"`, ...). */
  interruptBefore?: CompileOptions["interruptBefore"];
  /** Pause after these nodes. */
  interruptAfter?: CompileOptions["interruptAfter"];
  /** The long-term store. */
  store?: BaseStore;
  /** A schema of the answer: a last node asks the model for it (`withStructuredOutput`) into `structuredResponse`. */
  responseFormat?: StandardSchemaV1<StructuredResponseType> | StructuredResponseSchemaOptions | Record<string, unknown>;
  /** The agent's name: the graph's, and its replies' `name`. */
  name?: string;
  /** A description of the agent (for a supervisor). */
  description?: string | undefined;
  /** `"inline"`: the agent's name goes into the content of its AI messages the model is given (`<name>...</name><content>...</content>`). */
  includeAgentName?: "inline" | undefined;
  /** A node before the model (node `pre_model_hook`): its `llmInputMessages` update is what the model is given instead of `messages`. */
  preModelHook?: AgentHook<PreHookState<A>, AgentUpdateOf<A> & { llmInputMessages?: MessageLike[] }>;
  /** A node after the model (node `post_model_hook`). */
  postModelHook?: AgentHook<AgentStateOf<A>, AgentUpdateOf<A>>;
  /** `"v1"` (default): one `tools` task runs every tool call; `"v2"`: each tool call is sent (`Send`) to a `tools` task of its own. */
  version?: "v1" | "v2";
};

/** The agent's state as its nodes and routers read it. */
interface AgentValues {
  messages: MessageFields[];
  llmInputMessages?: MessageFields[];
  [key: string]: unknown;
}

/** The state as the builder types it (its definition is only known at run time). */
type BuilderState = StateType<StateDefinition>;

/** A router's state, as the agent reads it. */
const agentState = (state: BuilderState): AgentValues => state as AgentValues;

/** What the agent calls of its graph builder. */
interface AgentGraph {
  addNode(name: string, action: unknown, options?: AddNodeOptions): AgentGraph;
  addEdge(from: string, to: string): AgentGraph;
  addConditionalEdges(from: string, router: Router<BuilderState>, pathMap?: { [result: string]: string }): AgentGraph;
  /** The compiled graph (typed by `createReactAgent`'s signature). */
  compile(options: CompileOptions): unknown;
}

/** What the model nodes are made from (`createReactAgent`'s parameters). */
interface ModelParams {
  llm: unknown;
  toolClasses: unknown[];
  prompt: unknown;
  stateModifier: unknown;
  messageModifier: unknown;
  includeAgentName: "inline" | undefined;
  name: string | undefined;
  responseFormat: unknown;
}

/** A dynamic model: a function of the state and config. */
type ModelFunction = (state: AgentValues, config: NodeConfig) => unknown;

/** The model `llm` with the agent's name inline (`includeAgentName`), else `llm`. */
function named(p: ModelParams, llm: unknown): unknown {
  return p.includeAgentName === "inline" ? withAgentName(llm as LanguageModelLike, p.includeAgentName) : llm;
}

/** LangGraph.js's `getModelInputState`: the model reads the pre-model hook's `llmInputMessages` as its messages, when there are any. */
function modelInput(state: AgentValues): AgentValues {
  const { messages, llmInputMessages, ...rest } = state;
  if (llmInputMessages != null && llmInputMessages.length > 0) return { messages: llmInputMessages, ...rest };
  return { messages, ...rest };
}

/** The `agent` node (LangGraph.js's `callModel`): the prompt piped into the model (with its tools bound once), the reply named after the agent. */
function callModelNode(p: ModelParams): (state: AgentValues, config: NodeConfig) => Promise<{ messages: MessageFields[] }> {
  let cachedStaticModel: CoreRunnable | null = null;
  const staticModel = async (llm: unknown): Promise<CoreRunnable> => {
    if (cachedStaticModel) return cachedStaticModel;
    const core = await loadRunnables("createReactAgent");
    const withTools = (await shouldBindTools(llm, p.toolClasses)) ? await bindTools(core, llm, p.toolClasses) : llm;
    const prompt = await promptOf(p.prompt, p.stateModifier, p.messageModifier);
    cachedStaticModel = prompt.pipe(named(p, withTools));
    return cachedStaticModel;
  };
  const dynamicModel = async (llm: ModelFunction, state: AgentValues, config: NodeConfig): Promise<CoreRunnable> => {
    const model = await llm(state, config);
    return (await promptOf(p.prompt, p.stateModifier, p.messageModifier)).pipe(named(p, model));
  };
  return async (state, config) => {
    const llm = p.llm;
    const runnable = typeof llm === "function" ? await dynamicModel(llm as ModelFunction, state, config) : await staticModel(llm);
    const response = (await runnable.invoke(modelInput(state), config)) as MessageFields;
    // LangGraph.js names the reply after the agent, in place.
    response.name = p.name;
    (response.lc_kwargs as Record<string, unknown>).name = p.name;
    return { messages: [response] };
  };
}

/** The `generate_structured_response` node: the model asked for `responseFormat` (`withStructuredOutput`) on the messages. */
function structuredResponseNode(p: ModelParams): (state: AgentValues, config: NodeConfig) => Promise<{ structuredResponse: unknown }> {
  return async (state, config) => {
    const responseFormat = p.responseFormat;
    if (responseFormat == null) throw new Error("Attempted to generate structured output with no passed response schema. Please contact us for help.");
    const messages: unknown[] = [...state.messages];
    const model = typeof p.llm === "function" ? await (p.llm as ModelFunction)(state, config) : await chatModelOf(p.llm);
    if (!isBaseChatModel(model)) throw new Error(`Expected \`llm\` to be a ChatModel with .withStructuredOutput() method, got ${constructorName(model)}`);
    let structured: LanguageModelLike;
    if (typeof responseFormat === "object" && "schema" in responseFormat) {
      const { prompt, schema, ...options } = responseFormat as StructuredResponseSchemaOptions;
      structured = model.withStructuredOutput(schema, options);
      if (prompt != null) messages.unshift(systemMessage(prompt));
    } else structured = model.withStructuredOutput(responseFormat);
    const response = await structured.invoke(messages, config);
    // Some parsers return null/undefined instead of throwing when the output does not fit the schema.
    if (response == null) {
      throw new Error(
        "Failed to parse structured response against the provided `responseFormat` schema: " +
          "the structured-output parser returned null/undefined, which usually means the model output did not satisfy the schema.",
      );
    }
    return { structuredResponse: response };
  };
}

/** A path map without its `null` entries (LangGraph.js's `conditionalMap`). */
function conditionalMap(map: { [result: string]: string | null }): { [result: string]: string } {
  return Object.fromEntries(Object.entries(map).filter((e): e is [string, string] => e[1] != null));
}

/** Each tool call sent to a `tools` task of its own, with the state (`version: "v2"`; messages travel as the engine keeps them). */
const sendEach = (calls: ToolCall[], state: AgentValues) => calls.map((toolCall) => new Send("tools", sendArgs({ ...state, lg_tool_call: toolCall })));

/** A `Send`'s args: the agent's state (its messages LangChain instances, which the engine keeps as they are). */
const sendArgs = (args: object): Json => args as Json;

/** The router after the model (no `postModelHook`): to the tools while the reply has tool calls, else to the end (or the structured response). */
function afterModel(version: "v1" | "v2", structured: boolean): Router<BuilderState> {
  return (builderState) => {
    const state = agentState(builderState);
    const { messages } = state;
    const last = messages[messages.length - 1];
    if (!isAIMessage(last) || !last.tool_calls?.length) return structured ? "generate_structured_response" : END;
    return version === "v2" ? sendEach(last.tool_calls, state) : "tools";
  };
}

/** The router after `post_model_hook`: to the tools for the last AI message's unanswered calls, back to the model after a tool message, else to the end. */
function afterPostHook(version: "v1" | "v2", structured: boolean, entrypoint: string): Router<BuilderState> {
  return (builderState) => {
    const state = agentState(builderState);
    const { messages } = state;
    const answered = new Set(messages.filter(isToolMessage).map((m) => m.tool_call_id));
    const lastAi = [...messages].reverse().find(isAIMessage);
    const pending = lastAi?.tool_calls?.filter((c) => c.id == null || !answered.has(c.id)) ?? [];
    const last = messages[messages.length - 1];
    if (pending.length > 0) return version === "v2" ? sendEach(pending, state) : "tools";
    if (last && isToolMessage(last)) return entrypoint;
    return structured ? "generate_structured_response" : END;
  };
}

/** The router after the tools when some tool returns directly: the end after such a tool's message, else back to the model. */
function afterTools(returnDirect: Set<string>, entrypoint: string): Router<BuilderState> {
  return (builderState) => {
    const state = agentState(builderState);
    for (let i = state.messages.length - 1; i >= 0; i -= 1) {
      const message = state.messages[i];
      if (!isToolMessage(message)) break;
      if (message.name !== undefined && returnDirect.has(message.name)) return END;
    }
    return entrypoint;
  };
}

/** The state definition of the `agent` node's input with a pre-model hook: the state's keys and `llmInputMessages`. */
function preHookInput(schema: object): object {
  const spec: StateDefinition = AnnotationRoot.isInstance(schema)
    ? schema.spec
    : Object.fromEntries(Object.keys(channelsOf(schema).channels).map((key) => [key, Annotation()]));
  return Annotation.Root({ ...spec, ...PreHookAnnotation.spec });
}

/** A client tool: a LangChain tool (a Runnable), which the `ToolNode` runs (a provider's own tool is only bound). */
const isClientTool = (tool: unknown): tool is ToolNode["tools"][number] => isRunnable(tool);

/**
 * LangGraph.js's `createReactAgent` (deprecated there for LangChain's
 * `createAgent`): a compiled graph whose `agent` node calls `llm` (with
 * `prompt` first and the tools bound) and whose `tools` node runs the
 * tool calls of its reply, looping until a reply calls no tool. Needs
 * `@langchain/core` (the model is called through LangChain runnables).
 */
export function createReactAgent<A extends AgentStateSchema = typeof MessagesAnnotation, StructuredResponseFormat extends object = Record<string, unknown>, C = unknown>(
  params: CreateReactAgentParams<A, StructuredResponseFormat, C>,
): CompiledStateGraph<AgentStateOf<A> & { structuredResponse?: StructuredResponseFormat }, AgentUpdateOf<A>> {
  const { llm, tools, stateSchema, contextSchema, preModelHook, postModelHook, responseFormat, name, description, version = "v1" } = params;
  let toolClasses: unknown[];
  let toolNode: ToolNode;
  if (!Array.isArray(tools)) {
    toolClasses = tools.tools;
    toolNode = tools;
  } else {
    toolClasses = tools;
    toolNode = new ToolNode(tools.filter(isClientTool));
  }
  const p: ModelParams = {
    llm,
    toolClasses,
    prompt: params.prompt,
    stateModifier: params.stateModifier,
    messageModifier: params.messageModifier,
    includeAgentName: params.includeAgentName,
    name,
    responseFormat,
  };
  // Tools configured to return directly: the run ends after them.
  const returnDirect = new Set(
    toolClasses
      .filter(isClientTool)
      .filter((tool) => "returnDirect" in tool && tool.returnDirect)
      .map((tool) => tool.name),
  );
  const schema: object = stateSchema ?? createReactAgentAnnotation<StructuredResponseFormat>();
  // The state definition may be any form `StateGraph` takes (an `Annotation.Root`, a `StateSchema`, a zod object).
  const Graph: new (state: AnnotationRoot, options?: StateGraphOptions) => AgentGraph = StateGraph;
  const workflow = new Graph(schema as AnnotationRoot, contextSchema as StateGraphOptions | undefined).addNode("tools", toolNode);
  if (!("messages" in channelsOf(schema).channels)) throw new Error("Missing required `messages` key in state schema.");
  const structured = responseFormat != null;
  let entrypoint = "agent";
  let inputSchema: object | undefined;
  if (preModelHook != null) {
    workflow.addNode("pre_model_hook", preModelHook).addEdge("pre_model_hook", "agent");
    entrypoint = "pre_model_hook";
    inputSchema = preHookInput(schema);
  }
  workflow.addNode("agent", callModelNode(p), { input: inputSchema }).addEdge(START, entrypoint);
  if (postModelHook != null) {
    const map = { tools: "tools", [entrypoint]: entrypoint, generate_structured_response: structured ? "generate_structured_response" : null, [END]: structured ? null : END };
    workflow
      .addNode("post_model_hook", postModelHook)
      .addEdge("agent", "post_model_hook")
      .addConditionalEdges("post_model_hook", afterPostHook(version, structured, entrypoint), conditionalMap(map));
  }
  if (responseFormat !== undefined) workflow.addNode("generate_structured_response", structuredResponseNode(p)).addEdge("generate_structured_response", END);
  if (postModelHook == null) {
    const map = { tools: "tools", generate_structured_response: structured ? "generate_structured_response" : null, [END]: structured ? null : END };
    workflow.addConditionalEdges("agent", afterModel(version, structured), conditionalMap(map));
  }
  if (returnDirect.size > 0) workflow.addConditionalEdges("tools", afterTools(returnDirect, entrypoint), conditionalMap({ [entrypoint]: entrypoint, [END]: END }));
  else workflow.addEdge("tools", entrypoint);
  const graph = workflow.compile({ checkpointer: params.checkpointer ?? params.checkpointSaver, interruptBefore: params.interruptBefore, interruptAfter: params.interruptAfter, store: params.store, name });
  if (description !== undefined) hide(graph as object, "description", description);
  return graph as CompiledStateGraph<AgentStateOf<A> & { structuredResponse?: StructuredResponseFormat }, AgentUpdateOf<A>>;
}
