//! Node functions, the state they read, and the context they run in
//! (`interrupt()` lives here).

use super::compiled::CompiledGraph;
use crate::channels::ChannelValue;
use crate::checkpoint::{CheckpointSaver, Name};
use crate::clock::IdGenerator;
use crate::error::{Error, ErrorKind, Result};
use crate::pregel::push;
use crate::types::{Command, Interrupt, NodeOutput, RunnableConfig, StreamEvent};
use serde_json::{Map, Value};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

/// The state a node or router reads: the available state channels. Cheap to
/// clone (values are shared, lists are versions of one append-only log).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct State {
    /// Shared: a task hands the same state to its node, its writers and
    /// its routers; a router's fresh read copies it once to apply writes.
    values: Rc<BTreeMap<Name, ChannelValue>>,
    /// The order [`State::iter`] and [`State::to_json`] give the keys in:
    /// the graph's declaration order (LangGraph's `read_channels` reads the
    /// channels in it), or a `Send` argument's own order. Keys it does not
    /// list follow, sorted; without one, every key is sorted.
    order: Option<Rc<[Name]>>,
    /// A `Send` argument that is not an object (`Send("w", 3)`): the node
    /// is given this value itself; `values` is then empty.
    arg: Option<Rc<Value>>,
}

impl State {
    /// A state over these channel values (what a saver holds in a checkpoint's
    /// `channel_values`), for code that reads stored checkpoints as states.
    pub fn from_values(values: BTreeMap<Name, ChannelValue>) -> Self {
        State {
            values: Rc::new(values),
            order: None,
            arg: None,
        }
    }

    /// The same state, its keys given in `order` (see [`State::iter`]).
    pub(crate) fn in_order(mut self, order: Rc<[Name]>) -> Self {
        self.order = Some(order);
        self
    }

    /// What a node run by `Send(node, arg)` is given: an object's keys as
    /// channels; any other value as itself ([`State::arg`]).
    pub fn from_arg(arg: Value) -> Self {
        match arg {
            Value::Object(map) => {
                let order: Rc<[Name]> = map.keys().map(|k| Name::from(k.as_str())).collect();
                State::from_values(
                    map.into_iter()
                        .map(|(k, v)| (Name::from(k.as_str()), ChannelValue::from_json(v)))
                        .collect(),
                )
                .in_order(order)
            }
            other => State {
                values: Rc::default(),
                order: None,
                arg: Some(Rc::new(other)),
            },
        }
    }

    /// The `Send` argument, when the node was sent a value that is not an object.
    pub fn arg(&self) -> Option<&Value> {
        self.arg.as_deref()
    }

    /// A channel's value, if it has one.
    pub fn get(&self, channel: &str) -> Option<&ChannelValue> {
        self.values.get(channel)
    }

    /// A channel's value as plain JSON (a copy).
    pub fn get_json(&self, channel: &str) -> Option<Value> {
        self.get(channel).map(ChannelValue::to_json)
    }

    /// Channel names and values: in the graph's declaration order for a
    /// state the graph read (as LangGraph gives a node its state), else
    /// sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&Name, &ChannelValue)> {
        let ordered = self.order.as_deref().unwrap_or_default();
        let listed = ordered.iter().filter_map(|k| self.values.get_key_value(k));
        let rest = self
            .values
            .iter()
            .filter(move |(k, _)| !ordered.contains(k));
        listed.chain(rest)
    }

    /// The whole state as a JSON object (a copy: costs the size of the
    /// state); a non-object `Send` argument as itself.
    pub fn to_json(&self) -> Value {
        if let Some(arg) = &self.arg {
            return (**arg).clone();
        }
        Value::Object(
            self.iter()
                .map(|(k, v)| (String::from(&**k), v.to_json()))
                .collect::<Map<_, _>>(),
        )
    }

    /// The part of this state a node with an input schema reads: the
    /// channels in `keys` (those with a value), in that order (LangGraph
    /// reads a node's `input_schema` channels, and only those).
    pub(crate) fn select(&self, keys: &Rc<[Name]>) -> State {
        let mut values = BTreeMap::new();
        for k in keys.iter() {
            if let Some((name, v)) = self.values.get_key_value(k) {
                values.insert(name.clone(), v.clone());
            }
        }
        State::from_values(values).in_order(keys.clone())
    }

    pub(crate) fn set(&mut self, channel: Name, value: ChannelValue) {
        Rc::make_mut(&mut self.values).insert(channel, value);
    }

    /// Leaves `channel` out (a channel that became empty).
    pub(crate) fn unset(&mut self, channel: &str) {
        if self.values.contains_key(channel) {
            Rc::make_mut(&mut self.values).remove(channel);
        }
    }
}

