//! Threads from LangGraph itself, as the engine's [`ThreadExport`]: what
//! the visualizer opens (tree, inspector, diff, fork by `update_state`).
//! Pure Rust over JSON text; nothing here knows about a UI.
//!
//! Three formats ([`ImportFormat`]), told apart by their first item:
//! - [`AgentServerHistory`](ImportFormat::AgentServerHistory): an Agent
//!   Server's `POST /threads/{id}/history` answer, a list of `{values, next,
//!   checkpoint, metadata, created_at, parent_checkpoint, tasks}`;
//! - [`PythonStateHistory`](ImportFormat::PythonStateHistory): a JSON dump of
//!   Python's `graph.get_state_history(config)`, a list of `{values, next,
//!   config, metadata, created_at, parent_config, tasks}` (the few lines of
//!   Python that write it: `core/tests/fixtures/import/make_python_history.py`);
//! - [`SaverList`](ImportFormat::SaverList): a LangGraph.js saver's contents,
//!   `saver.list(...)` JSON-stringified: `{config, checkpoint, metadata,
//!   parentConfig, pendingWrites}` tuples.
//!
//! Snapshots carry values but no channel versions: a channel gets a new
//! version where its value differs from the parent checkpoint's, so the
//! store keeps each value once and diffs see what changed. LangGraph.js's
//! integer versions repeat across branches; a repeated version holding a
//! different value gets a salt of its own. LangChain messages
//! (`{lc: 1, type: "constructor", id: [..., "HumanMessage"], kwargs}`, or
//! Python's `model_dump()` with its empty fields) become the engine's plain
//! `{type, content, id, ...}` messages.
//!
//! A history keeps states, not the trigger channels behind `next`, so they
//! are restored from the `next` it records: a `branch:to:NODE` trigger for
//! each node, and for an input checkpoint `__start__` with the run's input,
//! read back from the step that ran it. The engine then finds the same
//! `next` LangGraph recorded, and a replay of any checkpoint (the input one
//! too) runs what LangGraph ran, once the graph's nodes are given.
//!
//! Errors are [`Error`]s of code `INVALID_IMPORT` whose message says where:
//! line, column and the JSON path (`at line 12, column 5 ($[3].metadata.step)`).

use crate::checkpoint::{ThreadExport, EXPORT_FORMAT};
use crate::error::{Error, Result};
use crate::graph::branch_channel;
use crate::START;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};

mod versions;

/// The formats [`import_thread`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportFormat {
    /// An Agent Server's `POST /threads/{thread_id}/history` answer.
    AgentServerHistory,
    /// A JSON dump of Python's `graph.get_state_history(config)`.
    PythonStateHistory,
    /// A LangGraph.js saver's `list(...)` tuples.
    SaverList,
}

/// The error of an import, with where it happened.
fn invalid(message: impl std::fmt::Display) -> Error {
    Error::value(format!("Cannot import the thread: {message}")).with_code("INVALID_IMPORT")
}

/// Parses `text` as `T`, naming the line, column and JSON path of a mistake.
fn parse<T: DeserializeOwned>(text: &str) -> Result<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let (line, column) = (inner.line(), inner.column());
        let what = inner.to_string();
        // serde_json appends " at line L column C"; say it once, with the path.
        let what = what.split(" at line ").next().unwrap_or(&what).to_owned();
        invalid(format!("{what} at line {line}, column {column} ($.{path})").replace("($.[", "($["))
    })
}

/// A checkpoint's address in a history item.
#[derive(Deserialize)]
struct Address {
    thread_id: Option<String>,
    #[serde(default)]
    checkpoint_ns: String,
    checkpoint_id: String,
}

/// `{configurable: {...}}`.
#[derive(Deserialize)]
struct Config {
    configurable: Address,
}

/// One item of a state history (Agent Server or Python dump).
#[derive(Deserialize)]
struct Snapshot {
    values: Value,
    #[serde(default)]
    checkpoint: Option<Address>,
    #[serde(default)]
    config: Option<Config>,
    metadata: crate::CheckpointMetadata,
    #[serde(default)]
    created_at: Option<String>,
    #[serde(default)]
    parent_checkpoint: Option<Address>,
    #[serde(default)]
    parent_config: Option<Config>,
    /// The nodes that run next, as LangGraph recorded them.
    #[serde(default)]
    next: Vec<String>,
}

