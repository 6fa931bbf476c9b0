//! [`StateGraph`]: build a graph from Rust closures, then compile it.

use super::branch::{Branch, RouterFn};
use super::compiled::CompiledGraph;
use super::inner::{CompiledNode, FastIndexMap, GraphInner, GraphShape};
use super::node::{NodeAction, NodeContext, NodeFuture, State};
use super::validate::{channel_name_error, node_name_error, DEFAULT_BRANCH_NAME, TASKS};
use crate::cache::BaseCache;
use crate::channels::{ChannelKind, ChannelValue, Reducer};
use crate::checkpoint::{CheckpointSaver, Name};
use crate::clock::{default_clock, Clock, IdGenerator};
use crate::error::{troubleshooting, Error, Result};
use crate::semantics::Semantics;
use crate::types::{NodeOutput, END, START};
use indexmap::IndexMap;
use serde_json::Value;
use std::collections::BTreeMap;
use std::rc::Rc;

mod options;
mod schema;

use options::NodeOptions;
pub use options::{error_handler_node, DEFAULT_ERROR_HANDLER_NODE};

/// The source side of an edge: one node, or several (a join: the target
/// runs once all of them have run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeSources(pub Vec<String>);

from_impls! {
    impl From<&str> for EdgeSources = |node| EdgeSources(vec![node.to_owned()]);
    impl From<String> for EdgeSources = |node| EdgeSources(vec![node]);
    impl<const N: usize> From<[&str; N]> for EdgeSources =
        |nodes| EdgeSources(nodes.into_iter().map(str::to_owned).collect());
    impl From<Vec<String>> for EdgeSources = |nodes| EdgeSources(nodes);
    impl From<Vec<&str>> for EdgeSources =
        |nodes| EdgeSources(nodes.into_iter().map(str::to_owned).collect());
}

/// Options for [`StateGraph::compile`].
#[derive(Clone, Default)]
pub struct CompileOptions {
    /// Where checkpoints go; without one, nothing is saved and the state API errors.
    pub checkpointer: Option<Rc<dyn CheckpointSaver>>,
    /// Pause before these nodes (`"*"`: every node).
    pub interrupt_before: Vec<String>,
    /// Pause after these nodes (`"*"`: every node).
    pub interrupt_after: Vec<String>,
    /// The clock for ids and timestamps (default: the system clock).
    pub clock: Option<Rc<dyn Clock>>,
    /// Seed for generated ids (message ids, checkpoint id tails).
    pub seed: Option<u64>,
    /// For a graph used as a subgraph: LangGraph's `checkpointer=True`. It
    /// keeps one history per thread, in the namespace named after its node
    /// (no task id), so each run of the node continues from the last one.
    pub persistent: bool,
    /// Where LangGraph (Python) and LangGraph.js differ: LangGraph's rules
    /// by default ([`Semantics::langgraph`]); the JS bindings compile with
    /// [`Semantics::langgraph_js`].
    pub semantics: Semantics,
    /// Where nodes with a cache policy ([`StateGraph::set_node_cache_policy`])
    /// keep their writes (LangGraph's `compile(cache=...)`). Subgraphs do
    /// not inherit it.
    pub cache: Option<Rc<dyn BaseCache>>,
}

impl CompileOptions {
    /// The id generator of a graph compiled with these options: its clock
    /// (the system's by default) and seed.
    pub(crate) fn id_generator(&self) -> Rc<IdGenerator> {
        let clock = self.clock.clone().unwrap_or_else(default_clock);
        Rc::new(match self.seed {
            Some(seed) => IdGenerator::with_seed(clock, seed),
            None => IdGenerator::new(clock),
        })
    }

    /// Options with a checkpointer.
    pub fn with_checkpointer(saver: Rc<dyn CheckpointSaver>) -> Self {
        CompileOptions {
            checkpointer: Some(saver),
            ..Default::default()
        }
    }
}

