//! What a run reports as it goes (LangGraph's `_loop.py` `tick` and
//! `after_tick`): the `checkpoints` event at the start of each superstep,
//! with the tasks it runs; a `values` event only after a superstep that
//! wrote a state key; and the order of a superstep's tasks, which decides
//! whose interrupts come first.

mod common;

use chronograph::{
    Command, NodeContext, Reducer, RunInput, State, StateGraph, StreamEvent, END, START,
};
use common::*;
use serde_json::{json, Value};

/// `START -> a -> b -> END`, where `b` writes nothing.
fn writes_then_nothing() -> StateGraph {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    g.add_node("a", |_: &State, _: &NodeContext| {
        Ok(json!({ "log": ["a"] }))
    });
    g.add_node("b", |_: &State, _: &NodeContext| Ok(json!({})));
    g.add_edge(START, "a").add_edge("a", "b").add_edge("b", END);
    g
}

fn kinds(events: &[StreamEvent]) -> Vec<String> {
    events
        .iter()
        .map(|e| match e {
            StreamEvent::Values(_) => "values".to_owned(),
            StreamEvent::Updates { node, .. } => format!("update:{node}"),
            StreamEvent::Checkpoint { metadata, .. } => format!("checkpoint:{}", metadata.step),
            StreamEvent::Task { name, .. } => format!("task:{name}"),
            StreamEvent::TaskResult { name, .. } => format!("result:{name}"),
            StreamEvent::Interrupted(_) => "interrupted".to_owned(),
            StreamEvent::CachedUpdates { node, .. } => format!("cached:{node}"),
            StreamEvent::CheckpointMeta { step, .. } => format!("meta:{step}"),
            StreamEvent::Custom(_) => "custom".to_owned(),
        })
        .collect()
}

#[test]
fn a_superstep_that_writes_no_state_key_emits_no_values_event() {
    let app = writes_then_nothing().compile(opts_without_saver()).unwrap();
    let (events, out) = app.stream(json!({ "log": ["in"] }), &thread("t")).unwrap();
    let values: Vec<&Value> = events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Values(v) => Some(v),
            _ => None,
        })
        .collect();
    // After __start__ (wrote log) and after a; none after b.
    assert_eq!(
        values,
        [&json!({ "log": ["in"] }), &json!({ "log": ["in", "a"] })]
    );
    assert_eq!(out.values.to_json(), json!({ "log": ["in", "a"] }));
}

#[test]
fn the_checkpoints_event_comes_when_a_superstep_starts_from_the_checkpoint() {
    let saver = saver();
    let app = writes_then_nothing().compile(opts(&saver)).unwrap();
    let (events, _) = app.stream(json!({ "log": [] }), &thread("t")).unwrap();
    assert_eq!(
        kinds(&events),
        [
            "checkpoint:-1",
            "task:__start__",
            "update:__start__",
            "result:__start__",
            "meta:0",
            "values",
            "checkpoint:0",
            "task:a",
            "update:a",
            "result:a",
            "meta:1",
            "values",
            "checkpoint:1",
            "task:b",
            "update:b",
            "result:b",
            // b wrote nothing: no values; the last checkpoint is reported
            // by the tick that finds nothing to run.
            "checkpoint:2",
        ]
    );
    let StreamEvent::Checkpoint { next, tasks, .. } = &events[6] else {
        unreachable!()
    };
    assert_eq!(next, &["a"]);
    assert_eq!(tasks[0].name, "a");
    assert_eq!(tasks[0].result, None);
}

