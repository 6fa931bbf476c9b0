//! Every error of issue 2's list, with LangGraph's exact text, and what each
//! leaves behind: a rejected operation never changes what is stored (the
//! whole thread export is compared before and after). Errors raised while a
//! superstep runs keep the step's task writes (that is how LangGraph resumes)
//! but never write a checkpoint.

mod common;

use chronograph::{
    Command, CompiledGraph, ErrorKind, InMemorySaver, ListOptions, NodeContext, Reducer, RunInput,
    RunnableConfig, State, StateGraph, StateUpdate, COPY, END, INPUT, START,
};
use common::*;
use serde_json::{json, Value};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;

const T: &str = "t";

fn finished() -> (Rc<InMemorySaver>, CompiledGraph) {
    let (saver, app, _) = finished_booking();
    (saver, app)
}

fn upd(values: Option<Value>, as_node: Option<&str>) -> StateUpdate {
    StateUpdate {
        values,
        as_node: as_node.map(str::to_owned),
        task_id: None,
        goto: Vec::new(),
    }
}

fn config(v: Value) -> RunnableConfig {
    serde_json::from_value(v).unwrap()
}

// --- update_state -----------------------------------------------------------

#[test]
fn as_node_inference_is_ambiguous_after_a_parallel_step() {
    let saver = saver();
    let (app, _) = fanout(&saver, Rc::new(Cell::new(false)));
    app.invoke(json!({"items": []}), &thread(T)).unwrap();
    let after_parallel = after_parallel_step(&app, T);
    let err = fails_cleanly(
        &saver,
        T,
        "InvalidUpdateError: Ambiguous update, specify as_node",
        || {
            app.update_state(
                &at(T, &id_of(&after_parallel)),
                Some(json!({"items": ["?"]})),
                None,
            )
        },
    );
    assert_eq!(err.kind(), ErrorKind::InvalidUpdate);
    // Naming the node resolves it.
    app.update_state(
        &at(T, &id_of(&after_parallel)),
        Some(json!({"items": ["!"]})),
        Some("b"),
    )
    .unwrap();
}

#[test]
fn as_node_is_required_when_applying_multiple_updates() {
    let (saver, app) = finished();
    fails_cleanly(
        &saver,
        T,
        "InvalidUpdateError: as_node is required when applying multiple updates",
        || {
            app.bulk_update_state(
                &thread(T),
                vec![vec![
                    upd(Some(json!({"messages": [ai("1")]})), Some("booking")),
                    upd(Some(json!({"messages": [ai("2")]})), None),
                ]],
            )
        },
    );
}

#[test]
fn node_x_does_not_exist() {
    let (saver, app) = finished();
    fails_cleanly(
        &saver,
        T,
        "InvalidUpdateError: Node missing does not exist",
        || app.update_state(&thread(T), Some(json!({"messages": []})), Some("missing")),
    );
    // END is not a node either, unless the values are None (clearing).
    fails_cleanly(
        &saver,
        T,
        "InvalidUpdateError: Node __end__ does not exist",
        || app.update_state(&thread(T), Some(json!({"messages": []})), Some(END)),
    );
}

#[test]
fn cannot_copy_a_non_existent_checkpoint() {
    let (saver, app) = finished();
    fails_cleanly(
        &saver,
        T,
        "InvalidUpdateError: Cannot copy a non-existent checkpoint",
        || {
            app.update_state(
                &at(T, "1f000000-0000-6000-8000-000000000000"),
                None,
                Some(COPY),
            )
        },
    );
    fails_cleanly(
        &saver,
        "fresh",
        "InvalidUpdateError: Cannot copy a non-existent checkpoint",
        || app.update_state(&thread("fresh"), None, Some(COPY)),
    );
    assert!(saver.export_thread("fresh").is_none());
}

#[test]
fn cannot_copy_checkpoint_with_multiple_updates() {
    let (saver, app) = finished();
    fails_cleanly(
        &saver,
        T,
        "InvalidUpdateError: Cannot copy checkpoint with multiple updates",
        || {
            app.bulk_update_state(
                &thread(T),
                vec![vec![upd(None, Some(COPY)), upd(None, Some("booking"))]],
            )
        },
    );
}

