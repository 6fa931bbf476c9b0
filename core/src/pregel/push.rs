//! `Send` and PUSH tasks (LangGraph's `PUSH` tasks of `pregel/_algo.py`,
//! its `Send` of `types.py`): a task that runs one node on an input of its
//! own instead of the graph's state. Three things make one:
//!
//! - a [`Send`] (from a conditional edge, a `Command.goto`, a `Command`
//!   given as run input, a [`Pregel`](crate::Pregel) writer or
//!   [`NodeContext::send`](crate::NodeContext::send)) is written to
//!   `__pregel_tasks` ([`send_write`]) and becomes a PUSH task of the next
//!   superstep ([`prepare_push_tasks`]): path
//!   `~__pregel_push, 0000000003, False`, its id hashed from the `Send`'s
//!   index;
//! - a call of the functional API ([`NodeContext::call`](crate::NodeContext::call))
//!   is a PUSH task of the running superstep ([`call_task`]): path
//!   `~__pregel_push, <caller path>, <index>, <caller id>, True`;
//! - a node's error handler runs as a PUSH task on the failed task's input
//!   ([`handler_task`]): path `<failed task's path>, node_error_handler, False`.
//!
//! A `Send` is checked where it is written ([`check_send`],
//! [`check_packet`], [`check_channel_write`]) and stored without the keys
//! of `UntrackedValue` channels ([`sanitize_send`]).

use super::algo::{task_id, Task};
use crate::checkpoint::{Checkpoint, Name};
use crate::error::{Error, Result};
use crate::graph::{GraphInner, Scratchpad};
use crate::reserved::{PUSH, TASKS};
use crate::types::{Send, END};
use serde_json::{Map, Value};

/// The suffix of a called task's path (LangGraph.js's `langgraph_path`
/// of a call ends with `true`): no graph node runs it.
const CALL_PATH_END: &str = ", True";

impl Task {
    /// A PUSH task: node `name` run on `arg`, triggered by `__pregel_push`.
    fn push(id: String, name: Name, path: Name, arg: Value) -> Self {
        Task {
            id,
            name,
            path,
            triggers: vec![PUSH.into()],
            writes: Vec::new(),
            arg: Some(arg),
            input: None,
        }
    }
}

/// The `__pregel_tasks` write of one `Send`.
pub(crate) fn send_write(send: &Send) -> (String, Value) {
    (
        TASKS.to_owned(),
        serde_json::json!({"node": send.node, "arg": send.arg}),
    )
}

/// A router's `Send` must not go to `END` (LangGraph's `InvalidUpdateError`).
pub(crate) fn check_send(send: &Send) -> Result<()> {
    match send.node == END {
        true => Err(Error::invalid_update(
            "Cannot send a packet to the END node",
        )),
        false => Ok(()),
    }
}

/// A node's own write of `__pregel_tasks` must be a `Send` packet
/// (`{"node": ..., "arg": ...}`), as LangGraph checks a `CONFIG_KEY_SEND` write.
pub(crate) fn check_packet(channel: &str, value: &Value) -> Result<()> {
    let packet = value.get("node").is_some_and(Value::is_string);
    match channel == TASKS && !packet {
        true => Err(Error::invalid_update(format!(
            "Invalid packet type, expected SendProtocol, got {value}"
        ))),
        false => Ok(()),
    }
}

/// A [`ChannelWrite`](crate::ChannelWrite) writes `__pregel_tasks` only
/// through a `Send` entry (LangGraph's `ChannelWrite` refuses the channel).
pub(crate) fn check_channel_write(channel: &str) -> Result<()> {
    match channel == TASKS {
        true => Err(Error::invalid_update(
            "Cannot write to the reserved channel TASKS",
        )),
        false => Ok(()),
    }
}

/// A stored `Send` packet without the keys of its argument that `untracked`
/// names (LangGraph's `sanitize_untracked_values_in_send`).
pub(crate) fn sanitize_send(
    packet: &Map<String, Value>,
    untracked: impl Fn(&str) -> bool,
) -> Value {
    let mut packet = packet.clone();
    if let Some(Value::Object(arg)) = packet.get_mut("arg") {
        arg.retain(|k, _| !untracked(k));
    }
    Value::Object(packet)
}

