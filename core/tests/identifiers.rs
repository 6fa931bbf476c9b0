//! Spec §2.1–2.2: checkpoint ids are UUIDv6 with the step as clock
//! sequence, strictly increasing in creation order even within one clock
//! tick; timestamps are ISO-8601 UTC with microseconds; task ids are the
//! xxh3-128 of the checkpoint, namespace, step, node and triggers.

mod common;

use chronograph::clock::{iso_timestamp, ManualClock};
use chronograph::{CompileOptions, CompiledGraph, InMemorySaver, COPY};
use common::*;
use serde_json::{json, Value};
use std::rc::Rc;

const T: &str = "t";

/// The seed graph on a clock that never moves.
fn frozen() -> (Rc<InMemorySaver>, CompiledGraph) {
    let saver = saver();
    let options = CompileOptions {
        clock: Some(Rc::new(ManualClock::starting_at(
            1_767_225_600_000_000_000,
            0,
        ))),
        ..opts(&saver)
    };
    let (app, _) = booking_graph(&saver, options);
    (saver, app)
}

fn creation_order(saver: &InMemorySaver) -> Vec<String> {
    let mut ids: Vec<String> = stored(saver, T)
        .into_iter()
        .map(|t| t.checkpoint.id)
        .collect();
    ids.reverse(); // newest first -> oldest first
    ids
}

#[test]
fn checkpoint_ids_are_uuid_v6_with_the_step_as_clock_sequence() {
    let saver = saver();
    let (app, _) = booking(&saver);
    app.invoke(say("hi"), &thread(T)).unwrap();
    app.invoke(say("again"), &thread(T)).unwrap();
    let seqs: Vec<(i64, String)> = stored(&*saver, T)
        .into_iter()
        .rev()
        .map(|t| (t.metadata.step, seq(&t.checkpoint.id).to_owned()))
        .collect();
    assert_eq!(
        seqs,
        [
            (-1, "bfff"),
            (0, "8000"),
            (1, "8001"),
            (2, "8002"),
            (3, "8003"),
            (4, "8004"),
            (5, "8005"),
            (6, "8006")
        ]
        .map(|(s, q)| (s, q.to_owned()))
    );
    for id in creation_order(&saver) {
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "6", "version nibble of {id}");
        assert!(
            matches!(&id[19..20], "8" | "9" | "a" | "b"),
            "variant of {id}"
        );
    }
}

#[test]
fn checkpoint_ids_increase_strictly_even_when_the_clock_stands_still() {
    let (saver, app) = frozen();
    app.invoke(say("hi"), &thread(T)).unwrap();
    let c1 = creation_order(&saver)[1].clone();
    app.invoke(Value::Null, &at(T, &c1)).unwrap();
    app.update_state(&at(T, &c1), None, Some(COPY)).unwrap();
    app.update_state(&thread(T), Some(json!({"messages": [ai("x")]})), None)
        .unwrap();
    let ids = creation_order(&saver);
    assert_eq!(ids.len(), 9); // 4 + fork and 2 loops + copy + update
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(ids, sorted, "lexicographic order is creation order");
    // "Latest" is therefore the most recently created checkpoint.
    assert_eq!(latest(&*saver, T).checkpoint.id, *ids.last().unwrap());
}

#[test]
fn the_timestamp_is_iso_utc_with_microseconds_and_matches_the_id_time() {
    let saver = saver();
    let (app, _) = booking(&saver);
    app.invoke(say("hi"), &thread(T)).unwrap();
    for t in stored(&*saver, T) {
        let id = t.checkpoint.id.replace('-', "");
        let time_high = u64::from_str_radix(&id[0..12], 16).unwrap();
        let time_low = u64::from_str_radix(&id[13..16], 16).unwrap();
        let ticks = (time_high << 12) | time_low;
        let unix_nanos = u128::from(ticks - 0x01B2_1DD2_1381_4000) * 100;
        assert_eq!(t.checkpoint.ts, iso_timestamp(unix_nanos));
        assert!(t.checkpoint.ts.starts_with("2026-01-01T00:00:00."));
        assert!(t.checkpoint.ts.ends_with("+00:00"));
    }
}

#[test]
fn task_ids_are_the_xxh3_of_checkpoint_namespace_step_node_and_triggers() {
    let saver = saver();
    let (app, _) = booking(&saver);
    app.invoke(say("hi"), &thread(T)).unwrap();
    let step0 = history(&app, &thread(T))
        .into_iter()
        .find(|s| s.next == ["booking"])
        .unwrap();
    let hex = id_of(&step0).replace('-', "");
    let mut bytes: Vec<u8> = (0..16)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    // ns ‖ step ‖ node ‖ "__pregel_pull" ‖ triggers, at the step the task runs.
    for part in [
        "booking",
        "1",
        "booking",
        "__pregel_pull",
        "branch:to:booking",
    ] {
        bytes.extend_from_slice(part.as_bytes());
    }
    let h = format!("{:032x}", xxhash_rust::xxh3::xxh3_128(&bytes));
    let expected = format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    );
    assert_eq!(step0.tasks[0].id, expected);
}

#[test]
fn a_copy_takes_the_originals_step_as_clock_sequence() {
    let saver = saver();
    let (app, _) = booking(&saver);
    app.invoke(say("hi"), &thread(T)).unwrap();
    let step1 = id_by_label(&*saver, T, "C2");
    let copy = app.update_state(&at(T, &step1), None, Some(COPY)).unwrap();
    let copy_id = copy.checkpoint_id().unwrap();
    assert_eq!(seq(&copy_id), "8001");
    assert_eq!(tuple(&*saver, T, &copy_id).metadata.step, 2);
}
