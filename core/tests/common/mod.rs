//! Shared helpers for the behaviour tests: deterministic compile options,
//! the seed `booking -> reply` graph of spec §13, and readers that turn
//! snapshots and stored checkpoints into small comparable rows.

#![allow(dead_code)]

use chronograph::clock::ManualClock;
use chronograph::{
    CheckpointSaver, CheckpointTuple, CompileOptions, CompiledGraph, InMemorySaver, ListOptions,
    ListTarget, NodeContext, Reducer, RunnableConfig, State, StateGraph, StateSnapshot,
    ThreadExport, END, START,
};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A fresh saver.
pub fn saver() -> Rc<InMemorySaver> {
    Rc::new(InMemorySaver::new())
}

/// Deterministic options: manual clock, fixed seed, the given saver.
pub fn opts(saver: &Rc<InMemorySaver>) -> CompileOptions {
    CompileOptions {
        checkpointer: Some(saver.clone()),
        clock: Some(Rc::new(ManualClock::new())),
        seed: Some(1),
        ..Default::default()
    }
}

/// Deterministic options without a checkpointer.
pub fn opts_without_saver() -> CompileOptions {
    CompileOptions {
        clock: Some(Rc::new(ManualClock::new())),
        seed: Some(1),
        ..Default::default()
    }
}

/// `{"configurable": {"thread_id": id}}`.
pub fn thread(id: &str) -> RunnableConfig {
    RunnableConfig::thread(id)
}

/// A log of the nodes that ran, shared with node closures.
#[derive(Clone, Default)]
pub struct Calls(Rc<RefCell<Vec<String>>>);

impl Calls {
    /// Records that `node` ran.
    pub fn push(&self, node: &str) {
        self.0.borrow_mut().push(node.to_owned());
    }

    /// The nodes that ran since the last call, and clears the log.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut self.0.borrow_mut())
    }
}

/// A human message.
pub fn human(text: &str) -> Value {
    json!({"type": "human", "content": text})
}

/// An AI message.
pub fn ai(text: &str) -> Value {
    json!({"type": "ai", "content": text})
}

/// Number of items of a list channel (0 when absent).
pub fn count(state: &State, channel: &str) -> usize {
    state.get(channel).and_then(|v| v.len()).unwrap_or(0)
}

