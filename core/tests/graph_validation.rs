//! Graph validation: every name and edge LangGraph 1.2.22 refuses while
//! building (`StateGraph.add_node`, `add_edge`, `add_conditional_edges`) or
//! compiling (`StateGraph.validate`, `Pregel`, `pregel/_validate.py`), refused
//! here with LangGraph's text, through the builder and through the JSON graph
//! format alike; and the names LangGraph accepts, accepted. Each expected
//! text was produced by LangGraph itself (a script building the same graph).

mod common;

use chronograph::{
    Branch, CompileOptions, ErrorKind, GraphSpec, NodeContext, Reducer, RouterFn, State,
    StateGraph, END, START,
};
use common::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::rc::Rc;

fn noop() -> impl Fn(&State, &NodeContext) -> chronograph::Result<Value> + 'static {
    |_: &State, _: &NodeContext| Ok(json!({}))
}

/// The compile error of a builder graph, checked to be LangGraph's `ValueError`.
fn refused(g: &StateGraph) -> String {
    refused_with(g, opts(&saver()))
}

fn refused_with(g: &StateGraph, options: CompileOptions) -> String {
    let err = g.compile(options).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value, "{err}");
    assert_eq!(err.code(), "INVALID_GRAPH");
    err.message().to_owned()
}

/// The compile error of a graph in the JSON format (which parses).
fn spec_refused(spec: Value) -> String {
    let spec = GraphSpec::from_value(&spec).expect("the spec parses");
    let err = spec.compile(opts(&saver())).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value, "{err}");
    assert_eq!(err.code(), "INVALID_GRAPH");
    err.message().to_owned()
}

/// Compiles a JSON graph and runs it once on `input`.
fn spec_runs(spec: Value, input: Value) -> Value {
    let app = GraphSpec::from_value(&spec)
        .unwrap()
        .compile(opts(&saver()))
        .unwrap();
    app.invoke(input, &thread("t")).unwrap().values.to_json()
}

/// `START -> a -> name -> END` with one `x` channel.
fn with_node(name: &str) -> StateGraph {
    let mut g = StateGraph::new();
    g.add_channel("x", Reducer::LastValue)
        .add_node("a", noop())
        .add_node(name, noop())
        .add_edge(START, "a")
        .add_edge("a", name)
        .add_edge(name, END);
    g
}

fn spec_with_node(name: &str) -> Value {
    json!({
        "channels": {"x": {}},
        "nodes": {"a": {}, name: {}},
        "edges": [["__start__", "a"], ["a", name], [name, "__end__"]]
    })
}

/// `START -> a -> END` with channels `x` and `key`.
fn with_key(key: &str) -> StateGraph {
    let mut g = StateGraph::new();
    g.add_channel("x", Reducer::LastValue)
        .add_channel(key, Reducer::LastValue)
        .add_node("a", noop())
        .add_edge(START, "a");
    g
}

fn spec_with_key(key: &str) -> Value {
    json!({"channels": {"x": {}, key: {}}, "nodes": {"a": {}}, "edges": [["__start__", "a"]]})
}

/// Names in LangGraph's `RESERVED` set that `add_node` lets through (no `:` or `|`).
const RESERVED_NODE_NAMES: &[&str] = &[
    "__error__",
    "__error_source_node__",
    "__input__",
    "__interrupt__",
    "__no_writes__",
    "__pregel_checkpointer",
    "__pregel_pull",
    "__pregel_push",
    "__pregel_read",
    "__pregel_replay_state",
    "__pregel_resume_map",
    "__pregel_resuming",
    "__pregel_send",
    "__pregel_stream",
    "__pregel_stream_messages_v2",
    "__pregel_strict_resume",
    "__pregel_task_id",
    "__pregel_timed_attempt_observer",
    "__resume__",
    "__snapshot_bumps__",
    "checkpoint_id",
    "checkpoint_map",
    "checkpoint_ns",
    "configurable",
];

// --- node names ---------------------------------------------------------------

#[test]
fn a_node_named_start_or_end_is_reserved() {
    for name in [START, END] {
        let expected = format!("Node `{name}` is reserved.");
        assert_eq!(refused(&with_node(name)), expected);
        assert_eq!(spec_refused(spec_with_node(name)), expected);
    }
}

#[test]
fn a_node_name_with_a_colon_or_a_pipe_is_refused() {
    for (name, c) in [
        ("a:b", ':'),
        (":", ':'),
        ("branch:to:a", ':'),
        ("langsmith:hidden", ':'),
        ("a|b", '|'),
        ("|", '|'),
    ] {
        let expected =
            format!("'{c}' is a reserved character and is not allowed in the node names.");
        assert_eq!(refused(&with_node(name)), expected, "{name}");
        assert_eq!(spec_refused(spec_with_node(name)), expected, "{name}");
    }
}

