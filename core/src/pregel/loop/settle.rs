//! The order in which LangGraph.js's runner commits the tasks of a
//! superstep that settle together (`Semantics::commit_as_settled`).
//!
//! LangGraph.js commits each task when its promise settles
//! (`PregelRunner.tick` races them), and a task's promise is its node's
//! `RunnableSequence`: the node function, then its writers, one `await`
//! each (`PregelNode.getNode`). So among nodes that return at once, the one
//! with fewer writers settles first, whatever the task order: a node with
//! an edge to another node settles after a sibling whose only edge goes
//! to `END` (LangGraph.js's `attachEdge` adds no writer for `END`), which
//! is why a `Command({ resume, goto })`'s goto target commits before the
//! resumed node. The engine polls its tasks' futures and commits those
//! ready in the same poll in the order of [`settle_ticks`]: the microtask
//! turns each one takes in LangGraph.js (measured on 1.7.3 with a
//! `queueMicrotask` counter, relative to a node that returns an update and
//! has no edge), then task order (LangGraph.js's race picks the first
//! settled promise in task order on a tie). A node whose promise settles
//! later (an `async` node that awaits) is ready in a later poll and
//! commits after them, as in LangGraph.js unless its awaits are fewer than
//! a sibling's writers.

use crate::error::{ErrorKind, Result};
use crate::graph::{CompiledNode, Returned};
use serde_json::Value;

/// The writer LangGraph.js gives a node's edges: every plain edge and
/// join into a node is one `ChannelWrite` (`getWriters` merges them).
const EDGES: i32 = 11;
/// Each conditional edge: its `Branch` runs the router and writes.
const BRANCH: i32 = 26;
/// A node returning `null`/`undefined`: the state writer has nothing to map.
const NOTHING: i32 = -1;
/// A `Command` with a `goto`: the control branch writes its destinations.
const GOTO: i32 = 1;
/// A node that throws: its writers never run.
const FAILED: i32 = -16;
/// A node that calls `interrupt()`: it throws before its writers run, and
/// LangGraph.js's runner settles a `GraphInterrupt` sooner still.
const PAUSED: i32 = -23;
/// A subgraph node runs a whole nested loop (dozens of turns per step)
/// before its writers: it settles after every node function.
const SUBGRAPH: i32 = 1000;

/// The microtask turns the task of `node` takes to settle in LangGraph.js,
/// given its `result` and what its node `returned` (see the module docs).
pub(crate) fn settle_ticks(
    node: &CompiledNode,
    result: &Result<Vec<(String, Value)>>,
    returned: Returned,
) -> i32 {
    let base = match node.action.as_ref().and_then(|a| a.subgraph()) {
        Some(_) => SUBGRAPH,
        None => 0,
    };
    match result {
        Err(e) if e.kind() == ErrorKind::GraphInterrupt => base + PAUSED,
        Err(_) => base + FAILED,
        Ok(_) => {
            let edges = if node.edges.is_empty() { 0 } else { EDGES };
            let branches = BRANCH * node.branches.len() as i32;
            let output = match returned {
                Returned::Update => 0,
                Returned::Nothing => NOTHING,
                Returned::Goto => GOTO,
            };
            base + edges + branches + output
        }
    }
}
