//! Workloads shared by the core benches: the issue-5 graphs in the JSON
//! graph format (built-in spec nodes, no JavaScript), and drivers for them.
//! The Node harness (`bench/run.mjs`) and the Python twin build the same
//! graphs with the same node logic.

#![allow(dead_code)] // each bench binary uses a subset

use chronograph::{
    Branch, CheckpointSaver, CheckpointTuple, CompileOptions, CompiledGraph, Goto, GraphSpec,
    InMemorySaver, ListOptions, ListTarget, NodeContext, Reducer, RouterFn, RunnableConfig, Send,
    State, StateGraph, END, START,
};
use serde_json::{json, Value};
use std::rc::Rc;

/// W1: `agent` increments `count` and appends to `trail`; `tool` appends;
/// agent -> tool while `count < iterations`. 2·iterations + 1 checkpoints
/// (input, `__start__`, then 2·iterations − 1 node supersteps).
pub fn w1_spec(iterations: usize) -> GraphSpec {
    GraphSpec::from_value(&json!({
        "channels": {"count": {"reducer": "last_value"}, "trail": {"reducer": "append"}},
        "nodes": {
            "agent": {"writes": [{"incr": "count", "by": 1}, {"set": {"trail": ["agent"]}}]},
            "tool": {"writes": [{"set": {"trail": ["tool"]}}]}
        },
        "edges": [["__start__", "agent"], ["tool", "agent"]],
        "conditional_edges": [{"from": "agent",
            "when": [{"if": {"channel": "count", "lt": iterations}, "to": "tool"}],
            "else": "__end__"}]
    }))
    .expect("W1 spec")
}

/// W2: `reply` answers the last message (`add_messages`).
pub fn w2_spec() -> GraphSpec {
    GraphSpec::from_value(&json!({
        "channels": {"messages": {"reducer": "add_messages"}},
        "nodes": {"reply": {"writes": [{"reply": "messages", "prefix": "echo: "}]}},
        "edges": [["__start__", "reply"], ["reply", "__end__"]]
    }))
    .expect("W2 spec")
}

/// Number of parallel nodes in W3.
pub const FANOUT: usize = 8;

/// W3's loop bound. A router reads the state with only its own node's
/// writes applied (LangGraph's fresh read), so after superstep k it sees
/// `total = FANOUT·(k−1) + 1`: looping while that is below
/// `FANOUT·(S−1) + 1` gives exactly S supersteps.
pub fn w3_limit(supersteps: usize) -> usize {
    FANOUT * (supersteps - 1) + 1
}

/// W3: `FANOUT` nodes run in every superstep, each adding 1 to `total`
/// (sum) and its name to `log` (append), each looping to itself while
/// `total < w3_limit(supersteps)`.
pub fn w3_spec(supersteps: usize) -> GraphSpec {
    let mut nodes = serde_json::Map::new();
    let mut edges = Vec::new();
    let mut conditional = Vec::new();
    for i in 0..FANOUT {
        let name = format!("w{i}");
        nodes.insert(
            name.clone(),
            json!({"writes": [{"set": {"total": 1, "log": [name.clone()]}}]}),
        );
        edges.push(json!(["__start__", name.clone()]));
        conditional.push(json!({"from": name.clone(),
            "when": [{"if": {"channel": "total", "lt": w3_limit(supersteps)}, "to": name}],
            "else": "__end__"}));
    }
    GraphSpec::from_value(&json!({
        "channels": {"total": {"reducer": "sum"}, "log": {"reducer": "append"}},
        "nodes": nodes,
        "edges": edges,
        "conditional_edges": conditional
    }))
    .expect("W3 spec")
}

