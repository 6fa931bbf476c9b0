//! Spec §8 and §15.14: a failed superstep saves no checkpoint; the
//! successful tasks' writes wait on the previous checkpoint and are reused
//! on resume, so only the failed node runs again.

mod common;

use chronograph::{
    ErrorKind, NodeContext, NodeFuture, Reducer, RunInput, State, StateGraph, END, START,
};
use common::*;
use serde_json::{json, Value};
use std::cell::Cell;
use std::rc::Rc;

fn failing_fanout() -> (
    Rc<chronograph::InMemorySaver>,
    chronograph::CompiledGraph,
    Calls,
    Rc<Cell<bool>>,
) {
    let saver = saver();
    let fail = Rc::new(Cell::new(true));
    let (app, calls) = fanout(&saver, fail.clone());
    (saver, app, calls, fail)
}

#[test]
fn failed_superstep_saves_no_checkpoint_and_resume_reruns_only_the_failed_node() {
    let (saver, app, calls, fail) = failing_fanout();
    let cfg = thread("t");
    let before_b_c = checkpoints_only(&*saver, "t");
    assert!(before_b_c.is_empty());
    let err = app.invoke(json!({"items": []}), &cfg).unwrap_err();
    assert_eq!(err.to_string(), "ValueError: boom in c");
    assert_eq!(err.node(), Some("c"));
    let mut ran = calls.take();
    ran[1..].sort();
    assert_eq!(ran, ["a", "b", "c"]);

    // The latest checkpoint is the one the failed step ran from.
    assert_eq!(
        steps(&app, &cfg),
        [
            row(1, "loop", &["b", "c"]),
            row(0, "loop", &["a"]),
            row(-1, "input", &["__start__"]),
        ]
    );
    let head = latest(&*saver, "t");
    let rows: Vec<(String, Value)> = head
        .pending_writes
        .iter()
        .map(|w| (w.channel.clone(), w.value.clone()))
        .collect();
    assert_eq!(
        rows,
        [
            ("items".to_owned(), json!(["b"])),
            ("join:b+c:d".to_owned(), json!("b")),
            ("__error__".to_owned(), json!("ValueError('boom in c')")),
        ]
    );
    let snapshot = app.get_state(&cfg).unwrap();
    let b = &snapshot.tasks[0];
    let c = &snapshot.tasks[1];
    assert_eq!(head.pending_writes[0].task_id, b.id);
    assert_eq!(head.pending_writes[2].task_id, c.id);

    // Resume: b's stored writes are reused, only c runs; then d.
    fail.set(false);
    let out = app.invoke(Value::Null, &cfg).unwrap();
    assert_eq!(calls.take(), ["c", "d"]);
    assert_eq!(
        strings(&out.values.to_json()["items"]),
        ["a", "b", "c", "d"]
    );
    assert_eq!(
        steps(&app, &cfg)[..3],
        [
            row(3, "loop", &[]),
            row(2, "loop", &["d"]),
            row(1, "loop", &["b", "c"])
        ]
    );
}

#[test]
fn a_failed_task_keeps_its_error_row_after_it_succeeds() {
    let (_saver, app, _calls, fail) = failing_fanout();
    let cfg = thread("t");
    app.invoke(json!({"items": []}), &cfg).unwrap_err();
    fail.set(false);
    app.invoke(Value::Null, &cfg).unwrap();
    let step1 = history(&app, &cfg)
        .into_iter()
        .find(|s| step_of(s) == 1)
        .unwrap();
    let c = step1.tasks.iter().find(|t| t.name == "c").unwrap();
    assert_eq!(c.error.as_deref(), Some("ValueError('boom in c')"));
    assert_eq!(c.result, Some(json!({"items": ["c"]})));
    let b = step1.tasks.iter().find(|t| t.name == "b").unwrap();
    assert_eq!(b.error, None);
    assert_eq!(
        b.result,
        Some(json!({"items": ["b"]})),
        "the join write is left out"
    );
}

