//! [`Pregel`]: a graph built directly from channels and nodes (LangGraph's
//! low-level API, `langgraph.pregel.Pregel` with its `NodeBuilder`, and
//! LangGraph.js's `Pregel` with `Channel.subscribeTo(...).pipe(...)`).
//!
//! A [`StateGraph`](crate::StateGraph) compiles to the same engine with
//! channels and nodes of its own making (a state key per channel, a
//! `branch:to:NODE` trigger per node, writers that turn an update object
//! into state writes); here the graph's author declares them: any
//! [`ChannelKind`], nodes triggered by any channels, reading one channel,
//! the first available of several, or an object of them, and writing
//! their result to channels with [`ChannelWrite`](crate::ChannelWrite)s.
//! The run input goes to the input channels, the run returns the output
//! channels, and snapshots and `values` events show the stream channels:
//! each is one channel (the value itself) or several (an object).
//!
//! ```
//! use chronograph::{ChannelKind, CompileOptions, NodeBuilder, Pregel, RunnableConfig};
//! use serde_json::json;
//!
//! let mut p = Pregel::new();
//! p.add_channel("a", ChannelKind::ephemeral_value(true))
//!     .add_channel("b", ChannelKind::last_value())
//!     .add_node(
//!         "double",
//!         NodeBuilder::new()
//!             .subscribe_only("a")
//!             .run(|x, _| Ok(json!(format!("{}{}", x.as_str().unwrap(), x.as_str().unwrap()))))
//!             .write_to(["b"]),
//!     )
//!     .input_channels("a")
//!     .output_channels("b");
//! let app = p.compile(CompileOptions::default())?;
//! let out = app.invoke(json!("foo"), &RunnableConfig::default())?;
//! assert_eq!(out.values.to_json(), json!("foofoo"));
//! # Ok::<(), chronograph::Error>(())
//! ```

pub(crate) mod node;

use super::builder::CompileOptions;
use super::compiled::CompiledGraph;
use super::inner::{CompiledNode, FastIndexMap, GraphInner, GraphShape};
use super::validate::RESERVED;
use crate::channels::{py_repr, ChannelKind, ChannelValue};
use crate::checkpoint::Name;
use crate::error::{Error, Result};
use crate::reserved::TASKS;
use indexmap::IndexMap;
use node::{NodeBuilder, NodeInput, NodeIo};
use serde_json::Value;
use std::rc::Rc;

/// Where a [`Pregel`] graph's input goes, what its run returns, or what
/// its snapshots show: one channel (the value itself) or several (an
/// object of those that have a value).
#[derive(Clone, Debug, PartialEq)]
pub enum Channels {
    /// One channel: its value itself.
    One(String),
    /// Several channels: an object of their values.
    Many(Vec<String>),
}

impl Channels {
    /// The channel names.
    pub fn names(&self) -> Vec<&str> {
        match self {
            Channels::One(c) => vec![c.as_str()],
            Channels::Many(cs) => cs.iter().map(String::as_str).collect(),
        }
    }

    /// Python's text of the channels, as LangGraph's messages print them.
    pub(crate) fn repr(&self) -> String {
        match self {
            Channels::One(c) => c.clone(),
            Channels::Many(cs) => py_repr(&Value::from(cs.clone())),
        }
    }
}

// One channel's name is the channel itself; a list of names, an object.
from_impls! {
    impl From<&str> for Channels = |channel| Channels::One(channel.to_owned());
    impl From<String> for Channels = |channel| Channels::One(channel);
    impl<const N: usize> From<[&str; N]> for Channels =
        |channels| Channels::Many(channels.into_iter().map(str::to_owned).collect());
    impl From<Vec<String>> for Channels = |channels| Channels::Many(channels);
    impl From<Vec<&str>> for Channels =
        |channels| Channels::Many(channels.into_iter().map(str::to_owned).collect());
}

/// The input, output and stream channels of a compiled [`Pregel`] graph.
#[derive(Clone, Debug)]
pub(crate) struct PregelIo {
    pub input: Channels,
    pub output: Channels,
    pub stream: Channels,
}

