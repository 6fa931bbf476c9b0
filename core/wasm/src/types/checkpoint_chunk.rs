//! A `"checkpoints"` chunk (and the payload of a `"debug"` chunk of type
//! `checkpoint`) as LangGraph.js writes it (`mapDebugCheckpoint`):
//! `{config, values, metadata, next, tasks, parentConfig?}`.
//!
//! LangGraph.js shows the checkpoint with the run's whole config in
//! LangGraph's spelling (`formatConfig`): `configurable` (`checkpoint_ns`
//! first, then the run's own keys, then `checkpoint_id`), `metadata`
//! (`ls_integration: "langgraph"`, the run's metadata, then the
//! `configurable` keys LangGraph.js copies into it), `recursion_limit` and
//! `tags`. The parent has the same shape when the run loaded or saved it;
//! the parent of the checkpoint a run started from is shown as the saver
//! gave it, `{configurable: {thread_id, checkpoint_ns, checkpoint_id}}`.

use super::config::Address;
use super::snapshot::Task;
use chronograph::{CheckpointConfig, CheckpointMetadata, PregelTask, RunnableConfig};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

/// LangGraph.js's default `recursionLimit`.
const DEFAULT_RECURSION_LIMIT: i64 = 25;

/// The `configurable` keys LangGraph.js copies into the run's metadata
/// when the metadata does not have them (`PROPAGATE_TO_METADATA`).
const PROPAGATED: &[&str] = &[
    "thread_id",
    "checkpoint_id",
    "checkpoint_ns",
    "task_id",
    "run_id",
    "assistant_id",
    "graph_id",
];

/// The run's config as a checkpoint chunk shows it, before the address of
/// a checkpoint is put in (the private `RunConfig::at` puts it in).
pub struct RunConfig {
    /// The run's own `configurable` keys, in its order (internal `__` keys left out).
    configurable: Map<String, Value>,
    metadata: Map<String, Value>,
    recursion_limit: i64,
}

impl RunConfig {
    /// The config a run was started with.
    pub fn new(run: &RunnableConfig) -> Self {
        let configurable: Map<String, Value> = run
            .configurable
            .iter()
            .filter(|(k, _)| !k.starts_with("__"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let mut metadata = Map::new();
        metadata.insert("ls_integration".into(), "langgraph".into());
        for (k, v) in &run.metadata {
            metadata.insert(k.clone(), v.clone());
        }
        for key in PROPAGATED {
            if let (false, Some(v)) = (metadata.contains_key(*key), run.configurable.get(*key)) {
                metadata.insert((*key).into(), v.clone());
            }
        }
        RunConfig {
            configurable,
            metadata,
            recursion_limit: run.recursion_limit.unwrap_or(DEFAULT_RECURSION_LIMIT),
        }
    }

    /// The config of checkpoint `c` as this run shows it.
    fn at<'a>(&'a self, c: &'a CheckpointConfig) -> FullConfig<'a> {
        FullConfig { run: self, at: c }
    }
}

/// `formatConfig(checkpointConfig)` of LangGraph.js.
struct FullConfig<'a> {
    run: &'a RunConfig,
    at: &'a CheckpointConfig,
}

impl Serialize for FullConfig<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        // `{checkpoint_ns: "", ...run configurable, ...saved address}`: a
        // key keeps the place it first had, with the last value given.
        let mut configurable = Map::new();
        configurable.insert("checkpoint_ns".into(), Value::Null);
        for (k, v) in &self.run.configurable {
            configurable.insert(k.clone(), v.clone());
        }
        configurable.insert("thread_id".into(), self.at.thread_id.clone().into());
        configurable.insert("checkpoint_ns".into(), self.at.checkpoint_ns.clone().into());
        if let Some(id) = &self.at.checkpoint_id {
            configurable.insert("checkpoint_id".into(), id.clone().into());
        }
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("configurable", &configurable)?;
        m.serialize_entry("metadata", &self.run.metadata)?;
        m.serialize_entry("recursion_limit", &self.run.recursion_limit)?;
        m.serialize_entry("tags", &[] as &[Value])?;
        m.end()
    }
}

/// The parent of a checkpoint in a chunk: with the run's config, or as the
/// saver gave it.
#[derive(Serialize)]
#[serde(untagged)]
enum Parent<'a> {
    InRun(FullConfig<'a>),
    Saved(Address<'a>),
}

/// The `metadata` LangGraph.js's loop keeps for the checkpoint: `{source, step, parents}`.
struct LoopMetadata<'a>(&'a CheckpointMetadata);

impl Serialize for LoopMetadata<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("source", &self.0.source)?;
        m.serialize_entry("step", &self.0.step)?;
        m.serialize_entry("parents", &self.0.parents)?;
        m.end()
    }
}

/// One checkpoint chunk (see the module docs).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckpointChunk<'a> {
    config: FullConfig<'a>,
    values: &'a Value,
    metadata: LoopMetadata<'a>,
    next: &'a [String],
    tasks: Vec<Task<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent_config: Option<Parent<'a>>,
}

/// What a [`chronograph::StreamEvent::Checkpoint`] carries, borrowed.
pub struct CheckpointEvent<'a> {
    /// Its address.
    pub config: &'a CheckpointConfig,
    /// Its metadata.
    pub metadata: &'a CheckpointMetadata,
    /// Its parent's address.
    pub parent_config: Option<&'a CheckpointConfig>,
    /// Whether the run loaded or saved the parent.
    pub parent_in_run: bool,
    /// Its values.
    pub values: &'a Value,
    /// The nodes it runs next.
    pub next: &'a [String],
    /// Those tasks.
    pub tasks: &'a [PregelTask],
}

impl<'a> CheckpointChunk<'a> {
    /// The chunk of `e` in the run started with `run`.
    pub fn new(e: CheckpointEvent<'a>, run: &'a RunConfig) -> Self {
        CheckpointChunk {
            config: run.at(e.config),
            values: e.values,
            metadata: LoopMetadata(e.metadata),
            next: e.next,
            tasks: e.tasks.iter().map(Task::from).collect(),
            parent_config: e.parent_config.map(|p| match e.parent_in_run {
                true => Parent::InRun(run.at(p)),
                false => Parent::Saved(Address::new(p)),
            }),
        }
    }

    /// The superstep of the checkpoint.
    pub fn step(&self) -> i64 {
        self.metadata.0.step
    }
}