/// A boxed future returned by an async node or router.
pub type NodeFuture<T = Value> = Pin<Box<dyn Future<Output = Result<T>>>>;

/// Type of a synchronous node function.
pub type SyncNodeFn = dyn Fn(&State, &NodeContext) -> Result<NodeOutput>;
/// Type of an asynchronous node function.
pub type AsyncNodeFn = dyn Fn(State, NodeContext) -> NodeFuture<NodeOutput>;

/// What a node does: a function from the state to an update (a JSON object
/// of channel → value, or a [`Command`](crate::Command)), or a whole
/// compiled graph (a subgraph). Sync for Rust closures; async for nodes
/// that await (JavaScript promises). The loop itself needs no async runtime.
#[derive(Clone)]
pub enum NodeAction {
    /// A plain function.
    Sync(Rc<SyncNodeFn>),
    /// A function returning a future.
    Async(Rc<AsyncNodeFn>),
    /// A compiled graph run as this node: it gets the node's input (the
    /// state, or a `Send`'s argument), keeps its checkpoints in its own
    /// namespace of the thread, and returns its final state as the update.
    Subgraph(CompiledGraph),
}

impl NodeAction {
    /// A node from a plain function returning an update or a `Command`.
    pub fn sync<O: Into<NodeOutput>>(
        f: impl Fn(&State, &NodeContext) -> Result<O> + 'static,
    ) -> Self {
        NodeAction::Sync(Rc::new(move |s: &State, c: &NodeContext| {
            f(s, c).map(Into::into)
        }))
    }

    /// Runs the node.
    pub(crate) async fn call(&self, state: State, ctx: NodeContext) -> Result<NodeOutput> {
        match self {
            NodeAction::Sync(f) => f(&state, &ctx),
            NodeAction::Async(f) => f(state, ctx).await,
            NodeAction::Subgraph(g) => crate::pregel::run_subgraph(g, state, ctx).await,
        }
    }

    /// The compiled graph, when the node is a subgraph.
    pub fn subgraph(&self) -> Option<&CompiledGraph> {
        match self {
            NodeAction::Subgraph(g) => Some(g),
            _ => None,
        }
    }
}

impl fmt::Debug for NodeAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NodeAction::Sync(_) => "NodeAction::Sync",
            NodeAction::Async(_) => "NodeAction::Async",
            NodeAction::Subgraph(_) => "NodeAction::Subgraph",
        })
    }
}

/// A `Command(resume=v)` answer not yet taken by any task: a run's own,
/// else (in a subgraph) the one of the task that runs the subgraph
/// (LangGraph's `get_null_resume` falling back to the parent scratchpad).
#[derive(Debug, Default)]
pub(crate) struct NullResume {
    pub own: RefCell<Option<Value>>,
    pub parent: Option<Rc<NullResume>>,
}

impl NullResume {
    /// Takes the answer: this run's, else the nearest ancestor's.
    pub(crate) fn take(&self) -> Option<Value> {
        if let Some(v) = self.own.borrow_mut().take() {
            return Some(v);
        }
        self.parent.as_ref().and_then(|p| p.take())
    }
}

