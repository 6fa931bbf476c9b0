//! Defining graphs: compile-time validation of the builder API (LangGraph's
//! `StateGraph.validate` and `add_node`/`add_edge` texts) and the JSON graph
//! format of FORMAT.md — parse errors that name the bad field, each built-in
//! op, rule-based conditional edges and the `compile` section.

mod common;

use chronograph::{
    CompileOptions, CompiledGraph, GraphSpec, NodeContext, Reducer, RunInput, State, StateGraph,
    END, START,
};
use common::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn noop() -> impl Fn(&State, &NodeContext) -> chronograph::Result<Value> + 'static {
    |_: &State, _: &NodeContext| Ok(json!({}))
}

fn compile_error(g: &StateGraph) -> String {
    let err = g.compile(opts(&saver())).unwrap_err();
    assert_eq!(err.kind(), chronograph::ErrorKind::Value);
    assert_eq!(err.code(), "INVALID_GRAPH");
    err.to_string()
}

#[test]
fn compile_rejects_duplicate_and_reserved_node_names() {
    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_node("a", noop())
        .add_edge(START, "a");
    assert_eq!(compile_error(&g), "ValueError: Node `a` already present.");
    for reserved in [START, END] {
        let mut g = StateGraph::new();
        g.add_node(reserved, noop());
        assert_eq!(
            compile_error(&g),
            format!("ValueError: Node `{reserved}` is reserved.")
        );
    }
    for (name, c) in [("a:b", ':'), ("a|b", '|')] {
        let mut g = StateGraph::new();
        g.add_node(name, noop());
        assert_eq!(
            compile_error(&g),
            format!(
                "ValueError: '{c}' is a reserved character and is not allowed in the node names."
            )
        );
    }
}

#[test]
fn compile_rejects_edges_to_or_from_unknown_nodes() {
    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_edge(START, "a")
        .add_edge("ghost", "a");
    assert_eq!(
        compile_error(&g),
        "ValueError: Found edge starting at unknown node 'ghost'"
    );
    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_edge(START, "a")
        .add_edge("a", "ghost");
    assert_eq!(
        compile_error(&g),
        "ValueError: Found edge ending at unknown node `ghost`"
    );
    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_edge(START, "a")
        .add_edge(["a", "ghost"], END);
    assert_eq!(
        compile_error(&g),
        "ValueError: Need to add_node `ghost` first"
    );
    let mut g = StateGraph::new();
    g.add_node("a", noop()).add_edge(END, "a");
    assert_eq!(compile_error(&g), "ValueError: END cannot be a start node");
    let mut g = StateGraph::new();
    g.add_node("a", noop()).add_edge("a", START);
    assert_eq!(compile_error(&g), "ValueError: START cannot be an end node");
}

#[test]
fn compile_requires_an_entrypoint() {
    let mut g = StateGraph::new();
    g.add_node("a", noop());
    assert_eq!(
        compile_error(&g),
        "ValueError: Graph must have an entrypoint: add at least one edge from START to another node"
    );
    // A conditional edge from START counts as an entrypoint.
    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_conditional_edges(START, |_: &State| Ok(vec!["a".into()]), None);
    g.compile(opts(&saver())).unwrap();
}

#[test]
fn compile_rejects_unknown_branch_targets_and_interrupt_nodes() {
    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_edge(START, "a")
        .add_conditional_edges(
            "a",
            |_: &State| Ok(vec!["x".into()]),
            Some(BTreeMap::from([("x".to_owned(), "zz".to_owned())])),
        );
    assert_eq!(
        compile_error(&g),
        "ValueError: At 'a' node, 'condition' branch found unknown target 'zz'"
    );
    let mut g = StateGraph::new();
    g.add_node("a", noop()).add_edge(START, "a");
    let err = g
        .compile(CompileOptions {
            interrupt_before: vec!["nope".into()],
            ..opts(&saver())
        })
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "ValueError: Interrupt node `nope` not found"
    );
    g.compile(CompileOptions {
        interrupt_after: vec!["*".into()],
        ..opts(&saver())
    })
    .unwrap();
}

#[test]
fn compile_rejects_reserved_channel_names() {
    let mut g = StateGraph::new();
    g.add_channel("__start__", Reducer::LastValue)
        .add_node("a", noop())
        .add_edge(START, "a");
    assert_eq!(
        compile_error(&g),
        "ValueError: Channel name '__start__' is reserved"
    );
}

// --- the JSON graph format ---------------------------------------------------