/// A graph under construction from channels and nodes (LangGraph's
/// `Pregel(nodes=, channels=, input_channels=, output_channels=)`).
/// Builder methods chain; the first mistake is returned by
/// [`compile`](Self::compile), with LangGraph's text.
#[derive(Default)]
pub struct Pregel {
    channels: IndexMap<String, ChannelKind>,
    defaults: IndexMap<String, Value>,
    nodes: IndexMap<String, NodeBuilder>,
    input: Option<Channels>,
    output: Option<Channels>,
    stream: Option<Channels>,
    error: Option<Error>,
}

impl Pregel {
    /// An empty graph.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares a channel.
    pub fn add_channel(&mut self, name: impl Into<String>, kind: ChannelKind) -> &mut Self {
        self.channels.insert(name.into(), kind);
        self
    }

    /// Gives channel `name` a value it holds before anything is written
    /// (a `LastValue`'s or a `BinaryOperatorAggregate`'s initial value).
    pub fn set_channel_default(&mut self, name: impl Into<String>, value: Value) -> &mut Self {
        self.defaults.insert(name.into(), value);
        self
    }

    /// Adds a node; nodes are scheduled in the order they were added.
    pub fn add_node(&mut self, name: impl Into<String>, node: NodeBuilder) -> &mut Self {
        let name = name.into();
        if self.nodes.contains_key(&name) && self.error.is_none() {
            self.error = Some(Error::value(format!("Node `{name}` already present.")));
        }
        self.nodes.insert(name, node);
        self
    }

    /// Where a run's input is written: one channel gets the input itself;
    /// several get the input object's keys of those names.
    pub fn input_channels(&mut self, channels: impl Into<Channels>) -> &mut Self {
        self.input = Some(channels.into());
        self
    }

    /// What a run returns: one channel's value, or an object of several.
    pub fn output_channels(&mut self, channels: impl Into<Channels>) -> &mut Self {
        self.output = Some(channels.into());
        self
    }

    /// What snapshots and `values` events show (default: every channel).
    pub fn stream_channels(&mut self, channels: impl Into<Channels>) -> &mut Self {
        self.stream = Some(channels.into());
        self
    }

