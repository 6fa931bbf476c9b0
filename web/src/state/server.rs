//! A LangGraph server as the page's source of threads: the Connect
//! dialog's state, the thread list, and opening a server thread through
//! [`AppState::open_thread`] (the same session and drawing as an imported
//! one). The calls are [`crate::server`]'s; a failure leaves the page's
//! thread, selection and lesson as they were.

use leptos::prelude::*;
use serde_json::Value;
use std::rc::Rc;

use super::AppState;
use crate::server::{
    Connection, NextAfter, ServerError, ServerGraph, ServerThread, ThreadSummary, DEFAULT_URL,
};
use crate::session::ThreadSource;

/// The server side of the page. The API key is held in
/// [`ServerState::connection`] only (memory, this page's lifetime).
#[derive(Clone, Copy)]
pub struct ServerState {
    /// The Connect dialog is open.
    pub open: RwSignal<bool>,
    /// The URL typed in the dialog.
    pub url: RwSignal<String>,
    /// The server last connected to, with its key.
    pub connection: RwSignal<Option<Connection>>,
    /// The server's threads, newest first, once listed.
    pub threads: RwSignal<Option<Vec<ThreadSummary>>>,
    /// The last failure, shown in the dialog.
    pub error: RwSignal<Option<ServerError>>,
    /// The page's thread came from this server: `(url, thread id)` (the
    /// URL names them, so a reload opens it again).
    pub opened: RwSignal<Option<(String, String)>>,
    /// The graph of the opened thread's assistant (`GET
    /// /assistants/{graph_id}/graph?xray=true`): the Fork dialog's "As node"
    /// choices and what it can predict. `None` when the server gave none.
    pub graph: RwSignal<Option<ServerGraph>>,
    /// What the Fork dialog predicted for the "Apply and run" in flight,
    /// checked against the server's `next` when it has answered.
    pub predicted: RwSignal<Option<NextAfter>>,
    /// The opened thread's history items as the server last answered them
    /// (every namespace): what a streamed run's checkpoints are added to.
    pub history: StoredValue<Rc<Vec<Value>>, LocalStorage>,
    /// The watch of the opened thread: `Some(true)` while someone's run
    /// changes it (followed), `Some(false)` while it is idle, `None` when
    /// no server thread is open.
    pub watching: RwSignal<Option<bool>>,
    /// Bumped when another thread is opened: an older watch sees it and stops.
    pub watch_generation: StoredValue<u64>,
}

impl ServerState {
    /// No server yet.
    pub fn new() -> ServerState {
        ServerState {
            open: RwSignal::new(false),
            url: RwSignal::new(DEFAULT_URL.to_owned()),
            connection: RwSignal::new(None),
            threads: RwSignal::new(None),
            error: RwSignal::new(None),
            opened: RwSignal::new(None),
            graph: RwSignal::new(None),
            predicted: RwSignal::new(None),
            history: StoredValue::new_local(Rc::new(Vec::new())),
            watching: RwSignal::new(None),
            watch_generation: StoredValue::new(0),
        }
    }

    /// Opens the Connect dialog.
    pub fn show_dialog(&self) {
        self.error.set(None);
        self.open.set(true);
    }
}

impl Default for ServerState {
    fn default() -> Self {
        Self::new()
    }
}

impl AppState {
    /// Lists the threads of `conn` into [`ServerState::threads`].
    pub fn list_server_threads(&self, conn: Connection) {
        let state = *self;
        let t = self.t_untracked();
        state.server.error.set(None);
        state.server.threads.set(None);
        state.busy.set(Some(crate::i18n::fill(
            t.connect_listing,
            &[("url", &conn.url)],
        )));
        leptos::task::spawn_local(async move {
            let result = crate::server::fetch::send(&conn, &crate::server::search_threads())
                .await
                .and_then(|body| crate::server::summaries(&body));
            state.busy.set(None);
            state.server.connection.set(Some(conn));
            match result {
                Ok(rows) => state.server.threads.set(Some(rows)),
                Err(e) => state.server.error.set(Some(e)),
            }
        });
    }