/// What every task of one superstep shares: where the run keeps its
/// checkpoints, and what a subgraph run by a task inherits from it
/// (LangGraph passes these down in the task's `configurable`).
pub(crate) struct TickContext {
    /// The saver of the root graph (subgraphs inherit it).
    pub saver: Option<Rc<dyn CheckpointSaver>>,
    /// The thread.
    pub thread_id: String,
    /// The namespace of the graph this tick belongs to (`""` at the root).
    pub checkpoint_ns: String,
    /// Ancestors' namespaces → checkpoint ids, plus this graph's own entry
    /// for the checkpoint the tick runs from: what a subgraph task records
    /// as its checkpoints' `parents`.
    pub checkpoint_map: BTreeMap<String, String>,
    /// LangGraph's `CONFIG_KEY_RESUMING`, as a subgraph started by this
    /// tick's tasks sees it (only the first tick of a run passes it on).
    pub resuming: Option<bool>,
    /// The replay a time-travelling root run passes to its subgraphs.
    pub replay: Option<Rc<ReplayState>>,
    /// `Command(resume={id: v})` answers.
    pub resume_map: Rc<BTreeMap<String, Value>>,
    /// The pending `Command(resume=v)` answer.
    pub null_resume: Rc<NullResume>,
    /// The config of the run the task belongs to.
    pub config: Rc<RunnableConfig>,
    /// The root graph's id generator.
    pub ids: Rc<IdGenerator>,
    /// Where subgraphs run by this tick's tasks report their stream
    /// events, when the run streams subgraphs (`stream(subgraphs=True)`).
    pub events: Option<Rc<NestedEvents>>,
    /// The tasks this tick's tasks called, for the loop to schedule
    /// (`None` where the loop runs no calls: see [`NodeContext::call`]).
    pub calls: Option<super::call::Calls>,
    /// The graph's `__previous__` channel in the tick's checkpoint.
    pub previous: Option<Value>,
}

/// Stream events reported by subgraph loops, each with the namespace of
/// the loop that reported it (`node:task_id` levels joined by `|`). Every
/// level of a run shares one queue, so the events keep the order in which
/// they happened; the root loop forwards them to its sink while its tasks
/// run (see `pregel::loop`'s `tick`).
#[derive(Default)]
pub(crate) struct NestedEvents {
    queue: RefCell<Vec<(String, StreamEvent)>>,
    /// The root loop's task while it waits for its tasks: a graph a node
    /// invokes runs as a future of its own (not polled by the root), so
    /// what its loop reports wakes the root to forward it at once.
    root: RefCell<Option<std::task::Waker>>,
    /// Whether the root loop is polling its tasks now (it forwards what
    /// they report after the poll: no need to wake it).
    polling: Cell<bool>,
}

impl NestedEvents {
    /// Queues an event of namespace `ns`, waking the root loop.
    pub(crate) fn push(&self, ns: String, event: StreamEvent) {
        self.queue.borrow_mut().push((ns, event));
        if self.polling.get() {
            return;
        }
        if let Some(root) = &*self.root.borrow() {
            root.wake_by_ref();
        }
    }

    /// The root loop starts polling its tasks.
    pub(crate) fn polling(&self) {
        self.polling.set(true);
    }

    /// The events queued so far, once the root loop polled its tasks;
    /// `waker` wakes it on the next one.
    pub(crate) fn take(&self, waker: &std::task::Waker) -> Vec<(String, StreamEvent)> {
        self.polling.set(false);
        remember_waker(&self.root, waker);
        std::mem::take(&mut *self.queue.borrow_mut())
    }
}

/// Keeps `waker` in `slot` (unless what is there wakes the same task).
pub(crate) fn remember_waker(slot: &RefCell<Option<std::task::Waker>>, waker: &std::task::Waker) {
    let mut kept = slot.borrow_mut();
    if !kept.as_ref().is_some_and(|w| w.will_wake(waker)) {
        *kept = Some(waker.clone());
    }
}

impl std::fmt::Debug for NestedEvents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NestedEvents")
            .field("queued", &self.queue.borrow().len())
            .finish()
    }
}

/// LangGraph's `ReplayState`: during a time-travelling run, the first time
/// each subgraph namespace is entered it starts from its newest checkpoint
/// before the replayed one; later entries (a loop) load normally.
#[derive(Debug)]
pub(crate) struct ReplayState {
    pub checkpoint_id: String,
    visited: RefCell<Vec<String>>,
}

impl ReplayState {
    pub(crate) fn new(checkpoint_id: String) -> Self {
        ReplayState {
            checkpoint_id,
            visited: RefCell::new(Vec::new()),
        }
    }

