//! Spec §7, §6.4, §4.1–4.2 and §15.1–15.4, 15.18: replaying a past
//! checkpoint forks it; the fork consumes a step; update and fork
//! checkpoints are continued directly while they are the latest; new input
//! with a checkpoint id starts over from that checkpoint; existing
//! checkpoints never change.

mod common;

use chronograph::{CompileOptions, InMemorySaver, RunInput, COPY};
use common::*;
use serde_json::{json, Value};
use std::cell::Cell;
use std::rc::Rc;

const T: &str = "t";

fn id(saver: &InMemorySaver, label: &str) -> String {
    id_by_label(saver, T, label)
}

#[test]
fn a_fork_consumes_a_step() {
    let (saver, app, calls) = finished_booking();
    let c2 = id(&saver, "C2"); // step 1, next reply
    app.invoke(Value::Null, &at(T, &c2)).unwrap();
    assert_eq!(calls.take(), ["reply"]);
    let h = history(&app, &thread(T));
    assert_eq!(
        h[..2]
            .iter()
            .map(|s| (step_of(s), source_of(s), parent_of(s)))
            .collect::<Vec<_>>(),
        [
            (3, "loop", Some(id_of(&h[1]))),
            (2, "fork", Some(c2.clone())),
        ]
    );
    assert_eq!(seq(&id_of(&h[1])), "8002");
    assert_eq!(h[1].values, app.get_state(&at(T, &c2)).unwrap().values);
}

#[test]
fn the_replayed_task_gets_a_new_id_hashed_from_the_fork() {
    let saver = saver();
    let seen = Calls::default();
    let g = task_id_recorder(&seen);
    let app = g.compile(opts(&saver)).unwrap();
    app.invoke(json!({"x": 0}), &thread(T)).unwrap();
    let step0 = history(&app, &thread(T))
        .into_iter()
        .find(|s| s.next == ["a"])
        .unwrap();
    app.invoke(Value::Null, &at(T, &id_of(&step0))).unwrap();
    let runs = seen.take();
    assert_eq!(runs.len(), 2);
    let (first, second) = (
        runs[0].split_once(' ').unwrap(),
        runs[1].split_once(' ').unwrap(),
    );
    assert_eq!(first.1, "1");
    assert_eq!(second.1, "2", "the re-run happens at loaded.step + 2");
    assert_ne!(first.0, second.0);
    let fork = history(&app, &thread(T))[1].clone();
    assert_eq!(source_of(&fork), "fork");
    assert_eq!(
        fork.tasks[0].id, second.0,
        "the fork's task is the one that ran"
    );
}

#[test]
fn replaying_the_latest_checkpoint_by_id_still_forks_and_reruns_every_task() {
    let saver = saver();
    let fail = Rc::new(Cell::new(true));
    let (app, calls) = fanout(&saver, fail.clone());
    app.invoke(json!({"items": []}), &thread(T)).unwrap_err();
    calls.take();
    fail.set(false);
    let head = id_of(&app.get_state(&thread(T)).unwrap());
    app.invoke(Value::Null, &at(T, &head)).unwrap();
    let mut ran = calls.take();
    ran[..2].sort();
    assert_eq!(ran, ["b", "c", "d"], "b's stored writes are not reused");
    assert_eq!(
        steps(&app, &thread(T))[..4],
        [
            row(4, "loop", &[]),
            row(3, "loop", &["d"]),
            row(2, "fork", &["b", "c"]),
            row(1, "loop", &["b", "c"]),
        ]
    );
}

#[test]
fn resuming_without_an_id_reuses_finished_writes_and_does_not_fork() {
    let saver = saver();
    let fail = Rc::new(Cell::new(true));
    let (app, calls) = fanout(&saver, fail.clone());
    app.invoke(json!({"items": []}), &thread(T)).unwrap_err();
    calls.take();
    fail.set(false);
    app.invoke(Value::Null, &thread(T)).unwrap();
    assert_eq!(calls.take(), ["c", "d"]);
    assert!(steps(&app, &thread(T)).iter().all(|r| r.1 != "fork"));
}

#[test]
fn replaying_a_terminal_checkpoint_writes_a_fork_and_runs_nothing() {
    let (saver, app, calls) = finished_booking();
    let c3 = id(&saver, "C3");
    let out = app.invoke(Value::Null, &at(T, &c3)).unwrap();
    assert!(calls.take().is_empty());
    assert_eq!(
        contents(&out.values.to_json(), "messages"),
        ["hi", "booked (saw 1)", "reply (saw 2)"]
    );
    let head = app.get_state(&thread(T)).unwrap();
    assert_eq!((step_of(&head), source_of(&head)), (3, "fork"));
    assert_eq!(parent_of(&head), Some(c3));
    assert!(head.next.is_empty());
}

