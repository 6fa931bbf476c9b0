//! [`GraphInner`]: a compiled graph as a run reads it: its shape (the
//! channels, nodes and keys a builder compiled), what its compile options
//! give, and how it reads and stores state (untracked channels, defaults,
//! JavaScript's `undefined`, LangGraph.js's value layout).

use super::branch::Branch;
use super::builder::CompileOptions;
use super::node::{NodeAction, State};
use super::pregel::node::NodeIo;
use super::pregel::{Channels, PregelIo};
use crate::cache::{BaseCache, CachePolicy};
use crate::channels::{ChannelKind, ChannelValue, Reducer};
use crate::checkpoint::{Checkpoint, CheckpointSaver, Name, ValueLayout, VecMap};
use crate::checkpoint_ns;
use crate::clock::IdGenerator;
use crate::error::{Error, Result};
use crate::semantics::Semantics;
use indexmap::IndexMap;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::rc::Rc;

/// An `IndexMap` with a fast (non-DoS-resistant) hasher: graphs and the
/// saver look names up several times per superstep, and the names come
/// from the graph's author and the caller, not from an attacker.
pub(crate) type FastIndexMap<K, V> = IndexMap<K, V, rustc_hash::FxBuildHasher>;

/// A node after compilation: what triggers it and what it writes.
#[derive(Clone, Debug)]
pub(crate) struct CompiledNode {
    pub name: Name,
    /// `~__pregel_pull, NAME`: the sort key of its task's writes.
    pub path: Name,
    /// Channels whose update schedules this node (sorted).
    pub triggers: Vec<Name>,
    /// `None` for `__start__`, whose update is the run input itself.
    pub action: Option<NodeAction>,
    /// Static edge writes: `(channel, value)`.
    pub edges: Vec<(String, Value)>,
    /// Conditional edges leaving this node.
    pub branches: Vec<Branch>,
    /// Where a `Command` it returns may go, as declared (for drawing).
    pub destinations: Vec<String>,
    /// The channels the node reads, when that is not the whole graph
    /// state: its input schema's (LangGraph's `add_node(input_schema=)`),
    /// or the graph's state schema when node input schemas added private
    /// channels that the other nodes must not see.
    pub input: Option<Rc<[Name]>>,
    /// The channels its conditional edges read, when not every state
    /// channel: LangGraph (Python) gives a router the node's input schema;
    /// LangGraph.js every channel (see
    /// [`Semantics::routers_read_every_channel`]).
    pub router_input: Option<Rc<[Name]>>,
    /// Its cache policy (used when the graph has a cache).
    pub cache_policy: Option<CachePolicy>,
    /// The error handler node its failures go to (LangGraph's `error_handler_node`).
    pub error_handler: Option<Name>,
    /// Whether it is an error handler itself (its own failures are not routed).
    pub is_error_handler: bool,
    /// For a node of a [`Pregel`](crate::Pregel) graph: what it reads and
    /// how its result is written (its `action`, when `None`, passes its
    /// input through). `None` for a `StateGraph` node, whose update object
    /// is written to state keys and whose edges and branches route.
    pub io: Option<Rc<NodeIo>>,
}

impl CompiledNode {
    pub(crate) fn new(name: &str, action: Option<NodeAction>, triggers: Vec<Name>) -> Self {
        CompiledNode {
            name: name.into(),
            path: crate::pregel::pull_path(name).into(),
            triggers,
            action,
            edges: Vec::new(),
            branches: Vec::new(),
            destinations: Vec::new(),
            input: None,
            router_input: None,
            cache_policy: None,
            error_handler: None,
            is_error_handler: false,
            io: None,
        }
    }

    /// What the node reads of the superstep's `state` (every state channel).
    pub(crate) fn read(&self, state: &State) -> State {
        match &self.input {
            Some(keys) => state.select(keys),
            None => state.clone(),
        }
    }

    /// What its conditional edges read of `state` (the node's own writes applied).
    pub(crate) fn router_read(&self, state: &State) -> State {
        match &self.router_input {
            Some(keys) => state.select(keys),
            None => state.clone(),
        }
    }
}

