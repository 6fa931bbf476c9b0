//! Node options beside a node's function (LangGraph's `add_node` keyword
//! arguments): `defer`, `cache_policy`.

use super::StateGraph;
use crate::cache::CachePolicy;

/// What [`StateGraph`] keeps of a node's options until it compiles.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeOptions {
    /// `add_node(..., defer=True)`.
    pub defer: bool,
    /// `add_node(..., cache_policy=...)`.
    pub cache: Option<CachePolicy>,
}

impl StateGraph {
    /// Defers node `node` (LangGraph's `add_node(..., defer=True)`): it runs
    /// only once the run would otherwise end, after every other pending
    /// node, however many supersteps the other branches take. Its trigger
    /// (`branch:to:NODE`) and the joins into it wait for the run's finish
    /// (LangGraph's `LastValueAfterFinish` and
    /// `NamedBarrierValueAfterFinish` channels). Useful for an aggregator
    /// after branches of different lengths, or after a `Send` fan-out.
    pub fn set_node_defer(&mut self, node: impl Into<String>, defer: bool) -> &mut Self {
        let node = node.into();
        if !self.nodes.contains_key(&node) {
            return self.fail(format!("Need to add_node `{node}` first"));
        }
        self.node_options.entry(node).or_default().defer = defer;
        self
    }

    /// Caches node `node`'s writes by its input (LangGraph's
    /// `add_node(..., cache_policy=CachePolicy(key_func, ttl))`), in the
    /// cache the graph is compiled with ([`crate::CompileOptions::cache`]):
    /// a task whose key is stored does not run, its stored writes are
    /// its writes. `None` removes the policy.
    pub fn set_node_cache_policy(
        &mut self,
        node: impl Into<String>,
        policy: Option<CachePolicy>,
    ) -> &mut Self {
        let node = node.into();
        if !self.nodes.contains_key(&node) {
            return self.fail(format!("Need to add_node `{node}` first"));
        }
        self.node_options.entry(node).or_default().cache = policy;
        self
    }

    /// Whether node `node` is deferred.
    pub(crate) fn is_deferred(&self, node: &str) -> bool {
        self.node_options.get(node).is_some_and(|o| o.defer)
    }
}