    /// Whether `ns` (task id stripped from its last level) is seen for the first time.
    pub(crate) fn first_visit(&self, ns: &str) -> bool {
        let stable = crate::checkpoint_ns::without_last_task_id(ns);
        let mut visited = self.visited.borrow_mut();
        if visited.iter().any(|v| v == stable) {
            return false;
        }
        visited.push(stable.to_owned());
        true
    }
}

/// A task's `(channel, value)` writes, in the order it made them.
pub(crate) type Writes = Vec<(String, Value)>;

/// Per-task bookkeeping for `interrupt()` and subgraphs (LangGraph's scratchpad).
pub(crate) struct Scratchpad {
    pub node: Name,
    pub task_id: String,
    /// The task's path (`~__pregel_pull, NAME` or `~__pregel_push, 0000000003, False`).
    pub path: Name,
    /// The channels that triggered it (a PULL task's first trigger).
    pub triggers: Vec<Name>,
    /// The task's namespace, `"[parent_ns|]node:task_id"` (hashed into interrupt ids).
    pub task_ns: String,
    pub step: i64,
    /// Answers this task already received, in `interrupt()` call order.
    pub resume: RefCell<Vec<Value>>,
    /// Whether `resume` grew during this run (it must be stored).
    pub resume_changed: Cell<bool>,
    counter: Cell<usize>,
    /// How many tasks it called so far ([`NodeContext::call`]).
    pub(crate) calls: Cell<usize>,
    /// The interrupts this task raised, if it paused (a subgraph may raise several).
    pub raised: RefCell<Vec<Interrupt>>,
    /// A `Command(graph=PARENT)` a subgraph run by this task handed up.
    pub parent_command: RefCell<Option<Command>>,
    /// For an error handler's task: the failure it handles.
    pub node_error: Option<NodeError>,
    /// Writes the node made while it ran ([`NodeContext::write`],
    /// LangGraph's `CONFIG_KEY_SEND`), before those of its writers (boxed
    /// when there are some: most tasks make none, and every task has a pad).
    pub sent: RefCell<Option<Box<Writes>>>,
    /// The superstep's shared context.
    pub tick: Rc<TickContext>,
    /// What the task's node returned (for the commit order of
    /// `Semantics::commit_as_settled`, `pregel/loop/settle.rs`).
    pub returned: Cell<Returned>,
}

/// What a node returned, as far as the time LangGraph.js's runner takes
/// to settle its task tells outputs apart (`pregel/loop/settle.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Returned {
    /// An update object (or a `Command` without `goto`).
    #[default]
    Update,
    /// `null` (no update).
    Nothing,
    /// A `Command` with a `goto`.
    Goto,
}

/// What an error handler is given (LangGraph's `NodeError`): the node
/// whose task failed and its error.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeError {
    /// The node that failed.
    pub node: String,
    /// Its error.
    pub error: Error,
}

impl fmt::Debug for Scratchpad {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scratchpad")
            .field("task_ns", &self.task_ns)
            .field("step", &self.step)
            .finish()
    }
}

impl Scratchpad {
    pub(crate) fn new(
        node: &Name,
        task_id: &str,
        (path, triggers): (&Name, &[Name]),
        step: i64,
        resume: Vec<Value>,
        tick: Rc<TickContext>,
    ) -> Self {
        let task_ns = crate::checkpoint_ns::task_ns(&tick.checkpoint_ns, node, task_id);
        Scratchpad {
            node: node.clone(),
            task_id: task_id.to_owned(),
            path: path.clone(),
            triggers: triggers.to_vec(),
            task_ns,
            step,
            resume: RefCell::new(resume),
            resume_changed: Cell::new(false),
            counter: Cell::new(0),
            calls: Cell::new(0),
            raised: RefCell::new(Vec::new()),
            parent_command: RefCell::new(None),
            node_error: None,
            sent: RefCell::new(None),
            tick,
            returned: Cell::new(Returned::Update),
        }
    }

