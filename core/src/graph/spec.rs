//! The JSON graph format (`tests/conformance/FORMAT.md`): channels with
//! reducers, nodes made of built-in ops, edges, conditional edges and
//! compile options. Scenarios, the visualizer and the npm package all load
//! graphs from it.

use super::branch::{Branch, RouterFn};
use super::builder::DEFAULT_ERROR_HANDLER_NODE;
use super::builder::{CompileOptions, StateGraph};
use super::compiled::CompiledGraph;
use super::node::{NodeAction, NodeContext, State};
use crate::channels::{ChannelValue, Reducer};
use crate::error::{Error, Result};
use crate::types::{Command, Goto, NodeOutput, Send};
use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Number, Value};
use std::rc::Rc;

/// A whole graph in the JSON format.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GraphSpec {
    /// State keys and their reducers.
    #[serde(default)]
    pub channels: IndexMap<String, ChannelSpec>,
    /// Nodes in registration order.
    pub nodes: IndexMap<String, NodeSpec>,
    /// `[FROM, TO]` pairs; FROM may be a list (a join).
    #[serde(default)]
    pub edges: Vec<EdgeSpec>,
    /// Rule-based conditional edges.
    #[serde(default)]
    pub conditional_edges: Vec<ConditionalEdgeSpec>,
    /// Compile options.
    #[serde(default)]
    pub compile: CompileSpec,
    /// `set_node_defaults(error_handler=...)`: the handler (its `writes`)
    /// of every node without its own (`extensions/FORMAT.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_error_handler: Option<Box<NodeSpec>>,
}

/// A state key: `{"reducer": "last_value" | "append" | "sum" | "add_messages" | "untracked", "guard"?: bool}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelSpec {
    /// The reducer name (default `last_value`).
    #[serde(default = "last_value")]
    pub reducer: ReducerName,
    /// For `untracked`: `UntrackedValue(guard=...)` (default `true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<bool>,
}

impl ChannelSpec {
    /// The channel's reducer.
    pub fn reducer(&self) -> Reducer {
        match (self.reducer, self.guard) {
            (ReducerName::Untracked, Some(guard)) => Reducer::Untracked { guard },
            (name, _) => name.into(),
        }
    }
}

fn last_value() -> ReducerName {
    ReducerName::LastValue
}

/// The built-in reducers of the JSON format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReducerName {
    /// One value per superstep.
    #[default]
    LastValue,
    /// List concatenation.
    Append,
    /// Number addition.
    Sum,
    /// LangGraph's `add_messages`.
    AddMessages,
    /// LangGraph's `UntrackedValue` (never checkpointed; see `guard`).
    Untracked,
}

impl From<ReducerName> for Reducer {
    fn from(r: ReducerName) -> Self {
        match r {
            ReducerName::LastValue => Reducer::LastValue,
            ReducerName::Append => Reducer::Append,
            ReducerName::Sum => Reducer::Sum,
            ReducerName::AddMessages => Reducer::AddMessages,
            ReducerName::Untracked => Reducer::Untracked { guard: true },
        }
    }
}

/// A node: ops applied in order, their writes merged into one update; or
/// a whole graph run as the node (a subgraph).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    /// The node's ops.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<SpecOp>,
    /// `{"subgraph": GRAPH}`: the node runs this graph (its `compile` may
    /// only name breakpoints; it uses the parent's checkpointer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subgraph: Option<Box<GraphSpec>>,
    /// `"defer": true`: LangGraph's `add_node(..., defer=True)`, the node
    /// runs only once the run would otherwise end
    /// (`tests/conformance/extensions/FORMAT.md`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub defer: bool,
    /// `"error_handler": {"writes": [...]}`: LangGraph's `add_node(...,
    /// error_handler=...)`, ops run on the failed task's input when the
    /// node fails (`error_to` writes the failure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_handler: Option<Box<NodeSpec>>,
}

