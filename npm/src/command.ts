// LangGraph.js's `Send` and `Command`: plain objects tagged with `lg_name`,
// which the bindings read field by field (core/wasm/src/types.rs
// `command_from_js`, `send_from_js`).
import { argumentError, describe, isArray, option } from "./internal/args.js";
import { PARENT } from "./constants.js";
import type { Destination, Json } from "./pregel/types.js";

/**
 * LangGraph's `Send`: run `node` once in the next superstep, given `args`
 * instead of the state (a map-reduce fan-out). Return Sends from a router
 * (mixed with node names) or in a `Command`'s `goto`. A Send to a node the
 * graph does not have is dropped.
 */
export class Send<A = Json> {
  readonly lg_name = "Send" as const;
  node: string;
  args: A;

  constructor(node: string, args: A) {
    if (typeof node !== "string") {
      throw argumentError(`new Send(node, args): node must be a string, got ${describe(node)}`);
    }
    this.node = node;
    this.args = args;
  }

  /** The packet as LangGraph.js serializes it. */
  toJSON(): { lg_name: "Send"; node: string; args: A } {
    return { lg_name: this.lg_name, node: this.node, args: this.args };
  }
}

/**
 * LangGraph.js's mark of a `Command` (the same global symbol): a command
 * keeps the arguments it was made from under it.
 */
export const COMMAND_SYMBOL: unique symbol = Symbol.for("langgraph.command") as never;

/**
 * LangGraph.js's base class of `Command` (a command's type without its
 * public fields): holds the arguments under {@link COMMAND_SYMBOL}.
 */
export class CommandInstance<R = Json> {
  [COMMAND_SYMBOL]: CommandParams<R>;

  constructor(args: CommandParams<R>) {
    this[COMMAND_SYMBOL] = args;
  }
}

/** What `new Command(...)` takes. */
export interface CommandParams<R = Json> {
  resume?: R | { [interruptId: string]: Json };
  /** Channel values, or `[channel, value]` pairs (each channel once). */
  update?: { [channel: string]: unknown } | [string, unknown][];
  goto?: Destination | Destination[];
  /** `Command.PARENT`: the command is for the graph that runs this one as a subgraph. */
  graph?: typeof PARENT;
}

/**
 * LangGraph's `Command`: resume an interrupt (`resume`), update state
 * (`update`), go to nodes or Sends (`goto`). Pass it as `invoke`'s input,
 * or return it from a node (its update plus where to go next, in addition
 * to the node's edges; `graph: Command.PARENT` addresses the graph that
 * runs this one as a subgraph).
 */
export class Command<R = Json> extends CommandInstance<R> {
  readonly lg_name = "Command" as const;
  /** LangChain's mark of a tool result that is the tool's output as it is (a tool may return a Command), as on LangGraph.js's. */
  readonly lc_direct_tool_output = true as const;
  // Declared, not defined: only the fields given become own properties, in this order.
  declare resume?: R | { [interruptId: string]: Json };
  declare update?: { [channel: string]: unknown } | [string, unknown][];
  declare graph?: typeof PARENT;
  /** Always a list, as in LangGraph.js. */
  declare goto: Destination[];

  /** `graph` value addressing the graph that runs this one as a subgraph. */
  static readonly PARENT = PARENT;

  constructor(args: CommandParams<R> = {}) {
    if (args === null || (typeof args !== "object" && typeof args !== "function")) {
      throw argumentError(`new Command(args): args must be an object like {resume, update, goto}, got ${describe(args)}`);
    }
    super(args);
    const what = "new Command(args): args";
    const resume = option(args, "resume", what) as Command<R>["resume"];
    const update = option(args, "update", what) as Command<R>["update"];
    const goto = option(args, "goto", what) as CommandParams<R>["goto"];
    const graph = option(args, "graph", what) as Command<R>["graph"];
    if (resume !== undefined) this.resume = resume;
    if (update !== undefined) this.update = update;
    if (graph !== undefined) this.graph = graph;
    this.goto = goto === undefined || goto === null ? [] : isArray(goto) ? goto : [goto];
  }

  /** The command as LangGraph.js serializes it: `{ lg_name, update, resume, goto }`. */
  toJSON(): { lg_name: "Command"; update?: unknown; resume?: unknown; goto: unknown[] } {
    const goto = this.goto.map((g) => (typeof g === "string" || typeof (g as Partial<Send>).toJSON !== "function" ? g : (g as Send).toJSON()));
    return { lg_name: this.lg_name, update: this.update, resume: this.resume, goto };
  }
}

/**
 * Whether `v` is a `Command` (LangGraph.js's `isCommand`): also one made by
 * another copy of the package or by LangGraph.js; not a plain object with
 * `lg_name: "Command"` (a serialized one), as there.
 */
export function isCommand(v: unknown): v is Command {
  if (!isCommandLike(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto !== Object.prototype && proto !== null;
}

/** Whether `v` has `lg_name: "Command"`, a class instance or a plain object (what the bindings read as a command). */
export function isCommandLike(v: unknown): v is Command {
  return typeof v === "object" && v !== null && (v as { lg_name?: unknown }).lg_name === "Command";
}
