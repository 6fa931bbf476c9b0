//! The nodes of the low-level API (LangGraph's `PregelNode`, built with
//! its `NodeBuilder`): which channels trigger a node, what it reads, the
//! function it runs, and the channel writes its result makes
//! (`ChannelWrite`).

use crate::error::Result;
use crate::graph::node::{NodeAction, NodeContext, NodeFuture, State};
use crate::pregel::push;
use crate::types::{NodeOutput, Send};
use serde_json::Value;
use std::fmt;
use std::rc::Rc;

/// What a node reads when it runs (LangGraph's `PregelNode.channels`).
#[derive(Clone, Debug, PartialEq)]
pub enum NodeInput {
    /// One channel's value itself; the node gets no task while the channel
    /// is empty (LangGraph's `channels="a"`, `NodeBuilder.subscribe_only`).
    Channel(String),
    /// The value of the first of these channels that has one; no task while
    /// none has (LangGraph.js's `channels: ["a", "b"]`, a `Graph` node with
    /// several incoming edges).
    FirstOf(Vec<String>),
    /// An object of `key: value` for each `(key, channel)` whose channel has
    /// a value (LangGraph's `channels=["a", "b"]`, `NodeBuilder.subscribe_to`
    /// and `read_from`; LangGraph.js's `channels: { key: "a" }`).
    Dict(Vec<(String, String)>),
}

/// A function computing the value an entry writes from the node's result;
/// `None` writes nothing (when the entry skips none).
pub type WriteMapper = Rc<dyn Fn(Value) -> NodeFuture<Option<Value>>>;

/// One write of a [`ChannelWrite`] (LangGraph's `ChannelWriteEntry`, or a
/// `Send`).
#[derive(Clone)]
pub enum ChannelWriteEntry {
    /// Writes to `channel`: `value`, or the node's result when `None`
    /// (LangGraph's `PASSTHROUGH`), passed through `mapper` when there is
    /// one. With `skip_none`, a mapper's `None` writes nothing.
    Write {
        /// The channel written.
        channel: String,
        /// What is written; `None`: the node's result.
        value: Option<Value>,
        /// Skip the write when the mapper gives `None`.
        skip_none: bool,
        /// Turns the value into the one written.
        mapper: Option<WriteMapper>,
    },
    /// A `Send` packet: a PUSH task of the next superstep.
    Send(Send),
}

impl ChannelWriteEntry {
    /// Writes the node's result to `channel` (LangGraph's `ChannelWriteEntry(channel)`).
    pub fn passthrough(channel: impl Into<String>) -> Self {
        ChannelWriteEntry::Write {
            channel: channel.into(),
            value: None,
            skip_none: false,
            mapper: None,
        }
    }

    /// Writes `value` to `channel`, whatever the node returned.
    pub fn value(channel: impl Into<String>, value: Value) -> Self {
        ChannelWriteEntry::Write {
            channel: channel.into(),
            value: Some(value),
            skip_none: false,
            mapper: None,
        }
    }

    /// Writes `f(result)` to `channel`, nothing when it gives `None`
    /// (LangGraph's `write_to(channel=f)`).
    pub fn mapped(
        channel: impl Into<String>,
        f: impl Fn(Value) -> Result<Option<Value>> + 'static,
    ) -> Self {
        let f = Rc::new(f);
        ChannelWriteEntry::Write {
            channel: channel.into(),
            value: None,
            skip_none: true,
            mapper: Some(Rc::new(move |v| {
                let out = f(v);
                Box::pin(async move { out })
            })),
        }
    }

    /// Sends a packet to a node (a PUSH task of the next superstep).
    pub fn send(send: Send) -> Self {
        ChannelWriteEntry::Send(send)
    }
}

impl fmt::Debug for ChannelWriteEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChannelWriteEntry::Write {
                channel,
                value,
                skip_none,
                mapper,
            } => f
                .debug_struct("Write")
                .field("channel", channel)
                .field("value", value)
                .field("skip_none", skip_none)
                .field("mapper", &mapper.is_some())
                .finish(),
            ChannelWriteEntry::Send(s) => f.debug_tuple("Send").field(s).finish(),
        }
    }
}

/// LangGraph's `ChannelWrite`: the writes a node's writer makes from its result.
#[derive(Clone, Debug, Default)]
pub struct ChannelWrite(pub Vec<ChannelWriteEntry>);