/// One built-in op of a spec node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawOp", into = "RawOp")]
pub enum SpecOp {
    /// `{"set": {C: VALUE}}`.
    Set(Map<String, Value>),
    /// `{"reply": C, "prefix": P}`: an AI message, P + the last message's content.
    Reply {
        /// Messages channel.
        channel: String,
        /// Text before the echoed content.
        prefix: String,
    },
    /// `{"incr": C, "by": K}`: (current or 0) + K.
    Incr {
        /// Number channel.
        channel: String,
        /// Increment.
        by: Number,
    },
    /// `{"interrupt": VALUE, "resume_to": C}`: pause; on resume write the answer to C.
    Interrupt {
        /// What the node asks.
        value: Value,
        /// Where the answer goes.
        resume_to: Option<String>,
    },
    /// `{"fail_if": {"channel": C, "equals": V}}`: fail with `node NAME failed`.
    FailIf {
        /// Channel compared.
        channel: String,
        /// Value that makes the node fail.
        equals: Value,
    },
    /// `{"collect": C, "from": K, "prefix": P}`: writes `[P + x]` to C, x
    /// the value at K of what the node was given (as Python's `str`).
    Collect {
        /// List channel written.
        channel: String,
        /// Key read from the node's input.
        from: String,
        /// Text before the value.
        prefix: String,
    },
    /// `{"goto": T, "graph"?: "parent"}`: the node returns
    /// `Command(update=<its writes>, goto=T)`, for the parent graph with
    /// `"graph": "parent"`.
    Goto {
        /// Node names (one or several).
        to: Vec<String>,
        /// Whether the command is for the parent graph.
        parent: bool,
    },
    /// `{"error_to": C}` (in an error handler): writes `"NODE: MESSAGE"`,
    /// the failed node and its error's message, to C.
    ErrorTo(String),
}

fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOp {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    set: Option<Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reply: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    prefix: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    incr: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    by: Option<Number>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    interrupt: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    resume_to: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fail_if: Option<FailIf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    collect: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    goto: Option<Names>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    graph: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error_to: Option<String>,
}

/// One name or a list of names (`"goto": "x"` or `"goto": ["x", "y"]`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(untagged)]
enum Names {
    One(String),
    Many(Vec<String>),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FailIf {
    channel: String,
    #[serde(deserialize_with = "present")]
    equals: Option<Value>,
}

fn stray_fields(ok: bool, field: &str) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!("`{field}` does not belong to this op"))
    }
}

