//! Breakpoints given to one run (`RunnableConfig::interrupt_before` /
//! `interrupt_after`, LangGraph's `interrupt_before` argument of `invoke`)
//! replace the compiled ones for that run only.

mod common;

use chronograph::{
    NodeContext, RunInput, RunnableConfig, Semantics, State, StateGraph, END, START,
};
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

/// `Semantics::command_starts_run` (LangGraph.js): a `Command` with a
/// `goto` (or an `update`) starts a run on a new thread; without it the
/// run is LangGraph's `EmptyInputError`.
#[test]
fn a_command_can_start_a_new_threads_run_when_the_graph_allows_it() {
    let command = || {
        RunInput::Command(chronograph::Command {
            goto: vec![chronograph::Goto::Node("b".into())],
            update: Some(json!({ "log": ["start"] })),
            ..Default::default()
        })
    };
    let s = saver();
    let app = chain()
        .compile(chronograph::CompileOptions {
            semantics: Semantics {
                command_starts_run: true,
                ..Semantics::langgraph()
            },
            ..opts(&s)
        })
        .unwrap();
    let out = app.invoke(command(), &thread("new")).unwrap();
    assert_eq!(out.values.to_json(), json!({ "log": ["start", "b", "c"] }));
    let sources: Vec<&str> = history(&app, &thread("new"))
        .iter()
        .rev()
        .map(source_of)
        .collect();
    assert_eq!(sources, ["input", "loop", "loop"]);

    let python = chain().compile(opts(&saver())).unwrap();
    let err = python.invoke(command(), &thread("new")).unwrap_err();
    assert_eq!(err.kind(), chronograph::ErrorKind::EmptyInput);
}

/// `Semantics::command_starts_run` (LangGraph.js) on a thread with
/// values: a `Command` without `resume` starts a run from an `input`
/// checkpoint holding its writes; LangGraph resumes the thread instead
/// (no new checkpoint before the superstep).
#[test]
fn a_command_without_resume_on_a_finished_thread_starts_from_an_input_checkpoint() {
    let goto_b = || {
        RunInput::Command(chronograph::Command {
            goto: vec![chronograph::Goto::Node("b".into())],
            ..Default::default()
        })
    };
    let sources_after =
        |options: fn(chronograph::CompileOptions) -> chronograph::CompileOptions| {
            let s = saver();
            let app = chain().compile(options(opts(&s))).unwrap();
            let cfg = thread("t");
            app.invoke(json!({ "log": [] }), &cfg).unwrap();
            let before = history(&app, &cfg).len();
            app.invoke(goto_b(), &cfg).unwrap();
            let h = history(&app, &cfg);
            h[..h.len() - before]
                .iter()
                .rev()
                .map(source_of)
                .collect::<Vec<_>>()
        };
    let js = sources_after(|o| chronograph::CompileOptions {
        semantics: Semantics {
            command_starts_run: true,
            ..Semantics::langgraph()
        },
        ..o
    });
    assert_eq!(js, ["input", "loop", "loop"]);
    assert_eq!(sources_after(|o| o), ["loop", "loop"]);
}
