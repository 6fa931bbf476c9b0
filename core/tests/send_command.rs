//! `Send` (PUSH tasks) and `Command` returned by nodes (spec §10, FORMAT.md
//! "Subgraphs, Send and Command").

mod common;

use chronograph::{
    Command, CompiledGraph, Goto, GraphSpec, NodeContext, NodeOutput, RunInput, Send, State,
    StateGraph, END, PARENT, START,
};
use common::*;
use serde_json::{json, Value};

fn spec(saver: &std::rc::Rc<chronograph::InMemorySaver>, graph: Value) -> CompiledGraph {
    GraphSpec::from_value(&graph)
        .unwrap()
        .compile(opts(saver))
        .unwrap()
}

/// `split` fans out one `Send("work", {item: x})` per item; `work` collects.
fn map_reduce(saver: &std::rc::Rc<chronograph::InMemorySaver>) -> CompiledGraph {
    spec(
        saver,
        json!({
            "channels": {"items": {}, "results": {"reducer": "append"}, "n": {"reducer": "sum"}},
            "nodes": {
                "split": {"writes": [{"set": {"items": ["a", "b", "c"]}}]},
                "work": {"writes": [{"collect": "results", "from": "item", "prefix": "did:"}, {"incr": "n", "by": 1}]},
                "reduce": {"writes": []}},
            "edges": [["__start__", "split"], ["work", "reduce"]],
            "conditional_edges": [{"from": "split", "send": {"to": "work", "each": "items", "key": "item"}}]
        }),
    )
}

#[test]
fn each_send_becomes_its_own_task_in_the_next_superstep_in_order() {
    let saver = saver();
    let app = map_reduce(&saver);
    let out = app
        .invoke(json!({"results": [], "n": 10}), &thread("t"))
        .unwrap();
    assert_eq!(
        out.values.to_json()["results"],
        json!(["did:a", "did:b", "did:c"])
    );
    let fan_out = history(&app, &thread("t"))
        .into_iter()
        .find(|s| s.next.len() == 3)
        .unwrap();
    assert_eq!(fan_out.next, ["work", "work", "work"]);
    let paths: Vec<&str> = fan_out.tasks.iter().map(|t| t.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "~__pregel_push, 0000000000, False",
            "~__pregel_push, 0000000001, False",
            "~__pregel_push, 0000000002, False"
        ]
    );
    // Distinct task ids (keyed by the Send's index).
    assert_ne!(fan_out.tasks[0].id, fan_out.tasks[1].id);
}

#[test]
fn a_send_node_is_given_its_argument_instead_of_the_state() {
    let saver = saver();
    let app = map_reduce(&saver);
    let out = app
        .invoke(json!({"results": [], "n": 10}), &thread("t"))
        .unwrap();
    // Each `incr` of `n` counts from 0 (the argument has no `n`): 10 + 1 + 1 + 1.
    assert_eq!(out.values.to_json()["n"], json!(13));
}

#[test]
fn replaying_the_fan_out_checkpoint_reruns_every_send() {
    let saver = saver();
    let app = map_reduce(&saver);
    app.invoke(json!({"results": [], "n": 10}), &thread("t"))
        .unwrap();
    let c2 = id_by_label(&*saver, "t", "C2");
    let out = app.invoke(Value::Null, &at("t", &c2)).unwrap();
    assert_eq!(out.values.to_json()["n"], json!(13));
}

#[test]
fn sends_to_unknown_nodes_are_dropped_and_sends_to_end_fail() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("x", chronograph::Reducer::LastValue)
        .add_node("a", |_: &State, _: &NodeContext| Ok(json!({})))
        .add_edge(START, "a")
        .add_branch(
            "a",
            chronograph::Branch::new(
                chronograph::RouterFn::Sends(std::rc::Rc::new(|s: State| {
                    let to = match s.get_json("x") {
                        Some(Value::Number(n)) if n.as_i64() == Some(1) => "nowhere",
                        _ => END,
                    };
                    Box::pin(async move { Ok(vec![Goto::Send(Send::new(to, json!({})))]) })
                })),
                None,
            ),
        );
    let app = g.compile(opts(&saver)).unwrap();
    // An unknown node: the Send is dropped, the run ends.
    app.invoke(json!({"x": 1}), &thread("t")).unwrap();
    assert_eq!(
        app.get_state(&thread("t")).unwrap().next,
        Vec::<String>::new()
    );
    // A Send to END is LangGraph's InvalidUpdateError.
    let err = app.invoke(json!({"x": 5}), &thread("u")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "InvalidUpdateError: Cannot send a packet to the END node"
    );
}

