//! A thread under the visualizer's control: the engine calls behind every
//! button, the log line each one writes, and dry-run previews. Pure Rust
//! over `chronograph` (no Leptos), so it is unit-tested natively.
//!
//! This file holds the types and the session's configs; the rest is in
//! `session/thread.rs` (reading the thread: checkpoints, namespaces,
//! labels), `session/calls.rs` (the logged engine calls),
//! `session/transfer.rs` (export, import, an attached graph) and
//! `session/preview.rs` (dry runs on a copy).

mod calls;
mod preview;
mod source;
mod storage;
mod thread;
mod transfer;

#[cfg(test)]
mod tests;

pub use source::{Action, ThreadSource, NEW_THREAD_ON_SERVER, ON_SERVER};
pub use storage::{
    branch_series, prune_candidates, total, ChannelBytes, Cost, StoredCheckpoint, ROW_BYTES,
};

use chronograph::{
    CheckpointSaver, CompileOptions, CompiledGraph, GraphSpec, InMemorySaver, Interrupt,
    RunnableConfig, Source, StateSnapshot,
};
use serde_json::Value;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The thread every session works on.
pub const THREAD_ID: &str = "thread-1";

/// One checkpoint as the tree draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckpointView {
    /// Checkpoint id.
    pub id: String,
    /// `c0`, `c1`, ... in creation order.
    pub label: String,
    /// Parent id (may be missing from the thread: a dangling parent).
    pub parent: Option<String>,
    /// `metadata.step`.
    pub step: i64,
    /// `metadata.source`.
    pub source: Source,
    /// Nodes that run next (record mode: every scheduled task).
    pub next: Vec<String>,
    /// Creation time.
    pub created_at: String,
    /// Its checkpoint namespace: `""` at the root, `node:task_id` (nested
    /// with `|`) inside a subgraph.
    pub ns: String,
}

/// A subgraph namespace of the thread: the checkpoints one subgraph task wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Namespace {
    /// `node:task_id`, nested with `|` (`outer:id|inner:id`).
    pub ns: String,
    /// The checkpoint (in the enclosing namespace) whose task ran it: the
    /// `parents` entry its checkpoints record for the enclosing namespace.
    pub owner: String,
    /// The subgraph node's name (the namespace's last level, without its task id).
    pub node: String,
}

impl Namespace {
    /// The enclosing namespace (`""` for a subgraph of the root).
    pub fn parent_ns(&self) -> &str {
        parent_ns(&self.ns)
    }
}

/// The namespace one level up: `a:1|b:2` → `a:1`, `a:1` → `""`.
pub fn parent_ns(ns: &str) -> &str {
    ns.rsplit_once('|').map_or("", |(up, _)| up)
}

/// `research:1f0c2a9e-…` → `research:1f0c2a`: the node and the start of
/// the task id, enough to tell two runs of one node apart.
pub fn short_ns(ns: &str) -> String {
    ns.split('|')
        .map(|level| match level.split_once(':') {
            Some((node, task)) => format!("{node}:{}", task.chars().take(6).collect::<String>()),
            None => level.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("|")
}

/// A checkpoint an action created, with its parent's label.
#[derive(Clone, Debug, PartialEq)]
pub struct Created {
    /// The new checkpoint.
    pub view: CheckpointView,
    /// Its parent's label (the short id for a parent missing from the thread).
    pub parent_label: Option<String>,
}

/// What one action did.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Ids of the checkpoints it created, oldest first.
    pub created: Vec<String>,
    /// Interrupts that paused the run, if any.
    pub interrupts: Vec<Interrupt>,
    /// The engine calls, as logged.
    pub calls: Vec<String>,
}

impl Outcome {
    /// This outcome followed by `next`'s, as one action: both calls'
    /// checkpoints and log lines, and the interrupts the last one ended on.
    pub fn then(self, next: Outcome) -> Outcome {
        Outcome {
            created: [self.created, next.created].concat(),
            interrupts: next.interrupts,
            calls: [self.calls, next.calls].concat(),
        }
    }
}

/// What an action would do, computed by running it on a copy of the thread.
#[derive(Clone, Debug, PartialEq)]
pub struct Preview {
    /// New checkpoints it would create (in a copy of the thread, so their
    /// labels are the copy's), the root namespace's first, then those
    /// inside subgraphs.
    pub checkpoints: Vec<Created>,
    /// How many of `checkpoints` (the last ones) are inside subgraphs.
    pub in_subgraphs: usize,
    /// Nodes that would run, in order.
    pub will_run: Vec<String>,
    /// The error it would raise.
    pub error: Option<String>,
}

/// One line of the engine-call log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    /// The call and its result, e.g. `invoke(None, c3) → c4 … c6`.
    pub text: String,
    /// Whether the call failed.
    pub failed: bool,
}

