//! `Semantics::js_undefined`: the value that stands for JavaScript's
//! `undefined` (the JS bindings' `{"lc": 2, "type": "undefined"}`), with
//! LangGraph.js's channel rules. A last-value channel holds it while the
//! run goes on and has no value once a checkpoint is restored (then its
//! default, if any); a reducer channel holding it is empty, its next write
//! is taken as is, and it stays empty when restored. Without the option,
//! the value is a value like any other.

mod common;

use chronograph::{
    Command, CompileOptions, CustomReducer, Goto, NodeContext, Reducer, RunInput, Semantics, State,
    StateGraph, END, START,
};
use common::*;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;

fn undefined() -> Value {
    json!({"lc": 2, "type": "undefined"})
}

fn js(saver: &Rc<chronograph::InMemorySaver>) -> CompileOptions {
    CompileOptions {
        semantics: Semantics {
            js_undefined: Some(undefined()),
            ..Semantics::langgraph()
        },
        ..opts(saver)
    }
}

/// `a` (last value), `d` (last value, default "d"), `r` (a reducer that
/// keeps the last write, default "r0"); `set` writes them, `wipe` writes
/// `undefined` to each; every node records the state it read.
fn graph(seen: Rc<RefCell<Vec<Value>>>) -> StateGraph {
    let mut g = StateGraph::new();
    let last = CustomReducer::new(|_, v| Ok(chronograph::ChannelValue::from_json(v)))
        .with_default(|| json!("r0"));
    g.add_channel("a", Reducer::LastValue)
        .add_channel("d", Reducer::LastValue)
        .set_channel_default("d", json!("d"))
        .add_channel("r", Reducer::Custom(last));
    let (s1, s2) = (seen.clone(), seen);
    g.add_node("set", move |s: &State, _: &NodeContext| {
        s1.borrow_mut().push(s.to_json());
        Ok(json!({"a": 1, "d": 2, "r": 3}))
    })
    .add_node("wipe", move |s: &State, _: &NodeContext| {
        s2.borrow_mut().push(s.to_json());
        Ok(json!({"a": undefined(), "d": undefined(), "r": undefined()}))
    })
    .add_edge(START, "set")
    .add_edge("set", "wipe")
    .add_edge("wipe", END);
    g
}

#[test]
fn a_last_value_channel_holds_undefined_in_the_run_and_has_no_value_once_restored() {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = saver();
    let app = graph(seen.clone()).compile(js(&s)).unwrap();
    let cfg = thread("t");
    let out = app.invoke(RunInput::Values(json!({})), &cfg).unwrap();
    // The run's result has `undefined` in the last-value channels; the
    // reducer channel whose reducer returned `undefined` is empty.
    assert_eq!(
        out.values.to_json(),
        json!({"a": undefined(), "d": undefined()})
    );
    // Restored: no value, the default where there is one; the reducer channel stays empty.
    assert_eq!(
        app.get_state(&cfg).unwrap().values.to_json(),
        json!({"d": "d"})
    );
    // The next run starts from the restored channels.
    seen.borrow_mut().clear();
    app.invoke(RunInput::Values(json!({})), &cfg).unwrap();
    assert_eq!(seen.borrow()[0], json!({"d": "d"}));
}

#[test]
fn a_reducer_channel_holding_undefined_takes_its_next_write_as_is() {
    let calls = Rc::new(RefCell::new(Vec::new()));
    let log = calls.clone();
    let keep = CustomReducer::new(move |cur, v| {
        log.borrow_mut().push((cur.map(|c| c.to_json()), v.clone()));
        Ok(chronograph::ChannelValue::from_json(v))
    })
    .with_default(|| json!("start"));
    let mut g = StateGraph::new();
    g.add_channel("r", Reducer::Custom(keep));
    g.add_node("n", |_: &State, _: &NodeContext| Ok(json!({})))
        .add_edge(START, "n")
        .add_edge("n", END);
    let s = saver();
    let app = g.compile(js(&s)).unwrap();
    let cfg = thread("t");
    app.invoke(RunInput::Values(json!({"r": undefined()})), &cfg)
        .unwrap();
    assert_eq!(app.get_state(&cfg).unwrap().values.to_json(), json!({}));
    app.update_state(&cfg, Some(json!({"r": "x"})), None)
        .unwrap();
    assert_eq!(
        app.get_state(&cfg).unwrap().values.to_json(),
        json!({"r": "x"})
    );
    // The default went in first; after `undefined` the channel is empty
    // again: the reducer gets no current value (the JS bindings' reducers
    // then take the write as is), not the default.
    assert_eq!(
        calls.borrow().as_slice(),
        &[(Some(json!("start")), undefined()), (None, json!("x"))]
    );
}

#[test]
fn a_command_update_writes_undefined_as_any_value() {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = saver();
    // A Command starts a run as in LangGraph.js.
    let js = js(&s);
    let options = CompileOptions {
        semantics: Semantics {
            command_starts_run: true,
            ..js.semantics.clone()
        },
        ..js
    };
    let app = graph(seen.clone()).compile(options).unwrap();
    let command = Command::goto(
        Some(json!({"a": undefined()})),
        vec![Goto::Node("set".into())],
    );
    app.invoke(RunInput::Command(command), &thread("c"))
        .unwrap();
    assert_eq!(seen.borrow()[0], json!({"a": undefined(), "d": "d"}));
}

#[test]
fn without_the_option_undefined_is_a_value_like_any_other() {
    let s = saver();
    let app = graph(Rc::default()).compile(opts(&s)).unwrap();
    let cfg = thread("t");
    app.invoke(RunInput::Values(json!({})), &cfg).unwrap();
    assert_eq!(
        app.get_state(&cfg).unwrap().values.to_json(),
        json!({"a": undefined(), "d": undefined(), "r": undefined()})
    );
}
