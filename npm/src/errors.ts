// The errors of the package, with LangGraph.js's class names. Each class is
// declared once here; `ERROR_CLASSES` hands them to the bindings
// (core/wasm/src/error.rs constructs the class registered under an error's
// name, so `instanceof` works for errors raised inside the engine).

/** Fields LangGraph.js's errors take besides the message. */
export interface ErrorOptions {
  /** LangGraph's troubleshooting code: the message gets the page's URL, as in LangGraph.js. */
  lc_error_code?: string;
}

/** Fields every error of the package carries. */
export interface ErrorFields {
  /**
   * Machine-readable: `INVALID_UPDATE`, `GRAPH_RECURSION_LIMIT`, `EMPTY_INPUT`, `MISSING_CHECKPOINTER`,
   * `INVALID_ARGUMENT` (a `TypeError`: an argument of the wrong shape), `INVALID_VALUE` (a `TypeError`: a
   * value that is not JSON data, see `Json`; or a `GraphValueError`), `THREAD_BUSY` (`ThreadBusyError`),
   * `NODE_ERROR`, `UNSUPPORTED` (a LangGraph.js feature the package does not have), ...
   */
  code: string;
  /** The node that raised it, when a node did. */
  node?: string;
  /** LangGraph's troubleshooting code, when it has a page. */
  lc_error_code?: string;
}

/** Where LangGraph.js's troubleshooting pages live (its errors link them the same way). */
const TROUBLESHOOTING = "https://docs.langchain.com/oss/javascript/langgraph/";

/**
 * Base class of the errors the engine raises (LangGraph.js's
 * `BaseLangGraphError`; `ChronographError` is the same class).
 */
export class BaseLangGraphError extends Error implements ErrorFields {
  /** See {@link ErrorFields.code}; set on every error the package raises. */
  declare code: string;
  /** See {@link ErrorFields.node}. */
  declare node?: string;
  /** See {@link ErrorFields.lc_error_code}. */
  lc_error_code?: string;

  constructor(message?: string, fields?: ErrorOptions) {
    let text = message ?? "";
    if (fields?.lc_error_code) text += `\n\nTroubleshooting URL: ${TROUBLESHOOTING}${fields.lc_error_code}/\n`;
    super(text);
    this.name = new.target.unminifiable_name;
    this.lc_error_code = fields?.lc_error_code;
  }

  /** The class's name, as LangGraph.js's errors report it (minifiers rename classes). */
  static get unminifiable_name(): string {
    return "BaseLangGraphError";
  }
}

/** Every class below, named by its LangGraph.js name (which minifiers must not change). */
function named<C extends abstract new (...args: never[]) => Error>(cls: C, name: string): C {
  Object.defineProperty(cls, "unminifiable_name", { get: () => name });
  Object.defineProperty(cls, "name", { value: name });
  return cls;
}

/** Base class of the engine's errors (the package's name for `BaseLangGraphError`). */
export const ChronographError = BaseLangGraphError;
/** Base class of the engine's errors (the package's name for `BaseLangGraphError`). */
export type ChronographError = BaseLangGraphError;

