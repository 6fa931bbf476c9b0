//! Reading the thread as the tree draws it: the checkpoints of a
//! namespace in creation order, the subgraph namespaces and who owns them,
//! the labels (`c0`, `s0`, …), and what a resume or a `Send` refers to.

use chronograph::{CheckpointSaver, ListOptions, ListTarget};
use serde_json::Value;
use std::collections::BTreeMap;

use super::{parent_ns, short, CheckpointView, Namespace, Session, THREAD_ID};

impl Session {
    /// Every checkpoint of the root namespace, in creation order.
    pub fn checkpoints(&self) -> Vec<CheckpointView> {
        self.checkpoints_in("")
    }

    /// Every checkpoint of namespace `ns` (`""`: the root), in creation order.
    pub fn checkpoints_in(&self, ns: &str) -> Vec<CheckpointView> {
        let config = Self::thread().in_namespace(ns);
        let mut snaps = self
            .graph
            .get_state_history(&config, &ListOptions::default())
            .unwrap_or_default();
        snaps.reverse();
        let labels = if ns.is_empty() {
            BTreeMap::new()
        } else {
            self.labels()
        };
        snaps
            .into_iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let m = s.metadata?;
                let id = s.config.checkpoint_id?;
                // Root labels count root checkpoints only (c0, c1, …), so
                // they stay what they were before any subgraph ran.
                let label = match labels.get(&id) {
                    Some(l) => l.clone(),
                    None => format!("c{i}"),
                };
                let next = match self.recorded_next.get(&id) {
                    Some(n) => n.clone(),
                    None => s.next,
                };
                Some(CheckpointView {
                    id,
                    label,
                    parent: s.parent_config.and_then(|p| p.checkpoint_id),
                    step: m.step,
                    source: m.source,
                    next,
                    created_at: s.created_at.unwrap_or_default(),
                    ns: s.config.checkpoint_ns,
                })
            })
            .collect()
    }

    /// Every subgraph namespace of the thread, in order of creation.
    pub fn namespaces(&self) -> Vec<Namespace> {
        let mut tuples = self
            .saver
            .list(&ListTarget::thread(THREAD_ID), &ListOptions::default())
            .unwrap_or_default();
        tuples.retain(|t| !t.config.checkpoint_ns.is_empty());
        // Oldest first: a namespace's first checkpoint says who owns it.
        crate::sort::sort_by(&mut tuples, |a, b| a.checkpoint.id.cmp(&b.checkpoint.id));
        let mut out: Vec<Namespace> = Vec::new();
        for t in tuples {
            let ns = &t.config.checkpoint_ns;
            if out.iter().any(|n| &n.ns == ns) {
                continue;
            }
            let Some(owner) = t.metadata.parents.get(parent_ns(ns)) else {
                continue;
            };
            let last = ns.rsplit('|').next().unwrap_or(ns);
            out.push(Namespace {
                ns: ns.clone(),
                owner: owner.clone(),
                node: last.split(':').next().unwrap_or(last).to_owned(),
            });
        }
        out
    }

    /// Id → label for every checkpoint: `c0`, `c1`, … for the root namespace
    /// and `s0`, `s1`, … for all subgraph namespaces together, each in
    /// creation order (as the conformance traces label them).
    pub fn labels(&self) -> BTreeMap<String, String> {
        let mut all: Vec<(String, bool)> = self
            .saver
            .list(&ListTarget::thread(THREAD_ID), &ListOptions::default())
            .unwrap_or_default()
            .into_iter()
            .filter_map(|t| Some((t.config.checkpoint_id?, t.config.checkpoint_ns.is_empty())))
            .collect();
        crate::sort::sort(&mut all);
        let (mut c, mut s) = (0, 0);
        all.into_iter()
            .map(|(id, root)| {
                let label = if root {
                    c += 1;
                    format!("c{}", c - 1)
                } else {
                    s += 1;
                    format!("s{}", s - 1)
                };
                (id, label)
            })
            .collect()
    }

    /// The namespace checkpoint `id` lives in (`""` at the root or when unknown).
    pub fn ns_of(&self, id: &str) -> String {
        // Most checkpoints are the root's: one lookup, not a scan of the thread.
        let at_root = chronograph::CheckpointConfig {
            thread_id: THREAD_ID.to_owned(),
            checkpoint_ns: String::new(),
            checkpoint_id: Some(id.to_owned()),
        };
        if matches!(self.saver.get_tuple(&at_root), Ok(Some(_))) {
            return String::new();
        }
        self.saver
            .list(&ListTarget::thread(THREAD_ID), &ListOptions::default())
            .unwrap_or_default()
            .into_iter()
            .find(|t| t.config.checkpoint_id.as_deref() == Some(id))
            .map(|t| t.config.checkpoint_ns)
            .unwrap_or_default()
    }

    pub(super) fn label(&self, id: &str) -> String {
        self.labels().get(id).cloned().unwrap_or_else(|| short(id))
    }

    /// Every checkpoint id of the thread (every namespace).
    pub fn ids(&self) -> Vec<String> {
        self.labels().into_keys().collect()
    }

    /// The root checkpoint a resume continues from: `id` itself at the root;
    /// for a checkpoint inside a subgraph, the root checkpoint whose task ran
    /// it (its `parents` entry for the root). A paused subgraph is resumed
    /// from its parent: the root run re-enters the same namespace (same task
    /// id) and continues from that namespace's newest checkpoint.
    pub fn resume_target(&self, id: &str) -> String {
        if self.ns_of(id).is_empty() {
            return id.to_owned();
        }
        self.snapshot(Some(id))
            .ok()
            .and_then(|s| s.metadata)
            .and_then(|m| m.parents.get("").cloned())
            .unwrap_or_else(|| id.to_owned())
    }

    /// The arguments of the `Send`s checkpoint `id` holds, in order (the
    /// inputs of its PUSH tasks).
    pub fn sends(&self, id: &str) -> Vec<Value> {
        let target = ListTarget {
            thread_id: Some(THREAD_ID.to_owned()),
            checkpoint_ns: Some(self.ns_of(id)),
            checkpoint_id: Some(id.to_owned()),
        };
        let Some(t) = self
            .saver
            .list(&target, &ListOptions::default())
            .ok()
            .and_then(|l| l.into_iter().next())
        else {
            return Vec::new();
        };
        match t
            .checkpoint
            .channel_values
            .get("__pregel_tasks")
            .map(|v| v.to_json())
        {
            Some(Value::Array(packets)) => packets,
            _ => Vec::new(),
        }
    }
}
