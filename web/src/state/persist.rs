//! What survives a reload: the session (scenario, spec, thread, log) in
//! localStorage, saved a moment after each change; the selection and the
//! language, saved as they change and named in the URL; and the state
//! restored from them.

use chronograph::ThreadExport;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::AppState;
use crate::browser;
use crate::i18n::Lang;
use crate::scenarios;
use crate::session::{LogLine, Session};

/// localStorage key of the saved session.
pub const STORAGE_KEY: &str = "chronograph.session";

/// localStorage key of the saved selection (saved on every selection change).
pub const SELECTION_KEY: &str = "chronograph.selected";

/// localStorage key of the chosen language.
pub const LANG_KEY: &str = "chronograph.lang";

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
        // A server thread is named by its server and id (never the key), so
        // a reload or a shared link reads it from the server again.
        let server = self.server.opened.get_untracked();
        browser::set_query(&[
            ("server", server.as_ref().map(|(url, _)| url.as_str())),
            ("thread", server.as_ref().map(|(_, id)| id.as_str())),
            ("scenario", Some(scenario.as_str())),
            ("checkpoint", label.as_deref()),
            ("lang", named.then_some(lang.code())),
        ]);
    }
}