/// W4: a `Send` fan-out of `FANOUT` tasks into a 2-node subgraph, every
/// superstep (the same graph as `bench/workloads.mjs`, with Rust closures
/// for nodes: the JSON graph format's `send` edge fans out
/// unconditionally, and W4's router sends while a counter is below a
/// bound). `plan` counts rounds; its router sends `FANOUT` items to the
/// subgraph node `sub` and loops to `plan`, so superstep k runs `plan` and
/// the tasks sent in superstep k − 1. Each subgraph task runs `double` then
/// `finish` in its own namespace (4 checkpoints) and its `results` are
/// appended to the root's. A run is exactly `supersteps` supersteps (with
/// `__start__`), `supersteps − 2` of them fan-outs.
pub fn w4_graph(supersteps: usize, saver: Rc<InMemorySaver>) -> CompiledGraph {
    let mut sub = StateGraph::new();
    sub.add_channel("item", Reducer::LastValue)
        .add_channel("doubled", Reducer::LastValue)
        .add_channel("results", Reducer::Append)
        .add_node("double", |s: &State, _: &NodeContext| {
            Ok(json!({"doubled": int(s, "item") * 2}))
        })
        .add_node("finish", |s: &State, _: &NodeContext| {
            Ok(json!({"results": [int(s, "doubled") + 1]}))
        })
        .add_edge(START, "double")
        .add_edge("double", "finish")
        .add_edge("finish", END);
    let sub = sub.compile(CompileOptions::default()).expect("W4 subgraph");
    let bound = (supersteps - 1) as i64;
    let mut g = StateGraph::new();
    g.add_channel("round", Reducer::LastValue)
        .add_channel("results", Reducer::Append)
        .add_node("plan", |s: &State, _: &NodeContext| {
            Ok(json!({"round": int(s, "round") + 1}))
        })
        .add_subgraph("sub", sub)
        .add_edge(START, "plan")
        .add_branch(
            "plan",
            Branch::new(
                RouterFn::Sends(Rc::new(move |s: State| {
                    let round = int(&s, "round");
                    let next = match round < bound {
                        true => std::iter::once(Goto::Node("plan".into()))
                            .chain((0..FANOUT as i64).map(|i| {
                                Goto::Send(Send::new(
                                    "sub",
                                    json!({"item": round * FANOUT as i64 + i}),
                                ))
                            }))
                            .collect(),
                        false => vec![Goto::Node(END.into())],
                    };
                    Box::pin(async move { Ok(next) })
                })),
                None,
            ),
        );
    g.compile(CompileOptions::with_checkpointer(saver))
        .expect("W4 graph")
}

/// An integer channel of `state` (0 when unset).
fn int(state: &State, channel: &str) -> i64 {
    state
        .get_json(channel)
        .and_then(|v| v.as_i64())
        .unwrap_or_default()
}

/// Runs W4 on a fresh thread; returns the number of `results` (a shape
/// check: `FANOUT · (supersteps − 2)`).
pub fn run_w4(b: &Bench, cfg: &RunnableConfig) -> usize {
    let out = b
        .graph
        .invoke(json!({"round": 0, "results": []}), cfg)
        .expect("W4 invoke");
    out.values
        .get_json("results")
        .and_then(|v| v.as_array().map(Vec::len))
        .unwrap_or_default()
}

/// Root checkpoints with source "loop" (the supersteps a run actually ran)
/// and checkpoints in every other namespace (the subgraphs').
pub fn w4_checkpoints(b: &Bench, cfg: &RunnableConfig) -> (usize, usize) {
    let all = thread_checkpoints(b, cfg);
    let loops = all
        .iter()
        .filter(|t| t.config.checkpoint_ns.is_empty())
        .filter(|t| t.metadata.source == chronograph::Source::Loop)
        .count();
    let sub = all
        .iter()
        .filter(|t| !t.config.checkpoint_ns.is_empty())
        .count();
    (loops, sub)
}

/// A compiled graph with its own in-memory saver.
pub struct Bench {
    pub graph: CompiledGraph,
    pub saver: Rc<InMemorySaver>,
}

impl Bench {
    /// W4 (built with the Rust builder, see [`w4_graph`]).
    pub fn w4(supersteps: usize) -> Self {
        let saver = Rc::new(InMemorySaver::new());
        let graph = w4_graph(supersteps, saver.clone());
        Bench { graph, saver }
    }

