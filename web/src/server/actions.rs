//! Actions on a server thread, run by the server with its real graph:
//! replay (`input: null` from a checkpoint), resume (`command: {resume}`),
//! `update_state` (`POST /threads/{id}/state` with `values`, `as_node` and
//! the checkpoint; Copy is `as_node: "__copy__"`) and a fork's "Apply and
//! run" (the update, then a run from the checkpoint it created), and a
//! fork into a new thread (`POST /threads/{id}/copy`, then a `__copy__`
//! of the checkpoint in the copy, which becomes the new thread's latest
//! checkpoint). Pure: the requests, and what the server's answers mean.
//!
//! Runs go through `POST /threads/{id}/runs/stream` with
//! `stream_mode: ["checkpoints"]` and `stream_subgraphs: true`, so each
//! checkpoint reaches the page as the server writes it ([`super::stream`]),
//! and with `multitask_strategy: "reject"`: a thread that is already
//! running answers 409 instead of queueing the run behind someone else's.

use super::{encode, Request, ServerError};
use serde_json::{json, Value};

/// The thread a server action runs on: its id and the assistant that runs
/// it (the thread's `metadata.graph_id`, which an Agent Server accepts as
/// an `assistant_id`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerThread {
    /// The server's base URL (the page's connection must be to it).
    pub url: String,
    /// The thread's id on the server.
    pub thread_id: String,
    /// The graph its runs use, when the thread names one.
    pub assistant_id: Option<String>,
}

/// The graph a thread's runs use: its `metadata.graph_id` (from `GET
/// /threads/{id}`), absent for a thread no run has touched.
pub fn graph_id(thread: &Value) -> Option<String> {
    thread
        .pointer("/metadata/graph_id")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// A checkpoint the action starts from: its id and namespace (`""` at the root).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    /// The checkpoint id.
    pub id: String,
    /// Its checkpoint namespace.
    pub ns: String,
}

impl At {
    /// The body fields that address the checkpoint: `checkpoint_id` at the
    /// root, `checkpoint: {checkpoint_id, checkpoint_ns}` inside a subgraph
    /// (the server then updates through the subgraph's config).
    fn address(&self, body: &mut Value) {
        if self.ns.is_empty() {
            body["checkpoint_id"] = json!(self.id);
        } else {
            body["checkpoint"] = json!({ "checkpoint_id": self.id, "checkpoint_ns": self.ns });
        }
    }
}

/// What the user asked for, in the server's terms.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// A run from the checkpoint: `input: null` (replay), or with a resume value.
    Run {
        /// `command: {resume: value}` when resuming an interrupt.
        resume: Option<Value>,
    },
    /// `update_state` at the checkpoint, then (`and_run`) a run from the
    /// checkpoint it created.
    Update {
        /// The state update (`None`: no values, as Copy sends).
        values: Option<Value>,
        /// The node the update is written as (`None`: the server infers it).
        as_node: Option<String>,
        /// "Apply and run": replay from the new checkpoint afterwards.
        and_run: bool,
    },
    /// A new thread whose latest checkpoint is the checkpoint's copy: the
    /// server copies the whole thread (same checkpoint ids), then
    /// `update_state(None, as_node="__copy__")` at the checkpoint in the
    /// copy makes it the new thread's HEAD, with the same values and `next`.
    NewThread,
}

/// One action's calls: ask [`ServerAction::first`], then give each answer
/// to [`ServerAction::next`] until it returns `None`.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerAction {
    /// The thread it runs on.
    pub thread: ServerThread,
    /// The checkpoint it starts from.
    pub at: At,
    /// What it does.
    pub step: Step,
}

impl ServerAction {
    /// The first request.
    pub fn first(&self) -> Result<Request, ServerError> {
        match &self.step {
            Step::Run { resume } => self.run(&self.at, resume.as_ref()),
            Step::Update {
                values, as_node, ..
            } => Ok(update_state(
                &self.thread.thread_id,
                &self.at,
                values.as_ref(),
                as_node.as_deref(),
            )),
            Step::NewThread => Ok(Request::post(
                format!("/threads/{}/copy", encode(&self.thread.thread_id)),
                json!({}),
            )),
        }
    }

