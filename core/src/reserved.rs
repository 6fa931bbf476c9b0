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
/// The node a stored error came from (never applied to a channel).
pub(crate) const ERROR_SOURCE_NODE: &str = "__error_source_node__";
/// A task's return value (functional API; never applied to a channel).
pub(crate) const RETURN: &str = "__return__";
/// The channel of an entrypoint's saved return value (functional API).
pub(crate) const PREVIOUS: &str = "__previous__";
/// A scheduled task's marker write (only its slot in a saver's write order).
pub(crate) const SCHEDULED: &str = "__scheduled__";
/// The first element of a PUSH task's path, and its only trigger.
pub(crate) const PUSH: &str = "__pregel_push";
/// The first element of a PULL task's path.
pub(crate) const PULL: &str = "__pregel_pull";
/// Joins namespace levels: `outer:<task id>|inner:<task id>` (see
/// [`crate::checkpoint_ns`]).
pub(crate) const NS_SEP: char = '|';
/// Separates a node name from its task id in a namespace level.
pub(crate) const NS_END: char = ':';
