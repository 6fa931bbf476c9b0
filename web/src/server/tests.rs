//! The server client against responses recorded from `langgraph dev`
//! (`web/tests/fixtures/server/`, written by `web/e2e/server/record.mjs`).

use super::*;
use crate::session::Session;
use chronograph::{GraphSpec, Source};
use serde_json::{json, Value};

pub(super) fn fixture(name: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/server/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The recorded root pages (limit 3), oldest last, then the subgraph's history.
fn pages() -> Vec<Value> {
    let mut p: Vec<Value> = (1..=3)
        .map(|i| fixture(&format!("history_page{i}.json")))
        .collect();
    p.push(fixture("history_review.json"));
    p
}

pub(super) fn loaded() -> HistoryLoader {
    let id = fixture("thread.json")["thread_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut loader = HistoryLoader::with_limit(&id, 3);
    let mut answers = pages().into_iter();
    while loader.next_request().is_some() {
        loader
            .take_page(answers.next().unwrap_or(json!([])))
            .unwrap();
    }
    loader
}

#[test]
fn the_thread_list_is_newest_first_with_status_graph_and_metadata() {
    let rows = summaries(&fixture("threads_search.json")).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].thread_id, fixture("thread.json")["thread_id"]);
    assert_eq!(rows[0].status, "interrupted");
    assert_eq!(rows[0].graph_id.as_deref(), Some("trip"));
    assert!(rows[0].metadata.contains("\"purpose\":\"chronograph e2e\""));
    assert!(rows[0].updated_at > rows[1].updated_at);
    assert_eq!(rows[1].status, "idle");
    assert_eq!(rows[0].updated_short().len(), 19);
    assert!(!rows[0].updated_short().contains('T'));
    assert!(rows[0].matches("TRIP interrupted"));
    assert!(rows[0].matches("e2e"));
    assert!(!rows[0].matches("trip idle"));
    assert!(rows[1].matches(""));
    assert!(summaries(&json!({"detail": "x"})).is_err());
    let req = search_threads();
    assert_eq!((req.method, req.path.as_str()), ("POST", "/threads/search"));
    assert_eq!(req.body.unwrap()["sort_order"], "desc");
}

