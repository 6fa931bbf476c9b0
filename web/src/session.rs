//! A thread under the visualizer's control: the engine calls behind every
//! button, the log line each one writes, and dry-run previews. Pure Rust
//! over `chronograph` (no Leptos), so it is unit-tested natively.

use chronograph::{
    CheckpointSaver, CompileOptions, CompiledGraph, GraphSpec, InMemorySaver, Interrupt,
    ListOptions, ListTarget, RunInput, RunnableConfig, Source, StateSnapshot, ThreadExport, COPY,
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
    /// The graph was written from an imported history: its nodes have no
    /// code, so runs are refused until [`Session::attach`] gives the real one.
    needs_graph: bool,
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
            needs_graph: false,
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

    /// Every checkpoint of the root namespace, in creation order.
    pub fn checkpoints(&self) -> Vec<CheckpointView> {
        self.checkpoints_in("")
    }

    /// Every checkpoint of namespace `ns` (`""`: the root), in creation order.
    pub fn checkpoints_in(&self, ns: &str) -> Vec<CheckpointView> {
        let config = Self::thread().in_namespace(ns);
        let mut snaps = self
            .graph
            .get_state_history(&config, &ListOptions::default())
            .unwrap_or_default();
        snaps.reverse();
        let labels = if ns.is_empty() {
            BTreeMap::new()
        } else {
            self.labels()
        };
        snaps
            .into_iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let m = s.metadata?;
                let id = s.config.checkpoint_id?;
                // Root labels count root checkpoints only (c0, c1, …), so
                // they stay what they were before any subgraph ran.
                let label = match labels.get(&id) {
                    Some(l) => l.clone(),
                    None => format!("c{i}"),
                };
                let next = match self.recorded_next.get(&id) {
                    Some(n) => n.clone(),
                    None => s.next,
                };
                Some(CheckpointView {
                    id,
                    label,
                    parent: s.parent_config.and_then(|p| p.checkpoint_id),
                    step: m.step,
                    source: m.source,
                    next,
                    created_at: s.created_at.unwrap_or_default(),
                    ns: s.config.checkpoint_ns,
                })
            })
            .collect()
    }

    /// Every subgraph namespace of the thread, in order of creation.
    pub fn namespaces(&self) -> Vec<Namespace> {
        let mut tuples = self
            .saver
            .list(&ListTarget::thread(THREAD_ID), &ListOptions::default())
            .unwrap_or_default();
        tuples.retain(|t| !t.config.checkpoint_ns.is_empty());
        // Oldest first: a namespace's first checkpoint says who owns it.
        tuples.sort_by(|a, b| a.checkpoint.id.cmp(&b.checkpoint.id));
        let mut out: Vec<Namespace> = Vec::new();
        for t in tuples {
            let ns = &t.config.checkpoint_ns;
            if out.iter().any(|n| &n.ns == ns) {
                continue;
            }
            let Some(owner) = t.metadata.parents.get(parent_ns(ns)) else {
                continue;
            };
            let last = ns.rsplit('|').next().unwrap_or(ns);
            out.push(Namespace {
                ns: ns.clone(),
                owner: owner.clone(),
                node: last.split(':').next().unwrap_or(last).to_owned(),
            });
        }
        out
    }

    /// Id → label for every checkpoint: `c0`, `c1`, … for the root namespace
    /// and `s0`, `s1`, … for all subgraph namespaces together, each in
    /// creation order (as the conformance traces label them).
    pub fn labels(&self) -> BTreeMap<String, String> {
        let mut all: Vec<(String, bool)> = self
            .saver
            .list(&ListTarget::thread(THREAD_ID), &ListOptions::default())
            .unwrap_or_default()
            .into_iter()
            .filter_map(|t| Some((t.config.checkpoint_id?, t.config.checkpoint_ns.is_empty())))
            .collect();
        all.sort();
        let (mut c, mut s) = (0, 0);
        all.into_iter()
            .map(|(id, root)| {
                let label = if root {
                    c += 1;
                    format!("c{}", c - 1)
                } else {
                    s += 1;
                    format!("s{}", s - 1)
                };
                (id, label)
            })
            .collect()
    }

    /// The namespace checkpoint `id` lives in (`""` at the root or when unknown).
    pub fn ns_of(&self, id: &str) -> String {
        // Most checkpoints are the root's: one lookup, not a scan of the thread.
        let at_root = chronograph::CheckpointConfig {
            thread_id: THREAD_ID.to_owned(),
            checkpoint_ns: String::new(),
            checkpoint_id: Some(id.to_owned()),
        };
        if matches!(self.saver.get_tuple(&at_root), Ok(Some(_))) {
            return String::new();
        }
        self.saver
            .list(&ListTarget::thread(THREAD_ID), &ListOptions::default())
            .unwrap_or_default()
            .into_iter()
            .find(|t| t.config.checkpoint_id.as_deref() == Some(id))
            .map(|t| t.config.checkpoint_ns)
            .unwrap_or_default()
    }

    fn label(&self, id: &str) -> String {
        self.labels().get(id).cloned().unwrap_or_else(|| short(id))
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

    fn ids(&self) -> Vec<String> {
        self.labels().into_keys().collect()
    }

    /// Runs `f`, logs `call` with the checkpoints it created (or its error).
    fn record(
        &mut self,
        call: String,
        f: impl FnOnce(&Session) -> chronograph::Result<Vec<Interrupt>>,
    ) -> chronograph::Result<Outcome> {
        let before = self.ids();
        let result = f(self);
        let after = self.ids();
        let created: Vec<String> = after
            .into_iter()
            .filter(|id| !before.contains(id))
            .collect();
        let labels = self.labels();
        let made = match created.as_slice() {
            [] => "no new checkpoint".to_owned(),
            [one] => labels[one].clone(),
            [first, .., last] => format!("{} … {}", labels[first], labels[last]),
        };
        match result {
            Ok(interrupts) => {
                let paused = if interrupts.is_empty() {
                    ""
                } else {
                    " (interrupted)"
                };
                let text = format!("{call} → {made}{paused}");
                self.log.push(LogLine {
                    text: text.clone(),
                    failed: false,
                });
                Ok(Outcome {
                    created,
                    interrupts,
                    calls: vec![text],
                })
            }
            Err(e) => {
                self.log.push(LogLine {
                    text: format!("{call} → {e}"),
                    failed: true,
                });
                Err(e)
            }
        }
    }

    /// How the log names a config: `thread`, `c3`, or `s4 in research:1f0c2a`
    /// for a checkpoint inside a subgraph (its namespace is part of the config).
    fn config_text(&self, id: Option<&str>) -> String {
        let Some(id) = id else {
            return "thread".to_owned();
        };
        let ns = self.ns_of(id);
        if ns.is_empty() {
            self.label(id)
        } else {
            format!("{} in {}", self.label(id), short_ns(&ns))
        }
    }

    /// The root checkpoint a resume continues from: `id` itself at the root;
    /// for a checkpoint inside a subgraph, the root checkpoint whose task ran
    /// it (its `parents` entry for the root). A paused subgraph is resumed
    /// from its parent: the root run re-enters the same namespace (same task
    /// id) and continues from that namespace's newest checkpoint.
    pub fn resume_target(&self, id: &str) -> String {
        if self.ns_of(id).is_empty() {
            return id.to_owned();
        }
        self.snapshot(Some(id))
            .ok()
            .and_then(|s| s.metadata)
            .and_then(|m| m.parents.get("").cloned())
            .unwrap_or_else(|| id.to_owned())
    }

    /// The arguments of the `Send`s checkpoint `id` holds, in order (the
    /// inputs of its PUSH tasks).
    pub fn sends(&self, id: &str) -> Vec<Value> {
        let target = ListTarget {
            thread_id: Some(THREAD_ID.to_owned()),
            checkpoint_ns: Some(self.ns_of(id)),
            checkpoint_id: Some(id.to_owned()),
        };
        let Some(t) = self
            .saver
            .list(&target, &ListOptions::default())
            .ok()
            .and_then(|l| l.into_iter().next())
        else {
            return Vec::new();
        };
        match t
            .checkpoint
            .channel_values
            .get("__pregel_tasks")
            .map(|v| v.to_json())
        {
            Some(Value::Array(packets)) => packets,
            _ => Vec::new(),
        }
    }

    /// `invoke(input, at)`: new input on the thread (or on checkpoint `at`).
    pub fn invoke(&mut self, input: Value, at: Option<&str>) -> chronograph::Result<Outcome> {
        self.check_runnable()?;
        let call = format!("invoke({}, {})", compact(&input), self.config_text(at));
        let config = self.config(at);
        self.record(call, |s| {
            s.graph
                .invoke(RunInput::from(input), &config)
                .map(|o| o.interrupts)
        })
    }

    /// Replay: `invoke(None, id)`.
    pub fn replay(&mut self, id: &str) -> chronograph::Result<Outcome> {
        self.check_runnable()?;
        let call = format!("invoke(None, {})", self.config_text(Some(id)));
        let config = self.config(Some(id));
        self.record(call, |s| {
            s.graph
                .invoke(RunInput::None, &config)
                .map(|o| o.interrupts)
        })
    }

    /// Resume an interrupt: `invoke(Command(resume=value), at)`.
    ///
    /// `at` may be a checkpoint inside a subgraph: the resume then runs from
    /// its parent ([`Session::resume_target`]).
    pub fn resume(&mut self, value: Value, at: Option<&str>) -> chronograph::Result<Outcome> {
        self.check_runnable()?;
        let at = at.map(|id| self.resume_target(id));
        let at = at.as_deref();
        let call = format!(
            "invoke(Command(resume={}), {})",
            compact(&value),
            self.config_text(at)
        );
        let config = self.config(at);
        let input = RunInput::Command(chronograph::Command::resume(value));
        self.record(call, |s| {
            s.graph.invoke(input, &config).map(|o| o.interrupts)
        })
    }

    /// `update_state(id, values, as_node)`; returns the new checkpoint's id in `created`.
    pub fn update(
        &mut self,
        id: &str,
        values: Option<Value>,
        as_node: Option<&str>,
    ) -> chronograph::Result<Outcome> {
        let node = as_node.map_or(String::new(), |n| format!(", as_node=\"{n}\""));
        let shown = values.as_ref().map_or("None".to_owned(), compact);
        let call = format!(
            "update_state({}, {shown}{node})",
            self.config_text(Some(id))
        );
        let config = self.config(Some(id));
        self.record(call, |s| {
            s.graph
                .update_state(&config, values, as_node)
                .map(|_| Vec::new())
        })
    }

    /// Fork: `update_state(id, values, as_node)` then `invoke(None, new)`.
    pub fn fork_and_run(
        &mut self,
        id: &str,
        values: Value,
        as_node: Option<&str>,
    ) -> chronograph::Result<Outcome> {
        self.check_runnable()?;
        let first = self.update(id, Some(values), as_node)?;
        let Some(new) = first.created.last().cloned() else {
            return Ok(first);
        };
        Ok(first.then(self.replay(&new)?))
    }

    /// Copy: `update_state(id, None, as_node="__copy__")`, a sibling of `id`.
    pub fn copy(&mut self, id: &str) -> chronograph::Result<Outcome> {
        self.update(id, None, Some(COPY))
    }

    /// The thread in the npm package's export format.
    pub fn export(&self) -> Option<ThreadExport> {
        self.saver.export_thread(THREAD_ID)
    }

    /// Replaces the thread with an export (its thread id is rewritten to this
    /// session's). Nothing changes when it fails.
    pub fn import(&mut self, mut data: ThreadExport) -> chronograph::Result<()> {
        data.thread_id = THREAD_ID.to_owned();
        let fresh = Rc::new(InMemorySaver::new());
        fresh.import_thread(data)?;
        let graph = Self::with_saver(self.spec.clone(), fresh.clone())?.graph;
        self.saver = fresh;
        self.graph = graph;
        self.recorded_next.clear();
        self.log.push(LogLine {
            text: "import_thread(file)".into(),
            failed: false,
        });
        Ok(())
    }

    /// Replaces the thread with one imported from a LangGraph history, on
    /// this session's graph written from that history
    /// ([`crate::import::infer_spec`]): runs wait for [`Session::attach`].
    /// `next` is each checkpoint's `next` as LangGraph recorded it.
    pub fn import_history(
        &mut self,
        data: ThreadExport,
        next: BTreeMap<String, Vec<String>>,
    ) -> chronograph::Result<()> {
        self.import(data)?;
        self.recorded_next = next;
        self.needs_graph = true;
        Ok(())
    }

    /// Whether runs wait for the graph's spec (the thread was imported from
    /// a history and no spec is attached yet).
    pub fn needs_graph(&self) -> bool {
        self.needs_graph
    }

    /// Marks the session as waiting for its graph (restoring a saved one).
    pub fn set_needs_graph(&mut self, needs: bool) {
        self.needs_graph = needs;
    }

    /// Each imported checkpoint's `next` as LangGraph recorded it.
    pub fn recorded_next(&self) -> &BTreeMap<String, Vec<String>> {
        &self.recorded_next
    }

    /// Restores [`Session::recorded_next`] (a saved session).
    pub fn set_recorded_next(&mut self, next: BTreeMap<String, Vec<String>>) {
        self.recorded_next = next;
    }

    fn check_runnable(&self) -> chronograph::Result<()> {
        if self.needs_graph {
            return Err(chronograph::Error::value(NEEDS_GRAPH));
        }
        Ok(())
    }

    /// Runs the thread on `spec` from now on: the graph of a thread imported
    /// from a history. Refused (and nothing changes) when `spec` lacks a node
    /// the current graph has ([`crate::import::missing_nodes`]).
    pub fn attach(&mut self, spec: GraphSpec) -> chronograph::Result<()> {
        let needed: Vec<String> = self.spec.nodes.keys().cloned().collect();
        let missing = crate::import::missing_nodes(&needed, &spec);
        if !missing.is_empty() {
            return Err(chronograph::Error::value(format!(
                "The graph has no node named {}",
                missing.join(", ")
            )));
        }
        let graph = Self::with_saver(spec.clone(), self.saver.clone())?.graph;
        self.graph = graph;
        self.spec = spec;
        self.needs_graph = false;
        self.log.push(LogLine {
            text: "compile(spec, checkpointer=saver)".into(),
            failed: false,
        });
        Ok(())
    }

    /// The checkpoints `outcome` created in any namespace (oldest first, with
    /// their parents' labels) and the nodes that ran to make them, without
    /// `__start__`.
    pub fn created(&self, outcome: &Outcome) -> (Vec<Created>, Vec<String>) {
        let labels = self.labels();
        let mut views = self.checkpoints();
        // Checkpoints written inside subgraphs too (an update through a
        // subgraph's config creates only those).
        for n in self.namespaces() {
            views.extend(self.checkpoints_in(&n.ns));
        }
        let mut created = Vec::new();
        let mut ran = Vec::new();
        for id in &outcome.created {
            let Some(v) = views.iter().find(|v| &v.id == id) else {
                continue;
            };
            if v.source == Source::Loop {
                if let Some(parent) = v
                    .parent
                    .as_ref()
                    .and_then(|p| views.iter().find(|x| &x.id == p))
                {
                    ran.extend(parent.next.iter().cloned());
                }
            }
            let parent_label = v
                .parent
                .as_ref()
                .map(|p| labels.get(p).cloned().unwrap_or_else(|| short(p)));
            created.push(Created {
                view: v.clone(),
                parent_label,
            });
        }
        ran.retain(|n| n != chronograph::START);
        (created, ran)
    }

    /// Runs `action` on a copy of this session and reports what it created.
    pub fn preview(
        &self,
        action: impl FnOnce(&mut Session) -> chronograph::Result<Outcome>,
    ) -> Preview {
        let saver = Rc::new(InMemorySaver::new());
        if let Some(data) = self.export() {
            if saver.import_thread(data).is_err() {
                return Preview {
                    checkpoints: vec![],
                    in_subgraphs: 0,
                    will_run: vec![],
                    error: Some("could not copy the thread".into()),
                };
            }
        }
        let mut copy = match Self::with_saver(self.spec.clone(), saver) {
            Ok(s) => s,
            Err(e) => {
                return Preview {
                    checkpoints: vec![],
                    in_subgraphs: 0,
                    will_run: vec![],
                    error: Some(e.to_string()),
                }
            }
        };
        copy.needs_graph = self.needs_graph;
        match action(&mut copy) {
            Ok(outcome) => {
                let (created, will_run) = copy.created(&outcome);
                // The root's checkpoints first: they are what the action is about.
                let (root, inside): (Vec<Created>, Vec<Created>) =
                    created.into_iter().partition(|c| c.view.ns.is_empty());
                let in_subgraphs = inside.len();
                let checkpoints = root.into_iter().chain(inside).collect();
                Preview {
                    checkpoints,
                    in_subgraphs,
                    will_run,
                    error: None,
                }
            }
            Err(e) => Preview {
                checkpoints: vec![],
                in_subgraphs: 0,
                will_run: vec![],
                error: Some(e.to_string()),
            },
        }
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

/// The first 8 characters of an id.
pub fn short(id: &str) -> String {
    id.chars().take(8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::human;
    use serde_json::json;

    fn chat() -> Session {
        Session::new(crate::scenarios::by_id("chat").unwrap().graph().unwrap()).unwrap()
    }

    fn say(s: &mut Session, text: &str) {
        s.invoke(
            json!({"messages": [{"type": "human", "content": text}]}),
            None,
        )
        .unwrap();
    }

    fn by_label(s: &Session, label: &str) -> CheckpointView {
        s.checkpoints()
            .into_iter()
            .find(|c| c.label == label)
            .unwrap()
    }

    #[test]
    fn the_seed_walkthrough_counts_8_10_11_13() {
        let mut s = chat();
        say(&mut s, "hi 1");
        say(&mut s, "hi 2");
        assert_eq!(s.checkpoints().len(), 8);
        let c2 = by_label(&s, "c2");
        assert_eq!((c2.step, c2.next.clone()), (1, vec!["reply".to_owned()]));
        s.replay(&c2.id).unwrap();
        assert_eq!(s.checkpoints().len(), 10);
        let c8 = by_label(&s, "c8");
        assert_eq!(
            (c8.source, c8.step, c8.parent.as_deref()),
            (Source::Fork, 2, Some(c2.id.as_str()))
        );
        let c3 = by_label(&s, "c3");
        s.replay(&c3.id).unwrap();
        assert_eq!(s.checkpoints().len(), 11);
        let c0 = by_label(&s, "c0");
        let out = s
            .fork_and_run(&c0.id, human("edited"), Some("booking"))
            .unwrap();
        assert_eq!(out.created.len(), 2);
        assert_eq!(s.checkpoints().len(), 13);
        let c11 = by_label(&s, "c11");
        assert_eq!(
            (c11.source, c11.step, c11.parent.as_deref()),
            (Source::Update, 0, Some(c0.id.as_str()))
        );
        assert_eq!(s.head().as_deref(), Some(by_label(&s, "c12").id.as_str()));
    }

    #[test]
    fn log_lines_name_the_exact_engine_calls() {
        let mut s = chat();
        say(&mut s, "hi");
        let c0 = by_label(&s, "c0");
        s.update(
            &c0.id,
            Some(json!({"messages": [{"type": "human", "content": "x"}]})),
            Some("booking"),
        )
        .unwrap();
        let c4 = by_label(&s, "c4");
        s.replay(&c4.id).unwrap();
        let log: Vec<&str> = s.log().iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            log[0],
            r#"invoke({"messages":[{"type":"human","content":"hi"}]}, thread) → c0 … c3"#
        );
        assert_eq!(
            log[1],
            r#"update_state(c0, {"messages":[{"type":"human","content":"x"}]}, as_node="booking") → c4"#
        );
        assert_eq!(log[2], "invoke(None, c4) → c5");
    }

    #[test]
    fn copy_makes_a_sibling() {
        let mut s = chat();
        say(&mut s, "hi");
        let c2 = by_label(&s, "c2");
        let out = s.copy(&c2.id).unwrap();
        let copy = by_label(&s, "c4");
        assert_eq!(out.created, vec![copy.id.clone()]);
        assert_eq!(
            (copy.source, copy.step, copy.parent),
            (Source::Fork, 2, c2.parent)
        );
    }

    #[test]
    fn preview_runs_on_a_copy_and_changes_nothing() {
        let mut s = chat();
        say(&mut s, "hi");
        let c2 = by_label(&s, "c2");
        let id = c2.id.clone();
        let p = s.preview(move |copy| copy.replay(&id));
        assert_eq!(p.error, None);
        let first = &p.checkpoints[0];
        assert_eq!(
            (first.parent_label.as_deref(), first.view.source),
            (Some("c2"), Source::Fork)
        );
        assert_eq!(
            (first.view.step, first.view.next.clone()),
            (2, vec!["reply".into()])
        );
        assert_eq!(p.checkpoints[1].view.source, Source::Loop);
        assert_eq!(p.will_run, ["reply"]);
        assert_eq!(s.checkpoints().len(), 4, "the real thread is untouched");
        assert!(s.log().len() == 1);
    }

    #[test]
    fn errors_are_logged_and_change_nothing() {
        let mut s = chat();
        say(&mut s, "hi");
        let c2 = by_label(&s, "c2");
        let err = s
            .update(&c2.id, Some(json!({"messages": []})), Some("nope"))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "InvalidUpdateError: Node nope does not exist"
        );
        assert!(s.log().last().unwrap().failed);
        assert_eq!(s.checkpoints().len(), 4);
    }

    #[test]
    fn export_import_round_trips_the_thread() {
        let mut s = chat();
        say(&mut s, "hi");
        let c1 = by_label(&s, "c1");
        s.replay(&c1.id).unwrap();
        let data = s.export().unwrap();
        let mut other = chat();
        other.import(data).unwrap();
        assert_eq!(other.checkpoints(), s.checkpoints());
    }

    fn scenario(id: &str) -> Session {
        Session::new(crate::scenarios::by_id(id).unwrap().graph().unwrap()).unwrap()
    }

    fn id_of(s: &Session, label: &str) -> String {
        s.labels().into_iter().find(|(_, l)| l == label).unwrap().0
    }

    #[test]
    fn subgraph_checkpoints_get_s_labels_and_their_namespace() {
        let mut s = scenario("research");
        s.invoke(json!({"log": []}), None).unwrap();
        let root: Vec<String> = s.checkpoints().into_iter().map(|c| c.label).collect();
        assert_eq!(root, ["c0", "c1", "c2"], "root labels count the root only");
        let ns = s.namespaces();
        assert_eq!(ns.len(), 1);
        assert_eq!(ns[0].node, "research");
        assert_eq!(
            ns[0].owner,
            id_of(&s, "c2"),
            "owned by the checkpoint whose task ran it"
        );
        assert!(ns[0].ns.starts_with("research:"));
        assert_eq!(ns[0].parent_ns(), "");
        let inner = s.checkpoints_in(&ns[0].ns);
        let labels: Vec<&str> = inner.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, ["s0", "s1", "s2", "s3"]);
        assert!(inner.iter().all(|c| c.ns == ns[0].ns));
        assert_eq!(s.ns_of(&inner[3].id), ns[0].ns);
        assert_eq!(s.ns_of(&id_of(&s, "c1")), "");
        assert_eq!(s.spec_at(&ns[0].ns).map(|g| g.nodes.len()), Some(3));
        assert_eq!(short_ns("a:1234567890|b:abcdefgh"), "a:123456|b:abcdef");
        assert_eq!(parent_ns("a:1|b:2"), "a:1");
    }

    #[test]
    fn an_update_through_a_subgraph_config_then_a_resume_from_the_parent() {
        let mut s = scenario("research");
        s.invoke(json!({"log": []}), None).unwrap();
        let s3 = id_of(&s, "s3");
        let c2 = id_of(&s, "c2");
        assert_eq!(
            s.resume_target(&s3),
            c2,
            "a subgraph resumes from its parent"
        );
        let out = s
            .update(&s3, Some(json!({"draft": "Draft v2"})), None)
            .unwrap();
        let s4 = id_of(&s, "s4");
        assert_eq!(out.created, std::slice::from_ref(&s4));
        let v = s
            .checkpoints_in(&s.ns_of(&s3))
            .into_iter()
            .find(|c| c.id == s4)
            .unwrap();
        assert_eq!(
            (v.source, v.step, v.parent.as_deref()),
            (Source::Update, 3, Some(s3.as_str()))
        );
        let log = &s.log().last().unwrap().text;
        assert!(log.starts_with("update_state(s3 in research:"), "{log}");
        assert!(log.ends_with(r#"{"draft":"Draft v2"}) → s4"#), "{log}");
        s.resume(json!(true), Some(&s4)).unwrap();
        assert!(s
            .log()
            .last()
            .unwrap()
            .text
            .starts_with("invoke(Command(resume=true), c2) → s5 … c4"));
        assert_eq!(s.namespaces().len(), 1, "the same namespace continued");
        let last = s.snapshot(None).unwrap();
        assert_eq!(last.values.to_json()["draft"], json!("Draft v2"));
        assert!(last.next.is_empty());
    }

    #[test]
    fn a_preview_lists_the_root_checkpoints_first() {
        let mut s = scenario("research");
        s.invoke(json!({"log": []}), None).unwrap();
        let c2 = id_of(&s, "c2");
        let p = s.preview(move |c| c.replay(&c2));
        assert_eq!(p.checkpoints[0].view.source, Source::Fork);
        assert_eq!(
            p.in_subgraphs, 4,
            "the subgraph re-runs from scratch: s4 … s7"
        );
        assert_eq!(p.checkpoints[1].view.source, Source::Input);
    }

    #[test]
    fn sends_are_the_arguments_of_a_fan_out() {
        let mut s = scenario("map-reduce");
        s.invoke(json!({"notes": []}), None).unwrap();
        let c2 = id_of(&s, "c2");
        let args: Vec<Value> = s.sends(&c2).iter().map(|p| p["arg"].clone()).collect();
        assert_eq!(
            args,
            [
                json!({"topic": "cats"}),
                json!({"topic": "owls"}),
                json!({"topic": "bees"})
            ]
        );
        let data = crate::inspect::snapshot(&s, &c2).unwrap();
        assert_eq!(data.tasks.len(), 3);
        assert_eq!(data.tasks[1].arg, Some(json!({"topic": "owls"})));
        assert_eq!(crate::inspect::next_text(&data.next), "3 × worker");
    }
}