/** An update the graph cannot accept (code `INVALID_UPDATE`, ...). */
export class InvalidUpdateError extends BaseLangGraphError {}
named(InvalidUpdateError, "InvalidUpdateError");
/** A run used up its `recursionLimit` (code `GRAPH_RECURSION_LIMIT`). */
export class GraphRecursionError extends BaseLangGraphError {}
named(GraphRecursionError, "GraphRecursionError");
/** A run started with nothing to do (code `EMPTY_INPUT`). */
export class EmptyInputError extends BaseLangGraphError {}
named(EmptyInputError, "EmptyInputError");
/** A channel read while it has no value (LangGraph.js's; the engine reads an empty channel as absent, so it raises none). */
export class EmptyChannelError extends BaseLangGraphError {}
named(EmptyChannelError, "EmptyChannelError");
/** A `Pregel` graph whose nodes, channels or input/output channels do not fit together (LangGraph.js's `GraphValidationError`, code `INVALID_GRAPH`). */
export class GraphValidationError extends Error {
  /** `INVALID_GRAPH`. */
  readonly code = "INVALID_GRAPH";
  constructor(message?: string) {
    super(message);
    this.name = "GraphValidationError";
  }
}
/** A bad value or configuration (codes `MISSING_CHECKPOINTER`, `INVALID_GRAPH`, `UNSUPPORTED`, ...). */
export class GraphValueError extends BaseLangGraphError {}
named(GraphValueError, "GraphValueError");
/** A malformed graph document given to `StateGraph.fromSpec` (code `INVALID_SPEC`). */
export class GraphSpecError extends BaseLangGraphError {}
named(GraphSpecError, "GraphSpecError");
/**
 * Base class of the errors that pause or redirect a run rather than fail it
 * (LangGraph.js's `GraphBubbleUp`: `GraphInterrupt`, `NodeInterrupt`,
 * `ParentCommand`, `GraphDrained`): a node should let them propagate, and
 * retry policies never retry them.
 */
export class GraphBubbleUp extends BaseLangGraphError {
  constructor(message?: string, fields?: ErrorOptions) {
    super(message, fields);
    // LangGraph.js names only its subclasses: a GraphBubbleUp itself is named "Error".
    if (new.target === GraphBubbleUp) this.name = "Error";
  }

  /** `true`: what {@link isGraphBubbleUp} reads (also on another copy's errors). */
  get is_bubble_up(): boolean {
    return true;
  }
}
Object.defineProperty(GraphBubbleUp, "name", { value: "GraphBubbleUp" });
/**
 * Thrown by `interrupt()` to pause a node; let it propagate (code
 * `GRAPH_INTERRUPT`). Made as LangGraph.js's, from its interrupts (the
 * message is their JSON), or from a message (the engine's: `interrupted`;
 * its `interrupts` are then empty).
 */
export class GraphInterrupt extends GraphBubbleUp {
  /** The interrupts it carries (LangGraph.js's field). */
  interrupts: RaisedInterrupt[];

  constructor(interrupts?: RaisedInterrupt[] | string, fields?: ErrorOptions) {
    super(typeof interrupts === "string" ? interrupts : JSON.stringify(interrupts, null, 2), fields);
    this.interrupts = Array.isArray(interrupts) ? interrupts : [];
  }
}
named(GraphInterrupt, "GraphInterrupt");
/** One interrupt a {@link NodeInterrupt} carries: its value (and no id, as in LangGraph.js). */
export interface RaisedInterrupt {
  value: unknown;
  id?: string;
}

/**
 * LangGraph.js's deprecated way to pause a node: `throw new
 * NodeInterrupt(value)`. The task pauses with `{ value }` as its interrupt
 * (no `id`, so it cannot be resumed by id), keeps no resume value, and
 * throws again whenever it runs again until the state lets it pass (or
 * `updateState` moves the thread on), as in LangGraph.js. Prefer
 * `interrupt(value)`. Code `NODE_INTERRUPT`.
 */
export class NodeInterrupt extends GraphInterrupt {
  constructor(message: unknown, fields?: ErrorOptions) {
    super([{ value: message }], fields);
    this.code = "NODE_INTERRUPT";
  }
}
named(NodeInterrupt, "NodeInterrupt");
/** `compile()` found a node no edge, conditional edge or `ends` leads to (LangGraph.js's check; code `UNREACHABLE_NODE`). */
export class UnreachableNodeError extends BaseLangGraphError {}
named(UnreachableNodeError, "UnreachableNodeError");
/**
 * A call that changes a thread found the thread busy (code `THREAD_BUSY`):
 * with `multitaskStrategy: "reject"` while another run or update of the
 * thread is in flight or queued, or when a node calls it on its own thread.
 */
export class ThreadBusyError extends BaseLangGraphError {}
named(ThreadBusyError, "ThreadBusyError");

