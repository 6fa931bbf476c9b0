//! One task: its node run on its input, then its writers (LangGraph's
//! `run_with_retry`, without retries), and a `Command(graph=PARENT)`
//! turned into the error that carries it up to the parent graph.

use super::super::write::{node_writes, pregel_writes};
use crate::channels::py_repr;
use crate::checkpoint::Name;
use crate::error::{Error, ErrorKind, Result};
use crate::graph::{GraphInner, NodeContext, Returned, Scratchpad, State};
use crate::types::{Command, Goto, NodeOutput, Resume, END, PARENT};
use serde_json::Value;
use std::rc::Rc;

/// Runs one task's node and its writers. A PUSH task's node is given its
/// `Send`'s argument; its routers still read the graph state. A
/// [`Pregel`](crate::Pregel) node's PULL task is given what it read
/// (`read`), and without a function passes it on to its writers.
pub(super) async fn run_task(
    graph: &GraphInner,
    name: Name,
    arg: Option<Value>,
    read: Option<Box<State>>,
    state: State,
    start_input: Option<Value>,
    pad: Rc<Scratchpad>,
) -> Result<Vec<(String, Value)>> {
    let node = &graph.nodes[&*name];
    let input = match (arg, read) {
        (Some(arg), _) => State::from_arg(arg),
        (None, Some(read)) => *read,
        (None, None) => node.read(&state),
    };
    // A Pregel node's writers run in a future of their own (boxed), so a
    // StateGraph task's future stays the size it was.
    if let (Some(io), None) = (&node.io, &node.action) {
        let sent = pad.take_sent();
        return Box::pin(pregel_writes(io, input.to_json(), sent)).await;
    }
    let output = match &node.action {
        Some(action) => match action.call(input, NodeContext::new(pad.clone())).await {
            Err(e) if e.kind() == ErrorKind::ParentCommand => {
                // A subgraph handed up a command for this graph: it is this
                // task's output (LangGraph runs the task's writers with it).
                match pad.parent_command.borrow_mut().take() {
                    Some(cmd) => NodeOutput::Command(cmd),
                    None => return Err(e),
                }
            }
            other => other?,
        },
        // `__start__`: its update is the run input itself.
        None => NodeOutput::Update(start_input.unwrap_or(Value::Null)),
    };
    pad.returned.set(match &output {
        NodeOutput::Update(Value::Null) => Returned::Nothing,
        // A `goto` of `END` alone writes nothing (LangGraph.js's control branch skips it).
        NodeOutput::Command(cmd)
            if cmd
                .goto
                .iter()
                .any(|g| !matches!(g, Goto::Node(n) if n == END)) =>
        {
            Returned::Goto
        }
        _ => Returned::Update,
    });
    if let NodeOutput::Command(cmd) = &output {
        if cmd.graph.as_deref() == Some(PARENT) {
            let mut cmd = cmd.clone();
            cmd.graph = None;
            let text = command_repr(&cmd);
            *pad.parent_command.borrow_mut() = Some(cmd);
            return Err(Error::new(ErrorKind::ParentCommand, text).in_node(&*name));
        }
    }
    match (&node.io, output) {
        (None, output) => {
            let mut writes = node_writes(
                graph,
                node,
                output,
                &state,
                Some(&NodeContext::new(pad.clone())),
            )
            .await?;
            // Writes the node made itself (`NodeContext::write`) come first.
            if pad.sent.borrow().is_some() {
                writes.splice(0..0, pad.take_sent());
            }
            Ok(writes)
        }
        (Some(io), NodeOutput::Update(value)) => {
            Box::pin(pregel_writes(io, value, pad.take_sent())).await
        }
        (Some(_), NodeOutput::Command(cmd)) => Err(Error::invalid_update(format!(
            "A node of a Pregel graph returned {}: its writers write values, not commands",
            command_repr(&cmd)
        ))),
    }
}

/// Python's repr of a `Command` (the text of a root `ParentCommand` error).
fn command_repr(cmd: &Command) -> String {
    let mut parts = Vec::new();
    if let Some(update) = &cmd.update {
        parts.push(format!("update={}", py_repr(update)));
    }
    if let Some(Resume::Value(v)) = &cmd.resume {
        parts.push(format!("resume={}", py_repr(v)));
    }
    let goto: Vec<String> = cmd
        .goto
        .iter()
        .map(|g| match g {
            Goto::Node(n) => py_repr(&Value::String(n.clone())),
            Goto::Send(s) => format!(
                "Send(node={}, arg={})",
                py_repr(&Value::String(s.node.clone())),
                py_repr(&s.arg)
            ),
        })
        .collect();
    match goto.len() {
        0 => {}
        1 => parts.push(format!("goto={}", goto[0])),
        _ => parts.push(format!("goto=[{}]", goto.join(", "))),
    }
    format!("Command({})", parts.join(", "))
}
