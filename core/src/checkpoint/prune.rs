//! Retention: which checkpoints of a thread a `prune` keeps.
//!
//! LangGraph's savers never forget a checkpoint, so a long thread grows
//! without bound; LangGraph (Python) declares `prune(thread_ids,
//! strategy="keep_latest")` but its open-source savers do not implement
//! it. The choice of what to keep is the same for every store (the
//! persistent savers in the npm package, and the app's preview of a prune
//! on an in-page, imported or server thread), so it is made here, over
//! plain descriptions of the checkpoints, and each store only deletes.
//!
//! The rules, per thread:
//! - Every namespace (the root, and each subgraph run `node:task_id`)
//!   keeps at least its latest checkpoint: it is where the next run, a
//!   resume or `get_state` starts.
//! - The [`Retention`] chooses what else stays in each namespace.
//! - A subgraph namespace belongs to the checkpoint of the enclosing
//!   namespace whose task ran it (its checkpoints' `metadata.parents`
//!   entry). When that owner is dropped, the whole namespace goes: nothing
//!   can reach it any more (replaying the owner's successors runs the
//!   subgraph afresh, in a new namespace). Owners are decided before the
//!   namespaces they own, so this holds at any depth.
//!
//! Pending writes belong to their checkpoint and go with it; a kept
//! checkpoint keeps all of its writes (they hold the finished tasks of an
//! interrupted superstep, which a resume must not run again).

use std::collections::{BTreeMap, BTreeSet};

/// What a prune keeps in each namespace, besides its latest checkpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Retention {
    /// Only the latest checkpoint (LangGraph's `strategy="keep_latest"`).
    Latest,
    /// The `n` newest checkpoints (at least 1).
    Last(usize),
    /// The latest checkpoint and its ancestors: HEAD's lineage. Branches
    /// left behind by replays and forks are dropped.
    Lineage,
    /// The checkpoints created at or after `since` (a TTL: now minus the
    /// age to keep), in milliseconds since the Unix epoch.
    NewerThan {
        /// The oldest creation time kept.
        since_ms: i64,
    },
}

/// One checkpoint as a prune sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PruneCandidate {
    /// Checkpoint id. Ids are UUIDv6 (LangGraph's and Chronograph's), so
    /// within a namespace the greatest id is the newest checkpoint.
    pub id: String,
    /// Parent checkpoint id in the same namespace.
    pub parent: Option<String>,
    /// Checkpoint namespace: `""` at the root, `node:task_id` (nested with
    /// `|`) in a subgraph.
    pub ns: String,
    /// For a subgraph checkpoint: the checkpoint of the enclosing
    /// namespace whose task ran it (`metadata.parents[enclosing ns]`).
    pub owner: Option<String>,
    /// Creation time in milliseconds since the Unix epoch (`checkpoint.ts`);
    /// `None` when unknown (then only [`Retention::NewerThan`] cares, and
    /// keeps it).
    pub created_ms: Option<i64>,
}

/// What a prune keeps and drops, each in the order the candidates came.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrunePlan {
    /// Ids of the checkpoints kept.
    pub keep: Vec<String>,
    /// Ids of the checkpoints dropped.
    pub drop: Vec<String>,
}

/// Chooses the checkpoints of one thread to keep under `retention`.
pub fn plan_prune(candidates: &[PruneCandidate], retention: &Retention) -> PrunePlan {
    let mut by_ns: BTreeMap<&str, Vec<&PruneCandidate>> = BTreeMap::new();
    for c in candidates {
        by_ns.entry(c.ns.as_str()).or_default().push(c);
    }
    // Shallower namespaces first, so an owner's fate is known before its
    // namespaces are decided.
    let mut namespaces: Vec<&str> = by_ns.keys().copied().collect();
    namespaces.sort_by_key(|ns| (depth(ns), *ns));
    let mut kept: BTreeSet<&str> = BTreeSet::new();
    let mut decided: BTreeSet<&str> = BTreeSet::new();
    for ns in namespaces {
        let group = &by_ns[ns];
        decided.extend(group.iter().map(|c| c.id.as_str()));
        if ns.is_empty() || owner_alive(group, &kept, &decided) {
            kept.extend(keep_in_namespace(group, retention));
        }
    }
    let (keep, drop) = candidates
        .iter()
        .map(|c| c.id.clone())
        .partition(|id| kept.contains(id.as_str()));
    PrunePlan { keep, drop }
}

/// How deeply `ns` is nested: 0 at the root.
fn depth(ns: &str) -> usize {
    if ns.is_empty() {
        0
    } else {
        ns.split('|').count()
    }
}

/// Whether a subgraph namespace's owner stays. An owner the candidates do
/// not contain (another saver's, or pruned earlier) cannot be judged here,
/// so the namespace is treated as a root of its own.
fn owner_alive(group: &[&PruneCandidate], kept: &BTreeSet<&str>, decided: &BTreeSet<&str>) -> bool {
    group
        .iter()
        .filter_map(|c| c.owner.as_deref())
        .all(|owner| kept.contains(owner) || !decided.contains(owner))
}

