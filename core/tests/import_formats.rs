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

/// The walkthrough's graph: `booking` does nothing, `reply` answers the
/// last human message with `Reply: ...` (the visualizer's `chat` scenario).
fn walkthrough_graph(saver: std::rc::Rc<InMemorySaver>) -> chronograph::CompiledGraph {
    use chronograph::{CompileOptions, Reducer, StateGraph, END, START};
    use serde_json::json;
    let mut g = StateGraph::new();
    g.add_channel("messages", Reducer::AddMessages)
        .add_node("booking", |_, _| Ok(json!({})))
        .add_node("reply", |s, _| {
            let messages = s.get_json("messages").unwrap_or_default();
            let last = messages.as_array().and_then(|m| m.last()).cloned();
            let text = last.map(|m| m["content"].clone()).unwrap_or_default();
            Ok(json!({"messages": [{"type": "ai", "content": format!("Reply: {}", text.as_str().unwrap_or(""))}]}))
        })
        .add_edge(START, "booking")
        .add_edge("booking", "reply")
        .add_edge("reply", END);
    g.compile(CompileOptions::with_checkpointer(saver)).unwrap()
}

fn ids_in_order(saver: &InMemorySaver, thread: &str) -> Vec<String> {
    let mut ids: Vec<String> = saver
        .list(&ListTarget::thread(thread), &ListOptions::default())
        .unwrap()
        .into_iter()
        .map(|t| t.checkpoint.id)
        .collect();
    ids.sort();
    ids
}

#[test]
fn an_imported_history_keeps_next_as_langgraph_recorded_it() {
    use chronograph::RunnableConfig;
    for (name, format) in [
        ("python_history.json", ImportFormat::PythonStateHistory),
        (
            "agent_server_history.json",
            ImportFormat::AgentServerHistory,
        ),
    ] {
        let (saver, thread) = load(name, format);
        let saver = std::rc::Rc::new(saver);
        let app = walkthrough_graph(saver.clone());
        let items: Vec<Value> = serde_json::from_str(&fixture(name)).unwrap();
        for item in &items {
            let address = item
                .get("checkpoint")
                .unwrap_or_else(|| &item["config"]["configurable"]);
            let id = address["checkpoint_id"].as_str().unwrap();
            let state = app
                .get_state(&RunnableConfig::thread(thread.as_str()).at(id))
                .unwrap();
            let recorded: Vec<String> = serde_json::from_value(item["next"].clone()).unwrap();
            assert_eq!(state.next, recorded, "{name}: checkpoint {id}");
        }
    }
}

#[test]
fn replaying_an_imported_input_checkpoint_runs_the_graph_on_the_input_it_had() {
    use chronograph::RunnableConfig;
    let (saver, thread) = load("python_history.json", ImportFormat::PythonStateHistory);
    let saver = std::rc::Rc::new(saver);
    let app = walkthrough_graph(saver.clone());
    let ids = ids_in_order(&saver, &thread);
    let cfg = |id: &str| RunnableConfig::thread(thread.as_str()).at(id);
    // The first round's input (step -1, empty state): the input was the first message.
    let out = app
        .invoke(Value::Null, &cfg(&ids[0]))
        .unwrap()
        .values
        .to_json();
    let contents: Vec<&str> = out["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(contents, ["明天上午还有号吗", "Reply: 明天上午还有号吗"]);
    // The second round's input (step 3): only the new message is the input;
    // the two the state held already are not added again.
    let second = &ids[4];
    let before = app.get_state(&cfg(second)).unwrap();
    assert_eq!(before.metadata.as_ref().unwrap().source.as_str(), "input");
    let out = app
        .invoke(Value::Null, &cfg(second))
        .unwrap()
        .values
        .to_json();
    let messages = out["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4, "{out}");
    assert_eq!(
        messages[3]["content"],
        format!("Reply: {}", messages[2]["content"].as_str().unwrap())
    );
    let after = ids_in_order(&saver, &thread);
    assert!(
        after.len() > 13 + 4,
        "each replay added a branch: {}",
        after.len()
    );
    assert!(
        ids.iter().all(|id| after.contains(id)),
        "nothing imported went away"
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