/// A graph under construction: state channels with reducers, nodes, edges
/// and conditional edges. Builder methods chain; the first mistake is
/// remembered and returned by [`compile`](Self::compile), with LangGraph's text.
#[derive(Default)]
pub struct StateGraph {
    channels: IndexMap<String, Reducer>,
    /// Channels' initial values (LangGraph.js's `default`), in declaration order.
    defaults: IndexMap<String, Value>,
    /// LangGraph.js's `DeltaChannel`s: name → snapshot frequency.
    delta: IndexMap<String, u64>,
    nodes: IndexMap<String, NodeAction>,
    edges: Vec<(Vec<String>, String)>,
    branches: IndexMap<String, Vec<Branch>>,
    /// Declared destinations of nodes that return a `Command` (for drawing).
    destinations: IndexMap<String, Vec<String>>,
    /// The channels of nodes given an input schema, in the schema's order.
    inputs: IndexMap<String, Vec<String>>,
    /// Channels that only input or output schemas declare (private state).
    private: IndexMap<String, Reducer>,
    /// The graph's input schema's keys, when it has one of its own.
    input_keys: Option<Vec<String>>,
    /// The graph's output schema's keys, when it has one of its own.
    output_keys: Option<Vec<String>>,
    /// Nodes' options besides their function (`defer`, cache, error handlers).
    node_options: IndexMap<String, NodeOptions>,
    /// `set_node_defaults(error_handler=...)`'s handler, a node once compiled.
    default_error_handler: Option<NodeAction>,
    error: Option<Error>,
}

impl StateGraph {
    /// An empty graph.
    pub fn new() -> Self {
        Self::default()
    }

    fn fail(&mut self, message: String) -> &mut Self {
        if self.error.is_none() {
            self.error = Some(Error::value(message).with_code("INVALID_GRAPH"));
        }
        self
    }

    /// Declares a state channel and its reducer.
    pub fn add_channel(&mut self, name: impl Into<String>, reducer: Reducer) -> &mut Self {
        // Reserved names are refused by `compile`, where LangGraph refuses them.
        self.channels.insert(name.into(), reducer);
        self
    }

    /// Whether a state channel `name` is declared, by the state or by a
    /// node's input schema.
    pub fn has_channel(&self, name: &str) -> bool {
        self.channels.contains_key(name) || self.private.contains_key(name)
    }

    /// Gives channel `name` an initial value: LangGraph.js's `default`
    /// (`Annotation({ reducer, default })`, a zod `.default()`). The channel
    /// holds it whenever a checkpoint has no value for it, so it is in the
    /// first checkpoint and every state a node reads, and a reducer folds
    /// the first write into it. LangGraph (Python) has no such declaration;
    /// graphs without one behave exactly as before.
    pub fn set_channel_default(&mut self, name: impl Into<String>, value: Value) -> &mut Self {
        self.defaults.insert(name.into(), value);
        self
    }

    /// Makes channel `name` a LangGraph.js `DeltaChannel` (beta) snapshotting
    /// every `snapshot_frequency` updates: its checkpoints' metadata then
    /// carry LangGraph.js's `delta_writes_versioned` and
    /// `counters_since_delta_snapshot`. Its value is its reducer's, as for
    /// any channel (give it the reducer and the default `[]`).
    pub fn set_delta_channel(
        &mut self,
        name: impl Into<String>,
        snapshot_frequency: u64,
    ) -> &mut Self {
        self.delta.insert(name.into(), snapshot_frequency.max(1));
        self
    }

    /// Adds a node whose function returns an update object (a JSON object
    /// of channel → value).
    pub fn add_node(
        &mut self,
        name: impl Into<String>,
        f: impl Fn(&State, &NodeContext) -> Result<Value> + 'static,
    ) -> &mut Self {
        self.add_command_node(name, move |state, ctx| {
            f(state, ctx).map(NodeOutput::Update)
        })
    }

    /// Adds a node whose function returns an update or a
    /// [`Command`](crate::Command) (`Command::goto(update, goto)`: the update
    /// plus where to go next, in addition to the node's edges).
    pub fn add_command_node(
        &mut self,
        name: impl Into<String>,
        f: impl Fn(&State, &NodeContext) -> Result<NodeOutput> + 'static,
    ) -> &mut Self {
        self.add_node_action(name, NodeAction::sync(f))
    }

    /// Adds a node whose function returns a future of an update object.
    pub fn add_async_node(
        &mut self,
        name: impl Into<String>,
        f: impl Fn(State, NodeContext) -> NodeFuture + 'static,
    ) -> &mut Self {
        self.add_node_action(
            name,
            NodeAction::Async(Rc::new(move |state, ctx| {
                let update = f(state, ctx);
                Box::pin(async move { update.await.map(NodeOutput::Update) })
            })),
        )
    }

    /// Adds a compiled graph as a node (a subgraph). It runs on the node's
    /// input (the state, or a `Send`'s argument) in its own checkpoint
    /// namespace of the thread, with this graph's checkpointer, and its
    /// final state is the node's update (LangGraph: `add_node(name, compiled)`).
    pub fn add_subgraph(&mut self, name: impl Into<String>, graph: CompiledGraph) -> &mut Self {
        self.add_node_action(name, NodeAction::Subgraph(graph))
    }

