//! Node options beside a node's function (LangGraph's `add_node` keyword
//! arguments): `defer`, `cache_policy`, `error_handler` (and
//! `set_node_defaults(error_handler=...)`).

use super::StateGraph;
use crate::cache::CachePolicy;
use crate::graph::NodeAction;

/// The node a default error handler becomes (LangGraph's `_DEFAULT_ERROR_HANDLER_NODE`).
pub const DEFAULT_ERROR_HANDLER_NODE: &str = "__default_error_handler__";

/// The node `node`'s own error handler becomes (`__error_handler__<node>`).
pub fn error_handler_node(node: &str) -> String {
    format!("__error_handler__{node}")
}

/// What [`StateGraph`] keeps of a node's options until it compiles.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeOptions {
    /// `add_node(..., defer=True)`.
    pub defer: bool,
    /// `add_node(..., cache_policy=...)`.
    pub cache: Option<CachePolicy>,
    /// The node its failures go to (`add_node(..., error_handler=...)`).
    pub error_handler: Option<String>,
    /// Whether the node is an error handler.
    pub is_error_handler: bool,
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
        if let Some(options) = self.options_of(node.into()) {
            options.defer = defer;
        }
        self
    }

    /// The options of node `node`, or `None` (the builder's first mistake
    /// remembered) when there is no such node.
    fn options_of(&mut self, node: String) -> Option<&mut NodeOptions> {
        if !self.nodes.contains_key(&node) {
            self.fail(format!("Need to add_node `{node}` first"));
            return None;
        }
        Some(self.node_options.entry(node).or_default())
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
        if let Some(options) = self.options_of(node.into()) {
            options.cache = policy;
        }
        self
    }

    /// Gives node `node` an error handler (LangGraph's `add_node(...,
    /// error_handler=handler)`): registered as node `__error_handler__<node>`
    /// (before `node`, as LangGraph registers it). When a task of `node`
    /// fails (after its retries; an interrupt is no failure), its error is
    /// stored with the node it came from, and the handler runs in the same
    /// superstep on the failed task's input, with the failure in
    /// [`NodeContext::node_error`](crate::NodeContext::node_error); its
    /// update (or `Command`) is applied as any task's, and the run goes on.
    /// A handler's own failure fails the run.
    pub fn set_node_error_handler(
        &mut self,
        node: impl Into<String>,
        handler: NodeAction,
    ) -> &mut Self {
        let node = node.into();
        let Some(at) = self.nodes.get_index_of(&node) else {
            return self.fail(format!("Need to add_node `{node}` first"));
        };
        let name = error_handler_node(&node);
        if self.nodes.contains_key(&name) {
            return self.fail(format!(
                "Auto-generated error handler node `{name}` already exists."
            ));
        }
        self.nodes.shift_insert(at, name.clone(), handler);
        self.node_options
            .entry(name.clone())
            .or_default()
            .is_error_handler = true;
        self.node_options.entry(node).or_default().error_handler = Some(name);
        self
    }

    /// LangGraph's `set_node_defaults(error_handler=handler)`: the error
    /// handler of every regular node without its own, registered (as node
    /// `__default_error_handler__`, after every other node) when the graph
    /// compiles. `None` removes it.
    pub fn set_default_error_handler(&mut self, handler: Option<NodeAction>) -> &mut Self {
        self.default_error_handler = handler;
        self
    }

    /// Whether node `node` is an error handler.
    pub(crate) fn is_error_handler(&self, node: &str) -> bool {
        self.node_options
            .get(node)
            .is_some_and(|o| o.is_error_handler)
    }

    /// The error handler node of `node` once compiled: its own, else the default one.
    pub(crate) fn error_handler_of(&self, node: &str) -> Option<String> {
        let options = self.node_options.get(node);
        if options.is_some_and(|o| o.is_error_handler) {
            return None;
        }
        options.and_then(|o| o.error_handler.clone()).or_else(|| {
            self.default_error_handler
                .as_ref()
                .map(|_| DEFAULT_ERROR_HANDLER_NODE.to_owned())
        })
    }

    /// Whether node `node` is deferred.
    pub(crate) fn is_deferred(&self, node: &str) -> bool {
        self.node_options.get(node).is_some_and(|o| o.defer)
    }
}
