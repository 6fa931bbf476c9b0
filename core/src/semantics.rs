//! [`Semantics`]: where LangGraph (Python) and LangGraph.js differ, one
//! named rule per field, read where the rule differs.
//!
//! The engine follows LangGraph (Python) by default: its conformance traces
//! come from LangGraph itself. The JS bindings compile with
//! [`Semantics::langgraph_js`], so code written for LangGraph.js sees what
//! LangGraph.js does. A test turns one rule on alone:
//!
//! ```
//! use chronograph::{CompileOptions, Semantics};
//!
//! let options = CompileOptions {
//!     semantics: Semantics { commit_as_settled: true, ..Semantics::langgraph() },
//!     ..Default::default()
//! };
//! assert!(!options.semantics.copy_on_save);
//! ```

use serde_json::{json, Value};

/// The rules where LangGraph (Python) and LangGraph.js differ
/// ([`crate::CompileOptions::semantics`]). Each field is one rule: `false`
/// (or `None`) is LangGraph (Python)'s behaviour, `true` LangGraph.js's.
/// A rule that concerns one kind of graph only (a [`StateGraph`]'s routes,
/// error handlers and value layout; a [`Pregel`]'s nodes) is ignored by
/// the other kind.
///
/// [`StateGraph`]: crate::StateGraph
/// [`Pregel`]: crate::Pregel
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Semantics {
    /// Save each checkpoint as it is when saved, as LangGraph.js does,
    /// instead of replaying LangGraph (Python)'s late serialization of a
    /// join's live seen-set (`pregel/thread_pool_saves.rs`).
    pub copy_on_save: bool,
    /// Let a `Command` with an `update` or a `goto` (and no `resume`)
    /// start a run, as LangGraph.js does: on a new thread (LangGraph raises
    /// `EmptyInputError`) and on a thread with values (LangGraph resumes
    /// it), its writes are saved as an `input` checkpoint the run goes on
    /// from. A run addressed at a checkpoint keeps LangGraph's rule.
    pub command_starts_run: bool,
    /// Refuse a node that nothing leads to (no edge, no conditional edge
    /// that may pick it, no `ends`), as LangGraph.js's `Graph.validate`
    /// does (`UnreachableNodeError`, code `UNREACHABLE_NODE`), right after
    /// the edge sources are checked; LangGraph (Python) compiles such a
    /// graph.
    pub refuse_unreachable: bool,
    /// Give an `update_state` task the id derived from the base checkpoint
    /// (`uuid5(checkpoint id, "__interrupt__")`) even when the base would
    /// run a task of the same node, as LangGraph.js does; LangGraph
    /// (Python) reuses that pending task's id, so on the latest checkpoint
    /// the update's writes become that task's `result` and a resume sees
    /// the task as done.
    pub derived_update_ids: bool,
    /// Give a conditional edge every state channel, private ones included,
    /// as LangGraph.js's routers read its `streamChannels`; LangGraph
    /// (Python) gives it the input schema of the node it leaves (the
    /// state schema for a node without one). Only a graph with node input
    /// schemas ([`crate::StateGraph::set_node_input`]) tells them apart.
    pub routers_read_every_channel: bool,
    /// Commit each task of a superstep as it settles, as LangGraph.js's
    /// runner does (`PregelRunner.tick` commits tasks in the order their
    /// promises settle), instead of in task order once all have run: its
    /// "updates" event (and, for a task that paused, its own
    /// `__interrupt__` event) is reported at once, so a quick node's
    /// update comes before a slow parallel subgraph's events, and a run's
    /// interrupts are listed in settling order. Tasks that settle in the
    /// same poll commit in the order LangGraph.js's promises would settle
    /// (`pregel/loop/settle.rs`): pauses and failures first (LangGraph.js
    /// skips their writers), then by the writers each node has (its edges,
    /// its conditional edges) and what it returned, subgraphs last, ties in
    /// task order.
    pub commit_as_settled: bool,
    /// Keep the run config's extras (`config.metadata`, extra
    /// `configurable` keys) out of checkpoint metadata, as LangGraph.js does
    /// (its savers store `source`, `step` and `parents` only); LangGraph
    /// (Python) copies them in.
    pub metadata_without_config: bool,
    /// Record with each checkpoint how LangGraph.js lists its values (a
    /// [`ValueLayout`](crate::ValueLayout): the graph's channel order, its
    /// defaults never written, the empty `__pregel_tasks` list), for savers
    /// that show checkpoints as LangGraph.js's do. A `StateGraph` rule.
    pub value_layout: bool,
    /// Write the node's name to the `branch:to:NODE` channel a `Command.goto`
    /// or a conditional edge picks, as LangGraph.js's branch writer does
    /// (`{ channel, value: start }`; stored in the task's writes, and in a
    /// deferred node's channel); LangGraph (Python) writes `None`, as static
    /// edges do in both. A `StateGraph` rule.
    pub routes_write_source: bool,
    /// Error handlers as LangGraph.js runs them where it differs from
    /// LangGraph (Python), which only a superstep that paused or failed
    /// after a routed failure shows: a task whose failure went to its
    /// node's error handler counts as done in a snapshot of the thread's
    /// latest checkpoint (it is not in `next`: LangGraph.js reads its
    /// `__error_source_node__` write as output; LangGraph lists it until
    /// the superstep ends), and a resumed superstep gives the handler the
    /// stored error rebuilt with its name and message (LangGraph gives the
    /// stored text). A `StateGraph` rule.
    pub error_handlers_as_js: bool,
    /// For the nodes of a [`Pregel`](crate::Pregel) graph, prepare tasks
    /// as LangGraph.js does: a task records only the first of its node's
    /// triggers that fired (as seen, and in its id), where LangGraph
    /// records them all; and a node reading an object of channels gets a
    /// task only when each of its trigger channels has a value (LangGraph
    /// runs it with the channels that have one). A `Pregel` rule.
    pub pregel_nodes_as_js: bool,
    /// The JSON value that stands for JavaScript's `undefined`
    /// (LangGraph.js's own serialized form, `{"lc": 2, "type":
    /// "undefined"}`, in [`Semantics::langgraph_js`]). A channel holds it
    /// like any value while a run goes on, but a checkpoint restores it as
    /// no value (the channel's default, or nothing), as LangGraph.js's
    /// channels restore `undefined` (`LastValue.fromCheckpoint(undefined)`
    /// is an empty channel): where a run or an update starts from a stored
    /// checkpoint, and in snapshots. `None`: no value is special.
    pub js_undefined: Option<Value>,
    /// Leave out of a snapshot's `next` a task that holds a resume value
    /// but paused again (a node with several `interrupt()` calls, resumed
    /// once), as LangGraph.js's `_prepareStateSnapshot` does: it counts
    /// any stored write of the task but an error or an interrupt (so its
    /// `__resume__`) as the task's writes. LangGraph (Python) reads only a
    /// finished task's output and lists the task. Only the latest
    /// checkpoint's snapshot (`get_state` without a `checkpoint_id`) reads
    /// stored writes, so only it differs.
    pub resumed_not_next: bool,
}

