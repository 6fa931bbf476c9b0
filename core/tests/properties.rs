//! Property tests (proptest): generated graphs in the JSON graph format of
//! `tests/conformance/FORMAT.md`, malformed graph documents, and random
//! sequences of operations on one thread, with the thread's invariants
//! checked after every operation.
//!
//! Invariants (spec §2, §4, §6, §7; checked against every trace LangGraph
//! produced in `shared/conformance/{expected,random/expected}`):
//! * nothing panics; a malformed or invalid graph is an `Err`;
//! * every parent id names a checkpoint of the thread's namespace, except an
//!   id the caller addressed that never existed (LangGraph records it as a
//!   dangling parent, §4.1);
//! * a child's step is its parent's step + 1, except a fork, which may be
//!   further down (a `__copy__` hangs under its original's parent: + 2);
//!   a root is an `input` at -1, an `update` at 0 or a `fork` (a copy of a root);
//! * checkpoint ids grow in creation order: an operation's new ids are
//!   above every id it found, and a child's id is above its parent's;
//! * stored data is append-only: no checkpoint, value or regular pending
//!   write ever changes or goes away;
//! * a failed operation changes nothing, except where LangGraph itself keeps
//!   what it did before failing: a run keeps its finished steps and the
//!   failed step's writes (§8), a bulk update its saved supersteps, a
//!   `__copy__` its copy; a reducer error in `update_state` may leave the
//!   update's writes on the base checkpoint, and a Command that finds
//!   nothing to resume its writes on the loaded one (LangGraph stores them
//!   before it fails);
//! * a successful run starts where §4.5 and §7 say: new input with an
//!   `input` checkpoint under its base, a replay with a `fork` under the
//!   addressed checkpoint (none for a newest `update`/`fork` one), anything
//!   else with a `loop` checkpoint under its base, at the base's step + 1;
//! * the newest checkpoint is the one `get_state` shows; `history` lists
//!   exactly what its `before`, `filter` and `limit` select, newest first;
//!   each history entry is what `get_state` shows for its id, and `lineage`
//!   walks its parents to the root;
//! * `export_thread` then `import_thread` into a fresh saver gives back the
//!   same export and the same history.
//!
//! Cases per property: `PROPTEST_CASES` (default below, sized so that
//! `cargo test` stays well under a minute in a debug build). The seed is
//! fixed unless `PROPTEST_RNG_SEED` is set (`./dev fuzz` sets a random one
//! and prints it). A failure prints the minimal (shrunk) input.

#![cfg(not(target_arch = "wasm32"))]

use chronograph::clock::ManualClock;
use chronograph::{
    Command, CompileOptions, CompiledGraph, ErrorKind, GraphSpec, InMemorySaver, ListOptions,
    RunInput, RunnableConfig, StateUpdate, ThreadExport,
};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

// --- running properties ----------------------------------------------------------

/// Runs `test` on `cases` inputs of `strategy` (or `PROPTEST_CASES`) and
/// prints how many ran.
fn check<S: Strategy>(
    name: &str,
    default_cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default_cases);
    let mut config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..Config::default()
    };
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = RngSeed::Fixed(0x6368_726f_6e6f);
    }
    let seed = config.rng_seed;
    let start = std::time::Instant::now();
    let mut runner = TestRunner::new(config);
    let ran = std::cell::Cell::new(0u64);
    let result = runner.run(&strategy, |input| {
        ran.set(ran.get() + 1);
        test(input)
    });
    eprintln!(
        "property {name}: {} cases in {:.1?} (seed {seed:?})",
        ran.get(),
        start.elapsed()
    );
    if let Err(e) = result {
        panic!("property {name} failed: {e}");
    }
}

// --- JSON values -------------------------------------------------------------------

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..6).prop_map(Value::from),
        (-10i32..10).prop_map(|x| Value::from(f64::from(x) / 4.0)),
        "[a-z]{0,3}".prop_map(Value::String),
    ]
}

const KEYS: &[&str] = &[
    "nodes",
    "channels",
    "edges",
    "conditional_edges",
    "compile",
    "writes",
    "reducer",
    "set",
    "reply",
    "prefix",
    "incr",
    "by",
    "interrupt",
    "resume_to",
    "fail_if",
    "channel",
    "equals",
    "from",
    "when",
    "else",
    "if",
    "to",
    "lt",
    "eq",
    "interrupt_before",
    "interrupt_after",
    "checkpointer",
    "a",
    "b",
    "x",
    "type",
    "content",
    "id",
    "__start__",
    "__end__",
];

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(KEYS).prop_map(str::to_owned),
        1 => "[a-z_:|]{0,5}",
    ]
}

/// Any JSON value, its object keys mostly words of the graph format.
fn any_json() -> impl Strategy<Value = Value> {
    prop_oneof![
        leaf(),
        prop::sample::select(
            &[
                "last_value",
                "append",
                "sum",
                "add_messages",
                "__start__",
                "__end__",
                "*"
            ][..]
        )
        .prop_map(Value::from),
    ]
    .prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(key(), inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn message() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(&["human", "ai", "system", "tool", "remove", "bogus"][..]),
        "[a-z]{0,3}",
        prop::option::of(prop::sample::select(&["m1", "m2", "m3"][..])),
        0..8u8,
    )
        .prop_map(|(kind, content, id, shape)| {
            let mut m = Map::new();
            m.insert("type".into(), kind.into());
            m.insert("content".into(), content.clone().into());
            if let Some(id) = id {
                m.insert("id".into(), id.into());
            }
            match shape {
                0 => Value::String(content), // a bare string is a human message
                1 => json!({"role": "user", "content": content}),
                2 => json!({"content": content}), // neither role nor type
                _ => Value::Object(m),
            }
        })
}

// --- generated graphs ----------------------------------------------------------------

/// Data channels a graph may declare, with their reducers.
const DATA: &[(&str, &str)] = &[
    ("msgs", "add_messages"),
    ("log", "append"),
    ("total", "sum"),
    ("x", "last_value"),
    ("y", "last_value"),
];
const NODES: &[&str] = &["a", "b", "c", "d", "e"];