impl TryFrom<RawOp> for SpecOp {
    type Error = String;
    fn try_from(r: RawOp) -> Result<Self, String> {
        let kinds = [
            r.set.is_some(),
            r.reply.is_some(),
            r.incr.is_some(),
            r.interrupt.is_some(),
            r.fail_if.is_some(),
            r.collect.is_some(),
            r.goto.is_some(),
            r.error_to.is_some(),
        ];
        if kinds.iter().filter(|k| **k).count() != 1 {
            return Err(
                "an op needs exactly one of `set`, `reply`, `incr`, `interrupt`, `fail_if`, `collect`, `goto`, `error_to`".into(),
            );
        }
        // Ops that take none of the modifiers `prefix`, `by`, `resume_to`.
        let no_modifiers = r.prefix.is_none() && r.by.is_none() && r.resume_to.is_none();
        if let Some(channel) = r.error_to {
            stray_fields(no_modifiers, "prefix/by/resume_to")?;
            return Ok(SpecOp::ErrorTo(channel));
        }
        if r.from.is_some() && r.collect.is_none() {
            return Err("`from` belongs to a `collect` op".into());
        }
        if r.graph.is_some() && r.goto.is_none() {
            return Err("`graph` belongs to a `goto` op".into());
        }
        if let Some(channel) = r.collect {
            stray_fields(r.by.is_none() && r.resume_to.is_none(), "by/resume_to")?;
            return Ok(SpecOp::Collect {
                channel,
                from: r.from.ok_or("a `collect` op needs `from`")?,
                prefix: r.prefix.unwrap_or_default(),
            });
        }
        if let Some(goto) = r.goto {
            stray_fields(no_modifiers, "prefix/by/resume_to")?;
            let parent = match r.graph.as_deref() {
                None => false,
                Some("parent") => true,
                Some(other) => {
                    return Err(format!("`graph` must be \"parent\", not {other:?}"));
                }
            };
            return Ok(SpecOp::Goto {
                to: match goto {
                    Names::One(n) => vec![n],
                    Names::Many(v) => v,
                },
                parent,
            });
        }
        let stray = stray_fields;
        if let Some(set) = r.set {
            stray(no_modifiers, "prefix/by/resume_to")?;
            return Ok(SpecOp::Set(set));
        }
        if let Some(channel) = r.reply {
            stray(r.by.is_none() && r.resume_to.is_none(), "by/resume_to")?;
            return Ok(SpecOp::Reply {
                channel,
                prefix: r.prefix.unwrap_or_default(),
            });
        }
        if let Some(channel) = r.incr {
            stray(
                r.prefix.is_none() && r.resume_to.is_none(),
                "prefix/resume_to",
            )?;
            return Ok(SpecOp::Incr {
                channel,
                by: r.by.unwrap_or_else(|| Number::from(1)),
            });
        }
        if let Some(value) = r.interrupt {
            stray(r.prefix.is_none() && r.by.is_none(), "prefix/by")?;
            return Ok(SpecOp::Interrupt {
                value,
                resume_to: r.resume_to,
            });
        }
        let f = r.fail_if.ok_or("missing op")?;
        Ok(SpecOp::FailIf {
            channel: f.channel,
            equals: f.equals.unwrap_or(Value::Null),
        })
    }
}

impl From<SpecOp> for RawOp {
    fn from(op: SpecOp) -> Self {
        match op {
            SpecOp::Set(m) => RawOp {
                set: Some(m),
                ..Default::default()
            },
            SpecOp::Reply { channel, prefix } => RawOp {
                reply: Some(channel),
                prefix: Some(prefix),
                ..Default::default()
            },
            SpecOp::Incr { channel, by } => RawOp {
                incr: Some(channel),
                by: Some(by),
                ..Default::default()
            },
            SpecOp::Interrupt { value, resume_to } => RawOp {
                interrupt: Some(value),
                resume_to,
                ..Default::default()
            },
            SpecOp::FailIf { channel, equals } => RawOp {
                fail_if: Some(FailIf {
                    channel,
                    equals: Some(equals),
                }),
                ..Default::default()
            },
            SpecOp::Collect {
                channel,
                from,
                prefix,
            } => RawOp {
                collect: Some(channel),
                from: Some(from),
                prefix: Some(prefix),
                ..Default::default()
            },
            SpecOp::Goto { to, parent } => RawOp {
                goto: Some(match to.len() {
                    1 => Names::One(to[0].clone()),
                    _ => Names::Many(to),
                }),
                graph: parent.then(|| "parent".to_owned()),
                ..Default::default()
            },
            SpecOp::ErrorTo(channel) => RawOp {
                error_to: Some(channel),
                ..Default::default()
            },
        }
    }
}

/// The source side of an edge: one node or several (a join).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EdgeFrom {
    /// One node.
    One(String),
    /// Several nodes: the target waits for all.
    Many(Vec<String>),
}

/// `[FROM, TO]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EdgeSpec(pub EdgeFrom, pub String);

