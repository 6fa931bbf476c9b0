//! The JavaScript binding layer (crate `chronograph-wasm`), run in Node:
//! `wasm-pack test --node core/wasm --test wasm_api`.
//! DTO round trips (configs, inputs, commands, snapshots, stream chunks,
//! thread exports) and error conversion both ways (core errors to real JS
//! `Error`s with `name`/`code`/`node` and LangGraph.js texts; thrown JS
//! values to core errors and back to the very same object).
#![cfg(target_arch = "wasm32")]

use chronograph::{
    CompileOptions, Error, ErrorKind, Goto, InMemorySaver, Resume, RunInput, RunnableConfig, Send,
    StateGraph, StreamEvent, END, PARENT, START,
};
use chronograph_wasm::error::JsResult;
use chronograph_wasm::error::{from_thrown, is_graph_interrupt, js_message, js_name, to_js};
use chronograph_wasm::types::args::get;
use chronograph_wasm::types::checkpoint_chunk::RunConfig;
use chronograph_wasm::types::command::{command_from_js, input_from_js, supersteps_from_js};
use chronograph_wasm::types::config::{config_from_js, config_to_js, list_options_from_js};
use chronograph_wasm::types::snapshot::snapshot_to_js;
use chronograph_wasm::types::stream::{stream_chunks, StreamMode};
use chronograph_wasm::{WasmEngineSaver, WasmStateGraph};
use js_sys::{Function, Object, Reflect, JSON};
use serde_json::json;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

/// A JS value from JSON text.
fn js(text: &str) -> JsValue {
    JSON::parse(text).expect("valid JSON")
}

/// A JS value as JSON text (keys in insertion order).
fn text(v: &JsValue) -> String {
    JSON::stringify(v)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_default()
}

/// A JS value as the typed argument an export takes.
fn arg<T: JsCast>(v: impl Into<JsValue>) -> T {
    v.into().unchecked_into()
}

fn prop(v: &JsValue, key: &str) -> Option<String> {
    get(v, key).as_string()
}

#[wasm_bindgen_test]
fn configs_round_trip_with_langgraph_js_keys() {
    let config = config_from_js(
        &js(r#"{"configurable": {"thread_id": 7, "checkpoint_ns": "", "user": "ann", "checkpoint_id": "abc"},
                "recursionLimit": 25, "metadata": {"run": "r1"}, "streamMode": "values"}"#),
        "config",
    )
    .unwrap();
    assert_eq!(config.thread_id().as_deref(), Some("7"));
    assert_eq!(config.checkpoint_id().as_deref(), Some("abc"));
    assert_eq!(config.recursion_limit, Some(25));
    assert_eq!(config.metadata.get("run"), Some(&json!("r1")));
    let back = config_to_js(&config).unwrap();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&text(&back)).unwrap(),
        json!({"configurable": {"checkpoint_id": "abc", "checkpoint_ns": "", "thread_id": 7, "user": "ann"}, "recursionLimit": 25})
    );
    // A falsy checkpoint_id is "the thread's latest" (LangGraph.js), so it is left out.
    for id in ["null", "\"\""] {
        let c = config_from_js(
            &js(&format!(
                r#"{{"configurable": {{"thread_id": "t", "checkpoint_id": {id}}}}}"#
            )),
            "config",
        )
        .unwrap();
        assert!(!c.has_checkpoint_id_key());
    }
    assert_eq!(
        config_from_js(&JsValue::UNDEFINED, "config").unwrap(),
        RunnableConfig::default()
    );
}

#[wasm_bindgen_test]
fn bad_configs_are_type_errors_naming_the_key() {
    let cases = [
        (
            r#""t1""#,
            r#"config must be an object like {configurable: {thread_id: "1"}}, got the string "t1""#,
        ),
        (
            r#"{"configurable": 3}"#,
            "config.configurable must be an object, got the number 3",
        ),
        (
            r#"{"configurable": {"thread_id": true}}"#,
            "config.configurable.thread_id must be a string or a number, got a value of type boolean",
        ),
        (
            r#"{"recursionLimit": 2.5}"#,
            "config.recursionLimit must be an integer, got the number 2.5",
        ),
    ];
    for (input, message) in cases {
        let e = config_from_js(&js(input), "config").unwrap_err();
        assert!(e.is_instance_of::<js_sys::TypeError>(), "{input}");
        assert_eq!(prop(&e, "message").as_deref(), Some(message));
        assert_eq!(prop(&e, "code").as_deref(), Some("INVALID_ARGUMENT"));
        assert_eq!(prop(&e, "name").as_deref(), Some("TypeError"));
    }
}