/// A value for channel `c`: mostly of the reducer's type, sometimes anything.
fn value_for(c: &str) -> BoxedStrategy<Value> {
    let typed: BoxedStrategy<Value> = match c {
        "msgs" => prop_oneof![
            prop::collection::vec(message(), 0..3).prop_map(Value::Array),
            message(),
        ]
        .boxed(),
        "log" => prop::collection::vec(leaf(), 0..3)
            .prop_map(Value::Array)
            .boxed(),
        "total" => prop_oneof![
            (-2i64..5).prop_map(Value::from),
            (-4i32..4).prop_map(|x| Value::from(f64::from(x) / 2.0))
        ]
        .boxed(),
        c if c.starts_with('k') => (-1i64..4).prop_map(Value::from).boxed(),
        _ => leaf().boxed(),
    };
    prop_oneof![6 => typed, 1 => any_json()].boxed()
}

/// A channel name seen by the ops: a declared one, a counter, or unknown.
fn channel_name(channels: Vec<String>) -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::sample::select(channels),
        1 => Just("zz".to_owned()),
    ]
}

/// A state update / input object over `channels`.
fn state_object(channels: Vec<String>) -> impl Strategy<Value = Value> {
    prop::collection::vec(channel_name(channels), 0..3)
        .prop_flat_map(|names| {
            let values: Vec<_> = names.iter().map(|n| value_for(n)).collect();
            (Just(names), values)
        })
        .prop_map(|(names, values)| {
            Value::Object(names.into_iter().zip(values).collect::<Map<_, _>>())
        })
}

fn op_json(channels: Vec<String>, data: Vec<String>) -> impl Strategy<Value = Value> {
    let any_channel = channel_name(channels.clone());
    prop_oneof![
        4 => state_object(channels.clone()).prop_map(|set| json!({"set": set})),
        2 => (channel_name(channels.clone()), -1i64..3)
            .prop_map(|(c, by)| json!({"incr": c, "by": by})),
        2 => (channel_name(channels.clone()), "[a-z]{0,2}")
            .prop_map(|(c, p)| json!({"reply": c, "prefix": p})),
        1 => (leaf(), prop::sample::select(data))
            .prop_map(|(v, c)| json!({"interrupt": v, "resume_to": c})),
        1 => (any_channel, leaf())
            .prop_map(|(c, v)| json!({"fail_if": {"channel": c, "equals": v}})),
    ]
}

/// The plan of a valid graph: nodes in order, static edges only forward,
/// loops only through conditional edges bounded by a counter that the
/// source node increments (`k<i>`, a `last_value` channel only node i writes).
#[derive(Clone)]
struct Plan {
    spec: Value,
    nodes: Vec<String>,
    channels: Vec<String>,
}

impl std::fmt::Debug for Plan {
    /// The spec as one line of JSON, ready to paste into a test.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.spec)
    }
}

fn graph() -> impl Strategy<Value = Plan> {
    (
        1..=NODES.len(),
        prop::sample::subsequence(DATA.to_vec(), 1..=DATA.len()),
    )
        .prop_flat_map(|(n, data)| {
            let nodes: Vec<String> = NODES[..n].iter().map(|s| (*s).to_owned()).collect();
            let data_names: Vec<String> = data.iter().map(|(c, _)| (*c).to_owned()).collect();
            // Which nodes have a conditional edge (and so a counter).
            let routed = prop::collection::vec(prop::bool::weighted(0.4), n);
            (Just(nodes), Just(data), Just(data_names), routed)
        })
        .prop_flat_map(|(nodes, data, data_names, routed)| {
            let n = nodes.len();
            let mut channels = data_names.clone();
            for (i, r) in routed.iter().enumerate() {
                if *r {
                    channels.push(format!("k{i}"));
                }
            }
            let ops = prop::collection::vec(
                prop::collection::vec(op_json(channels.clone(), data_names.clone()), 0..3),
                n,
            );
            // Static edges i -> j (i < j) or i -> END, START -> j, joins.
            let edges = prop::collection::vec((0..n, 0..=n), 0..(2 * n));
            let starts = prop::collection::vec(0..n, 0..2);
            let joins = prop::collection::vec(
                (prop::collection::vec(0..n, 2..=3), 0..=n),
                0..2,
            );
            let rules = prop::collection::vec(
                (
                    1i64..4,            // counter bound
                    0..n,               // loop target (any node)
                    0..=n,              // else: forward node or END
                    prop::option::of((prop::sample::select(data_names.clone()), leaf(), 0..=n)),
                ),
                n,
            );
            let breaks = (
                prop::collection::vec(prop::bool::weighted(0.1), n),
                prop::collection::vec(prop::bool::weighted(0.1), n),
                prop::bool::weighted(0.05),
            );
            (
                Just(nodes),
                Just(data),
                Just(channels),
                Just(routed),
                ops,
                edges,
                starts,
                joins,
                rules,
                breaks,
            )
        })
        .prop_map(
            |(nodes, data, channels, routed, ops, edges, starts, joins, rules, breaks)| {
                let n = nodes.len();
                let name = |i: usize| -> String {
                    if i >= n {
                        "__end__".to_owned()
                    } else {
                        nodes[i].clone()
                    }
                };
                // A forward target of node i: a later node, else END.
                let forward = |i: usize, j: usize| -> String {
                    if j > i && j < n {
                        nodes[j].clone()
                    } else {
                        "__end__".to_owned()
                    }
                };
                let mut spec_channels = Map::new();
                for (c, r) in &data {
                    spec_channels.insert((*c).to_owned(), json!({"reducer": r}));
                }
                for c in &channels {
                    if c.starts_with('k') {
                        spec_channels.insert(c.clone(), json!({}));
                    }
                }
                let mut spec_nodes = Map::new();
                for (i, node_ops) in ops.into_iter().enumerate() {
                    let mut writes = Vec::new();
                    if routed[i] {
                        writes.push(json!({"incr": format!("k{i}")}));
                    }
                    writes.extend(node_ops);
                    spec_nodes.insert(nodes[i].clone(), json!({"writes": writes}));
                }
                let mut spec_edges = vec![json!(["__start__", nodes[0]])];
                for j in starts {
                    spec_edges.push(json!(["__start__", nodes[j]]));
                }
                for (i, j) in edges {
                    spec_edges.push(json!([nodes[i], forward(i, j)]));
                }
                for (sources, j) in joins {
                    let sources: BTreeSet<usize> = sources.into_iter().collect();
                    if sources.len() < 2 {
                        continue;
                    }
                    let last = *sources.iter().max().unwrap_or(&0);
                    let names: Vec<String> = sources.iter().map(|&s| nodes[s].clone()).collect();
                    spec_edges.push(json!([names, forward(last, j)]));
                }
                let mut conditional = Vec::new();
                for (i, (bound, target, otherwise, extra)) in rules.into_iter().enumerate() {
                    if !routed[i] {
                        continue;
                    }
                    let mut when =
                        vec![json!({"if": {"channel": format!("k{i}"), "lt": bound}, "to": name(target)})];
                    if let Some((c, v, to)) = extra {
                        when.insert(0, json!({"if": {"channel": c, "eq": v}, "to": forward(i, to)}));
                    }
                    conditional.push(json!({"from": nodes[i], "when": when, "else": forward(i, otherwise)}));
                }
                let (before, after, star) = breaks;
                let pick = |flags: Vec<bool>| -> Vec<String> {
                    flags
                        .iter()
                        .enumerate()
                        .filter(|(_, f)| **f)
                        .map(|(i, _)| nodes[i].clone())
                        .collect()
                };
                let mut compile = Map::new();
                let before = if star { vec!["*".to_owned()] } else { pick(before) };
                if !before.is_empty() {
                    compile.insert("interrupt_before".into(), json!(before));
                }
                let after = pick(after);
                if !after.is_empty() {
                    compile.insert("interrupt_after".into(), json!(after));
                }
                let spec = json!({
                    "channels": spec_channels,
                    "nodes": spec_nodes,
                    "edges": spec_edges,
                    "conditional_edges": conditional,
                    "compile": compile,
                });
                Plan {
                    spec,
                    nodes,
                    channels,
                }
            },
        )
}