/// `{"from": N, "when": [RULE, ...], "else": TO}`, or a fan-out
/// `{"from": N, "send": {"to": M, "each": C, "key": K}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawConditionalEdge")]
pub struct ConditionalEdgeSpec {
    /// Source node.
    pub from: String,
    /// Rules, tried in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub when: Vec<RuleSpec>,
    /// Destination when no rule matches (required unless `send`).
    #[serde(rename = "else", default, skip_serializing_if = "Option::is_none")]
    pub otherwise: Option<String>,
    /// A `Send` per item of a list channel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send: Option<SendSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConditionalEdge {
    from: String,
    #[serde(default)]
    when: Vec<RuleSpec>,
    #[serde(rename = "else", default)]
    otherwise: Option<String>,
    #[serde(default)]
    send: Option<SendSpec>,
}

impl TryFrom<RawConditionalEdge> for ConditionalEdgeSpec {
    type Error = String;
    fn try_from(r: RawConditionalEdge) -> Result<Self, String> {
        match (&r.send, &r.otherwise) {
            (None, None) => return Err("missing field `else`".into()),
            (Some(_), Some(_)) => return Err("`send` takes no `else`".into()),
            (Some(_), None) if !r.when.is_empty() => return Err("`send` takes no `when`".into()),
            _ => {}
        }
        Ok(ConditionalEdgeSpec {
            from: r.from,
            when: r.when,
            otherwise: r.otherwise,
            send: r.send,
        })
    }
}

/// `{"to": M, "each": C, "key": K}`: `Send(M, {K: x})` for each item x of
/// list channel C (none when C is unset), in list order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SendSpec {
    /// The node each `Send` runs.
    pub to: String,
    /// The list channel fanned out.
    pub each: String,
    /// The key of the item in each `Send`'s argument.
    pub key: String,
}

/// `{"if": {...}, "to": N}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSpec {
    /// The condition.
    #[serde(rename = "if")]
    pub condition: ConditionSpec,
    /// Destination when it holds.
    pub to: String,
}

/// `{"channel": C, "lt": NUMBER}` or `{"channel": C, "eq": VALUE}`; a list
/// channel is compared by its length.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionSpec {
    /// Channel read.
    pub channel: String,
    /// Holds when the value (or length) is less than this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lt: Option<f64>,
    /// Holds when the value (or length) equals this.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub eq: Option<Value>,
}

impl ConditionSpec {
    fn holds(&self, state: &State) -> bool {
        let Some(v) = state.get(&self.channel) else {
            return false;
        };
        let subject = match v.len() {
            Some(n) => Value::from(n),
            None => v.as_json().cloned().unwrap_or(Value::Null),
        };
        if let Some(lt) = self.lt {
            return subject.as_f64().is_some_and(|x| x < lt);
        }
        match &self.eq {
            Some(Value::Number(n)) => subject.as_f64() == n.as_f64(),
            Some(want) => subject == *want || v.equals_json(want),
            None => false,
        }
    }
}

/// `{"interrupt_before": [N], "interrupt_after": [N], "checkpointer": bool}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompileSpec {
    /// Pause before these nodes (`"*"` for all).
    #[serde(default, deserialize_with = "names")]
    pub interrupt_before: Vec<String>,
    /// Pause after these nodes (`"*"` for all).
    #[serde(default, deserialize_with = "names")]
    pub interrupt_after: Vec<String>,
    /// Whether the graph saves checkpoints (absent: yes). On a subgraph,
    /// `true` makes it persistent (LangGraph's `checkpointer=True`: a
    /// history of its own, continued by every run of its node); absent, it
    /// uses the parent's checkpointer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpointer: Option<bool>,
}

fn names<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
}

/// Parses the JSON text of a document in one of the engine's formats (a
/// [`GraphSpec`], a conformance scenario): an error is a
/// [`Spec`](crate::ErrorKind::Spec) error naming the path of the
/// bad field (`nodes.a.writes[0]: ...`).
pub fn parse_document<T: serde::de::DeserializeOwned>(json: &str) -> Result<T> {
    let de = &mut serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize(de).map_err(spec_error)
}