/// What a builder compiles a graph into, before the [`CompileOptions`]
/// are added: its channels and nodes, and the keys its state, input and
/// output are read by. A [`GraphInner`] reads as its shape (`Deref`).
#[derive(Clone)]
pub(crate) struct GraphShape {
    /// Every channel: state keys, `__start__`, `branch:to:*`, `join:*`.
    pub channels: FastIndexMap<Name, ChannelKind>,
    /// The state schema's keys in declaration order: what nodes read by default.
    pub state_keys: Rc<[Name]>,
    /// What a run's input writes: the input schema's keys (the state's
    /// without one of its own).
    pub input_keys: Rc<[Name]>,
    /// What a run returns (LangGraph's `output_channels`): the output
    /// schema's keys (the state's without one of its own).
    pub output_keys: Rc<[Name]>,
    /// Every state channel: the state schema's, then those node input
    /// schemas added (private channels), in declaration order. What
    /// snapshots and the `values` stream show (LangGraph's
    /// `stream_channels`); the same as `state_keys` without private channels.
    pub stream_keys: Rc<[Name]>,
    /// Initial values of state keys that declare one (see [`GraphInner::adopt`]).
    pub defaults: Vec<(Name, ChannelValue)>,
    /// LangGraph.js's `DeltaChannel`s: name and snapshot frequency (see
    /// [`crate::pregel::delta`]). Empty for most graphs, which then pay nothing.
    pub delta: Rc<[(Name, u64)]>,
    /// `__start__` first, then nodes in registration order.
    pub nodes: FastIndexMap<String, CompiledNode>,
    /// Edges as declared (for drawing).
    pub edges: Vec<(Vec<String>, String)>,
    /// For a [`Pregel`](crate::Pregel) graph: its input, output and stream
    /// channels (`state_keys`, `input_keys`, `output_keys` and
    /// `stream_keys` then hold their names). `None` for a `StateGraph`.
    pub pregel: Option<Rc<PregelIo>>,
}

/// Everything a run needs, shared by the graph handle: the graph's
/// [`GraphShape`] (read through `Deref`: `graph.nodes`) and what its
/// [`CompileOptions`] give. Made by [`GraphInner::new`]; cloned whole by
/// [`CompiledGraph::with_checkpointer`](crate::CompiledGraph::with_checkpointer).
#[derive(Clone)]
pub(crate) struct GraphInner {
    /// What the builder compiled.
    shape: GraphShape,
    /// The `UntrackedValue` channels (see [`untracked_channels`]): left
    /// out of what a saver gets. Empty for most graphs, which then pay nothing.
    pub untracked: Rc<[Name]>,
    /// How LangGraph.js lists this graph's checkpoint values, given to each
    /// checkpoint it writes ([`Semantics::value_layout`]).
    pub layout: Option<Rc<ValueLayout>>,
    /// See [`crate::CompileOptions::checkpointer`].
    pub saver: Option<Rc<dyn CheckpointSaver>>,
    /// See [`crate::CompileOptions::interrupt_before`].
    pub interrupt_before: Vec<String>,
    /// See [`crate::CompileOptions::interrupt_after`].
    pub interrupt_after: Vec<String>,
    /// A subgraph with a history of its own (`checkpointer=True`).
    pub persistent: bool,
    /// Where LangGraph (Python) and LangGraph.js differ, as this kind of
    /// graph applies them ([`Semantics::for_graph`]).
    pub semantics: Semantics,
    /// See [`crate::CompileOptions::cache`].
    pub cache: Option<Rc<dyn BaseCache>>,
    /// Message ids, checkpoint ids and timestamps (the options' clock and seed).
    pub ids: Rc<IdGenerator>,
}

impl std::ops::Deref for GraphInner {
    type Target = GraphShape;

    fn deref(&self) -> &GraphShape {
        &self.shape
    }
}

