//! Spec §13: the seed experiment, replayed operation by operation on the
//! `START -> booking -> reply -> END` graph. After every operation the whole
//! thread is printed in the spec's table format and compared with the golden
//! table LangGraph produced (step, source, id clock-seq, next, parent,
//! #messages, #pending writes, updated_channels).

mod common;

use chronograph::{CheckpointSaver, CompiledGraph, InMemorySaver, ListOptions, RunnableConfig};
use common::*;
use serde_json::{json, Value};

const T: &str = "t1";

fn py_tuple(items: &[String]) -> String {
    match items {
        [] => "()".into(),
        [one] => format!("('{one}',)"),
        many => format!(
            "({})",
            many.iter()
                .map(|s| format!("'{s}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The thread as the spec prints it, newest first, whitespace-normalised.
fn table(app: &CompiledGraph, saver: &InMemorySaver) -> Vec<String> {
    let labels = labels(saver, T);
    let history = app
        .get_state_history(&thread(T), &ListOptions::default())
        .unwrap();
    history
        .iter()
        .map(|s| {
            let id = id_of(s);
            let t = tuple(saver, T, &id);
            let updated = match &t.checkpoint.updated_channels {
                None => "None".to_owned(),
                Some(c) => format!(
                    "[{}]",
                    c.iter()
                        .map(|x| format!("'{x}'"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            let parent = parent_of(s).map_or("-".to_owned(), |p| labels[&p].clone());
            format!(
                "{} {} {} {} {} {} {} {} {}",
                labels[&id],
                step_of(s),
                source_of(s),
                seq(&id),
                py_tuple(&s.next),
                parent,
                count(&s.values, "messages"),
                t.pending_writes.len(),
                updated
            )
        })
        .collect()
}

fn golden(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

fn cfg_of(saver: &dyn CheckpointSaver, label: &str) -> RunnableConfig {
    at(T, &id_by_label(saver, T, label))
}

fn messages(out: &Value) -> Vec<String> {
    contents(out, "messages")
}

#[test]
fn the_seed_experiment_reproduces_langgraphs_golden_tables() {
    let saver = saver();
    let (app, calls) = booking(&saver);
    let cfg = thread(T);

    // 1. invoke #1
    let out = app.invoke(say("hi 1"), &cfg).unwrap();
    assert_eq!(
        messages(&out.values.to_json()),
        ["hi 1", "booked (saw 1)", "reply (saw 2)"]
    );
    assert_eq!(calls.take(), ["booking", "reply"]);
    assert_eq!(
        table(&app, &saver),
        golden(
            "C3      2 loop   8002 ()             C2         3   0  ['messages']
             C2      1 loop   8001 ('reply',)     C1         2   1  ['branch:to:reply', 'messages']
             C1      0 loop   8000 ('booking',)   C0         1   2  ['branch:to:booking', 'messages']
             C0     -1 input  bfff ('__start__',) -          0   2  ['__start__']"
        )
    );

    // 2. invoke #2
    let out = app.invoke(say("hi 2"), &cfg).unwrap();
    assert_eq!(
        messages(&out.values.to_json()),
        [
            "hi 1",
            "booked (saw 1)",
            "reply (saw 2)",
            "hi 2",
            "booked (saw 4)",
            "reply (saw 5)"
        ]
    );
    assert_eq!(calls.take(), ["booking", "reply"]);
    let after_two_rounds = golden(
        "C7      6 loop   8006 ()             C6         6   0  ['messages']
         C6      5 loop   8005 ('reply',)     C5         5   1  ['branch:to:reply', 'messages']
         C5      4 loop   8004 ('booking',)   C4         4   2  ['branch:to:booking', 'messages']
         C4      3 input  8003 ('__start__',) C3         3   2  ['__start__']
         C3      2 loop   8002 ()             C2         3   0  ['messages']
         C2      1 loop   8001 ('reply',)     C1         2   1  ['branch:to:reply', 'messages']
         C1      0 loop   8000 ('booking',)   C0         1   2  ['branch:to:booking', 'messages']
         C0     -1 input  bfff ('__start__',) -          0   2  ['__start__']",
    );
    assert_eq!(table(&app, &saver), after_two_rounds);

    // 3. replay C2 (step 1, next=reply)
    let out = app.invoke(Value::Null, &cfg_of(&*saver, "C2")).unwrap();
    assert_eq!(
        messages(&out.values.to_json()),
        ["hi 1", "booked (saw 1)", "reply (saw 2)"]
    );
    assert_eq!(calls.take(), ["reply"]);
    let mut expected = golden(
        "C9      3 loop   8003 ()             C8         3   0  ['messages']
         C8      2 fork   8002 ('reply',)     C2         2   1  None",
    );
    expected.extend(after_two_rounds.clone());
    assert_eq!(table(&app, &saver), expected);

    // 4. replay the terminal C3: a fork and nothing else.
    let out = app.invoke(Value::Null, &cfg_of(&*saver, "C3")).unwrap();
    assert_eq!(
        messages(&out.values.to_json()),
        ["hi 1", "booked (saw 1)", "reply (saw 2)"]
    );
    assert!(calls.take().is_empty());
    expected.insert(0, golden("C10 3 fork 8003 () C3 3 0 None").remove(0));
    assert_eq!(table(&app, &saver), expected);

    // 5. update_state(C0, edited booking, as_node=booking)
    let c0 = id_by_label(&*saver, T, "C0");
    let c0_writes_before = tuple(&*saver, T, &c0).pending_writes;
    let updated = app
        .update_state(
            &at(T, &c0),
            Some(json!({"messages": [ai("edited booking")]})),
            Some("booking"),
        )
        .unwrap();
    assert!(calls.take().is_empty());
    assert_eq!(
        updated.checkpoint_id(),
        Some(id_by_label(&*saver, T, "C11"))
    );
    expected.insert(
        0,
        golden("C11 0 update 8000 ('reply',) C0 1 0 None").remove(0),
    );
    assert_eq!(table(&app, &saver), expected);
    // §13.2: C0 had been superseded, so the update was not stored on it.
    assert_eq!(tuple(&*saver, T, &c0).pending_writes, c0_writes_before);
    let c11 = tuple(&*saver, T, &id_by_label(&*saver, T, "C11")).checkpoint;
    assert_eq!(
        c11.versions_seen.keys().map(|k| &**k).collect::<Vec<_>>(),
        ["__input__", "booking"]
    );
    assert!(c11.versions_seen.values().all(|seen| seen.is_empty()));
    let v = &c11.channel_versions;
    assert!(v["__start__"] == v["messages"] && v["messages"] == v["branch:to:reply"]);
    assert!(!c11.channel_values.contains_key("__start__"));

    // 6. invoke(None, config returned by 5): no fork under an update that is
    // still the latest.
    let out = app.invoke(Value::Null, &updated).unwrap();
    assert_eq!(
        messages(&out.values.to_json()),
        ["edited booking", "reply (saw 1)"]
    );
    assert_eq!(calls.take(), ["reply"]);
    expected[0] = golden("C11 0 update 8000 ('reply',) C0 1 1 None").remove(0);
    expected.insert(
        0,
        golden("C12 1 loop 8001 () C11 2 0 ['messages']").remove(0),
    );
    assert_eq!(table(&app, &saver), expected);

    // 7. __copy__ of the latest (C12): a sibling under C11.
    app.update_state(&cfg, None, Some("__copy__")).unwrap();
    expected.insert(0, golden("C13 2 fork 8001 () C11 2 0 None").remove(0));
    assert_eq!(table(&app, &saver), expected);

    // 8. invoke(None, thread) on the terminal copy writes nothing.
    let out = app.invoke(Value::Null, &cfg).unwrap();
    assert_eq!(
        messages(&out.values.to_json()),
        ["edited booking", "reply (saw 1)"]
    );
    assert!(calls.take().is_empty());
    assert_eq!(table(&app, &saver), expected);

    // 9. __copy__ of C6 (step 5, next=reply).
    app.update_state(&cfg_of(&*saver, "C6"), None, Some("__copy__"))
        .unwrap();
    expected.insert(
        0,
        golden("C14 6 fork 8005 ('reply',) C5 5 0 None").remove(0),
    );
    assert_eq!(table(&app, &saver), expected);

    // 10. invoke(None, thread): the latest is the copy; not addressed => no fork.
    let out = app.invoke(Value::Null, &cfg).unwrap();
    assert_eq!(
        messages(&out.values.to_json()),
        [
            "hi 1",
            "booked (saw 1)",
            "reply (saw 2)",
            "hi 2",
            "booked (saw 4)",
            "reply (saw 5)"
        ]
    );
    assert_eq!(calls.take(), ["reply"]);
    expected[0] = golden("C14 6 fork 8005 ('reply',) C5 5 1 None").remove(0);
    expected.insert(
        0,
        golden("C15 7 loop 8007 () C14 6 0 ['messages']").remove(0),
    );
    assert_eq!(table(&app, &saver), expected);
}

#[test]
fn a_replay_fork_has_the_replayed_versions_plus_an_interrupt_snapshot_of_them() {
    // §13.2: the fork C8 compared with C2.
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = thread(T);
    app.invoke(say("hi 1"), &cfg).unwrap();
    let c2 = id_by_label(&*saver, T, "C2");
    app.invoke(Value::Null, &at(T, &c2)).unwrap();
    let original = tuple(&*saver, T, &c2).checkpoint;
    let fork = tuple(&*saver, T, &id_by_label(&*saver, T, "C4")).checkpoint;
    assert_eq!(fork.channel_versions, original.channel_versions);
    assert_eq!(fork.channel_values, original.channel_values);
    assert_eq!(fork.updated_channels, None);
    let mut seen = (*fork.versions_seen).clone();
    assert_eq!(
        seen.remove("__interrupt__").as_deref(),
        Some(&*original.channel_versions)
    );
    assert_eq!(seen, *original.versions_seen);
}