/** What {@link NodeTimeoutError} is built from (LangGraph.js's fields). */
export interface NodeTimeoutFields {
  node: string;
  elapsed: number;
  kind: "run" | "idle";
  runTimeout?: number;
  idleTimeout?: number;
}

/**
 * A node attempt ran past its `timeout` (addNode's option): its
 * `runTimeout` (milliseconds from its start) or its `idleTimeout`
 * (milliseconds without progress: a write to `config.writer` or a call of
 * `config.heartbeat()`). LangGraph.js's class, with its fields and text
 * (the elapsed time in the message varies from run to run).
 */
export class NodeTimeoutError extends BaseLangGraphError {
  /** The node that timed out. */
  override node: string;
  /** Which limit it hit. */
  kind: "run" | "idle";
  /** That limit, in milliseconds. */
  timeout: number;
  /** Milliseconds the attempt ran. */
  elapsed: number;
  /** The policy's `runTimeout`. */
  runTimeout?: number;
  /** The policy's `idleTimeout`. */
  idleTimeout?: number;

  constructor(fields: NodeTimeoutFields, errorFields?: ErrorOptions) {
    const { node, elapsed, kind, runTimeout, idleTimeout } = fields;
    let message: string;
    let timeout: number;
    if (kind === "idle") {
      if (idleTimeout === undefined) throw new Error("idleTimeout is required when kind='idle'");
      timeout = idleTimeout;
      message = `Node "${node}" exceeded its idle timeout of ${idleTimeout}ms without making progress (elapsed: ${elapsed}ms).`;
    } else {
      if (runTimeout === undefined) throw new Error("runTimeout is required when kind='run'");
      timeout = runTimeout;
      message = `Node "${node}" exceeded its run timeout of ${runTimeout}ms (elapsed: ${elapsed}ms).`;
    }
    super(message, errorFields);
    this.code = "NODE_TIMEOUT";
    this.node = node;
    this.kind = kind;
    this.timeout = timeout;
    this.elapsed = elapsed;
    this.runTimeout = runTimeout;
    this.idleTimeout = idleTimeout;
  }
}
named(NodeTimeoutError, "NodeTimeoutError");

/** Whether `e` is a {@link NodeTimeoutError} (LangGraph.js's `isNodeTimeoutError`). */
export function isNodeTimeoutError(e: unknown): e is NodeTimeoutError {
  return typeof e === "object" && e !== null && (e as { name?: unknown }).name === "NodeTimeoutError";
}

/**
 * What a node's `errorHandler` is given: the node that failed and its
 * error (LangGraph.js's `NodeError`; not an `Error` itself).
 */
export class NodeError {
  /** The node that failed. */
  node: string;
  /** What it threw. */
  error: unknown;

  constructor(node: string, error: unknown) {
    this.node = node;
    this.error = error;
  }

  /** The class's name, as LangGraph.js reports it. */
  static get unminifiable_name(): string {
    return "NodeError";
  }
}

/** Whether `e` is a {@link NodeError} (LangGraph.js's `isNodeError`). */
export function isNodeError(e: unknown): e is NodeError {
  return typeof e === "object" && e !== null && (e.constructor as { unminifiable_name?: unknown } | undefined)?.unminifiable_name === "NodeError";
}

/**
 * A run that stopped at a superstep boundary because a drain was requested
 * (LangGraph.js's `GraphDrained`; `RunControl`, which requests one, is not
 * provided, so the engine never raises it).
 */
export class GraphDrained extends GraphBubbleUp {
  /** Why the run was drained. */
  reason: string;

  constructor(reason = "shutdown", fields?: ErrorOptions) {
    super(`Graph drained: ${reason}`, fields);
    this.reason = reason;
  }
}
named(GraphDrained, "GraphDrained");

/** Whether `e` is a {@link GraphDrained} (LangGraph.js's `isGraphDrained`: by name). */
export function isGraphDrained(e: unknown): e is GraphDrained {
  return e != null && (e as { name?: unknown }).name === "GraphDrained";
}

