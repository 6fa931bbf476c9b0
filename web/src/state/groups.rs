//! Subgraph runs expanded in place: which groups are open, what to open
//! to show a checkpoint, and the drawn list and layout with the open
//! groups in it.

use leptos::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

use super::AppState;
use crate::layout::{layout_groups, Framed, Group, NodeIn};
use crate::session::{CheckpointView, Namespace, Session};

impl AppState {
    /// Expands the subgraph groups that hold checkpoint `id`, from the root down.
    pub fn reveal(&self, id: &str) {
        let ns = self.session.with_value(|s| s.ns_of(id));
        let owners = self.runs.with_untracked(|r| owner_chain(&ns, r));
        if owners.is_empty()
            || self
                .expanded
                .with_untracked(|e| owners.iter().all(|o| e.contains(o)))
        {
            return;
        }
        self.expanded.update(|e| e.extend(owners));
        self.refresh();
    }

    /// Expands or collapses the subgraph runs of checkpoint `id` in place.
    /// Collapsing a group that holds the selection selects its owner.
    pub fn toggle_expanded(&self, id: &str) {
        let selected = self.selected_view_untracked();
        let opening = self.expanded.with_untracked(|e| !e.contains(id));
        self.expanded.update(|e| {
            if !e.remove(id) {
                e.insert(id.to_owned());
            }
        });
        self.refresh();
        if !opening && selected.is_some() && self.selected.get_untracked().is_none() {
            self.selected.set(self.index_of(id));
        }
    }
}

/// The checkpoints whose tasks ran the namespaces enclosing `ns` (outermost
/// first): what must be expanded to draw a checkpoint of `ns`.
pub fn owner_chain(ns: &str, runs: &BTreeMap<String, Vec<Namespace>>) -> Vec<String> {
    let mut out = Vec::new();
    let mut level = ns;
    while !level.is_empty() {
        let owner = runs
            .iter()
            .find(|(_, list)| list.iter().any(|n| n.ns == level))
            .map(|(o, _)| o.clone());
        match owner {
            Some(o) => out.push(o),
            None => return Vec::new(),
        }
        level = crate::session::parent_ns(level);
    }
    out.reverse();
    out
}

/// The drawn list and its layout when groups are expanded: the root's
/// `views`, and under each expanded checkpoint the namespaces its tasks
/// wrote, recursively.
pub(super) fn grouped(
    session: &Session,
    views: Vec<CheckpointView>,
    runs: &BTreeMap<String, Vec<Namespace>>,
    open: &BTreeSet<String>,
) -> (Vec<CheckpointView>, Framed) {
    let mut all: BTreeMap<String, CheckpointView> = BTreeMap::new();
    let root = group(session, String::new(), views, runs, open, &mut all);
    let framed = layout_groups(&root);
    let display = framed
        .order
        .iter()
        .filter_map(|id| all.get(id).cloned())
        .collect();
    (display, framed)
}

fn group(
    session: &Session,
    ns: String,
    views: Vec<CheckpointView>,
    runs: &BTreeMap<String, Vec<Namespace>>,
    open: &BTreeSet<String>,
    all: &mut BTreeMap<String, CheckpointView>,
) -> Group {
    let nodes = views
        .iter()
        .map(|v| NodeIn {
            id: v.id.clone(),
            parent: v.parent.clone(),
        })
        .collect();
    let mut inner = Vec::new();
    for v in &views {
        if !open.contains(&v.id) {
            continue;
        }
        for n in runs.get(&v.id).into_iter().flatten() {
            let sub = session.checkpoints_in(&n.ns);
            inner.push((
                v.id.clone(),
                group(session, n.ns.clone(), sub, runs, open, all),
            ));
        }
    }
    all.extend(views.into_iter().map(|v| (v.id.clone(), v)));
    Group {
        ns,
        nodes,
        runs: inner,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios;
    use serde_json::json;

    fn research() -> Session {
        Session::new(scenarios::by_id("research").unwrap().graph().unwrap()).unwrap()
    }

    fn runs_of(s: &Session) -> BTreeMap<String, Vec<Namespace>> {
        let mut runs: BTreeMap<String, Vec<Namespace>> = BTreeMap::new();
        for n in s.namespaces() {
            runs.entry(n.owner.clone()).or_default().push(n);
        }
        runs
    }

    fn id(s: &Session, label: &str) -> String {
        s.labels().into_iter().find(|(_, l)| l == label).unwrap().0
    }

    #[test]
    fn expanded_runs_are_drawn_after_their_owner_right_of_every_root_lane() {
        let mut s = research();
        s.invoke(json!({"log": []}), None).unwrap();
        let c2 = id(&s, "c2");
        // Edit the paused subgraph through its config, resume, then replay c2.
        let s3 = id(&s, "s3");
        s.update(&s3, Some(json!({"draft": "Draft v2"})), None)
            .unwrap();
        s.resume(json!(true), Some(&s3)).unwrap();
        s.replay(&c2).unwrap();
        let c5 = id(&s, "c5");
        let runs = runs_of(&s);
        assert_eq!(runs.len(), 2, "c2 and its replay c5 each ran research");
        let open = BTreeSet::from([c2.clone(), c5.clone()]);
        let (display, framed) = grouped(&s, s.checkpoints(), &runs, &open);
        let labels: Vec<&str> = display.iter().map(|v| v.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "c0", "c1", "c2", "s0", "s1", "s2", "s3", "s4", "s5", "c3", "c4", "c5", "s6", "s7",
                "s8", "s9"
            ]
        );
        let lane = |l: &str| {
            let i = display.iter().position(|v| v.label == l).unwrap();
            framed.layout.node(i).unwrap().lane
        };
        assert_eq!(
            (lane("c3"), lane("c5")),
            (0, 1),
            "the replay opens root lane 1"
        );
        assert_eq!(
            (lane("s0"), lane("s6")),
            (2, 2),
            "groups sit right of both root lanes"
        );
        assert_eq!(framed.frames.len(), 2);
        // What to open to draw s6: its owner c5.
        let s6 = id(&s, "s6");
        assert_eq!(owner_chain(&s.ns_of(&s6), &runs), [c5]);
        assert!(owner_chain("", &runs).is_empty());
        assert!(owner_chain("nowhere:1", &runs).is_empty());
        assert!(display[3..7].iter().all(|v| v.ns == framed.frames[0].ns));
    }
}