#[test]
fn a_node_added_twice_is_refused() {
    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_node("a", noop())
        .add_edge(START, "a");
    assert_eq!(refused(&g), "Node `a` already present.");
    // A JSON object cannot hold one key twice (the last one wins, as in
    // Python's json), so the format never reaches this rule.
}

#[test]
fn a_node_named_after_a_langgraph_internal_name_is_refused_when_compiling() {
    for name in RESERVED_NODE_NAMES {
        let expected = format!("Node name '{name}' is reserved");
        assert_eq!(refused(&with_node(name)), expected);
        assert_eq!(spec_refused(spec_with_node(name)), expected);
    }
}

#[test]
fn nodes_named_copy_pregel_tasks_dunder_or_empty_are_accepted_as_langgraph_accepts_them() {
    for name in ["__copy__", "__pregel_tasks", "__x", "", "x", "branch"] {
        let values = spec_runs(spec_with_node(name), json!({"x": 1}));
        assert_eq!(values, json!({"x": 1}), "{name:?}");
        with_node(name).compile(opts(&saver())).unwrap();
    }
}

// --- state keys ------------------------------------------------------------------

#[test]
fn a_state_key_named_after_a_langgraph_internal_name_is_refused() {
    let mut names: Vec<&str> = RESERVED_NODE_NAMES.to_vec();
    names.extend([":", "|", "langsmith:hidden"]);
    for name in names {
        let expected = format!("Channel name '{name}' is reserved");
        assert_eq!(refused(&with_key(name)), expected);
        assert_eq!(spec_refused(spec_with_key(name)), expected);
    }
}

#[test]
fn a_state_key_named_pregel_tasks_is_refused_with_its_own_text() {
    let expected = "Channel '__pregel_tasks' is reserved and cannot be used in the graph.";
    assert_eq!(refused(&with_key("__pregel_tasks")), expected);
    assert_eq!(spec_refused(spec_with_key("__pregel_tasks")), expected);
}

#[test]
fn state_keys_that_would_share_chronograph_internal_channels_are_refused() {
    // LangGraph accepts these and then shares the channel with its own
    // bookkeeping (a `branch:to:a` key shows up as `None` in the output);
    // Chronograph refuses every key starting with `__` or containing `:`.
    for name in [
        "__start__",
        "__end__",
        "__copy__",
        "__x",
        "branch:to:a",
        "join:a+b:c",
        "a:b",
    ] {
        let expected = format!("Channel name '{name}' is reserved");
        assert_eq!(refused(&with_key(name)), expected);
        assert_eq!(spec_refused(spec_with_key(name)), expected);
    }
}

#[test]
fn a_state_key_may_have_a_node_name_or_a_pipe() {
    let values = spec_runs(
        json!({"channels": {"a": {"reducer": "append"}, "b|c": {}},
               "nodes": {"a": {"writes": [{"set": {"a": ["ran"], "b|c": 1}}]}},
               "edges": [["__start__", "a"]]}),
        json!({"a": []}),
    );
    assert_eq!(values, json!({"a": ["ran"], "b|c": 1}));
}

#[test]
fn channel_names_are_checked_before_node_names_in_declaration_order() {
    let mut g = with_node("__input__");
    g.add_channel("configurable", Reducer::LastValue)
        .add_channel("checkpoint_ns", Reducer::LastValue);
    assert_eq!(refused(&g), "Channel name 'configurable' is reserved");
    // `__pregel_tasks` is refused before any other channel (by `Pregel` itself).
    g.add_channel("__pregel_tasks", Reducer::Append);
    assert_eq!(
        refused(&g),
        "Channel '__pregel_tasks' is reserved and cannot be used in the graph."
    );
}

#[test]
fn edge_and_interrupt_mistakes_are_reported_before_reserved_names() {
    let mut g = with_node("__input__");
    g.add_channel("configurable", Reducer::LastValue)
        .add_edge("a", "ghost");
    assert_eq!(refused(&g), "Found edge ending at unknown node `ghost`");
    let g = with_node("__input__");
    let options = CompileOptions {
        interrupt_before: vec!["nope".into()],
        ..opts(&saver())
    };
    assert_eq!(refused_with(&g, options), "Interrupt node `nope` not found");
}

// --- edges ---------------------------------------------------------------------------

#[test]
fn an_edge_from_end_is_refused_while_building() {
    for to in ["a", END] {
        let mut g = StateGraph::new();
        g.add_node("a", noop())
            .add_edge(START, "a")
            .add_edge(END, to);
        assert_eq!(refused(&g), "END cannot be a start node");
    }
    assert_eq!(
        spec_refused(json!({"nodes": {"a": {}}, "edges": [["__start__", "a"], ["__end__", "a"]]})),
        "END cannot be a start node"
    );
}

