// The names LangGraph.js's main entry re-exports from
// `@langchain/langgraph-checkpoint` (`BaseCheckpointSaver`, `BaseStore`,
// `AsyncBatchedStore`, `emptyCheckpoint`, `copyCheckpoint`): that package's
// own, when it is installed (an optional peer, looked up once at import,
// checkpoint/checkpoint_peer.ts), so a saver written as `class MySaver extends
// BaseCheckpointSaver` is a LangGraph.js saver, which `compile({
// checkpointer })` runs through the saver bridge (checkpoint/saver_bridge.ts). Without the
// peer each fails with a `GraphValueError` of code `UNSUPPORTED` naming it.
// The types are the package's own (structural: the declarations must not
// need the peer).
import type { AsyncCheckpointSaver } from "./saver_bridge.js";
import type { BaseStore as StoreApi } from "./store.js";
import type { Checkpoint } from "../pregel/types.js";
import { peerClass, peerFunction } from "./checkpoint_peer.js";

/** A LangGraph.js `RunnableConfig`, as far as savers read it. */
type SaverConfig = Parameters<AsyncCheckpointSaver["getTuple"]>[0];

/** What LangGraph.js's `BaseCheckpointSaver` has: the methods a checkpointer needs (checkpoint/saver_bridge.ts), `get`, `serde`, `getNextVersion`. */
export interface CheckpointSaverApi extends AsyncCheckpointSaver {
  serde: unknown;
  get(config: SaverConfig): Promise<Parameters<AsyncCheckpointSaver["put"]>[1] | undefined>;
  deleteThread(threadId: string): Promise<void>;
  getNextVersion(current: number | string | undefined): number | string;
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
