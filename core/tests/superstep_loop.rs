//! Spec §4 (the superstep loop), §1.4–1.6 (versions, versions_seen, how a
//! graph compiles into channels) and §10 (conditional edges, Command input):
//! input and loop checkpoints, shared checkpoints for parallel nodes,
//! deterministic write order, joins, step numbering across invokes.

mod common;

use chronograph::{
    Branch, CheckpointSaver, Command, CompileOptions, ListTarget, NodeContext, NodeFuture, Reducer,
    RouterFn, RunInput, State, StateGraph, StreamEvent, END, NULL_TASK_ID, START,
};
use common::*;
use serde_json::{json, Value};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

/// A future that is pending `n` times before it completes.
struct YieldTimes(u32);

impl Future for YieldTimes {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 == 0 {
            return Poll::Ready(());
        }
        self.0 -= 1;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[test]
fn a_fresh_run_writes_an_input_checkpoint_then_one_checkpoint_per_superstep() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = thread("t");
    app.invoke(say("hi"), &cfg).unwrap();
    assert_eq!(
        steps(&app, &cfg),
        [
            row(2, "loop", &[]),
            row(1, "loop", &["reply"]),
            row(0, "loop", &["booking"]),
            row(-1, "input", &["__start__"]),
        ]
    );
    let h = history(&app, &cfg);
    for pair in h.windows(2) {
        assert_eq!(parent_of(&pair[0]), Some(id_of(&pair[1])));
    }
    assert_eq!(
        h[3].parent_config, None,
        "the first input checkpoint is a root"
    );
}

#[test]
fn step_numbers_continue_across_invokes_and_new_input_hangs_under_the_previous_tip() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = thread("t");
    app.invoke(say("hi 1"), &cfg).unwrap();
    let tip = id_of(&app.get_state(&cfg).unwrap());
    app.invoke(say("hi 2"), &cfg).unwrap();
    let h = history(&app, &cfg);
    assert_eq!(
        h.iter()
            .take(4)
            .map(|s| (step_of(s), source_of(s)))
            .collect::<Vec<_>>(),
        [(6, "loop"), (5, "loop"), (4, "loop"), (3, "input")]
    );
    assert_eq!(parent_of(&h[3]), Some(tip));
}

#[test]
fn parallel_nodes_of_one_superstep_share_one_checkpoint() {
    let saver = saver();
    let (app, calls) = fanout(&saver, Rc::new(Cell::new(false)));
    let cfg = thread("t");
    let out = app.invoke(json!({"items": ["start"]}), &cfg).unwrap();
    assert_eq!(
        strings(&out.values.to_json()["items"]),
        ["start", "a", "b", "c", "d"]
    );
    let mut ran = calls.take();
    ran[1..3].sort();
    assert_eq!(ran, ["a", "b", "c", "d"]);
    assert_eq!(
        steps(&app, &cfg),
        [
            row(3, "loop", &[]),
            row(2, "loop", &["d"]),
            row(1, "loop", &["b", "c"]),
            row(0, "loop", &["a"]),
            row(-1, "input", &["__start__"]),
        ]
    );
}