#[test]
fn an_edge_to_start_is_refused_while_building() {
    for from in ["a", START] {
        let mut g = StateGraph::new();
        g.add_node("a", noop())
            .add_edge(START, "a")
            .add_edge(from, START);
        assert_eq!(refused(&g), "START cannot be an end node");
    }
    assert_eq!(
        spec_refused(
            json!({"nodes": {"a": {}}, "edges": [["__start__", "a"], ["__start__", "__start__"]]})
        ),
        "START cannot be an end node"
    );
}

#[test]
fn an_edge_from_an_unknown_node_is_refused_when_compiling() {
    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_edge(START, "a")
        .add_edge("ghost", "a");
    assert_eq!(refused(&g), "Found edge starting at unknown node 'ghost'");
    assert_eq!(
        spec_refused(json!({"nodes": {"a": {}}, "edges": [["__start__", "a"], ["ghost", "a"]]})),
        "Found edge starting at unknown node 'ghost'"
    );
}

#[test]
fn an_edge_to_an_unknown_node_is_refused_when_compiling() {
    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_edge(START, "a")
        .add_edge("a", "ghost");
    assert_eq!(refused(&g), "Found edge ending at unknown node `ghost`");
    assert_eq!(
        spec_refused(json!({"nodes": {"a": {}}, "edges": [["__start__", "a"], ["a", "ghost"]]})),
        "Found edge ending at unknown node `ghost`"
    );
}

#[test]
fn a_join_checks_each_source_in_order_then_its_target() {
    let cases: [(&[&str], &str, &str); 6] = [
        (&["a", "ghost"], END, "Need to add_node `ghost` first"),
        (&["ghost", END], "a", "Need to add_node `ghost` first"),
        (&["a", END], "a", "END cannot be a start node"),
        (&[START, "a"], "a", "Need to add_node `__start__` first"),
        (&["a", "b"], START, "START cannot be an end node"),
        (&["a", "b"], "ghost", "Need to add_node `ghost` first"),
    ];
    for (sources, to, expected) in cases {
        let mut g = StateGraph::new();
        g.add_node("a", noop())
            .add_node("b", noop())
            .add_edge(START, "a")
            .add_edge(sources.to_vec(), to);
        assert_eq!(refused(&g), expected, "{sources:?} -> {to}");
        let spec = json!({"nodes": {"a": {}, "b": {}},
                          "edges": [["__start__", "a"], [sources, to]]});
        assert_eq!(spec_refused(spec), expected, "{sources:?} -> {to}");
    }
}

#[test]
fn a_join_may_end_at_end() {
    let values = spec_runs(
        json!({"channels": {"log": {"reducer": "append"}},
               "nodes": {"a": {"writes": [{"set": {"log": ["a"]}}]}, "b": {"writes": [{"set": {"log": ["b"]}}]}},
               "edges": [["__start__", "a"], ["__start__", "b"], [["a", "b"], "__end__"]]}),
        json!({"log": []}),
    );
    assert_eq!(values, json!({"log": ["a", "b"]}));
}

#[test]
fn a_join_without_sources_is_refused() {
    // LangGraph accepts `add_edge([], "a")` and then runs until its
    // recursion limit; Chronograph refuses it.
    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_edge(START, "a")
        .add_edge(Vec::<String>::new(), "a");
    assert_eq!(refused(&g), "An edge needs at least one start node");
}

#[test]
fn a_graph_needs_an_edge_or_a_branch_from_start() {
    let expected =
        "Graph must have an entrypoint: add at least one edge from START to another node";
    let mut g = StateGraph::new();
    g.add_node("a", noop()).add_edge("a", END);
    assert_eq!(refused(&g), expected);
    assert_eq!(
        spec_refused(json!({"nodes": {"a": {}}, "edges": [["a", "__end__"]]})),
        expected
    );
}

#[test]
fn a_graph_may_go_straight_from_start_to_end_and_leave_nodes_unreached() {
    let values = spec_runs(
        json!({"channels": {"x": {}}, "nodes": {}, "edges": [["__start__", "__end__"]]}),
        json!({"x": 1}),
    );
    assert_eq!(values, json!({"x": 1}));
    let values = spec_runs(
        json!({"channels": {"x": {}}, "nodes": {"a": {}, "lonely": {"writes": [{"set": {"x": 2}}]}},
               "edges": [["__start__", "a"]]}),
        json!({"x": 1}),
    );
    assert_eq!(values, json!({"x": 1}));
}

// --- conditional edges ---------------------------------------------------------------

fn to_a() -> impl Fn(&State) -> chronograph::Result<Vec<String>> + 'static {
    |_: &State| Ok(vec!["a".into()])
}

