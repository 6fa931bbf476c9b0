//! The session's behaviour: the seed walkthrough's counts, the log's
//! exact calls, copies, previews, errors, export and import, subgraph
//! namespaces and `Send` arguments.

use super::*;
use crate::chat::human;
use serde_json::json;

fn chat() -> Session {
    Session::new(crate::scenarios::by_id("chat").unwrap().graph().unwrap()).unwrap()
}

fn say(s: &mut Session, text: &str) {
    s.invoke(human(text), None).unwrap();
}

fn by_label(s: &Session, label: &str) -> CheckpointView {
    s.checkpoints()
        .into_iter()
        .find(|c| c.label == label)
        .unwrap()
}

#[test]
fn the_seed_walkthrough_counts_8_10_11_13() {
    let mut s = chat();
    say(&mut s, "hi 1");
    say(&mut s, "hi 2");
    assert_eq!(s.checkpoints().len(), 8);
    let c2 = by_label(&s, "c2");
    assert_eq!((c2.step, c2.next.clone()), (1, vec!["reply".to_owned()]));
    s.replay(&c2.id).unwrap();
    assert_eq!(s.checkpoints().len(), 10);
    let c8 = by_label(&s, "c8");
    assert_eq!(
        (c8.source, c8.step, c8.parent.as_deref()),
        (Source::Fork, 2, Some(c2.id.as_str()))
    );
    let c3 = by_label(&s, "c3");
    s.replay(&c3.id).unwrap();
    assert_eq!(s.checkpoints().len(), 11);
    let c0 = by_label(&s, "c0");
    let out = s
        .fork_and_run(&c0.id, human("edited"), Some("booking"))
        .unwrap();
    assert_eq!(out.created.len(), 2);
    assert_eq!(s.checkpoints().len(), 13);
    let c11 = by_label(&s, "c11");
    assert_eq!(
        (c11.source, c11.step, c11.parent.as_deref()),
        (Source::Update, 0, Some(c0.id.as_str()))
    );
    assert_eq!(s.head().as_deref(), Some(by_label(&s, "c12").id.as_str()));
}

#[test]
fn log_lines_name_the_exact_engine_calls() {
    let mut s = chat();
    say(&mut s, "hi");
    let c0 = by_label(&s, "c0");
    s.update(
        &c0.id,
        Some(json!({"messages": [{"type": "human", "content": "x"}]})),
        Some("booking"),
    )
    .unwrap();
    let c4 = by_label(&s, "c4");
    s.replay(&c4.id).unwrap();
    let log: Vec<&str> = s.log().iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        log[0],
        r#"invoke({"messages":[{"type":"human","content":"hi"}]}, thread) → c0 … c3"#
    );
    assert_eq!(
        log[1],
        r#"update_state(c0, {"messages":[{"type":"human","content":"x"}]}, as_node="booking") → c4"#
    );
    assert_eq!(log[2], "invoke(None, c4) → c5");
}

#[test]
fn copy_makes_a_sibling() {
    let mut s = chat();
    say(&mut s, "hi");
    let c2 = by_label(&s, "c2");
    let out = s.copy(&c2.id).unwrap();
    let copy = by_label(&s, "c4");
    assert_eq!(out.created, vec![copy.id.clone()]);
    assert_eq!(
        (copy.source, copy.step, copy.parent),
        (Source::Fork, 2, c2.parent)
    );
}

#[test]
fn preview_runs_on_a_copy_and_changes_nothing() {
    let mut s = chat();
    say(&mut s, "hi");
    let c2 = by_label(&s, "c2");
    let id = c2.id.clone();
    let p = s.preview(move |copy| copy.replay(&id));
    assert_eq!(p.error, None);
    let first = &p.checkpoints[0];
    assert_eq!(
        (first.parent_label.as_deref(), first.view.source),
        (Some("c2"), Source::Fork)
    );
    assert_eq!(
        (first.view.step, first.view.next.clone()),
        (2, vec!["reply".into()])
    );
    assert_eq!(p.checkpoints[1].view.source, Source::Loop);
    assert_eq!(p.will_run, ["reply"]);
    assert_eq!(s.checkpoints().len(), 4, "the real thread is untouched");
    assert!(s.log().len() == 1);
}