#[test]
fn cannot_apply_multiple_updates_when_clearing_state() {
    let (saver, app) = finished();
    fails_cleanly(
        &saver,
        T,
        "InvalidUpdateError: Cannot apply multiple updates when clearing state",
        || {
            app.bulk_update_state(
                &thread(T),
                vec![vec![upd(None, Some(END)), upd(None, Some("booking"))]],
            )
        },
    );
}

#[test]
fn cannot_apply_multiple_updates_when_updating_as_input() {
    let (saver, app) = finished();
    fails_cleanly(
        &saver,
        T,
        "InvalidUpdateError: Cannot apply multiple updates when updating as input",
        || {
            app.bulk_update_state(
                &thread(T),
                vec![vec![
                    upd(Some(say("a")), Some(INPUT)),
                    upd(Some(say("b")), Some(INPUT)),
                ]],
            )
        },
    );
}

#[test]
fn received_no_input_writes_for_start() {
    let (saver, app) = finished();
    fails_cleanly(
        &saver,
        T,
        "InvalidUpdateError: Received no input writes for __start__",
        || app.update_state(&thread(T), None, Some(INPUT)),
    );
}

#[test]
fn no_supersteps_and_no_updates_provided() {
    let (saver, app) = finished();
    fails_cleanly(&saver, T, "ValueError: No supersteps provided", || {
        app.bulk_update_state(&thread(T), vec![])
    });
    fails_cleanly(&saver, T, "ValueError: No updates provided", || {
        app.bulk_update_state(
            &thread(T),
            vec![vec![upd(Some(json!({})), Some("booking"))], vec![]],
        )
    });
}

#[test]
fn an_update_for_an_unknown_subgraph_namespace_names_it_without_task_ids() {
    let (saver, app) = finished();
    let mut cfg = thread(T);
    cfg.configurable
        .insert("checkpoint_ns".into(), json!("nope"));
    fails_cleanly(&saver, T, "ValueError: Subgraph nope not found", || {
        app.update_state(&cfg, Some(json!({})), Some("booking"))
    });
    cfg.configurable.insert(
        "checkpoint_ns".into(),
        json!("outer:0d784b29|inner:7f715bd3"),
    );
    fails_cleanly(
        &saver,
        T,
        "ValueError: Subgraph outer|inner not found",
        || app.update_state(&cfg, Some(json!({})), Some("booking")),
    );
}

#[test]
fn expected_dict_from_a_node_or_an_update() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("x", Reducer::LastValue)
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!(5)))
        .add_edge(START, "a");
    let app = g.compile(opts(&saver)).unwrap();
    let text = "InvalidUpdateError: Expected dict, got 5\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/INVALID_GRAPH_NODE_RETURN_VALUE";
    let err = app.invoke(json!({"x": 0}), &thread(T)).unwrap_err();
    assert_eq!(err.to_string(), text);
    let err = fails_cleanly(
        &saver,
        T,
        "InvalidUpdateError: Expected dict, got 'text'",
        || app.update_state(&thread(T), Some(json!("text")), Some("a")),
    );
    assert_eq!(
        err.to_string(),
        text.replace("got 5", "got 'text'"),
        "with the same troubleshooting line"
    );
}

// --- missing checkpointer / configuration ------------------------------------

#[test]
fn no_checkpointer_set() {
    let (app, _) = {
        let mut g = StateGraph::new();
        g.add_channel("x", Reducer::LastValue)
            .add_node("a", |_: &State, _: &NodeContext| Ok(json!({"x": 1})))
            .add_edge(START, "a");
        (g.compile(opts_without_saver()).unwrap(), ())
    };
    let cfg = thread(T);
    let errors = [
        app.get_state(&cfg).unwrap_err(),
        app.get_state_history(&cfg, &ListOptions::default())
            .unwrap_err(),
        app.update_state(&cfg, Some(json!({"x": 2})), Some("a"))
            .unwrap_err(),
        app.bulk_update_state(&cfg, vec![vec![upd(None, Some("a"))]])
            .unwrap_err(),
        app.lineage(&cfg).unwrap_err(),
    ];
    for err in errors {
        assert_eq!(err.to_string(), "ValueError: No checkpointer set");
        assert_eq!(err.code(), "MISSING_CHECKPOINTER");
    }
}

#[test]
fn cannot_use_command_resume_without_checkpointer() {
    let mut g = StateGraph::new();
    g.add_channel("x", Reducer::LastValue)
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!({"x": 1})))
        .add_edge(START, "a");
    let app = g.compile(opts_without_saver()).unwrap();
    let err = app
        .invoke(RunInput::Command(Command::resume(json!("yes"))), &thread(T))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "RuntimeError: Cannot use Command(resume=...) without checkpointer"
    );
}