/// A `GraphSpecError` naming the path of the bad field (`nodes.a.writes[0]: ...`);
/// an error at the document's root has no path.
fn spec_error(e: serde_path_to_error::Error<serde_json::Error>) -> Error {
    let path = e.path().to_string();
    Error::spec(if path == "." {
        e.inner().to_string()
    } else {
        format!("{path}: {}", e.inner())
    })
}

impl GraphSpec {
    /// Parses the JSON text of a graph. Errors name the path of the bad field.
    pub fn parse(json: &str) -> Result<GraphSpec> {
        parse_document(json)
    }

    /// Reads a graph from a JSON value. Errors name the path of the bad field.
    pub fn from_value(value: &Value) -> Result<GraphSpec> {
        serde_path_to_error::deserialize(value).map_err(spec_error)
    }

    /// The graph as a builder, every op turned into a node function.
    pub fn to_state_graph(&self) -> Result<StateGraph> {
        self.build(&CompileOptions::default())
    }

    /// The builder; subgraph nodes are compiled with `options`' clock and
    /// seed (and no checkpointer: they use the parent's).
    fn build(&self, options: &CompileOptions) -> Result<StateGraph> {
        let mut g = StateGraph::new();
        for (name, c) in &self.channels {
            g.add_channel(name.clone(), c.reducer());
        }
        for (name, node) in &self.nodes {
            if let Some(sub) = &node.subgraph {
                if !node.writes.is_empty() {
                    return Err(Error::spec(format!(
                        "nodes.{name}: a subgraph node has no `writes`"
                    )));
                }
                // A subgraph's `compile.checkpointer: true` is LangGraph's
                // `checkpointer=True`; otherwise it uses the parent's.
                let compiled = sub.build(options)?.compile(CompileOptions {
                    checkpointer: None,
                    interrupt_before: sub.compile.interrupt_before.clone(),
                    interrupt_after: sub.compile.interrupt_after.clone(),
                    clock: options.clock.clone(),
                    seed: options.seed,
                    persistent: sub.compile.checkpointer == Some(true),
                    semantics: options.semantics.clone(),
                    cache: None,
                })?;
                g.add_subgraph(name.clone(), compiled);
            } else {
                let ops = Rc::new(node.writes.clone());
                let node_name = name.clone();
                g.add_command_node(name.clone(), move |state: &State, ctx: &NodeContext| {
                    run_ops(&node_name, &ops, state, ctx)
                });
            }
            if node.defer {
                g.set_node_defer(name.clone(), true);
            }
            if let Some(handler) = &node.error_handler {
                g.set_node_error_handler(
                    name.clone(),
                    handler.ops_action(&super::builder::error_handler_node(name))?,
                );
            }
        }
        if let Some(handler) = &self.default_error_handler {
            g.set_default_error_handler(Some(handler.ops_action(DEFAULT_ERROR_HANDLER_NODE)?));
        }
        for EdgeSpec(from, to) in &self.edges {
            match from {
                EdgeFrom::One(s) => g.add_edge(s.as_str(), to.clone()),
                EdgeFrom::Many(v) => g.add_edge(v.clone(), to.clone()),
            };
        }
        for (i, edge) in self.conditional_edges.iter().enumerate() {
            if let Some(send) = &edge.send {
                let send = send.clone();
                let router = RouterFn::Sends(Rc::new(move |state: State| {
                    let sends = fan_out(&send, &state);
                    Box::pin(async move { Ok(sends) })
                }));
                // Named as the oracle names its fan-out router.
                g.add_branch(
                    edge.from.clone(),
                    Branch::new(router, None).with_name("fan_out"),
                );
                continue;
            }
            let Some(otherwise) = edge.otherwise.clone() else {
                return Err(Error::spec(format!(
                    "conditional_edges[{i}]: needs `else` (or `send`)"
                )));
            };
            let rules = Rc::new(edge.when.clone());
            let mut ends: Vec<String> = edge.when.iter().map(|r| r.to.clone()).collect();
            ends.push(otherwise.clone());
            ends.dedup();
            let router = RouterFn::Sync(Rc::new(move |state: &State| {
                let to = rules
                    .iter()
                    .find(|r| r.condition.holds(state))
                    .map_or(&otherwise, |r| &r.to);
                Ok(vec![to.clone()])
            }));
            // Named `route`, as the conformance tools name this router in LangGraph.
            let branch = Branch::new(router, None).with_ends(ends).with_name("route");
            g.add_branch(edge.from.clone(), branch);
        }
        Ok(g)
    }

