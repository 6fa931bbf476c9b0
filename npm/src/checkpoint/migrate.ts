// The copy behind `chronograph-migrate` (npm/migrate.mjs): threads from one
// LangGraph.js checkpointer into another, through `BaseCheckpointSaver`'s
// public API alone, so it works between any two savers: LangGraph.js's
// SqliteSaver or PostgresSaver and chronograph/langgraph's compact ones, in
// either direction. Each checkpoint is put as it was (its config, metadata
// and channel versions), oldest first so a parent is stored before its
// children (the compact savers store a list that extends its parent's as a
// delta), with its pending writes; then every tuple is read back from the
// target and compared with the source's. A thread whose replays or forks
// gave one channel version two values (LangGraph.js's savers number
// versions per branch) is copied with its versions renumbered
// (migrate_versions.ts), each tuple compared with the source's under the
// new numbers.
import type { BaseCheckpointSaver, ChannelVersions, Checkpoint, CheckpointMetadata, CheckpointTuple, PendingWrite } from "@langchain/langgraph-checkpoint";
import { WRITES_IDX_MAP } from "./checkpoint_peer.js";
import { renumbering, type Renumbering } from "./migrate_versions.js";

/** What a copy did, and what did not read back equal. */
export interface CopyReport {
  /** Threads copied. */
  threads: string[];
  /** Checkpoints copied (every namespace). */
  checkpoints: number;
  /** Pending writes copied. */
  writes: number;
  /** Threads whose channel versions were renumbered (one version had two values in the source). */
  renumbered: string[];
  /** Tuples that read back different from the source: `thread|ns|id` and where they differ. */
  mismatches: { checkpoint: string; where: string }[];
}

/** The tuples of `threadIds` (every thread when absent), oldest first. */
async function sourceTuples(from: BaseCheckpointSaver, threadIds: string[] | undefined): Promise<CheckpointTuple[]> {
  const all: CheckpointTuple[] = [];
  const configs = threadIds === undefined ? [{}] : threadIds.map((thread_id) => ({ configurable: { thread_id } }));
  for (const config of configs) for await (const t of from.list(config)) all.push(t);
  // Checkpoint ids are UUIDv6: their order is their creation order.
  return all.sort((a, b) => (a.checkpoint.id < b.checkpoint.id ? -1 : a.checkpoint.id > b.checkpoint.id ? 1 : 0));
}

/** `thread|ns|id` of a tuple's checkpoint, or of another checkpoint (`id`) of its namespace. */
const label = (t: CheckpointTuple, id: unknown = t.checkpoint.id) => `${t.config.configurable?.thread_id}|${t.config.configurable?.checkpoint_ns ?? ""}|${id}`;

/** A tuple's address as its saver keys it. */
const addressOf = (t: CheckpointTuple) => ({
  configurable: { thread_id: t.config.configurable?.thread_id, checkpoint_ns: t.config.configurable?.checkpoint_ns ?? "", checkpoint_id: t.checkpoint.id },
});

/**
 * The channel versions a checkpoint put anew, as LangGraph's loop passes
 * them to `put`: those that differ from its parent's (every one without a
 * parent in the source). A version its parent has is stored already, and
 * putting it again could place it differently (whole rather than as a
 * delta) than the first time.
 */
function newVersions(t: Checkpoint, parent: Checkpoint | undefined): ChannelVersions {
  const before = parent?.channel_versions ?? {};
  return Object.fromEntries(Object.entries(t.channel_versions ?? {}).filter(([c, v]) => before[c] !== v));
}

/**
 * Puts one tuple into `to`: its checkpoint as `numbers` gives it, under its
 * parent, with its new channel versions, then each task's writes as
 * LangGraph's loop puts them (special writes, such as interrupts and
 * errors, apart from regular ones, so each keeps its index).
 */