#[test]
fn a_checkpointer_requires_configurable_keys() {
    let (saver, app) = finished();
    let text = "ValueError: Checkpointer requires one or more of the following 'configurable' keys: thread_id, checkpoint_ns, checkpoint_id";
    let empty = RunnableConfig::default();
    let before = saver.thread_ids();
    fails_cleanly(&saver, T, text, || app.invoke(say("x"), &empty));
    fails_cleanly(&saver, T, text, || app.get_state(&empty));
    fails_cleanly(&saver, T, text, || {
        app.get_state_history(&empty, &ListOptions::default())
    });
    fails_cleanly(&saver, T, text, || {
        app.update_state(&empty, Some(json!({})), Some("booking"))
    });
    assert_eq!(saver.thread_ids(), before);
}

#[test]
fn a_configurable_without_thread_id_is_a_key_error() {
    let (saver, app) = finished();
    let cfg = config(json!({"configurable": {"checkpoint_ns": "", "user": "u"}}));
    let before = saver.thread_ids();
    for err in [
        fails_cleanly(&saver, T, "KeyError: 'thread_id'", || {
            app.invoke(say("x"), &cfg)
        }),
        fails_cleanly(&saver, T, "KeyError: 'thread_id'", || app.get_state(&cfg)),
        fails_cleanly(&saver, T, "KeyError: 'thread_id'", || {
            app.update_state(&cfg, Some(json!({})), Some("booking"))
        }),
    ] {
        assert_eq!(err.kind(), ErrorKind::Key);
    }
    assert_eq!(saver.thread_ids(), before);
}

#[test]
fn recursion_limit_must_be_at_least_1() {
    let (saver, app) = finished();
    fails_cleanly(
        &saver,
        T,
        "ValueError: recursion_limit must be at least 1",
        || app.invoke(say("x"), &thread(T).with_recursion_limit(0)),
    );
}

// --- empty input ------------------------------------------------------------

#[test]
fn received_no_input_for_start() {
    let (saver, app) = finished();
    fails_cleanly(
        &saver,
        "fresh",
        "EmptyInputError: Received no input for __start__",
        || app.invoke(Value::Null, &thread("fresh")),
    );
    assert!(saver.export_thread("fresh").is_none());
    fails_cleanly(
        &saver,
        T,
        "EmptyInputError: Received no input for __start__",
        || app.invoke(Value::Null, &at(T, "1f000000-0000-6000-8000-000000000000")),
    );
}

#[test]
fn received_empty_command_input() {
    let (saver, app) = finished();
    let err = fails_cleanly(
        &saver,
        T,
        "EmptyInputError: Received empty Command input",
        || app.invoke(RunInput::Command(Command::default()), &thread(T)),
    );
    assert_eq!(err.kind(), ErrorKind::EmptyInput);
}

// --- errors while a superstep runs --------------------------------------------

#[test]
fn graph_recursion_error_text() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("n", Reducer::Sum)
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!({"n": 1})))
        .add_edge(START, "a")
        .add_edge("a", "a");
    let app = g.compile(opts(&saver)).unwrap();
    let err = app
        .invoke(json!({"n": 0}), &thread(T).with_recursion_limit(5))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "GraphRecursionError: Recursion limit of 5 reached without hitting a stop condition. You can increase the limit by setting the `recursion_limit` config key.\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/GRAPH_RECURSION_LIMIT"
    );
    assert_eq!(err.code(), "GRAPH_RECURSION_LIMIT");
}

#[test]
fn last_value_can_receive_only_one_value_per_step() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("last", Reducer::LastValue)
        .add_node("p", |_: &State, _: &NodeContext| Ok(json!({"last": 1})))
        .add_node("q", |_: &State, _: &NodeContext| Ok(json!({"last": 2})))
        .add_edge(START, "p")
        .add_edge(START, "q");
    let app = g.compile(opts(&saver)).unwrap();
    app.invoke(json!({"last": 0}), &thread(T)).unwrap_err();
    let before = checkpoints_only(&*saver, T);
    let err = app.invoke(Value::Null, &thread(T)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "InvalidUpdateError: At key 'last': Can receive only one value per step. Use an Annotated key to handle multiple values.\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CONCURRENT_GRAPH_UPDATE"
    );
    assert_eq!(checkpoints_only(&*saver, T), before);
    // Two updates of one LastValue key in one update superstep fail the same way.
    fails_cleanly(&saver, T, err.to_string().lines().next().unwrap(), || {
        app.bulk_update_state(
            &at(T, &id_of(&history(&app, &thread(T))[0])),
            vec![vec![
                upd(Some(json!({"last": 5})), Some("p")),
                upd(Some(json!({"last": 6})), Some("q")),
            ]],
        )
    });
}

