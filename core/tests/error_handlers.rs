//! Node error handlers (LangGraph's `add_node(..., error_handler=...)` and
//! `set_node_defaults(error_handler=...)`): the Rust API, the stream
//! events of a routed failure, the handler's namespace and the LangGraph.js
//! differences behind `Semantics::error_handlers_as_js`. The traces of
//! `tests/conformance/extensions/scenarios/error_handler_*.json` check the
//! runs themselves against LangGraph.

mod common;

use chronograph::{
    error_handler_node, CompileOptions, CompiledGraph, Error, NodeAction, NodeContext, Reducer,
    RunInput, Semantics, State, StateGraph, StreamEvent, END, START,
};
use common::*;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// What the handler saw: the failure (node, error text) and its namespace.
type Seen = Rc<RefCell<Vec<(String, String, String)>>>;

/// `START -> (a, c)`, `a -> b`; `a` fails while `mode` is "fail", its
/// handler records what it is given and writes `log: ["handled"]`;
/// `interrupt` makes the handler ask first.
fn graph(seen: &Seen, interrupt: bool) -> StateGraph {
    let mut g = StateGraph::new();
    g.add_channel("mode", Reducer::LastValue)
        .add_channel("log", Reducer::Append)
        .add_node("a", |s: &State, _: &NodeContext| {
            if s.get_json("mode") == Some(json!("fail")) {
                return Err(Error::node_failure("ValueError", "a broke"));
            }
            Ok(json!({"log": ["a"]}))
        })
        .add_node("b", |_: &State, _: &NodeContext| Ok(json!({"log": ["b"]})))
        .add_node("c", |_: &State, _: &NodeContext| Ok(json!({"log": ["c"]})))
        .add_edge(START, "a")
        .add_edge(START, "c")
        .add_edge("a", "b")
        .add_edge("b", END)
        .add_edge("c", END);
    let seen = seen.clone();
    g.set_node_error_handler(
        "a",
        NodeAction::sync(move |s: &State, ctx: &NodeContext| {
            if interrupt {
                ctx.interrupt(json!("retry?"))?;
            }
            let failure = ctx.node_error().expect("a handler is given the failure");
            seen.borrow_mut().push((
                failure.node.clone(),
                failure.error.to_string(),
                ctx.checkpoint_ns().to_owned(),
            ));
            assert_eq!(
                s.get_json("mode"),
                Some(json!("fail")),
                "the failed task's input"
            );
            Ok(json!({"log": ["handled"]}))
        }),
    );
    g
}

fn compiled(
    seen: &Seen,
    interrupt: bool,
    js: bool,
) -> (CompiledGraph, Rc<chronograph::InMemorySaver>) {
    let saver = saver();
    let app = graph(seen, interrupt)
        .compile(CompileOptions {
            semantics: Semantics {
                commit_as_settled: js,
                error_handlers_as_js: js,
                ..Semantics::langgraph()
            },
            ..opts(&saver)
        })
        .unwrap();
    (app, saver)
}

#[test]
fn a_failed_node_runs_its_handler_and_the_run_goes_on() {
    let seen = Seen::default();
    let (app, _) = compiled(&seen, false, false);
    let out = app
        .invoke(json!({"mode": "fail", "log": []}), &thread("t"))
        .unwrap();
    assert_eq!(
        out.to_json()["log"],
        json!(["handled", "c"]),
        "a's edge to b does not fire"
    );
    let seen = seen.borrow();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        (seen[0].0.as_str(), seen[0].1.as_str()),
        ("a", "ValueError: a broke")
    );
    // The handler's namespace: the failed task's, then its own level.
    let history = history(&app, &thread("t"));
    let failed = history[1].tasks.iter().find(|t| t.name == "a").unwrap();
    let (outer, own) = seen[0].2.split_once('|').unwrap();
    assert_eq!(outer, format!("a:{}", failed.id));
    assert!(
        own.starts_with(&format!("{}:", error_handler_node("a"))),
        "{own}"
    );
}

#[test]
fn the_handler_registers_before_its_node() {
    let app = graph(&Seen::default(), false)
        .compile(opts_without_saver())
        .unwrap();
    let names = app.node_names();
    let at = |n: &str| names.iter().position(|x| x == n).unwrap();
    assert_eq!(at("__error_handler__a") + 1, at("a"));
}

fn kinds(events: &[StreamEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Task { name, triggers, .. } => Some(format!("start {name} {triggers:?}")),
            StreamEvent::TaskResult { name, error, .. } => Some(format!(
                "result {name} {}",
                error.as_deref().unwrap_or("ok")
            )),
            StreamEvent::Updates { node, .. } => Some(format!("update {node}")),
            _ => None,
        })
        .collect()
}

