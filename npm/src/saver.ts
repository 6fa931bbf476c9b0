// LangGraph.js's in-memory checkpointer over the engine's saver
// (core/wasm/src/saver.rs). Its writes of a thread take turns with that
// thread's runs and updates (runtime.ts `onThread`).
import * as raw from "./wasm/chronograph.js";
import { hide } from "./args.js";
import { RAW } from "./internal.js";
import { listed } from "./lazy.js";
import { laneOptions, onThread, threadKey } from "./runtime.js";
import type {
  Checkpoint,
  CheckpointConfig,
  CheckpointMetadata,
  CheckpointTuple,
  Json,
  ListOptions,
  RunnableConfig,
  ThreadExport,
} from "./types.js";

/**
 * LangGraph.js's in-memory checkpointer. Share one between graphs, or use
 * it alone: `getTuple`, `list`, `put`, `putWrites`, `deleteThread`, and
 * `exportThread` / `importThread` (format `chronograph.thread.v1`). Its
 * writes of a thread wait for the runs and updates of that thread in
 * flight, like any run or update does.
 */
export class MemorySaver {
  /** @internal */
  declare readonly [RAW]: raw.WasmMemorySaver;

  constructor() {
    hide(this, RAW, new raw.WasmMemorySaver());
  }

  /** The addressed checkpoint, or the thread's newest; `undefined` when there is none. */
  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this[RAW].getTuple(config);
  }

  /** The addressed checkpoint (or the thread's newest) itself, without its metadata and writes; `undefined` when there is none (LangGraph.js's `BaseCheckpointSaver.get`). */
  async get(config: RunnableConfig): Promise<Checkpoint | undefined> {
    return (await this.getTuple(config))?.checkpoint;
  }

  /** Checkpoints newest first: `{ limit, before, filter }`; without a `thread_id`, every thread. */
  async *list(config?: RunnableConfig, options?: ListOptions): AsyncIterableIterator<CheckpointTuple> {
    yield* listed<CheckpointTuple>(this[RAW].list(config, options), "channel_values", (t) => t.checkpoint, true);
  }

  /**
   * Stores `checkpoint` under `config`'s checkpoint (its parent); resolves
   * to its config. Like every write of a thread, it waits for the runs and
   * updates of the thread in flight.
   */
  put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: Omit<CheckpointMetadata, "thread_id"> & { thread_id?: string },
    newVersions?: { [channel: string]: string },
  ): Promise<CheckpointConfig> {
    return this.#write(laneOptions(config).thread, "put(config, checkpoint, metadata, newVersions)", () =>
      this[RAW].put(config, checkpoint, metadata, newVersions ?? {}),
    );
  }

  /** Stores a task's writes (`[channel, value][]`) against `config`'s checkpoint. */
  putWrites(config: RunnableConfig, writes: [string, Json][], taskId: string): Promise<void> {
    return this.#write(laneOptions(config).thread, "putWrites(config, writes, taskId)", () => {
      this[RAW].putWrites(config, writes, taskId, "");
    });
  }

  /** Forgets a thread. */
  deleteThread(threadId: string): Promise<void> {
    return this.#write(threadKey(threadId), "deleteThread(threadId)", () => {
      this[RAW].deleteThread(threadId);
    });
  }

  /** Everything stored for a thread, branches and pending writes included; `undefined` if unknown. */
  async exportThread(threadId: string): Promise<ThreadExport | undefined> {
    return this[RAW].exportThread(threadId);
  }

  /** Loads a thread written by `exportThread`, replacing a thread of the same id. */
  importThread(data: ThreadExport): Promise<void> {
    let thread: string | undefined;
    try {
      thread = threadKey((data as { thread_id?: unknown } | null)?.thread_id);
    } catch {
      thread = undefined;
    }
    return this.#write(thread, "importThread(data)", () => {
      this[RAW].importThread(data);
    });
  }

  /** Runs the synchronous write `op` on `thread`'s queue (`onThread`); resolves to its result. */
  #write<T>(thread: string | undefined, what: string, op: () => T): Promise<T> {
    return onThread(this, thread, undefined, what, async () => op());
  }

  /** Ids of every stored thread, sorted. */
  async threadIds(): Promise<string[]> {
    return this[RAW].threadIds();
  }
}

/** LangGraph.js's other name for {@link MemorySaver}. */
export { MemorySaver as InMemorySaver };