#[test]
fn the_history_is_paged_with_limit_and_before_until_its_root_then_each_subgraph() {
    let thread = fixture("thread.json")["thread_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let p = pages();
    let mut loader = HistoryLoader::with_limit(&thread, 3);
    let first = loader.next_request().unwrap();
    assert_eq!(first.path, format!("/threads/{thread}/history"));
    assert_eq!(first.body, Some(json!({"limit": 3})));
    loader.take_page(p[0].clone()).unwrap();
    let second = loader.next_request().unwrap();
    let last_of_first = p[0][2]["checkpoint"]["checkpoint_id"].clone();
    assert_eq!(
        second.body.unwrap()["before"],
        json!({"configurable": {"checkpoint_id": last_of_first}})
    );
    loader.take_page(p[1].clone()).unwrap();
    assert_eq!(loader.progress().checkpoints, 6);
    loader.take_page(p[2].clone()).unwrap();
    // The root is complete (a short page); the subgraph the interrupted task runs is next.
    let ns = p[0][0]["tasks"][0]["checkpoint"]["checkpoint_ns"].clone();
    assert!(ns.as_str().unwrap().starts_with("review:"));
    let sub = loader.next_request().unwrap();
    assert_eq!(
        sub.body,
        Some(json!({"limit": 3, "checkpoint": {"checkpoint_ns": ns}}))
    );
    assert_eq!(loader.progress().namespaces_left, 1);
    loader.take_page(p[3].clone()).unwrap();
    // A full page (3 of 3) may not be the end: one more, before its last checkpoint.
    let more = loader.next_request().unwrap().body.unwrap();
    assert_eq!(
        more["before"]["configurable"]["checkpoint_id"],
        p[3][2]["checkpoint"]["checkpoint_id"]
    );
    assert_eq!(more["checkpoint"]["checkpoint_ns"], ns);
    loader.take_page(json!([])).unwrap();
    assert_eq!(loader.next_request(), None, "the whole thread is in");
    assert_eq!(
        loader.progress(),
        Progress {
            checkpoints: 10,
            pages: 5,
            namespaces_left: 0
        }
    );
    assert!(loader.take_page(json!([])).is_err(), "nothing more to take");
}

#[test]
fn a_server_thread_draws_every_checkpoint_as_the_server_recorded_it() {
    let opened = loaded().finish().unwrap();
    assert_eq!(opened.len(), 10);
    let spec = GraphSpec::parse(opened.spec.as_deref().unwrap()).unwrap();
    let mut s = Session::new(spec).unwrap();
    s.import_history(opened.thread, opened.next, "server")
        .unwrap();
    assert_eq!(s.log().last().unwrap().text, "import_thread(server)");
    // The server's root history, oldest first: what the tree must show.
    let mut root: Vec<Value> = pages()[..3]
        .iter()
        .flat_map(|p| p.as_array().unwrap().clone())
        .collect();
    root.reverse();
    let views = s.checkpoints();
    assert_eq!(views.len(), root.len());
    for (i, (v, h)) in views.iter().zip(&root).enumerate() {
        assert_eq!(v.label, format!("c{i}"));
        assert_eq!(v.id, h["checkpoint"]["checkpoint_id"].as_str().unwrap());
        assert_eq!(
            v.parent.as_deref(),
            h["parent_checkpoint"]["checkpoint_id"].as_str()
        );
        assert_eq!(v.step, h["metadata"]["step"].as_i64().unwrap());
        let source = serde_json::to_value(v.source).unwrap();
        assert_eq!(source, h["metadata"]["source"]);
        let next: Vec<String> = serde_json::from_value(h["next"].clone()).unwrap();
        assert_eq!(v.next, next);
    }
    assert_eq!(views[0].source, Source::Input);
    assert_eq!(
        views[4].next,
        ["research", "research", "research"],
        "the Send fan-out"
    );
    // The subgraph: its namespace, owned by the root checkpoint whose task ran it.
    let namespaces = s.namespaces();
    assert_eq!(namespaces.len(), 1);
    assert_eq!(namespaces[0].node, "review");
    assert_eq!(
        namespaces[0].owner,
        root[6]["checkpoint"]["checkpoint_id"].as_str().unwrap()
    );
    assert_eq!(s.checkpoints_in(&namespaces[0].ns).len(), 3);
    assert!(
        s.needs_graph(),
        "a server thread's nodes run on the server, never here"
    );
}

#[test]
fn a_failure_status_says_what_it_means_with_the_servers_text() {
    let missing = fixture("missing_thread.json");
    let err = ServerError::from_status(
        missing["status"].as_u64().unwrap() as u16,
        missing["body"].as_str().unwrap(),
    );
    assert_eq!(
        err,
        ServerError::NotFound(
            "Thread with ID 00000000-0000-0000-0000-000000000000 not found".into()
        )
    );
    assert_eq!(
        ServerError::from_status(403, "{\"detail\":\"Forbidden\"}"),
        ServerError::Unauthorized(403, "Forbidden".into())
    );
    assert_eq!(
        ServerError::from_status(401, "no key"),
        ServerError::Unauthorized(401, "no key".into())
    );
    assert_eq!(
        ServerError::from_status(422, "{\"detail\":[{\"msg\":\"bad\"}]}"),
        ServerError::Refused(422, "[{\"msg\":\"bad\"}]".into())
    );
}

#[test]
fn a_server_that_ignores_before_or_answers_no_list_is_refused() {
    let mut loader = HistoryLoader::with_limit("t", 3);
    let page = fixture("history_page1.json");
    loader.take_page(page.clone()).unwrap();
    assert!(matches!(
        loader.take_page(page),
        Err(ServerError::BadResponse(_))
    ));
    let mut loader = HistoryLoader::new("t");
    assert!(loader.take_page(json!({"detail": "x"})).is_err());
    let mut loader = HistoryLoader::new("t");
    assert!(loader.take_page(json!([{"values": {}}])).is_err());
}

#[test]
fn urls_keys_and_ids_are_checked_and_encoded() {
    let c = Connection::new("  http://127.0.0.1:2024/ ", " ").unwrap();
    assert_eq!(c.url, "http://127.0.0.1:2024");
    assert_eq!(c.api_key, None);
    assert_eq!(
        c.headers(),
        [("content-type", "application/json".to_owned())]
    );
    let k = Connection::new("https://x.example", "secret").unwrap();
    assert!(k.headers().contains(&("x-api-key", "secret".to_owned())));
    assert!(
        !format!("{k:?}").contains("secret"),
        "the key never reaches a log"
    );
    for bad in ["", "127.0.0.1:2024", "ftp://x", "http://", "http://a b"] {
        assert!(
            matches!(Connection::new(bad, ""), Err(ServerError::BadUrl(_))),
            "{bad}"
        );
    }
    assert_eq!(get_thread("a/b?c").path, "/threads/a%2Fb%3Fc");
    assert_eq!(
        k.url_of(&get_graph("trip")),
        "https://x.example/assistants/trip/graph?xray=true"
    );
    assert_eq!(
        HistoryLoader::with_limit("t", 5000)
            .next_request()
            .unwrap()
            .body,
        Some(json!({"limit": 1000}))
    );
}

#[test]
fn the_loaded_thread_agrees_with_the_servers_state_and_graph() {
    let opened = loaded().finish().unwrap();
    let spec = GraphSpec::parse(opened.spec.as_deref().unwrap()).unwrap();
    // Every node the history names is a node of the assistant's graph; with
    // `xray` a subgraph node is drawn as its own nodes (`review:draft`).
    let graph = fixture("graph_xray.json");
    let served: Vec<&str> = graph["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_str().unwrap())
        .collect();
    for node in spec.nodes.keys() {
        let inside = format!("{node}:");
        assert!(
            served.iter().any(|s| s == node || s.starts_with(&inside)),
            "{node} in {served:?}"
        );
    }
    assert!(!served.contains(&"review") && served.contains(&"review:ask"));
    // The paused subgraph the state names (`?subgraphs=true`) is the namespace
    // loaded, and its newest checkpoint is the subgraph's HEAD there.
    let state = fixture("state_subgraphs.json");
    let sub = &state["tasks"][0]["state"]["checkpoint"];
    let mut s = Session::new(spec).unwrap();
    s.import_history(opened.thread, opened.next, "server")
        .unwrap();
    let ns = sub["checkpoint_ns"].as_str().unwrap();
    let inside = s.checkpoints_in(ns);
    assert_eq!(
        inside.last().unwrap().id,
        sub["checkpoint_id"].as_str().unwrap()
    );
    assert_eq!(
        s.head().as_deref(),
        state["checkpoint"]["checkpoint_id"].as_str()
    );
}

#[test]
fn the_watch_reads_whether_a_run_is_in_flight_and_when_the_thread_changed() {
    let recorded = fixture("thread.json");
    let (busy, updated) = thread_status(&recorded);
    assert!(!busy, "the recorded thread waits on an interrupt: not busy");
    assert_eq!(updated, recorded["updated_at"].as_str().unwrap());
    assert!(thread_status(&json!({"status": "busy", "updated_at": "x"})).0);
}
