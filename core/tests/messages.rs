//! Spec §12 and §15.20: `add_messages` inside a graph — coercion, ids given
//! only when writes are applied, replace by id in place, removal, and what
//! the stored input and pending writes keep (the raw value, without ids).

mod common;

use chronograph::{add_messages, clock::IdGenerator, clock::ManualClock, CheckpointSaver};
use common::*;
use serde_json::{json, Value};
use std::rc::Rc;

const T: &str = "t";

fn ids() -> IdGenerator {
    IdGenerator::with_seed(Rc::new(ManualClock::new()), 5)
}

fn typed(values: &Value) -> Vec<String> {
    values["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            format!(
                "{}:{}",
                m["type"].as_str().unwrap(),
                m["content"].as_str().unwrap()
            )
        })
        .collect()
}

fn is_uuid4(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| s.len() == 36 && &s[14..15] == "4")
}

#[test]
fn ids_are_assigned_when_writes_are_applied_and_the_stored_input_keeps_none() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let out = app.invoke(say("hi"), &thread(T)).unwrap();
    assert!(out.values.to_json()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| is_uuid4(&m["id"])));
    let input = stored(&*saver, T).pop().unwrap();
    assert_eq!(
        input.checkpoint.channel_values["__start__"].to_json(),
        say("hi")
    );
    let start_write = &input.pending_writes[0];
    assert_eq!(start_write.channel, "messages");
    assert_eq!(
        start_write.value,
        json!([human("hi")]),
        "no id in the pending write"
    );
}

#[test]
fn strings_tuples_and_role_dicts_are_coerced_to_messages() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let input = json!({"messages": [
        "plain",
        ["user", "tuple"],
        {"role": "assistant", "content": "dict"},
        {"type": "system", "content": "sys"},
        ["developer", "dev"],
        {"role": "tool", "content": "t", "tool_call_id": "c1"}
    ]});
    let out = app.invoke(input.clone(), &thread(T)).unwrap();
    assert_eq!(
        typed(&out.values.to_json())[..6],
        [
            "human:plain",
            "human:tuple",
            "ai:dict",
            "system:sys",
            "system:dev",
            "tool:t"
        ]
    );
    assert_eq!(
        out.values.to_json()["messages"][5]["tool_call_id"],
        json!("c1")
    );
    // A single message (not in a list) is accepted too.
    let out = app
        .invoke(json!({"messages": "solo"}), &thread("u"))
        .unwrap();
    assert_eq!(typed(&out.values.to_json())[0], "human:solo");
    // The stored input keeps the raw value: tuples stay two-item lists.
    let c0 = stored(&*saver, T).pop().unwrap().checkpoint;
    assert_eq!(c0.channel_values["__start__"].to_json(), input);
}

#[test]
fn a_message_with_an_existing_id_replaces_it_in_place() {
    let saver = saver();
    let (app, _) = booking(&saver);
    app.invoke(
        json!({"messages": [{"type": "human", "content": "first", "id": "m1"}]}),
        &thread(T),
    )
    .unwrap();
    let cfg = app
        .update_state(
            &thread(T),
            Some(json!({"messages": [{"type": "ai", "content": "replaced", "id": "m1"}]})),
            Some("reply"),
        )
        .unwrap();
    let values = app.get_state(&cfg).unwrap().values.to_json();
    assert_eq!(
        typed(&values),
        ["ai:replaced", "ai:booked (saw 1)", "ai:reply (saw 2)"],
        "same position, type may change"
    );
    assert_eq!(values["messages"][0]["id"], json!("m1"));
}