impl GraphInner {
    /// The one constructor of a compiled graph: `shape` with `options`
    /// (checkpointer, breakpoints, cache, ids), its [`Semantics`] as its
    /// kind of graph applies them, and what follows from both (the
    /// untracked channels, LangGraph.js's value layout).
    pub(crate) fn new(shape: GraphShape, options: CompileOptions) -> Self {
        let ids = options.id_generator();
        let semantics = options.semantics.for_graph(shape.pregel.is_some());
        let layout = semantics
            .value_layout
            .then(|| Rc::new(value_layout(&shape.channels, &shape.defaults)));
        GraphInner {
            untracked: untracked_channels(&shape.channels),
            layout,
            saver: options.checkpointer,
            interrupt_before: options.interrupt_before,
            interrupt_after: options.interrupt_after,
            persistent: options.persistent,
            semantics,
            cache: options.cache,
            ids,
            shape,
        }
    }
}

/// The `UntrackedValue` channels of `channels`.
fn untracked_channels(channels: &FastIndexMap<Name, ChannelKind>) -> Rc<[Name]> {
    channels
        .iter()
        .filter(|(_, k)| matches!(k, ChannelKind::State(Reducer::Untracked { .. })))
        .map(|(n, _)| n.clone())
        .collect()
}

impl GraphInner {
    /// `checkpoint` as a saver gets it: without the values of the
    /// `UntrackedValue` channels (LangGraph's `checkpoint()` of one is
    /// `MISSING`; their versions stay).
    pub(crate) fn to_save<'a>(
        &self,
        checkpoint: &'a Checkpoint,
    ) -> std::borrow::Cow<'a, Checkpoint> {
        if self.untracked.is_empty()
            || !self
                .untracked
                .iter()
                .any(|c| checkpoint.channel_values.contains_key(c))
        {
            return std::borrow::Cow::Borrowed(checkpoint);
        }
        let mut stripped = checkpoint.clone();
        for c in self.untracked.iter() {
            stripped.channel_values.remove(c);
        }
        std::borrow::Cow::Owned(stripped)
    }

    /// A task's `writes` as a saver gets them: without those to
    /// `UntrackedValue` channels, and `Send` arguments without their keys
    /// (LangGraph's `put_writes`).
    pub(crate) fn writes_to_save<'a>(
        &self,
        writes: &'a [(String, serde_json::Value)],
    ) -> std::borrow::Cow<'a, [(String, serde_json::Value)]> {
        let untracked = |c: &str| self.untracked.iter().any(|u| &**u == c);
        if self.untracked.is_empty()
            || !writes
                .iter()
                .any(|(c, _)| untracked(c) || c == crate::reserved::TASKS)
        {
            return std::borrow::Cow::Borrowed(writes);
        }
        writes
            .iter()
            .filter(|(c, _)| !untracked(c))
            .map(|(c, v)| match (c.as_str(), v) {
                // A `Send`'s argument without its untracked keys (LangGraph's
                // `sanitize_untracked_values_in_send`).
                (crate::reserved::TASKS, Value::Object(packet)) => (
                    c.clone(),
                    crate::pregel::push::sanitize_send(packet, untracked),
                ),
                _ => (c.clone(), v.clone()),
            })
            .collect()
    }

    /// The run config's extras a checkpoint's metadata records: none under
    /// [`Semantics::metadata_without_config`].
    pub(crate) fn metadata_extras(
        &self,
        config: &crate::RunnableConfig,
    ) -> std::collections::BTreeMap<String, serde_json::Value> {
        match self.semantics.metadata_without_config {
            true => Default::default(),
            false => config.metadata_extras(),
        }
    }

    /// The namespace a task `node:task_id` of a graph at `parent_ns` runs
    /// this graph in, as a subgraph: the task's own, or for a persistent
    /// subgraph the path of node names without any task id (LangGraph's
    /// `_own_checkpoint_config`), one history whatever task runs it.
    pub(crate) fn subgraph_ns(&self, parent_ns: &str, node: &str, task_id: &str) -> String {
        match self.persistent {
            false => checkpoint_ns::task_ns(parent_ns, node, task_id),
            true => checkpoint_ns::persistent_ns(parent_ns, node),
        }
    }

    /// The saver, or LangGraph's "No checkpointer set".
    pub(crate) fn saver(&self) -> Result<&Rc<dyn CheckpointSaver>> {
        self.saver.as_ref().ok_or_else(Error::no_checkpointer)
    }

    /// Whether `name` is a state key.
    pub(crate) fn is_state_key(&self, name: &str) -> bool {
        matches!(self.channels.get(name), Some(ChannelKind::State(_)))
    }

    /// Whether a task's write to `channel` is part of what `updates`
    /// events, task results and snapshots show of it: a state key, or for
    /// a [`Pregel`](crate::Pregel) graph one of its stream channels.
    pub(crate) fn shows_write(&self, channel: &str) -> bool {
        match &self.pregel {
            None => self.is_state_key(channel),
            Some(_) => self.stream_keys.iter().any(|k| **k == *channel),
        }
    }

    /// Makes a loaded checkpoint this graph's, where a run or an update
    /// loads the checkpoint it starts from: channels holding
    /// [`Semantics::js_undefined`] have no value
    /// ([`GraphInner::restore`]), each channel with a declared default that
    /// has no value gets its default, as LangGraph.js's channels start from
    /// their `initialValueFactory` when restored from a checkpoint without a
    /// value ([`GraphInner::read_state`] adds the defaults to a stored
    /// checkpoint's state), and the checkpoints made from it carry this
    /// graph's [`ValueLayout`].
    pub(crate) fn adopt(&self, checkpoint: &mut Checkpoint) {
        checkpoint.layout.clone_from(&self.layout);
        self.restore(checkpoint);
        for (k, v) in &self.defaults {
            if !checkpoint.channel_values.contains_key(k) {
                checkpoint.channel_values.insert(k.clone(), v.clone());
            }
        }
    }

    /// Drops the values of a stored `checkpoint`'s last-value channels that
    /// hold [`Semantics::js_undefined`]: restored, they are no
    /// value (LangGraph.js's `LastValue.fromCheckpoint(undefined)`). A
    /// reducer channel keeps it: it is empty anyway ([`GraphInner::is_empty`]),
    /// and stays so (LangGraph.js rebuilds such a channel from its writes,
    /// which end in `undefined` again, rather than from its default).
    pub(crate) fn restore(&self, checkpoint: &mut Checkpoint) {
        if let Some(undefined) = &self.semantics.js_undefined {
            checkpoint.channel_values.retain(|k, v| {
                !v.equals_json(undefined)
                    || !matches!(
                        self.channels.get(k),
                        Some(ChannelKind::State(Reducer::LastValue))
                    )
            });
        }
    }

    /// Whether channel `k` holding `v` is empty although it holds a value:
    /// a reducer channel holding [`Semantics::js_undefined`]
    /// (LangGraph.js's `BinaryOperatorAggregate` whose reducer returned
    /// `undefined`). Reads leave it out; its next write is taken as is.
    pub(crate) fn is_empty(&self, k: &Name, v: &ChannelValue) -> bool {
        match &self.semantics.js_undefined {
            Some(undefined) if v.equals_json(undefined) => !matches!(
                self.channels.get(k),
                Some(ChannelKind::State(Reducer::LastValue))
            ),
            _ => false,
        }
    }

    /// Every state channel's value at `checkpoint` ([`GraphInner::stream_keys`]):
    /// what a snapshot shows, and what the tasks of a superstep read (each
    /// node then its own channels, [`CompiledNode::input`]).
    pub(crate) fn read_state(&self, checkpoint: &Checkpoint) -> State {
        match &self.pregel {
            Some(io) => self.read_channels(&checkpoint.channel_values, &io.stream),
            None => self.read_keys(checkpoint, &self.stream_keys),
        }
    }

    /// The run's output at `checkpoint`: the output schema's channels
    /// (LangGraph's `output_channels`).
    pub(crate) fn read_output(&self, checkpoint: &Checkpoint) -> State {
        match &self.pregel {
            Some(io) => self.read_channels(&checkpoint.channel_values, &io.output),
            None => self.read_keys(checkpoint, &self.output_keys),
        }
    }

    /// A [`Pregel`](crate::Pregel) graph's `channels` as LangGraph reads
    /// them (`read_channel` / `read_channels`): one channel's value itself
    /// (`null` while it is empty), or an object of those that have a value.
    pub(crate) fn read_channels(
        &self,
        values: &BTreeMap<Name, ChannelValue>,
        channels: &Channels,
    ) -> State {
        let read = |c: &str| {
            let kind = self.channels.get(c)?;
            // A default that was never written has no stored version: a
            // stored checkpoint shows it here (see `read_keys`).
            let value = values
                .get(c)
                .or_else(|| {
                    self.defaults
                        .iter()
                        .find(|(k, _)| **k == *c)
                        .map(|(_, v)| v)
                })
                .filter(|v| kind.is_available(Some(v)))?;
            Some(kind.read(value))
        };
        match channels {
            Channels::One(c) => State::from_arg(read(c).map_or(Value::Null, |v| v.to_json())),
            Channels::Many(cs) => {
                let mut out = BTreeMap::new();
                let mut order: Vec<Name> = Vec::with_capacity(cs.len());
                for c in cs {
                    if let Some(v) = read(c) {
                        let name = Name::from(c.as_str());
                        order.push(name.clone());
                        out.insert(name, v);
                    }
                }
                State::from_values(out).in_order(order.into())
            }
        }
    }

    fn read_keys(&self, checkpoint: &Checkpoint, keys: &Rc<[Name]>) -> State {
        // Inserted one by one: `collect` into a map first sorts a temporary Vec.
        let mut values = BTreeMap::new();
        for k in keys.iter() {
            if let Some(v) = checkpoint.channel_values.get(k) {
                if !self.is_empty(k, v) {
                    values.insert(k.clone(), v.clone());
                }
            }
        }
        // A saver stores values by channel version, and a default that was
        // never written has none: a stored checkpoint shows it here.
        for (k, v) in &self.defaults {
            if !checkpoint.channel_values.contains_key(k) && keys.contains(k) {
                values.insert(k.clone(), v.clone());
            }
        }
        State::from_values(values).in_order(keys.clone())
    }

    /// Every state channel as a JSON object, keys in declaration order (a
    /// `values` stream event: LangGraph streams its `stream_channels`).
    pub(crate) fn read_values(&self, values: &BTreeMap<Name, ChannelValue>) -> Value {
        if let Some(io) = &self.pregel {
            return self.read_channels(values, &io.stream).to_json();
        }
        Value::Object(
            self.stream_keys
                .iter()
                .filter_map(|k| {
                    let v = values.get(k).filter(|v| !self.is_empty(k, v))?;
                    Some((String::from(&**k), v.to_json()))
                })
                .collect::<Map<_, _>>(),
        )
    }
}

