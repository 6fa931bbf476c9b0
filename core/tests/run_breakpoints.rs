//! Breakpoints given to one run (`RunnableConfig::interrupt_before` /
//! `interrupt_after`, LangGraph's `interrupt_before` argument of `invoke`)
//! replace the compiled ones for that run only.

mod common;

use chronograph::{NodeContext, RunInput, RunnableConfig, State, StateGraph, END, START};
use common::*;
use serde_json::json;

fn chain() -> StateGraph {
    let mut g = StateGraph::new();
    g.add_channel("log", chronograph::Reducer::Append);
    for name in ["a", "b", "c"] {
        g.add_node(name, move |_: &State, _: &NodeContext| {
            Ok(json!({ "log": [name] }))
        });
    }
    g.add_edge(START, "a")
        .add_edge("a", "b")
        .add_edge("b", "c")
        .add_edge("c", END);
    g
}

#[test]
fn a_runs_breakpoints_replace_the_compiled_ones_for_that_run() {
    let s = saver();
    let app = chain().compile(opts(&s)).unwrap();
    let cfg = RunnableConfig {
        interrupt_before: Some(vec!["b".into()]),
        ..thread("t")
    };
    let out = app
        .invoke(RunInput::Values(json!({ "log": [] })), &cfg)
        .unwrap();
    assert!(out.paused);
    assert_eq!(out.values.to_json(), json!({ "log": ["a"] }));
    assert_eq!(
        app.get_state(&thread("t")).unwrap().next,
        vec!["b".to_owned()]
    );
    // The next run has none of its own: it runs to the end.
    let out = app.invoke(RunInput::None, &thread("t")).unwrap();
    assert!(!out.paused);
    assert_eq!(out.values.to_json(), json!({ "log": ["a", "b", "c"] }));

    let cfg = RunnableConfig {
        interrupt_after: Some(vec!["a".into()]),
        ..thread("u")
    };
    let out = app
        .invoke(RunInput::Values(json!({ "log": [] })), &cfg)
        .unwrap();
    assert!(out.paused);
    assert_eq!(
        app.get_state(&thread("u")).unwrap().next,
        vec!["b".to_owned()]
    );
}
