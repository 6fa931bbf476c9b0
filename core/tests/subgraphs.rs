//! Subgraphs (spec §11, FORMAT.md "Subgraphs, Send and Command"): a compiled
//! graph as a node, with its checkpoints in its own namespace of the thread.

mod common;

use chronograph::{
    CheckpointSaver, CompiledGraph, GraphSpec, InMemorySaver, ListOptions, ListTarget,
    RunnableConfig, StreamEvent, TaskState,
};
use common::*;
use serde_json::{json, Value};
use std::rc::Rc;

/// `prep -> research[search -> write] -> finish` (the `subgraph_basic` graph).
fn research(saver: &Rc<InMemorySaver>, approve: bool) -> CompiledGraph {
    let inner_nodes = if approve {
        json!({"search": {"writes": [{"set": {"notes": "found", "log": ["search"]}}]},
               "write": {"writes": [{"interrupt": "ok?", "resume_to": "verdict"}, {"set": {"log": ["write"]}}]}})
    } else {
        json!({"search": {"writes": [{"set": {"notes": "found", "log": ["search"]}}]},
               "write": {"writes": [{"set": {"log": ["write"]}}]}})
    };
    let spec = json!({
        "channels": {"topic": {}, "log": {"reducer": "append"}, "summary": {}},
        "nodes": {
            "prep": {"writes": [{"set": {"topic": "cats", "log": ["prep"]}}]},
            "research": {"subgraph": {
                "channels": {"topic": {}, "log": {"reducer": "append"}, "notes": {}, "verdict": {}},
                "nodes": inner_nodes,
                "edges": [["__start__", "search"], ["search", "write"], ["write", "__end__"]]}},
            "finish": {"writes": [{"set": {"summary": "done", "log": ["finish"]}}]}},
        "edges": [["__start__", "prep"], ["prep", "research"], ["research", "finish"], ["finish", "__end__"]]
    });
    GraphSpec::from_value(&spec)
        .unwrap()
        .compile(opts(saver))
        .unwrap()
}

fn namespaces(saver: &InMemorySaver, thread_id: &str) -> Vec<String> {
    let mut out: Vec<String> = saver
        .list(&ListTarget::thread(thread_id), &ListOptions::default())
        .unwrap()
        .into_iter()
        .map(|t| t.config.checkpoint_ns)
        .collect();
    out.sort();
    out.dedup();
    out
}

fn research_task_ns(app: &CompiledGraph, cfg: &RunnableConfig) -> String {
    let snap = app.get_state(cfg).unwrap();
    let task = snap.tasks.iter().find(|t| t.name == "research").unwrap();
    match &task.state {
        Some(TaskState::Config(c)) => c.checkpoint_ns.clone(),
        other => panic!("no namespace: {other:?}"),
    }
}

#[test]
fn subgraph_checkpoints_live_in_a_namespace_named_node_colon_task_id() {
    let saver = saver();
    let app = research(&saver, false);
    app.invoke(json!({"log": []}), &thread("t")).unwrap();
    let ns = namespaces(&saver, "t");
    assert_eq!(ns.len(), 2);
    assert_eq!(ns[0], "");
    let (node, task_id) = ns[1].split_once(':').unwrap();
    assert_eq!(node, "research");
    assert_eq!(task_id.len(), 36);
    // The namespace's own chain: input -1, loop 0, 1, 2.
    let sub = thread("t").in_namespace(ns[1].clone());
    assert_eq!(
        steps(&app, &sub),
        [
            row(2, "loop", &[]),
            row(1, "loop", &["write"]),
            row(0, "loop", &["search"]),
            row(-1, "input", &["__start__"]),
        ]
    );
}

#[test]
fn root_history_lists_the_root_namespace_only() {
    let saver = saver();
    let app = research(&saver, false);
    app.invoke(json!({"log": []}), &thread("t")).unwrap();
    assert_eq!(history(&app, &thread("t")).len(), 5);
    assert!(history(&app, &thread("t"))
        .iter()
        .all(|s| s.config.checkpoint_ns.is_empty()));
}

#[test]
fn a_subgraph_returns_its_whole_state_through_the_parents_reducers() {
    let saver = saver();
    let app = research(&saver, false);
    let out = app.invoke(json!({"log": []}), &thread("t")).unwrap();
    // The append channel gets the subgraph's whole list again ("prep" twice);
    // the subgraph's private channel `notes` never reaches the parent.
    assert_eq!(
        out.values.to_json(),
        json!({"log": ["prep", "prep", "search", "write", "finish"], "summary": "done", "topic": "cats"})
    );
}

#[test]
fn subgraph_checkpoints_record_their_ancestors_as_parents() {
    let saver = saver();
    let app = research(&saver, false);
    app.invoke(json!({"log": []}), &thread("t")).unwrap();
    let ns = research_task_ns(&app, &at("t", &id_by_label(&*saver, "t", "C2")));
    let sub = saver
        .get_tuple(&chronograph::CheckpointConfig {
            thread_id: "t".into(),
            checkpoint_ns: ns,
            checkpoint_id: None,
        })
        .unwrap()
        .unwrap();
    let c2 = id_by_label(&*saver, "t", "C2");
    assert_eq!(sub.metadata.parents.get(""), Some(&c2));
}

