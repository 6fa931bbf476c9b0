//! Spec §6 and §15.5–15.9: `update_state` / `bulk_update_state` — regular
//! node updates (writers only, edges fire, unwritten triggers cleared),
//! `as_node` inference, clearing with `END`, `__input__`, `__copy__`, and
//! where the update's writes are stored.

mod common;

use chronograph::{
    CompileOptions, CompiledGraph, InMemorySaver, NodeContext, Reducer, RunnableConfig, State,
    StateGraph, StateUpdate, COPY, END, INPUT, START,
};
use common::*;
use serde_json::{json, Value};
use std::cell::Cell;
use std::rc::Rc;

const T: &str = "t";

/// The seed graph after one round: C0 input, C1 step 0, C2 step 1, C3 step 2.
fn cfg_of(saver: &InMemorySaver, label: &str) -> RunnableConfig {
    at(T, &id_by_label(saver, T, label))
}

fn snap(app: &CompiledGraph, cfg: &RunnableConfig) -> chronograph::StateSnapshot {
    app.get_state(&at(T, &cfg.checkpoint_id().unwrap()))
        .unwrap()
}

fn msgs(s: &chronograph::StateSnapshot) -> Vec<String> {
    contents(&s.values.to_json(), "messages")
}

fn upd(values: Value, as_node: &str) -> StateUpdate {
    StateUpdate {
        values: Some(values),
        as_node: Some(as_node.to_owned()),
        task_id: None,
        goto: Vec::new(),
    }
}

#[test]
fn update_state_writes_a_child_of_the_addressed_checkpoint() {
    let (saver, app, _) = finished_booking();
    let c1 = id_by_label(&*saver, T, "C1");
    let returned = app
        .update_state(
            &at(T, &c1),
            Some(json!({"messages": [ai("edited")]})),
            Some("booking"),
        )
        .unwrap();
    // The returned config addresses the new checkpoint.
    assert_eq!(returned.thread_id().as_deref(), Some(T));
    assert_eq!(returned.checkpoint_ns(), "");
    let new_id = returned.checkpoint_id().unwrap();
    assert_eq!(new_id, id_by_label(&*saver, T, "C4"));
    let s = snap(&app, &returned);
    assert_eq!(
        parent_of(&s),
        Some(c1),
        "a child of the addressed checkpoint"
    );
    assert_eq!((step_of(&s), source_of(&s)), (1, "update"));
    assert_eq!(seq(&new_id), "8001", "clock sequence = the new step");
    assert_eq!(s.next, ["reply"]);
    assert_eq!(msgs(&s), ["hi", "edited"]);
    let stored = tuple(&*saver, T, &new_id).checkpoint;
    assert_eq!(stored.updated_channels, None);
    // The update creates an empty versions_seen entry for its node (§1.5).
    assert!(stored.versions_seen["booking"].is_empty());
}

#[test]
fn update_state_runs_only_the_nodes_writers_not_its_function() {
    let (_saver, app, calls) = finished_booking();
    app.update_state(
        &thread(T),
        Some(json!({"messages": [ai("x")]})),
        Some("booking"),
    )
    .unwrap();
    assert!(calls.take().is_empty());
}

#[test]
fn update_state_with_none_values_still_fires_the_static_edges() {
    let (saver, app, _) = finished_booking();
    let cfg = app
        .update_state(&cfg_of(&saver, "C1"), None, Some("booking"))
        .unwrap();
    let s = snap(&app, &cfg);
    assert_eq!(s.next, ["reply"]);
    assert_eq!(msgs(&s), ["hi"], "no state written");
}

#[test]
fn update_state_clears_unwritten_triggers_so_pending_tasks_leave_next() {
    let (saver, app, _) = finished_booking();
    // C1 would run `booking`; an update as `reply` (which leads to END)
    // clears `branch:to:booking`, so nothing is left to run.
    let cfg = app
        .update_state(
            &cfg_of(&saver, "C1"),
            Some(json!({"messages": [ai("r")]})),
            Some("reply"),
        )
        .unwrap();
    assert!(snap(&app, &cfg).next.is_empty());
    let stored = tuple(&*saver, T, &cfg.checkpoint_id().unwrap()).checkpoint;
    assert!(!stored.channel_values.contains_key("branch:to:booking"));
}

