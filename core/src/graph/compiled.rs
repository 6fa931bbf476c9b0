//! [`CompiledGraph`]: a validated graph bound to a checkpointer, with the
//! run API (`invoke`, `stream`) and the state API (`get_state`,
//! `get_state_history`, `lineage`, `update_state`, `bulk_update_state`).

use super::branch::Branch;
use super::builder::CompileOptions;
use super::node::{NodeAction, State};
use super::pregel::node::NodeIo;
use super::pregel::{Channels, PregelIo};
use crate::cache::{BaseCache, CachePolicy};
use crate::channels::{ChannelKind, ChannelValue, Reducer};
use crate::checkpoint::{Checkpoint, CheckpointSaver, ListOptions, Name, ValueLayout, VecMap};
use crate::checkpoint_ns;
use crate::clock::IdGenerator;
use crate::error::{Error, Result};
use crate::pregel;
use crate::semantics::Semantics;
use crate::state::{self, StateSnapshot, StateUpdate};
use crate::types::{RunInput, RunOutput, RunnableConfig, StreamEvent, END, START};
use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::future::Future;
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

/// Everything a run needs, shared by the graph handle. Made by
/// [`GraphInner::new`] from what a builder compiled and the
/// [`CompileOptions`]; cloned whole by
/// [`CompiledGraph::with_checkpointer`].
#[derive(Clone)]
pub(crate) struct GraphInner {
    /// Every channel: state keys, `__start__`, `branch:to:*`, `join:*`.
    pub channels: FastIndexMap<Name, ChannelKind>,
    /// The `UntrackedValue` channels (see [`untracked_channels`]): left
    /// out of what a saver gets. Empty for most graphs, which then pay nothing.
    pub untracked: Rc<[Name]>,
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
    /// How LangGraph.js lists this graph's checkpoint values, given to each
    /// checkpoint it writes ([`Semantics::value_layout`]).
    pub layout: Option<Rc<ValueLayout>>,
    /// `__start__` first, then nodes in registration order.
    pub nodes: FastIndexMap<String, CompiledNode>,
    /// Edges as declared (for drawing).
    pub edges: Vec<(Vec<String>, String)>,
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
    /// For a [`Pregel`](crate::Pregel) graph: its input, output and stream
    /// channels (`state_keys`, `input_keys`, `output_keys` and
    /// `stream_keys` then hold their names). `None` for a `StateGraph`.
    pub pregel: Option<Rc<PregelIo>>,
    /// Message ids, checkpoint ids and timestamps (the options' clock and seed).
    pub ids: Rc<IdGenerator>,
}

/// What a builder compiles a graph into, before the [`CompileOptions`]
/// are added: its channels and nodes, and the keys its state, input and
/// output are read by (see the fields of [`GraphInner`] of the same names).
pub(crate) struct GraphShape {
    pub channels: FastIndexMap<Name, ChannelKind>,
    pub nodes: FastIndexMap<String, CompiledNode>,
    pub edges: Vec<(Vec<String>, String)>,
    pub state_keys: Rc<[Name]>,
    pub input_keys: Rc<[Name]>,
    pub output_keys: Rc<[Name]>,
    pub stream_keys: Rc<[Name]>,
    pub defaults: Vec<(Name, ChannelValue)>,
    pub pregel: Option<Rc<PregelIo>>,
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
            channels: shape.channels,
            state_keys: shape.state_keys,
            input_keys: shape.input_keys,
            output_keys: shape.output_keys,
            stream_keys: shape.stream_keys,
            defaults: shape.defaults,
            layout,
            nodes: shape.nodes,
            edges: shape.edges,
            saver: options.checkpointer,
            interrupt_before: options.interrupt_before,
            interrupt_after: options.interrupt_after,
            persistent: options.persistent,
            semantics,
            cache: options.cache,
            pregel: shape.pregel,
            ids,
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
            ChannelKind::State(Reducer::AddMessages) => messages.push(name.clone()),
            _ => {}
        }
    }
    ValueLayout {
        order: channels.keys().cloned().collect(),
        unversioned,
        messages,
    }
}

