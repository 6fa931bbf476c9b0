//! Node input schemas (LangGraph's `add_node(..., input_schema=...)`,
//! LangGraph.js's `addNode(name, fn, { input })`): the node reads only its
//! schema's channels; keys the state lacks become private channels that
//! nodes write and read, that a run's input cannot write and its output
//! does not show, while snapshots do (LangGraph's `stream_channels`).

mod common;

use chronograph::{
    Command, CompileOptions, CompiledGraph, NodeContext, NodeOutput, Reducer, Semantics, State,
    StateGraph, END, START,
};
use common::*;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// Each node's input, as it ran.
type Seen = Rc<RefCell<Vec<(String, Value)>>>;

/// `a` writes the private `secret`; `b` (input schema `hello` + `secret`)
/// reads it; `c` (no schema) sees the state schema only. Each node's input
/// is recorded.
fn private_graph(options: impl FnOnce(CompileOptions) -> CompileOptions) -> (CompiledGraph, Seen) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut g = StateGraph::new();
    g.add_channel("hello", Reducer::LastValue);
    let log = seen.clone();
    g.add_node("a", move |s: &State, _: &NodeContext| {
        log.borrow_mut().push(("a".into(), s.to_json()));
        Ok(json!({ "secret": "s3cret" }))
    });
    let log = seen.clone();
    g.add_node("b", move |s: &State, _: &NodeContext| {
        log.borrow_mut().push(("b".into(), s.to_json()));
        Ok(json!({ "hello": "again", "now": 123 }))
    });
    let log = seen.clone();
    g.add_node("c", move |s: &State, _: &NodeContext| {
        log.borrow_mut().push(("c".into(), s.to_json()));
        Ok(json!({}))
    });
    g.set_node_input(
        "b",
        vec![
            ("secret".into(), Reducer::LastValue),
            ("hello".into(), Reducer::LastValue),
        ],
    );
    g.add_edge(START, "a")
        .add_edge("a", "b")
        .add_edge("b", "c")
        .add_edge("c", END);
    (g.compile(options(opts(&saver()))).unwrap(), seen)
}

#[test]
fn a_node_with_an_input_schema_reads_only_its_channels_private_ones_included() {
    let (app, seen) = private_graph(|o| o);
    let out = app
        .invoke(json!({ "hello": "there" }), &thread("t"))
        .unwrap();
    assert_eq!(
        *seen.borrow(),
        vec![
            ("a".to_owned(), json!({ "hello": "there" })),
            // In its schema's order.
            (
                "b".to_owned(),
                json!({ "secret": "s3cret", "hello": "there" })
            ),
            // A node without a schema reads the state schema: no private channel.
            ("c".to_owned(), json!({ "hello": "again" })),
        ]
    );
    // The run's output is the state schema's channels (LangGraph's `output_channels`).
    assert_eq!(out.values.to_json(), json!({ "hello": "again" }));
}

#[test]
fn a_snapshot_shows_private_channels_as_langgraph_stream_channels_do() {
    let (app, _) = private_graph(|o| o);
    app.invoke(json!({ "hello": "there" }), &thread("t"))
        .unwrap();
    let snapshot = app.get_state(&thread("t")).unwrap();
    assert_eq!(
        snapshot.values.to_json(),
        json!({ "hello": "again", "secret": "s3cret" })
    );
}

#[test]
fn a_run_input_does_not_write_a_private_channel() {
    let (app, seen) = private_graph(|o| o);
    app.invoke(
        json!({ "hello": "there", "secret": "from input" }),
        &thread("t"),
    )
    .unwrap();
    assert_eq!(
        seen.borrow()[0],
        ("a".to_owned(), json!({ "hello": "there" }))
    );
}

#[test]
fn an_input_schema_that_redeclares_a_channel_with_another_reducer_is_refused() {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    g.add_node("a", |_: &State, _: &NodeContext| Ok(json!({})));
    g.set_node_input("a", vec![("log".into(), Reducer::Sum)]);
    g.add_edge(START, "a");
    let e = g.compile(opts_without_saver()).unwrap_err();
    assert_eq!(
        e.message(),
        "Channel 'log' already exists with a different type"
    );
    // A last value defers to the channel already there.
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    g.add_node("a", |_: &State, _: &NodeContext| Ok(json!({})));
    g.set_node_input("a", vec![("log".into(), Reducer::LastValue)]);
    g.add_edge(START, "a");
    assert!(g.compile(opts_without_saver()).is_ok());
}