#[test]
fn a_join_waits_for_every_source_even_when_they_finish_in_different_steps() {
    // a -> b -> b2, a -> c; join [b2, c] -> d: c finishes a step before b2.
    let saver = saver();
    let calls = Calls::default();
    let mut g = StateGraph::new();
    g.add_channel("items", Reducer::Append)
        .add_node("a", appender(&calls, "a"))
        .add_node("b", appender(&calls, "b"))
        .add_node("b2", appender(&calls, "b2"))
        .add_node("c", appender(&calls, "c"))
        .add_node("d", appender(&calls, "d"))
        .add_edge(START, "a")
        .add_edge("a", "b")
        .add_edge("a", "c")
        .add_edge("b", "b2")
        .add_edge(["b2", "c"], "d")
        .add_edge("d", END);
    let app = g.compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    let out = app.invoke(json!({"items": []}), &cfg).unwrap();
    assert_eq!(
        strings(&out.values.to_json()["items"]),
        ["a", "b", "c", "b2", "d"]
    );
    assert_eq!(calls.take().iter().filter(|n| *n == "d").count(), 1);
    assert_eq!(
        steps(&app, &cfg)
            .into_iter()
            .map(|(_, _, next)| next)
            .collect::<Vec<_>>(),
        [
            vec![],
            vec!["d".to_owned()],
            // As LangGraph stores it: the step-2 checkpoint's join set is
            // saved after step 3 added b2 (pregel/thread_pool_saves.rs), so `d` shows
            // as next there too (regressions/join_set_saved_late).
            vec!["b2".to_owned(), "d".to_owned()],
            vec!["b".to_owned(), "c".to_owned()],
            vec!["a".to_owned()],
            vec!["__start__".to_owned()],
        ]
    );
    // The barrier keeps its (now empty) seen-set once it has been consumed.
    let last = latest(&*saver, "t").checkpoint;
    assert_eq!(last.channel_values["join:b2+c:d"].to_json(), json!([]));
}

#[test]
fn writes_are_applied_in_task_path_order_not_completion_order() {
    // `a` is slow, `zz_b` and `c` finish at once; the reducer still sees a, c, zz_b.
    let saver = saver();
    let finished = Calls::default();
    let order = Calls::default();
    let mut g = StateGraph::new();
    let seen = order.clone();
    g.add_channel(
        "log",
        Reducer::Custom(
            chronograph::CustomReducer::new(move |cur, v| {
                seen.push(v.as_str().unwrap_or_default());
                let mut list = cur.map(|c| c.to_json()).unwrap_or(json!([]));
                list.as_array_mut().unwrap().push(v);
                Ok(chronograph::ChannelValue::from_json(list))
            })
            .with_default(|| json!([])),
        ),
    );
    for (name, delay) in [("zz_b", 0u32), ("a", 3), ("c", 0)] {
        let done = finished.clone();
        g.add_async_node(name, move |_: State, _: NodeContext| -> NodeFuture {
            let done = done.clone();
            Box::pin(async move {
                YieldTimes(delay).await;
                done.push(name);
                Ok(json!({"log": name}))
            })
        });
        g.add_edge(START, name);
    }
    let app = g.compile(opts(&saver)).unwrap();
    let out = app.invoke(json!({"log": "input"}), &thread("t")).unwrap();
    // They start in name order (the nodes the updated channels trigger, sorted).
    assert_eq!(finished.take(), ["c", "zz_b", "a"], "completion order");
    order.take(); // the input's own write
    assert_eq!(
        strings(&out.values.to_json()["log"]),
        ["input", "a", "c", "zz_b"]
    );
}

#[test]
fn every_channel_changed_in_a_superstep_gets_the_same_new_version() {
    let saver = saver();
    let (app, _) = booking(&saver);
    app.invoke(say("hi"), &thread("t")).unwrap();
    let h = stored(&*saver, "t"); // newest first: step 2, 1, 0, -1
    let step0 = &h[2].checkpoint.channel_versions;
    assert_eq!(step0["__start__"], step0["messages"]);
    assert_eq!(step0["messages"], step0["branch:to:booking"]);
    let input_max = h[3].checkpoint.max_version().unwrap();
    assert_eq!(step0["messages"].counter, input_max.counter + 1, "max + 1");
    // After step 1, `__start__` did not change and keeps its version.
    let step1 = &h[1].checkpoint.channel_versions;
    assert_eq!(step1["__start__"], step0["__start__"]);
    assert!(step1["messages"] > step0["messages"]);
    assert_eq!(step1["messages"], step1["branch:to:reply"]);
    assert_eq!(step1["messages"], step1["branch:to:booking"]);
}

