// Retention for the compact savers (compact_saver.ts: SqliteSaver and
// PostgresSaver): `prune` keeps, per thread, the latest checkpoint, the
// last N, HEAD's lineage, or those newer than an age, and forgets the rest.
//
// The choice of what stays is the engine's (`planPrune`, from
// `chronograph::plan_prune`: every namespace keeps its latest checkpoint, a
// subgraph namespace goes with the checkpoint that ran it), the same one the
// app's storage view previews. This file turns that choice into rows: the
// checkpoints and writes to delete, the channel versions no kept checkpoint
// references, and the kept versions stored as a delta over a version that
// goes (they are rewritten whole, so every kept tuple reads back as before).
import type { CheckpointMetadata } from "@langchain/langgraph-checkpoint";
import * as raw from "../wasm/chronograph.js";
import { DELTA } from "./compact_rows.js";
import { argumentError } from "./saver_errors.js";

/** What a prune keeps in each namespace of a thread, besides its latest checkpoint. */
export type PruneKeep = "latest" | "lineage" | { last: number } | { newerThan: number };

/** `prune`'s options. */
export interface PruneOptions {
  /** The threads to prune; every thread of the database when absent. */
  threadIds?: string[];
  /**
   * What stays per namespace (its latest checkpoint always does):
   * `"latest"`, `"lineage"` (HEAD and its ancestors: branches left by
   * replays and forks go), `{ last: N }` (the N newest), or
   * `{ newerThan: ms }` (a TTL: those created less than `ms` milliseconds
   * ago). Default `"latest"`.
   */
  keep?: PruneKeep;
  /** LangGraph (Python)'s spelling of `keep: "latest"`; the only strategy it names. */
  strategy?: "keep_latest";
  /**
   * Whether to return the freed space to the operating system afterwards:
   * SQLite runs `VACUUM` (default `true`), PostgreSQL `VACUUM FULL` on the
   * saver's tables (default `false`: autovacuum lets PostgreSQL reuse the
   * space without the exclusive lock `VACUUM FULL` takes).
   */
  vacuum?: boolean;
}

/** What a prune did. */
export interface PruneResult {
  /** Threads looked at. */
  threads: number;
  /** Checkpoints deleted (every namespace), with their pending writes. */
  dropped: number;
  /** Checkpoints kept. */
  kept: number;
  /** Channel versions deleted. */
  versionsDropped: number;
  /** Kept channel versions rewritten whole because the version they extended went. */
  rebased: number;
  /** The database's size before and after (SQLite: its pages; PostgreSQL: the tables with their indexes and TOAST). */
  bytesBefore: number;
  /** See `bytesBefore`. */
  bytesAfter: number;
}

/** The engine's retention for `options` (`keep` or LangGraph's `strategy`). */
export function retentionOf(options: PruneOptions): raw.RetentionIn {
  if (options.strategy !== undefined && options.strategy !== "keep_latest") {
    throw argumentError(`prune({ strategy }): only "keep_latest" is a strategy (got ${JSON.stringify(options.strategy)}); use keep for the others`);
  }
  const keep = options.keep ?? "latest";
  if (keep === "latest" || keep === "lineage") return { keep };
  if (typeof keep === "object" && keep !== null) {
    if ("last" in keep && Number.isInteger(keep.last) && keep.last >= 1) return { keep: "last", n: keep.last };
    if ("newerThan" in keep && Number.isFinite(keep.newerThan) && keep.newerThan >= 0) return { keep: "newerThan", sinceMs: Math.floor(Date.now() - keep.newerThan) };
  }
  throw argumentError(`prune({ keep }): keep is "latest", "lineage", { last: N } (N >= 1) or { newerThan: ms }, not ${JSON.stringify(keep)}`);
}

/** A stored checkpoint as a prune reads it. */
export interface PruneCheckpoint {
  ns: string;
  id: string;
  parent: string | null;
  /** The checkpoint's JSON (without id and values): its `ts` and `channel_versions`. */
  head: { ts?: string; channel_versions?: Record<string, number | string> };
  metadata: CheckpointMetadata;
}

/** A stored channel version as a prune reads it. */
export interface PruneBlob {
  checkpoint_ns: string;
  channel: string;
  version: string;
  kind: number;
  base_version: string | null;
}

/** The rows a prune of one thread deletes and rewrites, in one transaction of the backend. */
export interface PruneRows {
  thread_id: string;
  /** Every checkpoint of the thread the plan was made from, as `[ns, id]`: the transaction checks none came or went. */
  planned: [ns: string, id: string][];
  /** Checkpoints to delete with their pending writes, as `[ns, id]`. */
  checkpoints: [ns: string, id: string][];
  /** Channel versions to delete, as `[ns, channel, version]`. */
  versions: [ns: string, channel: string, version: string][];
  /** Kept versions rewritten whole: `[ns, channel, version, type, value, baseBytes]`. */
  rebased: [ns: string, channel: string, version: string, type: string, value: unknown, baseBytes: number][];
}

/** The checkpoint of the enclosing namespace whose task ran a subgraph checkpoint (`metadata.parents`). */
function ownerOf(ns: string, metadata: CheckpointMetadata): string | null {
  if (ns === "") return null;
  const cut = ns.lastIndexOf("|");
  const enclosing = cut < 0 ? "" : ns.slice(0, cut);
  const owner = (metadata.parents as Record<string, string> | undefined)?.[enclosing];
  return typeof owner === "string" ? owner : null;
}

const key = (...parts: string[]) => parts.join("\u0000");

/** A thread's prune: the engine's plan over its checkpoints, then what goes and what is rebased. */
export interface ThreadPrune {
  /** Ids kept and dropped (`planPrune`'s plan). */
  plan: raw.PrunePlanOut;
  /** Versions no kept checkpoint references (to delete). */
  unreferenced: PruneBlob[];
  /** Kept versions stored as a delta over a version that goes (to rewrite whole). */
  orphans: PruneBlob[];
}

/** Plans the prune of one thread's `checkpoints` and `blobs` under `retention`. */
export function planThread(checkpoints: PruneCheckpoint[], blobs: PruneBlob[], retention: raw.RetentionIn): ThreadPrune {
  const candidates = checkpoints.map((c) => ({ id: c.id, parent: c.parent, ns: c.ns, owner: ownerOf(c.ns, c.metadata), ts: c.head.ts ?? null }));
  const plan = raw.planPrune(candidates, retention);
  const kept = new Set(plan.keep);
  const referenced = new Set<string>();
  for (const c of checkpoints) {
    if (!kept.has(c.id)) continue;
    for (const [channel, version] of Object.entries(c.head.channel_versions ?? {})) referenced.add(key(c.ns, channel, String(version)));
  }
  const unreferenced: PruneBlob[] = [];
  const orphans: PruneBlob[] = [];
  for (const b of blobs) {
    if (!referenced.has(key(b.checkpoint_ns, b.channel, b.version))) unreferenced.push(b);
    // Its base goes: rewritten whole, every kept delta's base is kept, so each kept chain ends on a snapshot.
    else if (b.kind === DELTA && !referenced.has(key(b.checkpoint_ns, b.channel, b.base_version ?? ""))) orphans.push(b);
  }
  return { plan, unreferenced, orphans };
}

/** Whether the thread's checkpoints now (`[ns, id]`) are exactly those a prune was planned from. */
export function unchanged(planned: [string, string][], now: [string, string][]): boolean {
  if (planned.length !== now.length) return false;
  const set = new Set(planned.map(([ns, id]) => key(ns, id)));
  return now.every(([ns, id]) => set.has(key(ns, id)));
}
