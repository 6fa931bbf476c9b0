//! The server's thread list: `POST /threads/search`, newest first, and the
//! search box's filter over it.

use super::{Request, ServerError};
use serde_json::{json, Value};

/// How many threads the list asks for (the newest).
pub const SEARCH_LIMIT: usize = 100;

/// `POST /threads/search`: the newest threads first.
pub fn search_threads() -> Request {
    Request::post(
        "/threads/search".to_owned(),
        json!({"limit": SEARCH_LIMIT, "offset": 0, "sort_by": "updated_at", "sort_order": "desc"}),
    )
}

/// One row of the thread list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadSummary {
    /// `thread_id`.
    pub thread_id: String,
    /// `idle`, `busy`, `interrupted` or `error`.
    pub status: String,
    /// The graph that runs it (`metadata.graph_id`), when known.
    pub graph_id: Option<String>,
    /// `updated_at`, as the server wrote it (ISO 8601).
    pub updated_at: String,
    /// The thread's metadata, as compact JSON text.
    pub metadata: String,
}

impl ThreadSummary {
    /// Whether the search box's `query` matches: any of its words in the
    /// id, status, graph or metadata, ignoring case.
    pub fn matches(&self, query: &str) -> bool {
        let hay = format!(
            "{} {} {} {}",
            self.thread_id,
            self.status,
            self.graph_id.as_deref().unwrap_or(""),
            self.metadata
        )
        .to_lowercase();
        query
            .split_whitespace()
            .all(|w| hay.contains(&w.to_lowercase()))
    }

    /// `updated_at` to the second, for the list (`2026-12-05 15:13:34`).
    pub fn updated_short(&self) -> String {
        self.updated_at
            .chars()
            .take(19)
            .collect::<String>()
            .replace('T', " ")
    }
}

/// The rows of a `POST /threads/search` answer, newest first.
pub fn summaries(body: &Value) -> Result<Vec<ThreadSummary>, ServerError> {
    let items = body
        .as_array()
        .ok_or_else(|| ServerError::BadResponse("/threads/search did not answer a list".into()))?;
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let mut rows: Vec<ThreadSummary> = items
        .iter()
        .filter(|t| t.get("thread_id").is_some_and(Value::is_string))
        .map(|t| {
            let metadata = t.get("metadata").cloned().unwrap_or(Value::Null);
            ThreadSummary {
                thread_id: text(t, "thread_id"),
                status: text(t, "status"),
                graph_id: metadata
                    .get("graph_id")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                updated_at: text(t, "updated_at"),
                metadata: if metadata.is_null() {
                    String::new()
                } else {
                    metadata.to_string()
                },
            }
        })
        .collect();
    // ISO 8601 in one zone sorts as text; the server sorted already, but a
    // proxy or an older server may not have.
    crate::sort::sort_by(&mut rows, |a, b| b.updated_at.cmp(&a.updated_at));
    Ok(rows)
}

/// What `GET /threads/{id}` says of a thread the page watches: whether a
/// run is in flight on it (`status: "busy"`) and when it last changed
/// (`updated_at`, which a finished run or an update moves).
pub fn thread_status(thread: &Value) -> (bool, String) {
    let text = |k: &str| thread.get(k).and_then(Value::as_str).unwrap_or_default();
    (text("status") == "busy", text("updated_at").to_owned())
}