/// A graph, its saver and one thread.
pub struct Session {
    spec: GraphSpec,
    graph: CompiledGraph,
    saver: Rc<InMemorySaver>,
    log: Vec<LogLine>,
    /// For a thread imported from a LangGraph history: each checkpoint's
    /// `next` as LangGraph recorded it (the history's truth; the engine
    /// cannot recompute `__start__` without the run's input).
    recorded_next: BTreeMap<String, Vec<String>>,
    /// For an imported history: the checkpoints LangGraph recorded waiting
    /// on `interrupt()` (the import keeps states, not pending interrupts).
    recorded_interrupts: std::collections::BTreeSet<String>,
    /// The graph was written from an imported history: its nodes have no
    /// code, so runs are refused until [`Session::attach`] gives the real one.
    needs_graph: bool,
    /// Where the thread's actions run: in this page's engine, or on the
    /// LangGraph server the thread was read from.
    source: ThreadSource,
}

/// Why a run is refused on a thread imported without its graph.
pub const NEEDS_GRAPH: &str = "This thread was imported from a history, which keeps the states but not the nodes' code: attach the graph's spec to run it";

impl Session {
    /// A new, empty thread over `spec`.
    pub fn new(spec: GraphSpec) -> chronograph::Result<Session> {
        Self::with_saver(spec, Rc::new(InMemorySaver::new()))
    }

    fn with_saver(spec: GraphSpec, saver: Rc<InMemorySaver>) -> chronograph::Result<Session> {
        let graph = spec.compile(CompileOptions {
            checkpointer: Some(saver.clone()),
            clock: Some(crate::clock::browser_clock()),
            ..Default::default()
        })?;
        Ok(Session {
            spec,
            graph,
            saver,
            log: Vec::new(),
            recorded_next: BTreeMap::new(),
            recorded_interrupts: std::collections::BTreeSet::new(),
            needs_graph: false,
            source: ThreadSource::InPage,
        })
    }

    /// The graph's spec.
    pub fn spec(&self) -> &GraphSpec {
        &self.spec
    }

    /// The graph that writes namespace `ns`: the root graph for `""`, else
    /// the subgraph its levels name (task ids stripped).
    pub fn spec_at(&self, ns: &str) -> Option<&GraphSpec> {
        let mut spec = &self.spec;
        for level in ns.split('|').filter(|l| !l.is_empty()) {
            let node = level.split(':').next().unwrap_or(level);
            spec = spec.nodes.get(node)?.subgraph.as_deref()?;
        }
        Some(spec)
    }

    /// The compiled graph.
    pub fn graph(&self) -> &CompiledGraph {
        &self.graph
    }

    /// The engine-call log, oldest first.
    pub fn log(&self) -> &[LogLine] {
        &self.log
    }

    fn thread() -> RunnableConfig {
        RunnableConfig::thread(THREAD_ID)
    }

    /// The config that addresses checkpoint `id` (the thread when `None`):
    /// inside a subgraph, its namespace and `checkpoint_map` as LangGraph's
    /// snapshot config carries them, so a state call goes through the
    /// subgraph's config.
    fn config(&self, id: Option<&str>) -> RunnableConfig {
        let Some(id) = id else {
            return Self::thread();
        };
        let ns = self.ns_of(id);
        if ns.is_empty() {
            return Self::thread().at(id);
        }
        let plain = Self::thread().in_namespace(ns).at(id);
        match self.graph.get_state(&plain) {
            Ok(snap) => snap.runnable_config(),
            Err(_) => plain,
        }
    }

    /// HEAD: the newest checkpoint on any branch, where a run without a
    /// checkpoint id continues.
    pub fn head(&self) -> Option<String> {
        self.saver
            .get_tuple(&chronograph::CheckpointConfig::thread(THREAD_ID))
            .ok()
            .flatten()
            .map(|t| t.checkpoint.id)
    }

    /// The snapshot at `id` (record mode), or the live state of HEAD.
    pub fn snapshot(&self, id: Option<&str>) -> chronograph::Result<StateSnapshot> {
        self.graph.get_state(&self.config(id))
    }

    /// The branch `id` lives on, from it up to the root.
    pub fn lineage(&self, id: &str) -> chronograph::Result<Vec<StateSnapshot>> {
        self.graph.lineage(&self.config(Some(id)))
    }
}

/// JSON on one line, shortened for the log.
pub fn compact(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(79).collect::<String>())
    } else {
        s
    }
}

/// How the log names the checkpoints an action created: `c7`, `c7 … c9`,
/// or that there is none.
pub fn made(labels: &BTreeMap<String, String>, created: &[String]) -> String {
    let label = |id: &String| labels.get(id).cloned().unwrap_or_else(|| short(id));
    match created {
        [] => "no new checkpoint".to_owned(),
        [one] => label(one),
        [first, .., last] => format!("{} … {}", label(first), label(last)),
    }
}

/// The first 8 characters of an id.
pub fn short(id: &str) -> String {
    id.chars().take(8).collect()
}
