//! Spec §5, §2.3 and §15.10: `get_state` (live without a checkpoint id,
//! record with one), `get_state_history` (newest first, never live, one
//! namespace, filter/before/limit) and the `lineage` walk to the root.

mod common;

use chronograph::{
    Checkpoint, CheckpointConfig, CheckpointMetadata, CheckpointSaver, Command, ListOptions,
    RunInput, Source,
};
use common::*;
use serde_json::{json, Value};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;

#[test]
fn get_state_without_an_id_is_live_and_with_an_id_is_a_record() {
    // §5 observation: `b` succeeded and `c` raised in one parallel step.
    let saver = saver();
    let (app, _) = fanout(&saver, Rc::new(Cell::new(true)));
    let cfg = thread("t");
    app.invoke(json!({"items": []}), &cfg).unwrap_err();
    let live = app.get_state(&cfg).unwrap();
    let record = app.get_state(&cfg.clone().at(id_of(&live))).unwrap();
    assert_eq!(items(&live.values), ["a", "b"]);
    assert_eq!(live.next, ["c"]);
    assert_eq!(items(&record.values), ["a"]);
    assert_eq!(record.next, ["b", "c"]);
    for snap in [&live, &record] {
        let names: Vec<&str> = snap.tasks.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["b", "c"]);
        assert_eq!(snap.tasks[0].result, Some(json!({"items": ["b"]})));
        assert_eq!(snap.tasks[0].error, None);
        assert_eq!(
            snap.tasks[1].result, None,
            "an unfinished task has no result"
        );
        assert_eq!(
            snap.tasks[1].error.as_deref(),
            Some("ValueError('boom in c')")
        );
    }
    // Every history entry is a record.
    assert_eq!(history(&app, &cfg)[0], record);
}

#[test]
fn live_mode_depends_on_the_presence_of_the_checkpoint_id_key_not_its_value() {
    let saver = saver();
    let (app, _) = fanout(&saver, Rc::new(Cell::new(true)));
    let cfg = thread("t");
    app.invoke(json!({"items": []}), &cfg).unwrap_err();
    for empty in [json!(null), json!("")] {
        let mut keyed = cfg.clone();
        keyed.configurable.insert("checkpoint_id".into(), empty);
        let snap = app.get_state(&keyed).unwrap();
        assert_eq!(step_of(&snap), 1, "an empty id still loads the latest");
        assert_eq!(snap.next, ["b", "c"], "but the snapshot is not live");
    }
}

#[test]
fn a_missing_checkpoint_gives_an_empty_snapshot() {
    let saver = saver();
    let (app, _) = booking(&saver);
    app.invoke(say("hi"), &thread("t")).unwrap();
    for cfg in [
        thread("unknown"),
        at("t", "1f000000-0000-6000-8000-000000000000"),
    ] {
        let snap = app.get_state(&cfg).unwrap();
        assert_eq!(snap.values.to_json(), json!({}));
        assert!(snap.next.is_empty() && snap.tasks.is_empty() && snap.interrupts.is_empty());
        assert_eq!(snap.metadata, None);
        assert_eq!(snap.created_at, None);
        assert_eq!(snap.parent_config, None);
        assert_eq!(snap.config.thread_id, cfg.thread_id().unwrap());
        assert_eq!(snap.config.checkpoint_id, cfg.checkpoint_id());
    }
}

#[test]
fn a_snapshot_carries_the_stored_config_metadata_timestamp_and_parent() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = thread("t");
    app.invoke(say("hi"), &cfg).unwrap();
    let snap = app.get_state(&cfg).unwrap();
    let t = latest(&*saver, "t");
    assert_eq!(snap.config, t.config);
    assert_eq!(snap.config.checkpoint_ns, "");
    assert_eq!(snap.metadata.as_ref(), Some(&t.metadata));
    assert_eq!(snap.created_at.as_deref(), Some(t.checkpoint.ts.as_str()));
    assert_eq!(snap.parent_config, t.parent_config);
    let ts = snap.created_at.unwrap();
    assert!(
        ts.starts_with("2026-01-01T00:00:00.") && ts.ends_with("+00:00"),
        "{ts}"
    );
    assert_eq!(ts.len(), "2026-01-01T00:00:00.000000+00:00".len());
}