/**
 * A `Command` addressed to the graph that runs this one (`graph:
 * Command.PARENT`), bubbling up to it (LangGraph.js's `ParentCommand`).
 * The engine's own (a root graph's node returning one) is of this class
 * with the engine's text (see README.md).
 */
export class ParentCommand extends GraphBubbleUp {
  /** The command for the parent graph. */
  command: unknown;

  constructor(command?: unknown) {
    super();
    this.command = command;
  }
}
named(ParentCommand, "ParentCommand");

/** Whether `e` is a {@link ParentCommand} (LangGraph.js's `isParentCommand`: by name). */
export function isParentCommand(e: unknown): e is ParentCommand {
  return e != null && (e as { name?: unknown }).name === "ParentCommand";
}

/** Whether `e` pauses or redirects the run (LangGraph.js's `isGraphBubbleUp`: its `is_bubble_up`). */
export function isGraphBubbleUp(e: unknown): e is GraphBubbleUp {
  return e != null && (e as { is_bubble_up?: unknown }).is_bubble_up === true;
}

/** Deprecated in LangGraph.js and never thrown there either; its `name` is `MultipleSubgraphError`, as there. */
export class MultipleSubgraphsError extends BaseLangGraphError {}
named(MultipleSubgraphsError, "MultipleSubgraphError");
Object.defineProperty(MultipleSubgraphsError, "name", { value: "MultipleSubgraphsError" });

/** An error of a remote graph (LangGraph.js's `RemoteException`; there is no `RemoteGraph` here, so only user code throws it). */
export class RemoteException extends BaseLangGraphError {}
named(RemoteException, "RemoteException");

/**
 * What `new StateGraph(x)` throws for an `x` that is no state definition
 * (LangGraph.js's `StateGraphInputError`, with its fixed message).
 */
export class StateGraphInputError extends BaseLangGraphError {
  constructor(message?: string, fields?: ErrorOptions) {
    super(message, fields);
    this.message = "Invalid StateGraph input. Make sure to pass a valid StateDefinition, Annotation.Root, or Zod schema.";
  }
}
named(StateGraphInputError, "StateGraphInputError");

/** What {@link UnknownInterruptError} is built from (LangGraph.js's fields). */
export interface UnknownInterruptFields extends ErrorOptions {
  reason: "not_pending" | "empty_map" | "ambiguous";
  interruptIds?: string[];
  pendingIds?: string[];
}

/**
 * LangGraph.js's strict-resume error (a resume that matches no pending
 * interrupt). The engine has no strict resume mode, so it never raises it;
 * the class is here for code that checks for it.
 */
export class UnknownInterruptError extends BaseLangGraphError {
  /** How the resume failed to match. */
  reason: UnknownInterruptFields["reason"];
  /** The interrupt ids the resume named that are not pending. */
  interruptIds: string[];
  /** The interrupts still waiting for an answer. */
  pendingIds: string[];

  constructor(message: string | undefined, fields: UnknownInterruptFields) {
    super(message, fields);
    this.reason = fields.reason;
    this.interruptIds = fields.interruptIds ?? [];
    this.pendingIds = fields.pendingIds ?? [];
  }
}
named(UnknownInterruptError, "UnknownInterruptError");

/** Whether `e` is an {@link UnknownInterruptError} (LangGraph.js's `isUnknownInterruptError`: by name). */
export function isUnknownInterruptError(e: unknown): e is UnknownInterruptError {
  return e != null && (e as { name?: unknown }).name === "UnknownInterruptError";
}

/** LangGraph.js's mark of an error thrown for a resume value its interrupt's schema refused (the same global symbol). */
const INVALID_RESUME = Symbol.for("langgraph.invalid_resume");

/** Marks `error` as a refused resume (LangGraph.js's internal `_markInvalidResume`). */
export function _markInvalidResume(error: unknown): void {
  if (typeof error === "object" && error !== null) Object.defineProperty(error, INVALID_RESUME, { value: true });
}

