//! Channel defaults (LangGraph.js's `Annotation({ reducer, default })` and
//! zod `.default()`): a channel with a declared initial value holds it
//! whenever a checkpoint has none, so the first checkpoint, every state a
//! node reads, the result and the history show it; a reducer folds the
//! first write into it; and channels without one behave as before.

mod common;

use chronograph::{NodeContext, Reducer, RunInput, State, StateGraph, END, START};
use common::*;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;

fn graph_with_defaults(seen: Rc<RefCell<Vec<Value>>>) -> StateGraph {
    let mut g = StateGraph::new();
    g.add_channel("question", Reducer::LastValue)
        .add_channel("items", Reducer::Append)
        .set_channel_default("items", json!([]))
        .add_channel("mode", Reducer::LastValue)
        .set_channel_default("mode", json!("draft"))
        .add_node("collect", move |s: &State, _: &NodeContext| {
            seen.borrow_mut().push(s.to_json());
            Ok(json!({ "items": ["x"] }))
        })
        .add_edge(START, "collect")
        .add_edge("collect", END);
    g
}

#[test]
fn defaults_are_in_the_first_checkpoint_the_nodes_state_and_the_result() {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = saver();
    let app = graph_with_defaults(seen.clone()).compile(opts(&s)).unwrap();
    let cfg = thread("t");
    let out = app
        .invoke(RunInput::Values(json!({ "question": "q" })), &cfg)
        .unwrap();
    assert_eq!(
        out.values.to_json(),
        json!({ "question": "q", "items": ["x"], "mode": "draft" })
    );
    assert_eq!(
        seen.borrow().as_slice(),
        &[json!({ "question": "q", "items": [], "mode": "draft" })]
    );
    let history = history(&app, &cfg);
    let input = history.last().unwrap();
    assert_eq!(step_of(input), -1);
    // The input is still a pending write of `__start__`; the defaults are already there.
    assert_eq!(
        input.values.to_json(),
        json!({ "items": [], "mode": "draft" })
    );
}

#[test]
fn a_default_does_not_version_its_channel_or_shadow_a_written_value() {
    let s = saver();
    let app = graph_with_defaults(Rc::default())
        .compile(opts(&s))
        .unwrap();
    let cfg = thread("t");
    app.invoke(RunInput::Values(json!({ "mode": "final" })), &cfg)
        .unwrap();
    let state = app.get_state(&cfg).unwrap();
    assert_eq!(state.values.to_json()["mode"], json!("final"));
    let tuple = chronograph::CheckpointSaver::get_tuple(&*s, &app_config(&state))
        .unwrap()
        .unwrap();
    assert!(tuple.checkpoint.channel_versions.contains_key("items"));
    let first = history(&app, &cfg).pop().unwrap();
    let first = chronograph::CheckpointSaver::get_tuple(&*s, &app_config(&first))
        .unwrap()
        .unwrap();
    assert!(!first.checkpoint.channel_versions.contains_key("items"));
    assert!(!first.checkpoint.channel_versions.contains_key("mode"));
}

#[test]
fn update_state_and_runs_without_a_checkpointer_see_defaults() {
    let app = graph_with_defaults(Rc::default())
        .compile(opts_without_saver())
        .unwrap();
    let out = app
        .invoke(RunInput::Values(json!({})), &thread("x"))
        .unwrap();
    assert_eq!(
        out.values.to_json(),
        json!({ "items": ["x"], "mode": "draft" })
    );

    let s = saver();
    let app = graph_with_defaults(Rc::default())
        .compile(opts(&s))
        .unwrap();
    let cfg = thread("u");
    app.update_state(&cfg, Some(json!({ "question": "q" })), Some("collect"))
        .unwrap();
    let state = app.get_state(&cfg).unwrap();
    assert_eq!(
        state.values.to_json(),
        json!({ "question": "q", "items": [], "mode": "draft" })
    );
}

fn app_config(s: &chronograph::StateSnapshot) -> chronograph::CheckpointConfig {
    s.config.clone()
}