#[test]
fn a_failure_with_no_other_task_leaves_the_previous_checkpoint_as_latest() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("x", Reducer::LastValue)
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!({"x": 1})))
        .add_node("boom", |_: &State, _: &NodeContext| {
            Err(chronograph::Error::node_failure(
                "RuntimeError",
                "it's broken",
            ))
        })
        .add_edge(START, "a")
        .add_edge("a", "boom")
        .add_edge("boom", END);
    let app = g.compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    let err = app.invoke(json!({"x": 0}), &cfg).unwrap_err();
    assert_eq!(err.to_string(), "RuntimeError: it's broken");
    assert_eq!(err.kind(), ErrorKind::Node);
    let head = app.get_state(&cfg).unwrap();
    assert_eq!(
        (step_of(&head), head.next.clone()),
        (1, vec!["boom".to_owned()])
    );
    assert_eq!(
        head.tasks[0].error.as_deref(),
        Some("RuntimeError('it\\'s broken')"),
        "the error reads back as Python's repr string"
    );
    // Resuming fails the same way and still writes no checkpoint.
    let before = checkpoints_only(&*saver, "t");
    app.invoke(Value::Null, &cfg).unwrap_err();
    assert_eq!(checkpoints_only(&*saver, "t"), before);
}

#[test]
fn a_task_that_wrote_only_control_values_still_counts_as_finished() {
    // b returns nothing and has no edges: it stores `__no_writes__` and is
    // not run again on resume.
    let saver = saver();
    let fail = Rc::new(Cell::new(true));
    let calls = Calls::default();
    let mut g = StateGraph::new();
    let (cb, cc, f) = (calls.clone(), calls.clone(), fail.clone());
    g.add_channel("items", Reducer::Append)
        .add_node("b", move |_: &State, _: &NodeContext| {
            cb.push("b");
            Ok(json!({}))
        })
        .add_node("c", move |_: &State, _: &NodeContext| {
            cc.push("c");
            if f.get() {
                return Err(chronograph::Error::node_failure("ValueError", "no"));
            }
            Ok(json!({"items": ["c"]}))
        })
        .add_edge(START, "b")
        .add_edge(START, "c");
    let app = g.compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    app.invoke(json!({"items": []}), &cfg).unwrap_err();
    calls.take();
    let head = latest(&*saver, "t");
    assert!(head
        .pending_writes
        .iter()
        .any(|w| w.channel == "__no_writes__"));
    let live = app.get_state(&cfg).unwrap();
    assert_eq!(live.next, ["c"]);
    assert_eq!(
        live.tasks[0].result,
        Some(json!({})),
        "finished, no state writes"
    );
    fail.set(false);
    app.invoke(Value::Null, &cfg).unwrap();
    assert_eq!(calls.take(), ["c"]);
}

#[test]
fn an_async_node_failure_is_stored_like_a_sync_one() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("x", Reducer::LastValue)
        .add_node("ok", |_: &State, _: &NodeContext| Ok(json!({"x": 1})))
        .add_async_node("bad", |_: State, _: NodeContext| -> NodeFuture {
            Box::pin(async { Err(chronograph::Error::node_failure("TimeoutError", "slow")) })
        })
        .add_edge(START, "ok")
        .add_edge(START, "bad");
    let app = g.compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    let err = app.invoke(json!({"x": 0}), &cfg).unwrap_err();
    assert_eq!(err.to_string(), "TimeoutError: slow");
    let snap = app.get_state(&cfg).unwrap();
    assert_eq!(snap.next, ["bad"]);
    assert_eq!(
        snap.values.to_json(),
        json!({"x": 1}),
        "live: ok's output applied"
    );
    let bad = snap.tasks.iter().find(|t| t.name == "bad").unwrap();
    assert_eq!(bad.error.as_deref(), Some("TimeoutError('slow')"));
}

#[test]
fn a_concurrent_last_value_update_fails_on_every_resume_until_the_state_is_updated() {
    let saver = saver();
    let calls = Calls::default();
    let mut g = StateGraph::new();
    let (c1, c2) = (calls.clone(), calls.clone());
    g.add_channel("last", Reducer::LastValue)
        .add_node("p", move |_: &State, _: &NodeContext| {
            c1.push("p");
            Ok(json!({"last": "p"}))
        })
        .add_node("q", move |_: &State, _: &NodeContext| {
            c2.push("q");
            Ok(json!({"last": "q"}))
        })
        .add_edge(START, "p")
        .add_edge(START, "q");
    let app = g.compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    let text = "InvalidUpdateError: At key 'last': Can receive only one value per step. Use an Annotated key to handle multiple values.\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CONCURRENT_GRAPH_UPDATE";
    let err = app.invoke(json!({"last": "in"}), &cfg).unwrap_err();
    assert_eq!(err.to_string(), text);
    assert_eq!(calls.take(), ["p", "q"]);
    let head = latest(&*saver, "t");
    assert_eq!(head.metadata.step, 0, "no checkpoint for the failed step");
    assert_eq!(head.pending_writes.len(), 2, "both outputs are stored");

    // Each resume re-applies the stored writes without running the nodes.
    let err = fails_cleanly(&saver, "t", text.lines().next().unwrap(), || {
        app.invoke(Value::Null, &cfg)
    });
    assert_eq!(err.to_string(), text);
    assert!(calls.take().is_empty());

    // An update is the way out: it writes a new checkpoint with no pending writes.
    app.update_state(&cfg, Some(json!({"last": "chosen"})), Some("p"))
        .unwrap();
    let out = app.invoke(Value::Null, &cfg).unwrap();
    assert_eq!(out.values.to_json(), json!({"last": "chosen"}));
    assert!(calls.take().is_empty());
}

