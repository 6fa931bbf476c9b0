//! Small shared types of the public API: run configuration, run input,
//! `Command`, `Interrupt`, run output and stream events.

use crate::checkpoint::{CheckpointConfig, CheckpointMetadata};
use crate::error::{Error, ErrorKind, Result};
use crate::graph::State;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// `START`: the entry of every graph.
pub const START: &str = "__start__";
/// `END`: the exit of every graph.
pub const END: &str = "__end__";
/// `as_node` value that makes `update_state` behave like new input.
pub const INPUT: &str = "__input__";
/// `as_node` value that makes `update_state` copy a checkpoint (a sibling).
pub const COPY: &str = "__copy__";
/// LangGraph's default `recursion_limit` (1.2.x).
pub const DEFAULT_RECURSION_LIMIT: i64 = 10_007;

/// A run's configuration, as LangGraph's `RunnableConfig`:
/// `configurable` holds `thread_id`, optional `checkpoint_id` and
/// `checkpoint_ns`, and any extra keys (primitive ones are copied into
/// checkpoint metadata); `metadata` extra metadata keys.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunnableConfig {
    /// `thread_id`, `checkpoint_id`, `checkpoint_ns` and user keys.
    #[serde(default)]
    pub configurable: Map<String, Value>,
    /// Superstep budget; default [`DEFAULT_RECURSION_LIMIT`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recursion_limit: Option<i64>,
    /// Extra metadata for every checkpoint the run writes.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub metadata: Map<String, Value>,
    /// Which checkpoints a run saves (LangGraph's `durability`; default
    /// `async`, which like `sync` saves every one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub durability: Option<Durability>,
    /// This run's breakpoints before nodes, in place of the compiled ones
    /// (LangGraph's `interrupt_before` argument of `invoke`/`stream`;
    /// LangGraph.js's `interruptBefore` in the run's config). The root graph only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupt_before: Option<Vec<String>>,
    /// This run's breakpoints after nodes, in place of the compiled ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupt_after: Option<Vec<String>>,
}

/// LangGraph 1.x's `durability` modes: when a run's checkpoints are saved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Durability {
    /// Every checkpoint, each saved before the next superstep starts.
    Sync,
    /// Every checkpoint (LangGraph saves them in the background).
    #[default]
    Async,
    /// Only the checkpoint the run ends on (done, paused or failed), with the
    /// checkpoint the run started from as its parent, and the last step's
    /// pending writes; a subgraph saves only when it pauses or fails.
    Exit,
}

impl RunnableConfig {
    /// `{"configurable": {"thread_id": id}}`.
    pub fn thread(thread_id: impl Into<String>) -> Self {
        let mut configurable = Map::new();
        configurable.insert("thread_id".into(), Value::String(thread_id.into()));
        RunnableConfig {
            configurable,
            ..Default::default()
        }
    }

    /// The same config addressed at checkpoint `id`.
    pub fn at(mut self, checkpoint_id: impl Into<String>) -> Self {
        self.configurable
            .insert("checkpoint_id".into(), Value::String(checkpoint_id.into()));
        self
    }

    /// The same config with a recursion limit.
    pub fn with_recursion_limit(mut self, limit: i64) -> Self {
        self.recursion_limit = Some(limit);
        self
    }

    /// The thread id as a string (a number is converted, as LangGraph does).
    pub fn thread_id(&self) -> Option<String> {
        match self.configurable.get("thread_id")? {
            Value::String(s) => Some(s.clone()),
            Value::Null => None,
            other => Some(other.to_string()),
        }
    }

    /// The addressed checkpoint id, if the key is present and non-empty.
    pub fn checkpoint_id(&self) -> Option<String> {
        match self.configurable.get("checkpoint_id")? {
            Value::String(s) if !s.is_empty() => Some(s.clone()),
            _ => None,
        }
    }

    /// Whether the `checkpoint_id` key is present at all (decides "live" snapshots).
    pub fn has_checkpoint_id_key(&self) -> bool {
        self.configurable.contains_key("checkpoint_id")
    }

    /// The namespace (`""` by default).
    pub fn checkpoint_ns(&self) -> String {
        self.configurable
            .get("checkpoint_ns")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    }

    /// `checkpoint_map`: namespace → checkpoint id, as subgraph snapshots'
    /// configs carry it (the root's entry is `""`). Empty when absent.
    pub fn checkpoint_map(&self) -> BTreeMap<String, String> {
        match self.configurable.get("checkpoint_map") {
            Some(Value::Object(m)) => m
                .iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
                .collect(),
            _ => BTreeMap::new(),
        }
    }