    /// Reads the answer to the last request: the next request, `None` when
    /// the action is done, or what the answer says went wrong.
    pub fn next(&self, last: &Request, answer: &Value) -> Result<Option<Request>, ServerError> {
        if last.path.ends_with("/copy") {
            let copy = copied_thread(answer)?;
            return Ok(Some(update_state(
                &copy,
                &self.at,
                None,
                Some(chronograph::COPY),
            )));
        }
        if last.path.ends_with("/state") {
            let created = updated_checkpoint(answer)?;
            return match self.step {
                Step::Update { and_run: true, .. } => {
                    let at = At {
                        id: created,
                        ns: self.at.ns.clone(),
                    };
                    self.run(&at, None).map(Some)
                }
                _ => Ok(None),
            };
        }
        run_ended(answer)?;
        Ok(None)
    }

    fn run(&self, at: &At, resume: Option<&Value>) -> Result<Request, ServerError> {
        let assistant = self.thread.assistant_id.as_deref().ok_or_else(|| {
            ServerError::BadResponse("the thread names no graph (metadata.graph_id)".into())
        })?;
        let mut body = json!({
            "assistant_id": assistant,
            "input": null,
            "multitask_strategy": "reject",
            "stream_mode": ["checkpoints"],
            "stream_subgraphs": true,
        });
        if let Some(value) = resume {
            // A resume is a Command, not an input: the two exclude each other.
            body.as_object_mut().map(|o| o.remove("input"));
            body["command"] = json!({ "resume": value });
        }
        at.address(&mut body);
        Ok(Request::post(
            format!("/threads/{}/{RUN_STREAM}", encode(&self.thread.thread_id)),
            body,
        ))
    }
}

/// The path of a streamed run, under `/threads/{id}/`.
const RUN_STREAM: &str = "runs/stream";

/// Whether `request` is a streamed run (its answer is an event stream, read
/// by [`super::stream`], not JSON).
pub fn streams(request: &Request) -> bool {
    request.path.ends_with(RUN_STREAM)
}

/// `POST /threads/{id}/state`: LangGraph's `update_state` at `at`.
pub fn update_state(
    thread_id: &str,
    at: &At,
    values: Option<&Value>,
    as_node: Option<&str>,
) -> Request {
    let mut body = json!({ "values": values });
    if let Some(node) = as_node {
        body["as_node"] = json!(node);
    }
    at.address(&mut body);
    Request::post(format!("/threads/{}/state", encode(thread_id)), body)
}

/// The new thread a `POST /threads/{id}/copy` answer names (`thread_id`).
pub fn copied_thread(answer: &Value) -> Result<String, ServerError> {
    answer
        .get("thread_id")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| ServerError::BadResponse("/copy answered no thread_id".into()))
}

/// The checkpoint an `update_state` answer names (`checkpoint.checkpoint_id`).
pub fn updated_checkpoint(answer: &Value) -> Result<String, ServerError> {
    answer
        .pointer("/checkpoint/checkpoint_id")
        .or_else(|| answer.get("checkpoint_id"))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| {
            ServerError::BadResponse("/state answered no checkpoint.checkpoint_id".into())
        })
}

/// A run's final values (with `__interrupt__` when it paused; `null` once
/// a stream has ended), or `__error__` when the graph raised, which the
/// server reports with status 200.
pub fn run_ended(answer: &Value) -> Result<(), ServerError> {
    match answer.get("__error__") {
        Some(e) => {
            let kind = e.get("error").and_then(Value::as_str).unwrap_or("Error");
            let message = e.get("message").and_then(Value::as_str).unwrap_or("");
            Err(ServerError::RunFailed(format!("{kind}: {message}")))
        }
        None => Ok(()),
    }
}

/// The ids of `after` that `before` lacks, in `after`'s order: the
/// checkpoints an action created, read from the reloaded history.
pub fn created(before: &[String], after: &[String]) -> Vec<String> {
    let old: std::collections::BTreeSet<&String> = before.iter().collect();
    after
        .iter()
        .filter(|id| !old.contains(id))
        .cloned()
        .collect()
}