/** Whether `error`, or one of its first ten `cause`s, is marked by {@link _markInvalidResume} (LangGraph.js's `isInvalidResume`). */
export function isInvalidResume(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 10; depth += 1) {
    if (typeof current !== "object" || current === null) return false;
    if ((current as Record<symbol, unknown>)[INVALID_RESUME] === true) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The process-wide set LangGraph.js's subgraph detection uses (`getSubgraphsSeenSet`: the same global). */
export function getSubgraphsSeenSet(): Set<unknown> {
  const key = Symbol.for("LG_CHECKPOINT_SEEN_NS_SET");
  const global = globalThis as Record<symbol, unknown>;
  if (global[key] === undefined) global[key] = new Set();
  return global[key] as Set<unknown>;
}

/** Where the engine's `ParentCommand` finds its command (pregel/parent_command.ts registers it). */
let engineCommand: () => unknown = () => undefined;

/** Registers where the engine's `ParentCommand`s find their command. */
export function setEngineParentCommand(source: () => unknown): void {
  engineCommand = source;
}

/**
 * The engine's `ParentCommand` (a root graph's node returned
 * `Command({ graph: Command.PARENT })`): a {@link ParentCommand} with the
 * engine's text, and the command the node returned (addressed to the graph
 * whose node runs this one, as in LangGraph.js); the bindings construct it
 * from that text.
 */
function ParentCommandOfEngine(message: string): ParentCommand {
  const error = new ParentCommand(engineCommand());
  error.message = message;
  return error;
}

/** How the engine's text shows a JS object it holds by reference (core/wasm/src/records.rs): a class instance, not JSON data. */
const HELD_OBJECT = /\{'lc': 2, 'type': 'js_ref', 'id': \d+\}/g;

/**
 * The engine's `GraphValueError`, its text naming no held reference: where
 * a message was expected and an object of some class came instead, it is
 * most likely a LangChain message instance that the package could not read
 * because `@langchain/core` is not installed where the application is, so
 * the text says which package to install.
 */
function GraphValueErrorOfEngine(message: string): GraphValueError {
  if (!message.includes("'js_ref'")) return new GraphValueError(message);
  const text = message.replace(HELD_OBJECT, "an object of a class (not a plain object)");
  return new GraphValueError(
    `${text}. If it is a LangChain message instance, install @langchain/core where the application can import it (npm install @langchain/core): without it its messages cannot be read`,
  );
}

/** The classes the bindings construct, by the error name the engine gives. */
export const ERROR_CLASSES = {
  ParentCommand: ParentCommandOfEngine,
  InvalidUpdateError,
  GraphRecursionError,
  EmptyInputError,
  GraphValueError: GraphValueErrorOfEngine,
  GraphSpecError,
  GraphInterrupt,
  ThreadBusyError,
  UnreachableNodeError,
} as const;

/**
 * LangGraph.js's plain `Error` for a graph built wrong (its text, its name
 * `Error`), with the code every error of the package carries: `INVALID_GRAPH`.
 */
export function graphError(message: string): Error & { code: string } {
  return Object.assign(new Error(message), { code: "INVALID_GRAPH" });
}

/** `error` with `code` set (the JS layer's own errors, not the engine's). */
export function withCode<E extends BaseLangGraphError>(error: E, code: string): E {
  error.code = code;
  return error;
}

/**
 * An error LangGraph.js throws as a plain `Error` (or `TypeError`,
 * `RangeError`), not a class of its own: the same class and text, with the
 * package's `code` (every error the package raises has one).
 */
export function plainError(message: string, code: string, kind: ErrorConstructor = Error): Error & { code: string } {
  return Object.assign(new kind(message), { code });
}

/** Whether `e` pauses a node: what `interrupt()` throws, or a `NodeInterrupt` (LangGraph.js's `isGraphInterrupt`). */
export function isGraphInterrupt(e: unknown): boolean {
  if (typeof e !== "object" || e === null) return false;
  const name = (e as { name?: unknown }).name;
  return name === "GraphInterrupt" || name === "NodeInterrupt";
}
