// LangGraph.js's oldest prebuilt agents, deprecated there
// (prebuilt/agent_executor.ts, prebuilt/chat_agent_executor.ts): a
// LangChain agent runnable looping with a `ToolExecutor` over
// `{ input, agentOutcome, steps }`, and a model calling OpenAI functions
// (`additional_kwargs.function_call`) over `{ messages }`.
import { END, START } from "../constants.js";
import { StateGraph, type LooseReducer } from "../graph/state_graph.js";
import type { CompiledStateGraph } from "../graph/compiled_state_graph.js";
import type { NodeConfig, Router, StateValues } from "../pregel/types.js";
import type { MessageLike } from "../state/messages.js";
import { messageClasses } from "../langchain/core_messages.js";
import { GraphValueError, withCode } from "../errors.js";
import { requirePeer } from "../internal/peers.js";
import { runnablesNow } from "./core_runnables.js";
import { ToolExecutor, type ExecutorTool } from "./tool_executor.js";
import type { LanguageModelLike } from "./agent_name.js";

/** A LangChain agent's decision: a tool to call (`AgentAction`) or its answer (`AgentFinish`, with `returnValues`). */
export type AgentOutcome = { tool: string; toolInput: string | Record<string, unknown>; log: string } | { returnValues: Record<string, unknown>; log: string };

/** A step of the agent: the action and what the tool returned. */
interface Step {
  action: AgentOutcome;
  observation: unknown;
}

/** @ignore The state of `createAgentExecutor`'s graph. */
export interface AgentExecutorState {
  agentOutcome?: AgentOutcome;
  steps: Array<Step>;
  input: string;
  chatHistory?: MessageLike[];
}

/** What the executors call of their graph builder. */
interface ExecutorGraph {
  addNode(name: string, action: unknown): ExecutorGraph;
  addEdge(from: string, to: string): ExecutorGraph;
  addConditionalEdges(from: string, router: Router<StateValues>, pathMap: { [result: string]: string }): ExecutorGraph;
  /** The compiled graph (typed by the executors' signatures). */
  compile(): unknown;
}
const Graph: new (init: { channels: { [key: string]: LooseReducer | null } }) => ExecutorGraph = StateGraph;

/** @ignore LangGraph.js's `createAgentExecutor`: `agent` (the agent runnable) and `action` (the tool executor) until the agent finishes. */
export function createAgentExecutor({ agentRunnable, tools }: { agentRunnable: LanguageModelLike; tools: ExecutorTool[] | ToolExecutor }): CompiledStateGraph<AgentExecutorState> {
  const toolExecutor = Array.isArray(tools) ? new ToolExecutor({ tools }) : tools;
  const shouldContinue = (state: StateValues) => {
    const outcome = state.agentOutcome as AgentOutcome | undefined;
    return outcome && "returnValues" in outcome ? "end" : "continue";
  };
  const runAgent = async (data: AgentExecutorState, config?: NodeConfig) => ({ agentOutcome: await agentRunnable.invoke(data, config) });
  const executeTools = async (data: AgentExecutorState, config?: NodeConfig) => {
    const agentAction = data.agentOutcome;
    if (!agentAction || "returnValues" in agentAction) throw new Error("Agent has not been run yet");
    const observation = await toolExecutor.invoke(agentAction, config);
    return { steps: [{ action: agentAction, observation }] };
  };
  const graph = new Graph({
    channels: { input: null, agentOutcome: null, steps: { reducer: (x: Step[], y: Step[]) => x.concat(y), default: (): Step[] => [] } },
  })
    .addNode("agent", runAgent)
    .addNode("action", executeTools)
    .addEdge(START, "agent")
    .addConditionalEdges("agent", shouldContinue, { continue: "action", end: END })
    .addEdge("action", "agent")
    .compile();
  return graph as CompiledStateGraph<AgentExecutorState>;
}

/** @deprecated Use {@link createReactAgent} instead with tool calling. */
export type FunctionCallingExecutorState = { messages: Array<MessageLike> };

/** A message as the function-calling executor reads it. */
interface FunctionCallMessage {
  additional_kwargs: { function_call?: { name: string; arguments: unknown } };
}

/** `@langchain/core/utils/function_calling`'s `convertToOpenAIFunction`, loaded now (Node's `require`). */
function convertToOpenAIFunction(): (tool: unknown) => unknown {
  const mod = requirePeer("@langchain/core", "./utils/function_calling") as { convertToOpenAIFunction?: (tool: unknown) => unknown } | undefined;
  const convert = mod?.convertToOpenAIFunction;
  if (typeof convert !== "function") throw withCode(new GraphValueError("createFunctionCallingExecutor needs @langchain/core (npm install @langchain/core), as in LangGraph.js"), "MISSING_PEER");
  return convert;
}

/** @deprecated Use {@link createReactAgent} instead with tool calling. LangGraph.js's `createFunctionCallingExecutor`: `model` (it must have `bind`) with the tools as OpenAI functions. */
export function createFunctionCallingExecutor<Model extends object>({ model, tools }: { model: Model; tools: ExecutorTool[] | ToolExecutor }): CompiledStateGraph<FunctionCallingExecutorState> {
  const toolExecutor = Array.isArray(tools) ? new ToolExecutor({ tools }) : tools;
  const toolClasses = Array.isArray(tools) ? tools : tools.tools;
  if (!("bind" in model) || typeof model.bind !== "function") throw new Error("Model must be bindable");
  const convert = convertToOpenAIFunction();
  const newModel = (model.bind as (kwargs: object) => LanguageModelLike)({ functions: toolClasses.map((tool) => convert(tool)) });
  const lastOf = (state: FunctionCallingExecutorState) => state.messages[state.messages.length - 1] as FunctionCallMessage | undefined;
  const shouldContinue = (state: StateValues) => {
    const last = lastOf(state as FunctionCallingExecutorState) as FunctionCallMessage;
    return !("function_call" in last.additional_kwargs) || !last.additional_kwargs.function_call ? "end" : "continue";
  };
  const callModel = async (state: FunctionCallingExecutorState, config?: NodeConfig) => ({ messages: [await newModel.invoke(state.messages, config)] });
  const callTool = async (state: FunctionCallingExecutorState, config?: NodeConfig) => {
    const last = lastOf(state);
    if (!last) throw new Error("No messages found.");
    const call = last.additional_kwargs.function_call;
    if (!call) throw new Error("No function call found in message.");
    const action = { tool: call.name, toolInput: JSON.stringify(call.arguments), log: "" };
    const response = await toolExecutor.invoke(action, config);
    const FunctionMessage = messageClasses()?.FunctionMessage;
    if (FunctionMessage === undefined) throw withCode(new GraphValueError("createFunctionCallingExecutor needs @langchain/core (npm install @langchain/core), as in LangGraph.js"), "MISSING_PEER");
    return { messages: [new FunctionMessage({ content: response, name: action.tool })] };
  };
  const { RunnableLambda } = runnablesNow("createFunctionCallingExecutor");
  const graph = new Graph({ channels: { messages: { value: (x: MessageLike[], y: MessageLike[]) => x.concat(y), default: (): MessageLike[] => [] } } })
    .addNode("agent", RunnableLambda.from(callModel))
    .addNode("action", RunnableLambda.from(callTool))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", shouldContinue, { continue: "action", end: END })
    .addEdge("action", "agent")
    .compile();
  return graph as CompiledStateGraph<FunctionCallingExecutorState>;
}