/// `a` (input schema: `secret` only) routes on what its router reads.
fn routed(options: impl FnOnce(CompileOptions) -> CompileOptions) -> Value {
    let read = Rc::new(RefCell::new(Value::Null));
    let mut g = StateGraph::new();
    g.add_channel("hello", Reducer::LastValue);
    g.add_node("a", |_: &State, _: &NodeContext| {
        Ok(json!({ "secret": "x" }))
    });
    g.set_node_input("a", vec![("secret".into(), Reducer::LastValue)]);
    let log = read.clone();
    g.add_conditional_edges(
        "a",
        move |s: &State| {
            *log.borrow_mut() = s.to_json();
            Ok(vec![END.to_owned()])
        },
        None,
    );
    g.add_edge(START, "a");
    let app = g.compile(options(opts_without_saver())).unwrap();
    app.invoke(json!({ "hello": "there" }), &Default::default())
        .unwrap();
    let out = read.borrow().clone();
    out
}

#[test]
fn a_router_reads_its_nodes_input_schema_in_langgraph_and_every_channel_in_langgraph_js() {
    assert_eq!(routed(|o| o), json!({ "secret": "x" }));
    let js = routed(|o| CompileOptions {
        semantics: Semantics {
            routers_read_every_channel: true,
            ..Semantics::langgraph()
        },
        ..o
    });
    assert_eq!(js, json!({ "hello": "there", "secret": "x" }));
}

/// Node `one` returns a `Command` whose update names `log` twice, as pairs.
fn writes_log_twice() -> CompiledGraph {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    g.add_command_node("one", |_: &State, _: &NodeContext| {
        Ok(NodeOutput::Command(Command::goto(
            Some(json!([["log", ["one.0"]], ["log", ["one.1"]]])),
            Vec::new(),
        )))
    });
    g.add_edge(START, "one");
    g.compile(opts_without_saver()).unwrap()
}

#[test]
fn a_command_update_of_pairs_writes_a_channel_named_twice_twice_in_order() {
    let app = writes_log_twice();
    let out = app
        .invoke(json!({ "log": ["input"] }), &Default::default())
        .unwrap();
    assert_eq!(
        out.values.to_json(),
        json!({ "log": ["input", "one.0", "one.1"] })
    );
}

#[test]
fn input_and_output_schemas_decide_what_a_run_writes_and_returns_nodes_read_the_state() {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut g = StateGraph::new();
    g.add_channel("hello", Reducer::LastValue)
        .add_channel("bye", Reducer::LastValue);
    g.set_input_schema(vec![
        ("hello".into(), Reducer::LastValue),
        ("question".into(), Reducer::LastValue),
    ]);
    g.set_output_schema(vec![
        ("bye".into(), Reducer::LastValue),
        ("extra".into(), Reducer::LastValue),
    ]);
    let log = seen.clone();
    g.add_node("a", move |s: &State, _: &NodeContext| {
        log.borrow_mut().push(s.to_json());
        Ok(json!({ "bye": "b", "extra": "e" }))
    });
    g.add_edge(START, "a");
    let app = g.compile(opts_without_saver()).unwrap();
    // LangGraph: `bye` is not in the input schema, so the input does not write it.
    let input = json!({ "hello": "h", "question": "q", "bye": "ignored" });
    let (events, out) = app.stream(input, &Default::default()).unwrap();
    assert_eq!(out.values.to_json(), json!({ "bye": "b", "extra": "e" }));
    assert_eq!(*seen.borrow(), vec![json!({ "hello": "h" })]);
    // The values stream shows every channel: the state's, then the schemas' own.
    let values: Vec<Value> = events
        .into_iter()
        .filter_map(|e| match e {
            chronograph::StreamEvent::Values(v) => Some(v),
            _ => None,
        })
        .collect();
    assert_eq!(
        values,
        vec![
            json!({ "hello": "h", "question": "q" }),
            json!({ "hello": "h", "bye": "b", "question": "q", "extra": "e" }),
        ]
    );
}

#[test]
fn a_task_that_writes_a_channel_twice_reports_each_write_in_its_updates_chunk() {
    let app = writes_log_twice();
    let (events, _) = app
        .stream(json!({ "log": ["input"] }), &Default::default())
        .unwrap();
    let updates: Vec<Value> = events
        .into_iter()
        .filter_map(|e| match e {
            chronograph::StreamEvent::Updates { node, update } if node != START => {
                Some(json!({ node: update }))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        updates,
        vec![json!({ "one": [{ "log": ["one.0"] }, { "log": ["one.1"] }] })]
    );
}