#[test]
fn replaying_a_parent_checkpoint_reruns_the_subgraph_in_a_new_namespace() {
    let saver = saver();
    let app = research(&saver, false);
    app.invoke(json!({"log": []}), &thread("t")).unwrap();
    let c2 = id_by_label(&*saver, "t", "C2");
    let before = namespaces(&saver, "t");
    app.invoke(Value::Null, &at("t", &c2)).unwrap();
    let after = namespaces(&saver, "t");
    assert_eq!(after.len(), before.len() + 1);
    let fresh: Vec<_> = after.iter().filter(|n| !before.contains(n)).collect();
    let sub = thread("t").in_namespace(fresh[0].clone());
    // From scratch: input -1 first.
    assert_eq!(
        steps(&app, &sub).last().unwrap(),
        &row(-1, "input", &["__start__"])
    );
}

#[test]
fn an_interrupt_inside_a_subgraph_pauses_the_parent_and_resume_continues_its_namespace() {
    let saver = saver();
    let app = research(&saver, true);
    let out = app.invoke(json!({"log": []}), &thread("t")).unwrap();
    assert_eq!(out.interrupts.len(), 1);
    assert_eq!(out.interrupts[0].value, json!("ok?"));
    // The parent's task carries the interrupt.
    let snap = app.get_state(&thread("t")).unwrap();
    assert_eq!(snap.next, ["research"]);
    assert_eq!(snap.tasks[0].interrupts[0].value, json!("ok?"));
    let ns_before = namespaces(&saver, "t");
    let out = app
        .invoke(
            chronograph::RunInput::Command(chronograph::Command::resume(json!("yes"))),
            &thread("t"),
        )
        .unwrap();
    assert_eq!(
        out.values.to_json()["log"],
        json!(["prep", "prep", "search", "write", "finish"])
    );
    // Same namespace: search did not run again.
    assert_eq!(namespaces(&saver, "t"), ns_before);
}

#[test]
fn get_state_with_subgraphs_nests_the_newest_snapshot_of_each_subgraph_task() {
    let saver = saver();
    let app = research(&saver, true);
    app.invoke(json!({"log": []}), &thread("t")).unwrap();
    let snap = app.get_state_subgraphs(&thread("t")).unwrap();
    let Some(TaskState::Snapshot(sub)) = &snap.tasks[0].state else {
        panic!("no nested snapshot");
    };
    assert_eq!(sub.next, ["write"]);
    assert_eq!(sub.tasks[0].interrupts[0].value, json!("ok?"));
    assert!(sub.config.checkpoint_ns.starts_with("research:"));
    // Its config carries checkpoint_map: the root checkpoint and its own.
    let map = sub.runnable_config().checkpoint_map();
    assert_eq!(map.len(), 2);
    assert_eq!(map.get(""), snap.config.checkpoint_id.as_ref());
}

#[test]
fn update_state_through_a_subgraph_config_writes_an_update_checkpoint_in_its_namespace() {
    let saver = saver();
    let app = research(&saver, true);
    app.invoke(json!({"log": []}), &thread("t")).unwrap();
    let snap = app.get_state_subgraphs(&thread("t")).unwrap();
    let Some(TaskState::Snapshot(sub)) = &snap.tasks[0].state else {
        panic!("no nested snapshot");
    };
    let edited = app
        .update_state(
            &sub.runnable_config(),
            Some(json!({"notes": "edited"})),
            None,
        )
        .unwrap();
    assert_eq!(edited.checkpoint_ns(), sub.config.checkpoint_ns);
    let after = app.get_state(&edited).unwrap();
    assert_eq!(source_of(&after), "update");
    assert_eq!(after.values.get_json("notes"), Some(json!("edited")));
    // The root is untouched.
    assert_eq!(history(&app, &thread("t")).len(), 3);
}

#[test]
fn update_state_on_a_namespace_the_graph_does_not_have_fails() {
    let saver = saver();
    let app = research(&saver, false);
    app.invoke(json!({"log": []}), &thread("t")).unwrap();
    let before = export(&saver, "t");
    let err = app
        .update_state(
            &thread("t").in_namespace("nowhere:1f0"),
            Some(json!({"topic": "x"})),
            None,
        )
        .unwrap_err();
    assert_eq!(err.to_string(), "ValueError: Subgraph nowhere not found");
    assert_eq!(export(&saver, "t"), before);
}

