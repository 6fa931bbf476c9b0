//! The Connect dialog: a LangGraph server's URL and optional API key, its
//! threads (status, graph, last update, metadata; newest first, with a
//! search box), and one click to open a thread read-only. A failure says
//! what it means and what to try, shows the server's own text as text, and
//! replaces nothing. Escape closes.

use leptos::prelude::*;

use super::modal::Modal;
use crate::browser;
use crate::i18n::{fill, Strings};
use crate::server::{Connection, ServerError, ThreadSummary};
use crate::state::AppState;

/// A failure in the page's language: what happened, what to try, and the
/// server's own text.
pub fn describe(t: &Strings, e: &ServerError) -> (String, Option<&'static str>, Option<String>) {
    match e {
        ServerError::BadUrl(url) => (fill(t.server_bad_url, &[("url", url)]), None, None),
        ServerError::Unreachable(url) => (
            fill(t.server_unreachable, &[("url", url)]),
            Some(t.server_unreachable_fix),
            None,
        ),
        // A status the message names, with the server's text.
        ServerError::Unauthorized(status, text)
        | ServerError::Status(status, text)
        | ServerError::Refused(status, text) => {
            let template = match e {
                ServerError::Unauthorized(..) => t.server_unauthorized,
                ServerError::Refused(..) => t.server_refused,
                _ => t.server_status,
            };
            (
                fill(template, &[("status", status)]),
                None,
                Some(text.clone()),
            )
        }
        ServerError::NotFound(text) => (t.server_not_found.into(), None, Some(text.clone())),
        ServerError::BadResponse(text) => (t.server_bad_response.into(), None, Some(text.clone())),
        ServerError::Busy(text) => (t.server_busy.into(), None, Some(text.clone())),
        ServerError::RunFailed(text) => (t.server_run_failed.into(), None, Some(text.clone())),
        ServerError::Dropped(url) => (
            fill(t.server_dropped, &[("url", url)]),
            Some(t.server_dropped_fix),
            None,
        ),
    }
}

/// The dialog's failure box (every part is text, never markup).
#[component]
fn ServerFailure(error: ServerError) -> impl IntoView {
    let state = expect_context::<AppState>();
    let t = move || state.t();
    let error = StoredValue::new(error);
    let parts = move || error.with_value(|e| describe(t(), e));
    view! {
        <div class="import-error server-error" role="alert" data-testid="server-error">
            <p class="error">{move || parts().0}</p>
            {move || parts().1.map(|fix| view! { <p class="small">{fix}</p> })}
            {move || parts().2.filter(|s| !s.is_empty()).map(|text| view! {
                <p class="small">{t().server_says}" "<span class="mono server-text">{text}</span></p>
            })}
            <p class="muted small">{move || t().server_kept}</p>
        </div>
    }
}

/// The server's threads, filtered by the search box.
#[component]
fn ThreadList(rows: Vec<ThreadSummary>, on_open: Callback<String>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let t = move || state.t();
    let query = RwSignal::new(String::new());
    let total = rows.len();
    let shown = Memo::new(move |_| {
        let q = query.get();
        rows.iter()
            .filter(|r| r.matches(&q))
            .cloned()
            .collect::<Vec<_>>()
    });
    view! {
        <label class="stack">
            <span>{move || t().connect_search}</span>
            <input type="search" autocomplete="off" prop:value=move || query.get()
                on:input=move |ev| query.set(event_target_value(&ev))/>
        </label>
        <h3 class="small" id="connect-threads">
            {move || fill(t().connect_threads, &[("n", &shown.with(Vec::len)), ("total", &total)])}
        </h3>
        <div class="thread-table-wrap">
            <table class="thread-table" aria-labelledby="connect-threads">
                <thead><tr>
                    <th scope="col">{move || t().col_thread}</th>
                    <th scope="col">{move || t().col_status}</th>
                    <th scope="col">{move || t().col_graph}</th>
                    <th scope="col">{move || t().col_updated}</th>
                    <th scope="col">{move || t().col_metadata}</th>
                </tr></thead>
                <tbody>
                    <For each=move || shown.get() key=|r| r.thread_id.clone() let:row>
                        <ThreadRow row on_open/>
                    </For>
                </tbody>
            </table>
        </div>
        <Show when=move || shown.with(Vec::is_empty)>
            <p class="muted small">{move || t().connect_none}</p>
        </Show>
    }
}

