// The values of `@langchain/langgraph-checkpoint` (LangGraph.js's checkpoint
// package, an optional peer) that the savers and the re-exported names use,
// in one module, so that no module a user imports names the peer in a
// static `import`: a static import resolves from the package's real path,
// which for a linked package (`npm link`, a workspace) is outside the
// application, and vite/vitest then refuse to load `chronograph/langgraph`
// at all ("Could not resolve @langchain/langgraph-checkpoint imported by
// chronograph"). The peer is looked up once, by the top-level await of
// internal/peers.ts (`checkpointPeer`): from the application first, then
// beside the package.
//
// Why a value resolved at import rather than a class built on first use
// or a Proxy: `class SqliteSaver extends BaseCheckpointSaver` must extend
// the application's own `BaseCheckpointSaver`, so that `saver instanceof
// BaseCheckpointSaver` holds in LangGraph.js (and in its validation suite),
// and `SqliteSaver` must stay one class, exported under its name, that
// `instanceof` and subclasses can name before any saver exists. A base
// resolved before the class is evaluated gives both, with the savers'
// source unchanged but for this import. Without the peer each base is a
// stand-in whose construction fails naming the package to install; the
// module still loads, so `chronograph/langgraph` can be imported (and its
// types used) by an application that has not installed it.
import type * as Checkpoints from "@langchain/langgraph-checkpoint";
import { checkpointPeer } from "../internal/peers.js";
import { unsupported } from "../graph/unsupported.js";
import { peerStandIn } from "../internal/seam.js";

const peer = checkpointPeer as Partial<typeof Checkpoints> | undefined;

/** The error of a name that needs the peer when it is not installed. */
export function needsPeer(name: string): Error {
  return unsupported(
    `${name} without @langchain/langgraph-checkpoint`,
    "install @langchain/langgraph-checkpoint (npm install @langchain/langgraph-checkpoint), LangGraph.js's checkpoint package, whose class this is",
  );
}

/** A class of the peer, else one whose construction fails naming it. */
export function peerClass<C>(name: string): C {
  const cls = (checkpointPeer as Record<string, unknown> | undefined)?.[name];
  if (typeof cls === "function") return cls as C;
  const missing = {
    [name]: class {
      constructor() {
        throw needsPeer(name);
      }
    },
  }[name]!;
  return peerStandIn<C>(missing);
}

/** A function of the peer, else one that fails naming it. */
export function peerFunction<F>(name: string): F {
  const fn = (checkpointPeer as Record<string, unknown> | undefined)?.[name];
  if (typeof fn === "function") return fn as F;
  return (() => {
    throw needsPeer(name);
  }) as F;
}

/** LangGraph.js's base class of checkpointers (the application's copy): what `MemorySaver` and `SqliteSaver` extend. */
export const BaseCheckpointSaver: typeof Checkpoints.BaseCheckpointSaver = peerClass("BaseCheckpointSaver");
/** LangGraph.js's base class of checkpointers. */
export type BaseCheckpointSaver<V extends string | number = number> = Checkpoints.BaseCheckpointSaver<V>;

/** LangGraph.js's default serializer (the savers compare their `serde` with it). */
export const JsonPlusSerializer: typeof Checkpoints.JsonPlusSerializer = peerClass("JsonPlusSerializer");

/** The channel of a checkpoint's pending sends (LangGraph.js's `TASKS`: a constant, so one without the peer too). */
export const TASKS: typeof Checkpoints.TASKS = peer?.TASKS ?? "__pregel_tasks";

/** The fixed write indexes of the special channels (LangGraph.js's `WRITES_IDX_MAP`; its values without the peer). */
export const WRITES_IDX_MAP: typeof Checkpoints.WRITES_IDX_MAP = peer?.WRITES_IDX_MAP ?? { __error__: -1, __scheduled__: -2, __interrupt__: -3, __resume__: -4 };

/** The checkpoint id of a config (LangGraph.js's `getCheckpointId`). */
export const getCheckpointId: typeof Checkpoints.getCheckpointId = peerFunction("getCheckpointId");

/** The greatest of channel versions (LangGraph.js's `maxChannelVersion`). */
export const maxChannelVersion: typeof Checkpoints.maxChannelVersion = peerFunction("maxChannelVersion");