/// One tuple of a LangGraph.js saver listing.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Tuple {
    config: Config,
    checkpoint: SaverCheckpoint,
    metadata: crate::CheckpointMetadata,
    #[serde(default)]
    parent_config: Option<Config>,
    #[serde(default)]
    pending_writes: Vec<(String, String, Value)>,
}

/// A LangGraph.js checkpoint.
#[derive(Deserialize)]
struct SaverCheckpoint {
    id: String,
    ts: String,
    #[serde(default)]
    channel_values: BTreeMap<String, Value>,
    #[serde(default)]
    channel_versions: BTreeMap<String, Value>,
    #[serde(default)]
    versions_seen: BTreeMap<String, BTreeMap<String, Value>>,
}

/// Which format `text` holds, from its first item.
pub fn detect_format(text: &str) -> Result<ImportFormat> {
    let items: Vec<Value> = parse(text)?;
    let Some(first) = items.first() else {
        return Err(invalid("the file holds no checkpoints (an empty list)"));
    };
    let has = |k: &str| first.get(k).is_some();
    if first
        .get("checkpoint")
        .and_then(|c| c.get("channel_values"))
        .is_some()
    {
        Ok(ImportFormat::SaverList)
    } else if has("checkpoint") || has("parent_checkpoint") {
        Ok(ImportFormat::AgentServerHistory)
    } else if has("config") && has("values") {
        Ok(ImportFormat::PythonStateHistory)
    } else {
        Err(invalid(
            "$[0] is neither a history item ({values, checkpoint | config, metadata, ...}) nor a saver tuple ({config, checkpoint, metadata, ...})",
        ))
    }
}

/// Reads a thread exported by LangGraph (any of the [`ImportFormat`]s,
/// detected) as the engine's thread format; load it with
/// [`InMemorySaver::import_thread`](crate::InMemorySaver::import_thread).
pub fn import_thread(text: &str) -> Result<ThreadExport> {
    import_thread_as(text, detect_format(text)?)
}

/// [`import_thread`] for a known format.
pub fn import_thread_as(text: &str, format: ImportFormat) -> Result<ThreadExport> {
    let mut thread = Thread::default();
    match format {
        ImportFormat::SaverList => {
            let tuples: Vec<Tuple> = parse(text)?;
            for (i, t) in tuples.into_iter().enumerate() {
                thread.saver_tuple(i, t)?;
            }
        }
        ImportFormat::AgentServerHistory | ImportFormat::PythonStateHistory => {
            let items: Vec<Snapshot> = parse(text)?;
            for (i, s) in items.into_iter().enumerate() {
                thread.snapshot(i, s, format)?;
            }
        }
    }
    thread.finish()
}

/// A checkpoint read from the file, before versions are assigned.
struct Read {
    id: String,
    ts: String,
    parent: Option<String>,
    metadata: crate::CheckpointMetadata,
    values: BTreeMap<String, Value>,
    /// LangGraph.js's versions (saver tuples only): channel → (original text, value).
    versions: Option<BTreeMap<String, String>>,
    versions_seen: BTreeMap<String, BTreeMap<String, String>>,
    writes: Vec<Value>,
    /// A history's recorded `next` (snapshots only: a saver tuple keeps its
    /// trigger channels itself).
    next: Option<Vec<String>>,
}

#[derive(Default)]
struct Thread {
    thread_id: Option<String>,
    /// Namespace → checkpoints, in file order.
    namespaces: BTreeMap<String, Vec<Read>>,
}

