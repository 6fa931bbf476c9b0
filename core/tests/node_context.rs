//! What a running node reads of its task from its [`NodeContext`]: how the
//! task was scheduled (LangGraph's `langgraph_path` and
//! `langgraph_triggers`) and the `checkpoint_map` of its config (the
//! checkpoint each graph from the root down to the task's runs from).

mod common;

use chronograph::{
    Branch, Goto, NodeContext, Reducer, RouterFn, Send, State, StateGraph, TaskPath, END, START,
};
use common::*;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// What one node call saw: its name, path, triggers, checkpoint map and checkpoint id.
type Seen = Rc<RefCell<Vec<(String, TaskPath, Vec<String>, Vec<String>, Option<String>)>>>;

fn recording(seen: &Seen) -> impl Fn(&State, &NodeContext) -> chronograph::Result<Value> + 'static {
    let seen = seen.clone();
    move |_: &State, ctx: &NodeContext| {
        seen.borrow_mut().push((
            ctx.node().to_owned(),
            ctx.path(),
            ctx.triggers().iter().map(|t| (*t).to_owned()).collect(),
            ctx.checkpoint_map().keys().cloned().collect(),
            ctx.checkpoint_id().map(str::to_owned),
        ));
        assert_eq!(ctx.triggers().first().copied().unwrap_or(""), ctx.trigger());
        Ok(json!({ "log": [ctx.node()] }))
    }
}

#[test]
fn a_node_reads_its_task_path_triggers_and_checkpoint_map() {
    let saver = saver();
    let seen: Seen = Rc::default();
    let mut inner = StateGraph::new();
    inner.add_channel("log", Reducer::Append);
    inner.add_node("i", recording(&seen)).add_edge(START, "i");
    let inner = inner.compile(opts_without_saver()).unwrap();
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    g.add_node("a", recording(&seen))
        .add_node("w", recording(&seen))
        .add_subgraph("sub", inner)
        .add_edge(START, "a")
        .add_edge("w", "sub")
        .add_edge("sub", END)
        .add_branch(
            "a",
            Branch::new(
                RouterFn::Sends(Rc::new(|_: State| {
                    Box::pin(async { Ok(vec![Goto::Send(Send::new("w", json!({})))]) })
                })),
                None,
            ),
        );
    let app = g.compile(opts(&saver)).unwrap();
    app.invoke(json!({ "log": [] }), &thread("t")).unwrap();
    let seen = seen.borrow();
    let [a, w, i] = &seen[..] else {
        panic!("three node calls, got {seen:?}")
    };
    // A task a channel triggered, at the root: the map holds the root's checkpoint.
    assert_eq!((&*a.0, a.1), ("a", TaskPath::Pull));
    assert_eq!(a.2, ["branch:to:a"]);
    assert_eq!(a.3, [""]);
    // A `Send`'s task: the first send of its superstep.
    assert_eq!((&*w.0, w.1), ("w", TaskPath::Push(0)));
    assert_eq!(w.2, ["__pregel_push"]);
    assert_ne!(a.4, w.4, "each superstep runs from its own checkpoint");
    // A subgraph's node: the root's checkpoint and the subgraph's own, root first.
    assert_eq!((&*i.0, i.1), ("i", TaskPath::Pull));
    assert_eq!(i.3.len(), 2);
    assert_eq!(i.3[0], "");
    assert!(i.3[1].starts_with("sub:"));
    assert!(i.4.is_some());
}

#[test]
fn a_subgraph_node_queues_custom_data_among_its_subgraphs_events() {
    let saver = saver();
    let custom = |_: &State, ctx: &NodeContext| {
        let queued = ctx.custom(json!({ "from": ctx.node() }));
        Ok(json!({ "log": [format!("{}:{queued}", ctx.node())] }))
    };
    let mut inner = StateGraph::new();
    inner.add_channel("log", Reducer::Append);
    inner.add_node("i", custom).add_edge(START, "i");
    let inner = inner.compile(opts_without_saver()).unwrap();
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    g.add_node("a", custom)
        .add_subgraph("sub", inner)
        .add_edge(START, "a")
        .add_edge("a", "sub")
        .add_edge("sub", END);
    let app = g.compile(opts(&saver)).unwrap();
    let (events, out) = app
        .stream_subgraphs(json!({ "log": [] }), &thread("s"))
        .unwrap();
    // The root's node reports its data itself; the subgraph's is queued, in its namespace,
    // between the subgraph's own updates.
    // (The subgraph returns its whole log, the parent's entry with it, which `append` adds again.)
    assert_eq!(
        out.values.to_json()["log"],
        json!(["a:false", "a:false", "i:true"])
    );
    let customs: Vec<(&str, &Value)> = events
        .iter()
        .filter_map(|(ns, e)| match e {
            chronograph::StreamEvent::Custom(v) => Some((ns.as_str(), v)),
            _ => None,
        })
        .collect();
    assert_eq!(customs.len(), 1);
    assert!(customs[0].0.starts_with("sub:"));
    assert_eq!(customs[0].1, &json!({ "from": "i" }));
    let at = |pred: &dyn Fn(&chronograph::StreamEvent) -> bool| {
        events.iter().position(|(_, e)| pred(e)).unwrap()
    };
    let custom_at = at(&|e| matches!(e, chronograph::StreamEvent::Custom(_)));
    let inner_update =
        at(&|e| matches!(e, chronograph::StreamEvent::Updates { node, .. } if node == "i"));
    assert!(
        custom_at < inner_update,
        "the data comes before the update of the node that sent it"
    );

    // A run that does not stream subgraphs queues nothing.
    let (_, out) = app.stream(json!({ "log": [] }), &thread("s2")).unwrap();
    assert_eq!(
        out.values.to_json()["log"],
        json!(["a:false", "a:false", "i:false"])
    );
}