#[test]
fn a_routed_failure_streams_its_error_and_the_handlers_task() {
    let seen = Seen::default();
    // Committed as they settle (LangGraph.js): the handler starts before
    // the failure is committed.
    let (app, _) = compiled(&seen, false, true);
    let (events, _) = app
        .stream(json!({"mode": "fail", "log": []}), &thread("t"))
        .unwrap();
    let step1: Vec<String> = kinds(&events).into_iter().skip(3).collect();
    assert_eq!(
        step1,
        [
            "start a [\"branch:to:a\"]",
            "start c [\"branch:to:c\"]",
            "start __error_handler__a [\"__pregel_push\"]",
            "result a ValueError: a broke",
            "update c",
            "result c ok",
            "update __error_handler__a",
            "result __error_handler__a ok",
        ]
    );
}

#[test]
fn the_failed_tasks_writes_carry_the_node_they_came_from() {
    let seen = Seen::default();
    let (app, saver) = compiled(&seen, false, false);
    app.invoke(json!({"mode": "fail", "log": []}), &thread("t"))
        .unwrap();
    let step0 = stored(&*saver, "t")
        .into_iter()
        .find(|c| c.metadata.step == 0)
        .unwrap();
    let failed = history(&app, &thread("t"))[1]
        .tasks
        .iter()
        .find(|t| t.name == "a")
        .unwrap()
        .id
        .clone();
    let rows: Vec<(String, Value)> = step0
        .pending_writes
        .iter()
        .filter(|w| w.task_id == failed)
        .map(|w| (w.channel.clone(), w.value.clone()))
        .collect();
    assert_eq!(
        rows,
        [
            ("__error__".to_owned(), json!("ValueError('a broke')")),
            ("__error_source_node__".to_owned(), json!("a")),
        ]
    );
}

#[test]
fn a_resumed_handler_is_given_the_stored_error_as_each_langgraph_gives_it() {
    for (js, expected_next, expected_error) in [
        (false, vec!["a"], "ValueError: ValueError('a broke')"),
        (true, vec![], "ValueError: a broke"),
    ] {
        let seen = Seen::default();
        let (app, _) = compiled(&seen, true, js);
        let cfg = thread("t");
        let out = app
            .invoke(json!({"mode": "fail", "log": []}), &cfg)
            .unwrap();
        assert_eq!(out.interrupts.len(), 1);
        // LangGraph lists the routed task in `next`; LangGraph.js does not.
        assert_eq!(app.get_state(&cfg).unwrap().next, expected_next, "js: {js}");
        let out = app
            .invoke(
                RunInput::Command(chronograph::Command::resume(json!("yes"))),
                &cfg,
            )
            .unwrap();
        assert_eq!(out.to_json()["log"], json!(["handled", "c"]));
        assert_eq!(seen.borrow()[0].1, expected_error, "js: {js}");
    }
}

#[test]
fn a_default_handler_takes_the_failures_of_nodes_without_their_own() {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append)
        .add_node("x", |_: &State, _: &NodeContext| {
            Err(Error::node_failure("Error", "x broke"))
        })
        .add_edge(START, "x")
        .add_edge("x", END)
        .set_default_error_handler(Some(NodeAction::sync(|_: &State, ctx: &NodeContext| {
            let failure = ctx.node_error().unwrap();
            Ok(json!({"log": [format!("default: {} {}", failure.node, failure.error.message())]}))
        })));
    let app = g.compile(opts_without_saver()).unwrap();
    assert_eq!(
        app.node_names().last().map(String::as_str),
        Some("__default_error_handler__")
    );
    let out = app.invoke(json!({"log": []}), &thread("t")).unwrap();
    assert_eq!(out.to_json()["log"], json!(["default: x x broke"]));
}

#[test]
fn handler_names_that_are_taken_are_graph_errors() {
    let noop = || NodeAction::sync(|_: &State, _: &NodeContext| Ok(json!({})));
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append)
        .add_node("__error_handler__a", |_: &State, _: &NodeContext| {
            Ok(json!({}))
        })
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!({})))
        .add_edge(START, "a")
        .set_node_error_handler("a", noop());
    let e = g.compile(opts_without_saver()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "ValueError: Auto-generated error handler node `__error_handler__a` already exists."
    );
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append)
        .add_node("__default_error_handler__", |_: &State, _: &NodeContext| {
            Ok(json!({}))
        })
        .add_edge(START, "__default_error_handler__")
        .set_default_error_handler(Some(noop()));
    let e = g.compile(opts_without_saver()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "ValueError: Auto-generated default error handler node `__default_error_handler__` already exists."
    );
}

#[test]
fn with_an_error_handler_every_node_counts_as_reachable() {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append)
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!({})))
        .add_node("orphan", |_: &State, _: &NodeContext| Ok(json!({})))
        .add_edge(START, "a");
    let refuse = || CompileOptions {
        semantics: Semantics {
            refuse_unreachable: true,
            ..Semantics::langgraph()
        },
        ..opts_without_saver()
    };
    assert_eq!(g.compile(refuse()).unwrap_err().code(), "UNREACHABLE_NODE");
    g.set_node_error_handler(
        "a",
        NodeAction::sync(|_: &State, _: &NodeContext| Ok(json!({}))),
    );
    assert!(g.compile(refuse()).is_ok(), "a handler may go anywhere");
}