/// The [`ValueLayout`] of a graph with these channels and defaults: every
/// channel in the graph's order (LangGraph.js's `channels`); a default
/// shows until the channel is first written, and `__pregel_tasks` shows an
/// empty list (a `Topic`'s checkpoint is its list, empty or not); the
/// `add_messages` channels hold messages.
fn value_layout(
    channels: &FastIndexMap<Name, ChannelKind>,
    defaults: &[(Name, ChannelValue)],
) -> ValueLayout {
    // An `UntrackedValue`'s default is never stored either.
    let mut unversioned: VecMap<Name, ChannelValue> = defaults
        .iter()
        .filter(|(name, _)| {
            !matches!(
                channels.get(name),
                Some(ChannelKind::State(Reducer::Untracked { .. }))
            )
        })
        .cloned()
        .collect();
    let mut messages = Vec::new();
    for (name, kind) in channels {
        match kind {
            ChannelKind::Tasks => {
                unversioned.insert(name.clone(), ChannelValue::List(Default::default()));
            }
            ChannelKind::State(Reducer::AddMessages | Reducer::MessagesDelta) => {
                messages.push(name.clone());
            }
            _ => {}
        }
    }
    ValueLayout {
        order: channels.keys().cloned().collect(),
        unversioned,
        messages,
    }
}
