//! `add_node(defer=True)` (LangGraph's deferred nodes): a deferred node
//! runs once the run would otherwise end. Its trigger and the joins into
//! it are `*AfterFinish` channels, stored as LangGraph stores them. The
//! traces of `tests/conformance/extensions/scenarios/defer_*.json` check
//! the same rules against LangGraph itself; these pin the Rust API, the
//! stored channel values and the JSON format.

mod common;

use chronograph::{
    Branch, CheckpointConfig, CheckpointSaver, Goto, GraphSpec, NodeContext, Reducer, RouterFn,
    Send, State, StateGraph, END, START,
};
use common::*;
use serde_json::{json, Value};
use std::rc::Rc;

/// `a` fans out to `b` and `c`; `b -> b_2`; `b_2` and `c` lead to `d`.
fn fan_out(defer: bool, calls: &Calls) -> StateGraph {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    for name in ["a", "b", "b_2", "c", "d"] {
        let calls = calls.clone();
        g.add_node(name, move |_: &State, _: &NodeContext| {
            calls.push(name);
            Ok(json!({ "log": [name] }))
        });
    }
    g.add_edge(START, "a")
        .add_edge("a", "b")
        .add_edge("a", "c")
        .add_edge("b", "b_2")
        .add_edge("b_2", "d")
        .add_edge("c", "d")
        .add_edge("d", END);
    g.set_node_defer("d", defer);
    g
}

#[test]
fn a_deferred_node_runs_once_after_the_longest_branch() {
    let saver = saver();
    let calls = Calls::default();
    let app = fan_out(true, &calls).compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    let out = app.invoke(json!({"log": []}), &cfg).unwrap().to_json();
    assert_eq!(out["log"], json!(["a", "b", "c", "b_2", "d"]));
    assert_eq!(calls.take(), ["a", "b", "c", "b_2", "d"]);
    assert_eq!(
        steps(&app, &cfg),
        [
            row(4, "loop", &[]),
            row(3, "loop", &["d"]),
            row(2, "loop", &["b_2"]),
            row(1, "loop", &["b", "c"]),
            row(0, "loop", &["a"]),
            row(-1, "input", &["__start__"]),
        ]
    );
}

#[test]
fn without_defer_the_same_node_runs_after_each_branch() {
    let saver = saver();
    let calls = Calls::default();
    let app = fan_out(false, &calls).compile(opts(&saver)).unwrap();
    app.invoke(json!({"log": []}), &thread("t")).unwrap();
    assert_eq!(calls.take(), ["a", "b", "c", "b_2", "d", "d"]);
}

/// The stored value of channel `channel` on the checkpoint at `step`.
fn stored_value(saver: &dyn CheckpointSaver, thread_id: &str, step: i64, channel: &str) -> Value {
    let tuple = stored(saver, thread_id)
        .into_iter()
        .find(|t| t.metadata.step == step)
        .expect("a checkpoint at that step");
    let full = saver
        .get_tuple(&CheckpointConfig {
            thread_id: thread_id.into(),
            checkpoint_ns: String::new(),
            checkpoint_id: Some(tuple.checkpoint.id),
        })
        .unwrap()
        .unwrap();
    full.checkpoint
        .channel_values
        .get(channel)
        .map_or(Value::Null, |v| v.to_json())
}

#[test]
fn the_deferred_trigger_is_stored_as_value_and_finished_flag_then_cleared() {
    let saver = saver();
    let app = fan_out(true, &Calls::default())
        .compile(opts(&saver))
        .unwrap();
    app.invoke(json!({"log": []}), &thread("t")).unwrap();
    // Written by c at step 1 (pending while b_2 runs), written again by
    // b_2 at step 2 and finished at once (nothing else is triggered),
    // consumed by d at step 3.
    let trigger = "branch:to:d";
    assert_eq!(stored_value(&*saver, "t", 1, trigger), Value::Null);
    assert_eq!(stored_value(&*saver, "t", 2, trigger), json!([null, false]));
    assert_eq!(stored_value(&*saver, "t", 3, trigger), json!([null, true]));
    assert_eq!(stored_value(&*saver, "t", 4, trigger), Value::Null);
}

