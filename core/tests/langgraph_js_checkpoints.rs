//! Checkpoints as LangGraph.js's savers hold them, for the JS bindings'
//! `MemorySaver` (core/wasm/src/tuple.rs): version maps in the order their
//! keys were first set, values listed by the graph's [`ValueLayout`]
//! (`Semantics::value_layout`: defaults never written and the empty
//! `__pregel_tasks` included), and checkpoints put from outside with
//! LangGraph.js's integer versions ([`GivenCheckpoint`]).

mod common;

use chronograph::{
    Command, CompileOptions, GivenCheckpoint, GivenVersion, InMemorySaver, ListOptions, ListTarget,
    Name, NodeContext, Reducer, RunInput, Semantics, State, StateGraph, VecMap, VersionScheme, END,
    START,
};
use common::*;
use serde_json::{json, Value};
use std::rc::Rc;

/// `START -> a -> b -> END` with a reducer default (`n`), a message list
/// and a last value; `b` asks before it writes.
fn graph(saver: &Rc<InMemorySaver>) -> chronograph::CompiledGraph {
    let mut g = StateGraph::new();
    g.add_channel("s", Reducer::LastValue)
        .add_channel("n", Reducer::Sum)
        .set_channel_default("n", json!(0))
        .add_channel("messages", Reducer::AddMessages)
        .add_node("a", |_: &State, _: &NodeContext| {
            Ok(json!({"s": "a", "messages": [ai("hi")]}))
        })
        .add_node("b", |_: &State, ctx: &NodeContext| {
            let answer = ctx.interrupt(json!("ok?"))?;
            Ok(json!({"s": answer}))
        })
        .add_edge(START, "a")
        .add_edge("a", "b")
        .add_edge("b", END);
    g.compile(CompileOptions {
        semantics: Semantics {
            value_layout: true,
            ..Semantics::langgraph()
        },
        ..opts(saver)
    })
    .unwrap()
}

/// Each stored checkpoint of the root namespace, newest first: `(listed
/// value names, channel_versions keys, versions_seen keys)`.
fn listed(saver: &InMemorySaver, thread_id: &str) -> Vec<(Vec<String>, Vec<String>, Vec<String>)> {
    let mut out = Vec::new();
    let target = ListTarget {
        thread_id: Some(thread_id.into()),
        checkpoint_ns: Some(String::new()),
        checkpoint_id: None,
    };
    saver.visit(&target, &ListOptions::default(), &mut |view| {
        let names = |keys: &mut dyn Iterator<Item = &Name>| keys.map(|k| k.to_string()).collect();
        let c = view.checkpoint();
        out.push((
            names(&mut view.channel_values_listed().iter().map(|(k, _)| k)),
            names(&mut c.channel_versions.keys()),
            names(&mut c.versions_seen.keys()),
        ));
    });
    out
}

