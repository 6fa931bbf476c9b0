//! Server actions against answers recorded from `langgraph dev`
//! (`web/tests/fixtures/server/action_*.json`, written by
//! `web/e2e/server/record.mjs`): the requests each button sends, and what
//! the server's answers and refusals mean.

use super::tests::{fixture, loaded};
use super::*;
use crate::session::{Action, Session, ThreadSource, NEW_THREAD_ON_SERVER, ON_SERVER};
use chronograph::GraphSpec;
use serde_json::{json, Value};

/// A recorded answer: its status and its body, parsed when it is JSON.
fn answer(name: &str) -> (u16, String) {
    let f = fixture(name);
    (
        u16::try_from(f["status"].as_u64().unwrap()).unwrap(),
        f["body"].as_str().unwrap().to_owned(),
    )
}

fn thread() -> ServerThread {
    ServerThread {
        url: "http://127.0.0.1:2024".into(),
        thread_id: fixture("thread.json")["thread_id"].as_str().unwrap().into(),
        assistant_id: graph_id(&fixture("thread.json")),
    }
}

/// The recorded thread, opened as the app opens it, on the server.
fn server_session() -> Session {
    let opened = loaded().finish().unwrap();
    let spec = GraphSpec::parse(opened.spec.as_deref().unwrap()).unwrap();
    let mut s = Session::new(spec).unwrap();
    s.import_history(opened.thread, opened.next, "server")
        .unwrap();
    s.set_source(ThreadSource::Server(thread()));
    s
}

#[test]
fn the_assistant_is_the_threads_graph_id() {
    assert_eq!(thread().assistant_id.as_deref(), Some("trip"));
    assert_eq!(graph_id(&json!({ "metadata": {} })), None);
}

#[test]
fn replay_runs_the_real_graph_from_the_checkpoint_and_refuses_to_queue() {
    let s = server_session();
    let c3 = s.checkpoints()[3].id.clone();
    let calls = s.server_action(&Action::Replay(c3.clone())).unwrap();
    let r = calls.first().unwrap();
    assert_eq!(r.method, "POST");
    assert_eq!(
        r.path,
        format!("/threads/{}/runs/stream", thread().thread_id)
    );
    assert!(crate::server::streams(&r));
    assert_eq!(
        r.body.clone().unwrap(),
        json!({ "assistant_id": "trip", "input": null, "checkpoint_id": c3, "multitask_strategy": "reject",
                "stream_mode": ["checkpoints"], "stream_subgraphs": true })
    );
    // The run's answer (it paused on the subgraph's interrupt) ends the action.
    let (status, body) = answer("action_run_interrupted.json");
    assert_eq!(status, 200);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert!(body["__interrupt__"].is_array());
    assert_eq!(calls.next(&r, &body), Ok(None));
    // A graph that raised: reported with 200 and `__error__`.
    let failed = json!({ "__error__": { "error": "ValueError", "message": "boom" } });
    assert_eq!(
        calls.next(&r, &failed),
        Err(ServerError::RunFailed("ValueError: boom".into()))
    );
    // A thread no run has touched names no graph: nothing is sent.
    let mut orphan = calls.clone();
    orphan.thread.assistant_id = None;
    assert!(matches!(orphan.first(), Err(ServerError::BadResponse(_))));
}

#[test]
fn resume_sends_the_value_as_a_command_from_the_root_checkpoint_of_a_subgraph() {
    let s = server_session();
    let head = s.head().unwrap();
    let inside = s.checkpoints_in(&s.namespaces()[0].ns)[2].id.clone();
    for selected in [head.clone(), inside] {
        let calls = s
            .server_action(&Action::Resume {
                id: selected,
                value: json!({ "ok": true }),
            })
            .unwrap();
        assert_eq!(
            calls.at,
            At {
                id: head.clone(),
                ns: String::new()
            }
        );
        let body = calls.first().unwrap().body.unwrap();
        assert_eq!(body["command"], json!({ "resume": { "ok": true } }));
        assert!(
            body.get("input").is_none(),
            "a resume is a Command, not an input"
        );
        assert_eq!(body["checkpoint_id"], json!(head));
    }
}