#[test]
fn versions_seen_records_the_version_a_task_was_scheduled_on() {
    let saver = saver();
    let (app, _) = booking(&saver);
    app.invoke(say("hi"), &thread("t")).unwrap();
    let h = stored(&*saver, "t");
    let (step0, step1) = (&h[2].checkpoint, &h[1].checkpoint);
    // `booking` ran from step 0 on `branch:to:booking` at its step-0 version,
    // even though running it bumped that channel (it was cleared).
    assert_eq!(
        step1.versions_seen["booking"]["branch:to:booking"],
        step0.channel_versions["branch:to:booking"]
    );
    assert!(
        step1.channel_versions["branch:to:booking"] > step0.channel_versions["branch:to:booking"]
    );
    assert_eq!(
        *step1.versions_seen["__input__"],
        chronograph::ChannelVersions::new()
    );
}

#[test]
fn the_input_checkpoint_holds_the_raw_input_in_start_and_nothing_else() {
    let saver = saver();
    let (app, _) = booking(&saver);
    app.invoke(say("hi 1"), &thread("t")).unwrap();
    let c0 = stored(&*saver, "t").pop().unwrap().checkpoint;
    assert_eq!(c0.v, 4);
    assert_eq!(
        c0.channel_values.keys().map(|k| &**k).collect::<Vec<_>>(),
        ["__start__"]
    );
    assert_eq!(c0.channel_values["__start__"].to_json(), say("hi 1"));
    assert_eq!(
        c0.channel_versions.keys().map(|k| &**k).collect::<Vec<_>>(),
        ["__start__"]
    );
    assert_eq!(
        *c0.versions_seen,
        chronograph::VersionsSeen::from([("__input__".into(), Default::default())])
    );
    assert_eq!(c0.updated_channels, Some(vec!["__start__".into()]));
}

#[test]
fn cleared_and_unwritten_channels_are_absent_but_keep_their_versions() {
    let saver = saver();
    let (app, _) = booking(&saver);
    app.invoke(say("hi"), &thread("t")).unwrap();
    let step1 = stored(&*saver, "t")[1].checkpoint.clone();
    // `__start__` and `branch:to:booking` were cleared: versions, no values.
    for gone in ["__start__", "branch:to:booking"] {
        assert!(step1.channel_versions.contains_key(gone));
        assert!(!step1.channel_values.contains_key(gone), "{gone}");
    }
    assert!(step1.channel_values.contains_key("branch:to:reply"));
    assert_eq!(
        step1.updated_channels,
        Some(vec!["branch:to:reply".into(), "messages".into()])
    );
}

#[test]
fn an_unwritten_reducer_channel_is_absent_from_values_as_the_traces_show() {
    // The conformance traces show `values: {}` for an input checkpoint even
    // for an `add_messages` key (the prose of §5 says `[]`; traces win).
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = thread("t");
    app.invoke(say("hi"), &cfg).unwrap();
    let input = history(&app, &cfg).pop().unwrap();
    assert_eq!(input.values.to_json(), json!({}));
}

#[test]
fn unknown_keys_in_a_node_update_are_silently_dropped() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("x", Reducer::LastValue)
        .add_node("a", |_: &State, _: &NodeContext| {
            Ok(json!({"x": 1, "nope": 2}))
        })
        .add_edge(START, "a");
    let app = g.compile(opts(&saver)).unwrap();
    let out = app
        .invoke(json!({"x": 0, "also_nope": 1}), &thread("t"))
        .unwrap();
    assert_eq!(out.values.to_json(), json!({"x": 1}));
}

#[test]
fn a_node_without_outgoing_edges_ends_the_run() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("x", Reducer::LastValue)
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!({"x": 1})))
        .add_edge(START, "a");
    let app = g.compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    app.invoke(json!({"x": 0}), &cfg).unwrap();
    assert_eq!(steps(&app, &cfg)[0], row(1, "loop", &[]));
}