#[test]
fn update_state_re_evaluates_conditional_edges_on_the_updated_state() {
    let saver = saver();
    let (app, calls) = routed(&saver);
    app.invoke(json!({"route": "c", "items": []}), &thread(T))
        .unwrap();
    let cfg = app
        .update_state(&thread(T), Some(json!({"route": "b"})), Some("a"))
        .unwrap();
    assert_eq!(snap(&app, &cfg).next, ["b"]);
    calls.take();
    app.invoke(Value::Null, &thread(T)).unwrap();
    assert_eq!(calls.take(), ["b"]);
}

#[test]
fn update_state_on_the_latest_checkpoint_stores_writes_on_the_base() {
    let saver = saver();
    let options = CompileOptions {
        interrupt_before: vec!["reply".into()],
        ..opts(&saver)
    };
    let (app, calls) = booking_graph(&saver, options);
    let cfg = thread(T);
    app.invoke(say("hi"), &cfg).unwrap();
    let base = app.get_state(&cfg).unwrap();
    assert_eq!(base.next, ["reply"]);
    let reply_task = base.tasks[0].id.clone();

    app.update_state(
        &cfg,
        Some(json!({"messages": [ai("manual reply")]})),
        Some("reply"),
    )
    .unwrap();
    let rows = tuple(&*saver, T, &id_of(&base)).pending_writes;
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0].task_id, reply_task,
        "the id of the task it stands in for"
    );
    assert_eq!(
        rows[0].value,
        json!([ai("manual reply")]),
        "stored raw, without an id"
    );
    // In history the base's `reply` task now shows that result.
    let base_again = app.get_state(&at(T, &id_of(&base))).unwrap();
    assert_eq!(
        base_again.tasks[0].result,
        Some(json!({"messages": [ai("manual reply")]}))
    );
    let head = app.get_state(&cfg).unwrap();
    assert!(head.next.is_empty());
    assert_eq!(msgs(&head), ["hi", "booked (saw 1)", "manual reply"]);
    assert!(calls.take().iter().all(|n| n != "reply"));
}

#[test]
fn update_state_on_an_older_checkpoint_stores_nothing_on_it() {
    let (saver, app, _) = finished_booking();
    let c1 = id_by_label(&*saver, T, "C1");
    let before = tuple(&*saver, T, &c1).pending_writes;
    app.update_state(
        &at(T, &c1),
        Some(json!({"messages": [ai("x")]})),
        Some("booking"),
    )
    .unwrap();
    assert_eq!(tuple(&*saver, T, &c1).pending_writes, before);
}

#[test]
fn as_node_inference_picks_the_last_node_that_ran() {
    let (_saver, app, _) = finished_booking();
    let cfg = app
        .update_state(&thread(T), Some(json!({"messages": [ai("tail")]})), None)
        .unwrap();
    let s = snap(&app, &cfg);
    assert_eq!((step_of(&s), source_of(&s)), (3, "update"));
    assert!(s.next.is_empty(), "as reply, whose edge leads to END");
    let stored = latest(&*saver_of(&app), T).checkpoint;
    assert!(stored.versions_seen.contains_key("reply"));
}

fn saver_of(app: &CompiledGraph) -> Rc<dyn chronograph::CheckpointSaver> {
    app.checkpointer().unwrap().clone()
}

#[test]
fn as_node_inference_picks_start_on_a_fresh_thread_and_invoke_then_runs_the_graph() {
    let saver = saver();
    let (app, calls) = booking(&saver);
    let cfg = app
        .update_state(&thread(T), Some(json!({"messages": [human("hi")]})), None)
        .unwrap();
    let s = snap(&app, &cfg);
    assert_eq!((step_of(&s), source_of(&s)), (0, "update"));
    assert_eq!(s.next, ["booking"]);
    assert_eq!(s.parent_config, None);
    let stored = latest(&*saver, T).checkpoint;
    assert_eq!(
        stored
            .versions_seen
            .keys()
            .map(|k| &**k)
            .collect::<Vec<_>>(),
        ["__start__"]
    );
    assert!(stored.versions_seen["__start__"].is_empty());

    app.invoke(Value::Null, &thread(T)).unwrap();
    assert_eq!(calls.take(), ["booking", "reply"]);
    assert_eq!(
        steps(&app, &thread(T)),
        [
            row(2, "loop", &[]),
            row(1, "loop", &["reply"]),
            row(0, "update", &["booking"])
        ]
    );
}

