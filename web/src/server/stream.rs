//! A run's checkpoints as the server streams them: `POST
//! /threads/{id}/runs/stream` with `stream_mode: ["checkpoints"]` and
//! `stream_subgraphs: true` answers `text/event-stream`, one `checkpoints`
//! event per checkpoint the run writes (`checkpoints|NS` inside a
//! subgraph), each carrying `config`, `parent_config`, `metadata`
//! (source, step), `next`, `tasks` and `values`.
//!
//! Pure: [`EventParser`] cuts the bytes' text into events whatever the
//! chunking, [`history_item`] writes a `checkpoints` event as the item
//! `POST /threads/{id}/history` would answer for it, and [`LiveRun`] keeps
//! the thread as it was loaded plus what the run has streamed so far, which
//! opens like any history. Only `server/fetch.rs` reads the network.

use super::ServerError;
use crate::import::{self, Opened, Problem};
use serde_json::{json, Value};
use std::rc::Rc;

/// One server-sent event: its `event:` name and its `data:` lines joined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The event's name (`message` when the server names none).
    pub name: String,
    /// Its data.
    pub data: String,
}

/// Cuts an event stream's text into [`Event`]s, whatever the chunks the
/// network delivers (an event may arrive in pieces, or several in one).
#[derive(Clone, Debug, Default)]
pub struct EventParser {
    /// Text received after the last complete line.
    partial: String,
    name: Option<String>,
    data: Vec<String>,
}

impl EventParser {
    /// A parser that has seen nothing.
    pub fn new() -> EventParser {
        EventParser::default()
    }

    /// Takes the next chunk of text; returns the events it completed.
    pub fn push(&mut self, chunk: &str) -> Vec<Event> {
        self.partial.push_str(chunk);
        let mut events = Vec::new();
        while let Some(end) = self.partial.find('\n') {
            let line: String = self.partial.drain(..=end).collect();
            let line = line.trim_end_matches(['\n', '\r']);
            self.line(line, &mut events);
        }
        events
    }

    /// Whether text or an event is left incomplete (the stream stopped
    /// inside one).
    pub fn pending(&self) -> bool {
        !self.partial.is_empty() || self.name.is_some() || !self.data.is_empty()
    }

    fn line(&mut self, line: &str, events: &mut Vec<Event>) {
        if line.is_empty() {
            // A blank line ends an event (one without data is none).
            let name = self.name.take();
            if !self.data.is_empty() {
                events.push(Event {
                    name: name.unwrap_or_else(|| "message".to_owned()),
                    data: std::mem::take(&mut self.data).join("\n"),
                });
            }
            return;
        }
        if line.starts_with(':') {
            return; // a comment (a keep-alive)
        }
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "event" => self.name = Some(value.to_owned()),
            "data" => self.data.push(value.to_owned()),
            _ => {} // `id`, `retry`: nothing the app needs
        }
    }
}

/// What one event of a run's stream means.
#[derive(Clone, Debug, PartialEq)]
pub enum RunEvent {
    /// The run started: its id (`metadata`).
    Started(String),
    /// A checkpoint, as a `/history` item ([`history_item`]).
    Checkpoint(Value),
    /// The run failed: the graph raised, or the server gave up on it.
    Failed(ServerError),
    /// Anything else the server streams (other modes, keep-alives).
    Other,
}

/// Reads `event` of a run's stream.
pub fn run_event(event: &Event) -> Result<RunEvent, ServerError> {
    let data = || {
        serde_json::from_str::<Value>(&event.data).map_err(|e| {
            ServerError::BadResponse(format!("a `{}` event is not JSON: {e}", event.name))
        })
    };
    let base = event.name.split('|').next().unwrap_or_default();
    Ok(match base {
        "metadata" => RunEvent::Started(
            data()?
                .get("run_id")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        ),
        "checkpoints" => RunEvent::Checkpoint(history_item(&data()?)?),
        "error" => {
            let d = data()?;
            let kind = d.get("error").and_then(Value::as_str).unwrap_or("Error");
            let message = d.get("message").and_then(Value::as_str).unwrap_or("");
            RunEvent::Failed(ServerError::RunFailed(format!("{kind}: {message}")))
        }
        _ => RunEvent::Other,
    })
}

