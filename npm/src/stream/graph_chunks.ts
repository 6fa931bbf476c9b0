// What a compiled graph's `stream()` makes of the engine's chunks before
// the caller sees them: the modes it was asked for, the chunk's shape
// (`chunk`, `[mode, chunk]`, `[namespace, chunk]`, `[namespace, mode,
// chunk]`), the "messages" chunks read from the "debug" and "updates" ones
// (messages_of_nodes.ts), the "custom" chunks the nodes' writers send, and
// the task metadata LangGraph.js adds to task chunks.
import { argumentError, flag, isArray, isRecord, option, thrownText } from "../internal/args.js";
import { INTERRUPT } from "../constants.js";
import type { NodeMessages } from "./messages_of_nodes.js";
import type { MessageChannels } from "../langchain/message_classes.js";
import type { StreamMode } from "../pregel/types.js";

/** The longest `streamMode` list read (there are 8 modes; repeats are allowed, as in LangGraph.js). */
const MAX_STREAM_MODES = 1024;

/**
 * A `streamMode` array copied into a plain one before anything reads it (a
 * Proxy whose traps throw, or a sparse array of 2**31 holes, is refused
 * here with INVALID_ARGUMENT); a single mode as given (the bindings check
 * the names).
 */
function ownModes(modes: unknown): unknown {
  if (!isArray(modes)) return modes;
  let list: unknown[];
  try {
    const length = (modes as unknown[]).length;
    if (length > MAX_STREAM_MODES) throw argumentError(`stream(input, config, options): streamMode lists ${length} modes; at most ${MAX_STREAM_MODES}`);
    list = Array.from(modes as unknown[]);
  } catch (e) {
    if (e instanceof TypeError && (e as { code?: unknown }).code === "INVALID_ARGUMENT") throw e;
    throw argumentError(`stream(input, config, options): streamMode: reading it threw ${thrownText(e)}`, e);
  }
  return list;
}

/** What a `stream()` call asks for. */
export interface StreamRequest {
  /** `streamMode` as given (one mode, or a copied array). */
  modes: unknown;
  /** The modes as a list. */
  list: unknown[];
  /** Several modes: chunks are tagged with theirs. */
  tagged: boolean;
  /** `subgraphs: true`: chunks carry their namespace. */
  subgraphs: boolean;
}

/** `streamMode` and `subgraphs`, from `options`, else `config`, else the graph's own `streamMode`, else `"updates"`. */
export function streamRequest(config: unknown, options: unknown, graphModes: StreamMode[] | undefined): StreamRequest {
  const modes = ownModes(
    option(options, "streamMode", "stream(input, config, options): options") ??
      option(config, "streamMode", "stream(input, config): config") ??
      graphModes?.[0] ??
      "updates",
  );
  const subgraphs = flag(
    option(options, "subgraphs", "stream(input, config, options): options") ?? option(config, "subgraphs", "stream(input, config): config"),
    "stream(input, config, options): subgraphs",
  );
  const tagged = isArray(modes);
  return { modes, list: (tagged ? modes : [modes]) as unknown[], tagged, subgraphs };
}

/** Where a chunk goes: `(mode, chunk, namespace)`. */
export type Emit = (mode: string, c: unknown, ns: string[]) => void;

/** The caller's chunk shape for `request`: `chunk`, `[mode, chunk]`, `[namespace, chunk]` or `[namespace, mode, chunk]`. */
export function emitterOf(push: (c: unknown) => void, { subgraphs, tagged }: StreamRequest): Emit {
  if (subgraphs) return tagged ? (mode, c, ns) => push([ns, mode, c]) : (_mode, c, ns) => push([ns, c]);
  return tagged ? (mode, c) => push([mode, c]) : (_mode, c) => push(c);
}

/**
 * LangGraph.js's root loop reports a breakpoint's `{ __interrupt__: [] }`
 * in the deepest namespace of the run config's `checkpoint_map` when it
 * streams subgraphs (`#interruptStreamNamespace`: a run started from a
 * subgraph's checkpoint config pauses "there"); `undefined` when the
 * config has no such map.
 */