#[test]
fn a_finished_task_with_no_state_writes_has_an_empty_result() {
    let saver = saver();
    let mut g = chronograph::StateGraph::new();
    g.add_channel("x", chronograph::Reducer::LastValue)
        .add_node(
            "quiet",
            |_: &chronograph::State, _: &chronograph::NodeContext| Ok(json!({})),
        )
        .add_node(
            "loud",
            |_: &chronograph::State, _: &chronograph::NodeContext| Ok(json!({"x": 2})),
        )
        .add_edge(chronograph::START, "quiet")
        .add_edge("quiet", "loud");
    let app = g.compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    app.invoke(json!({"x": 1}), &cfg).unwrap();
    let h = history(&app, &cfg);
    let quiet = h.iter().find(|s| s.next == ["quiet"]).unwrap();
    // The edge write to `branch:to:loud` is not a state key: left out.
    assert_eq!(quiet.tasks[0].result, Some(json!({})));
    let loud = h.iter().find(|s| s.next == ["loud"]).unwrap();
    assert_eq!(loud.tasks[0].result, Some(json!({"x": 2})));
    assert_eq!(h[0].tasks, vec![], "a terminal checkpoint has no tasks");
}

#[test]
fn null_task_writes_are_applied_in_both_modes_but_next_is_computed_before_them() {
    let saver = saver();
    let calls = Calls::default();
    let mut g = chronograph::StateGraph::new();
    g.add_channel("items", chronograph::Reducer::Append)
        .add_node("a", appender(&calls, "a"))
        .add_node("b", appender(&calls, "b"))
        .add_edge(chronograph::START, "a");
    let app = g.compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    app.invoke(json!({"items": []}), &cfg).unwrap();
    let terminal = id_of(&app.get_state(&cfg).unwrap());
    let cmd = Command {
        update: Some(json!({"items": ["ext"]})),
        goto: vec!["b".into()],
        ..Default::default()
    };
    app.invoke(RunInput::Command(cmd), &cfg).unwrap();
    let record = app.get_state(&at("t", &terminal)).unwrap();
    assert_eq!(items(&record.values), ["a", "ext"], "the update shows");
    assert!(
        record.next.is_empty(),
        "the goto does not: next predates it"
    );
}

#[test]
fn history_is_newest_first_and_never_live() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = thread("t");
    app.invoke(say("hi 1"), &cfg).unwrap();
    app.invoke(say("hi 2"), &cfg).unwrap();
    let h = history(&app, &cfg);
    let ids: Vec<String> = h.iter().map(id_of).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.reverse();
    assert_eq!(ids, sorted);
    for s in &h {
        assert_eq!(*s, app.get_state(&at("t", &id_of(s))).unwrap());
    }
}

#[test]
fn history_filter_before_and_limit_work_like_the_savers_list() {
    // §2.3 observation on a 4-checkpoint thread (steps -1, 0, 1, 2).
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = thread("t");
    app.invoke(say("hi"), &cfg).unwrap();
    let step_ids: BTreeMap<i64, String> = history(&app, &cfg)
        .iter()
        .map(|s| (step_of(s), id_of(s)))
        .collect();
    let run = |options: ListOptions| -> Vec<i64> {
        app.get_state_history(&cfg, &options)
            .unwrap()
            .iter()
            .map(step_of)
            .collect()
    };
    let filter = |k: &str, v: Value| BTreeMap::from([(k.to_owned(), v)]);
    assert_eq!(
        run(ListOptions {
            limit: Some(2),
            ..Default::default()
        }),
        [2, 1]
    );
    assert_eq!(
        run(ListOptions {
            before: Some(step_ids[&1].clone()),
            ..Default::default()
        }),
        [0, -1]
    );
    assert_eq!(
        run(ListOptions {
            before: Some(step_ids[&1].clone()),
            limit: Some(1),
            ..Default::default()
        }),
        [0]
    );
    assert_eq!(
        run(ListOptions {
            filter: filter("source", json!("loop")),
            ..Default::default()
        }),
        [2, 1, 0]
    );
    assert_eq!(
        run(ListOptions {
            filter: filter("step", json!(0)),
            ..Default::default()
        }),
        [0]
    );
}

