//! The low-level API ([`Pregel`] with [`NodeBuilder`]): graphs built from
//! channels and nodes. Each expected value was produced by LangGraph 1.2.22
//! running the same program (`langgraph.pregel.Pregel`, `NodeBuilder`,
//! `langgraph.channels`); where LangGraph.js prepares tasks differently
//! ([`Semantics::pregel_nodes_as_js`]) the test says so.

use chronograph::{
    ChannelKind, ChannelWrite, ChannelWriteEntry, CheckpointSaver, CompileOptions, CompiledGraph,
    CustomReducer, InMemorySaver, ListOptions, NodeBuilder, Pregel, Reducer, RunnableConfig,
    Semantics, Send,
};
use serde_json::{json, Value};
use std::rc::Rc;

fn sum_reducer() -> Reducer {
    Reducer::Custom(CustomReducer::new(|acc, v| {
        let a = acc
            .and_then(|a| a.as_json())
            .and_then(Value::as_i64)
            .unwrap_or(0);
        Ok(chronograph::ChannelValue::from_json(json!(
            a + v.as_i64().unwrap_or(0)
        )))
    }))
}

fn doubled(x: &Value) -> Value {
    json!(format!("{0}{0}", x.as_str().unwrap_or_default()))
}

fn compile(p: &Pregel) -> CompiledGraph {
    p.compile(CompileOptions::default()).unwrap()
}

fn with_saver(p: &Pregel, interrupt_before: &[&str]) -> (Rc<InMemorySaver>, CompiledGraph) {
    let saver = Rc::new(InMemorySaver::new());
    let app = p
        .compile(CompileOptions {
            checkpointer: Some(saver.clone()),
            interrupt_before: interrupt_before.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        })
        .unwrap();
    (saver, app)
}

fn run(app: &CompiledGraph, input: Value) -> Value {
    app.invoke(input, &RunnableConfig::default())
        .unwrap()
        .values
        .to_json()
}

fn error(app: &CompiledGraph, input: Value) -> String {
    app.invoke(input, &RunnableConfig::default())
        .unwrap_err()
        .to_string()
}

fn compile_error(p: &Pregel) -> String {
    p.compile(CompileOptions::default())
        .unwrap_err()
        .to_string()
}

/// The thread's newest checkpoint.
fn latest(saver: &InMemorySaver, cfg: &RunnableConfig) -> chronograph::Checkpoint {
    let tuple = saver.get_tuple(&cfg.checkpoint_config().unwrap()).unwrap();
    tuple.unwrap().checkpoint
}

/// The channels `node` saw, as `versions_seen` lists them.
fn seen<'c>(cp: &'c chronograph::Checkpoint, node: &str) -> Vec<&'c str> {
    cp.versions_seen[node].keys().map(|k| &**k).collect()
}

#[test]
fn invoke_writes_the_input_channels_and_returns_the_output_channels() {
    let mut p = Pregel::new();
    p.add_channel("a", ChannelKind::ephemeral_value(true))
        .add_channel("b", ChannelKind::ephemeral_value(true))
        .add_node(
            "node1",
            NodeBuilder::new()
                .subscribe_only("a")
                .run(|x, _| Ok(doubled(x)))
                .write_to(["b"]),
        )
        .input_channels(["a"])
        .output_channels(["b"]);
    assert_eq!(
        run(&compile(&p), json!({"a": "foo"})),
        json!({"b": "foofoo"})
    );
}

fn topic_graph(accumulate: bool) -> Pregel {
    let mut p = Pregel::new();
    p.add_channel("a", ChannelKind::ephemeral_value(true))
        .add_channel("b", ChannelKind::ephemeral_value(true))
        .add_channel("c", ChannelKind::topic(accumulate))
        .add_node(
            "n1",
            NodeBuilder::new()
                .subscribe_only("a")
                .run(|x, _| Ok(doubled(x)))
                .write_to(["b", "c"]),
        )
        .add_node(
            "n2",
            NodeBuilder::new()
                .subscribe_only("b")
                .run(|x, _| Ok(doubled(x)))
                .write_to(["c"]),
        )
        .input_channels(["a"])
        .output_channels(["c"]);
    p
}

#[test]
fn an_accumulating_topic_keeps_the_values_of_every_superstep() {
    let app = compile(&topic_graph(true));
    assert_eq!(
        run(&app, json!({"a": "foo"})),
        json!({"c": ["foofoo", "foofoofoofoo"]})
    );
}