    /// The same config with `checkpoint_ns` set.
    pub fn in_namespace(mut self, checkpoint_ns: impl Into<String>) -> Self {
        self.configurable
            .insert("checkpoint_ns".into(), Value::String(checkpoint_ns.into()));
        self
    }

    /// The same config with `checkpoint_map` set (removed when empty).
    pub fn with_checkpoint_map(mut self, map: &BTreeMap<String, String>) -> Self {
        if map.is_empty() {
            self.configurable.remove("checkpoint_map");
        } else {
            self.configurable.insert(
                "checkpoint_map".into(),
                Value::Object(
                    map.iter()
                        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                        .collect(),
                ),
            );
        }
        self
    }

    /// Validates the config for a graph with a checkpointer and returns its
    /// checkpoint address, with LangGraph's errors for missing keys.
    pub fn checkpoint_config(&self) -> Result<CheckpointConfig> {
        if self.configurable.is_empty() {
            return Err(Error::value(
                "Checkpointer requires one or more of the following 'configurable' keys: thread_id, checkpoint_ns, checkpoint_id",
            )
            .with_code("MISSING_THREAD_ID"));
        }
        let Some(thread_id) = self.thread_id() else {
            return Err(Error::new(ErrorKind::Key, "'thread_id'").with_code("MISSING_THREAD_ID"));
        };
        Ok(CheckpointConfig {
            thread_id,
            checkpoint_ns: self.checkpoint_ns(),
            checkpoint_id: self.checkpoint_id(),
        })
    }

    /// The recursion limit, validated (`recursion_limit must be at least 1`).
    pub(crate) fn recursion_limit(&self) -> Result<i64> {
        let limit = self.recursion_limit.unwrap_or(DEFAULT_RECURSION_LIMIT);
        if limit < 1 {
            return Err(Error::value("recursion_limit must be at least 1"));
        }
        Ok(limit)
    }

    /// Keys copied into checkpoint metadata: `metadata` first, then primitive
    /// `configurable` values, skipping reserved and `__`-prefixed keys.
    pub(crate) fn metadata_extras(&self) -> BTreeMap<String, Value> {
        const RESERVED: [&str; 9] = [
            "thread_id",
            "checkpoint_id",
            "checkpoint_ns",
            "checkpoint_map",
            "langgraph_step",
            "langgraph_node",
            "langgraph_triggers",
            "langgraph_path",
            "langgraph_checkpoint_ns",
        ];
        let mut out = BTreeMap::new();
        for (k, v) in self.metadata.iter().chain(self.configurable.iter()) {
            if out.contains_key(k)
                || k.starts_with("__")
                || RESERVED.contains(&k.as_str())
                || matches!(k.as_str(), "source" | "step" | "parents")
            {
                continue;
            }
            let v = match v {
                Value::String(s) => Value::String(s.replace('\0', "")),
                Value::Number(_) | Value::Bool(_) => v.clone(),
                _ => continue,
            };
            out.insert(k.clone(), v);
        }
        out
    }
}

/// How a `Command(resume=...)` answers interrupts.
#[derive(Clone, Debug, PartialEq)]
pub enum Resume {
    /// Answers the next `interrupt()` reached (only one may be pending).
    Value(Value),
    /// Answers specific interrupts by id.
    ById(BTreeMap<String, Value>),
}

impl Resume {
    /// LangGraph's rule: an object whose keys are all interrupt ids (32 hex
    /// digits) is a map by id; anything else is a single value.
    pub fn from_json(value: Value) -> Resume {
        match value {
            Value::Object(map) if !map.is_empty() && map.keys().all(|k| is_interrupt_id(k)) => {
                Resume::ById(map.into_iter().collect())
            }
            other => Resume::Value(other),
        }
    }
}

fn is_interrupt_id(k: &str) -> bool {
    k.len() == 32 && k.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `Command.PARENT`: a `Command` for the graph that runs this subgraph.
pub const PARENT: &str = "__parent__";

/// LangGraph's `Send(node, arg)`: run `node` once in the next superstep,
/// given `arg` instead of the state (a PUSH task; map-reduce fan-outs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Send {
    /// The node to run.
    pub node: String,
    /// What the node is given as its input.
    pub arg: Value,
}

impl Send {
    /// `Send(node, arg)`.
    pub fn new(node: impl Into<String>, arg: Value) -> Self {
        Send {
            node: node.into(),
            arg,
        }
    }
}

/// Where a router or a `Command` sends the run next: a node (its PULL task
/// runs next superstep) or a [`Send`] (a PUSH task with its own input).
#[derive(Clone, Debug, PartialEq)]
pub enum Goto {
    /// A node name (`__end__` adds nothing).
    Node(String),
    /// A `Send` packet.
    Send(Send),
}