    /// Adds a node from a prepared [`NodeAction`].
    pub fn add_node_action(&mut self, name: impl Into<String>, action: NodeAction) -> &mut Self {
        let name = name.into();
        if self.nodes.contains_key(&name) {
            return self.fail(format!("Node `{name}` already present."));
        }
        if name == START || name == END {
            return self.fail(format!("Node `{name}` is reserved."));
        }
        for c in [':', '|'] {
            if name.contains(c) {
                return self.fail(format!(
                    "'{c}' is a reserved character and is not allowed in the node names."
                ));
            }
        }
        self.nodes.insert(name, action);
        self
    }

    /// Declares where node `node` may send the run with a returned
    /// [`Command`](crate::Command) (LangGraph's `destinations`, LangGraph.js's
    /// `addNode(name, fn, {ends})`). Nothing is routed by it: the
    /// destinations are drawn as conditional edges in the
    /// [`Topology`](crate::Topology) and checked at compile (each must be a
    /// node or `END`).
    pub fn add_destinations(
        &mut self,
        node: impl Into<String>,
        destinations: Vec<String>,
    ) -> &mut Self {
        let node = node.into();
        if !self.nodes.contains_key(&node) {
            return self.fail(format!("Need to add_node `{node}` first"));
        }
        self.destinations
            .entry(node)
            .or_default()
            .extend(destinations);
        self
    }

    /// Adds an edge. With several sources it is a join: `to` runs once all
    /// of them have run.
    pub fn add_edge(&mut self, from: impl Into<EdgeSources>, to: impl Into<String>) -> &mut Self {
        let EdgeSources(sources) = from.into();
        let to = to.into();
        // LangGraph's order: a single source is checked for END, then the
        // target for START; a join checks each source in turn, then the target.
        if sources.len() > 1 {
            for s in &sources {
                if s == END {
                    return self.fail("END cannot be a start node".into());
                }
                if !self.nodes.contains_key(s) {
                    return self.fail(format!("Need to add_node `{s}` first"));
                }
            }
        } else if sources.iter().any(|s| s == END) {
            return self.fail("END cannot be a start node".into());
        }
        if to == START {
            return self.fail("START cannot be an end node".into());
        }
        if sources.len() > 1 && to != END && !self.nodes.contains_key(&to) {
            return self.fail(format!("Need to add_node `{to}` first"));
        }
        if sources.is_empty() {
            // LangGraph accepts `add_edge([], N)` and then never stops; refused here.
            return self.fail("An edge needs at least one start node".into());
        }
        self.edges.push((sources, to));
        self
    }

    /// Adds a conditional edge from `from`: `router` returns destination
    /// names (or keys of `path_map`).
    pub fn add_conditional_edges(
        &mut self,
        from: impl Into<String>,
        router: impl Fn(&State) -> Result<Vec<String>> + 'static,
        path_map: Option<BTreeMap<String, String>>,
    ) -> &mut Self {
        self.add_branch(from, Branch::new(RouterFn::Sync(Rc::new(router)), path_map))
    }

    /// Adds a prepared [`Branch`] (an async router, or declared destinations).
    pub fn add_branch(&mut self, from: impl Into<String>, branch: Branch) -> &mut Self {
        let from = from.into();
        let branches = self.branches.entry(from.clone()).or_default();
        // LangGraph keys a node's branches by router name. An unnamed Rust
        // router has none to clash on (LangGraph would call every lambda `None`).
        if let Some(name) = &branch.name {
            if branches.iter().any(|b| b.name.as_ref() == Some(name)) {
                return self.fail(format!(
                    "Branch with name `{name}` already exists for node `{from}`"
                ));
            }
        }
        branches.push(branch);
        self
    }