#[test]
fn wrong_value_type_for_a_reducer_leaves_checkpoints_untouched() {
    // A node appends a string to a list channel: the step fails while its
    // writes are applied, and no checkpoint is written for it.
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append)
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!({"log": "oops"})))
        .add_edge(START, "a");
    let app = g.compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    app.invoke(json!({"log": ["ok"]}), &cfg).unwrap_err();
    let before = checkpoints_only(&*saver, "t");
    let err = app.invoke(Value::Null, &cfg).unwrap_err();
    assert_eq!(
        err.to_string(),
        "TypeError: can only concatenate list (not \"str\") to list"
    );
    assert_eq!(checkpoints_only(&*saver, "t"), before);
    // A record snapshot shows step 0 with `a` pending; a live one applies
    // a's stored output and so raises the same error, as LangGraph's does.
    let head = at("t", &latest(&*saver, "t").checkpoint.id);
    let record = app.get_state(&head).unwrap();
    assert_eq!(
        (step_of(&record), record.next.clone()),
        (0, vec!["a".to_owned()])
    );
    assert_eq!(
        app.get_state(&cfg).unwrap_err().to_string(),
        err.to_string()
    );

    // The same bad value through update_state stores nothing at all.
    fails_cleanly(
        &saver,
        "t",
        "TypeError: can only concatenate list (not \"str\") to list",
        || app.update_state(&cfg, Some(json!({"log": "oops"})), Some("a")),
    );
    // And as run input: the input checkpoint is written (the raw input is
    // only reduced when `__start__` runs), then `__start__`'s step fails.
    let err = app
        .invoke(RunInput::Values(json!({"log": 5})), &thread("u"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "TypeError: can only concatenate list (not \"int\") to list"
    );
    assert_eq!(
        steps(&app, &thread("u")),
        [row(-1, "input", &["__start__"])]
    );
}

#[test]
fn nodes_that_finished_before_a_failure_are_not_called_again_even_after_many_resumes() {
    let (_saver, app, calls, _fail) = failing_fanout();
    let cfg = thread("t");
    app.invoke(json!({"items": []}), &cfg).unwrap_err();
    calls.take();
    for _ in 0..3 {
        app.invoke(Value::Null, &cfg).unwrap_err();
        assert_eq!(calls.take(), ["c"]);
    }
}

/// `START -> (ok, cut)`: `cut` fails with `ErrorKind::Cancelled` (its run was
/// cancelled while it ran).
#[test]
fn a_cancelled_task_saves_nothing_and_ends_the_run_with_its_error() {
    let saver = saver();
    let calls = Calls::default();
    let mut g = StateGraph::new();
    g.add_channel("items", Reducer::Append)
        .add_node("ok", appender(&calls, "ok"))
        .add_node("cut", |_: &State, _: &NodeContext| {
            Err::<Value, _>(chronograph::Error::new(
                ErrorKind::Cancelled,
                "the run was cancelled",
            ))
        })
        .add_edge(START, "ok")
        .add_edge(START, "cut");
    let app = g.compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    let err = app.invoke(json!({"items": []}), &cfg).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Cancelled);
    assert_eq!(err.code(), "RUN_CANCELLED");
    // The task that finished keeps its writes; the cancelled one has none (no `__error__`).
    let writes = latest(&*saver, "t").pending_writes;
    assert_eq!(
        writes
            .iter()
            .map(|w| w.channel.as_str())
            .collect::<Vec<_>>(),
        ["items"]
    );
    let state = app.get_state(&cfg).unwrap();
    assert_eq!(
        state.next,
        ["cut"],
        "ok's writes are applied: only the cancelled task is left"
    );
    assert!(state.tasks.iter().all(|t| t.error.is_none()));
}