#[test]
fn as_node_inference_picks_start_on_the_input_checkpoint_and_drops_the_waiting_input() {
    let (saver, app, _) = finished_booking();
    let cfg = app
        .update_state(
            &cfg_of(&saver, "C0"),
            Some(json!({"messages": [human("instead")]})),
            None,
        )
        .unwrap();
    let s = snap(&app, &cfg);
    assert_eq!(
        (step_of(&s), s.next.clone()),
        (0, vec!["booking".to_owned()])
    );
    assert_eq!(
        msgs(&s),
        ["instead"],
        "the original input in __start__ is lost"
    );
}

#[test]
fn as_node_inference_picks_start_on_a_step_0_checkpoint() {
    let (saver, app, _) = finished_booking();
    let cfg = app
        .update_state(
            &cfg_of(&saver, "C1"),
            Some(json!({"messages": [human("more")]})),
            None,
        )
        .unwrap();
    let s = snap(&app, &cfg);
    assert_eq!(s.next, ["booking"], "booking would run again");
    assert_eq!(msgs(&s), ["hi", "more"]);
}

#[test]
fn as_node_inference_on_an_update_whose_node_entry_is_empty_uses_start() {
    let (saver, app, _) = finished_booking();
    // An update as `booking` on the input checkpoint leaves every
    // versions_seen entry empty.
    let first = app
        .update_state(
            &cfg_of(&saver, "C0"),
            Some(json!({"messages": [ai("b")]})),
            Some("booking"),
        )
        .unwrap();
    assert_eq!(snap(&app, &first).next, ["reply"]);
    let second = app
        .update_state(&first, Some(json!({"messages": [human("again")]})), None)
        .unwrap();
    assert_eq!(snap(&app, &second).next, ["booking"], "inferred __start__");
}

#[test]
fn a_graph_with_one_user_node_still_counts_start_and_infers_it() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("x", Reducer::LastValue)
        .add_node("only", |_: &State, _: &NodeContext| Ok(json!({"x": 1})))
        .add_edge(START, "only");
    let app = g.compile(opts(&saver)).unwrap();
    let cfg = app
        .update_state(&thread(T), Some(json!({"x": 5})), None)
        .unwrap();
    assert_eq!(
        snap(&app, &cfg).next,
        ["only"],
        "written as __start__, not as `only`"
    );
}

#[test]
fn clearing_with_none_as_end_accepts_finished_work_and_drops_the_rest() {
    let (saver, app, calls) = finished_booking();
    // C1's `booking` task already finished (its writes are stored on C1).
    let cfg = app
        .update_state(&cfg_of(&saver, "C1"), None, Some(END))
        .unwrap();
    let s = snap(&app, &cfg);
    assert_eq!((step_of(&s), source_of(&s)), (1, "update"));
    assert_eq!(
        seq(&cfg.checkpoint_id().unwrap()),
        "8000",
        "clock sequence = the old step"
    );
    assert_eq!(parent_of(&s), Some(id_by_label(&*saver, T, "C1")));
    assert_eq!(s.next, ["reply"]);
    assert_eq!(msgs(&s), ["hi", "booked (saw 1)"]);
    assert!(calls.take().is_empty());

    // An unfinished task is dropped: the failed `c` of a parallel step.
    let saver = common::saver();
    let (app, _) = fanout(&saver, Rc::new(Cell::new(true)));
    app.invoke(json!({"items": []}), &thread(T)).unwrap_err();
    let cfg = app.update_state(&thread(T), None, Some(END)).unwrap();
    let s = snap(&app, &cfg);
    assert_eq!(items(&s.values), ["a", "b"]);
    assert!(s.next.is_empty(), "the join never completes without c");
}

