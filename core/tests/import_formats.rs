//! Threads exported by real LangGraph open in the engine
//! (`chronograph::import_thread`): the seed walkthrough run by LangGraph
//! (Python, `langgraph` 1.2.22) and dumped from `get_state_history`, the
//! same history in an Agent Server's shape, and LangGraph.js's MemorySaver
//! contents (`saver.list`). Each gives the walkthrough's 13-checkpoint tree,
//! its messages as the engine's plain messages, and a state that
//! `update_state` forks. The fixtures and the scripts that wrote them are in
//! `tests/fixtures/import/`.

use chronograph::{
    detect_format, import_thread, CheckpointSaver, ErrorKind, ImportFormat, InMemorySaver,
    ListOptions, ListTarget,
};
use serde_json::Value;

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/import/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture")
}

/// The walkthrough's tree: per checkpoint (id order) the parent's index,
/// source, step and messages as `type:content`.
fn tree(saver: &InMemorySaver, thread: &str) -> Vec<(Option<usize>, String, i64, Vec<String>)> {
    let mut tuples = saver
        .list(&ListTarget::thread(thread), &ListOptions::default())
        .unwrap();
    tuples.sort_by(|a, b| a.checkpoint.id.cmp(&b.checkpoint.id));
    let ids: Vec<String> = tuples.iter().map(|t| t.checkpoint.id.clone()).collect();
    tuples
        .iter()
        .map(|t| {
            let parent = t.parent_config.as_ref().and_then(|p| {
                ids.iter()
                    .position(|id| Some(id) == p.checkpoint_id.as_ref())
            });
            let messages = t
                .checkpoint
                .channel_values
                .get("messages")
                .map(|m| {
                    m.to_json()
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
                })
                .unwrap_or_default();
            (
                parent,
                t.metadata.source.as_str().to_owned(),
                t.metadata.step,
                messages,
            )
        })
        .collect()
}

fn load(name: &str, format: ImportFormat) -> (InMemorySaver, String) {
    let text = fixture(name);
    assert_eq!(detect_format(&text).unwrap(), format);
    let export = import_thread(&text).unwrap();
    let thread = export.thread_id.clone();
    let saver = InMemorySaver::new();
    saver.import_thread(export).unwrap();
    (saver, thread)
}

fn check_walkthrough(saver: &InMemorySaver, thread: &str) {
    let t = tree(saver, thread);
    assert_eq!(t.len(), 13);
    let sources: Vec<&str> = t.iter().map(|c| c.1.as_str()).collect();
    assert_eq!(
        sources,
        [
            "input", "loop", "loop", "loop", "input", "loop", "loop", "loop", "fork", "loop",
            "fork", "update", "loop"
        ]
    );
    assert_eq!(t[0].0, None, "the first input is the root");
    assert_eq!(
        t[11].0,
        Some(0),
        "the edit of the first message forks from c0"
    );
    assert_eq!(t[8].0, Some(2), "the replay from step 1 forks from c2");
    assert_eq!(
        t[12].3,
        [
            "human:改成明天下午两点的号",
            "ai:回复：改成明天下午两点的号"
        ]
    );
    assert_eq!(t[7].3.len(), 4, "two rounds: four messages");
    // Every value is stored once per version: c3 and c4 share c3's messages.
    let latest = saver
        .get_tuple(&chronograph::CheckpointConfig::thread(thread))
        .unwrap()
        .unwrap();
    assert_eq!(latest.metadata.step, 1);
}

#[test]
fn a_python_get_state_history_dump_opens_as_the_walkthroughs_tree() {
    let (saver, thread) = load("python_history.json", ImportFormat::PythonStateHistory);
    assert_eq!(thread, "booking");
    check_walkthrough(&saver, &thread);
}