fn spec_error(text: &str) -> String {
    let err = GraphSpec::parse(text).unwrap_err();
    assert_eq!(err.name(), "GraphSpecError");
    assert_eq!(err.kind(), chronograph::ErrorKind::Spec);
    err.message().to_owned()
}

#[test]
fn malformed_spec_json_names_the_bad_field() {
    let cases = [
        (
            r#"{"nodes": {"a": {"writes": [{"sett": {}}]}}}"#,
            "nodes.a.writes[0].sett: unknown field `sett`",
        ),
        (
            r#"{"channels": {"x": {"reducer": "max"}}, "nodes": {}}"#,
            "channels.x.reducer: unknown variant `max`",
        ),
        (
            r#"{"nodes": {"a": {"writes": [{"incr": "n", "by": "two"}]}}}"#,
            "nodes.a.writes[0].by: invalid type: string \"two\"",
        ),
        (
            r#"{"nodes": {"a": {"writes": [{"set": {"x": 1}, "incr": "n"}]}}}"#,
            "nodes.a.writes[0]: an op needs exactly one of",
        ),
        (
            r#"{"nodes": {"a": {"writes": [{"set": {"x": 1}, "prefix": "p"}]}}}"#,
            "nodes.a.writes[0]: `prefix/by/resume_to` does not belong to this op",
        ),
        (
            r#"{"nodes": {}, "edges": [["a"]]}"#,
            "edges[0]: invalid length 1",
        ),
        (
            r#"{"nodes": {}, "conditional_edges": [{"from": "a", "when": []}]}"#,
            "conditional_edges[0]: missing field `else`",
        ),
        (
            r#"{"nodes": {}, "conditional_edges": [{"from": "a", "when": [{"if": {"channel": "c", "gt": 1}, "to": "b"}], "else": "b"}]}"#,
            "conditional_edges[0].when[0].if.gt: unknown field `gt`",
        ),
        (
            r#"{"nodes": {}, "compile": {"interrupt_before": 3}}"#,
            "compile.interrupt_before: ",
        ),
        (r#"{"edges": []}"#, "missing field `nodes`"),
        (
            r#"{"nodes": {}, "extra": 1}"#,
            "extra: unknown field `extra`",
        ),
    ];
    for (text, expected) in cases {
        let message = spec_error(text);
        assert!(
            message.starts_with(expected),
            "{text}\n  got:      {message}\n  expected: {expected}..."
        );
    }
    let message = spec_error("{\"nodes\": {");
    assert!(message.contains("EOF"), "{message}");
}

#[test]
fn a_spec_that_parses_but_does_not_validate_gets_the_compile_error() {
    let spec =
        GraphSpec::parse(r#"{"nodes": {"a": {}}, "edges": [["__start__", "a"], ["a", "zzz"]]}"#)
            .unwrap();
    let err = spec.compile(opts(&saver())).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ValueError: Found edge ending at unknown node `zzz`"
    );
    let spec = GraphSpec::parse(
        r#"{"nodes": {"a": {}}, "edges": [["__start__", "a"]], "conditional_edges": [{"from": "a", "when": [], "else": "nowhere"}]}"#,
    )
    .unwrap();
    assert_eq!(
        spec.compile(opts(&saver())).unwrap_err().to_string(),
        "ValueError: At 'a' node, 'route' branch found unknown target 'nowhere'"
    );
}

#[test]
fn a_spec_round_trips_through_json() {
    let text = r#"{
        "channels": {"m": {"reducer": "add_messages"}, "n": {"reducer": "sum"}, "log": {"reducer": "append"}, "x": {}},
        "nodes": {
            "a": {"writes": [{"reply": "m", "prefix": "> "}, {"incr": "n", "by": 2}]},
            "b": {"writes": [{"interrupt": {"q": 1}, "resume_to": "x"}, {"fail_if": {"channel": "x", "equals": "no"}}]}
        },
        "edges": [["__start__", "a"], [["a"], "b"]],
        "conditional_edges": [{"from": "b", "when": [{"if": {"channel": "n", "lt": 3}, "to": "a"}], "else": "__end__"}],
        "compile": {"interrupt_before": "b", "interrupt_after": ["a"], "checkpointer": true}
    }"#;
    let spec = GraphSpec::parse(text).unwrap();
    let again = GraphSpec::from_value(&serde_json::to_value(&spec).unwrap()).unwrap();
    assert_eq!(spec, again);
    assert_eq!(spec.compile.interrupt_before, ["b"], "one name or a list");
}