/// The ids one namespace keeps: its latest checkpoint, and what `retention` adds.
fn keep_in_namespace<'a>(group: &[&'a PruneCandidate], retention: &Retention) -> Vec<&'a str> {
    let mut newest_first: Vec<&PruneCandidate> = group.to_vec();
    newest_first.sort_by(|a, b| b.id.cmp(&a.id));
    let Some(latest) = newest_first.first() else {
        return Vec::new();
    };
    match retention {
        Retention::Latest => vec![latest.id.as_str()],
        Retention::Last(n) => newest_first
            .iter()
            .take((*n).max(1))
            .map(|c| c.id.as_str())
            .collect(),
        Retention::Lineage => lineage(group, latest),
        Retention::NewerThan { since_ms } => newest_first
            .iter()
            .enumerate()
            .filter(|(i, c)| *i == 0 || c.created_ms.is_none_or(|t| t >= *since_ms))
            .map(|(_, c)| c.id.as_str())
            .collect(),
    }
}

/// `latest` and its ancestors in the namespace (a parent missing from the
/// candidates ends the walk; a cycle, which no saver writes, cannot loop).
fn lineage<'a>(group: &[&'a PruneCandidate], latest: &'a PruneCandidate) -> Vec<&'a str> {
    let by_id: BTreeMap<&str, &PruneCandidate> =
        group.iter().map(|c| (c.id.as_str(), *c)).collect();
    let mut out = vec![latest.id.as_str()];
    let mut at = latest;
    while let Some(parent) = at.parent.as_deref().and_then(|p| by_id.get(p)) {
        if out.contains(&parent.id.as_str()) {
            break;
        }
        out.push(parent.id.as_str());
        at = parent;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(
        id: &str,
        parent: Option<&str>,
        ns: &str,
        owner: Option<&str>,
        at: i64,
    ) -> PruneCandidate {
        PruneCandidate {
            id: id.into(),
            parent: parent.map(Into::into),
            ns: ns.into(),
            owner: owner.map(Into::into),
            created_ms: Some(at),
        }
    }

    /// c1 → c2 → c3, then a replay of c2 made c4 (HEAD): c3 is left on
    /// an abandoned branch.
    fn forked_thread() -> Vec<PruneCandidate> {
        vec![
            cp("c1", None, "", None, 1_000),
            cp("c2", Some("c1"), "", None, 2_000),
            cp("c3", Some("c2"), "", None, 3_000),
            cp("c4", Some("c2"), "", None, 4_000),
        ]
    }

    #[test]
    fn keep_latest_keeps_one_checkpoint_per_namespace() {
        let plan = plan_prune(&forked_thread(), &Retention::Latest);
        assert_eq!(plan.keep, ["c4"]);
        assert_eq!(plan.drop, ["c1", "c2", "c3"]);
    }

    #[test]
    fn keep_last_n_keeps_the_newest_n_whatever_their_branch() {
        let plan = plan_prune(&forked_thread(), &Retention::Last(2));
        assert_eq!(plan.keep, ["c3", "c4"]);
        let plan = plan_prune(&forked_thread(), &Retention::Last(0));
        assert_eq!(plan.keep, ["c4"], "the latest checkpoint always stays");
    }

    #[test]
    fn keep_lineage_drops_abandoned_branches() {
        let plan = plan_prune(&forked_thread(), &Retention::Lineage);
        assert_eq!(plan.keep, ["c1", "c2", "c4"]);
        assert_eq!(plan.drop, ["c3"]);
    }

    #[test]
    fn keep_newer_than_is_a_ttl_that_never_drops_the_latest() {
        let plan = plan_prune(&forked_thread(), &Retention::NewerThan { since_ms: 2_500 });
        assert_eq!(plan.keep, ["c3", "c4"]);
        let plan = plan_prune(&forked_thread(), &Retention::NewerThan { since_ms: 9_000 });
        assert_eq!(plan.keep, ["c4"]);
        let mut unknown = forked_thread();
        unknown[0].created_ms = None;
        let plan = plan_prune(&unknown, &Retention::NewerThan { since_ms: 9_000 });
        assert_eq!(
            plan.keep,
            ["c1", "c4"],
            "a checkpoint of unknown age is kept"
        );
    }

    #[test]
    fn subgraph_namespace_goes_with_its_owner() {
        let mut thread = forked_thread();
        // c2's task ran a subgraph (s1, s2); c4's task is paused inside one (s3).
        thread.push(cp("s1", None, "sub:a", Some("c2"), 2_100));
        thread.push(cp("s2", Some("s1"), "sub:a", Some("c2"), 2_200));
        thread.push(cp("s3", None, "sub:b", Some("c4"), 4_100));
        thread.push(cp("t1", None, "sub:b|inner:c", Some("s3"), 4_200));
        let plan = plan_prune(&thread, &Retention::Latest);
        assert_eq!(plan.keep, ["c4", "s3", "t1"]);
        let plan = plan_prune(&thread, &Retention::Lineage);
        assert_eq!(plan.keep, ["c1", "c2", "c4", "s1", "s2", "s3", "t1"]);
    }

    #[test]
    fn subgraph_namespace_whose_owner_is_unknown_is_pruned_as_its_own_thread() {
        let thread = vec![
            cp("s1", None, "sub:a", Some("gone"), 1),
            cp("s2", Some("s1"), "sub:a", Some("gone"), 2),
        ];
        let plan = plan_prune(&thread, &Retention::Latest);
        assert_eq!(plan.keep, ["s2"]);
    }

    #[test]
    fn pruning_an_empty_thread_keeps_nothing() {
        assert_eq!(plan_prune(&[], &Retention::Lineage), PrunePlan::default());
    }
}
