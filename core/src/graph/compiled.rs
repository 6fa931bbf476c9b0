//! [`CompiledGraph`]: a validated graph bound to a checkpointer, with the
//! run API (`invoke`, `stream`) and the state API (`get_state`,
//! `get_state_history`, `lineage`, `update_state`, `bulk_update_state`).

use super::inner::GraphInner;
use super::pregel::Channels;
use crate::channels::{ChannelKind, Reducer};
use crate::checkpoint::{CheckpointSaver, ListOptions};
use crate::error::Result;
use crate::pregel;
use crate::state::{self, StateSnapshot, StateUpdate};
use crate::types::{RunInput, RunOutput, RunnableConfig, StreamEvent, END, START};
use serde::Serialize;
use serde_json::Value;
use std::future::Future;
use std::rc::Rc;

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
            Poll::Pending => Err(crate::Error::runtime(
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
        let mut inner = GraphInner::clone(&self.inner);
        inner.saver = saver;
        inner.persistent = persistent;
        CompiledGraph::from_inner(inner)
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