fn spec_graph(text: &str) -> (std::rc::Rc<chronograph::InMemorySaver>, CompiledGraph) {
    let saver = saver();
    let app = GraphSpec::parse(text)
        .unwrap()
        .compile(opts(&saver))
        .unwrap();
    (saver, app)
}

#[test]
fn spec_ops_read_the_given_state_and_a_later_op_replaces_an_earlier_write() {
    let (_saver, app) = spec_graph(
        r#"{"channels": {"x": {}, "n": {}},
            "nodes": {"a": {"writes": [
                {"set": {"x": "first"}}, {"set": {"x": "second"}},
                {"incr": "n", "by": 1}, {"incr": "n", "by": 10}
            ]}},
            "edges": [["__start__", "a"]]}"#,
    );
    let out = app.invoke(json!({"n": 5}), &thread("t")).unwrap();
    assert_eq!(out.values.to_json(), json!({"x": "second", "n": 15}));
    let out = app.invoke(json!({"x": "again"}), &thread("fresh")).unwrap();
    assert_eq!(
        out.values.to_json()["n"],
        json!(10),
        "a missing number counts as 0"
    );
}

#[test]
fn the_reply_op_echoes_the_last_message_with_its_prefix() {
    let (_saver, app) = spec_graph(
        r#"{"channels": {"messages": {"reducer": "add_messages"}},
            "nodes": {"bot": {"writes": [{"reply": "messages", "prefix": "echo: "}]}},
            "edges": [["__start__", "bot"]]}"#,
    );
    let out = app.invoke(say("hello"), &thread("t")).unwrap();
    assert_eq!(out.values.to_json()["messages"][1]["type"], json!("ai"));
    assert_eq!(
        contents(&out.values.to_json(), "messages"),
        ["hello", "echo: hello"]
    );
}

#[test]
fn the_fail_if_op_fails_the_node_with_its_name() {
    let (saver, app) = spec_graph(
        r#"{"channels": {"x": {}},
            "nodes": {"check": {"writes": [{"fail_if": {"channel": "x", "equals": "bad"}}, {"set": {"x": "ok"}}]}},
            "edges": [["__start__", "check"]]}"#,
    );
    let err = app.invoke(json!({"x": "bad"}), &thread("t")).unwrap_err();
    // FORMAT.md: a `fail_if` node raises `RuntimeError: node NAME failed`.
    assert_eq!(err.to_string(), "RuntimeError: node check failed");
    assert_eq!(
        latest(&*saver, "t").pending_writes[0].value,
        json!("RuntimeError('node check failed')")
    );
    let out = app.invoke(json!({"x": "fine"}), &thread("u")).unwrap();
    assert_eq!(out.values.to_json(), json!({"x": "ok"}));
}

#[test]
fn the_interrupt_op_pauses_and_writes_the_answer_to_resume_to() {
    let (_saver, app) = spec_graph(
        r#"{"channels": {"answer": {}},
            "nodes": {"ask": {"writes": [{"interrupt": {"q": "ok?"}, "resume_to": "answer"}]}},
            "edges": [["__start__", "ask"]]}"#,
    );
    let out = app.invoke(json!({"answer": null}), &thread("t")).unwrap();
    assert_eq!(out.interrupts[0].value, json!({"q": "ok?"}));
    let out = app
        .invoke(
            RunInput::Command(chronograph::Command::resume(json!("yes"))),
            &thread("t"),
        )
        .unwrap();
    assert!(out.interrupts.is_empty());
    assert_eq!(out.values.to_json(), json!({"answer": "yes"}));
}

#[test]
fn spec_conditional_rules_are_tried_in_order_then_else_and_lists_compare_by_length() {
    let (_saver, app) = spec_graph(
        r#"{"channels": {"log": {"reducer": "append"}, "mode": {}},
            "nodes": {
                "tick": {"writes": [{"set": {"log": ["t"]}}]},
                "special": {"writes": [{"set": {"log": ["special"]}}]}
            },
            "edges": [["__start__", "tick"], ["special", "__end__"]],
            "conditional_edges": [{"from": "tick", "when": [
                {"if": {"channel": "mode", "eq": "stop"}, "to": "__end__"},
                {"if": {"channel": "log", "eq": 2}, "to": "special"},
                {"if": {"channel": "log", "lt": 3}, "to": "tick"}
            ], "else": "__end__"}]}"#,
    );
    let out = app
        .invoke(json!({"log": [], "mode": "go"}), &thread("a"))
        .unwrap();
    assert_eq!(strings(&out.values.to_json()["log"]), ["t", "t", "special"]);
    let out = app
        .invoke(json!({"log": [], "mode": "stop"}), &thread("b"))
        .unwrap();
    assert_eq!(
        strings(&out.values.to_json()["log"]),
        ["t"],
        "the first matching rule wins"
    );
    let out = app
        .invoke(json!({"log": ["x", "y", "z"], "mode": "go"}), &thread("c"))
        .unwrap();
    assert_eq!(
        strings(&out.values.to_json()["log"]),
        ["x", "y", "z", "t"],
        "else"
    );
}