#[test]
fn an_agent_server_history_opens_as_the_walkthroughs_tree() {
    let (saver, thread) = load(
        "agent_server_history.json",
        ImportFormat::AgentServerHistory,
    );
    check_walkthrough(&saver, &thread);
}

#[test]
fn a_langgraph_js_saver_listing_opens_with_its_versions_and_writes() {
    let (saver, thread) = load("langgraphjs_saver.json", ImportFormat::SaverList);
    check_walkthrough(&saver, &thread);
    // LangGraph.js's integer versions repeat across branches; each branch keeps its own value.
    let mut tuples = saver
        .list(&ListTarget::thread(&thread), &ListOptions::default())
        .unwrap();
    tuples.sort_by(|a, b| a.checkpoint.id.cmp(&b.checkpoint.id));
    let first_round = tuples[3].checkpoint.channel_values["messages"].to_json();
    assert_eq!(first_round.as_array().unwrap().len(), 2);
    assert_eq!(first_round[0]["content"], "明天上午还有号吗");
    assert!(
        first_round[0].get("lc").is_none(),
        "messages are plain: {first_round}"
    );
    assert!(
        tuples.iter().any(|t| !t.pending_writes.is_empty()),
        "pending writes come along"
    );
}

#[test]
fn an_imported_thread_forks_with_update_state() {
    use chronograph::{CompileOptions, Reducer, RunnableConfig, StateGraph, END, START};
    use serde_json::json;
    use std::rc::Rc;
    let (saver, thread) = load("python_history.json", ImportFormat::PythonStateHistory);
    let saver = Rc::new(saver);
    let mut g = StateGraph::new();
    g.add_channel("messages", Reducer::AddMessages)
        .add_node("booking", |_, _| Ok(json!({})))
        .add_node("reply", |_, _| Ok(json!({})))
        .add_edge(START, "booking")
        .add_edge("booking", "reply")
        .add_edge("reply", END);
    let app = g
        .compile(CompileOptions::with_checkpointer(saver.clone()))
        .unwrap();
    let cfg = RunnableConfig::thread(thread.as_str());
    let before = app
        .get_state_history(&cfg, &Default::default())
        .unwrap()
        .len();
    let forked = app
        .update_state(
            &cfg,
            Some(json!({"messages": [{"type": "human", "content": "fork"}]})),
            Some("booking"),
        )
        .unwrap();
    assert!(forked.checkpoint_id().is_some());
    let history = app.get_state_history(&cfg, &Default::default()).unwrap();
    assert_eq!(history.len(), before + 1);
    let newest = &history[0];
    assert_eq!(newest.metadata.as_ref().unwrap().source.as_str(), "update");
    let messages = newest.values.get("messages").unwrap().to_json();
    assert_eq!(
        messages.as_array().unwrap().last().unwrap()["content"],
        "fork"
    );
}

#[test]
fn mistakes_say_where_they_are() {
    let bad = "[\n {\"values\": {}, \"config\": {\"configurable\": {\"thread_id\": \"t\", \"checkpoint_id\": \"a\"}},\n  \"metadata\": {\"source\": \"loop\", \"step\": \"two\"}}\n]";
    let e = import_thread(bad).unwrap_err();
    assert_eq!(e.code(), "INVALID_IMPORT");
    assert_eq!(e.kind(), ErrorKind::Value);
    assert!(e.message().contains("line 3"), "{}", e.message());
    assert!(
        e.message().contains("$[0].metadata.step"),
        "{}",
        e.message()
    );
    let e = import_thread("{\"not\": \"a list\"}").unwrap_err();
    assert!(e.message().contains("line 1"), "{}", e.message());
    let e = import_thread("[]").unwrap_err();
    assert!(e.message().contains("no checkpoints"), "{}", e.message());
    let e = import_thread("[{\"x\": 1}]").unwrap_err();
    assert!(e.message().contains("$[0]"), "{}", e.message());
    let _: Value = serde_json::from_str(&fixture("python_history.json")).unwrap();
}
