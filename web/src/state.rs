//! The only place that turns the [`Session`] into signals. Components read
//! [`AppState`] from context and change the thread only through
//! [`AppState::act`], which runs the engine call, refreshes the signals,
//! extends the layout incrementally and saves the session.

use chronograph::{GraphSpec, Source, ThreadExport, Topology};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::browser;
use crate::i18n::{Lang, Strings};
use crate::import::{self, Origin, Problem};
use crate::inspect::{self, SnapshotData};
use crate::layout::{layout_groups, Frame, Group, Layout, NodeIn, Viewport};
use crate::scenarios::{self, Scenario};
use crate::session::{CheckpointView, LogLine, Namespace, Outcome, Session};
use std::collections::{BTreeMap, BTreeSet};

/// localStorage key of the saved session.
pub const STORAGE_KEY: &str = "chronograph.session";
/// localStorage key of the saved selection (saved on every selection change).
pub const SELECTION_KEY: &str = "chronograph.selected";
/// localStorage key of the chosen language.
pub const LANG_KEY: &str = "chronograph.lang";
/// The scenario id used for a pasted or edited spec.
pub const CUSTOM: &str = "custom";
/// The scenario id of a thread imported from a LangGraph history (its
/// graph written from the history, until a spec is attached).
pub const IMPORTED: &str = "imported";

thread_local! {
    static SAVE_PENDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// What survives a reload.
#[derive(Serialize, Deserialize)]
struct Saved {
    scenario: String,
    spec: String,
    thread: Option<ThreadExport>,
    #[serde(default)]
    log: Vec<(String, bool)>,
    /// The thread came from a history and waits for its graph.
    #[serde(default)]
    needs_graph: bool,
    /// Each imported checkpoint's `next` as LangGraph recorded it.
    #[serde(default)]
    next: BTreeMap<String, Vec<String>>,
}

/// Why a spec cannot be attached to an imported thread.
#[derive(Clone, Debug, PartialEq)]
pub enum AttachError {
    /// The spec does not parse or compile (the engine's text).
    Invalid(String),
    /// The spec lacks nodes the history names: `(missing, every name)`.
    Missing(Vec<String>, Vec<String>),
}

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
}