#[test]
fn multiple_pending_interrupts_need_an_interrupt_id() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    for name in ["x", "y"] {
        g.add_node(name, |_: &State, ctx: &NodeContext| {
            let answer = ctx.interrupt(json!("?"))?;
            Ok(json!({"log": [answer]}))
        })
        .add_edge(START, name);
    }
    let app = g.compile(opts(&saver)).unwrap();
    app.invoke(json!({"log": []}), &thread(T)).unwrap();
    fails_cleanly(
        &saver,
        T,
        "RuntimeError: When there are multiple pending interrupts, you must specify the interrupt id when resuming. Docs: https://docs.langchain.com/oss/python/langgraph/interrupts#handling-multiple-interrupts.",
        || app.invoke(RunInput::Command(Command::resume(json!("v"))), &thread(T)),
    );
}

#[test]
fn a_node_error_keeps_its_name_and_writes_no_checkpoint() {
    let saver = saver();
    let (app, _) = fanout(&saver, Rc::new(Cell::new(true)));
    app.invoke(json!({"items": []}), &thread(T)).unwrap_err();
    let before = checkpoints_only(&*saver, T);
    let err = app.invoke(Value::Null, &thread(T)).unwrap_err();
    assert_eq!(err.to_string(), "ValueError: boom in c");
    assert_eq!((err.kind(), err.node()), (ErrorKind::Node, Some("c")));
    assert_eq!(checkpoints_only(&*saver, T), before);
}

#[test]
fn a_router_result_missing_from_its_path_map_is_a_key_error() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("x", Reducer::LastValue)
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!({"x": 1})))
        .add_edge(START, "a")
        .add_conditional_edges(
            "a",
            |_: &State| Ok(vec!["nowhere".to_owned()]),
            Some(BTreeMap::from([("end".to_owned(), END.to_owned())])),
        );
    let app = g.compile(opts(&saver)).unwrap();
    app.invoke(json!({"x": 0}), &thread(T)).unwrap_err();
    let before = checkpoints_only(&*saver, T);
    let err = app.invoke(Value::Null, &thread(T)).unwrap_err();
    assert_eq!(err.to_string(), "KeyError: 'nowhere'");
    assert_eq!(checkpoints_only(&*saver, T), before);
}

#[test]
fn a_bad_message_in_an_update_is_rejected_before_anything_is_stored() {
    let (saver, app) = finished();
    fails_cleanly(
        &saver,
        T,
        "ValueError: Unexpected message type: 'bogus'. Use one of 'human', 'user', 'ai', 'assistant', 'function', 'tool', 'system', or 'developer'.",
        || {
            app.update_state(
                &thread(T),
                Some(json!({"messages": [{"role": "bogus", "content": "x"}]})),
                Some("reply"),
            )
        },
    );
    fails_cleanly(
        &saver,
        T,
        "ValueError: Attempting to delete a message with an ID that doesn't exist ('nope')",
        || {
            app.update_state(
                &thread(T),
                Some(json!({"messages": [{"type": "remove", "id": "nope"}]})),
                Some("reply"),
            )
        },
    );
    fails_cleanly(
        &saver,
        T,
        "NotImplementedError: Unsupported message type: <class 'int'>",
        || app.update_state(&thread(T), Some(json!({"messages": [5]})), Some("reply")),
    );
}

#[test]
fn a_router_returning_start_is_not_a_valid_destination() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("x", Reducer::LastValue)
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!({"x": 1})))
        .add_edge(START, "a")
        .add_conditional_edges("a", |_: &State| Ok(vec![START.to_owned()]), None);
    let app = g.compile(opts(&saver)).unwrap();
    let err = app.invoke(json!({"x": 0}), &thread(T)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ValueError: Branch did not return a valid destination"
    );
    assert_eq!(step_of(&app.get_state(&thread(T)).unwrap()), 0);
}
