// `chronograph/prebuilt` (LangGraph.js's `@langchain/langgraph/prebuilt`):
// `ToolNode` and `toolsCondition` (prebuilt/tool_node.ts), `createReactAgent`
// and its state (prebuilt/react_agent.ts, prebuilt/agent_model.ts),
// `withAgentName` (prebuilt/agent_name.ts), the deprecated `ToolExecutor`,
// `createAgentExecutor` and `createFunctionCallingExecutor`
// (prebuilt/tool_executor.ts, prebuilt/agent_executor.ts) and the
// human-in-the-loop interrupt types (prebuilt/interrupt.ts): that entry's names.
export { ToolNode, toolsCondition, type ToolNodeOptions, type ToolCall, type ToolLike } from "./prebuilt/tool_node.js";
export {
  createReactAgent,
  createReactAgentAnnotation,
  type AgentState,
  type AgentHook,
  type AgentLlm,
  type AgentStateOf,
  type AgentStateSchema,
  type AgentUpdateOf,
  type CreateReactAgentParams,
  type N,
  type PreHookState,
  type StructuredResponseSchemaOptions,
} from "./prebuilt/react_agent.js";
export type { AgentTool, BaseMessageLike, ChatModelLike, MessageModifier, Prompt, StateModifier } from "./prebuilt/agent_model.js";
export { withAgentName, type AgentNameMode, type LanguageModelLike } from "./prebuilt/agent_name.js";
export { ToolExecutor, type ExecutorTool, type ToolExecutorArgs, type ToolInvocationInterface } from "./prebuilt/tool_executor.js";
export { createAgentExecutor, createFunctionCallingExecutor, type AgentExecutorState, type AgentOutcome, type FunctionCallingExecutorState } from "./prebuilt/agent_executor.js";
export type { ActionRequest, HumanInterrupt, HumanInterruptConfig, HumanResponse } from "./prebuilt/interrupt.js";