from_impls! {
    impl From<&str> for Goto = |node| Goto::Node(node.to_owned());
    impl From<String> for Goto = |node| Goto::Node(node);
    impl From<Send> for Goto = |send| Goto::Send(send);
}

/// LangGraph's `Command`: resume an interrupt, update state, go to nodes.
/// As run input it resumes a thread; returned by a node it is the node's
/// update plus where to go next (in addition to the node's edges).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Command {
    /// Answer for pending `interrupt()` calls.
    pub resume: Option<Resume>,
    /// State update applied before the next superstep.
    pub update: Option<Value>,
    /// Nodes (or `Send`s) to run next.
    pub goto: Vec<Goto>,
    /// `Some(PARENT)`: the command is for the parent graph (from a node
    /// inside a subgraph).
    pub graph: Option<String>,
}

impl Command {
    /// `Command(resume=value)`.
    pub fn resume(value: Value) -> Self {
        Command {
            resume: Some(Resume::from_json(value)),
            ..Default::default()
        }
    }

    /// `Command(update=update, goto=goto)`, as a node returns it.
    pub fn goto(update: Option<Value>, goto: Vec<Goto>) -> Self {
        Command {
            update,
            goto,
            ..Default::default()
        }
    }

    /// The same command addressed to the parent graph (`graph=Command.PARENT`).
    pub fn to_parent(mut self) -> Self {
        self.graph = Some(PARENT.to_owned());
        self
    }
}