impl ChannelWrite {
    /// The `(channel, value)` writes for the node result `output`, in
    /// entry order (LangGraph's `_assemble_writes`).
    pub(crate) async fn writes(&self, output: &Value) -> Result<Vec<(String, Value)>> {
        let mut writes = Vec::with_capacity(self.0.len());
        for entry in &self.0 {
            match entry {
                ChannelWriteEntry::Send(send) => writes.push(push::send_write(send)),
                ChannelWriteEntry::Write {
                    channel,
                    value,
                    skip_none,
                    mapper,
                } => {
                    push::check_channel_write(channel)?;
                    let value = value.clone().unwrap_or_else(|| output.clone());
                    let value = match mapper {
                        Some(f) => f(value).await?,
                        None => Some(value),
                    };
                    match value {
                        Some(v) => writes.push((channel.clone(), v)),
                        None if *skip_none => {}
                        None => writes.push((channel.clone(), Value::Null)),
                    }
                }
            }
        }
        Ok(writes)
    }
}

/// How a node of the low-level API reads and writes (kept on its compiled node).
#[derive(Clone, Debug)]
pub(crate) struct NodeIo {
    pub input: NodeInput,
    pub writers: Vec<ChannelWrite>,
}

/// Builds a node of a [`Pregel`](super::Pregel) graph (LangGraph's
/// `NodeBuilder`): what triggers it, what it reads, what it runs (nothing:
/// its input passes through), and where its result is written.
///
/// ```
/// use chronograph::NodeBuilder;
/// let node = NodeBuilder::new()
///     .subscribe_only("a")
///     .run(|x, _| Ok(serde_json::json!(x.as_i64().unwrap_or(0) * 2)))
///     .write_to(["b"]);
/// # let _ = node;
/// ```
#[derive(Clone, Debug, Default)]
pub struct NodeBuilder {
    pub(crate) input: Option<NodeInput>,
    pub(crate) triggers: Vec<String>,
    pub(crate) action: Option<NodeAction>,
    pub(crate) writers: Vec<ChannelWrite>,
    pub(crate) error: Option<String>,
}

impl NodeBuilder {
    /// A node that reads nothing, runs nothing and writes nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    fn fail(mut self, message: &str) -> Self {
        self.error.get_or_insert_with(|| message.to_owned());
        self
    }

    /// Triggered by `channel`, and given its value (LangGraph's `subscribe_only`).
    pub fn subscribe_only(self, channel: impl Into<String>) -> Self {
        let channel = channel.into();
        let node = self.read_channel(channel.clone());
        match node.error {
            Some(_) => node,
            None => node.triggered_by([channel]),
        }
    }

    /// Triggered by each of `channels`, and (with `read`) given an object of
    /// their values (LangGraph's `subscribe_to(*channels, read=...)`).
    pub fn subscribe_to(
        mut self,
        channels: impl IntoIterator<Item = impl Into<String>>,
        read: bool,
    ) -> Self {
        let channels: Vec<String> = channels.into_iter().map(Into::into).collect();
        self.triggers.extend(channels.iter().cloned());
        if read {
            return self.read_from(channels);
        }
        if self.input.is_none() {
            self.input = Some(NodeInput::Dict(Vec::new()));
        }
        self
    }

    /// Also given the values of `channels`, without being triggered by them
    /// (LangGraph's `read_from`).
    pub fn read_from(self, channels: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let mut node = self;
        for c in channels {
            let c: String = c.into();
            node = node.read_as(c.clone(), c);
        }
        node
    }

    /// Also given `channel`'s value under `key` (LangGraph.js's
    /// `channels: { key: channel }`).
    pub fn read_as(mut self, key: impl Into<String>, channel: impl Into<String>) -> Self {
        match &mut self.input {
            None => self.input = Some(NodeInput::Dict(vec![(key.into(), channel.into())])),
            Some(NodeInput::Dict(entries)) => entries.push((key.into(), channel.into())),
            Some(_) => {
                return self
                    .fail("Cannot read additional channels when subscribed to single channels")
            }
        }
        self
    }

    /// Triggered by each of `channels`, and given the value of the first
    /// one that has a value (LangGraph.js's `channels: [...]`).
    pub fn subscribe_first_of(self, channels: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let channels: Vec<String> = channels.into_iter().map(Into::into).collect();
        self.read_first_of(channels.clone()).triggered_by(channels)
    }

    /// Given the value of the first of `channels` that has one, without
    /// being triggered by them (LangGraph.js's `channels: [...]`, whose
    /// triggers are given apart).
    pub fn read_first_of(mut self, channels: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let channels = channels.into_iter().map(Into::into);
        match &mut self.input {
            None => self.input = Some(NodeInput::FirstOf(channels.collect())),
            Some(NodeInput::FirstOf(list)) => list.extend(channels),
            Some(_) => {
                return self
                    .fail("Cannot read a list of channels when reading a single channel or a dict")
            }
        }
        self
    }

    /// Given `channel`'s value itself, without being triggered by it
    /// (LangGraph's `PregelNode(channels="a", triggers=[...])`).
    pub fn read_channel(mut self, channel: impl Into<String>) -> Self {
        if self.input.is_some() {
            return self.fail(
                "Cannot subscribe to single channels when other channels are already subscribed to",
            );
        }
        self.input = Some(NodeInput::Channel(channel.into()));
        self
    }

    /// Triggered by each of `channels` too, without reading them
    /// (LangGraph's `PregelNode(triggers=[...])`).
    pub fn triggered_by(mut self, channels: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.triggers.extend(channels.into_iter().map(Into::into));
        self
    }

    /// Runs `f` on the node's input (LangGraph's `do`); a second call runs
    /// its function on the first one's result.
    pub fn run(self, f: impl Fn(&Value, &NodeContext) -> Result<Value> + 'static) -> Self {
        self.action(NodeAction::sync(move |s: &State, c: &NodeContext| {
            f(&s.to_json(), c).map(NodeOutput::Update)
        }))
    }

    /// [`run`](Self::run) with a function returning a future.
    pub fn run_async(self, f: impl Fn(Value, NodeContext) -> NodeFuture + 'static) -> Self {
        self.action(NodeAction::Async(Rc::new(
            move |s: State, c: NodeContext| {
                let out = f(s.to_json(), c);
                Box::pin(async move { out.await.map(NodeOutput::Update) })
            },
        )))
    }

    /// Runs a prepared [`NodeAction`] (a JS function, a compiled graph...).
    pub fn action(mut self, action: NodeAction) -> Self {
        self.action = Some(match self.action.take() {
            None => action,
            Some(first) => then(first, action),
        });
        self
    }

    /// Writes the node's result to each of `channels` (LangGraph's `write_to(*channels)`).
    pub fn write_to(self, channels: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let entries = channels
            .into_iter()
            .map(ChannelWriteEntry::passthrough)
            .collect();
        self.writer(ChannelWrite(entries))
    }

    /// Adds a writer: its writes follow those of the writers added before.
    pub fn writer(mut self, writer: ChannelWrite) -> Self {
        self.writers.push(writer);
        self
    }
}

