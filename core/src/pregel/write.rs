//! A node's writers (LangGraph `ChannelWrite` + branch writers): turn a
//! node's returned update into channel writes, fire its static edges, and
//! run its conditional-edge routers on the state with the update applied.

use super::push::{check_send, send_write};
use crate::channels::{py_repr, ChannelKind};
use crate::error::{troubleshooting, Error, Result};
use crate::graph::{CompiledNode, GraphInner, NodeContext, NodeIo, State};
use crate::types::{update_as_tuples, Goto, NodeOutput, END, START};
use serde_json::Value;

/// The writes node `node` makes when it returns `output`; `state` is what
/// its routers read (with the node's own state writes applied): the graph
/// state, also for a task run by a `Send`. `update_state` uses the same
/// function with the user's values. A `Command`'s goto runs in addition to
/// the node's edges; `Command(graph=PARENT)` must be handled by the caller.
/// `task` is the task whose writers these are (routers may read it).
pub(crate) async fn node_writes(
    graph: &GraphInner,
    node: &CompiledNode,
    output: NodeOutput,
    state: &State,
    task: Option<&NodeContext>,
) -> Result<Vec<(String, Value)>> {
    // The update is the node's own: its keys and values move into the writes.
    let (update, goto) = match output {
        NodeOutput::Update(Value::Null) => (Vec::new(), Vec::new()),
        NodeOutput::Update(Value::Object(map)) => (map.into_iter().collect(), Vec::new()),
        NodeOutput::Update(other) => {
            return Err(Error::invalid_update(format!(
                "Expected dict, got {}{}",
                py_repr(&other),
                troubleshooting("INVALID_GRAPH_NODE_RETURN_VALUE")
            )))
        }
        // An object or `[channel, value]` pairs; LangGraph drops any other update.
        NodeOutput::Command(cmd) => (
            cmd.update.and_then(update_as_tuples).unwrap_or_default(),
            cmd.goto,
        ),
    };
    // A node writes any state channel, private ones too; `__start__` (the
    // run input) only the input schema's (LangGraph's input channels).
    let is_start = node.action.is_none();
    let mut writes: Vec<(String, Value)> = update
        .into_iter()
        .filter(|(k, _)| match is_start {
            true => graph.input_keys.iter().any(|s| **s == **k),
            false => graph.is_state_key(k),
        })
        .collect();
    // What a goto or a router writes to the `branch:to:` channel it picks:
    // `None` (LangGraph), the node's name (LangGraph.js's branch writer).
    // Made only for a node that routes (no allocation on the usual path).
    let routes = !goto.is_empty() || !node.branches.is_empty();
    let route = match graph.semantics.routes_write_source && routes {
        true => Value::String(String::from(&*node.name)),
        false => Value::Null,
    };
    // `Command.goto`: names not in the graph are written to channels that do
    // not exist, so `apply_writes` drops them, as LangGraph does.
    for dest in goto {
        push_destination(&mut writes, dest, &route);
    }
    writes.extend(node.edges.iter().cloned());
    if node.branches.is_empty() {
        return Ok(writes);
    }
    let local = node.router_read(&local_read(graph, state, &writes)?);
    for branch in &node.branches {
        let destinations = branch.route(local.clone(), task).await?;
        for dest in &destinations {
            match dest {
                Goto::Node(n) if n == START => {
                    return Err(Error::value("Branch did not return a valid destination"))
                }
                Goto::Send(s) => check_send(s)?,
                _ => {}
            }
        }
        for dest in destinations {
            push_destination(&mut writes, dest, &route);
        }
    }
    Ok(writes)
}

/// The writes of a [`Pregel`](crate::Pregel) node that returned `output`:
/// those it made while it ran (`sent`, LangGraph's `CONFIG_KEY_SEND`),
/// then each writer's on the result, in order.
pub(crate) async fn pregel_writes(
    io: &NodeIo,
    output: Value,
    sent: Vec<(String, Value)>,
) -> Result<Vec<(String, Value)>> {
    let mut writes = sent;
    for writer in &io.writers {
        writes.extend(writer.writes(&output).await?);
    }
    Ok(writes)
}

/// The write that schedules `dest`: `route` to its `branch:to:` channel,
/// or the `Send` in `__pregel_tasks`; `__end__` writes nothing.
fn push_destination(writes: &mut Vec<(String, Value)>, dest: Goto, route: &Value) {
    match dest {
        Goto::Node(n) if n == END => {}
        Goto::Node(n) => writes.push((format!("branch:to:{n}"), route.clone())),
        Goto::Send(send) => writes.push(send_write(&send)),
    }
}

/// The state as this task alone would leave it: its own state writes applied
/// through the reducers (what LangGraph's routers read with `fresh=True`).
fn local_read(graph: &GraphInner, state: &State, writes: &[(String, Value)]) -> Result<State> {
    let mut local = state.clone();
    for (channel, value) in writes {
        let Some((name, kind @ ChannelKind::State(_))) =
            graph.channels.get_key_value(channel.as_str())
        else {
            continue;
        };
        let mut slot = local.get(channel).cloned();
        let undefined = graph.semantics.js_undefined.as_ref();
        kind.update(
            channel,
            &mut slot,
            vec![value.clone()],
            &graph.ids,
            undefined,
        )?;
        match slot {
            Some(v) if graph.is_empty(name, &v) => local.unset(channel),
            Some(v) => local.set(name.clone(), v),
            None => {}
        }
    }
    Ok(local)
}