#[test]
fn a_join_into_a_deferred_node_stores_its_names_and_finished_flag() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    for name in ["a", "b", "c", "c_2", "d"] {
        g.add_node(name, move |_: &State, _: &NodeContext| {
            Ok(json!({ "log": [name] }))
        });
    }
    g.add_edge(START, "a")
        .add_edge("a", "b")
        .add_edge("a", "c")
        .add_edge("c", "c_2")
        .add_edge(vec!["a", "b"], "d")
        .add_edge("c_2", END)
        .add_edge("d", END);
    g.set_node_defer("d", true);
    let app = g.compile(opts(&saver)).unwrap();
    let out = app
        .invoke(json!({"log": []}), &thread("j"))
        .unwrap()
        .to_json();
    // The join is complete after step 2, but d waits for c_2.
    assert_eq!(out["log"], json!(["a", "b", "c", "c_2", "d"]));
    let join = "join:a+b:d";
    assert_eq!(stored_value(&*saver, "j", 1, join), json!([["a"], false]));
    assert_eq!(
        stored_value(&*saver, "j", 2, join),
        json!([["a", "b"], false])
    );
    assert_eq!(
        stored_value(&*saver, "j", 3, join),
        json!([["a", "b"], true])
    );
    assert_eq!(stored_value(&*saver, "j", 4, join), json!([[], false]));
}

#[test]
fn a_deferred_aggregator_waits_for_every_send_task() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("done", Reducer::Append)
        .add_channel("log", Reducer::Append)
        .add_node("split", |_: &State, _: &NodeContext| {
            Ok(json!({"log": ["split"]}))
        })
        .add_node("worker", |s: &State, _: &NodeContext| {
            Ok(json!({"done": [s.get_json("item").unwrap_or(Value::Null)]}))
        })
        .add_node("agg", |s: &State, _: &NodeContext| {
            Ok(json!({"log": [format!("agg saw {}", count(s, "done"))]}))
        })
        .add_edge(START, "split")
        .add_edge("worker", "agg")
        .add_edge("agg", END);
    let sends = RouterFn::Sends(Rc::new(|_: State| {
        let to = |i: i64| Goto::Send(Send::new("worker", json!({ "item": i })));
        Box::pin(async move { Ok(vec![to(1), to(2), to(3)]) })
    }));
    g.add_branch("split", Branch::new(sends, None));
    g.set_node_defer("agg", true);
    let app = g.compile(opts(&saver)).unwrap();
    let out = app.invoke(json!({}), &thread("s")).unwrap().to_json();
    assert_eq!(out["done"], json!([1, 2, 3]));
    assert_eq!(out["log"], json!(["split", "agg saw 3"]));
}

#[test]
fn deferring_an_unknown_node_is_a_graph_error() {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append)
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!({})))
        .add_edge(START, "a");
    g.set_node_defer("nope", true);
    let err = g.compile(opts_without_saver()).unwrap_err();
    assert_eq!(err.to_string(), "ValueError: Need to add_node `nope` first");
}

#[test]
fn the_json_format_reads_and_writes_defer() {
    let spec = GraphSpec::from_value(&json!({
        "channels": {"log": {"reducer": "append"}},
        "nodes": {"a": {"writes": [{"set": {"log": ["a"]}}]}, "d": {"writes": [], "defer": true}},
        "edges": [["__start__", "a"], ["a", "d"], ["d", "__end__"]]
    }))
    .unwrap();
    assert!(spec.nodes["d"].defer && !spec.nodes["a"].defer);
    let written = serde_json::to_value(&spec).unwrap();
    assert_eq!(written["nodes"]["d"]["defer"], json!(true));
    assert!(written["nodes"]["a"].get("defer").is_none());
    let err = GraphSpec::from_value(&json!({
        "nodes": {"d": {"defer": "yes"}},
        "edges": [["__start__", "d"]]
    }))
    .unwrap_err();
    assert!(err.to_string().contains("nodes.d.defer"), "{err}");
}