#[test]
fn clearing_a_fresh_thread_writes_an_empty_step_0_update() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = app.update_state(&thread(T), None, Some(END)).unwrap();
    let s = snap(&app, &cfg);
    assert_eq!((step_of(&s), source_of(&s)), (0, "update"));
    assert!(s.next.is_empty());
    assert_eq!(s.values.to_json(), json!({}));
    assert_eq!(s.parent_config, None);
}

#[test]
fn update_as_input_is_an_input_checkpoint_that_runs_from_start() {
    let (saver, app, calls) = finished_booking();
    let base = id_by_label(&*saver, T, "C3");
    let cfg = app
        .update_state(&thread(T), Some(say("again")), Some(INPUT))
        .unwrap();
    let s = snap(&app, &cfg);
    assert_eq!((step_of(&s), source_of(&s)), (3, "input"));
    assert_eq!(s.next, ["__start__"]);
    assert_eq!(parent_of(&s), Some(base.clone()));
    // The input is also stored on the base it updated, as one __start__ row.
    let rows = tuple(&*saver, T, &base).pending_writes;
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0].channel.as_str(), &rows[0].value),
        ("__start__", &say("again"))
    );

    let out = app.invoke(Value::Null, &thread(T)).unwrap();
    assert_eq!(calls.take(), ["booking", "reply"]);
    assert_eq!(
        contents(&out.values.to_json(), "messages"),
        [
            "hi",
            "booked (saw 1)",
            "reply (saw 2)",
            "again",
            "booked (saw 4)",
            "reply (saw 5)"
        ]
    );
    assert_eq!(
        steps(&app, &thread(T))[..4],
        [
            row(6, "loop", &[]),
            row(5, "loop", &["reply"]),
            row(4, "loop", &["booking"]),
            row(3, "input", &["__start__"])
        ]
    );
}

#[test]
fn update_as_input_on_a_fresh_thread_is_step_minus_one() {
    let saver = saver();
    let (app, calls) = booking(&saver);
    let cfg = app
        .update_state(&thread(T), Some(say("hi")), Some(INPUT))
        .unwrap();
    let s = snap(&app, &cfg);
    assert_eq!((step_of(&s), source_of(&s)), (-1, "input"));
    assert_eq!(s.next, ["__start__"]);
    app.invoke(Value::Null, &thread(T)).unwrap();
    assert_eq!(calls.take(), ["booking", "reply"]);
    let got: Vec<i64> = steps(&app, &thread(T)).iter().map(|r| r.0).collect();
    assert_eq!(got, [2, 1, 0, -1]);
}

#[test]
fn update_as_input_keeps_the_pending_tasks() {
    let saver = saver();
    let options = CompileOptions {
        interrupt_before: vec!["reply".into()],
        ..opts(&saver)
    };
    let (app, _) = booking_graph(&saver, options);
    app.invoke(say("hi"), &thread(T)).unwrap();
    let cfg = app
        .update_state(&thread(T), Some(say("more")), Some(INPUT))
        .unwrap();
    assert_eq!(snap(&app, &cfg).next, ["__start__", "reply"]);
}

#[test]
fn copy_is_a_sibling_not_a_child() {
    let (saver, app, _) = finished_booking();
    let c2 = id_by_label(&*saver, T, "C2");
    let cfg = app.update_state(&at(T, &c2), None, Some(COPY)).unwrap();
    let copy_id = cfg.checkpoint_id().unwrap();
    let original = app.get_state(&at(T, &c2)).unwrap();
    let copy = snap(&app, &cfg);
    assert_eq!(parent_of(&copy), Some(id_by_label(&*saver, T, "C1")));
    assert_eq!((step_of(&copy), source_of(&copy)), (2, "fork"));
    assert_eq!(
        seq(&copy_id),
        "8001",
        "clock sequence = the original's step"
    );
    assert_eq!(copy.next, original.next);
    assert_eq!(copy.values, original.values);
    let (a, b) = (tuple(&*saver, T, &c2), tuple(&*saver, T, &copy_id));
    assert!(b.pending_writes.is_empty(), "pending writes are not copied");
    assert!(!a.pending_writes.is_empty());
    assert_eq!(a.checkpoint.channel_versions, b.checkpoint.channel_versions);
    assert_eq!(a.checkpoint.versions_seen, b.checkpoint.versions_seen);
    assert_eq!(b.checkpoint.updated_channels, None);
    assert_eq!(b.metadata.parents, a.metadata.parents);
}