#[test]
fn invoke_without_input_on_a_finished_thread_writes_nothing() {
    let (saver, app, calls) = finished_booking();
    let before = export(&saver, T);
    let out = app.invoke(Value::Null, &thread(T)).unwrap();
    assert!(calls.take().is_empty());
    assert_eq!(export(&saver, T), before);
    assert_eq!(contents(&out.values.to_json(), "messages").len(), 3);
}

#[test]
fn replaying_the_input_checkpoint_reruns_start_and_regenerates_message_ids() {
    let (saver, app, calls) = finished_booking();
    let c0 = id(&saver, "C0");
    let old_ids: Vec<Value> = latest(&*saver, T).checkpoint.channel_values["messages"]
        .to_json()
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].clone())
        .collect();
    let out = app.invoke(Value::Null, &at(T, &c0)).unwrap();
    assert_eq!(calls.take(), ["booking", "reply"]);
    assert_eq!(
        steps(&app, &thread(T))[..4],
        [
            row(3, "loop", &[]),
            row(2, "loop", &["reply"]),
            row(1, "loop", &["booking"]),
            row(0, "fork", &["__start__"]),
        ]
    );
    let new_ids: Vec<Value> = out.values.to_json()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].clone())
        .collect();
    assert_eq!(new_ids.len(), 3);
    for (old, new) in old_ids.iter().zip(&new_ids) {
        assert_ne!(
            old, new,
            "the stored input has no ids, so they are made anew"
        );
    }
}

#[test]
fn replaying_from_step_0_keeps_the_message_ids_already_stored() {
    let (saver, app, _) = finished_booking();
    let hi_id = latest(&*saver, T).checkpoint.channel_values["messages"].to_json()[0]["id"].clone();
    let out = app.invoke(Value::Null, &at(T, &id(&saver, "C1"))).unwrap();
    assert_eq!(out.values.to_json()["messages"][0]["id"], hi_id);
}

#[test]
fn an_update_checkpoint_that_is_still_the_latest_is_continued_without_a_fork() {
    let (saver, app, calls) = finished_booking();
    let upd = app
        .update_state(
            &at(T, &id(&saver, "C1")),
            Some(json!({"messages": [ai("edited")]})),
            Some("booking"),
        )
        .unwrap();
    app.invoke(Value::Null, &upd).unwrap();
    assert_eq!(calls.take(), ["reply"]);
    let head = app.get_state(&thread(T)).unwrap();
    assert_eq!((step_of(&head), source_of(&head)), (2, "loop"));
    assert_eq!(parent_of(&head), upd.checkpoint_id());
}

#[test]
fn a_superseded_update_checkpoint_is_forked_on_replay() {
    let (saver, app, calls) = finished_booking();
    let upd = app
        .update_state(
            &at(T, &id(&saver, "C1")),
            Some(json!({"messages": [ai("edited")]})),
            Some("booking"),
        )
        .unwrap();
    app.invoke(Value::Null, &upd).unwrap(); // loop 2 under the update
    calls.take();
    app.invoke(Value::Null, &upd).unwrap(); // now superseded: fork first
    assert_eq!(calls.take(), ["reply"]);
    let h = history(&app, &thread(T));
    assert_eq!(
        (step_of(&h[1]), source_of(&h[1]), parent_of(&h[1])),
        (2, "fork", upd.checkpoint_id())
    );
    assert_eq!((step_of(&h[0]), source_of(&h[0])), (3, "loop"));
}

#[test]
fn a_fork_checkpoint_that_is_still_the_latest_is_continued_without_another_fork() {
    let (saver, app, calls) = finished_booking();
    let copy = app
        .update_state(&at(T, &id(&saver, "C2")), None, Some(COPY))
        .unwrap();
    app.invoke(Value::Null, &copy).unwrap();
    assert_eq!(calls.take(), ["reply"]);
    let head = app.get_state(&thread(T)).unwrap();
    assert_eq!((step_of(&head), source_of(&head)), (3, "loop"));
    assert_eq!(parent_of(&head), copy.checkpoint_id());
}

#[test]
fn invoke_after_an_update_on_the_thread_continues_from_whatever_is_latest() {
    let (saver, app, calls) = finished_booking();
    app.update_state(
        &at(T, &id(&saver, "C1")),
        Some(json!({"messages": [ai("edited")]})),
        Some("booking"),
    )
    .unwrap();
    app.invoke(Value::Null, &thread(T)).unwrap();
    assert_eq!(calls.take(), ["reply"]);
}