export function deepestMapNamespace(config: unknown): string[] | undefined {
  let map: unknown;
  try {
    map = (config as { configurable?: { checkpoint_map?: unknown } } | undefined)?.configurable?.checkpoint_map;
  } catch {
    return undefined;
  }
  if (!isRecord(map)) return undefined;
  let deepest = "";
  for (const key of Object.keys(map)) if (key !== "" && key.length > deepest.length) deepest = key;
  return deepest === "" ? undefined : deepest.split("|");
}

/** Whether `c` is a breakpoint's chunk, `{ __interrupt__: [] }`. */
function isBreakpointChunk(c: unknown): boolean {
  return isRecord(c) && isArray(c[INTERRUPT]) && (c[INTERRUPT] as unknown[]).length === 0 && Object.keys(c).length === 1;
}

/** A task-start chunk (`"tasks"`, or a `"debug"` one of type `task`) with its `metadata`. */
function withTaskMetadata(mode: string, c: unknown, metadata: Record<string, unknown>, nodes: ReadonlyMap<string, Record<string, unknown>> | undefined, ns: string[] | undefined): unknown {
  // A root node's own metadata follows (LangGraph.js's `proc.metadata`).
  const own = (name: unknown) => (!ns?.length && typeof name === "string" ? nodes?.get(name) : undefined);
  if (mode === "tasks" && isRecord(c) && "triggers" in c) c.metadata = { ...metadata, ...own(c.name) };
  else if (mode === "debug" && isRecord(c) && c.type === "task" && isRecord(c.payload)) c.payload.metadata = { ...metadata, ...own(c.payload.name) };
  return c;
}

/** What the chunks of one `stream()` run pass through on their way to the caller. */
export interface ChunkRoute {
  /** The caller's chunk shape. */
  emit: Emit;
  /** The run's "messages" chunks, when asked for. */
  messages: NodeMessages | undefined;
  /** Modes the engine streams for `messages` only ("debug", "updates"), dropped after it read them. */
  internal: string[];
  /** The namespace a root breakpoint's chunk is reported in (see `deepestMapNamespace`). */
  breakpointNs: string[] | undefined;
  /** A `Pregel`'s hook on each chunk (see `CHUNK`). */
  adapt: ((mode: string, chunk: unknown) => unknown) | undefined;
  /** The state's message channels, shown as LangChain instances. */
  shown: MessageChannels | undefined;
  /** The run's task metadata (`taskMetadataOf`). */
  taskMetadata: Record<string, unknown>;
  /** The root graph's nodes' own metadata. */
  nodeMetadata: ReadonlyMap<string, Record<string, unknown>> | undefined;
}

/** Delivers one chunk of the run along `route` to the caller. */
export function deliverer(route: ChunkRoute): Emit {
  const { emit, messages, internal, breakpointNs, adapt, shown, taskMetadata, nodeMetadata } = route;
  return (mode, c, ns) => {
    if (breakpointNs !== undefined && ns.length === 0 && isBreakpointChunk(c)) ns = breakpointNs;
    if (messages !== undefined) {
      if (mode === "debug") messages.debug(c, ns);
      else if (mode === "updates") messages.update(c, ns);
      if (internal.includes(mode)) return;
    }
    if (adapt !== undefined) c = adapt(mode, c);
    let out = shown?.chunk(mode, c, ns) ?? c;
    if (messages !== undefined) out = messages.returned(mode, out);
    emit(mode, withTaskMetadata(mode, out, taskMetadata, nodeMetadata, ns), ns);
  };
}

/**
 * What the engine streams, delivered: its "custom" chunks are tokens of the
 * chunks kept in `customs` (a subgraph's node writes among its subgraph's
 * events: see `customWriter`).
 */
export function engineChunks(deliver: Emit, customs: Map<number, unknown>): Emit {
  return (mode, c, ns) => {
    if (mode !== "custom") return deliver(mode, c, ns);
    const value = customs.get(c as number);
    customs.delete(c as number);
    deliver(mode, value, ns);
  };
}
