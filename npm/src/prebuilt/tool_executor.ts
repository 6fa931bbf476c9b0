// LangGraph.js's deprecated `ToolExecutor` (prebuilt/tool_executor.ts): runs
// the tool an invocation names (`{ tool, toolInput }`), or answers with a
// text naming the valid tools. LangGraph.js's is a `RunnableBinding` over a
// `RunnableLambda`; this one is a plain class whose `invoke` runs the same
// `RunnableLambda` (`@langchain/core`), so callback handlers see the same run.
import { loadRunnables, type CoreRunnable } from "./core_runnables.js";

const INVALID_TOOL_MSG_TEMPLATE = `{requestedToolName} is not a valid tool, try one of {availableToolNamesString}.`;

/** A LangChain tool as the executor calls it. */
export interface ExecutorTool {
  name: string;
  invoke(input: unknown, config?: unknown): Promise<unknown>;
}

/** @deprecated Use {@link ToolNode} instead. */
export interface ToolExecutorArgs {
  tools: ExecutorTool[];
  /** @default "{requestedToolName} is not a valid tool, try one of {availableToolNamesString}." */
  invalidToolMsgTemplate?: string;
}

/** Which tool to invoke, and its input. */
export interface ToolInvocationInterface {
  tool: string;
  toolInput: string;
}

/** @deprecated Use {@link ToolNode} instead. */
export class ToolExecutor {
  lc_graph_name = "ToolExecutor";
  tools: ExecutorTool[];
  toolMap: Record<string, ExecutorTool>;
  invalidToolMsgTemplate: string;
  #bound: CoreRunnable | undefined;

  constructor(fields: ToolExecutorArgs) {
    const withDefaults = { invalidToolMsgTemplate: INVALID_TOOL_MSG_TEMPLATE, ...fields };
    this.tools = withDefaults.tools;
    this.invalidToolMsgTemplate = withDefaults.invalidToolMsgTemplate;
    this.toolMap = Object.fromEntries(this.tools.map((tool) => [tool.name, tool]));
  }

  /** Runs the invocation (through a `RunnableLambda`, as LangGraph.js's binding does). */
  async invoke(input: ToolInvocationInterface | { tool: string; toolInput: unknown }, config?: unknown): Promise<unknown> {
    if (this.#bound === undefined) {
      const { RunnableLambda } = await loadRunnables("ToolExecutor");
      this.#bound = RunnableLambda.from((i: ToolInvocationInterface, c?: unknown) => this._execute(i, c));
    }
    return this.#bound.invoke(input, config);
  }

  /** The tool's output for the invocation, or the invalid-tool text when no tool has its name. */
  async _execute(toolInvocation: ToolInvocationInterface, config?: unknown): Promise<unknown> {
    if (!(toolInvocation.tool in this.toolMap)) {
      return this.invalidToolMsgTemplate
        .replace("{requestedToolName}", toolInvocation.tool)
        .replace("{availableToolNamesString}", Object.keys(this.toolMap).join(", "));
    }
    const tool = this.toolMap[toolInvocation.tool] as ExecutorTool;
    return await tool.invoke(toolInvocation.toolInput, config);
  }
}