#[test]
fn a_conditional_edge_writes_only_the_chosen_branch_channel() {
    let saver = saver();
    let (app, calls) = routed(&saver);
    let cfg = thread("t");
    app.invoke(json!({"route": "c", "items": []}), &cfg)
        .unwrap();
    assert_eq!(calls.take(), ["a", "c"]);
    let after_a = stored(&*saver, "t")[1].checkpoint.clone();
    assert!(after_a.channel_versions.contains_key("branch:to:c"));
    assert!(!after_a.channel_versions.contains_key("branch:to:b"));
    assert_eq!(history(&app, &cfg)[1].next, ["c"]);
}

#[test]
fn a_path_map_translates_router_results_and_end_finishes() {
    let saver = saver();
    let calls = Calls::default();
    let mut g = StateGraph::new();
    let path_map = BTreeMap::from([
        ("again".to_owned(), "work".to_owned()),
        ("done".to_owned(), END.to_owned()),
    ]);
    let counter = calls.clone();
    g.add_channel("n", Reducer::Sum)
        .add_node("work", move |_: &State, _: &NodeContext| {
            counter.push("work");
            Ok(json!({"n": 1}))
        })
        .add_edge(START, "work")
        .add_conditional_edges(
            "work",
            |s: &State| {
                let n = s.get_json("n").and_then(|v| v.as_i64()).unwrap_or(0);
                Ok(vec![if n < 3 { "again" } else { "done" }.to_owned()])
            },
            Some(path_map),
        );
    let app = g.compile(opts(&saver)).unwrap();
    let out = app.invoke(json!({"n": 0}), &thread("t")).unwrap();
    assert_eq!(out.values.to_json(), json!({"n": 3}));
    assert_eq!(calls.take().len(), 3);
    assert_eq!(
        app.get_state(&thread("t")).unwrap().next,
        Vec::<String>::new()
    );
}

#[test]
fn a_router_sees_the_state_with_its_nodes_own_update_applied() {
    let saver = saver();
    let seen = Rc::new(Cell::new(0));
    let mut g = StateGraph::new();
    let s2 = seen.clone();
    g.add_channel("n", Reducer::Sum)
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!({"n": 10})))
        .add_node("b", |_: &State, _: &NodeContext| Ok(json!({})))
        .add_edge(START, "a")
        .add_conditional_edges(
            "a",
            move |s: &State| {
                s2.set(s.get_json("n").and_then(|v| v.as_i64()).unwrap_or(-1));
                Ok(vec!["b".to_owned()])
            },
            None,
        );
    let app = g.compile(opts(&saver)).unwrap();
    app.invoke(json!({"n": 1}), &thread("t")).unwrap();
    assert_eq!(seen.get(), 11);
}

#[test]
fn async_nodes_and_async_routers_run_through_invoke_and_ainvoke() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("items", Reducer::Append)
        .add_async_node("a", |_: State, _: NodeContext| -> NodeFuture {
            Box::pin(async {
                YieldTimes(2).await;
                Ok(json!({"items": ["a"]}))
            })
        })
        .add_node("b", |_: &State, _: &NodeContext| {
            Ok(json!({"items": ["b"]}))
        })
        .add_edge(START, "a")
        .add_branch(
            "a",
            Branch::new(
                RouterFn::Async(Rc::new(|_: State| -> NodeFuture<Vec<String>> {
                    Box::pin(async {
                        YieldTimes(1).await;
                        Ok(vec!["b".to_owned()])
                    })
                })),
                None,
            ),
        );
    let app = g.compile(opts(&saver)).unwrap();
    let out = app.invoke(json!({"items": []}), &thread("t")).unwrap();
    assert_eq!(strings(&out.values.to_json()["items"]), ["a", "b"]);
    let out =
        futures::executor::block_on(app.ainvoke(json!({"items": ["x"]}), &thread("t2"))).unwrap();
    assert_eq!(strings(&out.values.to_json()["items"]), ["x", "a", "b"]);
}