/// `first` then `second` on its result (LangGraph's `RunnableSeq` of two `do`s).
fn then(first: NodeAction, second: NodeAction) -> NodeAction {
    NodeAction::Async(Rc::new(move |state: State, ctx: NodeContext| {
        let (first, second) = (first.clone(), second.clone());
        Box::pin(async move {
            let out = first.call(state, ctx.clone()).await?;
            let NodeOutput::Update(value) = out else {
                return Ok(out);
            };
            second.call(State::from_arg(value), ctx).await
        })
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn writes(w: &ChannelWrite, out: Value) -> Result<Vec<(String, Value)>> {
        futures::executor::block_on(w.writes(&out))
    }

    #[test]
    fn entries_write_the_result_a_value_or_what_a_mapper_makes_of_it_in_order() {
        let w = ChannelWrite(vec![
            ChannelWriteEntry::passthrough("a"),
            ChannelWriteEntry::value("b", json!(5)),
            ChannelWriteEntry::mapped("c", |v| Ok(Some(json!(v.as_i64().unwrap() + 1)))),
            ChannelWriteEntry::mapped("d", |_| Ok(None)),
            ChannelWriteEntry::send(Send::new("n", json!({"x": 1}))),
        ]);
        assert_eq!(
            writes(&w, json!(1)).unwrap(),
            vec![
                ("a".into(), json!(1)),
                ("b".into(), json!(5)),
                ("c".into(), json!(2)),
                (
                    "__pregel_tasks".into(),
                    json!({"node": "n", "arg": {"x": 1}})
                ),
            ]
        );
    }

    #[test]
    fn writing_the_tasks_channel_by_name_is_refused() {
        let w = ChannelWrite(vec![ChannelWriteEntry::passthrough("__pregel_tasks")]);
        assert_eq!(
            writes(&w, json!(1)).unwrap_err().to_string(),
            "InvalidUpdateError: Cannot write to the reserved channel TASKS"
        );
    }

    #[test]
    fn a_single_channel_subscription_cannot_be_combined_with_others() {
        let n = NodeBuilder::new()
            .subscribe_to(["a"], true)
            .subscribe_only("b");
        assert_eq!(
            n.error.as_deref(),
            Some(
                "Cannot subscribe to single channels when other channels are already subscribed to"
            )
        );
        let n = NodeBuilder::new().subscribe_only("a").read_from(["b"]);
        assert!(n.error.is_some());
        assert_eq!(n.triggers, ["a"]);
    }
}
