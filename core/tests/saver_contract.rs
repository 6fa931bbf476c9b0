//! The `CheckpointSaver` contract (spec §1.3, §1.4, §2.3), written once over
//! any saver and run against `InMemorySaver`: put / get_tuple, list ordering
//! and filters, namespaces, put_writes slots and ordering, delete_thread,
//! get_next_version. Plus InMemorySaver's export/import round trip.

mod common;

use chronograph::{
    ChannelValue, ChannelVersions, Checkpoint, CheckpointConfig, CheckpointMetadata,
    CheckpointSaver, InMemorySaver, ListOptions, ListTarget, Source, Version, NULL_TASK_ID,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// A checkpoint id that sorts by `n` (ids are compared as strings).
fn cid(n: u32) -> String {
    format!("1f0{n:05x}-0000-6000-8000-000000000000")
}

fn v(counter: u64, salt: u64) -> Version {
    Version { counter, salt }
}

/// A checkpoint `n` whose channels hold `values` at `versions`.
fn checkpoint(n: u32, values: &[(&str, Value)], versions: &[(&str, Version)]) -> Checkpoint {
    let mut c = Checkpoint::empty(cid(n), format!("2026-01-01T00:00:0{n}.000000+00:00"));
    for (k, val) in values {
        c.channel_values
            .insert((*k).into(), ChannelValue::from_json(val.clone()));
    }
    for (k, ver) in versions {
        std::sync::Arc::make_mut(&mut c.channel_versions).insert((*k).into(), *ver);
    }
    c
}

fn meta(source: Source, step: i64) -> CheckpointMetadata {
    CheckpointMetadata::new(source, step)
}

fn meta_with(source: Source, step: i64, extra: &[(&str, Value)]) -> CheckpointMetadata {
    let mut m = meta(source, step);
    m.extra = extra
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    m
}

fn addr(thread: &str, ns: &str, id: Option<u32>) -> CheckpointConfig {
    CheckpointConfig {
        thread_id: thread.to_owned(),
        checkpoint_ns: ns.to_owned(),
        checkpoint_id: id.map(cid),
    }
}

fn all_new(c: &Checkpoint) -> ChannelVersions {
    (*c.channel_versions).clone()
}

/// Puts a linear chain of `n` checkpoints (steps -1, 0, 1, ...) on `thread`.
fn chain<S: CheckpointSaver + ?Sized>(s: &S, thread: &str, n: u32) {
    for i in 0..n {
        let c = checkpoint(i, &[("x", json!(i))], &[("x", v(u64::from(i) + 1, 0))]);
        let source = if i == 0 { Source::Input } else { Source::Loop };
        let parent = addr(thread, "", i.checked_sub(1));
        s.put(&parent, &c, meta(source, i64::from(i) - 1), &all_new(&c))
            .unwrap();
    }
}

fn ids(tuples: &[chronograph::CheckpointTuple]) -> Vec<String> {
    tuples
        .iter()
        .map(|t| t.config.checkpoint_id.clone().unwrap())
        .collect()
}

fn list_ids<S: CheckpointSaver + ?Sized>(
    s: &S,
    target: &ListTarget,
    options: &ListOptions,
) -> Vec<String> {
    ids(&s.list(target, options).unwrap())
}

fn thread_target(t: &str) -> ListTarget {
    ListTarget {
        thread_id: Some(t.to_owned()),
        checkpoint_ns: Some(String::new()),
        checkpoint_id: None,
    }
}

// ---------------------------------------------------------------------------
// The contract, generic over the saver.

fn put_returns_the_new_address_and_get_tuple_reads_it_back<S: CheckpointSaver>(s: S) {
    let c = checkpoint(1, &[("x", json!({"a": 1}))], &[("x", v(1, 0))]);
    let m = meta_with(Source::Input, -1, &[("user", json!("u1"))]);
    let saved = s
        .put(&addr("t", "", None), &c, m.clone(), &all_new(&c))
        .unwrap();
    assert_eq!(saved, addr("t", "", Some(1)));
    let t = s.get_tuple(&saved).unwrap().unwrap();
    assert_eq!(t.config, saved);
    assert_eq!(t.checkpoint, c);
    assert_eq!(t.metadata, m);
    assert_eq!(t.parent_config, None, "a root checkpoint has no parent");
    assert!(t.pending_writes.is_empty());
}

fn put_records_the_configs_checkpoint_id_as_the_parent<S: CheckpointSaver>(s: S) {
    chain(&s, "t", 2);
    let t = s.get_tuple(&addr("t", "", Some(1))).unwrap().unwrap();
    assert_eq!(t.parent_config, Some(addr("t", "", Some(0))));
    // A parent that was never stored is kept as given (a dangling parent).
    let c = checkpoint(9, &[], &[]);
    s.put(
        &addr("t", "", Some(7)),
        &c,
        meta(Source::Input, 0),
        &ChannelVersions::new(),
    )
    .unwrap();
    let t = s.get_tuple(&addr("t", "", Some(9))).unwrap().unwrap();
    assert_eq!(t.parent_config, Some(addr("t", "", Some(7))));
}

fn put_refuses_a_parent_chain_that_loops_and_changes_nothing<S: CheckpointSaver>(s: S) {
    chain(&s, "t", 3);
    let before = s
        .list(&thread_target("t"), &ListOptions::default())
        .unwrap();
    // Checkpoint 2 under itself, and checkpoint 0 (the root) under its grandchild 2.
    for (id, parent) in [(2, 2), (0, 2), (1, 2)] {
        let c = checkpoint(id, &[], &[]);
        let err = s
            .put(
                &addr("t", "", Some(parent)),
                &c,
                meta(Source::Update, 9),
                &ChannelVersions::new(),
            )
            .unwrap_err();
        assert_eq!(err.code(), "INVALID_PARENT", "{id} under {parent}");
        assert!(
            err.message().contains("its own ancestor"),
            "{}",
            err.message()
        );
    }
    assert_eq!(
        s.list(&thread_target("t"), &ListOptions::default())
            .unwrap(),
        before
    );
    // On a new thread too, and without creating it.
    let c = checkpoint(5, &[], &[]);
    assert!(s
        .put(
            &addr("new", "", Some(5)),
            &c,
            meta(Source::Input, -1),
            &ChannelVersions::new()
        )
        .is_err());
    assert!(list_ids(&s, &thread_target("new"), &ListOptions::default()).is_empty());
    // A checkpoint put again under a parent that does not lead back to it is fine,
    // and so is a parent that sorts after the child when no chain loops.
    let c = checkpoint(7, &[], &[]);
    s.put(
        &addr("t", "", Some(9)),
        &c,
        meta(Source::Update, 9),
        &ChannelVersions::new(),
    )
    .unwrap();
    let c = checkpoint(9, &[], &[]);
    let err = s
        .put(
            &addr("t", "", Some(7)),
            &c,
            meta(Source::Update, 9),
            &ChannelVersions::new(),
        )
        .unwrap_err();
    assert_eq!(err.code(), "INVALID_PARENT", "9 -> 7 -> 9 loops");
    s.put(
        &addr("t", "", Some(2)),
        &c,
        meta(Source::Update, 9),
        &ChannelVersions::new(),
    )
    .unwrap();
}

fn get_tuple_without_an_id_returns_the_highest_id_on_any_branch<S: CheckpointSaver>(s: S) {
    chain(&s, "t", 3);
    // A sibling of checkpoint 1, created last: it becomes "the latest".
    let c = checkpoint(5, &[("x", json!("branch"))], &[("x", v(2, 9))]);
    s.put(
        &addr("t", "", Some(0)),
        &c,
        meta(Source::Fork, 1),
        &all_new(&c),
    )
    .unwrap();
    let latest = s.get_tuple(&addr("t", "", None)).unwrap().unwrap();
    assert_eq!(latest.config.checkpoint_id, Some(cid(5)));
    assert_eq!(
        latest.checkpoint.channel_values["x"].to_json(),
        json!("branch")
    );
}

fn get_tuple_of_a_missing_checkpoint_thread_or_namespace_is_none<S: CheckpointSaver>(s: S) {
    chain(&s, "t", 2);
    assert!(s.get_tuple(&addr("t", "", Some(42))).unwrap().is_none());
    assert!(s.get_tuple(&addr("nope", "", None)).unwrap().is_none());
    assert!(s.get_tuple(&addr("t", "child:1", None)).unwrap().is_none());
}

fn unchanged_channels_are_read_back_from_their_stored_version<S: CheckpointSaver>(s: S) {
    let c0 = checkpoint(
        0,
        &[("a", json!(["kept"])), ("b", json!(1))],
        &[("a", v(1, 0)), ("b", v(1, 0))],
    );
    s.put(
        &addr("t", "", None),
        &c0,
        meta(Source::Input, -1),
        &all_new(&c0),
    )
    .unwrap();
    // Only `b` changed: `a` is not handed over again, yet reads back.
    let c1 = checkpoint(
        1,
        &[("a", json!(["kept"])), ("b", json!(2))],
        &[("a", v(1, 0)), ("b", v(2, 1))],
    );
    let only_b: ChannelVersions = [("b".into(), v(2, 1))].into();
    s.put(&addr("t", "", Some(0)), &c1, meta(Source::Loop, 0), &only_b)
        .unwrap();
    let t = s.get_tuple(&addr("t", "", Some(1))).unwrap().unwrap();
    assert_eq!(t.checkpoint.channel_values, c1.channel_values);
    // The older checkpoint still reads its own version of `b`.
    let t0 = s.get_tuple(&addr("t", "", Some(0))).unwrap().unwrap();
    assert_eq!(t0.checkpoint.channel_values["b"].to_json(), json!(1));
}

fn a_channel_stored_without_a_value_reads_back_absent<S: CheckpointSaver>(s: S) {
    // An ephemeral channel cleared in this step: a version, no value.
    let c = checkpoint(0, &[("x", json!(1))], &[("x", v(1, 0)), ("gone", v(1, 0))]);
    s.put(
        &addr("t", "", None),
        &c,
        meta(Source::Loop, 0),
        &all_new(&c),
    )
    .unwrap();
    let t = s.get_tuple(&addr("t", "", None)).unwrap().unwrap();
    assert!(!t.checkpoint.channel_values.contains_key("gone"));
    assert_eq!(t.checkpoint.channel_versions["gone"], v(1, 0));
}

fn list_is_newest_first<S: CheckpointSaver>(s: S) {
    chain(&s, "t", 4);
    assert_eq!(
        list_ids(&s, &thread_target("t"), &ListOptions::default()),
        [cid(3), cid(2), cid(1), cid(0)]
    );
}

fn list_filter_is_an_and_over_stored_metadata_including_extra_keys<S: CheckpointSaver>(s: S) {
    let rows = [
        (0, Source::Input, -1, "u1"),
        (1, Source::Loop, 0, "u1"),
        (2, Source::Loop, 1, "u2"),
        (3, Source::Update, 2, "u1"),
    ];
    for (n, source, step, user) in rows {
        let c = checkpoint(n, &[], &[]);
        let parent = addr("t", "", n.checked_sub(1));
        let m = meta_with(source, step, &[("user_id", json!(user)), ("n", json!(3))]);
        s.put(&parent, &c, m, &ChannelVersions::new()).unwrap();
    }
    let filter = |pairs: &[(&str, Value)]| ListOptions {
        filter: pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
        ..Default::default()
    };
    let t = thread_target("t");
    assert_eq!(
        list_ids(&s, &t, &filter(&[("source", json!("loop"))])),
        [cid(2), cid(1)]
    );
    assert_eq!(list_ids(&s, &t, &filter(&[("step", json!(0))])), [cid(1)]);
    assert_eq!(
        list_ids(&s, &t, &filter(&[("user_id", json!("u1"))])),
        [cid(3), cid(1), cid(0)]
    );
    assert_eq!(
        list_ids(
            &s,
            &t,
            &filter(&[("user_id", json!("u1")), ("source", json!("loop"))])
        ),
        [cid(1)],
        "every key must match"
    );
    assert!(list_ids(&s, &t, &filter(&[("user_id", json!("nobody"))])).is_empty());
    assert!(
        list_ids(&s, &t, &filter(&[("missing", json!(1))])).is_empty(),
        "a key the metadata lacks never matches"
    );
    assert!(
        list_ids(&s, &t, &filter(&[("n", json!("3"))])).is_empty(),
        "values compare exactly, type included"
    );
}

fn list_before_keeps_only_strictly_older_ids<S: CheckpointSaver>(s: S) {
    chain(&s, "t", 4); // steps -1, 0, 1, 2
    let before = |n: u32, limit: Option<usize>| ListOptions {
        before: Some(cid(n)),
        limit,
        ..Default::default()
    };
    let t = thread_target("t");
    assert_eq!(list_ids(&s, &t, &before(2, None)), [cid(1), cid(0)]);
    assert_eq!(list_ids(&s, &t, &before(2, Some(1))), [cid(1)]);
    assert!(list_ids(&s, &t, &before(0, None)).is_empty());
}

fn list_limit_counts_only_results_that_passed_the_filters<S: CheckpointSaver>(s: S) {
    chain(&s, "t", 4); // input -1, loop 0, loop 1, loop 2
    let t = thread_target("t");
    let limited = |limit: usize, filter: &[(&str, Value)]| ListOptions {
        limit: Some(limit),
        filter: filter
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
        ..Default::default()
    };
    assert_eq!(list_ids(&s, &t, &limited(2, &[])), [cid(3), cid(2)]);
    assert_eq!(
        list_ids(&s, &t, &limited(1, &[("source", json!("input"))])),
        [cid(0)],
        "the three newer loop checkpoints do not use up the limit"
    );
    assert!(list_ids(&s, &t, &limited(0, &[])).is_empty());
}

fn list_with_a_checkpoint_id_yields_only_that_checkpoint<S: CheckpointSaver>(s: S) {
    chain(&s, "t", 4);
    let target = ListTarget {
        checkpoint_id: Some(cid(1)),
        ..thread_target("t")
    };
    assert_eq!(list_ids(&s, &target, &ListOptions::default()), [cid(1)]);
    let unknown = ListTarget {
        checkpoint_id: Some(cid(99)),
        ..thread_target("t")
    };
    assert!(list_ids(&s, &unknown, &ListOptions::default()).is_empty());
}

fn namespaces_are_separate_chains_and_list_without_one_covers_all<S: CheckpointSaver>(s: S) {
    chain(&s, "t", 2); // root: 0, 1
    for n in [5, 6] {
        let c = checkpoint(n, &[("y", json!(n))], &[("y", v(u64::from(n), 0))]);
        let parent = addr("t", "child:abc", (n == 6).then_some(5));
        s.put(&parent, &c, meta(Source::Loop, 0), &all_new(&c))
            .unwrap();
    }
    // The latest of each namespace is its own.
    assert_eq!(
        s.get_tuple(&addr("t", "", None)).unwrap().unwrap().config,
        addr("t", "", Some(1))
    );
    let child = s.get_tuple(&addr("t", "child:abc", None)).unwrap().unwrap();
    assert_eq!(child.config, addr("t", "child:abc", Some(6)));
    assert_eq!(child.parent_config, Some(addr("t", "child:abc", Some(5))));
    // One namespace...
    let only_child = ListTarget {
        checkpoint_ns: Some("child:abc".into()),
        ..ListTarget::thread("t")
    };
    assert_eq!(
        list_ids(&s, &only_child, &ListOptions::default()),
        [cid(6), cid(5)]
    );
    // ...or all of them, each namespace a block (insertion order), newest first inside.
    assert_eq!(
        list_ids(&s, &ListTarget::thread("t"), &ListOptions::default()),
        [cid(1), cid(0), cid(6), cid(5)]
    );
    // A checkpoint id is looked up in its own namespace only.
    assert!(s.get_tuple(&addr("t", "", Some(6))).unwrap().is_none());
}

fn list_without_a_thread_lists_every_thread<S: CheckpointSaver>(s: S) {
    chain(&s, "a", 2);
    let c = checkpoint(7, &[], &[]);
    s.put(
        &addr("b", "", None),
        &c,
        meta(Source::Input, -1),
        &ChannelVersions::new(),
    )
    .unwrap();
    let mut all = list_ids(&s, &ListTarget::default(), &ListOptions::default());
    all.sort();
    assert_eq!(all, [cid(0), cid(1), cid(7)]);
}

fn put_writes_keeps_the_first_regular_write_of_a_slot<S: CheckpointSaver>(s: S) {
    chain(&s, "t", 1);
    let at = addr("t", "", Some(0));
    s.put_writes(
        &at,
        &[("x".into(), json!(1))],
        "task-1",
        "~__pregel_pull, a",
    )
    .unwrap();
    s.put_writes(
        &at,
        &[("x".into(), json!(2)), ("y".into(), json!(3))],
        "task-1",
        "~__pregel_pull, a",
    )
    .unwrap();
    let rows: Vec<(String, Value)> = s
        .get_tuple(&at)
        .unwrap()
        .unwrap()
        .pending_writes
        .into_iter()
        .map(|w| (w.channel, w.value))
        .collect();
    // Slot 0 keeps `x = 1`; slot 1 was free, so `y = 3` is stored.
    assert_eq!(rows, [("x".into(), json!(1)), ("y".into(), json!(3))]);
}

fn put_writes_overwrites_control_slots_so_the_last_write_wins<S: CheckpointSaver>(s: S) {
    chain(&s, "t", 1);
    let at = addr("t", "", Some(0));
    for round in 1..=2 {
        for channel in ["__error__", "__interrupt__", "__resume__"] {
            s.put_writes(&at, &[(channel.into(), json!(round))], "task-1", "p")
                .unwrap();
        }
    }
    let rows: BTreeMap<String, Value> = s
        .get_tuple(&at)
        .unwrap()
        .unwrap()
        .pending_writes
        .into_iter()
        .map(|w| (w.channel, w.value))
        .collect();
    assert_eq!(rows.len(), 3);
    assert!(rows.values().all(|v| *v == json!(2)), "{rows:?}");
    // A failed-then-succeeded task keeps both its error and its output rows.
    s.put_writes(&at, &[("x".into(), json!("ok"))], "task-1", "p")
        .unwrap();
    let channels: Vec<String> = s
        .get_tuple(&at)
        .unwrap()
        .unwrap()
        .pending_writes
        .into_iter()
        .map(|w| w.channel)
        .collect();
    assert!(channels.contains(&"__error__".to_owned()) && channels.contains(&"x".to_owned()));
}

fn pending_writes_are_sorted_by_task_path_then_task_id_then_index<S: CheckpointSaver>(s: S) {
    chain(&s, "t", 1);
    let at = addr("t", "", Some(0));
    let put = |task: &str, path: &str, writes: &[(&str, Value)]| {
        let writes: Vec<(String, Value)> = writes
            .iter()
            .map(|(c, v)| ((*c).to_owned(), v.clone()))
            .collect();
        s.put_writes(&at, &writes, task, path).unwrap();
    };
    put("t-zz", "~__pregel_pull, zz", &[("log", json!("zz"))]);
    put("t-c2", "~__pregel_pull, c", &[("log", json!("c2"))]);
    put(
        "t-c1",
        "~__pregel_pull, c",
        &[("log", json!("c1")), ("__error__", json!("e"))],
    );
    put(
        "t-a",
        "~__pregel_pull, a",
        &[("log", json!("a0")), ("log", json!("a1"))],
    );
    put(NULL_TASK_ID, "", &[("log", json!("null"))]);
    let rows: Vec<(String, String, Value)> = s
        .get_tuple(&at)
        .unwrap()
        .unwrap()
        .pending_writes
        .into_iter()
        .map(|w| (w.task_id, w.channel, w.value))
        .collect();
    let expected = [
        (NULL_TASK_ID, "log", json!("null")), // no path: sorts first
        ("t-a", "log", json!("a0")),
        ("t-a", "log", json!("a1")),
        ("t-c1", "__error__", json!("e")), // slot -1 before slot 0
        ("t-c1", "log", json!("c1")),
        ("t-c2", "log", json!("c2")),
        ("t-zz", "log", json!("zz")),
    ];
    let expected: Vec<(String, String, Value)> = expected
        .into_iter()
        .map(|(t, c, v)| (t.to_owned(), c.to_owned(), v))
        .collect();
    assert_eq!(rows, expected);
}

fn pending_writes_belong_to_one_checkpoint<S: CheckpointSaver>(s: S) {
    chain(&s, "t", 2);
    s.put_writes(
        &addr("t", "", Some(0)),
        &[("x".into(), json!(1))],
        "task",
        "p",
    )
    .unwrap();
    assert_eq!(
        s.get_tuple(&addr("t", "", Some(0)))
            .unwrap()
            .unwrap()
            .pending_writes
            .len(),
        1
    );
    assert!(s
        .get_tuple(&addr("t", "", Some(1)))
        .unwrap()
        .unwrap()
        .pending_writes
        .is_empty());
}

fn writes_are_kept_by_checkpoint_id_even_before_or_across_a_put_of_that_id<S: CheckpointSaver>(
    s: S,
) {
    // LangGraph keys writes by (thread, ns, checkpoint id), apart from the
    // checkpoint: writes put first show up once the checkpoint is put, and
    // putting the same checkpoint again keeps them.
    chain(&s, "t", 1);
    let write = |task: &str, value: Value| {
        s.put_writes(&addr("t", "", Some(1)), &[("x".into(), value)], task, "p")
            .unwrap()
    };
    let c1 = checkpoint(1, &[("x", json!(1))], &[("x", v(2, 0))]);
    let put_c1 = || {
        s.put(
            &addr("t", "", Some(0)),
            &c1,
            meta(Source::Loop, 0),
            &all_new(&c1),
        )
        .unwrap()
    };
    let writes = || {
        s.get_tuple(&addr("t", "", Some(1)))
            .unwrap()
            .unwrap()
            .pending_writes
            .into_iter()
            .map(|w| (w.task_id, w.value))
            .collect::<Vec<_>>()
    };
    write("a", json!("early"));
    put_c1();
    assert_eq!(writes(), [("a".to_owned(), json!("early"))]);
    write("b", json!("late"));
    put_c1();
    assert_eq!(
        writes(),
        [
            ("a".to_owned(), json!("early")),
            ("b".to_owned(), json!("late"))
        ]
    );
}

fn delete_thread_forgets_that_thread_and_only_it<S: CheckpointSaver>(s: S) {
    chain(&s, "gone", 3);
    chain(&s, "kept", 2);
    s.put_writes(
        &addr("gone", "", Some(0)),
        &[("x".into(), json!(1))],
        "task",
        "p",
    )
    .unwrap();
    s.delete_thread("gone").unwrap();
    assert!(s.get_tuple(&addr("gone", "", None)).unwrap().is_none());
    assert!(s
        .list(&ListTarget::thread("gone"), &ListOptions::default())
        .unwrap()
        .is_empty());
    assert_eq!(
        s.list(&ListTarget::thread("kept"), &ListOptions::default())
            .unwrap()
            .len(),
        2
    );
    s.delete_thread("never-existed").unwrap();
}

fn get_next_version_is_monotonic_and_unique_per_call<S: CheckpointSaver>(s: S) {
    let first = s.get_next_version(None);
    assert_eq!(first.counter, 1, "None -> 1");
    let mut seen = vec![first];
    let mut current = first;
    for _ in 0..50 {
        let next = s.get_next_version(Some(current));
        assert!(next > current, "{next} must follow {current}");
        assert_eq!(next.counter, current.counter + 1);
        seen.push(next);
        current = next;
    }
    // Two branches that both compute "max + 1" from the same version get
    // different versions, so their stored values never collide.
    let a = s.get_next_version(Some(first));
    let b = s.get_next_version(Some(first));
    assert_eq!(a.counter, b.counter);
    assert_ne!(a, b);
    seen.extend([a, b]);
    let mut dedup = seen.clone();
    dedup.sort();
    dedup.dedup();
    assert_eq!(dedup.len(), seen.len(), "every call gives a new version");
}

/// Every rule of the contract, for a saver made by `make`.
macro_rules! saver_contract {
    ($make:expr; $($case:ident),* $(,)?) => {
        $(
            #[test]
            fn $case() {
                super::$case($make());
            }
        )*
    };
}

mod in_memory_saver {
    use chronograph::InMemorySaver;

    saver_contract!(InMemorySaver::new;
        put_returns_the_new_address_and_get_tuple_reads_it_back,
        put_records_the_configs_checkpoint_id_as_the_parent,
        put_refuses_a_parent_chain_that_loops_and_changes_nothing,
        get_tuple_without_an_id_returns_the_highest_id_on_any_branch,
        get_tuple_of_a_missing_checkpoint_thread_or_namespace_is_none,
        unchanged_channels_are_read_back_from_their_stored_version,
        a_channel_stored_without_a_value_reads_back_absent,
        list_is_newest_first,
        list_filter_is_an_and_over_stored_metadata_including_extra_keys,
        list_before_keeps_only_strictly_older_ids,
        list_limit_counts_only_results_that_passed_the_filters,
        list_with_a_checkpoint_id_yields_only_that_checkpoint,
        namespaces_are_separate_chains_and_list_without_one_covers_all,
        list_without_a_thread_lists_every_thread,
        put_writes_keeps_the_first_regular_write_of_a_slot,
        put_writes_overwrites_control_slots_so_the_last_write_wins,
        pending_writes_are_sorted_by_task_path_then_task_id_then_index,
        pending_writes_belong_to_one_checkpoint,
        writes_are_kept_by_checkpoint_id_even_before_or_across_a_put_of_that_id,
        delete_thread_forgets_that_thread_and_only_it,
        get_next_version_is_monotonic_and_unique_per_call,
    );
}

/// The same contract through a trait object, as the engine holds a saver.
#[test]
fn the_contract_holds_through_a_dyn_checkpoint_saver() {
    let boxed: Box<dyn CheckpointSaver> = Box::new(InMemorySaver::new());
    chain(&*boxed, "t", 3);
    assert_eq!(
        list_ids(&*boxed, &thread_target("t"), &ListOptions::default()),
        [cid(2), cid(1), cid(0)]
    );
}

// ---------------------------------------------------------------------------
// InMemorySaver only: export / import.

#[test]
fn export_then_import_round_trips_a_whole_thread() {
    let source = common::saver();
    let (app, _) = common::booking(&source);
    let cfg = common::thread("t1");
    app.invoke(common::say("hi 1"), &cfg).unwrap();
    app.invoke(common::say("hi 2"), &cfg).unwrap();
    // A branch and pending writes, so every part of the layout is exercised.
    let mid = common::history(&app, &cfg)[2]
        .config
        .checkpoint_id
        .clone()
        .unwrap();
    app.invoke(Value::Null, &common::at("t1", &mid)).unwrap();

    let exported = source.export_thread("t1").unwrap();
    let text = serde_json::to_string(&exported).unwrap();
    let target = InMemorySaver::new();
    target
        .import_thread(serde_json::from_str(&text).unwrap())
        .unwrap();
    assert_eq!(target.export_thread("t1").unwrap(), exported);
    assert_eq!(
        common::stored(&target, "t1"),
        common::stored(&*source, "t1")
    );
    assert_eq!(target.thread_ids(), ["t1"]);
    assert!(source.export_thread("unknown").is_none());

    // Versions made after the import never reuse an imported one.
    let imported_max = exported
        .namespaces
        .iter()
        .flat_map(|ns| ns.checkpoints.iter())
        .flat_map(|c| c.checkpoint.channel_versions.values().copied())
        .max()
        .unwrap();
    let next = target.get_next_version(Some(imported_max));
    let all: Vec<Version> = exported
        .namespaces
        .iter()
        .flat_map(|ns| ns.blobs.iter().map(|b| b.version))
        .collect();
    assert!(!all.contains(&next));
}

#[test]
fn an_imported_thread_keeps_running_like_the_original() {
    let source = common::saver();
    let (app, _) = common::booking(&source);
    let cfg = common::thread("t1");
    app.invoke(common::say("hi 1"), &cfg).unwrap();

    let target = common::saver();
    target
        .import_thread(source.export_thread("t1").unwrap())
        .unwrap();
    let (copy, calls) = common::booking(&target);
    assert_eq!(
        copy.get_state(&cfg).unwrap().values,
        app.get_state(&cfg).unwrap().values
    );
    let out = copy.invoke(common::say("hi 2"), &cfg).unwrap();
    assert_eq!(calls.take(), ["booking", "reply"]);
    assert_eq!(
        common::contents(&out.values.to_json(), "messages"),
        [
            "hi 1",
            "booked (saw 1)",
            "reply (saw 2)",
            "hi 2",
            "booked (saw 4)",
            "reply (saw 5)"
        ]
    );
    assert_eq!(common::history(&copy, &cfg).len(), 8);
}

#[test]
fn import_rejects_an_unknown_format_and_changes_nothing() {
    let saver = common::saver();
    let (app, _) = common::booking(&saver);
    app.invoke(common::say("hi"), &common::thread("t1"))
        .unwrap();
    let mut data = saver.export_thread("t1").unwrap();
    let before = saver.export_thread("t1");
    data.format = "something.else".into();
    let err = saver.import_thread(data).unwrap_err();
    assert_eq!(err.kind(), chronograph::ErrorKind::Value);
    assert!(err
        .message()
        .starts_with("Unsupported thread export format"));
    assert_eq!(saver.export_thread("t1"), before);
}

#[test]
fn import_rejects_a_parent_chain_that_loops_and_changes_nothing() {
    let saver = common::saver();
    let (app, _) = common::booking(&saver);
    app.invoke(common::say("hi"), &common::thread("t1"))
        .unwrap();
    let before = saver.export_thread("t1");
    let mut data = before.clone().unwrap();
    let checkpoints = &mut data.namespaces[0].checkpoints;
    let last = checkpoints.last().unwrap().checkpoint.id.clone();
    checkpoints[0].parent_id = Some(last);
    let err = saver.import_thread(data).unwrap_err();
    assert_eq!(err.code(), "INVALID_EXPORT");
    assert!(
        err.message().contains("is its own ancestor"),
        "{}",
        err.message()
    );
    assert_eq!(saver.export_thread("t1"), before);
}

#[test]
fn an_exported_thread_keeps_every_float_exactly_through_json_text() {
    // Found by core/tests/properties.rs (`./dev fuzz`): a `sum` channel that
    // reached -1.4757395258967641e20 came back from `to_string` + `from_str`
    // as -1.475739525896764e20 while serde_json parsed floats best-effort;
    // its `float_roundtrip` feature parses them exactly.
    let source = common::saver();
    let mut g = chronograph::StateGraph::new();
    g.add_channel("total", chronograph::Reducer::Sum).add_node(
        "a",
        |_: &chronograph::State, _: &chronograph::NodeContext| Ok(json!({"total": 0.1})),
    );
    g.add_edge(chronograph::START, "a");
    let app = g.compile(common::opts(&source)).unwrap();
    let cfg = common::thread("t1");
    for total in [
        -1.4757395258967641e20,
        0.30000000000000004,
        2.2250738585072014e-308,
    ] {
        app.invoke(json!({ "total": total }), &cfg).unwrap();
    }
    let exported = source.export_thread("t1").unwrap();
    let text = serde_json::to_string(&exported).unwrap();
    let target = InMemorySaver::new();
    target
        .import_thread(serde_json::from_str(&text).unwrap())
        .unwrap();
    assert_eq!(target.export_thread("t1").unwrap(), exported);
    let parsed: Value = serde_json::from_str("-1.4757395258967641e20").unwrap();
    assert_eq!(parsed.as_f64(), Some(-1.4757395258967641e20));
}

#[test]
fn an_exported_thread_paused_before_a_node_still_has_that_node_next_after_import() {
    // The pending `branch:to:reply` trigger holds a stored `null`: the export
    // must keep it apart from "no value", or the imported thread loses `next`.
    let source = common::saver();
    let options = chronograph::CompileOptions {
        interrupt_before: vec!["reply".into()],
        ..common::opts(&source)
    };
    let (app, _) = common::booking_graph(&source, options.clone());
    let cfg = common::thread("t1");
    app.invoke(common::say("hi"), &cfg).unwrap();
    assert_eq!(app.get_state(&cfg).unwrap().next, ["reply"]);

    let text = serde_json::to_string(&source.export_thread("t1").unwrap()).unwrap();
    let target = common::saver();
    target
        .import_thread(serde_json::from_str(&text).unwrap())
        .unwrap();
    let (copy, calls) = common::booking_graph(
        &target,
        chronograph::CompileOptions {
            interrupt_before: vec!["reply".into()],
            ..common::opts(&target)
        },
    );
    assert_eq!(copy.get_state(&cfg).unwrap().next, ["reply"]);
    copy.invoke(Value::Null, &cfg).unwrap();
    assert_eq!(calls.take(), ["reply"]);
}