/// A node-and-edge picture of a graph, for drawing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Topology {
    /// `__start__`, the nodes in registration order, `__end__`.
    pub nodes: Vec<String>,
    /// Every edge.
    pub edges: Vec<TopologyEdge>,
}

/// One edge of a [`Topology`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TopologyEdge {
    /// Source node.
    pub from: String,
    /// Target node.
    pub to: String,
    /// Drawn from a conditional edge (may or may not be taken).
    pub conditional: bool,
    /// Part of a join: the target waits for all of its sources.
    pub join: bool,
}

/// A compiled graph. Cheap to clone (shared).
#[derive(Clone)]
pub struct CompiledGraph {
    pub(crate) inner: Rc<GraphInner>,
}

impl std::fmt::Debug for CompiledGraph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledGraph")
            .field("nodes", &self.inner.nodes.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// Drives a future whose nodes are all synchronous to completion without
/// an async runtime. Natively it blocks; on bare wasm a future that is not
/// ready at once (an async node) is an error: use the `a*` methods there.
pub(crate) fn block_on<F: Future>(f: F) -> Result<F::Output> {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        Ok(futures::executor::block_on(f))
    }
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        use std::task::{Context, Poll, Waker};
        let mut f = std::pin::pin!(f);
        match f.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(v) => Ok(v),
            Poll::Pending => Err(Error::runtime(
                "This graph awaited an asynchronous node; use the async API (ainvoke)",
            )),
        }
    }
}

impl CompiledGraph {
    pub(crate) fn from_inner(inner: GraphInner) -> Self {
        CompiledGraph {
            inner: Rc::new(inner),
        }
    }

    /// Runs the graph (async: nodes may await).
    pub async fn ainvoke(
        &self,
        input: impl Into<RunInput>,
        config: &RunnableConfig,
    ) -> Result<RunOutput> {
        pregel::run(&self.inner, input.into(), config, None, false).await
    }

    /// Runs the graph inside the running task `ctx`, as LangGraph does when
    /// a node function calls a compiled graph ("a subgraph called as a
    /// function"): in the task's namespace of the parent's checkpointer,
    /// like a subgraph node. Resolves to the subgraph's final state; when
    /// it pauses, the error is the `GraphInterrupt` that pauses the task
    /// (let it propagate), and the resume value of the parent's next run
    /// reaches the nested `interrupt()`.
    pub async fn ainvoke_in_task(
        &self,
        input: Value,
        ctx: &super::node::NodeContext,
    ) -> Result<Value> {
        match pregel::run_subgraph(self, super::node::State::from_arg(input), ctx.clone()).await? {
            crate::types::NodeOutput::Update(values) => Ok(values),
            crate::types::NodeOutput::Command(_) => Ok(Value::Null),
        }
    }

    /// [`ainvoke_in_task`](Self::ainvoke_in_task), reporting the events of
    /// the graph's own loop to `sink` as they happen (a node that streams
    /// a compiled graph).
    pub async fn astream_in_task(
        &self,
        input: Value,
        ctx: &super::node::NodeContext,
        sink: &mut dyn FnMut(StreamEvent),
    ) -> Result<Value> {
        let mut own = |_: &str, e: StreamEvent| sink(e);
        let input = super::node::State::from_arg(input);
        match pregel::run_subgraph_into(self, input, ctx.clone(), Some(&mut own)).await? {
            crate::types::NodeOutput::Update(values) => Ok(values),
            crate::types::NodeOutput::Command(_) => Ok(Value::Null),
        }
    }

    /// Runs the graph, reporting events to `sink` as they happen.
    pub async fn astream(
        &self,
        input: impl Into<RunInput>,
        config: &RunnableConfig,
        sink: &mut dyn FnMut(StreamEvent),
    ) -> Result<RunOutput> {
        let mut root = |_: &str, e: StreamEvent| sink(e);
        pregel::run(&self.inner, input.into(), config, Some(&mut root), false).await
    }