    /// Validates the graph (LangGraph's `validate`) and compiles it.
    pub fn compile(&self, options: CompileOptions) -> Result<CompiledGraph> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        self.validate(&options)?;
        let mut channels: FastIndexMap<Name, ChannelKind> = self
            .channels
            .iter()
            .chain(&self.private)
            .map(|(k, r)| (Name::from(k.as_str()), ChannelKind::State(r.clone())))
            .collect();
        let names = |keys: &mut dyn Iterator<Item = &String>| -> Rc<[Name]> {
            keys.map(|k| k.as_str().into()).collect()
        };
        let state_keys = names(&mut self.channels.keys());
        let input_keys = match &self.input_keys {
            Some(keys) => names(&mut keys.iter()),
            None => state_keys.clone(),
        };
        let output_keys = match &self.output_keys {
            Some(keys) => names(&mut keys.iter()),
            None => state_keys.clone(),
        };
        let stream_keys: Rc<[Name]> = match self.private.is_empty() {
            true => state_keys.clone(),
            false => channels.keys().cloned().collect(),
        };
        channels.insert(START.into(), ChannelKind::Ephemeral { guard: false });
        channels.insert(TASKS.into(), ChannelKind::Tasks);
        let routers_read_every_channel = options.semantics.routers_read_every_channel;
        let mut nodes = self.compile_nodes(&mut channels, &state_keys, routers_read_every_channel);
        self.attach_edges(&mut nodes, &mut channels);
        let shape = GraphShape {
            channels,
            nodes,
            edges: self.edges.clone(),
            state_keys,
            input_keys,
            output_keys,
            stream_keys,
            defaults: self.compiled_defaults(),
            delta: self
                .delta
                .iter()
                .map(|(k, f)| (Name::from(&**k), *f))
                .collect(),
            pregel: None,
        };
        Ok(CompiledGraph::from_inner(GraphInner::new(shape, options)))
    }

    /// `__start__`, then every node in registration order (the default
    /// error handler last), each with its `branch:to:NODE` trigger channel
    /// added to `channels` and its options; `state_keys` is what a node
    /// without an input schema reads when private channels exist.
    fn compile_nodes(
        &self,
        channels: &mut FastIndexMap<Name, ChannelKind>,
        state_keys: &Rc<[Name]>,
        routers_read_every_channel: bool,
    ) -> FastIndexMap<String, CompiledNode> {
        let mut nodes: FastIndexMap<String, CompiledNode> = FastIndexMap::default();
        nodes.insert(
            START.into(),
            CompiledNode::new(START, None, vec![START.into()]),
        );
        let default_handler = self
            .default_error_handler
            .as_ref()
            .map(|h| (DEFAULT_ERROR_HANDLER_NODE.to_owned(), h.clone()));
        let all_nodes = self
            .nodes
            .iter()
            .map(|(n, a)| (n.clone(), a.clone()))
            .chain(default_handler);
        for (name, action) in all_nodes {
            let name = &name;
            let trigger = Name::from(branch_channel(name));
            let kind = match self.is_deferred(name) {
                true => ChannelKind::LastValueAfterFinish,
                false => ChannelKind::Ephemeral { guard: false },
            };
            channels.insert(trigger.clone(), kind);
            let mut node = CompiledNode::new(name, Some(action), vec![trigger]);
            node.cache_policy = self.node_options.get(name).and_then(|o| o.cache.clone());
            node.is_error_handler =
                name == DEFAULT_ERROR_HANDLER_NODE || self.is_error_handler(name);
            node.error_handler = match node.is_error_handler {
                true => None,
                false => self.error_handler_of(name).map(|h| Name::from(h.as_str())),
            };
            // Without private channels every node reads the whole state (no copy).
            node.input = match self.inputs.get(name) {
                Some(keys) => Some(keys.iter().map(|k| k.as_str().into()).collect()),
                None if !self.private.is_empty() => Some(state_keys.clone()),
                None => None,
            };
            if !routers_read_every_channel {
                node.router_input = node.input.clone();
            }
            nodes.insert(name.clone(), node);
        }
        nodes
    }

    /// Gives `nodes` their edges (a static edge's write, or a join's
    /// barrier channel, added to `channels`), conditional edges and
    /// declared destinations; each node's triggers end sorted.
    fn attach_edges(
        &self,
        nodes: &mut FastIndexMap<String, CompiledNode>,
        channels: &mut FastIndexMap<Name, ChannelKind>,
    ) {
        for (sources, to) in &self.edges {
            if sources.len() == 1 {
                if to != END {
                    nodes[&sources[0]]
                        .edges
                        .push((branch_channel(to), Value::Null));
                }
                continue;
            }
            if to == END {
                continue; // a join into END writes nothing (LangGraph's `attach_edge`)
            }
            let join = format!("join:{}:{to}", sources.join("+"));
            let kind = match self.is_deferred(to) {
                true => ChannelKind::BarrierAfterFinish(sources.clone()),
                false => ChannelKind::Barrier(sources.clone()),
            };
            channels.insert(join.as_str().into(), kind);
            nodes[to].triggers.push(join.as_str().into());
            for s in sources {
                nodes[s]
                    .edges
                    .push((join.clone(), Value::String(s.clone())));
            }
        }
        for (from, branches) in &self.branches {
            nodes[from].branches.extend(branches.iter().cloned());
        }
        for (from, ends) in &self.destinations {
            nodes[from].destinations.extend(ends.iter().cloned());
        }
        for node in nodes.values_mut() {
            node.triggers.sort();
            node.triggers.dedup();
        }
    }

    /// The declared defaults of the graph's channels, in declaration order.
    fn compiled_defaults(&self) -> Vec<(Name, ChannelValue)> {
        self.defaults
            .iter()
            .filter(|(k, _)| self.channels.contains_key(*k) || self.private.contains_key(*k))
            .map(|(k, v)| (Name::from(k.as_str()), ChannelValue::from_json(v.clone())))
            .collect()
    }

    fn validate(&self, options: &CompileOptions) -> Result<()> {
        let err = |m: String| Err(Error::value(m).with_code("INVALID_GRAPH"));
        if self.default_error_handler.is_some()
            && self.nodes.contains_key(DEFAULT_ERROR_HANDLER_NODE)
        {
            return err(format!(
                "Auto-generated default error handler node `{DEFAULT_ERROR_HANDLER_NODE}` already exists."
            ));
        }
        let is_node = |n: &str| self.nodes.contains_key(n);
        let mut sources: Vec<&str> = self
            .edges
            .iter()
            .flat_map(|(s, _)| s.iter().map(String::as_str))
            .collect();
        sources.extend(self.branches.keys().map(String::as_str));
        for s in &sources {
            if *s != START && !is_node(s) {
                return err(format!("Found edge starting at unknown node '{s}'"));
            }
        }
        if options.semantics.refuse_unreachable {
            if let Some(node) = self.unreachable_node() {
                return Err(Error::value(format!(
                    "Node `{node}` is not reachable.\n\nIf you are returning Command objects from your node,\nmake sure you are passing names of potential destination nodes as an \"ends\" array\ninto \".addNode(..., {{ ends: [\"node1\", \"node2\"] }})\".{}",
                    troubleshooting("UNREACHABLE_NODE")
                ))
                .with_code("UNREACHABLE_NODE"));
            }
        }
        if !sources.contains(&START) {
            return err(
                "Graph must have an entrypoint: add at least one edge from START to another node"
                    .into(),
            );
        }
        for (from, branches) in &self.branches {
            for b in branches {
                let name = b.name.as_deref().unwrap_or(DEFAULT_BRANCH_NAME);
                for end in b.ends.iter().flatten() {
                    if end != END && !is_node(end) {
                        return err(format!(
                            "At '{from}' node, '{name}' branch found unknown target '{end}'"
                        ));
                    }
                }
            }
        }
        let targets = self.edges.iter().map(|(_, to)| to);
        for to in targets.chain(self.destinations.values().flatten()) {
            if to != END && !is_node(to) {
                return err(format!("Found edge ending at unknown node `{to}`"));
            }
        }
        for n in options
            .interrupt_before
            .iter()
            .chain(&options.interrupt_after)
        {
            if n != "*" && !is_node(n) {
                return err(format!("Interrupt node `{n}` not found"));
            }
        }
        // Then what `Pregel` and `validate_graph` refuse, in their order.
        if self.channels.contains_key(TASKS) {
            return err(channel_name_error(TASKS).unwrap_or_default());
        }
        let channels = self.channels.keys().filter_map(|c| channel_name_error(c));
        let nodes = self.nodes.keys().filter_map(|n| node_name_error(n));
        match channels.chain(nodes).next() {
            Some(message) => err(message),
            None => Ok(()),
        }
    }
}

