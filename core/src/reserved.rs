//! LangGraph's reserved channel, write and path names (`_internal/_constants.py`),
//! written once here.

/// The channel of `Send` packets (PUSH tasks of the next superstep).
pub(crate) const TASKS: &str = "__pregel_tasks";
/// A task's stored answers to its `interrupt()` calls.
pub(crate) const RESUME: &str = "__resume__";
/// A task's stored interrupts.
pub(crate) const INTERRUPT: &str = "__interrupt__";
/// A task's stored error.
pub(crate) const ERROR: &str = "__error__";
/// Written by a task that finished without writing anything.
pub(crate) const NO_WRITES: &str = "__no_writes__";
/// The first element of a PUSH task's path, and its only trigger.
pub(crate) const PUSH: &str = "__pregel_push";
/// The first element of a PULL task's path.
pub(crate) const PULL: &str = "__pregel_pull";
/// Joins namespace levels: `outer:<task id>|inner:<task id>`.
pub(crate) const NS_SEP: char = '|';
/// Separates a node name from its task id in a namespace level.
pub(crate) const NS_END: char = ':';

/// `checkpoint_ns` without task ids: `outer:<id>|inner:<id>` → `outer|inner`
/// (LangGraph's `recast_checkpoint_ns`; numeric levels are dropped).
pub(crate) fn recast_checkpoint_ns(ns: &str) -> String {
    ns.split(NS_SEP)
        .filter(|level| !level.is_empty() && !level.bytes().all(|b| b.is_ascii_digit()))
        .map(|level| level.split(NS_END).next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recast_strips_task_ids_level_by_level() {
        assert_eq!(recast_checkpoint_ns(""), "");
        assert_eq!(recast_checkpoint_ns("a:1f0"), "a");
        assert_eq!(recast_checkpoint_ns("outer:1|inner:2"), "outer|inner");
        assert_eq!(recast_checkpoint_ns("outer:1|3|inner:2"), "outer|inner");
    }
}
