//! Tasks called by a running task (LangGraph's functional API, `Call`
//! PUSH tasks: `NodeContext::call`): they run in the caller's superstep,
//! concurrently when called together; their return values are stored as
//! `__return__` pending writes, so a resumed run hands them back without
//! calling the function again; only a loop that commits tasks as they
//! settle (LangGraph.js's runner) takes calls.

mod common;

use chronograph::{
    Command, CompileOptions, CompiledGraph, NodeAction, NodeContext, NodeFuture, NodeOutput,
    Reducer, RunInput, Semantics, State, StateGraph, StreamEvent, END, START,
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
        semantics: Semantics {
            commit_as_settled: settled,
            ..Semantics::langgraph()
        },
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

/// A task that fails while `fail` is set (else returns its input), counting its calls.
fn flaky(fail: Rc<Cell<bool>>, count: Rc<Cell<usize>>) -> NodeAction {
    NodeAction::Async(Rc::new(move |state: State, _ctx: NodeContext| {
        count.set(count.get() + 1);
        let (fail, arg) = (fail.get(), state.arg().cloned().unwrap_or(Value::Null));
        let fut: NodeFuture<NodeOutput> = Box::pin(async move {
            match fail {
                true => Err(chronograph::Error::node_failure("Error", "flaky failed")),
                false => Ok(NodeOutput::Update(arg)),
            }
        });
        fut
    }))
}

/// A task that asks `question` and returns the answer.
fn ask() -> NodeAction {
    NodeAction::Async(Rc::new(move |state: State, ctx: NodeContext| {
        let question = state.arg().cloned().unwrap_or(Value::Null);
        let fut: NodeFuture<NodeOutput> =
            Box::pin(async move { ctx.interrupt(question).map(NodeOutput::Update) });
        fut
    }))
}

/// `START -> wf -> END` whose node runs `body` on its context.
fn one_node(
    body: impl Fn(NodeContext) -> NodeFuture<Value> + 'static,
) -> (Rc<chronograph::InMemorySaver>, CompiledGraph) {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("out", Reducer::LastValue);
    g.add_async_node("wf", move |_state: State, ctx: NodeContext| body(ctx));
    g.add_edge(START, "wf").add_edge("wf", END);
    let app = g
        .compile(CompileOptions {
            semantics: Semantics {
                commit_as_settled: true,
                ..Semantics::langgraph()
            },
            ..opts(&saver)
        })
        .unwrap();
    (saver, app)
}

#[test]
fn a_failed_call_fails_the_run_and_runs_again_on_the_next_one_while_a_finished_call_does_not() {
    let (fail, doubled, tried) = (
        Rc::new(Cell::new(true)),
        Rc::new(Cell::new(0)),
        Rc::new(Cell::new(0)),
    );
    let (f, d, t) = (fail.clone(), doubled.clone(), tried.clone());
    let (_, app) = one_node(move |ctx| {
        let (first, second) = (double(d.clone()), flaky(f.clone(), t.clone()));
        Box::pin(async move {
            let a = ctx.call("double", first, json!(1)).await?;
            let b = ctx.call("flaky", second, a.clone()).await?;
            Ok(json!({ "out": [a, b] }))
        })
    });
    let e = app.invoke(json!({}), &thread("t")).unwrap_err();
    assert_eq!(e.message(), "flaky failed");
    fail.set(false);
    let out = app.invoke(Value::Null, &thread("t")).unwrap();
    assert_eq!(out.values.to_json(), json!({ "out": [2, 2] }));
    assert_eq!((doubled.get(), tried.get()), (1, 2));
}

#[test]
fn an_interrupt_in_a_called_task_pauses_its_caller_and_the_call_gets_the_answer_on_resume() {
    let (_saver, app) = one_node(|ctx| {
        Box::pin(async move {
            let answer = ctx.call("ask", ask(), json!("ok?")).await?;
            Ok(json!({ "out": answer }))
        })
    });
    let paused = app.invoke(json!({}), &thread("t")).unwrap();
    assert!(paused.paused);
    let values: Vec<Value> = paused.interrupts.iter().map(|i| i.value.clone()).collect();
    assert_eq!(values, [json!("ok?")]);
    // The caller stored the call's interrupt as its own.
    let snapshot = app.get_state(&thread("t")).unwrap();
    assert_eq!(snapshot.tasks.len(), 1);
    assert_eq!(snapshot.tasks[0].interrupts.len(), 1);
    let out = app
        .invoke(
            RunInput::Command(Command::resume(json!("yes"))),
            &thread("t"),
        )
        .unwrap();
    assert_eq!(out.values.to_json(), json!({ "out": "yes" }));
}

#[test]
fn a_replay_calls_the_tasks_again() {
    let count = Rc::new(Cell::new(0));
    let c = count.clone();
    let (_saver, app) = one_node(move |ctx| {
        let action = double(c.clone());
        Box::pin(async move {
            let a = ctx.call("double", action, json!(3)).await?;
            Ok(json!({ "out": a }))
        })
    });
    app.invoke(json!({}), &thread("t")).unwrap();
    let input = history(&app, &thread("t"))
        .into_iter()
        .find(|s| step_of(s) == -1)
        .unwrap();
    let out = app.invoke(Value::Null, &at("t", &id_of(&input))).unwrap();
    assert_eq!(out.values.to_json(), json!({ "out": 6 }));
    assert_eq!(count.get(), 2);
}