    /// Runs the graph, reporting the events of the root graph and of every
    /// subgraph it runs to `sink` as they happen (LangGraph's
    /// `stream(..., subgraphs=True)`), each with the namespace of the graph
    /// that reported it: `""` for the root, `node:task_id` for a subgraph
    /// (nested levels joined by `|`). The root's events are those of
    /// [`astream`](Self::astream); a subgraph's events come between the
    /// start and the result of the task that runs it.
    pub async fn astream_subgraphs(
        &self,
        input: impl Into<RunInput>,
        config: &RunnableConfig,
        sink: &mut dyn FnMut(&str, StreamEvent),
    ) -> Result<RunOutput> {
        pregel::run(&self.inner, input.into(), config, Some(sink), true).await
    }

    /// Synchronous [`astream_subgraphs`](Self::astream_subgraphs): every
    /// event with its namespace, and the output.
    pub fn stream_subgraphs(
        &self,
        input: impl Into<RunInput>,
        config: &RunnableConfig,
    ) -> Result<(Vec<(String, StreamEvent)>, RunOutput)> {
        let mut events = Vec::new();
        let out = block_on(
            self.astream_subgraphs(input, config, &mut |ns, e| events.push((ns.to_owned(), e))),
        )??;
        Ok((events, out))
    }

    /// Runs the graph to completion (synchronous nodes).
    pub fn invoke(&self, input: impl Into<RunInput>, config: &RunnableConfig) -> Result<RunOutput> {
        block_on(self.ainvoke(input, config))?
    }

    /// Runs the graph and returns every event it reported, with the output.
    pub fn stream(
        &self,
        input: impl Into<RunInput>,
        config: &RunnableConfig,
    ) -> Result<(Vec<StreamEvent>, RunOutput)> {
        let mut events = Vec::new();
        let out = block_on(self.astream(input, config, &mut |e| events.push(e)))??;
        Ok((events, out))
    }

    /// Drops the cached writes of `nodes` (every node's when `None`) from
    /// the graph's cache (LangGraph's `clear_cache`); nothing without one.
    pub async fn aclear_cache(&self, nodes: Option<&[&str]>) -> Result<()> {
        let Some(cache) = &self.inner.cache else {
            return Ok(());
        };
        let namespaces = nodes.map(|nodes| {
            nodes
                .iter()
                .map(|n| crate::cache::node_namespace(n))
                .collect()
        });
        cache.clear(namespaces).await
    }

    /// Synchronous [`aclear_cache`](Self::aclear_cache).
    pub fn clear_cache(&self, nodes: Option<&[&str]>) -> Result<()> {
        block_on(self.aclear_cache(nodes))?
    }

    /// The state at the addressed checkpoint, or the thread's latest ("live":
    /// finished tasks' writes applied) when the config has no `checkpoint_id`.
    pub fn get_state(&self, config: &RunnableConfig) -> Result<StateSnapshot> {
        state::get_state(&self.inner, config, false)
    }

    /// [`get_state`](Self::get_state) with every task that runs a subgraph
    /// carrying that subgraph's newest snapshot (`get_state(config,
    /// subgraphs=True)`), nested to any depth. A config whose
    /// `checkpoint_ns` names a subgraph reads that subgraph's checkpoints.
    pub fn get_state_subgraphs(&self, config: &RunnableConfig) -> Result<StateSnapshot> {
        state::get_state(&self.inner, config, true)
    }

    /// Snapshots newest first; with a `checkpoint_id` only that checkpoint.
    pub fn get_state_history(
        &self,
        config: &RunnableConfig,
        options: &ListOptions,
    ) -> Result<Vec<StateSnapshot>> {
        state::get_state_history(&self.inner, config, options)
    }

    /// The addressed checkpoint (or the latest) and its ancestors up to the
    /// root, child first: the branch that checkpoint lives on.
    pub fn lineage(&self, config: &RunnableConfig) -> Result<Vec<StateSnapshot>> {
        state::lineage(&self.inner, config)
    }

