//! A node's writers (LangGraph `ChannelWrite` + branch writers): turn a
//! node's returned update into channel writes, fire its static edges, and
//! run its conditional-edge routers on the state with the update applied.

use crate::channels::{py_repr, ChannelKind};
use crate::error::{troubleshooting, Error, Result};
use crate::graph::{CompiledNode, GraphInner, State};
use crate::types::{END, START};
use serde_json::Value;

/// The writes node `node` makes when it returns `update`, given the state
/// it ran on. `update_state` uses the same function with the user's values.
pub(crate) async fn node_writes(
    graph: &GraphInner,
    node: &CompiledNode,
    update: Value,
    state: &State,
) -> Result<Vec<(String, Value)>> {
    // The update is the node's own: its keys and values move into the writes.
    let mut writes: Vec<(String, Value)> = match update {
        Value::Null => Vec::new(),
        Value::Object(map) => map
            .into_iter()
            .filter(|(k, _)| graph.is_state_key(k))
            .collect(),
        other => {
            return Err(Error::invalid_update(format!(
                "Expected dict, got {}{}",
                py_repr(&other),
                troubleshooting("INVALID_GRAPH_NODE_RETURN_VALUE")
            )))
        }
    };
    writes.extend(node.edges.iter().cloned());
    if node.branches.is_empty() {
        return Ok(writes);
    }
    let local = local_read(graph, state, &writes)?;
    for branch in &node.branches {
        for dest in branch.route(local.clone()).await? {
            if dest == END {
                continue;
            }
            if dest == START {
                return Err(Error::value("Branch did not return a valid destination"));
            }
            writes.push((format!("branch:to:{dest}"), Value::Null));
        }
    }
    Ok(writes)
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
        kind.update(channel, &mut slot, vec![value.clone()], &graph.ids)?;
        if let Some(v) = slot {
            local.set(name.clone(), v);
        }
    }
    Ok(local)
}