/// Whether `path` is a PUSH task's.
pub(crate) fn is_push(path: &str) -> bool {
    path.strip_prefix('~')
        .is_some_and(|rest| rest.starts_with(PUSH))
}

/// The `Send` index of PUSH task path `path` (0 when it has none).
pub(crate) fn push_index(path: &str) -> usize {
    let rest = path.strip_prefix('~').unwrap_or_default();
    rest.strip_prefix(PUSH)
        .unwrap_or_default()
        .trim_start_matches(", ")
        .split(',')
        .next()
        .and_then(|i| i.trim().parse().ok())
        .unwrap_or(0)
}

/// LangGraph's `task_path_str` for the PUSH task of the `idx`-th `Send`.
fn send_path(idx: usize) -> String {
    format!("~{PUSH}, {idx:010}, False")
}

/// Adds to `tasks` a PUSH task per `Send` in `checkpoint`'s
/// `__pregel_tasks`, in order (the first part of LangGraph's
/// `prepare_next_tasks`); a `Send` to an unknown node is dropped
/// (LangGraph: "Ignoring unknown node name ... in pending sends").
pub(crate) fn prepare_push_tasks(
    graph: &GraphInner,
    checkpoint: &Checkpoint,
    ns: &str,
    step: i64,
    tasks: &mut Vec<Task>,
) {
    let Some(sends) = checkpoint
        .channel_values
        .get(TASKS)
        .and_then(|v| v.as_list())
    else {
        return;
    };
    for (idx, packet) in sends.iter().enumerate() {
        let Some(node) = packet.get("node").and_then(Value::as_str) else {
            continue;
        };
        let Some(compiled) = graph.nodes.get(node) else {
            continue;
        };
        if compiled.action.is_none() {
            continue;
        }
        let idx_text = idx.to_string();
        tasks.push(Task::push(
            task_id(&checkpoint.id, ns, node, step, PUSH, &[&idx_text]),
            compiled.name.clone(),
            send_path(idx).into(),
            packet.get("arg").cloned().unwrap_or(Value::Null),
        ));
    }
}

/// The PUSH task of call number `index` of the task `caller` to `name` on
/// `input`, in the superstep `step` that runs from checkpoint
/// `checkpoint_id` (LangGraph's `accept_push`): its id is hashed from the
/// caller's namespace, path, call index and id, so the same call of a
/// resumed run finds the same task.
pub(crate) fn call_task(
    checkpoint_id: &str,
    step: i64,
    caller: &Scratchpad,
    name: &str,
    index: usize,
    input: Value,
) -> Task {
    let index = index.to_string();
    let id = task_id(
        checkpoint_id,
        &caller.task_ns,
        name,
        step,
        PUSH,
        &[&caller.path, &index, &caller.task_id],
    );
    let path = format!(
        "~{PUSH}, {}, {index}, {}{CALL_PATH_END}",
        caller.path, caller.task_id
    );
    Task::push(id, name.into(), path.into(), input)
}

/// Whether `task` was called by a running task (it runs no graph node).
pub(crate) fn is_call(task: &Task) -> bool {
    task.path.ends_with(CALL_PATH_END)
}

/// The PUSH task of error handler `handler` for the task `failed` (whose
/// namespace is `failed_ns`) on `input`, in the superstep `step` that runs
/// from checkpoint `checkpoint_id` (LangGraph's
/// `prepare_node_error_handler_task`): its id hashed from the failed
/// task's namespace, the step, `__pregel_push`, `"node_error_handler"`
/// and the failed task's id; its path the failed task's followed by
/// `node_error_handler, False`.
pub(crate) fn handler_task(
    checkpoint_id: &str,
    step: i64,
    failed: &Task,
    failed_ns: &str,
    handler: Name,
    input: Value,
) -> Task {
    let id = task_id(
        checkpoint_id,
        failed_ns,
        &handler,
        step,
        PUSH,
        &["node_error_handler", &failed.id],
    );
    let path = format!("{}, node_error_handler, False", failed.path);
    Task::push(id, handler, path.into(), input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_paths_carry_the_send_index() {
        assert_eq!(send_path(3), "~__pregel_push, 0000000003, False");
        assert!(is_push(&send_path(3)));
        assert!(!is_push(&crate::pregel::pull_path("a")));
        assert_eq!(push_index(&send_path(12)), 12);
        assert_eq!(push_index(&crate::pregel::pull_path("a")), 0);
    }
}