    /// Opens thread `thread_id` of `conn`: checks it exists, pages its whole
    /// history (progress in [`AppState::busy`]), then replaces the page's
    /// thread. On failure the dialog opens with the error, nothing replaced.
    pub fn open_server_thread(&self, conn: Connection, thread_id: String) {
        let state = *self;
        let progress = move |n: usize, pages: usize| {
            let t = state.t_untracked();
            state.busy.set(Some(crate::i18n::fill(
                t.connect_loading,
                &[("n", &n), ("pages", &pages)],
            )));
        };
        progress(0, 0);
        state.server.error.set(None);
        leptos::task::spawn_local(async move {
            let result = load(&conn, &thread_id, progress).await;
            let graph = match &result {
                Ok((_, Some(assistant), _)) => assistant_graph(&conn, assistant).await,
                _ => None,
            };
            state.busy.set(None);
            let url = conn.url.clone();
            state.server.connection.set(Some(conn));
            let opened = result.and_then(|(opened, assistant_id, items)| {
                state.server.history.set_value(items);
                state
                    .open_thread(opened, crate::import::Origin::Server)
                    .map_err(|p| ServerError::BadResponse(p.message))?;
                Ok(ServerThread {
                    url: url.clone(),
                    thread_id: thread_id.clone(),
                    assistant_id,
                })
            });
            match opened {
                Ok(thread) => {
                    // Its actions run on the server from now on.
                    let source = ThreadSource::Server(thread.clone());
                    state.session.update_value(|s| s.set_source(source));
                    state.refresh();
                    state.server.opened.set(Some((url, thread_id)));
                    state.server.graph.set(graph);
                    state.server.open.set(false);
                    state.persist_selection();
                    state.watch(thread);
                }
                Err(e) => {
                    state.server.url.set(url);
                    state.server.error.set(Some(e));
                    state.server.open.set(true);
                }
            }
        });
    }

    /// Opens what a deep link names (the page URL's `server` and `thread`,
    /// read before the page rewrites its URL): `?server=URL&thread=ID` a
    /// thread, `?server=URL` alone the server's thread list.
    pub fn open_deep_link(&self, server: Option<String>, thread: Option<String>) {
        let Some(url) = server else {
            return;
        };
        self.server.url.set(url.clone());
        let conn = match Connection::new(&url, "") {
            Ok(c) => c,
            Err(e) => {
                self.server.error.set(Some(e));
                self.server.open.set(true);
                return;
            }
        };
        match thread {
            Some(thread) => self.open_server_thread(conn, thread),
            None => {
                self.server.open.set(true);
                self.list_server_threads(conn);
            }
        }
    }
}

/// Thread `thread_id` of `conn` read whole: opened, the graph its runs use
/// (`metadata.graph_id`) and the history items as the server answered;
/// `progress` hears of each page.
pub(super) async fn load(
    conn: &Connection,
    thread_id: &str,
    progress: impl Fn(usize, usize),
) -> Result<(crate::import::Opened, Option<String>, Rc<Vec<Value>>), ServerError> {
    use crate::server::{fetch, get_thread, graph_id};
    let thread = fetch::send(conn, &get_thread(thread_id)).await?;
    let (opened, items) = read_history(conn, thread_id, progress).await?;
    Ok((opened, graph_id(&thread), items))
}

/// The history of thread `thread_id`, paged to its root: opened, and the
/// items as the server answered. What a reload after a run, or the watch,
/// reads again (the thread's own record was read when it was opened).
pub(super) async fn read_history(
    conn: &Connection,
    thread_id: &str,
    progress: impl Fn(usize, usize),
) -> Result<(crate::import::Opened, Rc<Vec<Value>>), ServerError> {
    use crate::server::{fetch, HistoryLoader};
    let loader = fetch::load_history(conn, HistoryLoader::new(thread_id), |p| {
        progress(p.checkpoints, p.pages);
    })
    .await?;
    let items = Rc::new(loader.items().to_vec());
    let opened = loader
        .finish()
        .map_err(|p| ServerError::BadResponse(p.message))?;
    Ok((opened, items))
}

/// The assistant's graph, with its subgraphs; `None` when the server has
/// none to give (the dialog then offers the nodes the history names).
async fn assistant_graph(conn: &Connection, assistant: &str) -> Option<ServerGraph> {
    let answer = crate::server::fetch::send(conn, &crate::server::get_graph(assistant)).await;
    answer.ok().and_then(|a| ServerGraph::parse(&a).ok())
}