#[test]
fn fork_updates_the_state_as_a_node_then_runs_from_the_checkpoint_it_created() {
    let s = server_session();
    let c3 = s.checkpoints()[3].id.clone();
    let fork = Action::Update {
        id: c3.clone(),
        values: json!({ "rounds": 5 }),
        as_node: Some("greet".into()),
        and_run: true,
    };
    let calls = s.server_action(&fork).unwrap();
    let update = calls.first().unwrap();
    assert_eq!(
        update.path,
        format!("/threads/{}/state", thread().thread_id)
    );
    assert_eq!(
        update.body.clone().unwrap(),
        json!({ "values": { "rounds": 5 }, "as_node": "greet", "checkpoint_id": c3 })
    );
    let (status, body) = answer("action_update_state.json");
    assert_eq!(status, 200);
    let body: Value = serde_json::from_str(&body).unwrap();
    let created = body["checkpoint"]["checkpoint_id"].as_str().unwrap();
    let run = calls.next(&update, &body).unwrap().unwrap();
    assert!(run.path.ends_with("/runs/stream"));
    assert_eq!(run.body.clone().unwrap()["checkpoint_id"], json!(created));
    // Apply alone: the update is the whole action.
    let apply = Action::Update {
        id: c3,
        values: json!({}),
        as_node: None,
        and_run: false,
    };
    let calls = s.server_action(&apply).unwrap();
    let r = calls.first().unwrap();
    assert!(
        r.body.clone().unwrap().get("as_node").is_none(),
        "inferred by the server"
    );
    assert_eq!(calls.next(&r, &body), Ok(None));
    assert!(
        calls.next(&r, &json!({})).is_err(),
        "an answer without a checkpoint"
    );
}

#[test]
fn copy_is_an_update_as_copy_and_a_subgraph_update_names_its_namespace() {
    let s = server_session();
    let c2 = s.checkpoints()[2].id.clone();
    let calls = s.server_action(&Action::Copy(c2.clone())).unwrap();
    assert_eq!(
        calls.first().unwrap().body.unwrap(),
        json!({ "values": null, "as_node": "__copy__", "checkpoint_id": c2 })
    );
    let (_, body) = answer("action_copy.json");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert!(updated_checkpoint(&body).is_ok());
    // Inside the review subgraph the update goes through its namespace.
    let ns = s.namespaces()[0].ns.clone();
    let inside = s.checkpoints_in(&ns)[1].id.clone();
    let calls = s
        .server_action(&Action::Update {
            id: inside.clone(),
            values: json!({ "verdict": "x" }),
            as_node: Some("draft".into()),
            and_run: false,
        })
        .unwrap();
    let body = calls.first().unwrap().body.unwrap();
    assert_eq!(
        body["checkpoint"],
        json!({ "checkpoint_id": inside, "checkpoint_ns": ns })
    );
    let (_, answer) = answer("action_update_subgraph.json");
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(
        answer["checkpoint"]["checkpoint_ns"]
            .as_str()
            .unwrap()
            .split(':')
            .next(),
        Some("review")
    );
    assert!(updated_checkpoint(&answer).is_ok());
}

#[test]
fn the_servers_refusals_say_what_they_mean() {
    let (status, body) = answer("action_busy_run.json");
    assert_eq!(
        ServerError::from_status(status, &body),
        ServerError::Busy("Thread is already running a task. Wait for it to finish or choose a different multitask strategy.".into())
    );
    let (status, body) = answer("action_busy_update.json");
    assert!(
        matches!(ServerError::from_status(status, &body), ServerError::Busy(t) if t.contains("has in-flight runs"))
    );
    let (status, body) = answer("action_refused_values.json");
    assert_eq!(status, 422);
    assert!(
        matches!(ServerError::from_status(status, &body), ServerError::Refused(422, t) if t.starts_with("5 is not valid under any of the schemas"))
    );
    let (status, body) = answer("action_unknown_node.json");
    assert_eq!(
        ServerError::from_status(status, &body),
        ServerError::Refused(400, "Node nosuch does not exist".into())
    );
    let (status, body) = answer("action_bad_checkpoint.json");
    assert_eq!(
        ServerError::from_status(status, &body),
        ServerError::Refused(422, "Invalid checkpoint ID".into())
    );
}