#[test]
fn a_graph_without_a_checkpointer_reports_no_checkpoints() {
    let app = writes_then_nothing().compile(opts_without_saver()).unwrap();
    let (events, _) = app.stream(json!({ "log": [] }), &thread("t")).unwrap();
    assert!(!kinds(&events).iter().any(|k| k.starts_with("checkpoint")));
    // What checkpoint each state is, still (the run's own, with no parent: none is stored).
    let metas: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::CheckpointMeta {
                parent_id,
                step,
                source,
                ..
            } => Some((parent_id.clone(), *step, source.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(metas, [(None, 0, "loop"), (None, 1, "loop")]);
}

/// `START -> ask -> END`, `ask` interrupts.
fn asker() -> StateGraph {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    g.add_node("ask", |_: &State, ctx: &NodeContext| {
        let answer = ctx.interrupt(json!("question"))?;
        Ok(json!({ "log": [answer] }))
    });
    g.add_edge(START, "ask").add_edge("ask", END);
    g
}

#[test]
fn a_resumed_run_first_reports_the_checkpoint_it_resumes_with_its_interrupts() {
    let saver = saver();
    let app = asker().compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    app.invoke(json!({ "log": [] }), &cfg).unwrap();
    let (events, _) = app
        .stream(RunInput::Command(Command::resume(json!("yes"))), &cfg)
        .unwrap();
    // What the resumed state's checkpoint is, the state ("values"), then the
    // checkpoint event of the first superstep.
    assert_eq!(kinds(&events)[..3], ["meta:0", "values", "checkpoint:0"]);
    let StreamEvent::Checkpoint {
        metadata,
        tasks,
        parent_in_run,
        ..
    } = &events[2]
    else {
        unreachable!()
    };
    assert_eq!(metadata.step, 0);
    assert_eq!(tasks[0].interrupts[0].value, json!("question"));
    // Its parent is the checkpoint before it, which this run did not see.
    assert!(!parent_in_run);
    let StreamEvent::Checkpoint { parent_in_run, .. } = events.last().unwrap() else {
        panic!("last event: {:?}", kinds(&events))
    };
    assert!(parent_in_run);
}

#[test]
fn triggered_nodes_run_in_name_order_so_their_interrupts_come_in_that_order() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    // Registered "z" first: the loop still takes "a" first (LangGraph sorts
    // the nodes its updated channels trigger); the snapshot keeps
    // registration order.
    for name in ["z", "a"] {
        g.add_node(name, move |_: &State, ctx: &NodeContext| {
            let answer = ctx.interrupt(json!(format!("{name}?")))?;
            Ok(json!({ "log": [answer] }))
        })
        .add_edge(START, name);
    }
    let app = g.compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    let out = app.invoke(json!({ "log": [] }), &cfg).unwrap();
    let asked: Vec<&Value> = out.interrupts.iter().map(|i| &i.value).collect();
    assert_eq!(asked, [&json!("a?"), &json!("z?")]);
    assert_eq!(app.get_state(&cfg).unwrap().next, ["z", "a"]);
}

#[test]
fn a_subgraphs_breakpoint_is_reported_by_the_root_only() {
    let mut inner = StateGraph::new();
    inner.add_channel("log", Reducer::Append);
    for name in ["i1", "i2"] {
        inner.add_node(name, move |_: &State, _: &NodeContext| {
            Ok(json!({ "log": [name] }))
        });
    }
    inner.add_edge(START, "i1").add_edge("i1", "i2");
    let inner = inner
        .compile(chronograph::CompileOptions {
            interrupt_before: vec!["i2".into()],
            ..opts_without_saver()
        })
        .unwrap();
    let mut outer = StateGraph::new();
    outer.add_channel("log", Reducer::Append);
    outer.add_subgraph("inner", inner).add_edge(START, "inner");
    let saver = saver();
    let app = outer.compile(opts(&saver)).unwrap();
    let (events, out) = app
        .stream_subgraphs(json!({ "log": [] }), &thread("t"))
        .unwrap();
    assert!(out.paused);
    let pauses: Vec<&str> = events
        .iter()
        .filter(|(_, e)| matches!(e, StreamEvent::Interrupted(_)))
        .map(|(ns, _)| ns.as_str())
        .collect();
    assert_eq!(pauses, [""]);
}