#[test]
fn nested_subgraphs_join_their_namespaces_with_a_pipe() {
    let saver = saver();
    let spec = json!({
        "channels": {"log": {"reducer": "append"}},
        "nodes": {"outer": {"subgraph": {
            "channels": {"log": {"reducer": "append"}},
            "nodes": {"inner": {"subgraph": {
                "channels": {"log": {"reducer": "append"}},
                "nodes": {"leaf": {"writes": [{"set": {"log": ["leaf"]}}]}},
                "edges": [["__start__", "leaf"]]}}},
            "edges": [["__start__", "inner"]]}}},
        "edges": [["__start__", "outer"]]
    });
    let app = GraphSpec::from_value(&spec)
        .unwrap()
        .compile(opts(&saver))
        .unwrap();
    app.invoke(json!({"log": []}), &thread("t")).unwrap();
    let ns = namespaces(&saver, "t");
    assert_eq!(ns.len(), 3);
    let deepest = &ns[2];
    let levels: Vec<&str> = deepest.split('|').collect();
    assert_eq!(levels.len(), 2);
    assert!(levels[0].starts_with("outer:") && levels[1].starts_with("inner:"));
    let t = saver
        .get_tuple(&chronograph::CheckpointConfig {
            thread_id: "t".into(),
            checkpoint_ns: deepest.clone(),
            checkpoint_id: None,
        })
        .unwrap()
        .unwrap();
    // Every ancestor namespace maps to its checkpoint.
    assert_eq!(t.metadata.parents.len(), 2);
    assert!(t.metadata.parents.contains_key(levels[0]));
}

/// A compact picture of a stream event: `"ns kind detail"`.
fn event_text(ns: &str, e: &StreamEvent) -> String {
    let ns = ns
        .split('|')
        .map(|l| l.split(':').next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("|");
    match e {
        StreamEvent::Values(v) => format!("{ns} values {v}"),
        StreamEvent::Updates { node, update } => format!("{ns} updates {node} {update}"),
        StreamEvent::Checkpoint { metadata, .. } => format!("{ns} checkpoint {}", metadata.step),
        StreamEvent::Task { name, .. } => format!("{ns} task {name}"),
        StreamEvent::TaskResult { name, .. } => format!("{ns} result {name}"),
        StreamEvent::Interrupted(list) => format!("{ns} interrupted {}", list.len()),
        StreamEvent::CachedUpdates { node, update } => format!("{ns} cached {node} {update}"),
        StreamEvent::CheckpointMeta { step, .. } => format!("{ns} meta {step}"),
        StreamEvent::Custom(v) => format!("{ns} custom {v}"),
    }
}

#[test]
fn streaming_subgraphs_reports_their_events_with_their_namespace_in_order() {
    let saver = saver();
    let app = research(&saver, true);
    let (events, out) = app
        .stream_subgraphs(json!({"log": []}), &thread("t"))
        .unwrap();
    assert_eq!(out.interrupts.len(), 1);
    let lines: Vec<String> = events.iter().map(|(ns, e)| event_text(ns, e)).collect();
    let updates: Vec<&String> = lines.iter().filter(|l| l.contains(" updates ")).collect();
    assert_eq!(
        updates,
        [
            " updates __start__ {\"log\":[]}",
            " updates prep {\"topic\":\"cats\",\"log\":[\"prep\"]}",
            // A state reads in the graph's declaration order (topic, log), as LangGraph's dicts do.
            "research updates __start__ {\"topic\":\"cats\",\"log\":[\"prep\"]}",
            "research updates search {\"notes\":\"found\",\"log\":[\"search\"]}",
        ]
    );
    // The subgraph's events come between the start and the result of the
    // task that runs it; its interrupt is reported at both levels.
    let start = lines.iter().position(|l| l == " task research").unwrap();
    let end = lines.iter().position(|l| l == " result research").unwrap();
    assert!(lines[start + 1..end]
        .iter()
        .all(|l| l.starts_with("research ")));
    assert!(lines[start + 1..end].contains(&"research interrupted 1".to_owned()));
    assert_eq!(lines.last().unwrap(), " interrupted 1");
    // Every namespace is a task's: `research:<task id>`.
    let task_id = research_task_ns(&app, &thread("t"));
    assert!(events.iter().all(|(ns, _)| ns.is_empty() || *ns == task_id));

    // The root-only stream is the root's part of it, unchanged.
    let saver2 = self::saver();
    let app2 = research(&saver2, true);
    let (root, _) = app2.stream(json!({"log": []}), &thread("t")).unwrap();
    let root: Vec<String> = root.iter().map(|e| event_text("", e)).collect();
    let from_root: Vec<String> = lines.into_iter().filter(|l| l.starts_with(' ')).collect();
    assert_eq!(root, from_root);
}

#[test]
fn resuming_a_subgraph_streams_its_rest_in_its_namespace() {
    let saver = saver();
    let app = research(&saver, true);
    app.invoke(json!({"log": []}), &thread("t")).unwrap();
    let (events, _) = app
        .stream_subgraphs(chronograph::Command::resume(json!("yes")), &thread("t"))
        .unwrap();
    let lines: Vec<String> = events
        .iter()
        .map(|(ns, e)| event_text(ns, e))
        .filter(|l| l.contains(" updates "))
        .collect();
    assert_eq!(
        lines,
        [
            "research updates write {\"verdict\":\"yes\",\"log\":[\"write\"]}",
            // The subgraph's whole state, as far as this graph has its channels.
            " updates research {\"topic\":\"cats\",\"log\":[\"prep\",\"search\",\"write\"]}",
            " updates finish {\"summary\":\"done\",\"log\":[\"finish\"]}",
        ]
    );
}