impl AppState {
    /// State restored from the URL and localStorage, or the chat scenario.
    pub fn restore() -> Self {
        let url_scenario = browser::query("scenario");
        let saved: Option<Saved> =
            browser::load(STORAGE_KEY).and_then(|t| serde_json::from_str(&t).ok());
        let saved = saved.filter(|s| url_scenario.as_ref().is_none_or(|u| *u == s.scenario));
        let state = match saved {
            Some(saved) => {
                let state = Self::with_scenario_text(&saved.scenario, &saved.spec);
                if let Some(thread) = saved.thread {
                    let (needs_graph, next) = (saved.needs_graph, saved.next);
                    state.session.update_value(|s| {
                        if s.import(thread).is_ok() {
                            s.set_recorded_next(next);
                            s.set_needs_graph(needs_graph);
                        }
                    });
                }
                state.refresh();
                state.log.set(
                    saved
                        .log
                        .into_iter()
                        .map(|(text, failed)| LogLine { text, failed })
                        .collect(),
                );
                state
            }
            None => {
                let scenario = url_scenario
                    .as_deref()
                    .and_then(scenarios::by_id)
                    .unwrap_or(scenarios::ALL[0]);
                Self::with_scenario_text(scenario.id, scenario.spec)
            }
        };
        state.set_lang(Lang::pick(
            [browser::query("lang"), browser::load(LANG_KEY)]
                .into_iter()
                .flatten()
                .chain(browser::languages())
                .collect::<Vec<_>>()
                .iter()
                .map(String::as_str),
        ));
        let wanted = browser::query("checkpoint").or_else(|| browser::load(SELECTION_KEY));
        let index = wanted.and_then(|label| {
            state
                .checkpoints
                .with_untracked(|c| c.iter().position(|v| v.label == label))
        });
        state
            .selected
            .set(index.or_else(|| state.head.get_untracked()));
        state.persist_selection();
        state
    }

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
            let (display, framed) = self.session.with_value(|s| grouped(s, views, &runs, &open));
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
        let needs_graph = self.session.with_value(Session::needs_graph);
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
                self.error.set(None);
                // The newest checkpoint it created that is drawn (one inside
                // a collapsed subgraph group is not). When none is (an update
                // through a subgraph's config), open the groups that hold the
                // newest, so an action never happens out of sight.
                let mut drawn = outcome
                    .created
                    .iter()
                    .rev()
                    .find_map(|id| self.index_of(id));
                if let (None, Some(last)) = (drawn, outcome.created.last()) {
                    self.reveal(last);
                    drawn = self.index_of(last);
                }
                if drawn.is_some() {
                    self.selected.set(drawn);
                }
                self.fresh.set(outcome.created.clone());
                self.chat_tip.set(None);
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
        let (count, origin) = (opened.len(), opened.origin);
        let engine = |e: chronograph::Error| Problem::new(e.to_string());
        match opened.spec {
            Some(spec_text) => {
                // Everything that can fail runs before anything is replaced.
                let spec = GraphSpec::parse(&spec_text).map_err(engine)?;
                let mut session = Session::new(spec).map_err(engine)?;
                session
                    .import_history(opened.thread, opened.next)
                    .map_err(engine)?;
                self.install(session, IMPORTED, spec_text);
            }
            None => {
                self.session
                    .try_update_value(|s| s.import(opened.thread))
                    .unwrap_or_else(|| Err(chronograph::Error::value("the session is gone")))
                    .map_err(engine)?;
            }
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

    /// Saves scenario, spec, thread and log to localStorage, a moment later
    /// (after the new checkpoints are painted; one save for a burst of actions).
    pub fn save(&self) {
        if !cfg!(target_arch = "wasm32") {
            return;
        }
        let state = *self;
        let pending = SAVE_PENDING.with(|p| p.replace(true));
        if !pending {
            set_timeout(
                move || {
                    SAVE_PENDING.with(|p| p.set(false));
                    state.save_now();
                },
                std::time::Duration::from_millis(120),
            );
        }
    }

    /// Saves right away (see [`AppState::save`]).
    pub fn save_now(&self) {
        let saved = Saved {
            scenario: self.scenario.get_untracked(),
            spec: self.spec_text.get_untracked(),
            thread: self.session.with_value(|s| s.export()),
            log: self
                .log
                .with_untracked(|l| l.iter().map(|x| (x.text.clone(), x.failed)).collect()),
            needs_graph: self.session.with_value(Session::needs_graph),
            next: self.session.with_value(|s| s.recorded_next().clone()),
        };
        let Ok(text) = serde_json::to_string(&saved) else {
            return;
        };
        let full = !browser::save(STORAGE_KEY, &text);
        if full {
            // Drop the older copy, so a reload does not bring back a stale thread.
            browser::remove(STORAGE_KEY);
        }
        if self.storage_full.get_untracked() != full {
            self.storage_full.set(full);
        }
    }

    /// Saves the selection and writes scenario + selection into the URL.
    pub fn persist_selection(&self) {
        if !cfg!(target_arch = "wasm32") {
            return;
        }
        let label = self.selected.get_untracked().and_then(|i| {
            self.checkpoints
                .with_untracked(|c| c.get(i).map(|v| v.label.clone()))
        });
        match &label {
            Some(l) => {
                // A selection that does not fit is not worth a warning.
                let _ = browser::save(SELECTION_KEY, l);
            }
            None => browser::remove(SELECTION_KEY),
        }
        let scenario = self.scenario.get_untracked();
        // The URL names the language once it was asked for there or differs
        // from the browser's own, so a shared link opens in the same language.
        let lang = self.lang.get_untracked();
        let named = browser::query("lang").is_some()
            || lang != Lang::pick(browser::languages().iter().map(String::as_str));
        browser::set_query(&[
            ("scenario", Some(scenario.as_str())),
            ("checkpoint", label.as_deref()),
            ("lang", named.then_some(lang.code())),
        ]);
    }

    /// HEAD's id.
    pub fn head_id(&self) -> Option<String> {
        let i = self.head.get()?;
        self.checkpoints.with(|c| c.get(i).map(|v| v.id.clone()))
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
fn grouped(
    session: &Session,
    views: Vec<CheckpointView>,
    runs: &BTreeMap<String, Vec<Namespace>>,
    open: &BTreeSet<String>,
) -> (Vec<CheckpointView>, crate::layout::Framed) {
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

#[cfg(test)]
mod tests {
    use super::*;
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