#[test]
fn a_remove_message_deletes_by_id_and_remove_all_keeps_what_follows() {
    let saver = saver();
    let (app, _) = booking(&saver);
    app.invoke(
        json!({"messages": [{"type": "human", "content": "hi", "id": "m1"}]}),
        &thread(T),
    )
    .unwrap();
    let cfg = app
        .update_state(
            &thread(T),
            Some(json!({"messages": [{"type": "remove", "id": "m1"}]})),
            Some("reply"),
        )
        .unwrap();
    let values = app.get_state(&cfg).unwrap().values.to_json();
    assert_eq!(typed(&values), ["ai:booked (saw 1)", "ai:reply (saw 2)"]);

    let cfg = app
        .update_state(
            &thread(T),
            Some(json!({"messages": [{"type": "remove", "id": "__remove_all__"}, "fresh start"]})),
            Some("reply"),
        )
        .unwrap();
    let values = app.get_state(&cfg).unwrap().values.to_json();
    assert_eq!(typed(&values), ["human:fresh start"]);
}

#[test]
fn duplicate_ids_inside_one_write_keep_the_first_position_with_the_later_content() {
    let g = ids();
    let left = add_messages(
        None,
        json!([{"type": "human", "content": "a", "id": "1"}]),
        &g,
    )
    .unwrap();
    let merged = add_messages(
        Some(&left),
        json!([
            {"type": "ai", "content": "x", "id": "2"},
            {"type": "ai", "content": "y", "id": "3"},
            {"type": "ai", "content": "z", "id": "2"}
        ]),
        &g,
    )
    .unwrap();
    let contents: Vec<String> = chronograph::ChannelValue::List(merged)
        .to_json()
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(contents, ["a", "z", "y"]);
}

#[test]
fn an_update_state_message_has_no_id_on_the_base_but_one_in_the_channel() {
    let saver = saver();
    let options = chronograph::CompileOptions {
        interrupt_before: vec!["reply".into()],
        ..opts(&saver)
    };
    let (app, _) = booking_graph(&saver, options);
    app.invoke(say("hi"), &thread(T)).unwrap();
    let base = latest(&*saver, T).config;
    let cfg = app
        .update_state(
            &thread(T),
            Some(json!({"messages": [ai("manual")]})),
            Some("reply"),
        )
        .unwrap();
    let rows = saver.get_tuple(&base).unwrap().unwrap().pending_writes;
    assert_eq!(rows[0].value, json!([ai("manual")]));
    let values = app.get_state(&cfg).unwrap().values.to_json();
    assert!(is_uuid4(&values["messages"][2]["id"]));
}

#[test]
fn message_coercion_errors_use_langchains_wording() {
    let g = ids();
    let err = add_messages(None, json!({"role": "bogus", "content": "x"}), &g).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ValueError: Unexpected message type: 'bogus'. Use one of 'human', 'user', 'ai', 'assistant', 'function', 'tool', 'system', or 'developer'."
    );
    let err = add_messages(None, json!({"content": "x"}), &g).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ValueError: Message dict must contain 'role' and 'content' keys, got {'content': 'x'}"
    );
    let err = add_messages(None, json!({"type": "human"}), &g).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ValueError: Message dict must contain 'role' and 'content' keys, got {'type': 'human'}",
        "the dict is shown as it was given"
    );
    let err = add_messages(None, json!([5]), &g).unwrap_err();
    assert_eq!(
        err.to_string().lines().next(),
        Some("NotImplementedError: Unsupported message type: <class 'int'>")
    );
    let err = add_messages(None, json!({"type": "remove", "id": "ghost"}), &g).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ValueError: Attempting to delete a message with an ID that doesn't exist ('ghost')"
    );
}

#[test]
fn a_bad_message_in_the_run_input_fails_when_start_runs_after_the_input_checkpoint() {
    let saver = saver();
    let (app, calls) = booking(&saver);
    let err = app
        .invoke(
            json!({"messages": [{"role": "bogus", "content": "x"}]}),
            &thread(T),
        )
        .unwrap_err();
    assert!(err
        .to_string()
        .starts_with("ValueError: Unexpected message type: 'bogus'."));
    assert!(calls.take().is_empty());
    assert_eq!(steps(&app, &thread(T)), [row(-1, "input", &["__start__"])]);
}