#[test]
fn copy_with_a_list_of_updates_applies_them_on_the_copy_as_a_second_superstep() {
    let (saver, app, _) = finished_booking();
    let c2 = id_by_label(&*saver, T, "C2");
    let cfg = app
        .update_state(
            &at(T, &c2),
            Some(json!([[{"messages": [ai("replaced reply")]}, "reply"]])),
            Some(COPY),
        )
        .unwrap();
    let update = snap(&app, &cfg);
    assert_eq!((step_of(&update), source_of(&update)), (3, "update"));
    let copy = app.get_state(&at(T, &parent_of(&update).unwrap())).unwrap();
    assert_eq!((step_of(&copy), source_of(&copy)), (2, "fork"));
    assert_eq!(parent_of(&copy), Some(id_by_label(&*saver, T, "C1")));
    assert!(update.next.is_empty());
    assert_eq!(msgs(&update), ["hi", "booked (saw 1)", "replaced reply"]);
    // The update stands for the copy's pending `reply` task (LangGraph
    // reuses its id), whose result the copy's snapshot then shows.
    assert_eq!(copy.tasks[0].name, "reply");
    assert_eq!(
        copy.tasks[0].result,
        Some(json!({"messages": [ai("replaced reply")]}))
    );
    assert_eq!(tuple(&*saver, T, &id_of(&copy)).pending_writes.len(), 1);
}

#[test]
fn an_invalid_copy_item_is_rejected_after_the_copy_is_saved_as_langgraph_does() {
    // LangGraph saves the copy before it looks at the items.
    let (saver, app, _) = finished_booking();
    let before = stored(&*saver, T).len();
    let err = app
        .update_state(&cfg_of(&saver, "C2"), Some(json!([5])), Some(COPY))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "InvalidUpdateError: Invalid update item: 5 when copying checkpoint"
    );
    let after = stored(&*saver, T);
    assert_eq!(after.len(), before + 1);
    assert_eq!(after[0].metadata.source.as_str(), "fork");
}

#[test]
fn bulk_update_state_applies_supersteps_in_sequence() {
    let (saver, app, _) = finished_booking();
    let cfg = app
        .bulk_update_state(
            &thread(T),
            vec![
                vec![upd(json!({"messages": [ai("one")]}), "reply")],
                vec![upd(json!({"messages": [ai("two")]}), "booking")],
            ],
        )
        .unwrap();
    let h = history(&app, &thread(T));
    assert_eq!(id_of(&h[0]), cfg.checkpoint_id().unwrap());
    assert_eq!(
        h[..3]
            .iter()
            .map(|s| (step_of(s), source_of(s)))
            .collect::<Vec<_>>(),
        [(4, "update"), (3, "update"), (2, "loop")]
    );
    assert_eq!(parent_of(&h[0]), Some(id_of(&h[1])));
    assert_eq!(h[0].next, ["reply"]);
    assert_eq!(msgs(&h[0])[3..], ["one", "two"]);
    // Each superstep's writes go on its base (the first's on the then latest checkpoint).
    assert_eq!(
        tuple(&*saver, T, &id_by_label(&*saver, T, "C3"))
            .pending_writes
            .len(),
        1
    );
    assert!(!tuple(&*saver, T, &id_of(&h[1])).pending_writes.is_empty());
}

#[test]
fn a_bulk_update_of_an_older_checkpoint_stores_only_its_later_supersteps_writes() {
    // The first superstep edits a superseded checkpoint: its writes stay
    // off it (its other children would replay them); the second one's base
    // is the checkpoint the first wrote.
    let (saver, app, _) = finished_booking();
    let c2 = id_by_label(&*saver, T, "C2");
    let before = tuple(&*saver, T, &c2).pending_writes.len();
    let cfg = app
        .bulk_update_state(
            &at(T, &c2),
            vec![
                vec![upd(json!({"messages": [ai("one")]}), "reply")],
                vec![upd(json!({"messages": [ai("two")]}), "booking")],
            ],
        )
        .unwrap();
    assert_eq!(tuple(&*saver, T, &c2).pending_writes.len(), before);
    let first = parent_of(&snap(&app, &cfg)).unwrap();
    assert!(!tuple(&*saver, T, &first).pending_writes.is_empty());
}