    /// `update_state(config, values, as_node)`: writes an `update` checkpoint
    /// (or `input`/`fork` for `__input__`/`__copy__`) and returns its config.
    pub async fn aupdate_state(
        &self,
        config: &RunnableConfig,
        values: Option<Value>,
        as_node: Option<&str>,
    ) -> Result<RunnableConfig> {
        let update = StateUpdate {
            values,
            as_node: as_node.map(str::to_owned),
            task_id: None,
            goto: Vec::new(),
        };
        state::bulk_update_state(&self.inner, config, vec![vec![update]]).await
    }

    /// Synchronous [`aupdate_state`](Self::aupdate_state).
    pub fn update_state(
        &self,
        config: &RunnableConfig,
        values: Option<Value>,
        as_node: Option<&str>,
    ) -> Result<RunnableConfig> {
        block_on(self.aupdate_state(config, values, as_node))?
    }

    /// Several supersteps of updates, each applied on the previous one's result.
    pub async fn abulk_update_state(
        &self,
        config: &RunnableConfig,
        supersteps: Vec<Vec<StateUpdate>>,
    ) -> Result<RunnableConfig> {
        state::bulk_update_state(&self.inner, config, supersteps).await
    }

    /// Synchronous [`abulk_update_state`](Self::abulk_update_state).
    pub fn bulk_update_state(
        &self,
        config: &RunnableConfig,
        supersteps: Vec<Vec<StateUpdate>>,
    ) -> Result<RunnableConfig> {
        block_on(self.abulk_update_state(config, supersteps))?
    }

    /// A [`Pregel`](crate::Pregel) graph's input channels (`None` for a
    /// `StateGraph`, whose input is an object of state keys).
    pub fn input_channels(&self) -> Option<&Channels> {
        self.inner.pregel.as_ref().map(|p| &p.input)
    }

    /// The checkpointer, if the graph has one.
    pub fn checkpointer(&self) -> Option<&Rc<dyn CheckpointSaver>> {
        self.inner.saver.as_ref()
    }

    /// The same graph with another checkpointer (`None`: none), and as a
    /// subgraph `persistent` or not (LangGraph's `checkpointer=True`): as
    /// assigning a LangGraph `Pregel`'s `checkpointer` does. The graph's
    /// nodes and channels are shared, not copied.
    pub fn with_checkpointer(
        &self,
        saver: Option<Rc<dyn CheckpointSaver>>,
        persistent: bool,
    ) -> CompiledGraph {
        CompiledGraph::from_inner(GraphInner {
            saver,
            persistent,
            ..GraphInner::clone(&self.inner)
        })
    }

    /// State keys and their reducers, in declaration order.
    pub fn channels(&self) -> Vec<(String, Reducer)> {
        self.inner
            .state_keys
            .iter()
            .filter_map(|k| match self.inner.channels.get(k) {
                Some(ChannelKind::State(r)) => Some((String::from(&**k), r.clone())),
                _ => None,
            })
            .collect()
    }

    /// Node names in registration order (without `__start__`).
    pub fn node_names(&self) -> Vec<String> {
        self.inner
            .nodes
            .keys()
            .filter(|n| *n != START)
            .cloned()
            .collect()
    }

    /// Nodes and edges, for drawing.
    pub fn topology(&self) -> Topology {
        let mut nodes = vec![START.to_owned()];
        nodes.extend(self.node_names());
        nodes.push(END.to_owned());
        let mut edges = Vec::new();
        for (sources, to) in &self.inner.edges {
            for from in sources {
                edges.push(TopologyEdge {
                    from: from.clone(),
                    to: to.clone(),
                    conditional: false,
                    join: sources.len() > 1,
                });
            }
        }
        for node in self.inner.nodes.values() {
            let ends = node.branches.iter().flat_map(|b| b.ends.iter().flatten());
            for to in ends.chain(&node.destinations) {
                edges.push(TopologyEdge {
                    from: String::from(&*node.name),
                    to: to.clone(),
                    conditional: true,
                    join: false,
                });
            }
        }
        Topology { nodes, edges }
    }
}