/// One thread of the list; its id is the button that opens it.
#[component]
fn ThreadRow(row: ThreadSummary, on_open: Callback<String>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let id = row.thread_id.clone();
    let label = {
        let id = id.clone();
        move || fill(state.t().connect_open_thread, &[("id", &id)])
    };
    view! {
        <tr>
            <td><button type="button" class="mono link" aria-label=label disabled=move || !state.idle()
                on:click=move |_| on_open.run(id.clone())>{row.thread_id.clone()}</button></td>
            <td>{row.status.clone()}</td>
            <td class="mono">{row.graph_id.clone().unwrap_or_default()}</td>
            <td class="mono">{row.updated_short()}</td>
            <td class="mono small metadata-cell">{row.metadata.clone()}</td>
        </tr>
    }
}

/// The modal Connect dialog (the app renders it while the server state's
/// `open` is set).
#[component]
pub fn ConnectDialog() -> impl IntoView {
    let state = expect_context::<AppState>();
    let server = state.server;
    let t = move || state.t();
    let key = RwSignal::new(
        server
            .connection
            .with_untracked(|c| c.as_ref().and_then(|c| c.api_key.clone()))
            .unwrap_or_default(),
    );
    let close = Callback::new(move |()| {
        server.open.set(false);
        browser::focus("connect-button");
    });
    let connection = move || Connection::new(&server.url.get_untracked(), &key.get_untracked());
    let list = move || match connection() {
        Ok(conn) => state.list_server_threads(conn),
        Err(e) => server.error.set(Some(e)),
    };
    let on_open = Callback::new(move |thread: String| match connection() {
        Ok(conn) => state.open_server_thread(conn, thread),
        Err(e) => server.error.set(Some(e)),
    });
    let url_ref = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(i) = url_ref.get() {
            let _ = i.focus();
        }
    });
    view! {
        <Modal labelled_by="connect-title" class="import-dialog connect-dialog" described_by="connect-intro"
            on_close=close>
            <h2 id="connect-title">{move || t().connect_title}</h2>
            <p id="connect-intro" class="muted small">{move || t().connect_intro}</p>
            <form class="connect-form" on:submit=move |ev| { ev.prevent_default(); list(); }>
                <label class="stack">
                    <span>{move || t().connect_url}</span>
                    <input node_ref=url_ref type="url" class="mono" autocomplete="off" spellcheck="false"
                        prop:value=move || server.url.get()
                        on:input=move |ev| server.url.set(event_target_value(&ev))/>
                </label>
                <label class="stack">
                    <span>{move || t().connect_key}</span>
                    <input type="password" autocomplete="off" prop:value=move || key.get()
                        on:input=move |ev| key.set(event_target_value(&ev))/>
                </label>
                <div class="dialog-buttons">
                    <span class="grow"></span>
                    <button type="submit" class="primary" disabled=move || !state.idle()>{move || t().connect_list}</button>
                </div>
            </form>
            {move || state.busy.get().map(|b| view! { <p class="busy" role="status">{format!("{b}…")}</p> })}
            {move || server.error.get().map(|error| view! { <ServerFailure error/> })}
            {move || server.threads.get().map(|rows| view! { <ThreadList rows on_open/> })}
            <div class="dialog-buttons">
                <span class="grow"></span>
                <button type="button" on:click=move |_| close.run(())>{move || t().cancel}</button>
            </div>
        </Modal>
    }
}
