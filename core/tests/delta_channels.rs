//! LangGraph.js's `DeltaChannel` (beta): a `messages_delta` channel's value
//! (`messagesDeltaReducer`: `add_messages` without the error for an unknown
//! id to remove), and the delta metadata every checkpoint of a graph with a
//! delta channel carries (`delta_writes_versioned`,
//! `counters_since_delta_snapshot`), on runs and on `update_state`. The
//! expected history is what LangGraph.js 1.7.3 records for the same graph
//! (`DeltaChannel(messagesDeltaReducer, { snapshotFrequency: 3 })`, three
//! chat rounds, then an update of another key and one of the messages).

mod common;

use chronograph::{
    CompileOptions, ListOptions, NodeContext, Reducer, Semantics, State, StateGraph, END, START,
};
use common::*;
use serde_json::{json, Value};

fn chat(frequency: Option<u64>) -> StateGraph {
    let mut g = StateGraph::new();
    g.add_channel("messages", Reducer::MessagesDelta)
        .set_channel_default("messages", json!([]))
        .add_channel("n", Reducer::LastValue);
    if let Some(f) = frequency {
        g.set_delta_channel("messages", f);
    }
    g.add_node("bot", |s: &State, _: &NodeContext| {
        let n = count(s, "messages");
        Ok(json!({"messages": [{"type": "ai", "content": format!("r{n}"), "id": format!("a{n}")}]}))
    })
    .add_edge(START, "bot")
    .add_edge("bot", END);
    g
}

fn js(saver: &std::rc::Rc<chronograph::InMemorySaver>) -> CompileOptions {
    CompileOptions {
        semantics: Semantics::langgraph_js(),
        ..opts(saver)
    }
}

/// (source, step, counters, delta_writes_versioned, messages) per checkpoint, oldest first.
fn history(frequency: Option<u64>) -> Vec<(String, i64, Value, Value, usize)> {
    let saver = saver();
    let app = chat(frequency).compile(js(&saver)).unwrap();
    let t = thread("t");
    for i in 0..3 {
        let say = json!({"messages": [{"type": "human", "content": format!("hi{i}"), "id": format!("h{i}")}]});
        app.invoke(say, &t).unwrap();
    }
    app.update_state(&t, Some(json!({"n": 1})), None).unwrap();
    let u = json!({"messages": [{"type": "human", "content": "u", "id": "u"}]});
    app.update_state(&t, Some(u), None).unwrap();
    let mut out: Vec<_> = app
        .get_state_history(&t, &ListOptions::default())
        .unwrap()
        .into_iter()
        .map(|s| {
            let m = s.metadata.unwrap();
            let counters = m
                .get("counters_since_delta_snapshot")
                .unwrap_or(Value::Null);
            let versioned = m.get("delta_writes_versioned").unwrap_or(Value::Null);
            let len = s.values.to_json()["messages"]
                .as_array()
                .map_or(0, Vec::len);
            (
                m.source.as_str().to_owned(),
                m.step,
                counters,
                versioned,
                len,
            )
        })
        .collect();
    out.reverse();
    out
}

#[test]
fn counters_follow_langgraph_js_and_restart_at_each_snapshot() {
    let c = |u: u64, s: u64| json!({"messages": [u, s]});
    let expected = vec![
        ("input", -1, c(0, 1), 0),
        ("loop", 0, c(1, 2), 1),
        ("loop", 1, c(2, 3), 2),
        ("input", 2, c(2, 4), 2),
        ("loop", 3, Value::Null, 3),
        ("loop", 4, c(1, 1), 4),
        ("input", 5, c(1, 2), 4),
        ("loop", 6, c(2, 3), 5),
        ("loop", 7, Value::Null, 6),
        ("update", 8, c(0, 1), 6),
        ("update", 9, c(1, 2), 7),
    ];
    let got = history(Some(3));
    assert_eq!(got.len(), expected.len());
    for (g, (source, step, counters, len)) in got.iter().zip(expected) {
        assert_eq!(
            (g.0.as_str(), g.1, &g.2, g.4),
            (source, step, &counters, len),
            "{g:?}"
        );
        assert_eq!(g.3, json!(true), "delta_writes_versioned at step {}", g.1);
    }
}

#[test]
fn a_graph_without_delta_channels_writes_no_delta_metadata() {
    for (_, step, counters, versioned, _) in history(None) {
        assert_eq!(
            (counters, versioned),
            (Value::Null, Value::Null),
            "step {step}"
        );
    }
}

#[test]
fn removing_an_unknown_id_is_no_error_for_messages_delta() {
    let saver = saver();
    let app = chat(Some(100)).compile(js(&saver)).unwrap();
    let t = thread("t");
    app.invoke(
        json!({"messages": [{"type": "human", "content": "hi", "id": "h"}]}),
        &t,
    )
    .unwrap();
    let out = app
        .invoke(
            json!({"messages": [{"type": "remove", "id": "nope"}, {"type": "remove", "id": "h"}]}),
            &t,
        )
        .unwrap();
    let ids: Vec<Value> = out.values.to_json()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].clone())
        .collect();
    assert_eq!(
        ids,
        vec![json!("a1")],
        "h removed, nope ignored; the bot replaced a1 by id"
    );
}

#[test]
fn an_overwrite_snapshots_the_channel_at_the_step_that_applies_it() {
    let saver = saver();
    let app = chat(Some(100)).compile(js(&saver)).unwrap();
    let t = thread("t");
    let say = json!({"messages": [{"type": "human", "content": "hi", "id": "h"}]});
    app.invoke(say, &t).unwrap();
    let over =
        json!({"messages": {"__overwrite__": [{"type": "human", "content": "again", "id": "g"}]}});
    app.invoke(over, &t).unwrap();
    let counters: Vec<Value> = app
        .get_state_history(&t, &ListOptions::default())
        .unwrap()
        .into_iter()
        .take(3)
        .map(|s| {
            s.metadata
                .unwrap()
                .get("counters_since_delta_snapshot")
                .unwrap_or(Value::Null)
        })
        .collect();
    // LangGraph.js 1.7.3: the reply [1, 1], the step of `__start__` (the Overwrite) none, the input [2, 4].
    let c = |u: u64, s: u64| json!({"messages": [u, s]});
    assert_eq!(counters, vec![c(1, 1), Value::Null, c(2, 4)]);
}
