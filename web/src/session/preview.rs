//! Dry runs: an action run on a copy of the thread, to say what it would
//! create and which nodes would run before it runs for real.

use chronograph::{InMemorySaver, Source};
use std::rc::Rc;

use super::{short, Created, Outcome, Preview, Session};

impl Session {
    /// The checkpoints `outcome` created in any namespace (oldest first, with
    /// their parents' labels) and the nodes that ran to make them, without
    /// `__start__`.
    pub fn created(&self, outcome: &Outcome) -> (Vec<Created>, Vec<String>) {
        let labels = self.labels();
        let mut views = self.checkpoints();
        // Checkpoints written inside subgraphs too (an update through a
        // subgraph's config creates only those).
        for n in self.namespaces() {
            views.extend(self.checkpoints_in(&n.ns));
        }
        let mut created = Vec::new();
        let mut ran = Vec::new();
        for id in &outcome.created {
            let Some(v) = views.iter().find(|v| &v.id == id) else {
                continue;
            };
            if v.source == Source::Loop {
                if let Some(parent) = v
                    .parent
                    .as_ref()
                    .and_then(|p| views.iter().find(|x| &x.id == p))
                {
                    ran.extend(parent.next.iter().cloned());
                }
            }
            let parent_label = v
                .parent
                .as_ref()
                .map(|p| labels.get(p).cloned().unwrap_or_else(|| short(p)));
            created.push(Created {
                view: v.clone(),
                parent_label,
            });
        }
        ran.retain(|n| n != chronograph::START);
        (created, ran)
    }

    /// Runs `action` on a copy of this session and reports what it created.
    pub fn preview(
        &self,
        action: impl FnOnce(&mut Session) -> chronograph::Result<Outcome>,
    ) -> Preview {
        let saver = Rc::new(InMemorySaver::new());
        if let Some(data) = self.export() {
            if saver.import_thread(data).is_err() {
                return Preview {
                    checkpoints: vec![],
                    in_subgraphs: 0,
                    will_run: vec![],
                    error: Some("could not copy the thread".into()),
                };
            }
        }
        let mut copy = match Self::with_saver(self.spec.clone(), saver) {
            Ok(s) => s,
            Err(e) => {
                return Preview {
                    checkpoints: vec![],
                    in_subgraphs: 0,
                    will_run: vec![],
                    error: Some(e.to_string()),
                }
            }
        };
        copy.needs_graph = self.needs_graph;
        match action(&mut copy) {
            Ok(outcome) => {
                let (created, will_run) = copy.created(&outcome);
                // The root's checkpoints first: they are what the action is about.
                let (root, inside): (Vec<Created>, Vec<Created>) =
                    created.into_iter().partition(|c| c.view.ns.is_empty());
                let in_subgraphs = inside.len();
                let checkpoints = root.into_iter().chain(inside).collect();
                Preview {
                    checkpoints,
                    in_subgraphs,
                    will_run,
                    error: None,
                }
            }
            Err(e) => Preview {
                checkpoints: vec![],
                in_subgraphs: 0,
                will_run: vec![],
                error: Some(e.to_string()),
            },
        }
    }
}