fn command_graph(saver: &std::rc::Rc<chronograph::InMemorySaver>) -> CompiledGraph {
    spec(
        saver,
        json!({
            "channels": {"log": {"reducer": "append"}},
            "nodes": {
                "router": {"writes": [{"set": {"log": ["router"]}}, {"goto": ["left", "right", "nowhere", "__end__"]}]},
                "left": {"writes": [{"set": {"log": ["left"]}}, {"goto": "merge"}]},
                "right": {"writes": [{"set": {"log": ["right"]}}]},
                "merge": {"writes": [{"set": {"log": ["merge"]}}]},
                "audit": {"writes": [{"set": {"log": ["audit"]}}]}},
            "edges": [["__start__", "router"], ["left", "audit"]]
        }),
    )
}

#[test]
fn command_goto_runs_in_addition_to_static_edges_and_drops_unknown_names() {
    let saver = saver();
    let app = command_graph(&saver);
    let out = app.invoke(json!({"log": []}), &thread("t")).unwrap();
    assert_eq!(
        out.values.to_json()["log"],
        json!(["router", "left", "right", "audit", "merge"])
    );
    let steps = steps(&app, &thread("t"));
    assert_eq!(steps[2], row(1, "loop", &["left", "right"]));
    // `next` lists nodes in registration order.
    assert_eq!(steps[1], row(2, "loop", &["merge", "audit"]));
}

#[test]
fn update_state_as_a_command_node_follows_its_static_edges_only() {
    let saver = saver();
    let app = command_graph(&saver);
    app.invoke(json!({"log": []}), &thread("t")).unwrap();
    let c1 = id_by_label(&*saver, "t", "C1");
    let r = app
        .update_state(&at("t", &c1), Some(json!({"log": ["x"]})), Some("router"))
        .unwrap();
    assert!(app.get_state(&r).unwrap().next.is_empty());
    let l = app
        .update_state(&at("t", &c1), Some(json!({"log": ["y"]})), Some("left"))
        .unwrap();
    assert_eq!(app.get_state(&l).unwrap().next, ["audit"]);
}

#[test]
fn command_parent_from_inside_a_subgraph_applies_to_the_parent() {
    let saver = saver();
    let app = spec(
        &saver,
        json!({
            "channels": {"log": {"reducer": "append"}},
            "nodes": {
                "sub": {"subgraph": {
                    "channels": {"log": {"reducer": "append"}},
                    "nodes": {"escape": {"writes": [{"set": {"log": ["escape"]}}, {"goto": "after", "graph": "parent"}]},
                              "never": {"writes": [{"set": {"log": ["never"]}}]}},
                    "edges": [["__start__", "escape"], ["escape", "never"]]}},
                "after": {"writes": [{"set": {"log": ["after"]}}]},
                "edge": {"writes": [{"set": {"log": ["edge"]}}]}},
            "edges": [["__start__", "sub"], ["sub", "edge"]]
        }),
    );
    let out = app.invoke(json!({"log": []}), &thread("t")).unwrap();
    // The update goes to the parent in place of the subgraph's output; the
    // goto and the parent's edge from `sub` both run; `never` does not.
    assert_eq!(
        out.values.to_json()["log"],
        json!(["escape", "after", "edge"])
    );
}

#[test]
fn command_parent_at_the_root_ends_the_run_as_parent_command() {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("x", chronograph::Reducer::LastValue)
        .add_command_node("a", |_: &State, _: &NodeContext| {
            Ok(NodeOutput::Command(
                Command::goto(Some(json!({"x": 1})), vec!["b".into()]).to_parent(),
            ))
        })
        .add_node("b", |_: &State, _: &NodeContext| Ok(json!({"x": 2})))
        .add_edge(START, "a");
    let app = g.compile(opts(&saver)).unwrap();
    let err = app.invoke(json!({"x": 0}), &thread("t")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ParentCommand: Command(update={'x': 1}, goto='b')"
    );
    // As in LangGraph, the task records nothing: the step stays pending.
    assert_eq!(app.get_state(&thread("t")).unwrap().next, ["a"]);
}

#[test]
fn a_command_input_for_the_parent_graph_is_refused_at_the_root() {
    let saver = saver();
    let app = command_graph(&saver);
    app.invoke(json!({"log": []}), &thread("t")).unwrap();
    let before = export(&saver, "t");
    let cmd = Command {
        goto: vec!["left".into()],
        graph: Some(PARENT.into()),
        ..Default::default()
    };
    let err = app
        .invoke(RunInput::Command(cmd), &thread("t"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "InvalidUpdateError: There is no parent graph"
    );
    assert_eq!(export(&saver, "t"), before);
}