impl Semantics {
    /// LangGraph (Python)'s rules: every field off (the [`Default`]).
    pub fn langgraph() -> Self {
        Semantics::default()
    }

    /// LangGraph.js's rules: every field on, and `undefined` stored as
    /// LangGraph.js's serializer stores it.
    pub fn langgraph_js() -> Self {
        Semantics {
            copy_on_save: true,
            command_starts_run: true,
            refuse_unreachable: true,
            derived_update_ids: true,
            routers_read_every_channel: true,
            commit_as_settled: true,
            metadata_without_config: true,
            value_layout: true,
            routes_write_source: true,
            error_handlers_as_js: true,
            pregel_nodes_as_js: true,
            js_undefined: Some(json!({"lc": 2, "type": "undefined"})),
            resumed_not_next: true,
        }
    }

    /// These rules as a graph of one kind applies them: a `StateGraph`
    /// (`pregel` false) has no Pregel nodes, and a `Pregel` graph has no
    /// routes, error handlers or value layout of a `StateGraph`.
    pub(crate) fn for_graph(mut self, pregel: bool) -> Self {
        match pregel {
            true => {
                self.value_layout = false;
                self.routes_write_source = false;
                self.error_handlers_as_js = false;
            }
            false => self.pregel_nodes_as_js = false,
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_graph_keeps_only_the_rules_that_concern_it() {
        let js = Semantics::langgraph_js();
        let pregel = js.clone().for_graph(true);
        assert!(pregel.pregel_nodes_as_js && pregel.commit_as_settled);
        assert!(
            !pregel.value_layout && !pregel.routes_write_source && !pregel.error_handlers_as_js
        );
        let state_graph = js.for_graph(false);
        assert!(!state_graph.pregel_nodes_as_js);
        assert!(state_graph.value_layout && state_graph.routes_write_source);
        assert_eq!(Semantics::langgraph().for_graph(true), Semantics::default());
    }
}
