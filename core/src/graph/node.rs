//! Node functions, the state they read, and the context they run in
//! (`interrupt()` lives here).

use crate::channels::ChannelValue;
use crate::checkpoint::Name;
use crate::error::{Error, ErrorKind, Result};
use crate::types::{Interrupt, RunnableConfig};
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
}

impl State {
    pub(crate) fn from_values(values: BTreeMap<Name, ChannelValue>) -> Self {
        State {
            values: Rc::new(values),
        }
    }

    /// A channel's value, if it has one.
    pub fn get(&self, channel: &str) -> Option<&ChannelValue> {
        self.values.get(channel)
    }

    /// A channel's value as plain JSON (a copy).
    pub fn get_json(&self, channel: &str) -> Option<Value> {
        self.get(channel).map(ChannelValue::to_json)
    }

    /// Channel names and values, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&Name, &ChannelValue)> {
        self.values.iter()
    }

    /// The whole state as a JSON object (a copy: costs the size of the state).
    pub fn to_json(&self) -> Value {
        Value::Object(
            self.values
                .iter()
                .map(|(k, v)| (String::from(&**k), v.to_json()))
                .collect::<Map<_, _>>(),
        )
    }

    pub(crate) fn set(&mut self, channel: Name, value: ChannelValue) {
        Rc::make_mut(&mut self.values).insert(channel, value);
    }
}

/// A boxed future returned by an async node or router.
pub type NodeFuture<T = Value> = Pin<Box<dyn Future<Output = Result<T>>>>;

/// Type of a synchronous node function.
pub type SyncNodeFn = dyn Fn(&State, &NodeContext) -> Result<Value>;
/// Type of an asynchronous node function.
pub type AsyncNodeFn = dyn Fn(State, NodeContext) -> NodeFuture;

/// What a node does: a function from the state to an update (a JSON object
/// of channel → value). Sync for Rust closures; async for nodes that await
/// (JavaScript promises). The loop itself needs no async runtime.
#[derive(Clone)]
pub enum NodeAction {
    /// A plain function.
    Sync(Rc<SyncNodeFn>),
    /// A function returning a future.
    Async(Rc<AsyncNodeFn>),
}

impl NodeAction {
    /// Runs the node.
    pub(crate) async fn call(&self, state: State, ctx: NodeContext) -> Result<Value> {
        match self {
            NodeAction::Sync(f) => f(&state, &ctx),
            NodeAction::Async(f) => f(state, ctx).await,
        }
    }
}

impl fmt::Debug for NodeAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NodeAction::Sync(_) => "NodeAction::Sync",
            NodeAction::Async(_) => "NodeAction::Async",
        })
    }
}

/// Per-task bookkeeping for `interrupt()` (LangGraph's scratchpad).
#[derive(Debug)]
pub(crate) struct Scratchpad {
    pub node: Name,
    pub task_id: String,
    pub step: i64,
    /// Answers this task already received, in `interrupt()` call order.
    pub resume: RefCell<Vec<Value>>,
    /// Whether `resume` grew during this run (it must be stored).
    pub resume_changed: Cell<bool>,
    counter: Cell<usize>,
    /// A `Command(resume=v)` answer not yet taken by any task of the step.
    pub null_resume: Rc<RefCell<Option<Value>>>,
    /// `Command(resume={id: v})` answers.
    pub resume_map: Rc<BTreeMap<String, Value>>,
    /// The interrupt this task raised, if it paused.
    pub raised: RefCell<Option<Interrupt>>,
    /// The config of the run the task belongs to.
    pub config: Rc<RunnableConfig>,
}

impl Scratchpad {
    pub(crate) fn new(
        node: &Name,
        task_id: &str,
        step: i64,
        resume: Vec<Value>,
        null_resume: Rc<RefCell<Option<Value>>>,
        resume_map: Rc<BTreeMap<String, Value>>,
        config: Rc<RunnableConfig>,
    ) -> Self {
        Scratchpad {
            node: node.clone(),
            task_id: task_id.to_owned(),
            step,
            resume: RefCell::new(resume),
            resume_changed: Cell::new(false),
            counter: Cell::new(0),
            null_resume,
            resume_map,
            raised: RefCell::new(None),
            config,
        }
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

/// What a running node can ask of the engine.
#[derive(Clone, Debug)]
pub struct NodeContext {
    pad: Rc<Scratchpad>,
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

    /// The superstep this task runs in.
    pub fn step(&self) -> i64 {
        self.pad.step
    }

    /// The config the run was started with (`thread_id` and the caller's
    /// own `configurable` keys, recursion limit, metadata), for nodes that
    /// read it, as LangGraph passes `config` to nodes.
    pub fn config(&self) -> &RunnableConfig {
        &self.pad.config
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
        // The task namespace `"<node>:<task_id>"` is hashed into the id.
        let id = interrupt_id(&format!("{}:{}", pad.node, pad.task_id), answered);
        let answer = pad
            .resume_map
            .get(&id)
            .cloned()
            .or_else(|| pad.null_resume.borrow_mut().take());
        if let Some(answer) = answer {
            pad.resume.borrow_mut().push(answer.clone());
            pad.resume_changed.set(true);
            return Ok(answer);
        }
        *pad.raised.borrow_mut() = Some(Interrupt { value, id });
        Err(Error::new(ErrorKind::GraphInterrupt, "interrupted").in_node(&*pad.node))
    }
}
