//! Snapshots going out: LangGraph.js's `StateSnapshot` (`getState`, the
//! listings' items), its checkpoint `metadata`, its `tasks`
//! (`PregelTaskDescription`) and the state values, serialized straight
//! from the engine's data in LangGraph.js's key order.

use super::args::to_js;
use super::config::{Address, KeyOrder};
use super::shapes::{js_error, js_timestamp, task_path, Interrupts};
use crate::error::JsResult;
use chronograph::{CheckpointMetadata, PregelTask, State, StateSnapshot, TaskState};
use serde::{Serialize, Serializer};
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_SNAPSHOT: &str = r#"
/** Checkpoint `metadata` (`Metadata`): with the thread's id in a snapshot, with what was stored in a saver's tuple. */
export interface MetadataOut {
  source: "input" | "loop" | "update" | "fork";
  step: number;
  parents: { [namespace: string]: string };
  thread_id?: string;
  [key: string]: unknown;
}

/** LangGraph.js's `PregelTaskDescription` (`Task`). */
export interface TaskDescriptionOut {
  id: string;
  name: string;
  path: (string | number | boolean)[];
  error?: { message: string; name: string };
  interrupts: InterruptOut[];
  state?: SnapshotAddress | SnapshotOut;
  result?: { [channel: string]: unknown };
}

/** LangGraph.js's `StateSnapshot` (`Snapshot`); `values` is `null` in a listing, which hands them out lazily. */
export interface SnapshotOut {
  values: unknown;
  next: string[];
  tasks: TaskDescriptionOut[];
  metadata?: MetadataOut;
  config: SnapshotAddress;
  createdAt?: string;
  parentConfig?: CheckpointAddress;
}
"#;

/// State channels as a JS object, serialized straight from the channel
/// values (no intermediate JSON copy).
pub struct StateValues<'a>(pub &'a State);

impl Serialize for StateValues<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.arg() {
            // A Pregel graph streaming one channel: that channel's value itself.
            Some(value) => value.serialize(s),
            None => s.collect_map(self.0.iter()),
        }
    }
}

/// The metadata keys of LangGraph.js's delta channels, in the order its loop adds them.
const DELTA_KEYS: [&str; 2] = ["delta_writes_versioned", "counters_since_delta_snapshot"];

/// Checkpoint metadata as LangGraph.js shows it: `source`, `step`,
/// `parents`, and in a snapshot or a stream chunk `thread_id` (LangGraph.js
/// adds it there; its savers store none). The keys LangGraph copies from
/// the run's config into each checkpoint's metadata are stored (the saver
/// API shows them, as it shows anything `put` stored) but a snapshot or a
/// stream chunk leaves them out, as LangGraph.js records none.
pub struct Metadata<'a> {
    inner: &'a CheckpointMetadata,
    thread_id: &'a str,
    extra: bool,
}

impl Serialize for Metadata<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("source", &self.inner.source)?;
        m.serialize_entry("step", &self.inner.step)?;
        m.serialize_entry("parents", &self.inner.parents)?;
        // A delta channel's keys (core/src/pregel/delta.rs), which
        // LangGraph.js shows in both forms, in its order.
        for key in DELTA_KEYS {
            if let Some(v) = self.inner.extra.get(key) {
                m.serialize_entry(key, v)?;
            }
        }
        match self.extra {
            // What was stored, as LangGraph.js's savers give it back (they
            // store no `thread_id` of their own).
            true => {
                for (k, v) in &self.inner.extra {
                    if !DELTA_KEYS.contains(&k.as_str()) {
                        m.serialize_entry(k, v)?;
                    }
                }
            }
            // LangGraph.js's snapshot: the stored keys and the thread's id.
            false => m.serialize_entry("thread_id", self.thread_id)?,
        }
        m.end()
    }
}

impl<'a> Metadata<'a> {
    /// `metadata` of a checkpoint, as the saver API shows it: what was stored.
    pub fn new(inner: &'a CheckpointMetadata, thread_id: &'a str) -> Self {
        Metadata {
            inner,
            thread_id,
            extra: true,
        }
    }

    /// `metadata` of a checkpoint as a snapshot or a stream chunk shows it (LangGraph.js's keys only).
    pub fn recorded(inner: &'a CheckpointMetadata, thread_id: &'a str) -> Self {
        Metadata {
            extra: false,
            ..Self::new(inner, thread_id)
        }
    }
}