/// The `content` of every message of a messages channel.
pub fn contents(values: &Value, channel: &str) -> Vec<String> {
    values
        .get(channel)
        .and_then(Value::as_array)
        .map(|ms| {
            ms.iter()
                .map(|m| m["content"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// The seed graph of spec §13: `START -> booking -> reply -> END` over an
/// `add_messages` channel; each node appends one AI message saying how many
/// messages it saw. Returns the graph and the log of nodes that ran.
pub fn booking_graph(saver: &Rc<InMemorySaver>, options: CompileOptions) -> (CompiledGraph, Calls) {
    let calls = Calls::default();
    let mut g = StateGraph::new();
    let (c1, c2) = (calls.clone(), calls.clone());
    g.add_channel("messages", Reducer::AddMessages)
        .add_node("booking", move |s: &State, _: &NodeContext| {
            c1.push("booking");
            Ok(json!({"messages": [ai(&format!("booked (saw {})", count(s, "messages")))]}))
        })
        .add_node("reply", move |s: &State, _: &NodeContext| {
            c2.push("reply");
            Ok(json!({"messages": [ai(&format!("reply (saw {})", count(s, "messages")))]}))
        })
        .add_edge(START, "booking")
        .add_edge("booking", "reply")
        .add_edge("reply", END);
    let options = CompileOptions {
        checkpointer: Some(saver.clone()),
        ..options
    };
    (g.compile(options).unwrap(), calls)
}

/// The seed graph with deterministic options.
pub fn booking(saver: &Rc<InMemorySaver>) -> (CompiledGraph, Calls) {
    booking_graph(saver, opts(saver))
}

/// The input of one chat round of the seed graph.
pub fn say(text: &str) -> Value {
    json!({"messages": [human(text)]})
}

/// The checkpoint id of a snapshot.
pub fn id_of(s: &StateSnapshot) -> String {
    s.config.checkpoint_id.clone().expect("snapshot has an id")
}

/// The parent id of a snapshot.
pub fn parent_of(s: &StateSnapshot) -> Option<String> {
    s.parent_config
        .as_ref()
        .and_then(|p| p.checkpoint_id.clone())
}

/// `metadata.step`.
pub fn step_of(s: &StateSnapshot) -> i64 {
    s.metadata.as_ref().expect("metadata").step
}

/// `metadata.source` as text.
pub fn source_of(s: &StateSnapshot) -> &'static str {
    s.metadata.as_ref().expect("metadata").source.as_str()
}

/// The 4th group of a checkpoint id (`0x8000 | clock_seq`).
pub fn seq(id: &str) -> &str {
    &id[19..23]
}

/// A config addressing one checkpoint of `thread_id`.
pub fn at(thread_id: &str, checkpoint_id: &str) -> RunnableConfig {
    RunnableConfig::thread(thread_id).at(checkpoint_id)
}

/// The whole history (newest first).
pub fn history(app: &CompiledGraph, cfg: &RunnableConfig) -> Vec<StateSnapshot> {
    app.get_state_history(cfg, &ListOptions::default()).unwrap()
}

/// `(step, source, next)` of every history entry, newest first.
pub fn steps(app: &CompiledGraph, cfg: &RunnableConfig) -> Vec<(i64, &'static str, Vec<String>)> {
    history(app, cfg)
        .iter()
        .map(|s| (step_of(s), source_of(s), s.next.clone()))
        .collect()
}

/// Expected rows for [`steps`]: `row(2, "loop", &["b"])`.
pub fn row(step: i64, source: &'static str, next: &[&str]) -> (i64, &'static str, Vec<String>) {
    (step, source, next.iter().map(|s| (*s).to_owned()).collect())
}

/// Every stored tuple of a thread (all namespaces), newest first.
pub fn stored(saver: &dyn CheckpointSaver, thread_id: &str) -> Vec<CheckpointTuple> {
    saver
        .list(&ListTarget::thread(thread_id), &ListOptions::default())
        .unwrap()
}

/// Stored checkpoints without their pending writes: what a failed
/// operation must leave untouched.
pub fn checkpoints_only(saver: &dyn CheckpointSaver, thread_id: &str) -> Vec<CheckpointTuple> {
    stored(saver, thread_id)
        .into_iter()
        .map(|mut t| {
            t.pending_writes.clear();
            t
        })
        .collect()
}

/// Everything stored for a thread: checkpoints, writes and value blobs.
pub fn export(saver: &InMemorySaver, thread_id: &str) -> Option<ThreadExport> {
    saver.export_thread(thread_id)
}

/// Labels `C0, C1, ...` of the root namespace's checkpoints by creation
/// (id) order, as spec §13 uses them.
pub fn labels(saver: &dyn CheckpointSaver, thread_id: &str) -> BTreeMap<String, String> {
    let mut ids: Vec<String> = stored(saver, thread_id)
        .into_iter()
        .filter(|t| t.config.checkpoint_ns.is_empty())
        .filter_map(|t| t.config.checkpoint_id)
        .collect();
    ids.sort();
    ids.into_iter()
        .enumerate()
        .map(|(i, id)| (id, format!("C{i}")))
        .collect()
}

/// The id of checkpoint `label` (`"C3"`).
pub fn id_by_label(saver: &dyn CheckpointSaver, thread_id: &str, label: &str) -> String {
    labels(saver, thread_id)
        .into_iter()
        .find(|(_, l)| l == label)
        .map(|(id, _)| id)
        .unwrap_or_else(|| panic!("no checkpoint {label}"))
}

/// The latest stored tuple of the thread's root namespace.
pub fn latest(saver: &dyn CheckpointSaver, thread_id: &str) -> CheckpointTuple {
    saver
        .get_tuple(&chronograph::CheckpointConfig::thread(thread_id))
        .unwrap()
        .expect("thread has a checkpoint")
}

/// The stored tuple of one checkpoint.
pub fn tuple(saver: &dyn CheckpointSaver, thread_id: &str, id: &str) -> CheckpointTuple {
    saver
        .get_tuple(&chronograph::CheckpointConfig::thread(thread_id).at(id))
        .unwrap()
        .expect("checkpoint exists")
}

/// Asserts `f` fails with exactly `expected` (`"Kind: message"`, first line)
/// and that nothing stored for `thread_id` changed.
pub fn fails_cleanly<T: std::fmt::Debug>(
    saver: &InMemorySaver,
    thread_id: &str,
    expected: &str,
    f: impl FnOnce() -> chronograph::Result<T>,
) -> chronograph::Error {
    let before = export(saver, thread_id);
    let err = f().expect_err("operation should fail");
    assert_eq!(
        err.to_string().lines().next().unwrap_or_default(),
        expected,
        "full error: {err}"
    );
    assert_eq!(
        export(saver, thread_id),
        before,
        "a failed operation changed what is stored"
    );
    err
}

/// Makes a node function that logs its name and appends it to `items`.
pub fn appender(
    calls: &Calls,
    name: &'static str,
) -> impl Fn(&State, &NodeContext) -> chronograph::Result<Value> + 'static {
    appender_to("items", calls, name)
}

/// Makes a node function that logs its name and appends it to `channel`.
pub fn appender_to(
    channel: &'static str,
    calls: &Calls,
    name: &'static str,
) -> impl Fn(&State, &NodeContext) -> chronograph::Result<Value> + 'static {
    let calls = calls.clone();
    move |_: &State, _: &NodeContext| {
        calls.push(name);
        Ok(json!({ channel: [name] }))
    }
}

/// The seed graph after one round on thread `t` (C0 input, C1 step 0,
/// C2 step 1, C3 step 2), its node log cleared.
pub fn finished_booking() -> (Rc<InMemorySaver>, CompiledGraph, Calls) {
    let saver = saver();
    let (app, calls) = booking(&saver);
    app.invoke(say("hi"), &thread("t")).unwrap();
    calls.take();
    (saver, app, calls)
}

/// `START -> a`, then a conditional edge to the node named in `route`
/// (`b` or `c`); every node appends its name to `items`.
pub fn routed(saver: &Rc<InMemorySaver>) -> (CompiledGraph, Calls) {
    let calls = Calls::default();
    let mut g = StateGraph::new();
    g.add_channel("route", Reducer::LastValue)
        .add_channel("items", Reducer::Append)
        .add_node("a", appender(&calls, "a"))
        .add_node("b", appender(&calls, "b"))
        .add_node("c", appender(&calls, "c"))
        .add_edge(START, "a")
        .add_conditional_edges(
            "a",
            |s: &State| {
                let route = s.get_json("route").unwrap_or_default();
                Ok(vec![route.as_str().unwrap_or(END).to_owned()])
            },
            None,
        );
    (g.compile(opts(saver)).unwrap(), calls)
}

/// A one-node graph (`START -> a`) whose node records `"<task id> <step>"`.
pub fn task_id_recorder(seen: &Calls) -> StateGraph {
    let mut g = StateGraph::new();
    let s = seen.clone();
    g.add_channel("x", Reducer::LastValue)
        .add_node("a", move |_: &State, ctx: &NodeContext| {
            s.push(&format!("{} {}", ctx.task_id(), ctx.step()));
            Ok(json!({"x": 1}))
        })
        .add_edge(START, "a");
    g
}

/// The checkpoint right after a superstep in which `b` and `c` ran
/// together (its `next` is `d`), on a finished [`fanout`] thread.
pub fn after_parallel_step(app: &CompiledGraph, thread_id: &str) -> StateSnapshot {
    history(app, &thread(thread_id))
        .into_iter()
        .find(|s| s.next == ["d"])
        .expect("a checkpoint with next = d")
}

/// The fault-tolerance graph of spec §8: `START -> a -> (b, c)`, join
/// `[b, c] -> d`, `d -> END`; every node appends its name to `items`; `c`
/// raises `ValueError('boom in c')` while `fail_c` is set.
pub fn fanout(
    saver: &Rc<InMemorySaver>,
    fail_c: Rc<std::cell::Cell<bool>>,
) -> (CompiledGraph, Calls) {
    fanout_with(saver, fail_c, opts(saver))
}

/// [`fanout`] with other compile options (the saver is set from `saver`).
pub fn fanout_with(
    saver: &Rc<InMemorySaver>,
    fail_c: Rc<std::cell::Cell<bool>>,
    options: CompileOptions,
) -> (CompiledGraph, Calls) {
    let calls = Calls::default();
    let mut g = StateGraph::new();
    let c_calls = calls.clone();
    g.add_channel("items", Reducer::Append)
        .add_node("a", appender(&calls, "a"))
        .add_node("b", appender(&calls, "b"))
        .add_node("c", move |_: &State, _: &NodeContext| {
            c_calls.push("c");
            if fail_c.get() {
                return Err(chronograph::Error::node_failure("ValueError", "boom in c"));
            }
            Ok(json!({"items": ["c"]}))
        })
        .add_node("d", appender(&calls, "d"))
        .add_edge(START, "a")
        .add_edge("a", "b")
        .add_edge("a", "c")
        .add_edge(["b", "c"], "d")
        .add_edge("d", END);
    let options = CompileOptions {
        checkpointer: Some(saver.clone()),
        ..options
    };
    (g.compile(options).unwrap(), calls)
}

/// The `items` list of a state, as strings.
pub fn items(state: &State) -> Vec<String> {
    strings(&state.get_json("items").unwrap_or(Value::Null))
}

/// A JSON array of strings as a `Vec<String>`.
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|x| x.as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}