/// A `Command`'s update as writes (LangGraph's `_update_as_tuples`): an
/// object's entries, or a list of `[channel, value]` pairs as given, in
/// order (a channel named twice is written twice, both through its
/// reducer). `None` for anything else (LangGraph's `("__root__", update)`,
/// which a graph of named channels does not write).
pub(crate) fn update_as_tuples(update: Value) -> Option<Vec<(String, Value)>> {
    match update {
        Value::Object(map) => Some(map.into_iter().collect()),
        Value::Array(items) => items
            .into_iter()
            .map(|item| match item {
                Value::Array(pair) if pair.len() == 2 && pair[0].is_string() => {
                    let mut pair = pair.into_iter();
                    match (pair.next(), pair.next()) {
                        (Some(Value::String(k)), Some(v)) => Some((k, v)),
                        _ => None,
                    }
                }
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// What a node returns: an update object, or a [`Command`] (update + goto).
#[derive(Clone, Debug, PartialEq)]
pub enum NodeOutput {
    /// An update object (channel → value), or `null` for none.
    Update(Value),
    /// `Command(update=..., goto=..., graph=...)`.
    Command(Command),
}

from_impls! {
    impl From<Value> for NodeOutput = |update| NodeOutput::Update(update);
    impl From<Command> for NodeOutput = |command| NodeOutput::Command(command);
}

/// What a run starts from.
#[derive(Clone, Debug, PartialEq)]
pub enum RunInput {
    /// `None`: continue (resume, or replay with a checkpoint id).
    None,
    /// New input values.
    Values(Value),
    /// A `Command`.
    Command(Command),
}

impl From<Value> for RunInput {
    fn from(v: Value) -> Self {
        if v.is_null() {
            RunInput::None
        } else {
            RunInput::Values(v)
        }
    }
}

from_impls! {
    impl From<Command> for RunInput = |command| RunInput::Command(command);
}

/// An `interrupt(value)` raised by a node: the value and its id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interrupt {
    /// What the node asked.
    pub value: Value,
    /// Stable id (xxh3-128 of the task namespace), used to resume it by id.
    /// Empty for an interrupt a node raised without one
    /// ([`NodeContext::raise`](crate::NodeContext::raise): LangGraph.js's
    /// `NodeInterrupt`), which is then written without an `id` key.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
}

/// The result of a run: the state after it, plus the interrupts that paused it.
///
/// `values` is the persistent [`State`] the run ended with, not a JSON copy:
/// producing a `RunOutput` costs the number of channels, not the size of the
/// state, and cloning it shares every value (lists are versions of one
/// append-only log).
/// Convert to JSON only when needed, with [`RunOutput::to_json`],
/// [`RunOutput::into_value`] or `values.to_json()`.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOutput {
    /// The state channels after the run (read with [`State::get`],
    /// convert with [`State::to_json`]).
    pub values: State,
    /// Interrupts raised by `interrupt()` in the last superstep.
    pub interrupts: Vec<Interrupt>,
    /// Whether the run paused (at a breakpoint, or on `interrupt()`) rather
    /// than finished. LangGraph.js's `invoke` then reports `__interrupt__`
    /// even when it is empty (a breakpoint); LangGraph's does not.
    pub paused: bool,
    /// Whether the run reported its state in a "values" event. LangGraph's
    /// (and LangGraph.js's) `invoke` returns the last such event: a run
    /// that reported none (say, input `{}` to nodes that then paused)
    /// returns no values, only its `__interrupt__`.
    pub values_reported: bool,
}

impl RunOutput {
    /// The values as a JSON object (keys in declaration order) with `__interrupt__` added
    /// when the run was interrupted: the shape `invoke` returns in
    /// LangGraph. A copy: costs the size of the state.
    pub fn to_json(&self) -> Value {
        let mut values = self.values.to_json();
        if !self.interrupts.is_empty() {
            if let Value::Object(map) = &mut values {
                map.insert(
                    crate::reserved::INTERRUPT.into(),
                    serde_json::to_value(&self.interrupts).unwrap_or(Value::Null),
                );
            }
        }
        values
    }

    /// Same as [`RunOutput::to_json`], consuming the output.
    pub fn into_value(self) -> Value {
        self.to_json()
    }
}

/// What a run reports as it goes, for `stream`.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamEvent {
    /// The full state after the run started and after each superstep.
    Values(Value),
    /// One node's update (`{node: writes}`), as each task finishes.
    Updates {
        /// Node name.
        node: String,
        /// Its state writes (`null` when it wrote none).
        update: Value,
    },
    /// A superstep starts from this checkpoint (LangGraph's `checkpoints`
    /// mode, emitted by `tick` once the step's tasks are known): every
    /// checkpoint the run saved, when the next superstep (or the check
    /// that finds none) starts from it, and first the checkpoint a resumed
    /// run starts from. A graph without a checkpointer reports none.
    Checkpoint {
        /// Its address.
        config: CheckpointConfig,
        /// Its metadata.
        metadata: CheckpointMetadata,
        /// Parent address.
        parent_config: Option<CheckpointConfig>,
        /// Whether the parent is the checkpoint this run started from or
        /// one it saved, rather than the parent of the one it started from
        /// (LangGraph.js shows such a parent with the run's whole config).
        parent_in_run: bool,
        /// State values at the checkpoint.
        values: Value,
        /// Nodes that run next.
        next: Vec<String>,
        /// The tasks that run next, with what is stored for them so far
        /// (interrupts, error, result), as a snapshot shows them.
        tasks: Vec<crate::state::PregelTask>,
    },
    /// A task is about to run.
    Task {
        /// Task id.
        id: String,
        /// Node name.
        name: String,
        /// Superstep.
        step: i64,
        /// What the node is given: the state, or a `Send`'s argument.
        input: Value,
        /// The channels that triggered it (`__pregel_push` for a `Send`).
        triggers: Vec<String>,
        /// Its path, as LangGraph writes it (`task_path_str`):
        /// `~__pregel_pull, NAME`, or `~__pregel_push, 0000000003, False`
        /// for the task of the fourth `Send`.
        path: String,
    },
    /// A task finished (or failed, or was interrupted).
    TaskResult {
        /// Task id.
        id: String,
        /// Node name.
        name: String,
        /// Superstep.
        step: i64,
        /// Error text, if it failed.
        error: Option<String>,
        /// Interrupts it raised.
        interrupts: Vec<Interrupt>,
        /// Its writes to state keys, in the order it wrote them (none when
        /// it failed or paused).
        result: Vec<(String, Value)>,
    },
    /// The checkpoint the next [`Values`](Self::Values) event shows (LangGraph.js's
    /// `_currentCheckpointMeta`, which its `streamEvents` v3 sends before
    /// each state as a `checkpoints` envelope): reported before each state
    /// of a superstep, also when the run has no checkpointer (its
    /// checkpoints then live in the run alone).
    CheckpointMeta {
        /// The checkpoint's id.
        id: String,
        /// Its parent's id, when the run has a checkpointer.
        parent_id: Option<String>,
        /// Its `metadata.step`.
        step: i64,
        /// Its `metadata.source`.
        source: crate::checkpoint::Source,
    },
    /// The run paused (breakpoint or `interrupt()`): `{"__interrupt__": [...]}`.
    Interrupted(Vec<Interrupt>),
    /// A task of the superstep that finished in an earlier run (a resumed
    /// superstep): its stored update reported again as the superstep
    /// starts, marked cached (LangGraph's `_output_writes(..., cached=True)`:
    /// `{node: writes, "__metadata__": {"cached": true}}`).
    CachedUpdates {
        /// Node name.
        node: String,
        /// Its state writes (`null` when it wrote none).
        update: Value,
    },
    /// Data a node sent to the `custom` stream mode (LangGraph's
    /// `StreamWriter`), from a subgraph's task (see [`crate::NodeContext::custom`]).
    Custom(Value),
}
