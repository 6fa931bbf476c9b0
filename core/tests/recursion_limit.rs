//! Spec §4.9 and §15.17: the recursion limit counts the `__start__`
//! superstep and the final "no tasks" tick; a resume gets a fresh budget.

mod common;

use chronograph::{
    CompiledGraph, InMemorySaver, NodeContext, Reducer, RunnableConfig, State, StateGraph,
    DEFAULT_RECURSION_LIMIT, END, START,
};
use common::*;
use serde_json::{json, Value};
use std::rc::Rc;

const RECURSION_ERROR: &str = "GraphRecursionError: Recursion limit of 2 reached without hitting a stop condition. You can increase the limit by setting the `recursion_limit` config key.\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/GRAPH_RECURSION_LIMIT";

fn a_then_b(saver: &Rc<InMemorySaver>) -> (CompiledGraph, Calls) {
    let calls = Calls::default();
    let mut g = StateGraph::new();
    g.add_channel("items", Reducer::Append)
        .add_node("a", appender(&calls, "a"))
        .add_node("b", appender(&calls, "b"))
        .add_edge(START, "a")
        .add_edge("a", "b")
        .add_edge("b", END);
    (g.compile(opts(saver)).unwrap(), calls)
}

/// `START -> a -> a -> ...` forever.
fn self_loop(saver: &Rc<InMemorySaver>) -> (CompiledGraph, Calls) {
    let calls = Calls::default();
    let mut g = StateGraph::new();
    g.add_channel("items", Reducer::Append)
        .add_node("a", appender(&calls, "a"))
        .add_edge(START, "a")
        .add_edge("a", "a");
    (g.compile(opts(saver)).unwrap(), calls)
}

fn limited(id: &str, limit: i64) -> RunnableConfig {
    thread(id).with_recursion_limit(limit)
}

#[test]
fn recursion_limit_counts_the_start_and_final_ticks() {
    let saver = saver();
    let (app, _) = a_then_b(&saver);
    // START -> a -> b -> END is three supersteps (__start__, a, b) and the
    // tick that finds nothing left to do must fit as well.
    app.invoke(json!({"items": []}), &limited("ok", 3)).unwrap();
    let err = app
        .invoke(json!({"items": []}), &limited("short", 2))
        .unwrap_err();
    assert_eq!(err.to_string(), RECURSION_ERROR);
    assert_eq!(err.kind(), chronograph::ErrorKind::GraphRecursion);
    // All three supersteps ran and were saved; only the final tick that
    // would have found nothing left to do was over budget.
    assert_eq!(
        steps(&app, &thread("short")),
        [
            row(2, "loop", &[]),
            row(1, "loop", &["b"]),
            row(0, "loop", &["a"]),
            row(-1, "input", &["__start__"])
        ]
    );
}

#[test]
fn a_self_loop_runs_its_node_once_per_unit_of_limit() {
    for limit in 1..=3 {
        let saver = saver();
        let (app, calls) = self_loop(&saver);
        let id = format!("t{limit}");
        let err = app
            .invoke(json!({"items": []}), &limited(&id, limit))
            .unwrap_err();
        assert_eq!(err.kind(), chronograph::ErrorKind::GraphRecursion);
        assert_eq!(calls.take().len(), limit as usize, "limit {limit}");
        let head = app.get_state(&thread(&id)).unwrap();
        assert_eq!(step_of(&head), limit);
        assert_eq!(head.next, ["a"]);
        assert_eq!(items(&head.values).len(), limit as usize);
    }
}

#[test]
fn a_resume_gets_a_fresh_budget_that_starts_at_the_loaded_step() {
    let saver = saver();
    let (app, calls) = self_loop(&saver);
    let cfg = limited("t", 3);
    app.invoke(json!({"items": []}), &cfg).unwrap_err();
    assert_eq!(calls.take().len(), 3);
    // No input checkpoint on a resume, so ticks loaded.step+1 ..= stop all run `a`.
    app.invoke(Value::Null, &cfg).unwrap_err();
    assert_eq!(calls.take().len(), 5);
    assert_eq!(step_of(&app.get_state(&thread("t")).unwrap()), 8);
}

#[test]
fn the_default_recursion_limit_is_10007() {
    assert_eq!(DEFAULT_RECURSION_LIMIT, 10_007);
    // Far more than LangGraph's old default of 25 supersteps runs without a limit set.
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("n", Reducer::Sum)
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!({"n": 1})))
        .add_edge(START, "a")
        .add_conditional_edges(
            "a",
            |s: &State| {
                let n = s.get_json("n").and_then(|v| v.as_i64()).unwrap_or(0);
                Ok(vec![if n < 200 { "a" } else { END }.to_owned()])
            },
            None,
        );
    let app = g.compile(opts(&saver)).unwrap();
    let out = app.invoke(json!({"n": 0}), &thread("t")).unwrap();
    assert_eq!(out.values.to_json(), json!({"n": 200}));
}

#[test]
fn a_recursion_limit_below_one_is_rejected_before_anything_is_stored() {
    let saver = saver();
    let (app, calls) = a_then_b(&saver);
    app.invoke(json!({"items": []}), &thread("t")).unwrap();
    calls.take();
    for limit in [0, -1] {
        fails_cleanly(
            &saver,
            "t",
            "ValueError: recursion_limit must be at least 1",
            || app.invoke(json!({"items": ["x"]}), &limited("t", limit)),
        );
        fails_cleanly(
            &saver,
            "fresh",
            "ValueError: recursion_limit must be at least 1",
            || app.invoke(json!({"items": ["x"]}), &limited("fresh", limit)),
        );
    }
    assert!(calls.take().is_empty());
    assert!(saver.export_thread("fresh").is_none());
}