#[test]
fn history_with_a_checkpoint_id_lists_only_that_checkpoint() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = thread("t");
    app.invoke(say("hi"), &cfg).unwrap();
    let one = history(&app, &cfg)[2].clone();
    let listed = history(&app, &at("t", &id_of(&one)));
    assert_eq!(listed, vec![one]);
    assert!(history(&app, &at("t", "1f000000-0000-6000-8000-000000000000")).is_empty());
}

#[test]
fn history_of_an_unknown_thread_is_empty() {
    let saver = saver();
    let (app, _) = booking(&saver);
    assert!(history(&app, &thread("nobody")).is_empty());
}

#[test]
fn history_never_mixes_namespaces_though_the_savers_list_does() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = thread("t");
    app.invoke(say("hi"), &cfg).unwrap();
    // A checkpoint in a child namespace of the same thread.
    let child = CheckpointConfig {
        thread_id: "t".into(),
        checkpoint_ns: "child:0".into(),
        checkpoint_id: None,
    };
    let c = Checkpoint::empty(
        "1f0ffff0-0000-6000-8000-000000000000".into(),
        "2026-01-01T00:00:00.000000+00:00".into(),
    );
    saver
        .put(
            &child,
            &c,
            CheckpointMetadata::new(Source::Input, -1),
            &Default::default(),
        )
        .unwrap();
    assert_eq!(stored(&*saver, "t").len(), 5);
    assert_eq!(history(&app, &cfg).len(), 4);
}

#[test]
fn lineage_walks_from_a_checkpoint_up_its_parents_to_the_root() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = thread("t");
    app.invoke(say("hi"), &cfg).unwrap();
    let c2 = id_by_label(&*saver, "t", "C2");
    app.invoke(Value::Null, &at("t", &c2)).unwrap(); // fork C4, loop C5
    let walk: Vec<String> = app
        .lineage(&cfg)
        .unwrap()
        .iter()
        .map(|s| labels(&*saver, "t")[&id_of(s)].clone())
        .collect();
    assert_eq!(walk, ["C5", "C4", "C2", "C1", "C0"]);
    // From any checkpoint, not only the latest; history lists all branches.
    let from_c3: Vec<i64> = app
        .lineage(&at("t", &id_by_label(&*saver, "t", "C3")))
        .unwrap()
        .iter()
        .map(step_of)
        .collect();
    assert_eq!(from_c3, [2, 1, 0, -1]);
    assert_eq!(history(&app, &cfg).len(), 6);
}

#[test]
fn lineage_of_an_unknown_checkpoint_is_an_error_and_of_an_unknown_thread_empty() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let id = "1f000000-0000-6000-8000-000000000000";
    let err = app.lineage(&at("t", id)).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("ValueError: Checkpoint {id} not found")
    );
    assert!(app.lineage(&thread("nobody")).unwrap().is_empty());
}

#[test]
fn lineage_stops_at_a_dangling_parent() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let ghost = "1f000000-0000-6000-8000-000000000000";
    app.invoke(say("hi"), &at("t", ghost)).unwrap();
    let walk = app.lineage(&thread("t")).unwrap();
    assert_eq!(walk.len(), 4);
    assert_eq!(parent_of(walk.last().unwrap()).as_deref(), Some(ghost));
}

#[test]
fn next_lists_tasks_in_node_registration_order() {
    let saver = saver();
    let calls = Calls::default();
    let mut g = chronograph::StateGraph::new();
    g.add_channel("items", chronograph::Reducer::Append)
        .add_node("zz", appender(&calls, "zz"))
        .add_node("aa", appender(&calls, "aa"))
        .add_edge(chronograph::START, "zz")
        .add_edge(chronograph::START, "aa");
    let app = g.compile(opts(&saver)).unwrap();
    let cfg = thread("t");
    let out = app.invoke(json!({"items": []}), &cfg).unwrap();
    assert_eq!(history(&app, &cfg)[1].next, ["zz", "aa"]);
    // Writes are still applied by task path (node name).
    assert_eq!(strings(&out.values.to_json()["items"]), ["aa", "zz"]);
}