    /// Compiles the graph. `options.checkpointer` is used only when the
    /// spec's `compile.checkpointer` is true; its interrupt lists are added.
    pub fn compile(&self, options: CompileOptions) -> Result<CompiledGraph> {
        self.build(&options)?.compile(self.compile_options(options))
    }

    /// `options` with the spec's `compile` section applied: no checkpointer
    /// when `compile.checkpointer` is false, its interrupt lists added.
    /// For callers that compile [`to_state_graph`](Self::to_state_graph)
    /// themselves after adding to it.
    pub fn compile_options(&self, mut options: CompileOptions) -> CompileOptions {
        if self.compile.checkpointer == Some(false) {
            options.checkpointer = None;
        }
        options
            .interrupt_before
            .extend(self.compile.interrupt_before.iter().cloned());
        options
            .interrupt_after
            .extend(self.compile.interrupt_after.iter().cloned());
        options
    }
}

impl NodeSpec {
    /// An error handler's action: its ops (a handler has nothing else).
    fn ops_action(&self, of: &str) -> Result<NodeAction> {
        if self.subgraph.is_some() || self.defer || self.error_handler.is_some() {
            return Err(Error::spec(format!(
                "the error handler of {of}: an error handler has `writes` only"
            )));
        }
        let ops = Rc::new(self.writes.clone());
        let node = of.to_owned();
        Ok(NodeAction::sync(move |state: &State, ctx: &NodeContext| {
            run_ops(&node, &ops, state, ctx)
        }))
    }
}

/// `Send(to, {key: x})` for each item x of the `each` list (none when unset).
fn fan_out(send: &SendSpec, state: &State) -> Vec<Goto> {
    state
        .get(&send.each)
        .map(|v| match v.as_list() {
            Some(_) => v.items().cloned().collect(),
            None => v.as_json().into_iter().cloned().collect::<Vec<_>>(),
        })
        .unwrap_or_default()
        .into_iter()
        .map(|x| {
            let mut arg = Map::new();
            arg.insert(send.key.clone(), x);
            Goto::Send(Send::new(send.to.clone(), Value::Object(arg)))
        })
        .collect()
}

/// Python's `str(x)` of a JSON value (strings as they are).
fn py_str(v: Option<&ChannelValue>) -> String {
    match v.map(ChannelValue::to_json) {
        None => "None".to_owned(),
        Some(Value::String(s)) => s,
        Some(other) => crate::channels::py_repr(&other),
    }
}

