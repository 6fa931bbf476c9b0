// The names LangGraph.js's main entry re-exports from
// `@langchain/langgraph-checkpoint` (`BaseCheckpointSaver`, `BaseStore`,
// `AsyncBatchedStore`, `emptyCheckpoint`, `copyCheckpoint`): that package's
// own, when it is installed (an optional peer, looked up once at import,
// internal/peers.ts), so a saver written as `class MySaver extends
// BaseCheckpointSaver` is a LangGraph.js saver, which `compile({
// checkpointer })` runs through the saver bridge (checkpoint/saver_bridge.ts). Without the
// peer each fails with a `GraphValueError` of code `UNSUPPORTED` naming it.
// The types are the package's own (structural: the declarations must not
// need the peer).
import { checkpointPeer } from "../internal/peers.js";
import type { AsyncCheckpointSaver } from "./saver_bridge.js";
import type { BaseStore as StoreApi } from "./store.js";
import type { Checkpoint } from "../pregel/types.js";
import { unsupported } from "../graph/unsupported.js";

/** A LangGraph.js `RunnableConfig`, as far as savers read it. */
type SaverConfig = Parameters<AsyncCheckpointSaver["getTuple"]>[0];

/** What LangGraph.js's `BaseCheckpointSaver` has: the methods a checkpointer needs (checkpoint/saver_bridge.ts), `get`, `serde`, `getNextVersion`. */
export interface CheckpointSaverApi extends AsyncCheckpointSaver {
  serde: unknown;
  get(config: SaverConfig): Promise<Parameters<AsyncCheckpointSaver["put"]>[1] | undefined>;
  deleteThread(threadId: string): Promise<void>;
  getNextVersion(current: number | string | undefined): number | string;
}

/** Names one export that needs the peer: it fails with `UNSUPPORTED` without it. */
function needsPeer(name: string): Error {
  return unsupported(`${name} without @langchain/langgraph-checkpoint`, "install @langchain/langgraph-checkpoint (LangGraph.js's checkpoint package), whose class this is");
}

/** A class of the peer, else one whose construction fails naming it. */
function peerClass<C>(name: string): C {
  const cls = checkpointPeer?.[name];
  if (typeof cls === "function") return cls as C;
  const missing = {
    [name]: class {
      constructor() {
        throw needsPeer(name);
      }
    },
  }[name]!;
  return missing as unknown as C;
}

/** A function of the peer, else one that fails naming it. */
function peerFunction<F>(name: string): F {
  const fn = checkpointPeer?.[name];
  if (typeof fn === "function") return fn as F;
  return (() => {
    throw needsPeer(name);
  }) as unknown as F;
}

/** LangGraph.js's base class of checkpointers (`@langchain/langgraph-checkpoint`'s): extend it to write a saver. */
export const BaseCheckpointSaver: abstract new (serde?: unknown) => CheckpointSaverApi = peerClass("BaseCheckpointSaver");
/** LangGraph.js's base class of checkpointers. */
export type BaseCheckpointSaver = CheckpointSaverApi;

/** LangGraph.js's base class of long-term stores (`@langchain/langgraph-checkpoint`'s): extend it and write `batch`. */
export const BaseStore: abstract new () => StoreApi = peerClass("BaseStore");
/** LangGraph.js's long-term store API. */
export type BaseStore = StoreApi;

/** LangGraph.js's store that batches the operations of one tick into one `batch` call of the store it wraps. */
export const AsyncBatchedStore: new (store: StoreApi) => StoreApi & { isRunning: boolean } = peerClass("AsyncBatchedStore");
/** LangGraph.js's batching store wrapper. */
export type AsyncBatchedStore = StoreApi & { isRunning: boolean };

/** A new empty checkpoint (LangGraph.js's `emptyCheckpoint`: `v: 4`, a fresh id and timestamp). */
export const emptyCheckpoint: () => Checkpoint = peerFunction("emptyCheckpoint");

/** A copy of `checkpoint` whose maps can be changed without changing it (LangGraph.js's `copyCheckpoint`). */
export const copyCheckpoint: (checkpoint: Checkpoint) => Checkpoint = peerFunction("copyCheckpoint");