#[wasm_bindgen_test]
fn inputs_and_commands_convert() {
    assert_eq!(input_from_js(JsValue::NULL, false).unwrap(), RunInput::None);
    assert_eq!(
        input_from_js(JsValue::UNDEFINED, false).unwrap(),
        RunInput::None
    );
    assert_eq!(
        input_from_js(js(r#"{"x": [1, {"y": null}]}"#), false).unwrap(),
        RunInput::Values(json!({"x": [1, {"y": null}]}))
    );
    let id = "0123456789abcdef0123456789abcdef";
    let cmd = command_from_js(&js(&format!(
        r#"{{"lg_name": "Command", "resume": {{"{id}": 1}}, "update": {{"x": 2}}, "goto": "a"}}"#
    )))
    .unwrap();
    assert_eq!(
        cmd.resume,
        Some(Resume::ById([(id.into(), json!(1))].into()))
    );
    assert_eq!(cmd.update, Some(json!({"x": 2})));
    assert_eq!(cmd.goto, vec![Goto::Node("a".into())]);
    assert_eq!(cmd.graph, None);
    // Sends (LangGraph.js `Send`s, or `{node, args}` objects like them),
    // mixed with names, and a Command for the parent graph.
    let cmd = command_from_js(&js(
        r#"{"lg_name": "Command", "graph": "__parent__", "goto": [{"lg_name": "Send", "node": "w", "args": 7}, {"node": "w", "args": {"k": [1]}}, "b"]}"#,
    ))
    .unwrap();
    assert_eq!(
        cmd.goto,
        vec![
            Goto::Send(Send::new("w", json!(7))),
            Goto::Send(Send::new("w", json!({"k": [1]}))),
            Goto::Node("b".into()),
        ]
    );
    assert_eq!(cmd.graph.as_deref(), Some(PARENT));
    // LangGraph.js acts on Command.PARENT only: another name stays with this graph.
    assert_eq!(
        command_from_js(&js(r#"{"graph": "root"}"#)).unwrap().graph,
        None
    );
    for (bad, message) in [
        (
            r#"{"goto": [{"node": "w"}]}"#,
            "Command.goto must be a node name, a Send, or an array of them, got a value of type object",
        ),
        (
            r#"{"goto": {"lg_name": "Send", "node": 1, "args": null}}"#,
            "Command.goto: a Send's node must be a string, got the number 1",
        ),
        (
            r#"{"graph": 1}"#,
            "Command.graph must be Command.PARENT (\"__parent__\") or undefined, got the number 1",
        ),
    ] {
        let e = command_from_js(&js(bad)).unwrap_err();
        assert_eq!(prop(&e, "message").as_deref(), Some(message), "{bad}");
        assert_eq!(prop(&e, "code").as_deref(), Some("INVALID_ARGUMENT"));
    }
    let RunInput::Command(cmd) = input_from_js(
        js(r#"{"lg_name": "Command", "resume": null, "goto": []}"#),
        false,
    )
    .unwrap() else {
        panic!("a Command")
    };
    assert_eq!(
        cmd.resume,
        Some(Resume::Value(json!(null))),
        "null is an answer"
    );
    let e = input_from_js(JsValue::from(3), false).unwrap_err();
    assert_eq!(prop(&e, "code").as_deref(), Some("INVALID_ARGUMENT"));
    // A Pregel's input may be any value (its one input channel gets it).
    assert_eq!(
        input_from_js(JsValue::from(3), true).unwrap(),
        RunInput::Values(json!(3))
    );
}

#[wasm_bindgen_test]
fn cycles_and_deep_values_are_invalid_value_type_errors_naming_the_path() {
    use chronograph_wasm::value::{json_from_js, MAX_DEPTH};
    // o = {k: 1}; o.self = o; input = {n: o}
    let o = js(r#"{"k": 1}"#);
    Reflect::set(&o, &"self".into(), &o).unwrap();
    let input = Object::new();
    Reflect::set(&input, &"n".into(), &o).unwrap();
    let e = json_from_js(&input, "input").unwrap_err();
    assert!(e.is_instance_of::<js_sys::TypeError>());
    assert_eq!(prop(&e, "code").as_deref(), Some("INVALID_VALUE"));
    assert!(prop(&e, "message")
        .unwrap()
        .starts_with("input.n.self: the value contains itself (a cycle)"));
    // The same error through the run input.
    let e = input_from_js(input.into(), false).unwrap_err();
    assert_eq!(prop(&e, "code").as_deref(), Some("INVALID_VALUE"));
    // MAX_DEPTH levels read; one more is refused.
    let deep = |levels: usize| js(&format!("{}1{}", "[".repeat(levels), "]".repeat(levels)));
    let ok = json_from_js(&deep(MAX_DEPTH), "v").unwrap();
    assert_eq!(
        serde_json::to_string(&ok).unwrap(),
        format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH))
    );
    let e = json_from_js(&deep(MAX_DEPTH + 1), "v").unwrap_err();
    assert!(prop(&e, "message")
        .unwrap()
        .ends_with("nest deeper than 256 levels, the limit"));
}

#[wasm_bindgen_test]
fn list_options_and_supersteps_convert() {
    let o = list_options_from_js(
        &js(r#"{"limit": 2, "before": {"configurable": {"checkpoint_id": "c5"}}, "filter": {"source": "loop"}}"#),
        "options",
    )
    .unwrap();
    assert_eq!(o.limit, Some(2));
    assert_eq!(o.before.as_deref(), Some("c5"));
    assert_eq!(o.filter.get("source"), Some(&json!("loop")));
    let steps = supersteps_from_js(&js(
        r#"[{"updates": [{"values": {"x": 1}, "asNode": "a", "taskId": "t"}, {"values": null}]}]"#,
    ))
    .unwrap();
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0][0].values, Some(json!({"x": 1})));
    assert_eq!(steps[0][0].as_node.as_deref(), Some("a"));
    assert_eq!(steps[0][0].task_id.as_deref(), Some("t"));
    assert_eq!(steps[0][1].values, None);
    let e = supersteps_from_js(&js(r#"[{"updates": {}}]"#)).unwrap_err();
    assert!(prop(&e, "message")
        .unwrap_or_default()
        .starts_with("supersteps[0].updates must be an array"));
}

/// A two-node graph on a fresh saver, run once.
fn ran_graph() -> (chronograph::CompiledGraph, RunnableConfig) {
    let mut g = StateGraph::new();
    g.add_channel("log", chronograph::Reducer::Append)
        .add_node("a", |_, _| Ok(json!({"log": ["a"]})))
        .add_node("b", |_, _| Ok(json!({"log": ["b"]})))
        .add_edge(START, "a")
        .add_edge("a", "b")
        .add_edge("b", END);
    let graph = g
        .compile(CompileOptions::with_checkpointer(Rc::new(
            InMemorySaver::new(),
        )))
        .unwrap();
    let cfg = RunnableConfig::thread("t1");
    graph.invoke(json!({"log": []}), &cfg).unwrap();
    (graph, cfg)
}

#[wasm_bindgen_test]
fn snapshots_have_langgraph_js_shape() {
    let (graph, cfg) = ran_graph();
    let history = graph.get_state_history(&cfg, &Default::default()).unwrap();
    let mid = snapshot_to_js(&history[1]).unwrap();
    let keys: Vec<String> = Object::keys(mid.unchecked_ref::<Object>())
        .iter()
        .filter_map(|k| k.as_string())
        .collect();
    // LangGraph.js's key order.
    assert_eq!(
        keys,
        [
            "values",
            "next",
            "tasks",
            "metadata",
            "config",
            "createdAt",
            "parentConfig"
        ]
    );
    assert_eq!(text(&get(&mid, "values")), r#"{"log":["a"]}"#);
    assert_eq!(text(&get(&mid, "next")), r#"["b"]"#);
    let meta = get(&mid, "metadata");
    assert_eq!(
        text(&meta),
        r#"{"source":"loop","step":1,"parents":{},"thread_id":"t1"}"#
    );
    let config = get(&get(&mid, "config"), "configurable");
    assert_eq!(prop(&config, "thread_id").as_deref(), Some("t1"));
    assert_eq!(prop(&config, "checkpoint_ns").as_deref(), Some(""));
    assert_eq!(
        prop(&config, "checkpoint_id"),
        history[1].config.checkpoint_id
    );
    let task = js_sys::Array::from(&get(&mid, "tasks")).get(0);
    assert_eq!(prop(&task, "name").as_deref(), Some("b"));
    assert_eq!(text(&get(&task, "interrupts")), "[]");
    assert_eq!(text(&get(&task, "result")), r#"{"log":["b"]}"#);
    assert!(get(&task, "error").is_undefined());
    // The root has no parent: the key is absent, not null.
    let root = snapshot_to_js(history.last().unwrap()).unwrap();
    assert!(!Reflect::has(&root, &"parentConfig".into()).unwrap());
}

#[wasm_bindgen_test]
fn stream_chunks_per_mode_hide_the_start_task() {
    let run = RunConfig::new(&chronograph::RunnableConfig::default());
    let all = [
        StreamMode::Values,
        StreamMode::Updates,
        StreamMode::Tasks,
        StreamMode::Debug,
    ];
    let start = StreamEvent::Updates {
        node: START.into(),
        update: json!({"x": 1}),
    };
    assert!(stream_chunks(&start, &all, &run).unwrap().is_empty());
    let update = StreamEvent::Updates {
        node: "a".into(),
        update: json!({"x": 1}),
    };
    let chunks = stream_chunks(&update, &all, &run).unwrap();
    assert_eq!(chunks.len(), 1);
    assert_eq!(chunks[0].0, StreamMode::Updates);
    assert_eq!(text(&chunks[0].1), r#"{"a":{"x":1}}"#);
    let task = StreamEvent::Task {
        id: "id".into(),
        name: "a".into(),
        step: 3,
        input: json!({"x": 1}),
        triggers: vec!["branch:to:a".into()],
        path: "~__pregel_pull, a".into(),
    };
    let chunks = stream_chunks(&task, &all, &run).unwrap();
    assert_eq!(
        chunks.iter().map(|c| c.0).collect::<Vec<_>>(),
        [StreamMode::Tasks, StreamMode::Debug]
    );
    assert_eq!(
        text(&chunks[0].1),
        r#"{"id":"id","name":"a","input":{"x":1},"triggers":["branch:to:a"],"interrupts":[]}"#
    );
    assert_eq!(prop(&chunks[1].1, "type").as_deref(), Some("task"));
    assert_eq!(get(&chunks[1].1, "step").as_f64(), Some(3.0));
    let paused = StreamEvent::Interrupted(Vec::new());
    let only_values = stream_chunks(&paused, &[StreamMode::Values], &run).unwrap();
    assert_eq!(text(&only_values[0].1), r#"{"__interrupt__":[]}"#);
    // LangGraph.js reports a pause in both modes.
    let both = stream_chunks(&paused, &[StreamMode::Values, StreamMode::Updates], &run).unwrap();
    assert_eq!(
        both.iter().map(|c| c.0).collect::<Vec<_>>(),
        [StreamMode::Updates, StreamMode::Values]
    );
    assert!(StreamMode::parse("messages").is_err());
}

#[wasm_bindgen_test]
fn core_errors_become_real_errors_with_name_code_and_js_text() {
    let e = to_js(&Error::invalid_update("Ambiguous update, specify as_node"));
    assert!(e.is_instance_of::<js_sys::Error>());
    assert_eq!(prop(&e, "name").as_deref(), Some("InvalidUpdateError"));
    assert_eq!(prop(&e, "code").as_deref(), Some("INVALID_UPDATE"));
    assert_eq!(
        prop(&e, "message").as_deref(),
        Some("Ambiguous update, specify \"asNode\"")
    );
    let texts = [
        (
            Error::invalid_update("as_node is required when applying multiple updates"),
            "\"asNode\" is required when applying multiple updates",
        ),
        (
            Error::invalid_update("Node x does not exist"),
            "Node \"x\" does not exist",
        ),
        (
            Error::invalid_update("Node x has no writers"),
            "No writers found for node \"x\"",
        ),
        (
            Error::value("Subgraph x not found"),
            "Subgraph \"x\" not found",
        ),
        (
            Error::value("recursion_limit must be at least 1"),
            "\"recursionLimit\" must be at least 1",
        ),
        (
            Error::invalid_update("Cannot copy a non-existent checkpoint"),
            "Cannot copy a non-existent checkpoint",
        ),
    ];
    for (error, message) in texts {
        assert_eq!(js_message(&error).0, message);
    }
    let missing = Error::no_checkpointer();
    assert_eq!(js_name(&missing), "GraphValueError");
    let e = to_js(&missing);
    assert_eq!(prop(&e, "code").as_deref(), Some("MISSING_CHECKPOINTER"));
    // LangGraph.js links the troubleshooting page of this one.
    assert_eq!(
        prop(&e, "message").as_deref(),
        Some("No checkpointer set\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langgraph/MISSING_CHECKPOINTER/\n")
    );

    let recursion = Error::new(
        ErrorKind::GraphRecursion,
        "Recursion limit of 3 reached without hitting a stop condition. You can increase the limit by setting the `recursion_limit` config key.\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/GRAPH_RECURSION_LIMIT",
    );
    let e = to_js(&recursion);
    assert_eq!(prop(&e, "name").as_deref(), Some("GraphRecursionError"));
    assert_eq!(
        prop(&e, "lc_error_code").as_deref(),
        Some("GRAPH_RECURSION_LIMIT")
    );
    assert_eq!(
        prop(&e, "message").as_deref(),
        Some("Recursion limit of 3 reached without hitting a stop condition. You can increase the limit by setting the \"recursionLimit\" config key.\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langgraph/GRAPH_RECURSION_LIMIT/\n")
    );
    let typed = to_js(&Error::type_error(
        "can only concatenate list (not \"str\") to list",
    ));
    assert!(typed.is_instance_of::<js_sys::TypeError>());
    let in_node = to_js(&Error::invalid_update("Expected dict, got 42").in_node("n"));
    assert_eq!(prop(&in_node, "node").as_deref(), Some("n"));
}

#[wasm_bindgen_test]
fn thrown_js_values_round_trip_to_the_same_object() {
    let thrown: JsValue = js_sys::RangeError::new("out of range").into();
    let core = from_thrown(thrown.clone());
    assert_eq!(core.kind(), ErrorKind::Node);
    assert_eq!(core.name(), "RangeError");
    assert_eq!(core.message(), "out of range");
    let back = to_js(&core.in_node("fetch"));
    assert!(Object::is(&back, &thrown), "the very object the node threw");
    assert_eq!(prop(&back, "node").as_deref(), Some("fetch"));
    assert_eq!(prop(&back, "code").as_deref(), Some("NODE_ERROR"));

    let core = from_thrown(JsValue::from_str("plain string"));
    assert_eq!(core.message(), "plain string");
    let back = to_js(&core.in_node("n"));
    assert!(
        back.is_instance_of::<js_sys::Error>(),
        "never a thrown string"
    );
    assert_eq!(prop(&back, "message").as_deref(), Some("plain string"));
    assert_eq!(prop(&back, "cause").as_deref(), Some("plain string"));

    let marker = to_js(&Error::new(ErrorKind::GraphInterrupt, "interrupted"));
    assert!(is_graph_interrupt(&marker));
    assert_eq!(from_thrown(marker).kind(), ErrorKind::GraphInterrupt);
}

async fn settle(p: js_sys::Promise) -> JsResult<JsValue> {
    JsFuture::from(p).await
}

#[wasm_bindgen_test]
async fn js_nodes_run_through_the_raw_classes() {
    let mut graph = WasmStateGraph::new(arg(js(r#"{"n": "sum", "log": "append"}"#))).unwrap();
    let add = Function::new_with_args("state", "return { n: 1, log: ['a saw ' + state.n] }");
    let later = Function::new_with_args(
        "state",
        "return Promise.resolve({ n: 10, log: ['b saw ' + state.n] })",
    );
    graph
        .add_node(arg("a"), arg(add), arg(JsValue::UNDEFINED))
        .unwrap();
    graph
        .add_node(arg("b"), arg(later), arg(JsValue::UNDEFINED))
        .unwrap();
    graph.add_edge(arg(START), arg("a")).unwrap();
    graph.add_edge(arg("a"), arg("b")).unwrap();
    let saver = WasmEngineSaver::new(None).expect("a saver with the default versions");
    let compiled = graph
        .compile(
            Some(saver.share()),
            arg(JsValue::UNDEFINED),
            arg(JsValue::UNDEFINED),
            false,
            true,
            JsValue::UNDEFINED,
        )
        .unwrap();
    let cfg = js(r#"{"configurable": {"thread_id": "raw"}}"#);
    let out = settle(compiled.invoke(arg(js(r#"{"n": 0, "log": []}"#)), arg(cfg.clone())))
        .await
        .unwrap();
    // The state in the graph's declaration order.
    assert_eq!(text(&out), r#"{"n":11,"log":["a saw 0","b saw 1"]}"#);
    // History is a listing: the items as one JSON text (values `null`),
    // each item's values converted once, on request.
    let mut history = compiled
        .get_state_history(arg(cfg.clone()), arg(JsValue::UNDEFINED))
        .unwrap();
    let items = JSON::parse(&history.take_text()).unwrap();
    assert_eq!(js_sys::Array::from(&items).length(), 4);
    let newest = js_sys::Array::from(&items).get(0);
    assert!(get(&newest, "values").is_null());
    assert_eq!(
        text(&get(&newest, "metadata")),
        r#"{"source":"loop","step":2,"parents":{},"thread_id":"raw"}"#
    );
    assert_eq!(
        history.values_text(0).unwrap().as_deref(),
        Some(r#"{"n":11,"log":["a saw 0","b saw 1"]}"#)
    );
    assert_eq!(history.values_text(0).unwrap(), None, "taken once");
    assert_eq!(history.values_text(9).unwrap(), None, "past the end");
    assert_eq!(history.take_text(), "[]", "taken once");

    // The saver round-trips the thread through its JSON export.
    let data = saver.export_thread(arg("raw")).unwrap();
    assert_eq!(
        prop(&data, "format").as_deref(),
        Some("chronograph.thread.v1")
    );
    let copy = WasmEngineSaver::new(None).expect("a saver with the default versions");
    copy.import_thread(js(&text(&data))).unwrap();
    assert_eq!(text(&copy.export_thread(arg("raw")).unwrap()), text(&data));

    // A node that throws rejects with its error, node attached.
    let mut bad = WasmStateGraph::new(arg(js(r#"{"x": null}"#))).unwrap();
    let throws = Function::new_with_args("", "throw new SyntaxError('nope')");
    bad.add_node(arg("bad"), arg(throws), arg(JsValue::UNDEFINED))
        .unwrap();
    bad.add_edge(arg(START), arg("bad")).unwrap();
    let compiled = bad
        .compile(
            None,
            arg(JsValue::UNDEFINED),
            arg(JsValue::UNDEFINED),
            false,
            true,
            JsValue::UNDEFINED,
        )
        .unwrap();
    let e = settle(compiled.invoke(arg(js(r#"{"x": 1}"#)), arg(JsValue::UNDEFINED)))
        .await
        .unwrap_err();
    assert!(e.is_instance_of::<js_sys::SyntaxError>());
    assert_eq!(prop(&e, "node").as_deref(), Some("bad"));
}

#[wasm_bindgen_test]
fn builder_arguments_are_checked_before_the_core_sees_them() {
    let e = WasmStateGraph::new(arg(1)).err().unwrap();
    assert_eq!(prop(&e, "code").as_deref(), Some("INVALID_ARGUMENT"));
    let mut g = WasmStateGraph::new(arg(js("{}"))).unwrap();
    let e = g
        .add_node(arg("a"), arg(5), arg(JsValue::UNDEFINED))
        .unwrap_err();
    assert_eq!(
        prop(&e, "message").as_deref(),
        Some("addNode(\"a\", fn): fn must be a function, got the number 5")
    );
    let e = g
        .add_conditional_edges(arg("a"), js("[]"), JsValue::UNDEFINED)
        .unwrap_err();
    assert!(e.is_instance_of::<js_sys::TypeError>());
}