#[test]
fn a_topic_that_does_not_accumulate_holds_the_last_superstep_s_values() {
    let app = compile(&topic_graph(false));
    assert_eq!(
        run(&app, json!({"a": "foo"})),
        json!({"c": ["foofoofoofoo"]})
    );
}

#[test]
fn the_stream_shows_each_node_s_writes_and_the_output_channels_after_each_step() {
    let mut p = topic_graph(true);
    p.stream_channels(["b", "c"]);
    let app = compile(&p);
    let (events, _) = app
        .stream(json!({"a": "foo"}), &RunnableConfig::default())
        .unwrap();
    let seen: Vec<Value> = events
        .into_iter()
        .filter_map(|e| match e {
            chronograph::StreamEvent::Values(v) => Some(json!(["values", v])),
            chronograph::StreamEvent::Updates { node, update } => {
                Some(json!(["updates", {node: update}]))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        seen,
        vec![
            json!(["updates", {"n1": {"b": "foofoo", "c": "foofoo"}}]),
            json!(["values", {"b": "foofoo", "c": ["foofoo"]}]),
            json!(["updates", {"n2": {"c": "foofoofoofoo"}}]),
            json!(["values", {"c": ["foofoo", "foofoofoofoo"]}]),
        ]
    );
}

// LangGraph (Python) names no key in these texts (`At key ''`): the channels
// a `Pregel` is given have none; the engine names the channel, as
// LangGraph.js does.
#[test]
fn two_writes_to_a_last_value_in_one_superstep_are_an_invalid_update() {
    let mut p = Pregel::new();
    p.add_channel("x", ChannelKind::last_value())
        .add_channel("y", ChannelKind::last_value())
        .add_node("a", NodeBuilder::new().subscribe_only("x").write_to(["y"]))
        .add_node("b", NodeBuilder::new().subscribe_only("x").write_to(["y"]))
        .input_channels("x")
        .output_channels("y");
    assert_eq!(
        error(&compile(&p), json!(1)),
        "InvalidUpdateError: At key 'y': Can receive only one value per step. Use an Annotated key to handle multiple values.\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CONCURRENT_GRAPH_UPDATE"
    );
}

#[test]
fn a_guarded_ephemeral_value_refuses_two_writes_and_an_any_value_keeps_the_last() {
    let graph = |kind: ChannelKind| {
        let mut p = Pregel::new();
        p.add_channel("x", ChannelKind::last_value())
            .add_channel("z", kind)
            .add_node("e", NodeBuilder::new().subscribe_only("x").write_to(["z"]))
            .add_node(
                "f",
                NodeBuilder::new()
                    .subscribe_only("x")
                    .run(|x, _| Ok(json!(x.as_i64().unwrap() + 1)))
                    .write_to(["z"]),
            )
            .input_channels("x")
            .output_channels("z");
        compile(&p)
    };
    assert_eq!(
        error(&graph(ChannelKind::ephemeral_value(true)), json!(1)),
        "InvalidUpdateError: At key 'z': EphemeralValue(guard=True) can receive only one value per step. Use guard=False if you want to store any one of multiple values."
    );
    // Tasks apply in node-name order: f's write is the last one.
    assert_eq!(run(&graph(ChannelKind::any_value()), json!(1)), json!(2));
}

#[test]
fn a_node_subscribed_to_channels_reads_an_object_of_those_that_have_a_value() {
    let mut p = Pregel::new();
    p.add_channel("a", ChannelKind::last_value())
        .add_channel("b", ChannelKind::last_value())
        .add_channel("out", ChannelKind::last_value())
        .add_node(
            "one",
            NodeBuilder::new()
                .subscribe_to(["a"], true)
                .read_from(["b"])
                .run(|d, _| Ok(d.clone()))
                .write_to(["out"]),
        )
        .input_channels(["a", "b"])
        .output_channels("out");
    let app = compile(&p);
    assert_eq!(run(&app, json!({"a": 1})), json!({"a": 1}));
    assert_eq!(run(&app, json!({"a": 1, "b": 2})), json!({"a": 1, "b": 2}));
}

fn adder() -> Pregel {
    let mut p = Pregel::new();
    p.add_channel("input", ChannelKind::last_value())
        .add_channel("output", ChannelKind::last_value())
        .add_channel(
            "total",
            ChannelKind::binary_operator_aggregate(sum_reducer()),
        )
        .set_channel_default("total", json!(0))
        .add_node(
            "add",
            NodeBuilder::new()
                .subscribe_to(["input"], true)
                .read_from(["total"])
                .run(|d, _| {
                    Ok(json!(
                        d["input"].as_i64().unwrap() + d["total"].as_i64().unwrap_or(0)
                    ))
                })
                .write_to(["output"])
                .writer(ChannelWrite(vec![ChannelWriteEntry::mapped(
                    "total",
                    |x| Ok(Some(x)),
                )])),
        )
        .input_channels("input")
        .output_channels("output");
    p
}

#[test]
fn interrupt_before_a_node_pauses_the_run_and_a_resume_runs_it() {
    let (saver, app) = with_saver(&adder(), &["add"]);
    let cfg = RunnableConfig::thread("1");
    let paused = app.invoke(json!(2), &cfg).unwrap();
    assert!(paused.paused && !paused.values_reported);
    let state = app.get_state(&cfg).unwrap();
    assert_eq!(state.values.to_json(), json!({"input": 2, "total": 0}));
    assert_eq!(state.next, ["add"]);
    assert_eq!(
        app.invoke(json!(null), &cfg).unwrap().values.to_json(),
        json!(2)
    );
    let history: Vec<Value> = app
        .get_state_history(&cfg, &ListOptions::default())
        .unwrap()
        .iter()
        .map(|s| {
            let m = s.metadata.as_ref().unwrap();
            json!([s.values.to_json(), s.next, m.source.as_str(), m.step])
        })
        .collect();
    assert_eq!(
        history,
        vec![
            json!([{"input": 2, "output": 2, "total": 2}, [], "loop", 0]),
            json!([{"input": 2, "total": 0}, ["add"], "input", -1]),
        ]
    );
    let cp = latest(&saver, &cfg);
    let nodes: Vec<&str> = cp.versions_seen.keys().map(|k| &**k).collect();
    assert_eq!(nodes, ["__input__", "__interrupt__", "add"]);
    assert_eq!(seen(&cp, "add"), ["input"]);
}

#[test]
fn update_state_as_a_node_runs_its_writers_on_the_values() {
    let (_, app) = with_saver(&adder(), &[]);
    let cfg = RunnableConfig::thread("1");
    assert_eq!(
        app.invoke(json!(2), &cfg).unwrap().values.to_json(),
        json!(2)
    );
    app.update_state(&cfg, Some(json!(10)), Some("add"))
        .unwrap();
    assert_eq!(
        app.get_state(&cfg).unwrap().values.to_json(),
        json!({"input": 2, "output": 10, "total": 12})
    );
}

/// An entrypoint's shape (LangGraph.js's functional API): one node that
/// reads the input and writes its result to the output and to the value
/// the thread's next run sees.
fn entrypoint_shaped() -> Pregel {
    let mut p = Pregel::new();
    for c in ["input", "output", "previous"] {
        p.add_channel(c, ChannelKind::last_value());
    }
    p.add_node(
        "agent",
        NodeBuilder::new()
            .subscribe_only("input")
            .write_to(["output", "previous"]),
    )
    .input_channels("input")
    .output_channels("output");
    p
}

#[test]
fn update_state_runs_a_pregel_nodes_writers_on_a_list_as_it_is() {
    // A list is the node's value, not `[channel, value]` pairs of a Command
    // (LangGraph.js runs the entrypoint's writers on it unchanged).
    let (_, app) = with_saver(&entrypoint_shaped(), &[]);
    let cfg = RunnableConfig::thread("1");
    app.invoke(json!(["hi"]), &cfg).unwrap();
    for as_node in [Some("agent"), None] {
        app.update_state(&cfg, Some(json!([["user", "edited"], 2])), as_node)
            .unwrap();
        let state = app.get_state(&cfg).unwrap();
        let values = state.values.to_json();
        assert_eq!(values["output"], json!([["user", "edited"], 2]));
        assert_eq!(values["previous"], values["output"]);
        assert!(state.next.is_empty());
    }
}

fn fan_in() -> Pregel {
    let mut p = Pregel::new();
    for c in ["a", "b", "c", "out"] {
        p.add_channel(c, ChannelKind::last_value());
    }
    p.add_node(
        "t1",
        NodeBuilder::new().subscribe_only("a").write_to(["b", "c"]),
    )
    .add_node(
        "t2",
        NodeBuilder::new()
            .subscribe_to(["b", "c"], true)
            .run(|d, _| Ok(json!(d["b"].as_i64().unwrap() + d["c"].as_i64().unwrap())))
            .write_to(["out"]),
    )
    .input_channels("a")
    .output_channels("out");
    p
}

#[test]
fn a_task_records_every_trigger_of_its_node_as_seen() {
    let (saver, app) = with_saver(&fan_in(), &[]);
    let cfg = RunnableConfig::thread("1");
    assert_eq!(
        app.invoke(json!(3), &cfg).unwrap().values.to_json(),
        json!(6)
    );
    let cp = latest(&saver, &cfg);
    assert_eq!(seen(&cp, "t2"), ["b", "c"]);
    let nexts: Vec<Vec<String>> = app
        .get_state_history(&cfg, &ListOptions::default())
        .unwrap()
        .into_iter()
        .map(|s| s.next)
        .collect();
    assert_eq!(
        nexts,
        vec![vec![], vec!["t2".to_owned()], vec!["t1".to_owned()]]
    );
}

#[test]
fn as_in_langgraph_js_a_task_records_only_the_first_trigger_that_fired() {
    let saver = Rc::new(InMemorySaver::new());
    let app = fan_in()
        .compile(CompileOptions {
            checkpointer: Some(saver.clone()),
            semantics: Semantics {
                pregel_nodes_as_js: true,
                ..Semantics::langgraph()
            },
            ..Default::default()
        })
        .unwrap();
    let cfg = RunnableConfig::thread("1");
    // `c` stays unseen, so t2 runs once more on it (as in LangGraph.js).
    assert_eq!(
        app.invoke(json!(3), &cfg).unwrap().values.to_json(),
        json!(6)
    );
    let steps = app
        .get_state_history(&cfg, &ListOptions::default())
        .unwrap();
    assert_eq!(steps.len(), 4);
    let cp = latest(&saver, &cfg);
    assert_eq!(seen(&cp, "t2"), ["b", "c"]);
}

#[test]
fn as_in_langgraph_js_an_object_read_waits_for_each_trigger_channel() {
    let mut p = Pregel::new();
    for c in ["a", "b", "out"] {
        p.add_channel(c, ChannelKind::last_value());
    }
    p.add_node(
        "n",
        NodeBuilder::new()
            .subscribe_to(["a", "b"], true)
            .run(|d, _| Ok(d.clone()))
            .write_to(["out"]),
    )
    .input_channels(["a", "b"])
    .output_channels("out");
    let js = p
        .compile(CompileOptions {
            semantics: Semantics {
                pregel_nodes_as_js: true,
                ..Semantics::langgraph()
            },
            ..Default::default()
        })
        .unwrap();
    let out = js
        .invoke(json!({"a": 1}), &RunnableConfig::default())
        .unwrap();
    assert!(!out.values_reported, "no task: b is empty");
    assert_eq!(run(&compile(&p), json!({"a": 1})), json!({"a": 1}));
}

#[test]
fn a_node_reading_the_first_of_several_channels_gets_the_first_that_has_a_value() {
    let mut p = Pregel::new();
    for c in ["a", "b", "out"] {
        p.add_channel(c, ChannelKind::last_value());
    }
    p.add_node(
        "n",
        NodeBuilder::new()
            .subscribe_first_of(["a", "b"])
            .write_to(["out"]),
    )
    .input_channels(["a", "b"])
    .output_channels("out");
    let app = compile(&p);
    assert_eq!(run(&app, json!({"b": 2})), json!(2));
    assert_eq!(run(&app, json!({"a": 1, "b": 2})), json!(1));
}

#[test]
fn a_send_entry_runs_the_named_node_on_its_argument() {
    let mut p = Pregel::new();
    p.add_channel("x", ChannelKind::last_value())
        .add_channel("out", ChannelKind::topic(true))
        .add_node(
            "fan",
            NodeBuilder::new()
                .subscribe_only("x")
                .writer(ChannelWrite(vec![
                    ChannelWriteEntry::send(Send::new("worker", json!(1))),
                    ChannelWriteEntry::send(Send::new("worker", json!(2))),
                ])),
        )
        .add_node(
            "worker",
            NodeBuilder::new()
                .run(|v, _| Ok(json!(v.as_i64().unwrap() * 10)))
                .write_to(["out"]),
        )
        .input_channels("x")
        .output_channels("out");
    assert_eq!(run(&compile(&p), json!(0)), json!([10, 20]));
}

#[test]
fn a_node_can_write_channels_while_it_runs() {
    let mut p = Pregel::new();
    p.add_channel("x", ChannelKind::last_value())
        .add_channel("out", ChannelKind::topic(false))
        .add_node(
            "n",
            NodeBuilder::new()
                .subscribe_only("x")
                .run(|x, ctx| {
                    ctx.write(vec![("out".into(), json!("early"))])?;
                    Ok(x.clone())
                })
                .write_to(["out"]),
        )
        .input_channels("x")
        .output_channels("out");
    assert_eq!(run(&compile(&p), json!("late")), json!(["early", "late"]));
}

#[test]
fn a_unique_topic_keeps_each_value_once() {
    let mut p = Pregel::new();
    p.add_channel("x", ChannelKind::last_value())
        .add_channel("out", ChannelKind::unique_topic(true))
        .add_node(
            "n",
            NodeBuilder::new()
                .subscribe_only("x")
                .write_to(["out", "out"]),
        )
        .input_channels("x")
        .output_channels("out");
    let (saver, app) = with_saver(&p, &[]);
    let cfg = RunnableConfig::thread("1");
    app.invoke(json!([1, 2, 1]), &cfg).unwrap();
    assert_eq!(
        app.invoke(json!([2, 3]), &cfg).unwrap().values.to_json(),
        json!([1, 2, 3])
    );
    let cp = latest(&saver, &cfg);
    assert_eq!(
        cp.channel_values["out"].to_json(),
        json!([[1, 2, 3], [1, 2, 3]])
    );
}

#[test]
fn a_run_without_input_is_an_empty_input_error_naming_the_input_channels() {
    let app = compile(&adder());
    assert_eq!(
        error(&app, json!(null)),
        "EmptyInputError: Received no input for input"
    );
}

#[test]
fn several_input_channels_need_an_object() {
    let mut p = Pregel::new();
    p.add_channel("a", ChannelKind::last_value())
        .add_channel("b", ChannelKind::last_value())
        .add_node("n", NodeBuilder::new().subscribe_only("a").write_to(["b"]))
        .input_channels(["a"])
        .output_channels("b");
    assert_eq!(
        error(&compile(&p), json!(3)),
        "TypeError: Expected chunk to be a dict, got int"
    );
}

#[test]
fn compile_refuses_unknown_channels_and_unsubscribed_input_with_langgraph_s_texts() {
    let mut p = Pregel::new();
    p.add_channel("a", ChannelKind::last_value())
        .add_node("n", NodeBuilder::new().subscribe_only("zz"))
        .input_channels("a")
        .output_channels("a");
    assert_eq!(
        compile_error(&p),
        "ValueError: Node n reads channel 'zz' not in known channels: '['__pregel_tasks', 'a']'"
    );
    let mut p = Pregel::new();
    p.add_channel("a", ChannelKind::last_value())
        .add_channel("b", ChannelKind::last_value())
        .add_node("n", NodeBuilder::new().subscribe_only("a"))
        .input_channels("b")
        .output_channels("a");
    assert_eq!(
        compile_error(&p),
        "ValueError: Input channel b is not subscribed to by any node"
    );
    let mut p = Pregel::new();
    p.add_channel("__pregel_tasks", ChannelKind::last_value());
    p.input_channels("a").output_channels("a");
    assert_eq!(
        compile_error(&p),
        "ValueError: Channel '__pregel_tasks' is reserved and cannot be used in the graph."
    );
}

#[test]
fn a_pregel_graph_runs_as_a_node_of_a_state_graph() {
    let mut inner = Pregel::new();
    inner
        .add_channel("input", ChannelKind::last_value())
        .add_channel("output", ChannelKind::last_value())
        .add_node(
            "one",
            NodeBuilder::new()
                .subscribe_only("input")
                .run(|s, _| Ok(json!({"n": s["n"].as_i64().unwrap() + 1})))
                .write_to(["output"]),
        )
        .input_channels("input")
        .output_channels("output");
    let mut g = chronograph::StateGraph::new();
    g.add_channel("n", Reducer::LastValue)
        .add_subgraph("inner", compile(&inner))
        .add_edge(chronograph::START, "inner")
        .add_edge("inner", chronograph::END);
    let app = g.compile(CompileOptions::default()).unwrap();
    assert_eq!(run(&app, json!({"n": 1})), json!({"n": 2}));
}

#[test]
fn a_compiled_graph_can_be_given_another_checkpointer() {
    let app = compile(&adder());
    assert!(app.get_state(&RunnableConfig::thread("1")).is_err());
    let saver = Rc::new(InMemorySaver::new());
    let saved = app.with_checkpointer(Some(saver), false);
    saved
        .invoke(json!(5), &RunnableConfig::thread("1"))
        .unwrap();
    let state = saved.get_state(&RunnableConfig::thread("1")).unwrap();
    assert_eq!(
        state.values.to_json(),
        json!({"input": 5, "output": 5, "total": 5})
    );
}