impl Thread {
    fn address(&mut self, i: usize, a: &Address) -> Result<()> {
        if let Some(t) = &a.thread_id {
            match &self.thread_id {
                None => self.thread_id = Some(t.clone()),
                Some(first) if first != t => {
                    return Err(invalid(format!(
                        "$[{i}] belongs to thread {t:?}, the file's first checkpoint to {first:?}: a file holds one thread"
                    )))
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn snapshot(&mut self, i: usize, s: Snapshot, format: ImportFormat) -> Result<()> {
        let (address, parent) = match format {
            ImportFormat::AgentServerHistory => (s.checkpoint, s.parent_checkpoint),
            _ => (
                s.config.map(|c| c.configurable),
                s.parent_config.map(|c| c.configurable),
            ),
        };
        let key = if format == ImportFormat::AgentServerHistory {
            "checkpoint"
        } else {
            "config"
        };
        let address = address.ok_or_else(|| invalid(format!("$[{i}] has no {key}")))?;
        self.address(i, &address)?;
        let Value::Object(values) = s.values else {
            return Err(invalid(format!(
                "$[{i}].values is not an object of channel values"
            )));
        };
        let values = values.into_iter().map(|(k, v)| (k, plain(v))).collect();
        self.namespaces
            .entry(address.checkpoint_ns.clone())
            .or_default()
            .push(Read {
                id: address.checkpoint_id,
                ts: s.created_at.unwrap_or_default(),
                parent: parent.map(|p| p.checkpoint_id),
                metadata: s.metadata,
                values,
                versions: None,
                versions_seen: BTreeMap::new(),
                writes: Vec::new(),
                next: Some(s.next),
            });
        Ok(())
    }

    fn saver_tuple(&mut self, i: usize, t: Tuple) -> Result<()> {
        let address = t.config.configurable;
        self.address(i, &address)?;
        let version = |v: &Value, at: String| match v {
            Value::Number(n) if n.is_u64() => Ok(n.to_string()),
            Value::String(s) => Ok(s.clone()),
            other => Err(invalid(format!("{at} is {other}, not a channel version"))),
        };
        let mut versions = BTreeMap::new();
        for (ch, v) in &t.checkpoint.channel_versions {
            versions.insert(
                ch.clone(),
                version(v, format!("$[{i}].checkpoint.channel_versions.{ch}"))?,
            );
        }
        let mut seen = BTreeMap::new();
        for (node, m) in &t.checkpoint.versions_seen {
            let mut out = BTreeMap::new();
            for (ch, v) in m {
                out.insert(
                    ch.clone(),
                    version(v, format!("$[{i}].checkpoint.versions_seen.{node}.{ch}"))?,
                );
            }
            seen.insert(node.clone(), out);
        }
        let mut slots: HashMap<String, i64> = HashMap::new();
        let writes = t
            .pending_writes
            .into_iter()
            .map(|(task_id, channel, value)| {
                let idx = match channel.as_str() {
                    "__error__" => -1,
                    "__scheduled__" => -2,
                    "__interrupt__" => -3,
                    "__resume__" => -4,
                    _ => {
                        let slot = slots.entry(task_id.clone()).or_insert(0);
                        *slot += 1;
                        *slot - 1
                    }
                };
                json!({"task_id": task_id, "channel": channel, "value": plain(value), "task_path": "", "idx": idx})
            })
            .collect();
        self.namespaces
            .entry(address.checkpoint_ns.clone())
            .or_default()
            .push(Read {
                id: t.checkpoint.id,
                ts: t.checkpoint.ts,
                parent: t.parent_config.map(|p| p.configurable.checkpoint_id),
                metadata: t.metadata,
                values: t
                    .checkpoint
                    .channel_values
                    .into_iter()
                    .map(|(k, v)| (k, plain(v)))
                    .collect(),
                versions: Some(versions),
                versions_seen: seen,
                writes,
                next: None,
            });
        Ok(())
    }

    /// Assigns versions and writes the engine's export.
    fn finish(self) -> Result<ThreadExport> {
        let thread_id = self.thread_id.unwrap_or_else(|| "imported".to_owned());
        let mut namespaces = Vec::new();
        for (ns, reads) in self.namespaces {
            namespaces.push(versions::export_namespace(ns, reads)?);
        }
        // The root namespace first, as the engine exports them.
        namespaces.sort_by_key(|n| n["checkpoint_ns"] != "");
        let export =
            json!({"format": EXPORT_FORMAT, "thread_id": thread_id, "namespaces": namespaces});
        serde_json::from_value(export)
            .map_err(|e| invalid(format!("the thread does not convert: {e}")))
    }
}

/// The trigger channels that make the engine find a history's recorded
/// `next` again, with their values: `branch:to:NODE` (holding `null`, as
/// LangGraph's edges write it) for each node, and `__start__` holding the
/// run's input for an input checkpoint. A history does not keep the input,
/// so it is read back from what the step that ran `__start__` (`child`)
/// holds beyond this checkpoint's values; without such a step `__start__`
/// is left out (nothing to run it with).
fn triggers(
    next: &[String],
    values: &BTreeMap<String, Value>,
    child: Option<&BTreeMap<String, Value>>,
) -> Vec<(String, Value)> {
    next.iter()
        .filter_map(|node| {
            if node != START {
                return Some((branch_channel(node), Value::Null));
            }
            child.map(|child| (START.to_owned(), start_input(values, child)))
        })
        .collect()
}

/// The input that took a state from `before` to `after` at the step that ran
/// `__start__`: each channel whose value changed, and for a list that grew
/// from the old one (a reducer appending, as `add_messages` and `operator.add`
/// do) only the new items, so the reducer, given them again, adds the same.
fn start_input(before: &BTreeMap<String, Value>, after: &BTreeMap<String, Value>) -> Value {
    let mut input = Map::new();
    for (channel, value) in after {
        let old = before.get(channel);
        if old == Some(value) {
            continue;
        }
        let written = match (old, value) {
            (Some(Value::Array(old)), Value::Array(new)) if new.starts_with(old) => {
                Value::Array(new[old.len()..].to_vec())
            }
            _ => value.clone(),
        };
        input.insert(channel.clone(), written);
    }
    Value::Object(input)
}

/// LangChain's message class names → the `type` of the engine's messages.
fn message_type(class: &str) -> Option<&'static str> {
    Some(match class.trim_end_matches("Chunk") {
        "HumanMessage" => "human",
        "AIMessage" => "ai",
        "SystemMessage" => "system",
        "ToolMessage" => "tool",
        "FunctionMessage" => "function",
        "RemoveMessage" => "remove",
        "ChatMessage" => "chat",
        _ => return None,
    })
}

/// A value as the engine keeps it: LangChain messages as plain messages
/// (without the empty fields `model_dump()` writes), everything else as is.
fn plain(v: Value) -> Value {
    match v {
        Value::Array(items) => Value::Array(items.into_iter().map(plain).collect()),
        Value::Object(mut o) => {
            let lc_message = o.get("lc").and_then(Value::as_u64) == Some(1)
                && o.get("type").and_then(Value::as_str) == Some("constructor")
                && o.get("id")
                    .and_then(Value::as_array)
                    .and_then(|id| id.last())
                    .and_then(Value::as_str)
                    .and_then(message_type)
                    .is_some();
            if lc_message {
                let class = o["id"]
                    .as_array()
                    .and_then(|id| id.last())
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let mut kwargs = match o.remove("kwargs") {
                    Some(Value::Object(k)) => k,
                    _ => Map::new(),
                };
                kwargs.insert(
                    "type".into(),
                    Value::from(message_type(&class).unwrap_or("ai")),
                );
                return message(kwargs);
            }
            let is_message = o.get("type").and_then(Value::as_str).is_some_and(|t| {
                matches!(
                    t,
                    "human" | "ai" | "system" | "tool" | "function" | "remove" | "chat"
                )
            }) && o.contains_key("content");
            if is_message {
                return message(o);
            }
            Value::Object(o.into_iter().map(|(k, v)| (k, plain(v))).collect())
        }
        other => other,
    }
}

/// A message's fields, `type` and `content` first, empty ones dropped.
fn message(mut fields: Map<String, Value>) -> Value {
    let mut out = Map::new();
    for key in ["type", "content"] {
        if let Some(v) = fields.remove(key) {
            out.insert(key.into(), plain(v));
        }
    }
    for (k, v) in fields {
        let empty = match &v {
            Value::Null => true,
            Value::Array(a) => a.is_empty(),
            Value::Object(o) => o.is_empty(),
            _ => false,
        };
        if !empty {
            out.insert(k, plain(v));
        }
    }
    Value::Object(out)
}