    pub fn new(spec: &GraphSpec) -> Self {
        let saver = Rc::new(InMemorySaver::new());
        let graph = spec
            .compile(CompileOptions::with_checkpointer(saver.clone()))
            .expect("compile");
        Bench { graph, saver }
    }
}

/// A thread config with a recursion limit large enough for any workload here.
pub fn thread(id: &str) -> RunnableConfig {
    RunnableConfig::thread(id).with_recursion_limit(1_000_000)
}

/// Supersteps of a W1 run: `__start__`, then 2·iterations − 1 node steps.
pub fn w1_supersteps(iterations: usize) -> usize {
    2 * iterations
}

/// Runs W1 on a fresh thread (`w1_supersteps(iterations)` supersteps,
/// `2·iterations + 1` checkpoints).
pub fn run_w1(b: &Bench, cfg: &RunnableConfig) {
    let out = b
        .graph
        .invoke(json!({"count": 0, "trail": []}), cfg)
        .expect("W1 invoke");
    std::hint::black_box(out);
}

/// A W1 thread, already run, ready for listing or replay.
pub fn w1_thread(iterations: usize) -> (Bench, RunnableConfig) {
    let b = Bench::new(&w1_spec(iterations));
    let cfg = thread("w1");
    run_w1(&b, &cfg);
    (b, cfg)
}

/// Number of checkpoints stored for the thread (every branch).
pub fn checkpoints(b: &Bench, cfg: &RunnableConfig) -> usize {
    thread_checkpoints(b, cfg).len()
}

/// Every checkpoint of the thread (every namespace, every branch), newest first.
pub fn thread_checkpoints(b: &Bench, cfg: &RunnableConfig) -> Vec<CheckpointTuple> {
    b.saver
        .list(
            &ListTarget::thread(cfg.thread_id().unwrap()),
            &ListOptions::default(),
        )
        .expect("list")
}

/// Lists every checkpoint of the thread, reading metadata only.
pub fn list_metadata(b: &Bench, cfg: &RunnableConfig) -> usize {
    let list = thread_checkpoints(b, cfg);
    list.iter()
        .filter(|t| std::hint::black_box(t.metadata.step) >= -1)
        .count()
}

/// Lists every snapshot of the thread, converting every snapshot's values to JSON.
pub fn list_values(b: &Bench, cfg: &RunnableConfig) -> usize {
    let history = b
        .graph
        .get_state_history(cfg, &ListOptions::default())
        .expect("history");
    history
        .iter()
        .map(|s| {
            let v = s.values.to_json();
            v.get("trail").and_then(Value::as_array).map_or(0, Vec::len)
        })
        .sum()
}

/// The id of the checkpoint at `step` on the thread's main line.
pub fn checkpoint_at_step(b: &Bench, cfg: &RunnableConfig, step: i64) -> String {
    let list = thread_checkpoints(b, cfg);
    list.iter()
        .rev()
        .find(|t| t.metadata.step == step)
        .and_then(|t| t.config.checkpoint_id.clone())
        .expect("checkpoint at step")
}

/// Replays from checkpoint `id` (re-runs every superstep after it; a new branch).
pub fn replay(b: &Bench, cfg: &RunnableConfig, id: &str) {
    let out = b
        .graph
        .invoke(Value::Null, &cfg.clone().at(id))
        .expect("replay");
    std::hint::black_box(out);
}

/// One W2 chat turn on `cfg`'s thread.
pub fn chat_turn(b: &Bench, cfg: &RunnableConfig, i: usize) {
    let out = b
        .graph
        .invoke(
            json!({"messages": [{"type": "human", "content": format!("hello {i}")}]}),
            cfg,
        )
        .expect("W2 invoke");
    std::hint::black_box(out);
}

/// Runs W3 on a fresh thread.
pub fn run_w3(b: &Bench, cfg: &RunnableConfig) {
    let out = b
        .graph
        .invoke(json!({"total": 0, "log": []}), cfg)
        .expect("W3 invoke");
    std::hint::black_box(out);
}
