//! Tasks called by a running task (LangGraph's functional API, `Call`
//! PUSH tasks: `NodeContext::call`): they run in the caller's superstep,
//! concurrently when called together; their return values are stored as
//! `__return__` pending writes, so a resumed run hands them back without
//! calling the function again; only a loop that commits tasks as they
//! settle (LangGraph.js's runner) takes calls.

mod common;

use chronograph::{
    Command, CompileOptions, CompiledGraph, NodeAction, NodeContext, NodeFuture, NodeOutput,
    Reducer, RunInput, State, StateGraph, StreamEvent, END, START,
};
use common::*;
use serde_json::{json, Value};
use std::cell::Cell;
use std::rc::Rc;

/// A task that doubles its input and counts its calls.
fn double(count: Rc<Cell<usize>>) -> NodeAction {
    NodeAction::Async(Rc::new(move |state: State, _ctx: NodeContext| {
        count.set(count.get() + 1);
        let n = state.arg().and_then(Value::as_i64).unwrap_or(0);
        let fut: NodeFuture<NodeOutput> =
            Box::pin(async move { Ok(NodeOutput::Update(json!(n * 2))) });
        fut
    }))
}

/// `START -> wf -> END`: `wf` calls `double` on 1 and 2 together, then
/// asks a question, and writes `[a, b, answer]` to `out`.
fn workflow(settled: bool, count: Rc<Cell<usize>>) -> CompiledGraph {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("out", Reducer::LastValue);
    g.add_async_node("wf", move |_state: State, ctx: NodeContext| {
        let count = count.clone();
        Box::pin(async move {
            let a = ctx.call("double", double(count.clone()), json!(1));
            let b = ctx.call("double", double(count), json!(2));
            let both = futures::future::join(a, b).await;
            let (a, b): (Value, Value) = (both.0?, both.1?);
            let answer = ctx.interrupt(json!("ok?"))?;
            Ok(json!({ "out": [a, b, answer] }))
        })
    });
    g.add_edge(START, "wf").add_edge("wf", END);
    g.compile(CompileOptions {
        commit_as_settled: settled,
        ..opts(&saver)
    })
    .unwrap()
}

#[test]
fn a_called_task_returns_its_value_and_is_not_called_again_on_resume() {
    let count = Rc::new(Cell::new(0));
    let app = workflow(true, count.clone());
    let paused = app.invoke(json!({}), &thread("t")).unwrap();
    assert!(paused.paused);
    assert_eq!(count.get(), 2);
    let done = app
        .invoke(
            RunInput::Command(Command::resume(json!("yes"))),
            &thread("t"),
        )
        .unwrap();
    assert_eq!(done.values.to_json(), json!({ "out": [2, 4, "yes"] }));
    // The two calls' results came from the checkpoint's pending writes.
    assert_eq!(count.get(), 2);
}

#[test]
fn a_called_task_reports_its_return_value_as_its_update() {
    let count = Rc::new(Cell::new(0));
    let app = workflow(true, count);
    let (events, _) = app.stream(json!({}), &thread("t")).unwrap();
    let updates: Vec<(String, Value)> = events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Updates { node, update } if node != START => {
                Some((node.clone(), update.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        updates,
        vec![
            ("double".to_owned(), json!(2)),
            ("double".to_owned(), json!(4))
        ]
    );
}

#[test]
fn a_loop_that_commits_in_task_order_takes_no_calls() {
    let count = Rc::new(Cell::new(0));
    let app = workflow(false, count.clone());
    let e = app.invoke(json!({}), &thread("t")).unwrap_err();
    assert_eq!(e.code(), "UNSUPPORTED");
    assert_eq!(count.get(), 0);
}
