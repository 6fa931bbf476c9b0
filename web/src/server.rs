//! A LangGraph Agent Server (`langgraph dev`, a self-hosted server, a
//! LangGraph Platform deployment) as a source of threads: its thread list
//! and a thread's whole history, opened read-only as the engine's thread.
//!
//! Everything here is pure Rust over JSON (no Leptos, no browser): the
//! requests the app sends ([`Request`], built by [`search_threads`],
//! [`get_thread`] and [`HistoryLoader`]), the thread list read from
//! `POST /threads/search` ([`ThreadSummary`]), the history paged with
//! `limit`/`before` until its root and then every subgraph namespace the
//! tasks name ([`HistoryLoader`]), and what an HTTP failure means
//! ([`ServerError`]). The pages are an Agent Server history, so the thread
//! opens through [`crate::import::open`], as a pasted history does: one
//! mapping for both. Only `server/fetch.rs` talks to the network.
//!
//! Actions on a server thread (replay, fork, resume, copy, fork into a
//! new thread) are further
//! [`Request`]s over the same [`Connection`] ([`ServerAction`]): the server
//! runs them with its real graph, streaming each checkpoint as it writes it
//! ([`EventParser`], [`run_event`], [`LiveRun`]), and the app reloads the
//! history after.

mod actions;
mod graph;
mod history;
mod stream;
mod threads;

pub mod fetch;

#[cfg(test)]
mod actions_tests;
#[cfg(test)]
mod stream_tests;
#[cfg(test)]
mod tests;

pub use actions::{
    copied_thread, created, graph_id, run_ended, streams, updated_checkpoint, At, ServerAction,
    ServerThread, Step,
};
pub use graph::{NextAfter, ServerGraph};
pub use history::{HistoryLoader, Progress, PAGE_LIMIT};
pub use stream::{history_item, run_event, Event, EventParser, LiveRun, RunEvent};
pub use threads::{search_threads, summaries, thread_status, ThreadSummary, SEARCH_LIMIT};

use serde_json::Value;

/// Where `langgraph dev` listens unless told otherwise.
pub const DEFAULT_URL: &str = "http://127.0.0.1:2024";

/// A server the page talks to. The API key lives only here, in memory,
/// for as long as the page is open: never in the URL, an export or
/// localStorage.
#[derive(Clone, PartialEq, Eq)]
pub struct Connection {
    /// The server's base URL, without a trailing slash.
    pub url: String,
    /// Sent as `x-api-key` when set (deployments; `langgraph dev` needs none).
    pub api_key: Option<String>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key never reaches a log line.
        f.debug_struct("Connection")
            .field("url", &self.url)
            .field("api_key", &self.api_key.as_ref().map(|_| "…"))
            .finish()
    }
}

impl Connection {
    /// A connection to `url` (checked by [`normalize_url`]); an empty key is none.
    pub fn new(url: &str, api_key: &str) -> Result<Connection, ServerError> {
        let key = api_key.trim();
        Ok(Connection {
            url: normalize_url(url)?,
            api_key: (!key.is_empty()).then(|| key.to_owned()),
        })
    }

    /// The headers of every request: JSON, and the key when there is one.
    pub fn headers(&self) -> Vec<(&'static str, String)> {
        let mut h = vec![("content-type", "application/json".to_owned())];
        if let Some(k) = &self.api_key {
            h.push(("x-api-key", k.clone()));
        }
        h
    }

    /// The full URL of `request`.
    pub fn url_of(&self, request: &Request) -> String {
        format!("{}{}", self.url, request.path)
    }
}

/// `http://host:port/` (spaces and trailing slashes off); only `http` and
/// `https` URLs are servers.
pub fn normalize_url(url: &str) -> Result<String, ServerError> {
    let url = url.trim().trim_end_matches('/');
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"));
    match rest {
        Some(host) if !host.is_empty() && !host.contains(char::is_whitespace) => Ok(url.to_owned()),
        _ => Err(ServerError::BadUrl(url.to_owned())),
    }
}

/// One HTTP call to the server.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// `GET` or `POST`.
    pub method: &'static str,
    /// The path and query, from `/` (ids are percent-encoded).
    pub path: String,
    /// The JSON body of a `POST`.
    pub body: Option<Value>,
}

impl Request {
    fn get(path: String) -> Request {
        Request {
            method: "GET",
            path,
            body: None,
        }
    }

    fn post(path: String, body: Value) -> Request {
        Request {
            method: "POST",
            path,
            body: Some(body),
        }
    }
}

/// `GET /threads/{id}`: one thread (a deep link checks it exists).
pub fn get_thread(thread_id: &str) -> Request {
    Request::get(format!("/threads/{}", encode(thread_id)))
}

/// `GET /assistants/{id}/graph?xray=true`: the graph, subgraphs included.
pub fn get_graph(assistant_id: &str) -> Request {
    Request::get(format!(
        "/assistants/{}/graph?xray=true",
        encode(assistant_id)
    ))
}

/// A path segment, percent-encoded (ids are the user's text in a deep link).
fn encode(segment: &str) -> String {
    segment
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Why a call to the server failed. The server's own text is kept as it
/// came, and shown as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerError {
    /// Not an `http(s)://` URL.
    BadUrl(String),
    /// No answer: the server is not running, or the browser refused the
    /// answer (CORS, a private-network block). A page cannot tell these apart.
    Unreachable(String),
    /// 401 or 403: the API key is missing or wrong.
    Unauthorized(u16, String),
    /// 404: no such thread (or assistant).
    NotFound(String),
    /// 409: the thread is running already (LangGraph's multitask rules:
    /// the app's runs ask to be rejected rather than queued).
    Busy(String),
    /// 400 or 422: LangGraph refused the request (an unknown node, values
    /// that are not a state update, a checkpoint it does not know).
    Refused(u16, String),
    /// The run started but the graph raised (`__error__` in the answer).
    RunFailed(String),
    /// The server at this URL stopped answering in the middle of a run (the
    /// stream broke off, or the history could not be read after it): what
    /// the run did on the server is unknown.
    Dropped(String),
    /// Any other failure status, with the server's text.
    Status(u16, String),
    /// A 2xx answer that is not what the API documents.
    BadResponse(String),
}

impl ServerError {
    /// The error a failure status `status` with body `body` means.
    pub fn from_status(status: u16, body: &str) -> ServerError {
        let text = detail(body);
        match status {
            401 | 403 => ServerError::Unauthorized(status, text),
            404 => ServerError::NotFound(text),
            409 => ServerError::Busy(text),
            400 | 422 => ServerError::Refused(status, text),
            _ => ServerError::Status(status, text),
        }
    }
}

/// The server's message in an error body: FastAPI's `detail` (a string, or
/// a list of problems), else the body itself.
pub fn detail(body: &str) -> String {
    match serde_json::from_str::<Value>(body) {
        Ok(Value::Object(o)) => match o.get("detail").or_else(|| o.get("message")) {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => body.trim().to_owned(),
        },
        _ => body.trim().to_owned(),
    }
}