/// Runs a spec node's ops: each reads the state the node was given; a later
/// op writing the same channel replaces the earlier value. With a `goto`
/// op the node returns a `Command` carrying the update.
fn run_ops(node: &str, ops: &[SpecOp], state: &State, ctx: &NodeContext) -> Result<NodeOutput> {
    let mut update = Map::new();
    let mut goto: Option<(Vec<String>, bool)> = None;
    for op in ops {
        match op {
            SpecOp::Set(values) => {
                for (k, v) in values {
                    update.insert(k.clone(), v.clone());
                }
            }
            SpecOp::Reply { channel, prefix } => {
                let last = state.get(channel).and_then(ChannelValue::last);
                let content = match last.and_then(|m| m.get("content")) {
                    Some(Value::String(s)) => s.clone(),
                    Some(other) => other.to_string(),
                    None => String::new(),
                };
                update.insert(
                    channel.clone(),
                    serde_json::json!([{ "type": "ai", "content": format!("{prefix}{content}") }]),
                );
            }
            SpecOp::Incr { channel, by } => {
                let current = match state.get(channel).and_then(ChannelValue::as_json) {
                    None | Some(Value::Null) => Number::from(0),
                    Some(Value::Number(n)) => n.clone(),
                    Some(other) => {
                        return Err(Error::type_error(format!(
                            "unsupported operand type(s) for +: '{}' and 'int'",
                            crate::channels::ChannelValue::from_json(other.clone()).py_type()
                        )))
                    }
                };
                update.insert(
                    channel.clone(),
                    Value::Number(crate::channels::add_numbers(&current, by)),
                );
            }
            SpecOp::Interrupt { value, resume_to } => {
                let answer = ctx.interrupt(value.clone())?;
                if let Some(c) = resume_to {
                    update.insert(c.clone(), answer);
                }
            }
            SpecOp::FailIf { channel, equals } => {
                let hit = match state.get(channel) {
                    Some(v) => v.equals_json(equals),
                    None => equals.is_null(),
                };
                if hit {
                    return Err(Error::node_failure(
                        "RuntimeError",
                        format!("node {node} failed"),
                    ));
                }
            }
            SpecOp::Collect {
                channel,
                from,
                prefix,
            } => {
                let x = py_str(state.get(from));
                update.insert(channel.clone(), serde_json::json!([format!("{prefix}{x}")]));
            }
            SpecOp::Goto { to, parent } => goto = Some((to.clone(), *parent)),
            SpecOp::ErrorTo(channel) => {
                let Some(failure) = ctx.node_error() else {
                    return Err(Error::value(format!(
                        "node {node}: `error_to` runs only in an error handler"
                    )));
                };
                let text = format!("{}: {}", failure.node, failure.error.message());
                update.insert(channel.clone(), Value::String(text));
            }
        }
    }
    Ok(match goto {
        None => NodeOutput::Update(Value::Object(update)),
        Some((to, parent)) => {
            let cmd = Command::goto(
                Some(Value::Object(update)),
                to.into_iter().map(Goto::Node).collect(),
            );
            NodeOutput::Command(if parent { cmd.to_parent() } else { cmd })
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_spec_errors_name_the_field() {
        let e = GraphSpec::parse(r#"{"nodes": {"a": {"writes": [{"sett": {}}]}}}"#).unwrap_err();
        assert_eq!(e.name(), "GraphSpecError");
        assert!(
            e.message()
                .starts_with("nodes.a.writes[0].sett: unknown field `sett`"),
            "{}",
            e.message()
        );
        let e = GraphSpec::parse(r#"{"channels": {"x": {"reducer": "max"}}, "nodes": {}}"#)
            .unwrap_err();
        assert!(
            e.message()
                .starts_with("channels.x.reducer: unknown variant `max`"),
            "{}",
            e.message()
        );
        let e = GraphSpec::parse("{").unwrap_err();
        assert!(e.message().contains("EOF"), "{}", e.message());
    }

    #[test]
    fn ops_round_trip_through_json() {
        let text = r#"{"channels": {"m": {"reducer": "add_messages"}},
            "nodes": {"a": {"writes": [{"reply": "m", "prefix": "> "}, {"interrupt": null, "resume_to": "m"}, {"fail_if": {"channel": "m", "equals": 3}}, {"incr": "n", "by": 2}]}},
            "edges": [["__start__", "a"], [["a"], "__end__"]],
            "conditional_edges": [{"from": "a", "when": [{"if": {"channel": "m", "eq": null}, "to": "a"}], "else": "__end__"}]}"#;
        let spec = GraphSpec::parse(text).unwrap();
        let again = GraphSpec::from_value(&serde_json::to_value(&spec).unwrap()).unwrap();
        assert_eq!(spec, again);
        assert!(matches!(
            spec.nodes["a"].writes[1],
            SpecOp::Interrupt {
                value: Value::Null,
                ..
            }
        ));
    }
}