/// LangGraph.js's `PregelTaskDescription`: `{id, name, path, error?,
/// interrupts, state?, result?}`, in that order.
pub(crate) struct Task<'a> {
    task: &'a PregelTask,
    state: Option<TaskStateOut<'a>>,
}

impl Serialize for Task<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let t = self.task;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("id", &t.id)?;
        m.serialize_entry("name", &t.name)?;
        m.serialize_entry("path", &task_path(&t.path))?;
        if let Some(e) = &t.error {
            m.serialize_entry("error", &js_error(e))?;
        }
        m.serialize_entry("interrupts", &Interrupts(&t.interrupts))?;
        if let Some(state) = &self.state {
            m.serialize_entry("state", state)?;
        }
        // LangGraph.js leaves `result` out for a task that wrote no state key.
        match &t.result {
            Some(Value::Object(r)) if r.is_empty() => {}
            Some(r) => m.serialize_entry("result", r)?,
            None => {}
        }
        m.end()
    }
}

/// A subgraph task's `state`: its namespace as a config
/// (`{configurable: {thread_id, checkpoint_ns}}`), or with
/// `getState(config, {subgraphs: true})` that namespace's snapshot.
#[derive(Serialize)]
#[serde(untagged)]
enum TaskStateOut<'a> {
    Config(Address<'a>),
    Snapshot(Box<Snapshot<'a>>),
}

impl<'a> From<&'a PregelTask> for Task<'a> {
    fn from(t: &'a PregelTask) -> Self {
        Task {
            task: t,
            state: t.state.as_ref().map(|s| match s {
                TaskState::Config(c) => TaskStateOut::Config(Address::new(c)),
                TaskState::Snapshot(s) => {
                    TaskStateOut::Snapshot(Box::new(Snapshot::from(&**s).in_order(KeyOrder::State)))
                }
            }),
        }
    }
}

/// LangGraph.js `StateSnapshot`: `{values, next, tasks, metadata, config,
/// createdAt, parentConfig?}` in that order; for a thread without
/// checkpoints `{values, next, config, tasks}`.
pub struct Snapshot<'a> {
    /// `None` (sent as `null`) when the values go out lazily.
    values: Option<StateValues<'a>>,
    next: &'a [String],
    config: Address<'a>,
    metadata: Option<Metadata<'a>>,
    created_at: Option<String>,
    parent_config: Option<Address<'a>>,
    tasks: Vec<Task<'a>>,
}

impl Serialize for Snapshot<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("values", &self.values)?;
        m.serialize_entry("next", self.next)?;
        let Some(metadata) = &self.metadata else {
            m.serialize_entry("config", &self.config)?;
            m.serialize_entry("tasks", &self.tasks)?;
            return m.end();
        };
        m.serialize_entry("tasks", &self.tasks)?;
        m.serialize_entry("metadata", metadata)?;
        m.serialize_entry("config", &self.config)?;
        if let Some(at) = &self.created_at {
            m.serialize_entry("createdAt", at)?;
        }
        if let Some(parent) = &self.parent_config {
            m.serialize_entry("parentConfig", parent)?;
        }
        m.end()
    }
}

impl<'a> Snapshot<'a> {
    /// The same snapshot with its config's keys in `order`.
    pub fn in_order(mut self, order: KeyOrder) -> Self {
        self.config = self.config.in_order(order);
        self
    }
}

impl<'a> From<&'a StateSnapshot> for Snapshot<'a> {
    fn from(s: &'a StateSnapshot) -> Self {
        Snapshot {
            values: Some(StateValues(&s.values)),
            next: &s.next,
            config: Address::of_snapshot(&s.config, s.metadata.as_ref()),
            metadata: s
                .metadata
                .as_ref()
                .map(|m| Metadata::recorded(m, &s.config.thread_id)),
            created_at: s.created_at.as_deref().map(js_timestamp),
            parent_config: s.parent_config.as_ref().map(Address::new),
            tasks: s.tasks.iter().map(Task::from).collect(),
        }
    }
}

/// A snapshot as JS, as `getState` gives it.
pub fn snapshot_to_js(s: &StateSnapshot) -> JsResult<JsValue> {
    to_js(&Snapshot::from(s).in_order(KeyOrder::State))
}

/// A listed snapshot without its values (`values: null`): the listing
/// ([`crate::WasmListing`]) hands them out lazily.
pub fn snapshot_head(s: &StateSnapshot) -> Snapshot<'_> {
    Snapshot {
        values: None,
        ..Snapshot::from(s)
    }
}
