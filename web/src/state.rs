//! The only place that turns the [`Session`] into signals. Components read
//! [`AppState`] from context and change the thread only through
//! [`AppState::act`], which runs the engine call, refreshes the signals,
//! extends the layout incrementally and saves the session.

//!
//! The rest is in four files: `state/persist.rs` (what survives a
//! reload: the saved session, the selection and the URL),
//! `state/thread.rs` (replacing the thread: another graph, an import, an
//! attached spec), `state/groups.rs` (expanding subgraph runs in place)
//! and `state/server.rs` (threads read from a LangGraph server).

mod actions;
mod groups;
mod live;
mod persist;
mod server;
mod thread;

pub use groups::owner_chain;
pub use persist::{LANG_KEY, SELECTION_KEY, STORAGE_KEY};
pub use server::ServerState;
pub use thread::{AttachError, CUSTOM, IMPORTED};

use chronograph::{GraphSpec, Source, Topology};
use leptos::prelude::*;

use crate::browser;
use crate::i18n::{Lang, Strings};
use crate::import::Origin;
use crate::inspect::{self, SnapshotData};
use crate::layout::{Frame, Layout, Viewport};
use crate::scenarios::{self, Scenario};
use crate::session::{CheckpointView, LogLine, Namespace, Outcome, Session};
use std::collections::{BTreeMap, BTreeSet};

/// Reactive state shared by every panel.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The engine: graph, saver, thread, log.
    pub session: StoredValue<Session, LocalStorage>,
    /// Scenario id, or [`CUSTOM`].
    pub scenario: RwSignal<String>,
    /// The spec the session runs, as text.
    pub spec_text: RwSignal<String>,
    /// The graph has a `messages` channel.
    pub is_chat: RwSignal<bool>,
    /// The checkpoints drawn, in row order: the root namespace in creation
    /// order, with each expanded subgraph group right after its owner.
    pub checkpoints: RwSignal<Vec<CheckpointView>>,
    /// Checkpoint id → the subgraph namespaces its tasks wrote (any depth).
    pub runs: RwSignal<BTreeMap<String, Vec<Namespace>>>,
    /// Ids of the checkpoints whose subgraph runs are expanded in place.
    pub expanded: RwSignal<BTreeSet<String>>,
    /// The framed groups of the expanded runs.
    pub frames: RwSignal<Vec<Frame>>,
    /// Lanes and geometry of `checkpoints`, extended incrementally.
    pub layout: RwSignal<Layout>,
    /// Index of HEAD.
    pub head: RwSignal<Option<usize>>,
    /// Index of the selected checkpoint.
    pub selected: RwSignal<Option<usize>>,
    /// Index of the checkpoint pinned for diffs.
    pub pinned: RwSignal<Option<usize>>,
    /// Pan and zoom of the tree panel.
    pub viewport: RwSignal<Viewport>,
    /// Engine calls, oldest first.
    pub log: RwSignal<Vec<LogLine>>,
    /// The last action's error, shown next to the actions.
    pub error: RwSignal<Option<String>>,
    /// The graph drawn in the topology panel.
    pub topology: RwSignal<Topology>,
    /// Nodes a previewed action would run (lit in the topology view).
    pub will_run: RwSignal<Vec<String>>,
    /// The Fork dialog is open.
    pub fork_open: RwSignal<bool>,
    /// The lesson panel is open.
    pub lesson_open: RwSignal<bool>,
    /// The storage view is open.
    pub storage_open: RwSignal<bool>,
    /// Ids of the checkpoints the storage view's prune preview would drop
    /// (dimmed in the tree; nothing is deleted).
    pub pruned: RwSignal<BTreeSet<String>>,
    /// Tip of the branch the chat view shows (`None`: HEAD).
    pub chat_tip: RwSignal<Option<String>>,
    /// Checkpoints created by the last action (highlighted).
    pub fresh: RwSignal<Vec<String>>,
    /// Bumped after every change of the thread.
    pub version: RwSignal<u64>,
    /// Set when the last save to localStorage failed (the toolbar shows
    /// the catalogue's `storage_full`).
    pub storage_full: RwSignal<bool>,
    /// The language of every string the app shows.
    pub lang: RwSignal<Lang>,
    /// What is in flight ("Importing thread.json…"), while it is.
    ///
    /// Engine calls cannot race: the app links the engine as a Rust crate
    /// and runs graphs of built-in ops synchronously ([`Session`] blocks on
    /// each call), so an action runs to its end before the page handles the
    /// next event. The one asynchronous step is reading a file to import:
    /// while it is read every action is disabled and [`AppState::act`] and
    /// [`AppState::load_spec`] refuse, so nothing runs on a thread that is
    /// about to be replaced.
    pub busy: RwSignal<Option<String>>,
    /// The Import dialog is open.
    pub import_open: RwSignal<bool>,
    /// The last import: how many checkpoints, from which format (the
    /// toolbar says so until the thread is replaced).
    pub imported: RwSignal<Option<(usize, Origin)>>,
    /// The thread was imported from a history and runs wait for its graph.
    pub needs_graph: RwSignal<bool>,
    /// The spec editor is open (the imported thread's "Attach a graph spec" opens it).
    pub spec_open: RwSignal<bool>,
    /// The LangGraph server the page reads threads from, if any.
    pub server: ServerState,
}