#[test]
fn new_input_with_a_checkpoint_id_starts_a_new_input_checkpoint_under_it() {
    let (saver, app, calls) = finished_booking();
    let c1 = id(&saver, "C1"); // step 0, its `booking` task finished long ago
    let out = app.invoke(say("new"), &at(T, &c1)).unwrap();
    assert_eq!(calls.take(), ["booking", "reply"]);
    assert_eq!(
        contents(&out.values.to_json(), "messages"),
        ["hi", "new", "booked (saw 2)", "reply (saw 3)"]
    );
    let h = history(&app, &thread(T));
    assert_eq!(
        h[..4]
            .iter()
            .map(|s| (step_of(s), source_of(s)))
            .collect::<Vec<_>>(),
        [(4, "loop"), (3, "loop"), (2, "loop"), (1, "input")]
    );
    assert_eq!(parent_of(&h[3]), Some(c1));
    assert_eq!(
        h[3].next,
        ["__start__"],
        "C1's pending booking was discarded"
    );
}

#[test]
fn unknown_checkpoint_id_becomes_a_dangling_parent() {
    let saver = saver();
    let (app, calls) = booking(&saver);
    let ghost = "1f000000-0000-6000-8000-00000000beef";
    app.invoke(say("hi"), &at(T, ghost)).unwrap();
    assert_eq!(calls.take(), ["booking", "reply"]);
    let first = history(&app, &thread(T)).pop().unwrap();
    assert_eq!((step_of(&first), source_of(&first)), (-1, "input"));
    assert_eq!(parent_of(&first).as_deref(), Some(ghost));
    assert!(app.get_state(&at(T, ghost)).unwrap().metadata.is_none());
}

#[test]
fn replay_never_changes_existing_checkpoints() {
    let (saver, app, _) = finished_booking();
    app.invoke(say("again"), &thread(T)).unwrap();
    let before = stored(&*saver, T);
    for label in ["C0", "C2", "C3", "C5"] {
        app.invoke(Value::Null, &at(T, &id(&saver, label))).unwrap();
    }
    app.update_state(&at(T, &id(&saver, "C1")), None, Some(COPY))
        .unwrap();
    app.update_state(
        &at(T, &id(&saver, "C4")),
        Some(json!({"messages": [ai("x")]})),
        Some("booking"),
    )
    .unwrap();
    let after = stored(&*saver, T);
    for old in &before {
        let now = after
            .iter()
            .find(|t| t.config == old.config)
            .expect("still there");
        assert_eq!(now, old, "{:?} changed", old.config.checkpoint_id);
    }
}

#[test]
fn breakpoints_on_the_first_node_of_a_replay_are_skipped() {
    let saver = saver();
    let options = CompileOptions {
        interrupt_before: vec!["reply".into()],
        ..opts(&saver)
    };
    let (app, calls) = booking_graph(&saver, options);
    app.invoke(say("hi"), &thread(T)).unwrap();
    app.invoke(Value::Null, &thread(T)).unwrap(); // past the breakpoint
    calls.take();
    // Replaying the checkpoint whose next is `reply` runs `reply`...
    let before_reply = history(&app, &thread(T))
        .into_iter()
        .find(|s| s.next == ["reply"] && source_of(s) == "loop")
        .unwrap();
    app.invoke(Value::Null, &at(T, &id_of(&before_reply)))
        .unwrap();
    assert_eq!(calls.take(), ["reply"]);
    // ...while replaying from `booking` runs it and pauses before `reply`.
    let before_booking = history(&app, &thread(T))
        .into_iter()
        .find(|s| s.next == ["booking"])
        .unwrap();
    app.invoke(Value::Null, &at(T, &id_of(&before_booking)))
        .unwrap();
    assert_eq!(calls.take(), ["booking"]);
    assert_eq!(app.get_state(&thread(T)).unwrap().next, ["reply"]);
}

#[test]
fn invoke_with_no_input_on_an_unknown_checkpoint_id_has_nothing_to_run() {
    let (saver, app, _) = finished_booking();
    fails_cleanly(
        &saver,
        T,
        "EmptyInputError: Received no input for __start__",
        || {
            app.invoke(
                RunInput::None,
                &at(T, "1f000000-0000-6000-8000-000000000000"),
            )
        },
    );
}

#[test]
fn a_command_with_a_checkpoint_id_forks_and_carries_its_update_into_the_fork() {
    let (saver, app, calls) = finished_booking();
    let c2 = id(&saver, "C2"); // step 1, next reply
    let before = tuple(&*saver, T, &c2).pending_writes;
    let cmd = chronograph::Command {
        update: Some(json!({"messages": [human("extra")]})),
        ..Default::default()
    };
    app.invoke(RunInput::Command(cmd), &at(T, &c2)).unwrap();
    assert_eq!(calls.take(), ["reply"]);
    assert_eq!(
        tuple(&*saver, T, &c2).pending_writes,
        before,
        "nothing stored on the replayed checkpoint"
    );
    let h = history(&app, &thread(T));
    assert_eq!((step_of(&h[1]), source_of(&h[1])), (2, "fork"));
    assert_eq!(
        contents(&h[1].values.to_json(), "messages"),
        ["hi", "booked (saw 1)", "extra"]
    );
    assert_eq!(
        contents(&h[0].values.to_json(), "messages").last().unwrap(),
        "reply (saw 3)"
    );
}