fn strings(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

#[test]
fn values_are_listed_in_the_graphs_channel_order_with_its_defaults_and_the_empty_task_list() {
    let s = saver();
    let app = graph(&s);
    app.invoke(RunInput::Values(json!({"s": "in"})), &thread("t"))
        .unwrap();
    let rows = listed(&s, "t");
    // Step -1, the input: only `__start__` has a version; `n`'s default and the task list show.
    assert_eq!(rows[2].0, strings(&["n", "__start__", "__pregel_tasks"]));
    assert_eq!(rows[2].1, strings(&["__start__"]));
    // Step 1, `b` pending: state keys in declaration order, then the trigger of `b`.
    assert_eq!(
        rows[0].0,
        strings(&["s", "n", "messages", "__pregel_tasks", "branch:to:b"])
    );
    let layout = app_layout(&s, "t");
    assert_eq!(layout.messages, [Name::from("messages")]);
}

/// The layout of the thread's newest checkpoint.
fn app_layout(saver: &InMemorySaver, thread_id: &str) -> chronograph::ValueLayout {
    let mut layout = None;
    let options = ListOptions {
        limit: Some(1),
        ..Default::default()
    };
    saver.visit(&ListTarget::thread(thread_id), &options, &mut |view| {
        layout = view.layout().cloned();
    });
    layout.expect("a layout")
}

#[test]
fn version_maps_list_their_keys_in_the_order_they_were_first_set() {
    let s = saver();
    let app = graph(&s);
    let cfg = thread("t");
    app.invoke(RunInput::Values(json!({"s": "in"})), &cfg)
        .unwrap();
    let rows = listed(&s, "t");
    // `__start__` at the input, then what the `__start__` task wrote (`s`, then the edge to
    // `a`), then `a`'s writes in write order and the edge to `b`: as LangGraph.js's objects.
    assert_eq!(
        rows[0].1,
        strings(&["__start__", "s", "branch:to:a", "messages", "branch:to:b"])
    );
    assert_eq!(rows[0].2, strings(&["__input__", "__start__", "a"]));
    // A resume: `versions_seen.__interrupt__` lists the graph's channels in its order.
    app.invoke(RunInput::Command(Command::resume(json!("yes"))), &cfg)
        .unwrap();
    let mut seen = Vec::new();
    let options = ListOptions {
        limit: Some(1),
        ..Default::default()
    };
    s.visit(&ListTarget::thread("t"), &options, &mut |view| {
        let c = view.checkpoint();
        seen = c.versions_seen["__interrupt__"]
            .keys()
            .map(|k| k.to_string())
            .collect();
    });
    assert_eq!(
        seen,
        strings(&["s", "messages", "__start__", "branch:to:a", "branch:to:b"])
    );
}

#[test]
fn a_checkpoint_put_with_integer_versions_reads_back_as_it_was_put() {
    let s = Rc::new(InMemorySaver::with_version_scheme(VersionScheme::Integer));
    assert_eq!(s.version_scheme(), VersionScheme::Integer);
    let put = |id: &str, parent: Option<&str>, values: Value, versions: Value, new: Value| {
        let checkpoint: GivenCheckpoint = serde_json::from_value(json!({
            "v": 4, "id": id, "ts": "2026-01-01T00:00:00.000Z",
            "channel_values": values, "channel_versions": versions, "versions_seen": {},
        }))
        .unwrap();
        let new: VecMap<Name, GivenVersion> = serde_json::from_value(new).unwrap();
        let config = chronograph::CheckpointConfig {
            thread_id: "t".into(),
            checkpoint_ns: String::new(),
            checkpoint_id: parent.map(str::to_owned),
        };
        s.put_given(
            &config,
            checkpoint,
            chronograph::CheckpointMetadata::new(chronograph::Source::Loop, 0),
            new,
        )
        .unwrap();
    };
    put(
        "1",
        None,
        json!({"z": 1, "a": "x", "free": [true]}),
        json!({"a": 1, "z": 1}),
        json!({}),
    );
    // Under its parent, `a` unchanged at version 1, `z` changed at version 1 (not in newVersions).
    put(
        "2",
        Some("1"),
        json!({"a": "x", "z": 2}),
        json!({"a": 1, "z": 1}),
        json!({}),
    );
    let tuple = |id: &str| {
        let mut out = None;
        let target = ListTarget {
            thread_id: Some("t".into()),
            checkpoint_ns: Some(String::new()),
            checkpoint_id: Some(id.into()),
        };
        s.visit(&target, &ListOptions::default(), &mut |view| {
            let values: Vec<(String, Value)> = view
                .channel_values_listed()
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_json()))
                .collect();
            let c = view.checkpoint();
            out = Some((values, c.channel_versions.clone()));
        });
        out.unwrap()
    };
    let (values, _) = tuple("1");
    assert_eq!(
        values,
        [
            ("z".into(), json!(1)),
            ("a".into(), json!("x")),
            ("free".into(), json!([true]))
        ]
    );
    let (values, versions) = tuple("2");
    assert_eq!(values, [("a".into(), json!("x")), ("z".into(), json!(2))]);
    let (_, parent_versions) = tuple("1");
    assert_eq!(
        versions["a"], parent_versions["a"],
        "the same value shares its version"
    );
    assert_ne!(
        versions["z"], parent_versions["z"],
        "another value has one of its own"
    );
    assert_eq!(versions["z"].counter, 1, "with the counter it was given");
}