#[test]
fn a_conditional_edge_from_an_unknown_node_or_from_end_is_refused() {
    for from in ["ghost", END] {
        let mut g = StateGraph::new();
        g.add_node("a", noop())
            .add_edge(START, "a")
            .add_conditional_edges(from, to_a(), None);
        assert_eq!(
            refused(&g),
            format!("Found edge starting at unknown node '{from}'")
        );
        let spec = json!({"nodes": {"a": {}}, "edges": [["__start__", "a"]],
                          "conditional_edges": [{"from": from, "when": [], "else": "a"}]});
        assert_eq!(
            spec_refused(spec),
            format!("Found edge starting at unknown node '{from}'")
        );
    }
}

#[test]
fn a_branch_target_that_is_not_a_node_is_refused_with_the_branch_name() {
    let map = |to: &str| Some(BTreeMap::from([("x".to_owned(), to.to_owned())]));
    for target in ["zz", START] {
        // An unnamed router is LangGraph's lambda: `condition`.
        let mut g = StateGraph::new();
        g.add_node("a", noop())
            .add_edge(START, "a")
            .add_conditional_edges("a", to_a(), map(target));
        assert_eq!(
            refused(&g),
            format!("At 'a' node, 'condition' branch found unknown target '{target}'")
        );
        // A named router (LangGraph: the function's name).
        let mut g = StateGraph::new();
        let router = RouterFn::Sync(Rc::new(to_a()));
        g.add_node("a", noop())
            .add_edge(START, "a")
            .add_branch("a", Branch::new(router, map(target)).with_name("pick"));
        assert_eq!(
            refused(&g),
            format!("At 'a' node, 'pick' branch found unknown target '{target}'")
        );
        // The JSON format's rule router is `route`, as in the conformance tools.
        let spec = json!({"nodes": {"a": {}}, "edges": [["__start__", "a"]],
                          "conditional_edges": [{"from": "a", "when": [{"if": {"channel": "x", "eq": 1}, "to": "a"}], "else": target}]});
        assert_eq!(
            spec_refused(spec),
            format!("At 'a' node, 'route' branch found unknown target '{target}'")
        );
    }
}

#[test]
fn two_branches_with_one_name_may_not_leave_the_same_node() {
    let named = || Branch::new(RouterFn::Sync(Rc::new(to_a())), None).with_name("pick");
    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_node("b", noop())
        .add_edge(START, "a")
        .add_edge(START, "b")
        .add_branch("a", named())
        .add_branch("b", named())
        .add_branch("a", named());
    assert_eq!(
        refused(&g),
        "Branch with name `pick` already exists for node `a`"
    );
    // Unnamed Rust routers have no name to clash on.
    let mut g = StateGraph::new();
    g.add_node("a", noop())
        .add_edge(START, "a")
        .add_conditional_edges("a", |_: &State| Ok(vec![END.into()]), None)
        .add_conditional_edges("a", |_: &State| Ok(vec![END.into()]), None);
    g.compile(opts(&saver())).unwrap();
    // In the JSON format every rule router is `route`, so a node has at most one.
    let rule = json!({"from": "a", "when": [], "else": "__end__"});
    assert_eq!(
        spec_refused(json!({"nodes": {"a": {}}, "edges": [["__start__", "a"]],
                            "conditional_edges": [rule, rule]})),
        "Branch with name `route` already exists for node `a`"
    );
}

#[test]
fn a_conditional_edge_from_start_is_an_entrypoint() {
    let values = spec_runs(
        json!({"channels": {"x": {}}, "nodes": {"a": {"writes": [{"set": {"x": "a"}}]}},
               "conditional_edges": [{"from": "__start__", "when": [], "else": "a"}]}),
        json!({"x": 0}),
    );
    assert_eq!(values, json!({"x": "a"}));
}

// --- interrupt nodes -----------------------------------------------------------------

#[test]
fn interrupt_nodes_must_be_nodes_of_the_graph() {
    for name in ["nope", START, END] {
        for before in [true, false] {
            let mut g = StateGraph::new();
            g.add_node("a", noop()).add_edge(START, "a");
            let mut options = opts(&saver());
            if before {
                options.interrupt_before = vec!["a".into(), name.into()];
            } else {
                options.interrupt_after = vec![name.into()];
            }
            assert_eq!(
                refused_with(&g, options),
                format!("Interrupt node `{name}` not found")
            );
        }
        let key = "interrupt_after";
        let spec =
            json!({"nodes": {"a": {}}, "edges": [["__start__", "a"]], "compile": {key: name}});
        assert_eq!(
            spec_refused(spec),
            format!("Interrupt node `{name}` not found")
        );
    }
    // `"*"` means every node.
    let spec = json!({"nodes": {"a": {}}, "edges": [["__start__", "a"]], "compile": {"interrupt_before": "*"}});
    GraphSpec::from_value(&spec)
        .unwrap()
        .compile(opts(&saver()))
        .unwrap();
}
