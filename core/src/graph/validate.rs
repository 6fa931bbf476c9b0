//! Names a graph may not use, and LangGraph's texts for them
//! (`pregel/_validate.py`'s `validate_graph`, `pregel/main.py`'s `Pregel`
//! constructor, `graph/state.py`'s `add_node`).
//!
//! LangGraph checks in this order, and so does [`StateGraph`](super::StateGraph):
//! while building, `add_node` (duplicate, `__start__`/`__end__`, `:`/`|`),
//! `add_edge` and `add_conditional_edges`; at compile time the edges, the
//! entrypoint, branch targets and interrupt nodes (`StateGraph.validate`),
//! then `__pregel_tasks`, then reserved channel names, then reserved node
//! names.

pub(crate) use crate::reserved::TASKS;
use crate::reserved::{ERROR, ERROR_SOURCE_NODE, INTERRUPT, NO_WRITES, PULL, PUSH, RESUME};
use crate::types::INPUT;

/// LangGraph's `RESERVED` set (`_internal/_constants.py`, 1.2.22): names no
/// channel (state key) and no node may have. Node names containing `:` or
/// `|` are refused earlier, by `add_node`.
pub(crate) const RESERVED: &[&str] = &[
    ":",
    ERROR,
    ERROR_SOURCE_NODE,
    INPUT,
    INTERRUPT,
    NO_WRITES,
    "__pregel_checkpointer",
    PULL,
    PUSH,
    "__pregel_read",
    "__pregel_replay_state",
    "__pregel_resume_map",
    "__pregel_resuming",
    "__pregel_send",
    "__pregel_stream",
    "__pregel_stream_messages_v2",
    "__pregel_strict_resume",
    "__pregel_task_id",
    "__pregel_timed_attempt_observer",
    RESUME,
    "__snapshot_bumps__",
    "checkpoint_id",
    "checkpoint_map",
    "checkpoint_ns",
    "configurable",
    "langsmith:hidden",
    "|",
];

/// The name LangGraph gives a conditional edge whose router has none (a lambda).
pub(crate) const DEFAULT_BRANCH_NAME: &str = "condition";

/// Why a state key cannot be used, in LangGraph's words; `None` when it can.
///
/// Besides LangGraph's own refusals, Chronograph refuses every key that
/// starts with `__` or contains `:`, where its internal channels live
/// (`__start__`, `branch:to:N`, `join:A+B:N`): LangGraph accepts a state key
/// `__start__` or `branch:to:a` and then silently shares that channel with
/// its own bookkeeping.
pub(crate) fn channel_name_error(name: &str) -> Option<String> {
    if name == TASKS {
        return Some(format!(
            "Channel '{TASKS}' is reserved and cannot be used in the graph."
        ));
    }
    if RESERVED.contains(&name) || name.starts_with("__") || name.contains(':') {
        return Some(format!("Channel name '{name}' is reserved"));
    }
    None
}

/// `validate_graph`'s refusal of a node named after a reserved name.
pub(crate) fn node_name_error(name: &str) -> Option<String> {
    RESERVED
        .contains(&name)
        .then(|| format!("Node name '{name}' is reserved"))
}