async function putTuple(to: BaseCheckpointSaver, t: CheckpointTuple, parentTuple: CheckpointTuple | undefined, numbers: Renumbering): Promise<number> {
  const { thread_id, checkpoint_ns = "" } = t.config.configurable ?? {};
  const parent = t.parentConfig?.configurable?.checkpoint_id;
  const config = { configurable: { thread_id, checkpoint_ns, ...(parent === undefined ? {} : { checkpoint_id: parent }) } };
  const checkpoint = numbers.checkpointOf(t);
  const fresh = newVersions(checkpoint, parentTuple === undefined ? undefined : numbers.checkpointOf(parentTuple));
  const stored = await to.put(config, checkpoint, t.metadata ?? ({} as CheckpointMetadata), fresh);
  const byTask = new Map<string, { special: PendingWrite[]; regular: PendingWrite[] }>();
  for (const [task, channel, value] of t.pendingWrites ?? []) {
    const entry = byTask.get(task) ?? { special: [], regular: [] };
    (channel in WRITES_IDX_MAP ? entry.special : entry.regular).push([channel, value]);
    byTask.set(task, entry);
  }
  for (const [task, { special, regular }] of byTask) {
    if (special.length > 0) await to.putWrites(stored, special, task);
    if (regular.length > 0) await to.putWrites(stored, regular, task);
  }
  return t.pendingWrites?.length ?? 0;
}

/** A lookup of each tuple's parent among `tuples` (`undefined`: none, or not among them). */
function parents(tuples: CheckpointTuple[]): (t: CheckpointTuple) => CheckpointTuple | undefined {
  const byAddress = new Map(tuples.map((t) => [label(t), t]));
  return (t) => {
    const parentId = t.parentConfig?.configurable?.checkpoint_id;
    return parentId === undefined ? undefined : byAddress.get(label(t, parentId));
  };
}

/** JSON text with object keys sorted and class instances as their JSON, so two savers' tuples compare. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_, x: unknown) =>
    x !== null && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );
}

/**
 * A tuple as compared after a copy: its config, parent, metadata,
 * checkpoint with the values of the channels that have a version (a
 * channel without one is empty to a graph: LangGraph.js's SqliteSaver also
 * keeps the empty value of some, which no saver need copy), and its
 * pending writes in a stable order (savers order them by task id or by
 * insertion).
 */
export function comparable(t: CheckpointTuple): Record<string, string> {
  const { channel_values, ...checkpoint } = t.checkpoint;
  const versioned = Object.fromEntries(Object.entries(channel_values ?? {}).filter(([c]) => c in (t.checkpoint.channel_versions ?? {})));
  const writes = (t.pendingWrites ?? []).map((w) => canonical(w)).sort();
  return {
    config: canonical(addressOf(t)),
    parentConfig: canonical(t.parentConfig?.configurable?.checkpoint_id ?? null),
    checkpoint: canonical(checkpoint),
    channel_values: canonical(versioned),
    metadata: canonical(t.metadata ?? {}),
    pendingWrites: canonical(writes),
  };
}

/** The fields where two tuples differ (empty when they read back equal). */
export function differences(a: CheckpointTuple, b: CheckpointTuple | undefined): string[] {
  if (b === undefined) return ["missing"];
  const x = comparable(a);
  const y = comparable(b);
  return Object.keys(x).filter((k) => x[k] !== y[k]);
}

/**
 * Copies `threadIds` (every thread when absent) from `from` into `to`,
 * then reads every copied tuple back from `to` and compares it with the
 * source's (under the new numbers of a thread whose versions were
 * renumbered: see migrate_versions.ts). A thread `to` already has is
 * refused before anything is written (a copy never merges into an
 * existing thread).
 */
export async function copyThreads(from: BaseCheckpointSaver, to: BaseCheckpointSaver, threadIds?: string[]): Promise<CopyReport> {
  const tuples = await sourceTuples(from, threadIds);
  const threads = [...new Set(tuples.map((t) => String(t.config.configurable?.thread_id)))];
  const parentOf = parents(tuples);
  const numbers = renumbering(tuples, parentOf, canonical);
  for (const thread_id of threads) {
    for await (const _ of to.list({ configurable: { thread_id } }, { limit: 1 })) {
      throw new Error(`the target already has thread ${JSON.stringify(thread_id)}: nothing was copied (delete it there first, or copy into an empty database)`);
    }
  }
  const report: CopyReport = { threads, checkpoints: 0, writes: 0, renumbered: numbers.threads, mismatches: [] };
  // Before anything is written: a thread that cannot be renumbered throws here.
  const checkpoints = new Map(tuples.map((t) => [t, numbers.checkpointOf(t)]));
  for (const t of tuples) {
    report.writes += await putTuple(to, t, parentOf(t), numbers);
    report.checkpoints += 1;
  }
  for (const t of tuples) {
    const where = differences({ ...t, checkpoint: checkpoints.get(t)! }, await to.getTuple(addressOf(t)));
    if (where.length > 0) report.mismatches.push({ checkpoint: label(t), where: where.join(", ") });
  }
  return report;
}