#[test]
fn a_graph_without_a_checkpointer_runs_and_saves_nothing() {
    let calls = Calls::default();
    let mut g = StateGraph::new();
    g.add_channel("items", Reducer::Append)
        .add_node("a", appender(&calls, "a"))
        .add_edge(START, "a");
    let app = g.compile(opts_without_saver()).unwrap();
    let out = app
        .invoke(
            json!({"items": []}),
            &chronograph::RunnableConfig::default(),
        )
        .unwrap();
    assert_eq!(strings(&out.values.to_json()["items"]), ["a"]);
    assert!(app.checkpointer().is_none());
}

#[test]
fn command_input_creates_no_input_checkpoint_and_lands_as_null_task_writes() {
    // §10: Command(update={'items': ['ext']}, goto='b') on a terminal thread.
    let saver = saver();
    let calls = Calls::default();
    let mut g = StateGraph::new();
    g.add_channel("items", Reducer::Append)
        .add_node("a", appender(&calls, "a"))
        .add_node("b", appender(&calls, "b"))
        .add_edge(START, "a")
        .add_edge("a", END)
        .add_edge("b", END);
    let app = g.compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    app.invoke(json!({"items": []}), &cfg).unwrap();
    calls.take();
    let terminal = app.get_state(&cfg).unwrap();
    assert_eq!(step_of(&terminal), 1);

    let cmd = Command {
        update: Some(json!({"items": ["ext"]})),
        goto: vec!["b".into()],
        ..Default::default()
    };
    let out = app.invoke(RunInput::Command(cmd), &cfg).unwrap();
    assert_eq!(calls.take(), ["b"]);
    assert_eq!(strings(&out.values.to_json()["items"]), ["a", "ext", "b"]);
    assert_eq!(
        steps(&app, &cfg)[..2],
        [row(2, "loop", &[]), row(1, "loop", &[])],
        "no input checkpoint; b ran as the next step"
    );
    let rows: Vec<(String, String, Value)> = tuple(&*saver, "t", &id_of(&terminal))
        .pending_writes
        .into_iter()
        .map(|w| (w.task_id, w.channel, w.value))
        .collect();
    assert_eq!(
        rows[..2],
        [
            (
                NULL_TASK_ID.to_owned(),
                "branch:to:b".to_owned(),
                json!("__start__")
            ),
            (NULL_TASK_ID.to_owned(), "items".to_owned(), json!(["ext"])),
        ]
    );
    // `b` ran from that same checkpoint, so its output is stored there too.
    assert_eq!(rows.len(), 3);
    assert_eq!((rows[2].1.as_str(), &rows[2].2), ("items", &json!(["b"])));
}

#[test]
fn two_branches_from_one_parent_never_share_a_stored_value() {
    // Both updates compute "max + 1" from the same checkpoint; the saver's
    // versions stay unique per branch, so neither overwrites the other's value.
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = thread("t");
    app.invoke(say("hi"), &cfg).unwrap();
    let base = at("t", &id_of(&history(&app, &cfg)[0]));
    let left = app
        .update_state(
            &base,
            Some(json!({"messages": [ai("left")]})),
            Some("reply"),
        )
        .unwrap();
    let right = app
        .update_state(
            &base,
            Some(json!({"messages": [ai("right")]})),
            Some("reply"),
        )
        .unwrap();
    let l = app.get_state(&left).unwrap();
    let r = app.get_state(&right).unwrap();
    assert_eq!(
        contents(&l.values.to_json(), "messages").last().unwrap(),
        "left"
    );
    assert_eq!(
        contents(&r.values.to_json(), "messages").last().unwrap(),
        "right"
    );
    let lv = tuple(&*saver, "t", &left.checkpoint_id().unwrap())
        .checkpoint
        .channel_versions;
    let rv = tuple(&*saver, "t", &right.checkpoint_id().unwrap())
        .checkpoint
        .channel_versions;
    assert_eq!(lv["messages"].counter, rv["messages"].counter);
    assert_ne!(lv["messages"], rv["messages"]);
}