    /// Validates the graph (LangGraph's `validate_graph`) and compiles it.
    pub fn compile(&self, options: CompileOptions) -> Result<CompiledGraph> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let (input, output) = match (&self.input, &self.output) {
            (Some(i), Some(o)) => (i.clone(), o.clone()),
            _ => {
                return Err(Error::value(
                    "A Pregel graph needs input channels and output channels",
                ))
            }
        };
        let mut channels: FastIndexMap<Name, ChannelKind> = FastIndexMap::default();
        for (name, kind) in &self.channels {
            if name == TASKS && !matches!(kind, ChannelKind::Topic { .. } | ChannelKind::Tasks) {
                return Err(value_error(format!(
                    "Channel '{TASKS}' is reserved and cannot be used in the graph."
                )));
            }
            channels.insert(name.as_str().into(), kind.clone());
        }
        channels.insert(TASKS.into(), ChannelKind::Tasks);
        self.validate(&channels, &input, &output, &options)?;
        let names =
            |cs: &Channels| -> Rc<[Name]> { cs.names().into_iter().map(Name::from).collect() };
        let stream = self
            .stream
            .clone()
            .unwrap_or_else(|| Channels::Many(channels.keys().map(|k| k.to_string()).collect()));
        let mut defaults: Vec<(Name, ChannelValue)> = Vec::new();
        for (name, kind) in &channels {
            let value = match self.defaults.get(&**name) {
                Some(v) => Some(ChannelValue::from_json(v.clone())),
                None => kind.initial(),
            };
            defaults.extend(value.map(|v| (name.clone(), v)));
        }
        let mut nodes: FastIndexMap<String, CompiledNode> = FastIndexMap::default();
        for (name, built) in &self.nodes {
            let mut triggers: Vec<Name> = Vec::new();
            for t in &built.triggers {
                if !triggers.iter().any(|n| **n == **t) {
                    triggers.push(t.as_str().into());
                }
            }
            let mut node = CompiledNode::new(name, built.action.clone(), triggers);
            node.io = Some(Rc::new(NodeIo {
                input: built.input.clone().unwrap_or(NodeInput::Dict(Vec::new())),
                writers: built.writers.clone(),
            }));
            nodes.insert(name.clone(), node);
        }
        let stream_keys = names(&stream);
        let shape = GraphShape {
            state_keys: stream_keys.clone(),
            input_keys: names(&input),
            output_keys: names(&output),
            stream_keys,
            defaults,
            delta: Rc::from([]),
            channels,
            nodes,
            edges: Vec::new(),
            pregel: Some(Rc::new(PregelIo {
                input,
                output,
                stream,
            })),
        };
        Ok(CompiledGraph::from_inner(GraphInner::new(shape, options)))
    }

    /// LangGraph's `validate_graph`, in its order and with its texts.
    fn validate(
        &self,
        channels: &FastIndexMap<Name, ChannelKind>,
        input: &Channels,
        output: &Channels,
        options: &CompileOptions,
    ) -> Result<()> {
        let known = || {
            let mut names: Vec<String> = channels.keys().map(|k| k.to_string()).collect();
            names.sort();
            let text = py_repr(&Value::from(names));
            text.chars().take(100).collect::<String>()
        };
        for name in self.channels.keys() {
            if RESERVED.contains(&name.as_str()) {
                return Err(value_error(format!("Channel name '{name}' is reserved")));
            }
        }
        let mut subscribed: Vec<&str> = Vec::new();
        for (name, node) in &self.nodes {
            if let Some(message) = &node.error {
                return Err(value_error(message.clone()));
            }
            if RESERVED.contains(&name.as_str()) {
                return Err(value_error(format!("Node name '{name}' is reserved")));
            }
            subscribed.extend(node.triggers.iter().map(String::as_str));
            let reads: Vec<&str> = match &node.input {
                None => Vec::new(),
                Some(NodeInput::Channel(c)) => vec![c.as_str()],
                Some(NodeInput::FirstOf(cs)) => cs.iter().map(String::as_str).collect(),
                Some(NodeInput::Dict(entries)) => entries.iter().map(|(_, c)| c.as_str()).collect(),
            };
            if let Some(chan) = reads.iter().find(|c| !channels.contains_key(**c)) {
                return Err(value_error(format!(
                    "Node {name} reads channel '{chan}' not in known channels: '{}'",
                    known()
                )));
            }
        }
        if let Some(chan) = subscribed.iter().find(|c| !channels.contains_key(**c)) {
            return Err(value_error(format!(
                "Subscribed channel '{chan}' not in known channels: '{}'",
                known()
            )));
        }
        for chan in input.names() {
            if !channels.contains_key(chan) {
                return Err(value_error(match input {
                    Channels::One(_) => format!(
                        "Input channel '{chan}' not in known channels: '{}'",
                        known()
                    ),
                    Channels::Many(_) => format!("Input channel '{chan}' not in '{}'", known()),
                }));
            }
        }
        if input.names().iter().all(|c| !subscribed.contains(c)) {
            return Err(value_error(match input {
                Channels::One(c) => format!("Input channel {c} is not subscribed to by any node"),
                Channels::Many(_) => format!(
                    "None of the input channels {} are subscribed to by any node",
                    input.repr()
                ),
            }));
        }
        let stream = self
            .stream
            .as_ref()
            .map(Channels::names)
            .unwrap_or_default();
        if let Some(chan) = output
            .names()
            .into_iter()
            .chain(stream)
            .find(|c| !channels.contains_key(*c))
        {
            return Err(value_error(format!(
                "Output channel '{chan}' not in known channels: '{}'",
                known()
            )));
        }
        for n in options
            .interrupt_after
            .iter()
            .chain(&options.interrupt_before)
        {
            if n != "*" && !self.nodes.contains_key(n) {
                return Err(value_error(format!("Node {n} not in nodes")));
            }
        }
        Ok(())
    }
}

fn value_error(message: String) -> Error {
    Error::value(message).with_code("INVALID_GRAPH")
}
