// Channel versions renumbered for a copy (migrate.ts): LangGraph.js's own
// savers number versions per branch (`getNextVersion` is `current + 1`), so
// after a replay or an `updateState` fork two branches of one thread give
// one channel version two values. A saver that keys values by version (the
// compact savers) cannot hold both, so the copy of such a thread gives each
// (version, value) its own number. The loop only compares versions (a node
// runs when a channel's version is above the one it saw), so the new
// numbers keep every comparison a checkpoint makes: version v becomes
// v * spread + k, k counting v's values on its channel in order of first
// appearance, and a seen version equal to the channel's current one
// becomes that one's new number (else v * spread).
import type { Checkpoint, CheckpointTuple } from "@langchain/langgraph-checkpoint";

/** A tuple's `thread|ns` (a version's scope: each namespace of a thread numbers its own). */
const scopeOf = (t: CheckpointTuple) => `${t.config.configurable?.thread_id}|${t.config.configurable?.checkpoint_ns ?? ""}`;

/**
 * How the copy renumbers: the threads renumbered, and each tuple's
 * checkpoint as it is put (the tuple's own when its thread keeps its
 * numbers).
 */
export interface Renumbering {
  /** Threads whose versions got new numbers. */
  threads: string[];
  /** The checkpoint to put for `t`, and to compare the copy's read-back with. */
  checkpointOf(t: CheckpointTuple): Checkpoint;
}

/**
 * The renumbering of `tuples` (every checkpoint of the threads copied,
 * oldest first): none for a thread whose versions each have one value.
 * `parentOf` finds a tuple's parent among them; `text` gives a value's
 * comparable text (migrate.ts `canonical`), computed only where a
 * checkpoint put a version anew (a version its parent has is the parent's
 * value). Throws when a thread to renumber has a version that is not an
 * integer.
 */
export function renumbering(
  tuples: CheckpointTuple[],
  parentOf: (t: CheckpointTuple) => CheckpointTuple | undefined,
  text: (value: unknown) => string,
): Renumbering {
  // Per `scope\0channel\0version`: the texts of its values, in order of first appearance.
  const values = new Map<string, string[]>();
  const keyOf = new Map<CheckpointTuple, Map<string, number>>();
  const spread = new Map<string, number>();
  for (const t of tuples) {
    const scope = scopeOf(t);
    const parent = parentOf(t);
    const before = parent?.checkpoint.channel_versions ?? {};
    const variants = new Map<string, number>();
    for (const [channel, version] of Object.entries(t.checkpoint.channel_versions ?? {})) {
      const inherited = parent === undefined || before[channel] !== version ? undefined : keyOf.get(parent)?.get(channel);
      if (inherited !== undefined) {
        variants.set(channel, inherited);
        continue;
      }
      const key = `${scope}\u0000${channel}\u0000${version}`;
      const seen = values.get(key) ?? [];
      // A channel with a version and no value is stored as empty, apart from one holding null.
      const stored = t.checkpoint.channel_values ?? {};
      const value = Object.prototype.hasOwnProperty.call(stored, channel) ? text(stored[channel]) : "";
      let k = seen.indexOf(value);
      if (k < 0) k = seen.push(value) - 1;
      values.set(key, seen);
      variants.set(channel, k);
      const thread = String(t.config.configurable?.thread_id);
      spread.set(thread, Math.max(spread.get(thread) ?? 1, k + 1));
    }
    keyOf.set(t, variants);
  }
  const threads = [...spread].filter(([, n]) => n > 1).map(([thread]) => thread);
  const renumbered = new Set(threads);
  return {
    threads,
    checkpointOf(t) {
      const thread = String(t.config.configurable?.thread_id);
      if (!renumbered.has(thread)) return t.checkpoint;
      const n = spread.get(thread)!;
      const variants = keyOf.get(t)!;
      const old = t.checkpoint.channel_versions ?? {};
      const channel_versions: Record<string, number> = {};
      for (const [channel, v] of Object.entries(old)) channel_versions[channel] = integer(v, t) * n + variants.get(channel)!;
      const versions_seen: Record<string, Record<string, number>> = {};
      for (const [node, seen] of Object.entries(t.checkpoint.versions_seen ?? {})) {
        versions_seen[node] = {};
        for (const [channel, s] of Object.entries(seen)) {
          versions_seen[node][channel] = s === old[channel] ? channel_versions[channel]! : integer(s, t) * n;
        }
      }
      return { ...t.checkpoint, channel_versions, versions_seen };
    },
  };
}

/** A version as the integer it must be to be renumbered. */
function integer(v: unknown, t: CheckpointTuple): number {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  throw new Error(
    `thread ${t.config.configurable?.thread_id} gives one channel version two values and has a version that is not an integer (${JSON.stringify(v)}): ` +
      "it cannot be renumbered; nothing was copied. Copy the other threads with --thread.",
  );
}