/// A `checkpoints` event's data as the item `/history` answers for the same
/// checkpoint: `checkpoint` and `parent_checkpoint` from the configs, a
/// task's subgraph `state` config as its `checkpoint`, and no `created_at`
/// (the stream has none; the history read after the run gives it).
pub fn history_item(data: &Value) -> Result<Value, ServerError> {
    let address = |config: Option<&Value>| -> Option<Value> {
        let c = config?.get("configurable")?;
        Some(json!({
            "thread_id": c.get("thread_id").cloned().unwrap_or(Value::Null),
            "checkpoint_ns": c.get("checkpoint_ns").cloned().unwrap_or_else(|| json!("")),
            "checkpoint_id": c.get("checkpoint_id")?.clone(),
        }))
    };
    let checkpoint = address(data.get("config")).ok_or_else(|| {
        ServerError::BadResponse(
            "a `checkpoints` event has no config.configurable.checkpoint_id".into(),
        )
    })?;
    let tasks: Vec<Value> = data
        .get("tasks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|t| {
            let mut task = t.clone();
            if let Some(sub) = t.pointer("/state/configurable") {
                task["checkpoint"] = json!({
                    "thread_id": sub.get("thread_id").cloned().unwrap_or(Value::Null),
                    "checkpoint_ns": sub.get("checkpoint_ns").cloned().unwrap_or(Value::Null),
                });
                task["state"] = Value::Null;
            }
            task
        })
        .collect();
    Ok(json!({
        "values": data.get("values").cloned().unwrap_or_else(|| json!({})),
        "next": data.get("next").cloned().unwrap_or_else(|| json!([])),
        "tasks": tasks,
        "metadata": data.get("metadata").cloned().unwrap_or_else(|| json!({})),
        "checkpoint": checkpoint,
        "parent_checkpoint": address(data.get("parent_config")),
    }))
}

/// A run in progress on a thread the page has loaded: the history as it
/// was before the run, and the checkpoints streamed since.
#[derive(Clone, Debug)]
pub struct LiveRun {
    before: Rc<Vec<Value>>,
    streamed: Vec<Value>,
}

impl LiveRun {
    /// A run on the thread whose history (every namespace) was `before`.
    pub fn new(before: Rc<Vec<Value>>) -> LiveRun {
        LiveRun {
            before,
            streamed: Vec::new(),
        }
    }

    /// Adds a streamed checkpoint ([`history_item`]); returns its id, or
    /// `None` when the thread has it already.
    pub fn take(&mut self, item: Value) -> Option<String> {
        let id = item
            .pointer("/checkpoint/checkpoint_id")?
            .as_str()?
            .to_owned();
        let known = |i: &Value| {
            i.pointer("/checkpoint/checkpoint_id") == item.pointer("/checkpoint/checkpoint_id")
        };
        if self.before.iter().any(known) || self.streamed.iter().any(known) {
            return None;
        }
        self.streamed.push(item);
        Some(id)
    }

    /// The checkpoints streamed so far, in the order they came.
    pub fn streamed(&self) -> impl Iterator<Item = &str> {
        self.streamed
            .iter()
            .filter_map(|i| i.pointer("/checkpoint/checkpoint_id")?.as_str())
    }

    /// The thread with what the run streamed so far, opened as a history:
    /// in the order `/history` answers (the root namespace first, newest
    /// first in each; checkpoint ids grow with time).
    pub fn opened(&self) -> Result<Opened, Problem> {
        let mut all: Vec<&Value> = self.before.iter().chain(&self.streamed).collect();
        let key = |i: &Value| {
            let at = |k: &str| {
                i.pointer(&format!("/checkpoint/{k}"))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            (at("checkpoint_ns"), std::cmp::Reverse(at("checkpoint_id")))
        };
        all.sort_by_cached_key(|i| key(i));
        let text = serde_json::to_string(&all).map_err(|e| Problem::new(e.to_string()))?;
        import::open(&text)
    }
}