impl StateGraph {
    /// The first node (in the order they were added) that nothing leads
    /// to, by LangGraph.js's rule: a node is reachable when an edge ends at
    /// it, a node lists it in `ends`, or a conditional edge may pick it (a
    /// conditional edge without a path map may pick any node but its own
    /// source). An error handler may go anywhere: with one in the graph
    /// every node is reachable (and handlers are never checked).
    fn unreachable_node(&self) -> Option<&str> {
        if self.default_error_handler.is_some()
            || self.nodes.keys().any(|n| self.is_error_handler(n))
        {
            return None;
        }
        let mut targets: Vec<&str> = self.edges.iter().map(|(_, to)| to.as_str()).collect();
        targets.extend(self.destinations.values().flatten().map(String::as_str));
        for (from, branches) in &self.branches {
            for b in branches {
                match &b.ends {
                    Some(ends) => targets.extend(ends.iter().map(String::as_str)),
                    None => {
                        targets.extend(self.nodes.keys().map(String::as_str).filter(|n| n != from))
                    }
                }
            }
        }
        self.nodes
            .keys()
            .map(String::as_str)
            .find(|n| !targets.contains(n))
    }
}

/// The channel that triggers `node` (`branch:to:NODE`).
pub(crate) fn branch_channel(node: &str) -> String {
    format!("branch:to:{node}")
}
