// A compiled graph's run configs as LangGraph.js makes them: the default
// `recursionLimit`, `withConfig`'s merge under each call's config
// (`mergeConfigs`), the metadata of task chunks, and the config `getState`
// echoes back.
import { argumentError, hide, isArray, isRecord, option, thrownText } from "../internal/args.js";
import type { RunnableConfig, StateSnapshot } from "../pregel/types.js";

/** LangGraph.js's default `recursionLimit` (LangGraph's is 10000 and more; the engine's default follows it). */
const DEFAULT_RECURSION_LIMIT = 25;

/** `config` with LangGraph.js's default `recursionLimit` when it gives none (a copy then). */
export function withDefaultLimit(config: unknown): unknown {
  if (config != null && typeof config !== "object") return config;
  if (option(config, "recursionLimit", "config") !== undefined || option(config, "recursion_limit", "config") !== undefined) return config;
  try {
    return { ...(config as object), recursionLimit: DEFAULT_RECURSION_LIMIT };
  } catch (e) {
    // A getter or Proxy trap of the caller's config threw while it was copied.
    throw argumentError(`config: reading it threw ${thrownText(e)}`, e);
  }
}

/** The methods of a compiled graph a `withConfig` copy binds, and where each takes its config. */
const BOUND_METHODS = [
  ["invoke", 1],
  ["stream", 1],
  ["streamEvents", 1],
  ["getState", 0],
  ["getStateHistory", 0],
  ["updateState", 0],
  ["bulkUpdateState", 0],
  ["getLineage", 0],
] as const;

/**
 * `bound`'s runs and state calls with `from`'s methods, each call's config
 * merged over `base` (LangGraph.js's `withConfig`).
 */
export function bindConfig<G extends object>(bound: G, from: object, base: RunnableConfig): G {
  for (const [method, at] of BOUND_METHODS) {
    const own: unknown = Reflect.get(from, method);
    // A Pregel graph has no streamEvents of its own to bind.
    if (typeof own !== "function") continue;
    hide(bound, method, function (this: unknown, ...args: unknown[]): unknown {
      args[at] = mergeConfigs(base, args[at] as RunnableConfig | undefined);
      return own.apply(bound, args);
    });
  }
  return bound;
}

/** LangGraph.js's `mergeConfigs`: `extra` over `base`, `configurable` and `metadata` merged key by key, `tags` joined. */
export function mergeConfigs(base: RunnableConfig | undefined, extra: RunnableConfig | undefined): RunnableConfig {
  if (base === undefined) return extra ?? {};
  if (extra == null) return { ...base };
  const out: RunnableConfig = { ...base, ...extra };
  if (base.configurable !== undefined || extra.configurable !== undefined) out.configurable = { ...base.configurable, ...extra.configurable };
  if (base.metadata !== undefined || extra.metadata !== undefined) out.metadata = { ...base.metadata, ...extra.metadata };
  // LangGraph.js's `ensureLangGraphConfig` puts the bound config's tags before the call's.
  if (isArray(base.tags) && isArray(extra.tags)) out.tags = [...base.tags, ...extra.tags];
  return out;
}

/**
 * What LangGraph.js puts in a task's `metadata` in `"tasks"` and `"debug"`
 * chunks: its run marker and the run's own metadata.
 */
export function taskMetadataOf(config: unknown): Record<string, unknown> {
  const metadata = option(config, "metadata", "config");
  return { ls_integration: "langgraph", ...(isRecord(metadata) ? metadata : {}) };
}

/**
 * LangGraph.js's `getState` gives the caller's own config back (its
 * checkpointer's `getTuple` does) when there is no checkpoint, or when the
 * config names one: the snapshot's config is then a copy of it, as given.
 */
export function echoConfig<S extends object>(snapshot: StateSnapshot<S>, config: RunnableConfig): StateSnapshot<S> {
  try {
    const own = config?.configurable;
    if (own == null || snapshot.config.configurable.checkpoint_map !== undefined) return snapshot;
    if (snapshot.metadata === undefined || own.checkpoint_id) {
      snapshot.config = { ...config, configurable: { ...own } } as StateSnapshot<S>["config"];
    }
  } catch {
    // An unreadable config was already refused by the engine; keep its answer.
  }
  return snapshot;
}