    /// An error handler's scratchpad: its namespace is `task_ns` (the
    /// failed task's namespace `|` the handler's own level, as LangGraph
    /// derives it from the failed task's config), and it carries `error`.
    pub(crate) fn for_error_handler(mut self, task_ns: String, error: NodeError) -> Self {
        self.task_ns = task_ns;
        self.node_error = Some(error);
        self
    }
}

impl Scratchpad {
    /// Takes the writes the node made while it ran ([`NodeContext::write`]).
    pub(crate) fn take_sent(&self) -> Writes {
        self.sent
            .borrow_mut()
            .take()
            .map(|b| *b)
            .unwrap_or_default()
    }
}

/// The id of the interrupt a task raises after `answered` answers:
/// xxh3-128 of the task namespace (plus `|k` once k ≥ 1), as LangGraph.
pub(crate) fn interrupt_id(task_ns: &str, answered: usize) -> String {
    let key = if answered == 0 {
        task_ns.to_owned()
    } else {
        format!("{task_ns}|{answered}")
    };
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(key.as_bytes()))
}

/// How a task was scheduled (LangGraph's task path).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskPath {
    /// A PULL task: its node was triggered by a channel (`~__pregel_pull, NAME`).
    Pull,
    /// A PUSH task: the `Send` at this index of the superstep's sends.
    Push(usize),
}

/// What a running node can ask of the engine.
#[derive(Clone, Debug)]
pub struct NodeContext {
    pub(crate) pad: Rc<Scratchpad>,
}

impl NodeContext {
    pub(crate) fn new(pad: Rc<Scratchpad>) -> Self {
        NodeContext { pad }
    }

    /// The node's name.
    pub fn node(&self) -> &str {
        &self.pad.node
    }

    /// The task id (stable for a node at a given checkpoint and step).
    pub fn task_id(&self) -> &str {
        &self.pad.task_id
    }

    /// The task's checkpoint namespace, `"node:task_id"` (nested with `|`
    /// inside subgraphs): where a subgraph run by this task keeps its checkpoints.
    pub fn checkpoint_ns(&self) -> &str {
        &self.pad.task_ns
    }

    /// The superstep this task runs in.
    pub fn step(&self) -> i64 {
        self.pad.step
    }

    /// In an error handler's task, the failure it handles (LangGraph's
    /// `NodeError` argument); `None` in any other task.
    pub fn node_error(&self) -> Option<&NodeError> {
        self.pad.node_error.as_ref()
    }

    /// LangGraph's `langgraph_path` of the task: how it was scheduled.
    pub fn path(&self) -> TaskPath {
        match push::is_push(&self.pad.path) {
            true => TaskPath::Push(push::push_index(&self.pad.path)),
            false => TaskPath::Pull,
        }
    }

    /// LangGraph's `langgraph_triggers`: the channels that scheduled the
    /// task (`branch:to:NODE`, a join's barrier), or `__pregel_push` for a
    /// task run by a `Send`.
    pub fn triggers(&self) -> Vec<&str> {
        match self.path() {
            TaskPath::Push(_) => vec![crate::reserved::PUSH],
            TaskPath::Pull => self.pad.triggers.iter().map(|t| &**t).collect(),
        }
    }

    /// The first of [`NodeContext::triggers`] (a task has one, as
    /// LangGraph.js schedules it), without a list.
    pub fn trigger(&self) -> &str {
        match self.path() {
            TaskPath::Push(_) => crate::reserved::PUSH,
            TaskPath::Pull => self.pad.triggers.first().map_or("", |t| &**t),
        }
    }

    /// LangGraph's `checkpoint_map` of the task's config: the checkpoint
    /// each graph from the root down to the task's runs from, by
    /// namespace (`""` for the root).
    pub fn checkpoint_map(&self) -> &BTreeMap<String, String> {
        &self.pad.tick.checkpoint_map
    }

    /// Sends `value` to the `custom` stream mode among the events of the
    /// task's subgraph: queued with them for the root graph, so it keeps
    /// its place among the subgraph's other events. Returns `false` where
    /// nothing is queued: a root graph's task (whose graph reports its
    /// events as they happen), or a run that does not stream subgraphs;
    /// the caller then reports the value itself.
    pub fn custom(&self, value: Value) -> bool {
        let tick = &self.pad.tick;
        match (&tick.events, tick.checkpoint_ns.is_empty()) {
            (Some(events), false) => {
                let event = StreamEvent::Custom(value);
                events.push(tick.checkpoint_ns.clone(), event);
                true
            }
            _ => false,
        }
    }

