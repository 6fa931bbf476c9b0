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
        for (ns, mut reads) in self.namespaces {
            reads.sort_by(|a, b| a.id.cmp(&b.id));
            for pair in reads.windows(2) {
                if pair[0].id == pair[1].id {
                    return Err(invalid(format!(
                        "checkpoint {} appears twice in namespace {ns:?}",
                        pair[0].id
                    )));
                }
            }
            let mut salt = 0u64;
            // (channel, version) → the value it holds; a repeat with another value gets a new salt.
            let mut blobs: Vec<Value> = Vec::new();
            let mut held: HashMap<(String, String), Vec<(Value, String)>> = HashMap::new();
            // checkpoint id → channel → engine version (for snapshots, parents' versions carry on).
            let mut assigned: HashMap<String, BTreeMap<String, String>> = HashMap::new();
            let values_by_id: HashMap<String, BTreeMap<String, Value>> = reads
                .iter()
                .map(|r| (r.id.clone(), r.values.clone()))
                .collect();
            // checkpoint id → its first `loop` child: the step that ran its `__start__`.
            let mut first_loop_child: HashMap<String, String> = HashMap::new();
            for r in reads
                .iter()
                .filter(|r| r.metadata.source.as_str() == "loop")
            {
                if let Some(p) = &r.parent {
                    first_loop_child
                        .entry(p.clone())
                        .or_insert_with(|| r.id.clone());
                }
            }
            let mut checkpoints = Vec::new();
            for r in reads {
                let mut versions = BTreeMap::new();
                let parent_versions = r
                    .parent
                    .as_ref()
                    .and_then(|p| assigned.get(p))
                    .cloned()
                    .unwrap_or_default();
                let parent_values = r.parent.as_ref().and_then(|p| values_by_id.get(p));
                for (ch, value) in &r.values {
                    let original = match &r.versions {
                        Some(v) => v.get(ch).cloned(),
                        None => None,
                    };
                    // Snapshots: keep the parent's version while the value is the parent's.
                    if original.is_none() {
                        if let (Some(pv), Some(pvals)) = (parent_versions.get(ch), parent_values) {
                            if pvals.get(ch) == Some(value) {
                                versions.insert(ch.clone(), pv.clone());
                                continue;
                            }
                        }
                    }
                    let counter = match &original {
                        Some(o) => o
                            .split('.')
                            .next()
                            .unwrap_or("0")
                            .parse::<u64>()
                            .unwrap_or(0),
                        None => {
                            parent_versions
                                .values()
                                .filter_map(|v| v.split('.').next()?.parse::<u64>().ok())
                                .max()
                                .unwrap_or(0)
                                + 1
                        }
                    };
                    let key = (ch.clone(), original.clone().unwrap_or_default());
                    let slot = held.entry(key).or_default();
                    let version = match slot.iter().find(|(v, _)| v == value) {
                        Some((_, version)) if original.is_some() => version.clone(),
                        _ => {
                            salt += 1;
                            let version = format!("{counter}.{salt}");
                            slot.push((value.clone(), version.clone()));
                            blobs.push(json!({"channel": ch, "version": version, "value": value}));
                            version
                        }
                    };
                    versions.insert(ch.clone(), version);
                }
                // Channels with a version but no value (LangGraph.js keeps empty ones out of channel_values).
                if let Some(orig) = &r.versions {
                    for (ch, o) in orig {
                        if !versions.contains_key(ch) {
                            let counter = o
                                .split('.')
                                .next()
                                .unwrap_or("0")
                                .parse::<u64>()
                                .unwrap_or(0);
                            salt += 1;
                            let version = format!("{counter}.{salt}");
                            blobs.push(json!({"channel": ch, "version": version}));
                            versions.insert(ch.clone(), version);
                        }
                    }
                }
                // A history keeps states, not the trigger channels behind `next`.
                if let Some(next) = &r.next {
                    let child = first_loop_child
                        .get(&r.id)
                        .and_then(|c| values_by_id.get(c));
                    for (channel, value) in triggers(next, &r.values, child) {
                        if versions.contains_key(&channel) {
                            continue;
                        }
                        salt += 1;
                        let version = format!("{}.{salt}", next_counter(&versions));
                        blobs.push(json!({"channel": channel, "version": version, "value": value}));
                        versions.insert(channel, version);
                    }
                }
                // versions_seen: the checkpoint's own (salted) version where the numbers agree.
                let own: HashMap<(&str, &str), &String> = r
                    .versions
                    .iter()
                    .flat_map(|v| v.iter())
                    .filter_map(|(ch, o)| versions.get(ch).map(|e| ((ch.as_str(), o.as_str()), e)))
                    .collect();
                let mut seen = Map::new();
                for (node, m) in &r.versions_seen {
                    let mut out = Map::new();
                    for (ch, o) in m {
                        let v = own
                            .get(&(ch.as_str(), o.as_str()))
                            .map(|s| (*s).clone())
                            .unwrap_or_else(|| {
                                let counter = o.split('.').next().unwrap_or("0");
                                format!("{counter}.0")
                            });
                        out.insert(ch.clone(), Value::String(v));
                    }
                    seen.insert(node.clone(), Value::Object(out));
                }
                assigned.insert(r.id.clone(), versions.clone());
                checkpoints.push(json!({
                    "checkpoint": {
                        "v": 4, "id": r.id, "ts": r.ts, "channel_values": {},
                        "channel_versions": versions, "versions_seen": seen, "updated_channels": null,
                    },
                    "metadata": r.metadata,
                    "parent_id": r.parent,
                    "pending_writes": r.writes,
                }));
            }
            namespaces
                .push(json!({"checkpoint_ns": ns, "checkpoints": checkpoints, "blobs": blobs}));
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

/// The counter a new version in a checkpoint with `versions` takes.
fn next_counter(versions: &BTreeMap<String, String>) -> u64 {
    versions
        .values()
        .filter_map(|v| v.split('.').next()?.parse::<u64>().ok())
        .max()
        .unwrap_or(0)
        + 1
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