#[test]
fn errors_are_logged_and_change_nothing() {
    let mut s = chat();
    say(&mut s, "hi");
    let c2 = by_label(&s, "c2");
    let err = s
        .update(&c2.id, Some(json!({"messages": []})), Some("nope"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "InvalidUpdateError: Node nope does not exist"
    );
    assert!(s.log().last().unwrap().failed);
    assert_eq!(s.checkpoints().len(), 4);
}

#[test]
fn export_import_round_trips_the_thread() {
    let mut s = chat();
    say(&mut s, "hi");
    let c1 = by_label(&s, "c1");
    s.replay(&c1.id).unwrap();
    let data = s.export().unwrap();
    let mut other = chat();
    other.import(data).unwrap();
    assert_eq!(other.checkpoints(), s.checkpoints());
}

fn scenario(id: &str) -> Session {
    Session::new(crate::scenarios::by_id(id).unwrap().graph().unwrap()).unwrap()
}

fn id_of(s: &Session, label: &str) -> String {
    s.labels().into_iter().find(|(_, l)| l == label).unwrap().0
}

#[test]
fn subgraph_checkpoints_get_s_labels_and_their_namespace() {
    let mut s = scenario("research");
    s.invoke(json!({"log": []}), None).unwrap();
    let root: Vec<String> = s.checkpoints().into_iter().map(|c| c.label).collect();
    assert_eq!(root, ["c0", "c1", "c2"], "root labels count the root only");
    let ns = s.namespaces();
    assert_eq!(ns.len(), 1);
    assert_eq!(ns[0].node, "research");
    assert_eq!(
        ns[0].owner,
        id_of(&s, "c2"),
        "owned by the checkpoint whose task ran it"
    );
    assert!(ns[0].ns.starts_with("research:"));
    assert_eq!(ns[0].parent_ns(), "");
    let inner = s.checkpoints_in(&ns[0].ns);
    let labels: Vec<&str> = inner.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["s0", "s1", "s2", "s3"]);
    assert!(inner.iter().all(|c| c.ns == ns[0].ns));
    assert_eq!(s.ns_of(&inner[3].id), ns[0].ns);
    assert_eq!(s.ns_of(&id_of(&s, "c1")), "");
    assert_eq!(s.spec_at(&ns[0].ns).map(|g| g.nodes.len()), Some(3));
    assert_eq!(short_ns("a:1234567890|b:abcdefgh"), "a:123456|b:abcdef");
    assert_eq!(parent_ns("a:1|b:2"), "a:1");
}

#[test]
fn an_update_through_a_subgraph_config_then_a_resume_from_the_parent() {
    let mut s = scenario("research");
    s.invoke(json!({"log": []}), None).unwrap();
    let s3 = id_of(&s, "s3");
    let c2 = id_of(&s, "c2");
    assert_eq!(
        s.resume_target(&s3),
        c2,
        "a subgraph resumes from its parent"
    );
    let out = s
        .update(&s3, Some(json!({"draft": "Draft v2"})), None)
        .unwrap();
    let s4 = id_of(&s, "s4");
    assert_eq!(out.created, std::slice::from_ref(&s4));
    let v = s
        .checkpoints_in(&s.ns_of(&s3))
        .into_iter()
        .find(|c| c.id == s4)
        .unwrap();
    assert_eq!(
        (v.source, v.step, v.parent.as_deref()),
        (Source::Update, 3, Some(s3.as_str()))
    );
    let log = &s.log().last().unwrap().text;
    assert!(log.starts_with("update_state(s3 in research:"), "{log}");
    assert!(log.ends_with(r#"{"draft":"Draft v2"}) → s4"#), "{log}");
    s.resume(json!(true), Some(&s4)).unwrap();
    assert!(s
        .log()
        .last()
        .unwrap()
        .text
        .starts_with("invoke(Command(resume=true), c2) → s5 … c4"));
    assert_eq!(s.namespaces().len(), 1, "the same namespace continued");
    let last = s.snapshot(None).unwrap();
    assert_eq!(last.values.to_json()["draft"], json!("Draft v2"));
    assert!(last.next.is_empty());
}

#[test]
fn a_preview_lists_the_root_checkpoints_first() {
    let mut s = scenario("research");
    s.invoke(json!({"log": []}), None).unwrap();
    let c2 = id_of(&s, "c2");
    let p = s.preview(move |c| c.replay(&c2));
    assert_eq!(p.checkpoints[0].view.source, Source::Fork);
    assert_eq!(
        p.in_subgraphs, 4,
        "the subgraph re-runs from scratch: s4 … s7"
    );
    assert_eq!(p.checkpoints[1].view.source, Source::Input);
}

#[test]
fn sends_are_the_arguments_of_a_fan_out() {
    let mut s = scenario("map-reduce");
    s.invoke(json!({"notes": []}), None).unwrap();
    let c2 = id_of(&s, "c2");
    let args: Vec<Value> = s.sends(&c2).iter().map(|p| p["arg"].clone()).collect();
    assert_eq!(
        args,
        [
            json!({"topic": "cats"}),
            json!({"topic": "owls"}),
            json!({"topic": "bees"})
        ]
    );
    let data = crate::inspect::snapshot(&s, &c2).unwrap();
    assert_eq!(data.tasks.len(), 3);
    assert_eq!(data.tasks[1].arg, Some(json!({"topic": "owls"})));
    assert_eq!(crate::inspect::next_text(&data.next), "3 × worker");
}