#[test]
fn the_compile_section_sets_breakpoints_and_can_drop_the_checkpointer() {
    let (_saver, app) = spec_graph(
        r#"{"channels": {"log": {"reducer": "append"}},
            "nodes": {"a": {"writes": [{"set": {"log": ["a"]}}]}, "b": {"writes": [{"set": {"log": ["b"]}}]}},
            "edges": [["__start__", "a"], ["a", "b"]],
            "compile": {"interrupt_before": "b"}}"#,
    );
    app.invoke(json!({"log": []}), &thread("t")).unwrap();
    assert_eq!(app.get_state(&thread("t")).unwrap().next, ["b"]);

    let (_saver, app) = spec_graph(
        r#"{"channels": {"log": {"reducer": "append"}},
            "nodes": {"a": {"writes": [{"set": {"log": ["a"]}}]}},
            "edges": [["__start__", "a"]],
            "compile": {"checkpointer": false}}"#,
    );
    assert!(app.checkpointer().is_none());
    let out = app.invoke(json!({"log": []}), &thread("t")).unwrap();
    assert_eq!(strings(&out.values.to_json()["log"]), ["a"]);
    assert_eq!(
        app.get_state(&thread("t")).unwrap_err().to_string(),
        "ValueError: No checkpointer set"
    );
}

#[test]
fn a_spec_graph_and_the_same_builder_graph_write_the_same_history() {
    let (spec_saver, from_spec) = spec_graph(
        r#"{"channels": {"log": {"reducer": "append"}, "total": {"reducer": "sum"}},
            "nodes": {
                "a": {"writes": [{"set": {"log": ["a"], "total": 1}}]},
                "b": {"writes": [{"set": {"log": ["b"], "total": 10}}]},
                "c": {"writes": [{"set": {"log": ["c"], "total": 100}}]}
            },
            "edges": [["__start__", "a"], ["__start__", "b"], [["a", "b"], "c"], ["c", "__end__"]]}"#,
    );
    let built_saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append)
        .add_channel("total", Reducer::Sum);
    for (name, n) in [("a", 1), ("b", 10), ("c", 100)] {
        g.add_node(name, move |_: &State, _: &NodeContext| {
            Ok(json!({"log": [name], "total": n}))
        });
    }
    g.add_edge(START, "a")
        .add_edge(START, "b")
        .add_edge(["a", "b"], "c")
        .add_edge("c", END);
    let built = g.compile(opts(&built_saver)).unwrap();
    for app in [&from_spec, &built] {
        app.invoke(json!({"log": ["start"], "total": 0}), &thread("t"))
            .unwrap();
    }
    // Same clock and seed: the same ids, versions, values and writes.
    assert_eq!(stored(&*spec_saver, "t"), stored(&*built_saver, "t"));
}

#[test]
fn declared_destinations_are_drawn_as_conditional_edges_and_must_exist() {
    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_node("b", noop())
        .add_edge(START, "a")
        .add_destinations("a", vec!["b".into(), END.into()]);
    let app = g.compile(opts(&saver())).unwrap();
    let drawn: Vec<(String, String, bool)> = app
        .topology()
        .edges
        .into_iter()
        .map(|e| (e.from, e.to, e.conditional))
        .collect();
    assert_eq!(
        drawn,
        [
            (START.to_owned(), "a".to_owned(), false),
            ("a".to_owned(), "b".to_owned(), true),
            ("a".to_owned(), END.to_owned(), true),
        ]
    );
    // Nothing is routed by them: `a` has no edge, so the run ends after it.
    let out = app.invoke(json!({}), &thread("t")).unwrap();
    assert_eq!(out.values.to_json(), json!({}));
    assert!(app.get_state(&thread("t")).unwrap().next.is_empty());

    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_edge(START, "a")
        .add_destinations("a", vec!["zz".into()]);
    assert_eq!(
        compile_error(&g),
        "ValueError: Found edge ending at unknown node `zz`"
    );
    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_edge(START, "a")
        .add_destinations("nope", vec!["a".into()]);
    assert_eq!(
        compile_error(&g),
        "ValueError: Need to add_node `nope` first"
    );
}