#[test]
fn a_task_runs_with_the_id_its_checkpoint_snapshot_shows() {
    let saver = saver();
    let seen = Calls::default();
    let g = task_id_recorder(&seen);
    let app = g
        .compile(CompileOptions {
            interrupt_before: vec!["a".into()],
            ..opts(&saver)
        })
        .unwrap();
    let cfg = thread("t");
    app.invoke(json!({"x": 0}), &cfg).unwrap();
    let paused = app.get_state(&cfg).unwrap();
    let task = &paused.tasks[0];
    assert_eq!(task.name, "a");
    assert_eq!(task.path, "~__pregel_pull, a");
    assert_eq!(task.id.len(), 36);
    app.invoke(Value::Null, &cfg).unwrap();
    assert_eq!(
        seen.take(),
        [format!("{} {}", task.id, step_of(&paused) + 1)]
    );
}

#[test]
fn stream_reports_tasks_updates_checkpoints_and_values_in_order() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let (events, out) = app.stream(say("hi"), &thread("t")).unwrap();
    let kinds: Vec<String> = events
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
        .collect();
    assert_eq!(
        kinds,
        [
            "checkpoint:-1",
            "task:__start__",
            "update:__start__",
            "result:__start__",
            "meta:0",
            "values",
            // A checkpoint is reported when the next superstep starts from it.
            "checkpoint:0",
            "task:booking",
            "update:booking",
            "result:booking",
            "meta:1",
            "values",
            "checkpoint:1",
            "task:reply",
            "update:reply",
            "result:reply",
            "meta:2",
            "values",
            "checkpoint:2",
        ]
    );
    let Some(StreamEvent::Values(last)) = events
        .iter()
        .rev()
        .find(|e| matches!(e, StreamEvent::Values(_)))
    else {
        unreachable!()
    };
    assert_eq!(*last, out.values.to_json());
}

#[test]
fn list_without_a_namespace_covers_the_thread_and_history_reads_the_root() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = thread("t");
    app.invoke(say("hi"), &cfg).unwrap();
    assert_eq!(
        stored(&*saver, "t").len(),
        saver
            .list(&ListTarget::thread("t"), &Default::default())
            .unwrap()
            .len()
    );
    assert_eq!(history(&app, &cfg).len(), 4);
}

#[test]
fn a_router_returning_several_destinations_runs_them_in_one_superstep() {
    let saver = saver();
    let calls = Calls::default();
    let mut g = StateGraph::new();
    g.add_channel("items", Reducer::Append)
        .add_node("a", appender(&calls, "a"))
        .add_node("b", appender(&calls, "b"))
        .add_node("c", appender(&calls, "c"))
        .add_edge(START, "a")
        .add_conditional_edges(
            "a",
            |_: &State| Ok(vec!["c".to_owned(), "b".to_owned(), END.to_owned()]),
            None,
        );
    let app = g.compile(opts(&saver)).unwrap();
    let out = app.invoke(json!({"items": []}), &thread("t")).unwrap();
    assert_eq!(strings(&out.values.to_json()["items"]), ["a", "b", "c"]);
    assert_eq!(steps(&app, &thread("t"))[1], row(1, "loop", &["b", "c"]));
}

#[test]
fn a_command_update_to_an_unknown_channel_is_ignored() {
    let saver = saver();
    let (app, _) = booking(&saver);
    app.invoke(say("hi"), &thread("t")).unwrap();
    let cmd = Command {
        update: Some(json!({"nope": 1, "messages": [ai("extra")]})),
        ..Default::default()
    };
    let out = app.invoke(RunInput::Command(cmd), &thread("t")).unwrap();
    assert_eq!(
        contents(&out.values.to_json(), "messages").last().unwrap(),
        "extra"
    );
    assert!(out.values.get("nope").is_none());
}