fn compile(spec: &GraphSpec, saver: &Rc<InMemorySaver>) -> chronograph::Result<CompiledGraph> {
    spec.compile(CompileOptions {
        checkpointer: Some(saver.clone()),
        clock: Some(Rc::new(ManualClock::new())),
        seed: Some(7),
        ..Default::default()
    })
}

// --- operations ----------------------------------------------------------------------

/// Which checkpoint an operation addresses.
#[derive(Clone, Debug)]
enum At {
    /// The thread (no checkpoint id: its newest checkpoint).
    Thread,
    /// One of the thread's checkpoints, picked among those that exist then.
    Existing(Index),
    /// A well-formed id that is not in the thread.
    Unknown,
    /// Not an id at all.
    Garbage,
    /// `checkpoint_id: ""` (present, but not a checkpoint).
    Empty,
}

const UNKNOWN_ID: &str = "1f000000-0000-6000-8000-000000000000";

fn at() -> impl Strategy<Value = At> {
    prop_oneof![
        6 => Just(At::Thread),
        8 => any::<Index>().prop_map(At::Existing),
        1 => Just(At::Unknown),
        1 => Just(At::Garbage),
        1 => Just(At::Empty),
    ]
}

#[derive(Clone, Debug)]
enum AsNode {
    Inferred,
    Node(Index),
    Named(&'static str),
}

fn as_node() -> impl Strategy<Value = AsNode> {
    prop_oneof![
        3 => Just(AsNode::Inferred),
        5 => any::<Index>().prop_map(AsNode::Node),
        4 => prop::sample::select(&["__copy__", "__input__", "__end__", "__start__", "zz", ""][..])
            .prop_map(AsNode::Named),
    ]
}

#[derive(Clone, Debug)]
enum Op {
    Invoke {
        input: Value,
        at: At,
    },
    Resume {
        value: Value,
        at: At,
    },
    Command {
        update: Option<Value>,
        goto: Vec<Index>,
        resume: Option<Value>,
        at: At,
    },
    Update {
        values: Option<Value>,
        as_node: AsNode,
        at: At,
    },
    Bulk {
        supersteps: Vec<Vec<(Option<Value>, AsNode)>>,
        at: At,
    },
    GetState {
        at: At,
    },
    History {
        at: At,
        limit: Option<usize>,
        before: Option<At>,
        filter: BTreeMap<String, Value>,
    },
    Lineage {
        at: At,
    },
    ExportImport,
}

fn ops(channels: Vec<String>) -> impl Strategy<Value = Vec<Op>> {
    let object = move || state_object(channels.clone());
    let input = {
        let object = object.clone();
        move || {
            prop_oneof![
                6 => object().prop_map(Some),
                3 => Just(None),
                1 => any_json().prop_map(Some),
            ]
        }
    };
    let update_values = {
        let object = object.clone();
        move || {
            prop_oneof![
                6 => object().prop_map(Some),
                3 => Just(None),
                1 => any_json().prop_map(Some),
            ]
        }
    };
    let filter = prop_oneof![
        prop::sample::select(&["input", "loop", "update", "fork", "bogus"][..])
            .prop_map(|s| BTreeMap::from([("source".to_owned(), Value::from(s))])),
        (-2i64..6).prop_map(|s| BTreeMap::from([("step".to_owned(), Value::from(s))])),
        Just(BTreeMap::from([("zz".to_owned(), Value::from(1))])),
    ];
    let op = prop_oneof![
        8 => (input(), at()).prop_map(|(input, at)| Op::Invoke { input: input.unwrap_or(Value::Null), at }),
        3 => (leaf(), at()).prop_map(|(value, at)| Op::Resume { value, at }),
        1 => (
            prop::option::of(object()),
            prop::collection::vec(any::<Index>(), 0..2),
            prop::option::of(leaf()),
            at()
        )
            .prop_map(|(update, goto, resume, at)| Op::Command { update, goto, resume, at }),
        6 => (update_values(), as_node(), at())
            .prop_map(|(values, as_node, at)| Op::Update { values, as_node, at }),
        1 => (
            prop::collection::vec(prop::collection::vec((update_values(), as_node()), 0..3), 0..3),
            at()
        )
            .prop_map(|(supersteps, at)| Op::Bulk { supersteps, at }),
        2 => at().prop_map(|at| Op::GetState { at }),
        2 => (
            prop_oneof![3 => Just(At::Thread), 1 => at()],
            prop::option::of(0usize..5),
            prop::option::of(at()),
            prop_oneof![2 => Just(BTreeMap::new()), 1 => filter]
        )
            .prop_map(|(at, limit, before, filter)| Op::History { at, limit, before, filter }),
        1 => at().prop_map(|at| Op::Lineage { at }),
        1 => Just(Op::ExportImport),
    ];
    prop::collection::vec(op, 1..12)
}

// --- the thread under test -----------------------------------------------------------

const THREAD: &str = "t";

struct Thread {
    plan: Plan,
    spec: GraphSpec,
    saver: Rc<InMemorySaver>,
    graph: CompiledGraph,
    /// Ids addressed that did not exist: a checkpoint may name one as its parent.
    phantoms: BTreeSet<String>,
    /// The thread's checkpoint ids before the current operation, sorted.
    ids: Vec<String>,
    /// The checkpoint id the current run addressed, if any.
    addressed: Option<String>,
}

/// What a failed operation may have changed.
#[derive(Debug, PartialEq)]
enum Allowed {
    Nothing,
    /// Pending writes on existing checkpoints (an `update_state` reducer error).
    Writes,
    /// New checkpoints and writes (a run that failed after some steps).
    Appended,
}

impl Thread {
    fn config(&mut self, at: &At) -> RunnableConfig {
        let thread = RunnableConfig::thread(THREAD).with_recursion_limit(30);
        match at {
            At::Thread => thread,
            At::Existing(i) => {
                if self.ids.is_empty() {
                    thread
                } else {
                    thread.at(i.get(&self.ids).clone())
                }
            }
            At::Unknown => self.phantom(thread, UNKNOWN_ID),
            At::Garbage => self.phantom(thread, "not-an-id"),
            At::Empty => {
                let mut c = thread;
                c.configurable.insert("checkpoint_id".into(), json!(""));
                c
            }
        }
    }