impl AppState {
    /// A fresh, empty thread of a built-in scenario (no browser services).
    pub fn new(scenario: Scenario) -> Self {
        Self::with_scenario_text(scenario.id, scenario.spec)
    }

    fn with_scenario_text(id: &str, spec_text: &str) -> Self {
        let (spec, text, id) = match GraphSpec::parse(spec_text) {
            Ok(spec) => (spec, spec_text.to_owned(), id.to_owned()),
            Err(_) => {
                let s = scenarios::ALL[0];
                (
                    s.graph().expect("built-in"),
                    s.spec.to_owned(),
                    s.id.to_owned(),
                )
            }
        };
        let session = Session::new(spec.clone()).unwrap_or_else(|_| {
            Session::new(scenarios::ALL[0].graph().expect("built-in")).expect("built-in")
        });
        let topology = session.graph().topology();
        let state = Self {
            session: StoredValue::new_local(session),
            scenario: RwSignal::new(id),
            spec_text: RwSignal::new(text),
            is_chat: RwSignal::new(scenarios::is_chat(&spec)),
            checkpoints: RwSignal::new(Vec::new()),
            runs: RwSignal::new(BTreeMap::new()),
            expanded: RwSignal::new(BTreeSet::new()),
            frames: RwSignal::new(Vec::new()),
            layout: RwSignal::new(Layout::new()),
            head: RwSignal::new(None),
            selected: RwSignal::new(None),
            pinned: RwSignal::new(None),
            viewport: RwSignal::new(Viewport::default()),
            log: RwSignal::new(Vec::new()),
            error: RwSignal::new(None),
            topology: RwSignal::new(topology),
            will_run: RwSignal::new(Vec::new()),
            fork_open: RwSignal::new(false),
            lesson_open: RwSignal::new(false),
            storage_open: RwSignal::new(false),
            pruned: RwSignal::new(BTreeSet::new()),
            chat_tip: RwSignal::new(None),
            fresh: RwSignal::new(Vec::new()),
            version: RwSignal::new(0),
            storage_full: RwSignal::new(false),
            lang: RwSignal::new(Lang::En),
            busy: RwSignal::new(None),
            import_open: RwSignal::new(false),
            imported: RwSignal::new(None),
            needs_graph: RwSignal::new(false),
            spec_open: RwSignal::new(false),
            server: ServerState::new(),
        };
        state.refresh();
        state
    }

