//! The buttons' actions, sent where the thread lives: the page's engine
//! ([`AppState::act`]) for an in-page thread, the LangGraph server for a
//! server thread. On the server, the calls run with the real graph, each
//! checkpoint drawn as the run streams it, then the whole history is read
//! again so the tree is the server's (same ids, parents, sources and
//! steps) and the new checkpoints are selected and highlighted as in-page
//! actions do. A failure changes nothing on the
//! page: the thread (without what a broken-off run streamed), the selection
//! and the lesson stay, and the log says what failed.

use leptos::prelude::*;

use super::AppState;
use crate::import::Origin;
use crate::server::{self, fetch, Connection, LiveRun, RunEvent, ServerAction, ServerError};
use crate::session::{Action, LogLine, ThreadSource};

impl AppState {
    /// Runs `action` where the thread lives, then calls `done` with its
    /// result (at once in the page, when the server has answered otherwise).
    pub fn perform(&self, action: Action, done: impl FnOnce(Result<(), String>) + 'static) {
        let Some(calls) = self.session.with_value(|s| s.server_action(&action)) else {
            done(self.act(|s| s.perform(action)).map(|_| ()));
            return;
        };
        if let Err(e) = self.check_idle() {
            done(Err(e));
            return;
        }
        let state = *self;
        let conn = self.connection_to(&calls.thread.url);
        let t = self.t_untracked();
        self.busy.set(Some(crate::i18n::fill(
            t.server_acting,
            &[("url", &conn.url)],
        )));
        leptos::task::spawn_local(async move {
            let before = state.server.history.get_value();
            let ids_before = state.session.with_value(|s| s.ids());
            let mut live = LiveRun::new(before.clone());
            let mut sent = Vec::new();
            let result = run(&conn, &calls, &mut sent, |item| {
                if live.take(item).is_some() {
                    state.show_streamed(&live, &calls.thread);
                }
            })
            .await;
            if let Ok(Some(copy)) = &result {
                // A fork into a new thread: the new thread is opened (and
                // named by the URL); the old one stays on the server as it was.
                state.busy.set(None);
                state.open_server_thread(conn, copy.clone());
                done(Ok(()));
                return;
            }
            let streamed = live.streamed().next().is_some();
            let reloaded = match result {
                Ok(_) => super::server::read_history(&conn, &calls.thread.thread_id, |_, _| {})
                    .await
                    // The run ended, but what it left cannot be read back.
                    .map_err(|e| match e {
                        ServerError::Unreachable(url) if streamed => ServerError::Dropped(url),
                        e => e,
                    }),
                Err(e) => Err(e),
            };
            state.busy.set(None);
            let result = match reloaded {
                Ok((opened, items)) => {
                    state.server.history.set_value(items);
                    state.reload_server_thread(opened, &calls, &sent, &ids_before)
                }
                Err(e) => {
                    if streamed {
                        state.drop_streamed(before, &calls.thread);
                    }
                    Err(state.log_server_failure(&e, &sent))
                }
            };
            if let Err(text) = &result {
                state.error.set(Some(text.clone()));
            }
            done(result);
        });
    }

    /// Writes the failed calls `sent` to the log, with why; returns the
    /// message the page shows.
    fn log_server_failure(&self, e: &ServerError, sent: &[String]) -> String {
        let text = self.server_failure(e);
        self.session.update_value(|s| {
            let log = s.log().to_vec();
            s.carry_log(
                log,
                Some(LogLine {
                    text: format!("{} ✗ {text}", sent.join(", ")),
                    failed: true,
                }),
            );
        });
        self.refresh();
        self.save();
        text
    }

    /// The page's connection when it is to `url` (it holds the API key),
    /// else a keyless one to `url`.
    pub(super) fn connection_to(&self, url: &str) -> Connection {
        self.server
            .connection
            .get_untracked()
            .filter(|c| c.url == url)
            .unwrap_or_else(|| Connection {
                url: url.to_owned(),
                api_key: None,
            })
    }

