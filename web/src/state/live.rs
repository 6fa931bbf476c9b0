//! A server thread kept live on the page: the checkpoints of a run the
//! page started, drawn as the server streams them ([`AppState::show_streamed`]),
//! and the watch of the opened thread ([`AppState::watch`]), which follows
//! someone else's run by reading the history again while the thread is busy.
//!
//! Each redraw replaces the session with the thread read again and keeps
//! what the user sees: the log, the selection (by checkpoint id), the open
//! groups, the view and the lesson.

use leptos::prelude::*;
use serde_json::Value;
use std::rc::Rc;

use super::AppState;
use crate::import::Opened;
use crate::server::{fetch, get_thread, thread_status, Connection, LiveRun, ServerThread};
use crate::session::{Session, ThreadSource};

/// How often the watch asks the server whether the thread changed.
const WATCH_MS: u64 = 1000;

impl AppState {
    /// Puts `opened` (the thread of `thread`, read again or grown by a
    /// stream) in place of the page's session, keeping the log, the
    /// selection, the open groups and the view. `false` when it does not
    /// open (nothing changes then).
    pub(super) fn swap_server_session(&self, opened: Opened, thread: &ServerThread) -> bool {
        let Some(spec_text) = opened.spec else {
            return false;
        };
        let Ok(spec) = chronograph::GraphSpec::parse(&spec_text) else {
            return false;
        };
        let Ok(mut session) = Session::new(spec) else {
            return false;
        };
        if session
            .import_history(opened.thread, opened.next, "server")
            .is_err()
        {
            return false;
        }
        session.set_recorded_interrupts(opened.interrupted);
        session.set_source(ThreadSource::Server(thread.clone()));
        let log = self.session.with_value(|s| s.log().to_vec());
        session.carry_log(log, None);
        self.topology.set(session.graph().topology());
        self.spec_text.set(spec_text);
        self.session.set_value(session);
        self.refresh();
        true
    }

    /// Draws the thread with what `live` has streamed so far, the streamed
    /// checkpoints highlighted. An intermediate state that does not open
    /// (a subgraph's first checkpoint alone) waits for the next event.
    pub(super) fn show_streamed(&self, live: &LiveRun, thread: &ServerThread) {
        if let Ok(opened) = live.opened() {
            if self.swap_server_session(opened, thread) {
                self.fresh.set(live.streamed().map(str::to_owned).collect());
            }
        }
    }

    /// Puts the thread back as it was before a run whose outcome is
    /// unknown: the checkpoints it streamed are dropped.
    pub(super) fn drop_streamed(&self, before: Rc<Vec<Value>>, thread: &ServerThread) {
        if let Ok(opened) = LiveRun::new(before).opened() {
            self.swap_server_session(opened, thread);
        }
        self.fresh.set(Vec::new());
    }

    /// Stops the watch of the thread opened before.
    pub fn stop_watch(&self) {
        self.server.watch_generation.update_value(|g| *g += 1);
        self.server.watching.set(None);
    }

    /// Watches `thread` until another thread is opened: every second, `GET
    /// /threads/{id}`; while its status is `busy` (a run in flight, someone
    /// else's) the history is read again and drawn, new checkpoints
    /// highlighted, and once it is idle a last time. Nothing is asked while
    /// the page itself works on the server; the watch ends when the server
    /// does not answer.
    pub fn watch(&self, thread: ServerThread) {
        self.stop_watch();
        let generation = self.server.watch_generation.get_value();
        let state = *self;
        state.server.watching.set(Some(false));
        leptos::task::spawn_local(async move {
            let mut seen: Option<String> = None;
            loop {
                sleep(WATCH_MS).await;
                if state.server.watch_generation.try_get_value() != Some(generation) {
                    return;
                }
                if state.busy.get_untracked().is_some() {
                    continue;
                }
                let conn = state.connection_to(&thread.url);
                let Ok(answer) = fetch::send(&conn, &get_thread(&thread.thread_id)).await else {
                    // A server that stopped answering is not asked every second
                    // (opening the thread again watches it again).
                    if state.server.watch_generation.get_value() == generation {
                        state.stop_watch();
                    }
                    return;
                };
                let (busy, updated) = thread_status(&answer);
                let changed = seen.as_ref().is_some_and(|s| *s != updated);
                let following = state.server.watching.get_untracked() == Some(true);
                seen = Some(updated);
                if busy || changed || following {
                    state.reread(&conn, &thread, generation).await;
                }
                if state.server.watch_generation.get_value() == generation {
                    state.server.watching.set(Some(busy));
                }
            }
        });
    }

    /// Reads the watched thread again and draws it, unless the page has
    /// moved on (another thread, or an action of its own started).
    async fn reread(&self, conn: &Connection, thread: &ServerThread, generation: u64) {
        let Ok((opened, items)) =
            super::server::read_history(conn, &thread.thread_id, |_, _| {}).await
        else {
            return;
        };
        if self.server.watch_generation.get_value() != generation
            || self.busy.get_untracked().is_some()
        {
            return;
        }
        let before = self.session.with_value(|s| s.ids());
        self.server.history.set_value(items);
        if self.swap_server_session(opened, thread) {
            let after = self.session.with_value(|s| s.ids());
            let created = crate::server::created(&before, &after);
            if !created.is_empty() {
                self.fresh.set(created);
            }
            self.save();
        }
    }
}

/// Resolves after `ms` milliseconds (the browser's timer).
async fn sleep(ms: u64) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        set_timeout(
            move || {
                let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
            },
            std::time::Duration::from_millis(ms),
        );
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