    fn phantom(&mut self, thread: RunnableConfig, id: &str) -> RunnableConfig {
        self.phantoms.insert(id.to_owned());
        thread.at(id)
    }

    fn as_node(&self, a: &AsNode) -> Option<String> {
        match a {
            AsNode::Inferred => None,
            AsNode::Node(i) => Some(i.get(&self.plan.nodes).clone()),
            AsNode::Named(n) => Some((*n).to_owned()),
        }
    }

    /// Applies `op`: `None` when it succeeded, else what its failure may
    /// have changed; `Err` when a check made on the way failed.
    fn apply(&mut self, op: &Op) -> Result<Option<Allowed>, TestCaseError> {
        let outcome: chronograph::Result<()> = match op {
            Op::Invoke { input, at } => {
                let cfg = self.config(at);
                self.addressed = cfg.checkpoint_id();
                self.graph
                    .invoke(RunInput::from(input.clone()), &cfg)
                    .map(drop)
            }
            Op::Resume { value, at } => {
                let cfg = self.config(at);
                self.addressed = cfg.checkpoint_id();
                self.graph
                    .invoke(RunInput::Command(Command::resume(value.clone())), &cfg)
                    .map(drop)
            }
            Op::Command {
                update,
                goto,
                resume,
                at,
            } => {
                let cfg = self.config(at);
                self.addressed = cfg.checkpoint_id();
                let mut names = self.plan.nodes.clone();
                names.push("__end__".into());
                names.push("ghost".into());
                let command = Command {
                    update: update.clone(),
                    goto: goto.iter().map(|i| i.get(&names).clone().into()).collect(),
                    graph: None,
                    resume: resume.clone().map(chronograph::Resume::from_json),
                };
                self.graph
                    .invoke(RunInput::Command(command), &cfg)
                    .map(drop)
            }
            Op::Update {
                values,
                as_node,
                at,
            } => {
                let cfg = self.config(at);
                let as_node = self.as_node(as_node);
                match self
                    .graph
                    .update_state(&cfg, values.clone(), as_node.as_deref())
                {
                    Ok(returned) => {
                        self.check_returned(&returned)?;
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            }
            Op::Bulk { supersteps, at } => {
                let cfg = self.config(at);
                let supersteps = supersteps
                    .iter()
                    .map(|s| {
                        s.iter()
                            .map(|(values, as_node)| StateUpdate {
                                values: values.clone(),
                                as_node: self.as_node(as_node),
                                task_id: None,
                                goto: Vec::new(),
                            })
                            .collect()
                    })
                    .collect();
                match self.graph.bulk_update_state(&cfg, supersteps) {
                    Ok(returned) => {
                        self.check_returned(&returned)?;
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            }
            Op::GetState { at } => {
                let cfg = self.config(at);
                match self.graph.get_state(&cfg) {
                    Ok(snapshot) => {
                        self.check_snapshot(&cfg, &snapshot)?;
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            }
            Op::History {
                at,
                limit,
                before,
                filter,
            } => {
                let cfg = self.config(at);
                let before = before.as_ref().map(|b| self.config(b).checkpoint_id());
                let options = ListOptions {
                    filter: filter.clone(),
                    before: before.flatten(),
                    limit: *limit,
                };
                match self.graph.get_state_history(&cfg, &options) {
                    Ok(history) => {
                        self.check_history(&cfg, &options, &history)?;
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            }
            Op::Lineage { at } => {
                let cfg = self.config(at);
                match self.graph.lineage(&cfg) {
                    Ok(chain) => {
                        for pair in chain.windows(2) {
                            prop_assert_eq!(
                                pair[0]
                                    .parent_config
                                    .as_ref()
                                    .and_then(|p| p.checkpoint_id.clone()),
                                pair[1].config.checkpoint_id.clone(),
                                "lineage walks child to parent"
                            );
                        }
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            }
            Op::ExportImport => {
                if let Some(data) = export(&self.saver) {
                    let text = serde_json::to_string(&data).unwrap();
                    let back: ThreadExport = serde_json::from_str(&text)
                        .map_err(|e| TestCaseError::fail(format!("export does not parse: {e}")))?;
                    self.saver
                        .import_thread(back)
                        .map_err(|e| TestCaseError::fail(format!("own export refused: {e}")))?;
                }
                Ok(())
            }
        };
        let kind = format!("{op:?}");
        let kind = kind.split([' ', '{']).next().unwrap_or_default();
        let outcome_name = match &outcome {
            Ok(()) => "ok".to_owned(),
            Err(e) => e.name().to_owned(),
        };
        OUTCOMES.with(|o| {
            *o.borrow_mut()
                .entry(format!("{kind} {outcome_name}"))
                .or_default() += 1
        });
        let Err(e) = outcome else {
            return Ok(None);
        };
        prop_assert!(
            e.kind() != ErrorKind::Spec && e.kind() != ErrorKind::GraphInterrupt,
            "unexpected error kind from {op:?}: {e}"
        );
        Ok(Some(match op {
            Op::Invoke { .. } | Op::Resume { .. } | Op::Command { .. } => match e.kind() {
                // A Command's writes are stored on the loaded checkpoint before
                // LangGraph finds that nothing resumes (`_first`: put_writes,
                // then EmptyInputError), e.g. on a checkpoint with no versions.
                ErrorKind::EmptyInput if !matches!(op, Op::Invoke { .. }) => Allowed::Writes,
                ErrorKind::EmptyInput | ErrorKind::Runtime | ErrorKind::Key => Allowed::Nothing,
                _ => Allowed::Appended,
            },
            // A `__copy__` is saved before its update items are read
            // (`Invalid update item: ...` comes after it, in LangGraph too).
            Op::Update {
                as_node: AsNode::Named("__copy__"),
                ..
            } => Allowed::Appended,
            // Each superstep of a bulk update saves its checkpoint; a later
            // one may fail after an earlier one saved.
            Op::Bulk { .. } => Allowed::Appended,
            Op::Update { .. } => match e.kind() {
                ErrorKind::Type | ErrorKind::Value => Allowed::Writes,
                _ => Allowed::Nothing,
            },
            _ => Allowed::Nothing,
        }))
    }

    fn check_returned(&self, returned: &RunnableConfig) -> Result<(), TestCaseError> {
        let id = returned.checkpoint_id();
        prop_assert!(
            id.as_ref()
                .is_some_and(|id| rows(export(&self.saver).as_ref()).contains_key(id)),
            "update_state returned {id:?}, not a checkpoint of the thread"
        );
        Ok(())
    }

    fn check_snapshot(
        &self,
        cfg: &RunnableConfig,
        s: &chronograph::StateSnapshot,
    ) -> Result<(), TestCaseError> {
        let data = export(&self.saver);
        let checkpoints = rows(data.as_ref());
        let wanted = match cfg.checkpoint_id() {
            Some(id) => Some(id),
            None => checkpoints.keys().next_back().map(|id| (*id).clone()),
        };
        match wanted.as_ref().and_then(|id| checkpoints.get(id)) {
            Some(row) => {
                prop_assert_eq!(s.config.checkpoint_id.as_ref(), wanted.as_ref());
                prop_assert_eq!(
                    s.parent_config
                        .as_ref()
                        .and_then(|p| p.checkpoint_id.as_ref()),
                    row.parent
                );
                prop_assert_eq!(s.metadata.as_ref(), Some(row.metadata));
            }
            None => {
                prop_assert!(s.metadata.is_none(), "a missing checkpoint has no metadata");
                prop_assert!(s.next.is_empty() && s.tasks.is_empty());
            }
        }
        Ok(())
    }

    fn check_history(
        &self,
        cfg: &RunnableConfig,
        options: &ListOptions,
        history: &[chronograph::StateSnapshot],
    ) -> Result<(), TestCaseError> {
        let data = export(&self.saver);
        let checkpoints = rows(data.as_ref());
        let mut expected: Vec<String> = checkpoints
            .iter()
            .rev()
            .filter(|(id, _)| cfg.checkpoint_id().is_none_or(|want| &want == **id))
            .filter(|(id, _)| options.before.as_ref().is_none_or(|b| **id < b))
            .filter(|(_, row)| {
                options
                    .filter
                    .iter()
                    .all(|(k, v)| row.metadata.get(k).as_ref() == Some(v))
            })
            .map(|(id, _)| (*id).clone())
            .collect();
        if let Some(limit) = options.limit {
            expected.truncate(limit);
        }
        let got: Vec<String> = history
            .iter()
            .map(|s| s.config.checkpoint_id.clone().unwrap_or_default())
            .collect();
        prop_assert_eq!(got, expected, "history {:?} {:?}", cfg, options);
        Ok(())
    }
}

/// A snapshot as JSON, with the message ids generated while reading it
/// (null writes are applied on every read, §5) blanked out.
fn comparable(s: &chronograph::StateSnapshot) -> Value {
    fn blank_uuids(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    if k == "id" && x.as_str().is_some_and(|s| s.len() == 36) {
                        *x = json!("<generated>");
                    } else {
                        blank_uuids(x);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(blank_uuids),
            _ => {}
        }
    }
    let tasks: Vec<Value> = s
        .tasks
        .iter()
        .map(|t| json!([t.id, t.name, t.path, t.error, t.interrupts, t.result]))
        .collect();
    let mut out = json!({
        "values": s.values.to_json(),
        "next": s.next,
        "config": serde_json::to_value(&s.config).unwrap(),
        "metadata": serde_json::to_value(&s.metadata).unwrap(),
        "created_at": s.created_at,
        "parent_config": serde_json::to_value(&s.parent_config).unwrap(),
        "tasks": tasks,
        "interrupts": s.interrupts,
    });
    blank_uuids(&mut out["values"]);
    blank_uuids(&mut out["tasks"]);
    out
}

fn export(saver: &InMemorySaver) -> Option<ThreadExport> {
    saver.export_thread(THREAD)
}

/// One stored checkpoint, as the invariants read it.
struct Row<'a> {
    ns: &'a str,
    parent: Option<&'a String>,
    metadata: &'a chronograph::CheckpointMetadata,
}

impl Row<'_> {
    fn step(&self) -> i64 {
        self.metadata.step
    }
    fn source(&self) -> &'static str {
        self.metadata.source.as_str()
    }
}

fn rows(data: Option<&ThreadExport>) -> BTreeMap<&String, Row<'_>> {
    let mut out = BTreeMap::new();
    for ns in data.iter().flat_map(|d| &d.namespaces) {
        for c in &ns.checkpoints {
            let row = Row {
                ns: &ns.checkpoint_ns,
                parent: c.parent_id.as_ref(),
                metadata: &c.metadata,
            };
            out.insert(&c.checkpoint.id, row);
        }
    }
    out
}

type WriteKey<'a> = (&'a str, &'a str, i64);

/// Everything stored, keyed for comparison: checkpoints (with metadata and
/// parent), regular writes by (checkpoint, task, idx), control writes by the
/// same key (their value may change: the last one wins), and blobs.
#[derive(Default)]
struct Stored<'a> {
    checkpoints: BTreeMap<
        &'a str,
        (
            &'a chronograph::Checkpoint,
            &'a chronograph::CheckpointMetadata,
            Option<&'a String>,
        ),
    >,
    writes: BTreeMap<WriteKey<'a>, (&'a str, &'a Value)>,
    control: BTreeSet<WriteKey<'a>>,
    blobs: BTreeMap<(&'a str, &'a str, chronograph::Version), Option<&'a Value>>,
}

fn stored(data: Option<&ThreadExport>) -> Stored<'_> {
    let mut out = Stored::default();
    for ns in data.iter().flat_map(|d| &d.namespaces) {
        for c in &ns.checkpoints {
            let id = c.checkpoint.id.as_str();
            out.checkpoints
                .insert(id, (&c.checkpoint, &c.metadata, c.parent_id.as_ref()));
            for w in &c.pending_writes {
                let key = (id, w.task_id.as_str(), w.idx);
                if w.idx >= 0 {
                    out.writes.insert(key, (w.channel.as_str(), &w.value));
                } else {
                    out.control.insert(key);
                }
            }
        }
        for b in &ns.blobs {
            out.blobs.insert(
                (ns.checkpoint_ns.as_str(), b.channel.as_str(), b.version),
                b.value.as_ref(),
            );
        }
    }
    out
}

/// Where a successful run starts its new checkpoints (spec §4.2, §4.5, §7):
/// new input writes an `input` checkpoint at the base's step + 1 under the
/// base (the addressed checkpoint, else the newest; -1 on a fresh thread);
/// a replay (no input, a checkpoint id, no resume value) writes a `fork`
/// under the addressed checkpoint first, unless that is an `update` or
/// `fork` checkpoint that is still the newest; anything else continues with
/// `loop` checkpoints under the base.
fn check_run_shape(
    thread: &Thread,
    op: &Op,
    before: Option<&ThreadExport>,
    after: Option<&ThreadExport>,
) -> Result<(), TestCaseError> {
    let (input, resume) = match op {
        Op::Invoke { input, .. } => (!input.is_null(), false),
        Op::Resume { .. } => (false, true),
        Op::Command { resume, .. } => (false, resume.is_some()),
        _ => return Ok(()),
    };
    let old = rows(before);
    let new = rows(after);
    let first_new = new.iter().find(|(id, _)| !old.contains_key(*id));
    let newest = old.keys().next_back().map(|id| (*id).clone());
    let base_id = thread.addressed.clone().or(newest.clone());
    let base = base_id.as_ref().and_then(|id| old.get(id));
    if input {
        let Some((id, row)) = first_new else {
            prop_assert!(false, "{op:?} saved no input checkpoint");
            return Ok(());
        };
        prop_assert_eq!(row.source(), "input", "{} after {:?}", id, op);
        prop_assert_eq!(row.parent, base_id.as_ref(), "input {} parent", id);
        prop_assert_eq!(row.step(), base.map_or(-1, |b| b.step() + 1));
        return Ok(());
    }
    let Some((id, row)) = first_new else {
        return Ok(());
    };
    let forks = thread.addressed.is_some()
        && !resume
        && base.is_some_and(|b| {
            !matches!(b.source(), "update" | "fork") || thread.addressed != newest
        });
    let expected = if forks { "fork" } else { "loop" };
    prop_assert_eq!(row.source(), expected, "{} after {:?}", id, op);
    prop_assert_eq!(row.parent, base_id.as_ref(), "{} {} parent", expected, id);
    prop_assert_eq!(Some(row.step()), base.map(|b| b.step() + 1));
    Ok(())
}

/// The invariants between the thread before and after one operation.
fn check_step(
    thread: &Thread,
    op: &Op,
    before: Option<&ThreadExport>,
    after: Option<&ThreadExport>,
    failure: Option<&Allowed>,
) -> Result<(), TestCaseError> {
    let read_only = matches!(
        op,
        Op::GetState { .. } | Op::History { .. } | Op::Lineage { .. } | Op::ExportImport
    );
    if failure == Some(&Allowed::Nothing) || read_only {
        prop_assert!(
            before == after,
            "{} {op:?} changed the thread",
            if read_only {
                "the read-only"
            } else {
                "the failed"
            }
        );
    }
    let (old, new) = (stored(before), stored(after));
    // Append-only.
    for (id, c) in &old.checkpoints {
        prop_assert_eq!(
            new.checkpoints.get(id),
            Some(c),
            "checkpoint {} changed",
            id
        );
    }
    for (key, w) in &old.writes {
        prop_assert_eq!(new.writes.get(key), Some(w), "write {:?} changed", key);
    }
    for key in &old.control {
        prop_assert!(new.control.contains(key), "control write {key:?} vanished");
    }
    for (key, b) in &old.blobs {
        prop_assert_eq!(new.blobs.get(key), Some(b), "blob {:?} changed", key);
    }
    if failure == Some(&Allowed::Writes) {
        prop_assert_eq!(
            old.checkpoints.len(),
            new.checkpoints.len(),
            "a failed update_state saved a checkpoint"
        );
    }
    // New ids come after every id the operation found.
    let old_max = old.checkpoints.keys().next_back();
    for id in new
        .checkpoints
        .keys()
        .filter(|id| !old.checkpoints.contains_key(*id))
    {
        prop_assert!(
            old_max.is_none_or(|m| id > m),
            "new checkpoint {id} sorts before an older one"
        );
    }
    // Parents, steps, sources.
    let all = rows(after);
    for (id, row) in &all {
        prop_assert_eq!(row.ns, "", "root graphs only");
        prop_assert!(
            row.metadata.parents.is_empty(),
            "root metadata.parents is {{}}"
        );
        match row.parent {
            None => prop_assert!(
                matches!((row.source(), row.step()), ("input", -1) | ("update", 0))
                    || (row.source() == "fork" && row.step() >= 0),
                "root {id} is {} at step {}",
                row.source(),
                row.step()
            ),
            Some(p) => match all.get(p) {
                None => prop_assert!(
                    thread.phantoms.contains(p),
                    "{id}'s parent {p} is not in the thread"
                ),
                Some(parent) => {
                    prop_assert!(*id > p, "child {id} sorts before its parent {p}");
                    if row.source() == "fork" {
                        prop_assert!(
                            row.step() > parent.step(),
                            "fork {id} at step {} under step {}",
                            row.step(),
                            parent.step()
                        );
                    } else {
                        prop_assert_eq!(
                            row.step(),
                            parent.step() + 1,
                            "{} {} under {}",
                            row.source(),
                            id,
                            p
                        );
                    }
                }
            },
        }
    }
    // The newest checkpoint is the thread's state.
    if let Some(newest) = all.keys().next_back() {
        let live = thread
            .graph
            .get_state(&RunnableConfig::thread(THREAD))
            .map_err(|e| TestCaseError::fail(format!("get_state of the thread failed: {e}")));
        // A stored null write of the wrong type may make the live state fail to read.
        if let Ok(live) = live {
            prop_assert_eq!(live.config.checkpoint_id.as_ref(), Some(*newest));
        }
    }
    Ok(())
}

fn run_ops(plan: Plan, ops: Vec<Op>) -> Result<(), TestCaseError> {
    let spec = GraphSpec::from_value(&plan.spec)
        .map_err(|e| TestCaseError::fail(format!("a generated spec does not parse: {e}")))?;
    let saver = Rc::new(InMemorySaver::new());
    let graph = compile(&spec, &saver)
        .map_err(|e| TestCaseError::fail(format!("a generated spec does not compile: {e}")))?;
    let mut thread = Thread {
        plan,
        spec,
        saver,
        graph,
        phantoms: BTreeSet::new(),
        ids: Vec::new(),
        addressed: None,
    };
    let mut before = export(&thread.saver);
    for op in &ops {
        thread.ids = rows(before.as_ref())
            .keys()
            .map(|id| (*id).clone())
            .collect();
        thread.addressed = None;
        let failure = thread.apply(op)?;
        let after = export(&thread.saver);
        if failure.is_none() {
            check_run_shape(&thread, op, before.as_ref(), after.as_ref())?;
        }
        check_step(
            &thread,
            op,
            before.as_ref(),
            after.as_ref(),
            failure.as_ref(),
        )?;
        before = after;
    }
    // Every history entry is what `get_state` shows for its id (both read
    // a checkpoint as recorded, §5), and `lineage` walks its parents.
    let cfg = RunnableConfig::thread(THREAD);
    if let Ok(history) = thread
        .graph
        .get_state_history(&cfg, &ListOptions::default())
    {
        for entry in &history {
            let id = entry.config.checkpoint_id.clone().unwrap_or_default();
            let at = cfg.clone().at(id.clone());
            let single = thread.graph.get_state(&at).map(|s| comparable(&s));
            prop_assert_eq!(single.ok(), Some(comparable(entry)), "get_state at {}", id);
            let chain = thread
                .graph
                .lineage(&at)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let mut expected = Some(id);
            for s in &chain {
                prop_assert_eq!(&s.config.checkpoint_id, &expected, "lineage");
                expected = s
                    .parent_config
                    .as_ref()
                    .and_then(|p| p.checkpoint_id.clone());
            }
            prop_assert!(
                expected.is_none_or(|p| thread.phantoms.contains(&p)),
                "lineage stops before the root"
            );
        }
    }
    // Export, import into a fresh saver: the same export, and the same
    // history read through a second graph.
    if let Some(data) = before {
        let text = serde_json::to_string(&data).unwrap();
        let fresh = Rc::new(InMemorySaver::new());
        fresh
            .import_thread(serde_json::from_str(&text).unwrap())
            .map_err(|e| TestCaseError::fail(format!("import refused: {e}")))?;
        prop_assert!(
            fresh.export_thread(THREAD).as_ref() == Some(&data),
            "export -> import -> export differs"
        );
        let twin = compile(&thread.spec, &fresh).unwrap();
        let cfg = RunnableConfig::thread(THREAD);
        let read = |g: &CompiledGraph| -> Option<Vec<Value>> {
            let history = g.get_state_history(&cfg, &ListOptions::default()).ok()?;
            Some(history.iter().map(comparable).collect())
        };
        prop_assert_eq!(
            read(&thread.graph),
            read(&twin),
            "history differs after import"
        );
    }
    Ok(())
}

// --- the properties ----------------------------------------------------------------

#[test]
fn generated_graphs_parse_compile_round_trip_and_run() {
    check(
        "valid graphs",
        400,
        (graph(), any_json()),
        |(plan, input)| {
            let spec = GraphSpec::from_value(&plan.spec)
                .map_err(|e| TestCaseError::fail(format!("does not parse: {e}")))?;
            let again = GraphSpec::from_value(&serde_json::to_value(&spec).unwrap()).unwrap();
            prop_assert_eq!(&spec, &again, "the spec round-trips through JSON");
            let saver = Rc::new(InMemorySaver::new());
            let graph = compile(&spec, &saver)
                .map_err(|e| TestCaseError::fail(format!("does not compile: {e}")))?;
            let cfg = RunnableConfig::thread(THREAD).with_recursion_limit(30);
            let _ = graph.invoke(RunInput::from(input), &cfg);
            Ok(())
        },
    );
}

#[test]
fn random_json_is_a_graph_or_an_error_never_a_panic() {
    check("random graph documents", 1500, any_json(), |doc| {
        // Mostly not an object with `nodes`: give every other case one.
        let doc = match doc {
            Value::Object(mut m) if !m.contains_key("nodes") => {
                m.insert("nodes".into(), json!({"a": {}}));
                Value::Object(m)
            }
            other => other,
        };
        if let Ok(spec) = GraphSpec::from_value(&doc) {
            let saver = Rc::new(InMemorySaver::new());
            if let Ok(graph) = compile(&spec, &saver) {
                let cfg = RunnableConfig::thread(THREAD).with_recursion_limit(30);
                let _ = graph.invoke(json!({"x": 1}), &cfg);
            }
        }
        Ok(())
    });
}

/// Replaces the value at a random place of `doc` (`path` picks a child at
/// each level, as deep as it goes).
fn mutate(doc: &mut Value, path: &[Index], replacement: Value) {
    let child = match (doc, path.first()) {
        (Value::Object(m), Some(i)) if !m.is_empty() => {
            let k = i.get(&m.keys().cloned().collect::<Vec<_>>()).clone();
            m.get_mut(&k)
        }
        (Value::Array(a), Some(i)) if !a.is_empty() => {
            let n = i.index(a.len());
            a.get_mut(n)
        }
        (doc, _) => {
            *doc = replacement;
            return;
        }
    };
    if let Some(child) = child {
        mutate(child, &path[1..], replacement);
    }
}

#[test]
fn a_graph_with_one_value_replaced_parses_or_errs_and_never_panics() {
    let strategy = (
        graph(),
        prop::collection::vec(any::<Index>(), 1..6),
        any_json(),
        ops_for_mutants(),
    );
    check(
        "mutated graphs",
        600,
        strategy,
        |(plan, path, replacement, input)| {
            let mut doc = plan.spec.clone();
            mutate(&mut doc, &path, replacement);
            if let Ok(spec) = GraphSpec::from_value(&doc) {
                let saver = Rc::new(InMemorySaver::new());
                if let Ok(graph) = compile(&spec, &saver) {
                    let cfg = RunnableConfig::thread(THREAD).with_recursion_limit(30);
                    let _ = graph.invoke(RunInput::from(input), &cfg);
                    let _ = graph.update_state(&cfg, Some(json!({"x": 1})), None);
                    let _ = graph.get_state_history(&cfg, &ListOptions::default());
                }
            }
            Ok(())
        },
    );
}

fn ops_for_mutants() -> impl Strategy<Value = Value> {
    prop_oneof![Just(Value::Null), any_json()]
}

#[test]
fn a_graph_naming_an_unknown_node_is_refused() {
    let strategy = (
        graph(),
        0..5u8,
        any::<Index>(),
        prop::sample::select(&["ghost", "__start__", "__end__"][..]),
    );
    check(
        "unknown nodes",
        400,
        strategy,
        |(plan, place, which, name)| {
            let mut doc = plan.spec.clone();
            let edges = doc["edges"].as_array().map_or(0, Vec::len);
            let routes = doc["conditional_edges"].as_array().map_or(0, Vec::len);
            // Put `name` where a node must be, in a place where it is wrong.
            let expected = match (place, name) {
                (0, _) if edges > 0 => {
                    let i = which.index(edges);
                    if name == "__end__" {
                        return Ok(());
                    }
                    let join = doc["edges"][i][0].is_array();
                    doc["edges"][i][1] = json!(name);
                    match (name, join) {
                        ("__start__", _) => "START cannot be an end node",
                        (_, true) => "Need to add_node `ghost` first",
                        _ => "Found edge ending at unknown node `ghost`",
                    }
                }
                (1, "ghost") if edges > 0 => {
                    let i = which.index(edges);
                    match &doc["edges"][i][0] {
                        Value::String(_) => {
                            doc["edges"][i][0] = json!(name);
                            "Found edge starting at unknown node 'ghost'"
                        }
                        Value::Array(_) => {
                            doc["edges"][i][0][0] = json!(name);
                            "Need to add_node `ghost` first"
                        }
                        _ => return Ok(()),
                    }
                }
                (2, "ghost" | "__start__") if routes > 0 => {
                    let i = which.index(routes);
                    doc["conditional_edges"][i]["else"] = json!(name);
                    "branch found unknown target"
                }
                (3, "ghost" | "__end__") if routes > 0 => {
                    let i = which.index(routes);
                    doc["conditional_edges"][i]["from"] = json!(name);
                    "Found edge starting at unknown node"
                }
                (4, _) => {
                    doc["compile"]["interrupt_after"] = json!([name]);
                    "not found"
                }
                _ => return Ok(()),
            };
            let spec = GraphSpec::from_value(&doc).unwrap();
            let saver = Rc::new(InMemorySaver::new());
            match compile(&spec, &saver) {
                Ok(_) => prop_assert!(false, "{doc} compiled"),
                Err(e) => {
                    prop_assert_eq!(e.kind(), ErrorKind::Value);
                    prop_assert!(
                        e.message().contains(expected),
                        "{} does not say {}",
                        e.message(),
                        expected
                    );
                }
            }
            Ok(())
        },
    );
}

#[test]
fn random_operations_on_a_thread_keep_its_invariants() {
    let strategy = graph().prop_flat_map(|plan| {
        let channels = plan.channels.clone();
        (Just(plan), ops(channels))
    });
    check("operations", 1000, strategy, |(plan, ops)| {
        run_ops(plan, ops)
    });
    // What the operations did, to see that the generators reach the
    // interesting paths (`--nocapture` shows it).
    OUTCOMES.with(|o| {
        let summary: Vec<String> = o
            .borrow()
            .iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect();
        eprintln!("operation outcomes: {}", summary.join(", "));
    });
}

thread_local! {
    /// Operation kind and outcome (`ok` or the error's name) → count.
    static OUTCOMES: std::cell::RefCell<BTreeMap<String, u64>> = Default::default();
}
