//! Replacing the page's thread: another graph (a built-in scenario, an
//! edited spec, the lesson's session), a thread imported from a file or a
//! paste, and a graph spec attached to an imported history. Each one
//! changes nothing when it fails.

use chronograph::GraphSpec;
use leptos::prelude::*;
use std::collections::BTreeSet;

use super::AppState;
use crate::import::{self, Origin, Problem};
use crate::layout::Viewport;
use crate::scenarios;
use crate::session::Session;

/// The scenario id used for a pasted or edited spec.
pub const CUSTOM: &str = "custom";

/// The scenario id of a thread imported from a LangGraph history (its
/// graph written from the history, until a spec is attached).
pub const IMPORTED: &str = "imported";

/// Why a spec cannot be attached to an imported thread.
#[derive(Clone, Debug, PartialEq)]
pub enum AttachError {
    /// The spec does not parse or compile (the engine's text).
    Invalid(String),
    /// The spec lacks nodes the history names: `(missing, every name)`.
    Missing(Vec<String>, Vec<String>),
}

impl AppState {
    /// Switches to another graph: a new, empty thread.
    pub fn load_spec(&self, id: &str, text: &str) -> Result<(), String> {
        self.check_idle()?;
        let spec = GraphSpec::parse(text).map_err(|e| e.to_string())?;
        let session = Session::new(spec).map_err(|e| e.to_string())?;
        self.show_session(session, id, text.to_owned());
        self.persist_selection();
        Ok(())
    }

    /// Runs the page on another session (the lesson's), as scenario `id`.
    pub fn replace_session(&self, session: Session, id: &str) {
        let text = scenarios::by_id(id).map_or_else(String::new, |s| s.spec.to_owned());
        self.show_session(session, id, text);
    }

    /// Runs the page on `session`, as scenario `id` with spec `text`:
    /// nothing selected, nothing left from the thread before.
    fn show_session(&self, session: Session, id: &str, text: String) {
        self.install(session, id, text);
        self.server.opened.set(None);
        self.stop_watch();
        self.selected.set(None);
        self.forget_marks();
        self.imported.set(None);
        self.refresh();
        self.save();
    }

    /// Puts `session` in place, as scenario `id` with spec `text`: its
    /// graph drawn, every group closed, the tree panel back at 1:1.
    fn install(&self, session: Session, id: &str, text: String) {
        self.topology.set(session.graph().topology());
        self.is_chat.set(scenarios::is_chat(session.spec()));
        self.session.set_value(session);
        self.expanded.set(BTreeSet::new());
        self.scenario.set(id.to_owned());
        self.spec_text.set(text);
        self.viewport.set(Viewport::default());
    }

    /// Forgets the marks that named checkpoints of the thread before: the
    /// pin, the chat's branch, the fresh highlight, the error and the
    /// preview's lit nodes.
    fn forget_marks(&self) {
        self.pinned.set(None);
        self.chat_tip.set(None);
        self.fresh.set(Vec::new());
        self.error.set(None);
        self.will_run.set(Vec::new());
    }

    /// Replaces the thread with one read from `text`: Chronograph's export
    /// (on the current graph) or a LangGraph history (on a graph written
    /// from it, [`IMPORTED`]). A text that does not open changes nothing:
    /// the thread, the selection and the lesson stay.
    pub fn import_text(&self, text: &str) -> Result<(usize, Origin), Problem> {
        self.check_idle().map_err(Problem::new)?;
        let opened = import::open(text)?;
        let origin = opened.origin;
        self.open_thread(opened, origin)
    }

    /// Replaces the thread with `opened`, which came from `origin` (a file,
    /// a paste, a server): the same session and the same drawing for each.
    /// A history runs on a graph written from it ([`IMPORTED`]) and its
    /// runs wait for a graph; nothing changes when it fails.
    pub fn open_thread(
        &self,
        opened: import::Opened,
        origin: Origin,
    ) -> Result<(usize, Origin), Problem> {
        let count = opened.len();
        let from = if origin == Origin::Server {
            "server"
        } else {
            "file"
        };
        let engine = |e: chronograph::Error| Problem::new(e.to_string());
        match opened.spec {
            Some(spec_text) => {
                // Everything that can fail runs before anything is replaced.
                let spec = GraphSpec::parse(&spec_text).map_err(engine)?;
                let mut session = Session::new(spec).map_err(engine)?;
                session
                    .import_history(opened.thread, opened.next, from)
                    .map_err(engine)?;
                session.set_recorded_interrupts(opened.interrupted);
                self.install(session, IMPORTED, spec_text);
            }
            None => {
                self.session
                    .try_update_value(|s| s.import(opened.thread))
                    .unwrap_or_else(|| Err(chronograph::Error::value("the session is gone")))
                    .map_err(engine)?;
            }
        }
        if origin != Origin::Server {
            self.server.opened.set(None);
            self.stop_watch();
        }
        self.forget_marks();
        self.refresh();
        self.selected.set(self.head.get_untracked());
        self.imported.set(Some((count, origin)));
        self.save();
        self.persist_selection();
        Ok((count, origin))
    }

    /// The node names the imported thread's graph must have (its current
    /// graph's, written from the history).
    pub fn history_nodes(&self) -> Vec<String> {
        self.session
            .with_value(|s| s.spec().nodes.keys().cloned().collect())
    }

    /// Runs the imported thread on the graph of `text` from now on (the
    /// thread stays). Refused, changing nothing, when the spec is invalid or
    /// lacks a node the history names.
    pub fn attach_spec(&self, text: &str) -> Result<(), AttachError> {
        self.check_idle().map_err(AttachError::Invalid)?;
        let spec = GraphSpec::parse(text).map_err(|e| AttachError::Invalid(e.to_string()))?;
        let needed = self.history_nodes();
        let missing = import::missing_nodes(&needed, &spec);
        if !missing.is_empty() {
            return Err(AttachError::Missing(missing, needed));
        }
        self.session
            .try_update_value(|s| s.attach(spec.clone()))
            .unwrap_or_else(|| Err(chronograph::Error::value("the session is gone")))
            .map_err(|e| AttachError::Invalid(e.to_string()))?;
        self.topology
            .set(self.session.with_value(|s| s.graph().topology()));
        self.is_chat.set(scenarios::is_chat(&spec));
        self.scenario.set(CUSTOM.to_owned());
        self.spec_text.set(text.to_owned());
        self.error.set(None);
        self.refresh();
        self.save();
        self.persist_selection();
        Ok(())
    }

    /// The thread as `ThreadExport` JSON.
    pub fn export_text(&self) -> String {
        self.session
            .with_value(|s| s.export())
            .and_then(|e| serde_json::to_string_pretty(&e).ok())
            .unwrap_or_else(|| "null".into())
    }
}