#[test]
fn two_updates_in_one_superstep_reuse_the_pending_task_ids_of_their_nodes() {
    let saver = saver();
    let (app, calls) = fanout(&saver, Rc::new(Cell::new(true)));
    app.invoke(json!({"items": []}), &thread(T)).unwrap_err();
    calls.take();
    let base = app.get_state(&thread(T)).unwrap();
    let (b_id, c_id) = (base.tasks[0].id.clone(), base.tasks[1].id.clone());
    let cfg = app
        .bulk_update_state(
            &thread(T),
            vec![vec![
                upd(json!({"items": ["b2"]}), "b"),
                upd(json!({"items": ["c2"]}), "c"),
            ]],
        )
        .unwrap();
    let s = snap(&app, &cfg);
    assert_eq!((step_of(&s), source_of(&s)), (2, "update"));
    assert_eq!(items(&s.values), ["a", "b2", "c2"]);
    assert_eq!(s.next, ["d"], "both halves of the join were written");
    // On the base, b's first writes win; c now has an output besides its error.
    let record = app.get_state(&at(T, &id_of(&base))).unwrap();
    assert_eq!(record.tasks[0].id, b_id);
    assert_eq!(record.tasks[0].result, Some(json!({"items": ["b"]})));
    assert_eq!(record.tasks[1].id, c_id);
    assert_eq!(record.tasks[1].result, Some(json!({"items": ["c2"]})));
    assert!(record.tasks[1].error.is_some());
    app.invoke(Value::Null, &thread(T)).unwrap();
    assert_eq!(calls.take(), ["d"]);
}

#[test]
fn an_explicit_task_id_is_used_for_the_stored_writes() {
    let (saver, app, _) = finished_booking();
    app.bulk_update_state(
        &thread(T),
        vec![vec![StateUpdate {
            task_id: Some("my-task".into()),
            goto: Vec::new(),
            ..upd(json!({"messages": [ai("x")]}), "reply")
        }]],
    )
    .unwrap();
    let rows = tuple(&*saver, T, &id_by_label(&*saver, T, "C3")).pending_writes;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].task_id, "my-task");
}

#[test]
fn update_state_on_an_unknown_checkpoint_id_records_a_dangling_parent() {
    let (saver, app, _) = finished_booking();
    let ghost = "1f000000-0000-6000-8000-000000000000";
    let cfg = app
        .update_state(
            &at(T, ghost),
            Some(json!({"messages": [ai("x")]})),
            Some("booking"),
        )
        .unwrap();
    let s = snap(&app, &cfg);
    assert_eq!(parent_of(&s).as_deref(), Some(ghost));
    assert_eq!((step_of(&s), source_of(&s)), (0, "update"));
    assert_eq!(msgs(&s), ["x"], "built on an empty checkpoint");
    assert_eq!(stored(&*saver, T).len(), 5, "nothing else changed");
}

#[test]
fn unknown_keys_in_an_update_are_dropped() {
    let (_saver, app, _) = finished_booking();
    let cfg = app
        .update_state(
            &thread(T),
            Some(json!({"nope": 1, "messages": [ai("x")]})),
            Some("reply"),
        )
        .unwrap();
    let s = snap(&app, &cfg);
    assert_eq!(
        s.values.iter().map(|(k, _)| &**k).collect::<Vec<_>>(),
        ["messages"]
    );
}

#[test]
fn as_node_inference_while_paused_in_interrupt_after_a_second_input_picks_start() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append)
        .add_node("a", |_: &State, ctx: &NodeContext| {
            let answer = ctx.interrupt(json!("?"))?;
            Ok(json!({"log": [answer]}))
        })
        .add_edge(START, "a");
    let app = g.compile(opts(&saver)).unwrap();
    app.invoke(json!({"log": ["one"]}), &thread(T)).unwrap();
    app.invoke(json!({"log": ["two"]}), &thread(T)).unwrap();
    let cfg = app
        .update_state(&thread(T), Some(json!({"log": ["edit"]})), None)
        .unwrap();
    let s = snap(&app, &cfg);
    assert_eq!(s.next, ["a"], "written as __start__, so `a` still runs");
    assert_eq!(items_of_log(&s), ["one", "two", "edit"]);
}

