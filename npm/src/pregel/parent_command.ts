// A `Command({ graph: Command.PARENT })` returned inside a graph that a
// node invokes (not one added as a subgraph node: the engine handles that
// one itself), as LangGraph.js bubbles it: the child run ends with a
// `ParentCommand` whose `command` is addressed to the parent's namespace,
// and the parent's node that lets it propagate acts as if it had
// returned that command (its update, then its goto).
//
// The engine raises the child's `ParentCommand` from the command's text
// only, so the command itself is kept here when a JS node returns it (the
// last one: a superstep whose nodes return several commands for the
// parent raises one `ParentCommand`, which gets the last of them).
import { Command, isCommandLike } from "../command.js";
import { PARENT } from "../constants.js";
import { isParentCommand, setEngineParentCommand } from "../errors.js";

let last: { command: Command; ns: string } | undefined;

/** LangGraph.js's `getParentCheckpointNamespace`: `ns` without its last task (and the numbers after it). */
function parentNamespace(ns: string): string {
  const parts = ns.split("|");
  while (parts.length > 1 && /^\d+$/.test(parts[parts.length - 1]!)) parts.pop();
  return parts.slice(0, -1).join("|");
}

/** Notes what the node of task namespace `ns` returned, when it is a command for the parent graph. */
export function noteResult(result: unknown, ns: string): void {
  if (isCommandLike(result) && result.graph === PARENT) last = { command: result, ns };
}

/** The command of the engine's `ParentCommand` being made: the last one a node returned, addressed to its parent's namespace. */
export function takeCommand(): Command | undefined {
  const noted = last;
  last = undefined;
  if (noted === undefined) return undefined;
  const { command, ns } = noted;
  const args: Record<string, unknown> = { graph: parentNamespace(ns) };
  for (const key of ["resume", "update", "goto"] as const) if (command[key] !== undefined) args[key] = command[key];
  // `graph` is the parent's namespace, as in LangGraph.js (a value Command's type does not name).
  return new Command(args as never);
}

setEngineParentCommand(takeCommand);

/**
 * What a node of task namespace `ns` that threw `error` returns instead:
 * the command of a `ParentCommand` addressed to its graph (without
 * `graph`), as LangGraph.js applies it; any other error is thrown again.
 */
export function caught(error: unknown, ns: string): Command {
  const command = isParentCommand(error) ? (error as { command?: unknown }).command : undefined;
  if (!isCommandLike(command) || (command.graph as unknown) !== ns) throw error;
  const args: Record<string, unknown> = {};
  for (const key of ["resume", "update", "goto"] as const) if (command[key] !== undefined) args[key] = command[key];
  return new Command(args as never);
}
