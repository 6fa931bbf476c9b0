//! `Semantics::copy_on_save` (LangGraph.js's saver): a checkpoint is
//! stored as it is when saved, so a join's seen-set in a stored checkpoint
//! never shows names written after it (LangGraph's late serialization,
//! replayed by default, can).

mod common;

use chronograph::{NodeContext, Reducer, RunInput, Semantics, State, StateGraph, END, START};
use common::*;
use serde_json::json;

#[test]
fn a_stored_join_set_is_the_one_live_when_its_checkpoint_was_saved() {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    for name in ["a", "b", "c", "b2", "d"] {
        g.add_node(name, move |_: &State, _: &NodeContext| {
            Ok(json!({ "log": [name] }))
        });
    }
    g.add_edge(START, "a")
        .add_edge("a", "b")
        .add_edge("a", "c")
        .add_edge("b", "b2")
        .add_edge(["b2", "c"], "d")
        .add_edge("d", END);
    let s = saver();
    let app = g
        .compile(chronograph::CompileOptions {
            semantics: Semantics {
                copy_on_save: true,
                ..Semantics::langgraph()
            },
            ..opts(&s)
        })
        .unwrap();
    let cfg = thread("t");
    app.invoke(RunInput::Values(json!({ "log": [] })), &cfg)
        .unwrap();
    let nexts: Vec<Vec<String>> = history(&app, &cfg)
        .into_iter()
        .rev()
        .map(|s| s.next)
        .collect();
    // input, a, (b, c), b2, d, end: d waits for b2 in the stored checkpoint too.
    assert_eq!(
        nexts,
        vec![
            vec!["__start__".to_owned()],
            vec!["a".to_owned()],
            vec!["b".to_owned(), "c".to_owned()],
            vec!["b2".to_owned()],
            vec!["d".to_owned()],
            vec![],
        ]
    );
}