    /// `e` in the page's language, with the server's own text (as text).
    pub fn server_failure(&self, e: &ServerError) -> String {
        let t = self.t_untracked();
        let (what, fix, said) = crate::components::connect_dialog::describe(t, e);
        let mut text = what;
        for part in [
            fix.map(str::to_owned),
            said.map(|s| format!("{} {s}", t.server_says)),
        ]
        .into_iter()
        .flatten()
        {
            text.push(' ');
            text.push_str(&part);
        }
        text.push(' ');
        text.push_str(t.server_kept);
        text
    }

    /// Replaces the thread with its history read again after `calls` ran:
    /// the log, the open groups and the view carry over; what the action
    /// created (the ids not in `before`, streamed ones included) is
    /// selected and highlighted.
    fn reload_server_thread(
        &self,
        opened: crate::import::Opened,
        calls: &ServerAction,
        requests: &[String],
        before: &[String],
    ) -> Result<(), String> {
        let (log, expanded, viewport) = (
            self.log.get_untracked(),
            self.expanded.get_untracked(),
            self.viewport.get_untracked(),
        );
        self.open_thread(opened, Origin::Server)
            .map_err(|p| p.message)?;
        let after = self.session.with_value(|s| s.ids());
        let created = server::created(before, &after);
        let labels = self.session.with_value(|s| s.labels());
        let mut made = crate::session::made(&labels, &created);
        if let Some(check) = self.prediction_checked(&created) {
            made = format!("{made}; {check}");
        }
        self.session.update_value(|s| {
            s.set_source(ThreadSource::Server(calls.thread.clone()));
            s.carry_log(
                log,
                Some(LogLine {
                    text: format!("{} → {made}", requests.join(", ")),
                    failed: false,
                }),
            );
        });
        self.expanded.set(expanded);
        self.viewport.set(viewport);
        self.refresh();
        self.show_created(&created);
        self.save();
        self.persist_selection();
        Ok(())
    }
}

impl AppState {
    /// The Fork dialog's prediction against the `next` of the update's
    /// checkpoint (the oldest `created`: ids are time-ordered), as the
    /// server wrote it.
    fn prediction_checked(&self, created: &[String]) -> Option<String> {
        let predicted = self.server.predicted.get_untracked()?;
        self.server.predicted.set(None);
        let actual = self.session.with_value(|s| {
            s.checkpoints()
                .iter()
                .find(|c| Some(&c.id) == created.iter().min())
                .map(|c| c.next.clone())
        })?;
        let t = self.t_untracked();
        let template = if predicted.holds(&actual) {
            t.server_prediction_held
        } else {
            t.server_prediction_missed
        };
        let mut shown = predicted.certain.clone();
        shown.extend(predicted.possible.iter().map(|p| format!("{p}?")));
        Some(crate::i18n::fill(
            template,
            &[
                ("predicted", &shown.join(", ")),
                ("actual", &actual.join(", ")),
            ],
        ))
    }
}

/// Sends `calls` one after the other, each named in `sent` as the log
/// names it (`POST /threads/…/state`) before it goes; resolves to the new
/// thread a `/copy` made, if any. A run streams: each checkpoint it writes
/// goes to `on_checkpoint` as a `/history` item.
async fn run(
    conn: &Connection,
    calls: &ServerAction,
    sent: &mut Vec<String>,
    mut on_checkpoint: impl FnMut(serde_json::Value),
) -> Result<Option<String>, ServerError> {
    let mut copy = None;
    let mut request = Some(calls.first()?);
    while let Some(r) = request {
        sent.push(format!("{} {}", r.method, r.path));
        let answer = if server::streams(&r) {
            let mut failed = None;
            fetch::stream(conn, &r, |event| match server::run_event(&event) {
                Ok(RunEvent::Checkpoint(item)) => on_checkpoint(item),
                Ok(RunEvent::Failed(e)) | Err(e) => failed = failed.take().or(Some(e)),
                Ok(_) => {}
            })
            .await?;
            if let Some(e) = failed {
                return Err(e);
            }
            serde_json::Value::Null
        } else {
            fetch::send(conn, &r).await?
        };
        if r.path.ends_with("/copy") {
            copy = Some(server::copied_thread(&answer)?);
        }
        request = calls.next(&r, &answer)?;
    }
    Ok(copy)
}