    /// The id of the checkpoint the task's superstep runs from (LangGraph.js's
    /// `executionInfo.checkpointId`).
    pub fn checkpoint_id(&self) -> Option<&str> {
        self.checkpoint_map()
            .get(&self.pad.tick.checkpoint_ns)
            .map(String::as_str)
    }

    /// The config the run was started with (`thread_id` and the caller's
    /// own `configurable` keys, recursion limit, metadata), for nodes that
    /// read it, as LangGraph passes `config` to nodes.
    pub fn config(&self) -> &RunnableConfig {
        &self.pad.tick.config
    }

    /// LangGraph's `interrupt(value)`: returns the answer when this call was
    /// already answered (by an earlier resume or the current `Command`),
    /// otherwise pauses the node: the returned error must be propagated
    /// with `?`. The node re-runs from the top on resume; earlier
    /// `interrupt()` calls then return their recorded answers.
    pub fn interrupt(&self, value: Value) -> Result<Value> {
        let pad = &self.pad;
        let idx = pad.counter.get();
        pad.counter.set(idx + 1);
        if let Some(answer) = pad.resume.borrow().get(idx) {
            return Ok(answer.clone());
        }
        let answered = pad.resume.borrow().len();
        let id = interrupt_id(&pad.task_ns, answered);
        let answer = pad
            .tick
            .resume_map
            .get(&id)
            .cloned()
            .or_else(|| pad.tick.null_resume.take());
        if let Some(answer) = answer {
            pad.resume.borrow_mut().push(answer.clone());
            pad.resume_changed.set(true);
            return Ok(answer);
        }
        pad.raised.borrow_mut().push(Interrupt { value, id });
        Err(Error::new(ErrorKind::GraphInterrupt, "interrupted").in_node(&*pad.node))
    }

    /// Writes `(channel, value)` pairs as this task's output, in addition
    /// to what its writers write from the node's result (LangGraph's
    /// `CONFIG_KEY_SEND`, through which a `ChannelWrite` run inside a node
    /// writes). They are applied with the task's other writes when the
    /// superstep ends, and dropped if the node fails or pauses. A write of
    /// the reserved `__pregel_tasks` channel must be a `Send` packet
    /// (`{"node": ..., "arg": ...}`, what [`NodeContext::send`] writes), as
    /// LangGraph checks.
    pub fn write(&self, writes: Vec<(String, Value)>) -> Result<()> {
        for (channel, value) in &writes {
            push::check_packet(channel, value)?;
        }
        self.pad
            .sent
            .borrow_mut()
            .get_or_insert_default()
            .extend(writes);
        Ok(())
    }

    /// Sends a packet to a node: a PUSH task of the next superstep (a
    /// [`NodeContext::write`] of `__pregel_tasks`).
    pub fn send(&self, send: &crate::types::Send) {
        let write = push::send_write(send);
        self.pad
            .sent
            .borrow_mut()
            .get_or_insert_default()
            .push(write);
    }

    /// Forgets the writes [`NodeContext::write`] made so far (a retried
    /// node starts over, as LangGraph clears a task's writes before a retry).
    pub fn clear_writes(&self) {
        *self.pad.sent.borrow_mut() = None;
    }

    /// LangGraph's `raise GraphInterrupt(interrupts)` from a node (its
    /// deprecated `NodeInterrupt(value)`): pauses the task with these
    /// interrupts as they are, ids included (an empty id stays absent),
    /// instead of through [`NodeContext::interrupt`]'s numbered calls, so
    /// no resume value is taken and the node raises them again when it
    /// runs again. The returned error must be propagated.
    pub fn raise(&self, interrupts: Vec<Interrupt>) -> Error {
        self.pad.raised.borrow_mut().extend(interrupts);
        Error::new(ErrorKind::GraphInterrupt, "interrupted").in_node(&*self.pad.node)
    }
}
