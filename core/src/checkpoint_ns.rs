//! Checkpoint namespaces (LangGraph's `checkpoint_ns`, `checkpoint_map` and
//! metadata `parents`), in one place.
//!
//! Every graph run keeps its checkpoints under a namespace: `""` for the
//! root graph, and for a subgraph run by a task the task's own namespace,
//! one `node:task_id` level per graph, nested with `|`:
//!
//! ```text
//! ""                                   the root graph
//! "outer:1f0…"                         subgraph `outer`, run by task 1f0…
//! "outer:1f0…|inner:2a7…"              subgraph `inner` inside it
//! "outer|inner"                        the same, recast (no task ids): how a
//!                                      namespace names a graph, not a run
//! ```
//!
//! A subgraph compiled with a checkpointer of its own (`checkpointer=True`)
//! keeps one history whatever task runs it, so its namespace is the recast
//! path alone ([`persistent_ns`]).
//!
//! `checkpoint_map` (in a config's `configurable`) maps each ancestor's
//! namespace to the checkpoint it is at: a loop hands it down to the
//! subgraphs its tasks run, with its own entry added ([`child_map`]); a
//! subgraph loop records it as the `parents` of the checkpoints it saves,
//! and a snapshot's config carries it back ([`config_with_map`]).

use crate::checkpoint::{CheckpointConfig, CheckpointMetadata, CheckpointTuple};
use crate::reserved::{NS_END, NS_SEP};
use crate::types::RunnableConfig;
use std::collections::BTreeMap;

/// The root graph's namespace (and its key in `checkpoint_map`).
pub(crate) const ROOT_NS: &str = "";

/// The namespace of task `node:task_id` of a graph at `parent_ns`: where
/// the subgraph the task runs keeps its checkpoints, and what its
/// interrupt ids hash.
pub(crate) fn task_ns(parent_ns: &str, node: &str, task_id: &str) -> String {
    if parent_ns.is_empty() {
        format!("{node}{NS_END}{task_id}")
    } else {
        format!("{parent_ns}{NS_SEP}{node}{NS_END}{task_id}")
    }
}

/// The namespace of a persistent subgraph (`checkpointer=True`) run by
/// node `node` of a graph at `parent_ns`: the path of node names without
/// any task id (LangGraph's `_own_checkpoint_config`).
pub(crate) fn persistent_ns(parent_ns: &str, node: &str) -> String {
    if parent_ns.is_empty() {
        node.to_owned()
    } else {
        format!("{}{NS_SEP}{node}", recast_checkpoint_ns(parent_ns))
    }
}

/// `checkpoint_ns` without task ids: `outer:<id>|inner:<id>` → `outer|inner`
/// (LangGraph's `recast_checkpoint_ns`; numeric levels are dropped). Two
/// namespaces with the same recast name the same graph.
pub fn recast_checkpoint_ns(ns: &str) -> String {
    ns.split(NS_SEP)
        .filter(|level| !level.is_empty() && !level.bytes().all(|b| b.is_ascii_digit()))
        .map(|level| level.split(NS_END).next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("|")
}

/// The node names of a recast namespace, outermost first: the path from
/// the root graph to the subgraph it names.
pub(crate) fn levels(recast: &str) -> impl Iterator<Item = &str> {
    recast.split(NS_SEP)
}

/// `ns` with the task id of its last level stripped: the same for every
/// run of one subgraph node by the same parent task (what a replay counts
/// as one visit).
pub(crate) fn without_last_task_id(ns: &str) -> &str {
    ns.rsplit_once(NS_END).map_or(ns, |(head, _)| head)
}

/// The `checkpoint_map` a loop at `ns` hands down to the subgraphs of one
/// superstep: its own, plus `ns` at the checkpoint the superstep runs from.
pub(crate) fn child_map(
    map: &BTreeMap<String, String>,
    ns: &str,
    checkpoint_id: &str,
) -> BTreeMap<String, String> {
    let mut out = map.clone();
    out.insert(ns.to_owned(), checkpoint_id.to_owned());
    out
}

/// LangGraph's `patch_checkpoint_map`: the config of a checkpoint, with its
/// metadata's `parents` plus itself as `checkpoint_map` (nothing at the
/// root, whose `parents` are empty).
pub(crate) fn config_with_map(
    config: &CheckpointConfig,
    metadata: Option<&CheckpointMetadata>,
) -> RunnableConfig {
    let mut out =
        RunnableConfig::thread(config.thread_id.clone()).in_namespace(config.checkpoint_ns.clone());
    if let Some(id) = &config.checkpoint_id {
        out = out.at(id.clone());
    }
    if let Some(parents) = metadata.map(|m| &m.parents).filter(|p| !p.is_empty()) {
        let mut map = parents.clone();
        if let Some(id) = &config.checkpoint_id {
            map.insert(config.checkpoint_ns.clone(), id.clone());
        }
        out = out.with_checkpoint_map(&map);
    }
    out
}

impl CheckpointTuple {
    /// The config that addresses this stored checkpoint in a run or the
    /// state API: its address, with its metadata's `parents` plus itself as
    /// `checkpoint_map` (LangGraph's `patch_checkpoint_map`, as a snapshot's
    /// [`runnable_config`](crate::StateSnapshot::runnable_config) has it).
    pub fn runnable_config(&self) -> RunnableConfig {
        config_with_map(&self.config, Some(&self.metadata))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recast_strips_task_ids_level_by_level() {
        assert_eq!(recast_checkpoint_ns(""), "");
        assert_eq!(recast_checkpoint_ns("a:1f0"), "a");
        assert_eq!(recast_checkpoint_ns("outer:1|inner:2"), "outer|inner");
        assert_eq!(recast_checkpoint_ns("outer:1|3|inner:2"), "outer|inner");
    }

    #[test]
    fn task_namespaces_nest_with_a_bar() {
        assert_eq!(task_ns("", "outer", "1"), "outer:1");
        assert_eq!(task_ns("outer:1", "inner", "2"), "outer:1|inner:2");
    }

    #[test]
    fn persistent_namespaces_have_no_task_ids() {
        assert_eq!(persistent_ns("", "memo"), "memo");
        assert_eq!(persistent_ns("outer:1|inner:2", "memo"), "outer|inner|memo");
    }

    #[test]
    fn a_replay_visit_ignores_the_last_task_id() {
        assert_eq!(without_last_task_id("outer:1|inner:2"), "outer:1|inner");
        assert_eq!(without_last_task_id("memo"), "memo");
    }

    #[test]
    fn a_child_map_adds_the_loops_own_entry() {
        let map = BTreeMap::from([("".to_owned(), "c0".to_owned())]);
        let child = child_map(&map, "outer:1", "c1");
        assert_eq!(child.len(), 2);
        assert_eq!(child["outer:1"], "c1");
    }
}