fn items_of_log(s: &chronograph::StateSnapshot) -> Vec<String> {
    strings(&s.values.get_json("log").unwrap())
}

#[test]
fn update_as_input_takes_any_value_but_none_as_input_like_invoke_does() {
    // A StateGraph's input channel is `__start__` itself (LangGraph's
    // `map_input(START, values)`), so even `{}` or unknown keys are input:
    // an input checkpoint whose `__start__` task writes no state.
    let (_saver, app, calls) = finished_booking();
    for values in [json!({}), json!({"unknown": 1})] {
        let cfg = app
            .update_state(&thread(T), Some(values.clone()), Some(INPUT))
            .unwrap();
        let s = snap(&app, &cfg);
        assert_eq!(
            (source_of(&s), s.next.clone()),
            ("input", vec!["__start__".to_owned()])
        );
        app.invoke(Value::Null, &thread(T)).unwrap();
        assert_eq!(calls.take(), ["booking", "reply"]);
    }
    // The same holds for run input.
    let before = history(&app, &thread(T)).len();
    app.invoke(json!({}), &thread(T)).unwrap();
    assert_eq!(history(&app, &thread(T)).len(), before + 4);
}

#[test]
fn copy_updates_are_applied_grouped_by_node_in_order_of_first_appearance() {
    // LangGraph's `__copy__` with a list groups the pairs by node before the
    // second superstep, so an `append` channel sees 1, 3, 2.
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append)
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!({"log": ["a"]})))
        .add_node("b", |_: &State, _: &NodeContext| Ok(json!({"log": ["b"]})))
        .add_edge(START, "a")
        .add_edge(START, "b");
    let app = g.compile(opts(&saver)).unwrap();
    app.invoke(json!({"log": []}), &thread(T)).unwrap();
    let cfg = app
        .update_state(
            &thread(T),
            Some(json!([
                [{"log": ["1"]}, "a"],
                [{"log": ["2"]}, "b"],
                [{"log": ["3"]}, "a"]
            ])),
            Some(COPY),
        )
        .unwrap();
    let s = snap(&app, &cfg);
    assert_eq!(source_of(&s), "update");
    assert_eq!(
        strings(&s.values.get_json("log").unwrap()),
        ["a", "b", "1", "3", "2"]
    );
}

/// A `Command` given as an update's values (LangGraph's
/// `update_state(config, Command(update=..., goto=[Send, ...]), as_node)`):
/// its update is written as the node's, and its goto schedules the sends.
#[test]
fn an_update_with_a_goto_schedules_its_sends_as_a_returned_command_would() {
    let mut g = StateGraph::new();
    g.add_channel("foo", Reducer::LastValue)
        .add_channel("tasks", Reducer::Append);
    g.add_node("map", |_: &State, _: &NodeContext| Ok(json!({})));
    g.add_node("task", |s: &State, _: &NodeContext| {
        Ok(json!({ "tasks": [s.get_json("index")] }))
    });
    g.add_destinations("map", vec!["task".into()]);
    g.add_edge(START, "map");
    let saver = saver();
    let app = g.compile(opts(&saver)).unwrap();
    let sends = (0..2)
        .map(|i| chronograph::Goto::Send(chronograph::Send::new("task", json!({ "index": i }))))
        .collect();
    let update = StateUpdate {
        goto: sends,
        ..upd(json!({ "foo": "map" }), "map")
    };
    app.bulk_update_state(&thread(T), vec![vec![update]])
        .unwrap();
    let snapshot = app.get_state(&thread(T)).unwrap();
    assert_eq!(snapshot.values.to_json(), json!({ "foo": "map" }));
    assert_eq!(snapshot.next, vec!["task", "task"]);
    let out = app.invoke(chronograph::RunInput::None, &thread(T));
    assert_eq!(
        out.unwrap().values.to_json(),
        json!({ "foo": "map", "tasks": [0, 1] })
    );
}