#[test]
fn a_server_threads_nodes_never_run_in_the_page() {
    let mut s = server_session();
    let before = s.ids();
    let c3 = s.checkpoints()[3].id.clone();
    for action in [
        Action::Replay(c3.clone()),
        Action::Copy(c3.clone()),
        Action::Resume {
            id: c3.clone(),
            value: json!(1),
        },
        Action::Update {
            id: c3.clone(),
            values: json!({}),
            as_node: None,
            and_run: false,
        },
    ] {
        let e = s.perform(action).unwrap_err();
        assert!(e.to_string().ends_with(ON_SERVER), "{e}");
    }
    assert_eq!(s.ids(), before, "no checkpoint written in the page");
    // An in-page thread has no server calls.
    s.set_source(ThreadSource::InPage);
    assert!(s.server_action(&Action::Replay(c3)).is_none());
}

#[test]
fn created_lists_the_new_checkpoints_in_order() {
    let before = ["a".to_owned(), "c".to_owned()];
    let after = ["a", "b", "c", "d"].map(str::to_owned);
    assert_eq!(created(&before, &after), ["b", "d"]);
}

#[test]
fn resume_is_offered_where_langgraph_recorded_the_interrupt() {
    let opened = loaded().finish().unwrap();
    let mut s = server_session();
    let head = s.head().unwrap();
    assert!(
        opened.interrupted.contains(&head),
        "the review task waits at HEAD"
    );
    assert!(
        !s.recorded_interrupt(&head),
        "set by the page when it opens the thread"
    );
    s.set_recorded_interrupts(opened.interrupted.clone());
    assert!(s.recorded_interrupt(&head));
    assert!(!s.recorded_interrupt(&s.checkpoints()[3].id));
}

#[test]
fn fork_into_a_new_thread_copies_the_thread_then_the_checkpoint_in_the_copy() {
    let mut s = server_session();
    let c3 = s.checkpoints()[3].id.clone();
    let calls = s.server_action(&Action::NewThread(c3.clone())).unwrap();
    let copy = calls.first().unwrap();
    assert_eq!(copy.method, "POST");
    assert_eq!(copy.path, format!("/threads/{}/copy", thread().thread_id));
    // The copy's answer (recorded) names the new thread; in it, the checkpoint
    // (same id: /copy keeps them) is copied as __copy__, its HEAD from then on.
    let (status, body) = answer("action_copy_thread.json");
    assert_eq!(status, 200);
    let answer: Value = serde_json::from_str(&body).unwrap();
    let new_id = copied_thread(&answer).unwrap();
    assert_ne!(new_id, thread().thread_id);
    let update = calls.next(&copy, &answer).unwrap().unwrap();
    assert_eq!(update.path, format!("/threads/{new_id}/state"));
    assert_eq!(
        update.body.clone().unwrap(),
        json!({ "values": null, "as_node": "__copy__", "checkpoint_id": c3 })
    );
    let (_, body) = answer_of("action_copy.json");
    assert_eq!(calls.next(&update, &body).unwrap(), None, "then it is done");
    assert!(matches!(
        copied_thread(&json!({"detail": "x"})),
        Err(ServerError::BadResponse(_))
    ));
    // Never in the page: an in-page thread has no server to copy it on.
    s.set_source(ThreadSource::InPage);
    let e = s.perform(Action::NewThread(c3)).unwrap_err();
    assert!(e.to_string().ends_with(NEW_THREAD_ON_SERVER), "{e}");
}

/// A recorded answer's status and parsed body.
fn answer_of(name: &str) -> (u16, Value) {
    let (status, body) = answer(name);
    (status, serde_json::from_str(&body).unwrap())
}
