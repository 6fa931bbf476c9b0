//! A thread's whole history, as the server gives it: `POST
//! /threads/{id}/history` paged with `limit`/`before` until the root (the
//! server answers 1 checkpoint unless `limit` is given, and at most 1,000
//! per request), then the same for every subgraph namespace a task's
//! checkpoint names, at any depth. The pages together are an Agent Server
//! history, opened by [`crate::import::open`].

use super::{encode, Request, ServerError};
use crate::import::{self, Opened, Problem};
use serde_json::{json, Value};
use std::collections::{BTreeSet, VecDeque};

/// The most checkpoints an Agent Server returns per history request.
pub const PAGE_LIMIT: usize = 1000;

/// How far a [`HistoryLoader`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Checkpoints received, every namespace.
    pub checkpoints: usize,
    /// Requests answered.
    pub pages: usize,
    /// Namespaces known but not yet (fully) loaded, the current one included.
    pub namespaces_left: usize,
}

/// Pages through one thread's history: ask [`HistoryLoader::next_request`],
/// give its answer to [`HistoryLoader::take_page`], until it returns `None`.
#[derive(Clone, Debug)]
pub struct HistoryLoader {
    thread_id: String,
    limit: usize,
    /// The namespace being paged and the checkpoint its next page comes before.
    current: Option<(String, Option<String>)>,
    /// Namespaces discovered and waiting, in discovery order.
    queue: VecDeque<String>,
    /// Every namespace ever queued (the root included).
    known: BTreeSet<String>,
    items: Vec<Value>,
    pages: usize,
}

impl HistoryLoader {
    /// A loader of `thread_id` with the server's largest pages.
    pub fn new(thread_id: &str) -> HistoryLoader {
        Self::with_limit(thread_id, PAGE_LIMIT)
    }

    /// A loader asking `limit` checkpoints per request (1 to [`PAGE_LIMIT`]).
    pub fn with_limit(thread_id: &str, limit: usize) -> HistoryLoader {
        HistoryLoader {
            thread_id: thread_id.to_owned(),
            limit: limit.clamp(1, PAGE_LIMIT),
            current: Some((String::new(), None)),
            queue: VecDeque::new(),
            known: BTreeSet::from([String::new()]),
            items: Vec::new(),
            pages: 0,
        }
    }

    /// The thread being loaded.
    pub fn thread_id(&self) -> &str {
        &self.thread_id
    }

    /// The next page to ask for, `None` once the whole thread is in.
    pub fn next_request(&self) -> Option<Request> {
        let (ns, before) = self.current.as_ref()?;
        let mut body = json!({ "limit": self.limit });
        if let Some(b) = before {
            body["before"] = json!({ "configurable": { "checkpoint_id": b } });
        }
        if !ns.is_empty() {
            body["checkpoint"] = json!({ "checkpoint_ns": ns });
        }
        Some(Request::post(
            format!("/threads/{}/history", encode(&self.thread_id)),
            body,
        ))
    }

    /// Takes the answer to [`HistoryLoader::next_request`]. A page shorter
    /// than the limit ends its namespace; its tasks' checkpoints name the
    /// subgraph namespaces still to load.
    pub fn take_page(&mut self, page: Value) -> Result<(), ServerError> {
        let Some((ns, before)) = self.current.take() else {
            return Err(ServerError::BadResponse("the history is complete".into()));
        };
        let Value::Array(items) = page else {
            return Err(ServerError::BadResponse(
                "/history did not answer a list of checkpoints".into(),
            ));
        };
        let last = items.last().map(checkpoint_id).transpose()?;
        if last.is_some() && last == before {
            return Err(ServerError::BadResponse(
                "/history ignored `before`: the same page came twice".into(),
            ));
        }
        for item in &items {
            for sub in subgraph_namespaces(item) {
                if self.known.insert(sub.clone()) {
                    self.queue.push_back(sub);
                }
            }
        }
        let full = items.len() >= self.limit;
        self.items.extend(items);
        self.pages += 1;
        self.current = if full {
            Some((ns, last))
        } else {
            self.queue.pop_front().map(|n| (n, None))
        };
        Ok(())
    }

    /// How far it is.
    pub fn progress(&self) -> Progress {
        Progress {
            checkpoints: self.items.len(),
            pages: self.pages,
            namespaces_left: self.queue.len() + usize::from(self.current.is_some()),
        }
    }

    /// Every checkpoint received, as the server answered them.
    pub fn items(&self) -> &[Value] {
        &self.items
    }

    /// The whole history (root namespace first, newest first in each), as
    /// the engine's thread. An empty thread has nothing to open.
    pub fn finish(self) -> Result<Opened, Problem> {
        let text = serde_json::to_string(&self.items).map_err(|e| Problem::new(e.to_string()))?;
        import::open(&text)
    }
}

fn checkpoint_id(item: &Value) -> Result<String, ServerError> {
    item.pointer("/checkpoint/checkpoint_id")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| {
            ServerError::BadResponse("a /history item has no checkpoint.checkpoint_id".into())
        })
}

/// The namespaces of the subgraphs `item`'s tasks ran: each task's
/// `checkpoint.checkpoint_ns`, when it has one.
fn subgraph_namespaces(item: &Value) -> impl Iterator<Item = String> + '_ {
    item.get("tasks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.pointer("/checkpoint/checkpoint_ns")?.as_str())
        .filter(|ns| !ns.is_empty())
        .map(str::to_owned)
}
