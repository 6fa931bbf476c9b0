// `addNode(name, fn, { errorHandler })` and `setNodeDefaults({ errorHandler })`:
// LangGraph.js's node error handlers. The engine runs them (core
// `StateGraph::set_node_error_handler`): a failed task's handler is a task
// of node `__error_handler__<name>` (or `__default_error_handler__`) in the
// same superstep, on the failed task's input. Here the user's
// `handler(state, nodeError, config)` becomes that node's function, which
// asks the engine for its failure.
import * as raw from "../wasm/chronograph.js";
import { argumentError, describe } from "../internal/args.js";
import { NodeError, plainError } from "../errors.js";
import { TASK, type UserNode } from "../pregel/runtime.js";

/** The node an own error handler of `node` becomes (LangGraph.js's name). */
export function errorHandlerName(node: string): string {
  return `__error_handler__${node}`;
}

/** The node `setNodeDefaults({ errorHandler })` becomes. */
export const DEFAULT_ERROR_HANDLER_NODE = "__default_error_handler__";

/** LangGraph.js's `NodeErrorHandler`: what `errorHandler` is. */
export type NodeErrorHandler<S = never> = (state: S, error: NodeError, config: unknown) => unknown;

/** `addNode`'s `errorHandler`, checked. */
export function errorHandlerOf(what: string, value: unknown): NodeErrorHandler<unknown> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "function") throw argumentError(`${what} must be a function (state, nodeError, config), got ${describe(value)}`);
  return value as NodeErrorHandler<unknown>;
}

/** LangGraph.js's error when the handler's name is taken. */
export function handlerNameTaken(node: string): Error {
  return plainError(
    `Cannot add error handler to node \`${node}\`: the reserved name \`${errorHandlerName(node)}\` is already in use. StateGraph registers \`__error_handler__<nodeName>\` when you pass \`errorHandler\` in addNode options. Remove or rename the existing node with that name (for example, you may have added it manually).`,
    "INVALID_GRAPH",
  );
}

/** LangGraph.js's error when `__default_error_handler__` is taken. */
export function defaultHandlerNameTaken(): Error {
  return plainError(
    `Cannot apply a default error handler: the reserved node name \`${DEFAULT_ERROR_HANDLER_NODE}\` is already in use. setNodeDefaults({ errorHandler }) registers a node with that name; rename the conflicting node.`,
    "INVALID_GRAPH",
  );
}

/** In an error handler's task, the failure it handles (`undefined` elsewhere: the node called on its own). */
function nodeErrorOf(config: unknown): NodeError | undefined {
  const task = config == null ? undefined : (config as Record<symbol, unknown>)[TASK];
  if (typeof task !== "number") return undefined;
  const failure = raw.taskNodeError(task) as [string, unknown] | undefined;
  return failure === undefined ? undefined : new NodeError(failure[0], failure[1]);
}

/** The handler node's function: `handler(state, nodeError, config)`, as LangGraph.js's handler node calls it. */
export function handlerNode(handler: NodeErrorHandler<unknown>): UserNode {
  return ((state: unknown, config: unknown) => handler(state, nodeErrorOf(config)!, config)) as unknown as UserNode;
}