    /// The catalogue of the current language (tracked: a view that reads it
    /// re-renders when the language changes).
    pub fn t(&self) -> &'static Strings {
        self.lang.get().t()
    }

    /// The catalogue of the current language, outside a reactive view.
    pub fn t_untracked(&self) -> &'static Strings {
        self.lang.get_untracked().t()
    }

    /// Shows the app in `lang`: every string re-renders in place (the
    /// thread, the selection and the lesson position stay), and `<html
    /// lang>` and the page title follow.
    pub fn set_lang(&self, lang: Lang) {
        self.lang.set(lang);
        if cfg!(target_arch = "wasm32") {
            browser::set_document_lang(lang.html_tag(), lang.t().page_title);
        }
    }

    /// The user picked `lang` in the switch: [`Self::set_lang`], and the
    /// choice is saved for the next visit and named in the URL.
    pub fn choose_lang(&self, lang: Lang) {
        self.set_lang(lang);
        if cfg!(target_arch = "wasm32") {
            browser::save(LANG_KEY, lang.code());
            self.persist_selection();
        }
    }

    /// Re-reads the thread from the session: checkpoints, HEAD, log; extends
    /// the layout with the new checkpoints (recomputes it only when the thread
    /// was replaced, or when subgraph groups are expanded). Selection and pin
    /// follow their checkpoint when rows move.
    pub fn refresh(&self) {
        let (views, head, log, namespaces) = self
            .session
            .with_value(|s| (s.checkpoints(), s.head(), s.log().to_vec(), s.namespaces()));
        let mut runs: BTreeMap<String, Vec<Namespace>> = BTreeMap::new();
        for n in namespaces {
            runs.entry(n.owner.clone()).or_default().push(n);
        }
        let open: BTreeSet<String> = self.expanded.with_untracked(|e| {
            e.iter()
                .filter(|id| runs.contains_key(*id))
                .cloned()
                .collect()
        });
        let id_at = |i: Option<usize>| {
            i.and_then(|i| {
                self.checkpoints
                    .with_untracked(|c| c.get(i).map(|v| v.id.clone()))
            })
        };
        let (selected, pinned) = (
            id_at(self.selected.get_untracked()),
            id_at(self.pinned.get_untracked()),
        );
        let had_frames = self.frames.with_untracked(|f| !f.is_empty());
        if open.is_empty() {
            if had_frames {
                // Start the flat layout over (extend_flat then rebuilds it whole).
                self.checkpoints.update_untracked(Vec::clear);
                self.layout.update_untracked(|l| *l = Layout::new());
                self.frames.set(Vec::new());
            }
            self.extend_flat(views);
        } else {
            let (display, framed) = self
                .session
                .with_value(|s| groups::grouped(s, views, &runs, &open));
            self.layout.set(framed.layout);
            self.frames.set(framed.frames);
            self.checkpoints.set(display);
        }
        self.runs.set(runs);
        // Rows move when a group opens or closes: keep the same checkpoints marked.
        if had_frames || !open.is_empty() {
            let find = |id: Option<String>| id.and_then(|id| self.index_of(&id));
            let (sel, pin) = (find(selected), find(pinned));
            if self.selected.get_untracked() != sel {
                self.selected.set(sel);
            }
            if self.pinned.get_untracked() != pin {
                self.pinned.set(pin);
            }
        }
        // A server thread runs on its server: nothing waits for a graph spec.
        let needs_graph = self
            .session
            .with_value(|s| s.needs_graph() && !s.on_server());
        if self.needs_graph.get_untracked() != needs_graph {
            self.needs_graph.set(needs_graph);
        }
        let head_index = head.and_then(|h| self.index_of(&h));
        if self.head.get_untracked() != head_index {
            self.head.set(head_index);
        }
        self.log.set(log);
        self.version.update(|v| *v += 1);
    }

    /// The root namespace alone: extends the layout with the new
    /// checkpoints, or recomputes it when the thread was replaced.
    fn extend_flat(&self, views: Vec<CheckpointView>) {
        let extends = self.checkpoints.with_untracked(|old| {
            old.len() <= views.len() && old.iter().zip(&views).all(|(a, b)| a.id == b.id)
        });
        let old_len = self.checkpoints.with_untracked(Vec::len);
        if extends {
            if views.len() > old_len {
                self.layout.update(|l| {
                    for v in &views[old_len..] {
                        l.push(&v.id, v.parent.as_deref());
                    }
                });
            }
        } else {
            let mut l = Layout::with_capacity(views.len());
            for v in &views {
                l.push(&v.id, v.parent.as_deref());
            }
            self.layout.set(l);
        }
        if !extends || views.len() != old_len {
            self.checkpoints.set(views);
        }
    }

    /// Runs one engine action: refreshes the view, selects the newest
    /// checkpoint it created, records an error inline (and changes nothing
    /// else) when it fails, and saves the session.
    pub fn act(
        &self,
        f: impl FnOnce(&mut Session) -> chronograph::Result<Outcome>,
    ) -> Result<Outcome, String> {
        self.check_idle()?;
        let result = self
            .session
            .try_update_value(f)
            .unwrap_or_else(|| Err(chronograph::Error::value("the session is gone")));
        self.refresh();
        let out = match result {
            Ok(outcome) => {
                self.show_created(&outcome.created);
                Ok(outcome)
            }
            Err(e) => {
                let text = e.to_string();
                self.error.set(Some(text.clone()));
                Err(text)
            }
        };
        self.will_run.set(Vec::new());
        self.save();
        out
    }

    /// Selects and highlights what an action created: the newest checkpoint
    /// that is drawn (one inside a collapsed subgraph group is not). When
    /// none is (an update through a subgraph's config), the groups that hold
    /// the newest open, so an action never happens out of sight.
    fn show_created(&self, created: &[String]) {
        self.error.set(None);
        let mut drawn = created.iter().rev().find_map(|id| self.index_of(id));
        if let (None, Some(last)) = (drawn, created.last()) {
            self.reveal(last);
            drawn = self.index_of(last);
        }
        if drawn.is_some() {
            self.selected.set(drawn);
        }
        self.fresh.set(created.to_vec());
        self.chat_tip.set(None);
    }

    /// Whether the thread lives on a LangGraph server (tracks the thread):
    /// its runs are its server's, so the page offers no run bar of its own.
    pub fn on_server(&self) -> bool {
        self.version.track();
        self.session.with_value(Session::on_server)
    }

    /// Index of checkpoint `id`.
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.layout.with_untracked(|l| l.index_of(id))
    }

    /// The selected checkpoint (tracks `selected` and the thread).
    pub fn selected_view(&self) -> Option<CheckpointView> {
        let i = self.selected.get()?;
        self.checkpoints.with(|c| c.get(i).cloned())
    }

    /// The selected checkpoint, without tracking.
    pub fn selected_view_untracked(&self) -> Option<CheckpointView> {
        let i = self.selected.get_untracked()?;
        self.checkpoints.with_untracked(|c| c.get(i).cloned())
    }

    /// The view of checkpoint `i` (tracks the thread).
    pub fn view(&self, i: usize) -> Option<CheckpointView> {
        self.checkpoints.with(|c| c.get(i).cloned())
    }

    /// Snapshot of checkpoint `i` (tracks the thread's version).
    pub fn snapshot(&self, i: usize) -> Option<SnapshotData> {
        self.version.track();
        let id = self
            .checkpoints
            .with_untracked(|c| c.get(i).map(|v| v.id.clone()))?;
        self.session.with_value(|s| inspect::snapshot(s, &id))
    }

    /// Whether nothing is in flight (tracks [`AppState::busy`]): what enables the actions.
    pub fn idle(&self) -> bool {
        self.busy.with(Option::is_none)
    }

    /// `Err` naming what is in flight, when something is ([`AppState::busy`]).
    fn check_idle(&self) -> Result<(), String> {
        match self.busy.get_untracked() {
            Some(what) => {
                let text = crate::i18n::fill(self.t_untracked().busy_wait, &[("what", &what)]);
                self.error.set(Some(text.clone()));
                Err(text)
            }
            None => Ok(()),
        }
    }

    /// HEAD's id.
    pub fn head_id(&self) -> Option<String> {
        let i = self.head.get()?;
        self.checkpoints.with(|c| c.get(i).map(|v| v.id.clone()))
    }
}

/// The letter drawn in a checkpoint (a second cue besides colour).
pub fn letter(source: Source) -> &'static str {
    match source {
        Source::Input => "I",
        Source::Loop => "L",
        Source::Update => "U",
        Source::Fork => "F",
    }
}

/// Every source, in legend order.
pub const SOURCES: [Source; 4] = [Source::Input, Source::Loop, Source::Update, Source::Fork];
