//! A replay's event stream as `langgraph dev` sent it
//! (`web/tests/fixtures/server/stream_replay.sse`, with the thread's
//! history read after the run in `stream_replay_history.json`, both written
//! by `web/e2e/server/record.mjs stream`): cut into events whatever the
//! chunks, each checkpoint written as its `/history` item, and the thread
//! growing one checkpoint per event until it is the server's.

use super::tests::fixture;
use super::*;
use crate::session::{CheckpointView, Session};
use chronograph::GraphSpec;
use serde_json::{json, Value};
use std::rc::Rc;

fn recorded_stream() -> String {
    let path = format!(
        "{}/tests/fixtures/server/stream_replay.sse",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

/// The recorded stream's events, read in one go.
fn events() -> Vec<Event> {
    EventParser::new().push(&recorded_stream())
}

/// The streamed checkpoints, as `/history` items.
fn streamed_items() -> Vec<Value> {
    events()
        .iter()
        .filter_map(|e| match run_event(e).unwrap() {
            RunEvent::Checkpoint(item) => Some(item),
            _ => None,
        })
        .collect()
}

fn id_of(item: &Value) -> &str {
    item["checkpoint"]["checkpoint_id"].as_str().unwrap()
}

/// `opened` as the page draws it: every namespace's checkpoints, root
/// first, each subgraph's after it with the checkpoint that owns it.
fn views(opened: crate::import::Opened) -> Vec<(CheckpointView, Option<String>)> {
    let spec = GraphSpec::parse(opened.spec.as_deref().unwrap()).unwrap();
    let mut s = Session::new(spec).unwrap();
    s.import_history(opened.thread, opened.next, "server")
        .unwrap();
    let mut all: Vec<_> = s.checkpoints().into_iter().map(|c| (c, None)).collect();
    for n in s.namespaces() {
        all.extend(
            s.checkpoints_in(&n.ns)
                .into_iter()
                .map(|c| (c, Some(n.owner.clone()))),
        );
    }
    all
}

#[test]
fn the_stream_is_cut_into_the_same_events_whatever_the_chunks() {
    let whole = events();
    let names: Vec<&str> = whole
        .iter()
        .map(|e| e.name.split(':').next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "metadata",
            "checkpoints",
            "checkpoints",
            "checkpoints",
            "checkpoints",
            "checkpoints|review",
            "checkpoints|review",
            "checkpoints|review"
        ]
    );
    let text = recorded_stream();
    for size in [1, 7, 100, 4096] {
        let mut parser = EventParser::new();
        let chars: Vec<char> = text.chars().collect();
        let mut got = Vec::new();
        for chunk in chars.chunks(size) {
            got.extend(parser.push(&chunk.iter().collect::<String>()));
        }
        assert_eq!(got, whole, "chunks of {size}");
        assert!(!parser.pending(), "chunks of {size}");
    }
    // CRLF line ends, comments and multi-line data are the format's too.
    let mut p = EventParser::new();
    let got = p.push(": keep-alive\r\nevent: x\r\ndata: 1\r\ndata: 2\r\n\r\n");
    assert_eq!(
        got,
        [Event {
            name: "x".into(),
            data: "1\n2".into()
        }]
    );
}

#[test]
fn a_stream_cut_inside_an_event_is_left_pending() {
    let text = recorded_stream();
    let cut = text.len() / 2;
    let mut parser = EventParser::new();
    parser.push(&text[..text.floor_char_boundary(cut)]);
    assert!(parser.pending());
}

#[test]
fn each_streamed_checkpoint_is_the_item_history_answers_for_it() {
    let history = fixture("stream_replay_history.json");
    let history = history.as_array().unwrap();
    let items = streamed_items();
    assert_eq!(items.len(), 7);
    let root: Vec<&Value> = items
        .iter()
        .filter(|i| i["checkpoint"]["checkpoint_ns"] == "")
        .collect();
    assert_eq!(root.len(), 4);
    for item in root {
        let h = history
            .iter()
            .find(|h| h["checkpoint"]["checkpoint_id"] == item["checkpoint"]["checkpoint_id"])
            .expect("a streamed checkpoint is in the history");
        assert_eq!(
            item["parent_checkpoint"]["checkpoint_id"],
            h["parent_checkpoint"]["checkpoint_id"]
        );
        assert_eq!(item["metadata"]["step"], h["metadata"]["step"]);
        assert_eq!(item["metadata"]["source"], h["metadata"]["source"]);
        assert_eq!(item["next"], h["next"]);
        assert_eq!(item["values"], h["values"]);
        let ns = |v: &Value| -> Vec<Value> {
            v["tasks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["checkpoint"]["checkpoint_ns"].clone())
                .collect()
        };
        assert_eq!(ns(item), ns(h), "the tasks' subgraph namespaces");
    }
    // The subgraph's checkpoints name their namespace; the first has no parent.
    let sub: Vec<&Value> = items
        .iter()
        .filter(|i| i["checkpoint"]["checkpoint_ns"] != "")
        .collect();
    assert_eq!(sub.len(), 3);
    assert!(sub[0]["parent_checkpoint"].is_null());
    assert_eq!(
        sub[1]["parent_checkpoint"]["checkpoint_id"],
        sub[0]["checkpoint"]["checkpoint_id"]
    );
    assert!(sub[0]["checkpoint"]["checkpoint_ns"]
        .as_str()
        .unwrap()
        .starts_with("review:"));
}

#[test]
fn the_thread_grows_one_checkpoint_per_event_until_it_is_the_servers() {
    let history = fixture("stream_replay_history.json");
    let items = streamed_items();
    let streamed: Vec<&str> = items.iter().map(id_of).collect();
    // The history before the run: every checkpoint the run did not write.
    let before: Vec<Value> = history
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| !streamed.contains(&id_of(h)))
        .cloned()
        .collect();
    let start = before.len();
    let mut live = LiveRun::new(Rc::new(before));
    assert_eq!(views(live.opened().unwrap()).len(), start);
    for (n, item) in items.iter().enumerate() {
        assert_eq!(live.take(item.clone()).as_deref(), Some(id_of(item)));
        let drawn = views(live.opened().unwrap());
        assert_eq!(drawn.len(), start + n + 1, "after event {n}");
        let (new, _) = drawn.iter().find(|(v, _)| v.id == id_of(item)).unwrap();
        assert_eq!(new.step, item["metadata"]["step"].as_i64().unwrap());
        assert_eq!(
            new.ns,
            item["checkpoint"]["checkpoint_ns"].as_str().unwrap()
        );
    }
    // The same checkpoint twice (a reconnect) is taken once.
    assert_eq!(live.take(items[0].clone()), None);
    assert_eq!(live.streamed().count(), items.len());
    // The thread is then the server's history: ids, parents, steps, sources, namespaces.
    let server = views(crate::import::open(&history.to_string()).unwrap());
    type Row = (String, Option<String>, i64, String, String, Option<String>);
    let drawn = |v: &[(CheckpointView, Option<String>)]| -> Vec<Row> {
        let mut rows: Vec<Row> = v
            .iter()
            .map(|(c, owner)| {
                let source = format!("{:?}", c.source);
                (
                    c.id.clone(),
                    c.parent.clone(),
                    c.step,
                    source,
                    c.ns.clone(),
                    owner.clone(),
                )
            })
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(drawn(&views(live.opened().unwrap())), drawn(&server));
    assert_eq!(server.len(), 17);
}

#[test]
fn an_error_event_is_a_failed_run_and_other_modes_are_ignored() {
    let failed = run_event(&Event {
        name: "error".into(),
        data: json!({"error": "ValueError", "message": "boom"}).to_string(),
    })
    .unwrap();
    assert_eq!(
        failed,
        RunEvent::Failed(ServerError::RunFailed("ValueError: boom".into()))
    );
    let first = &events()[0];
    assert!(matches!(run_event(first).unwrap(), RunEvent::Started(id) if !id.is_empty()));
    let other = Event {
        name: "values".into(),
        data: "{}".into(),
    };
    assert_eq!(run_event(&other).unwrap(), RunEvent::Other);
    let broken = Event {
        name: "checkpoints".into(),
        data: "{".into(),
    };
    assert!(matches!(
        run_event(&broken),
        Err(ServerError::BadResponse(_))
    ));
    assert!(history_item(&json!({"values": {}})).is_err());
}
