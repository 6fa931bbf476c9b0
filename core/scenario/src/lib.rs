//! Scenario files (`tests/conformance/FORMAT.md`): a graph plus operations
//! on one thread, run on the `chronograph` engine to produce the trace
//! LangGraph produced for them. The engine's test harness, not part of its
//! API: used by the `conformance` example and the conformance tests of the
//! engine (native) and of its bindings (wasm).

use chronograph::clock::ManualClock;
use chronograph::{
    parse_document, recast_checkpoint_ns, CheckpointConfig, CheckpointSaver, Command,
    CompileOptions, CompiledGraph, Durability, Error, GraphSpec, InMemorySaver, ListOptions,
    ListTarget, ReducerName, Result, RunInput, RunnableConfig, StateSnapshot, TaskState,
};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

/// The channel a paused run's interrupts are recorded under in a trace
/// (LangGraph's `INTERRUPT`).
const INTERRUPT: &str = "__interrupt__";

/// A scenario: one graph and the operations run on one thread.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Scenario name (copied into the trace).
    pub name: String,
    /// What it shows.
    #[serde(default)]
    pub about: String,
    /// The thread (a string, or a number converted to one).
    pub thread_id: Value,
    /// The graph.
    pub graph: GraphSpec,
    /// Operations, in order.
    pub ops: Vec<Operation>,
}

/// Selects a checkpoint: `{"label": "c3"}` (or `"s2"`, a subgraph
/// checkpoint), `{"saved": NAME}`, `{"checkpoint_id": ID}`, or the config
/// a subgraph task's state carries (`task_state`, `task_ns`). Each field
/// may be left out (serde reads a missing `Option` as `None`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selector {
    /// A creation-order label (`c0` is the thread's first checkpoint, `s0`
    /// the first subgraph checkpoint).
    pub label: Option<String>,
    /// A config kept by an earlier `update_state` with `save`.
    pub saved: Option<String>,
    /// A literal checkpoint id.
    pub checkpoint_id: Option<String>,
    /// `get_state(at, subgraphs=True)`'s task `state.config`: the
    /// subgraph's newest checkpoint, pinned by id.
    pub task_state: Option<Box<TaskSelector>>,
    /// `get_state(at)`'s task `state`: the subgraph's namespace, no id.
    pub task_ns: Option<Box<TaskSelector>>,
}

/// `{"at"?: SEL, "task": NAME}`: the first task named NAME of the snapshot at SEL.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskSelector {
    /// The snapshot (default: the thread).
    pub at: Option<Selector>,
    /// The task's node name.
    pub task: String,
}

/// One operation of a scenario.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Operation {
    /// `invoke | resume | update_state | get_state | history`.
    pub op: String,
    /// Run input (`invoke`).
    #[serde(default)]
    pub input: Value,
    /// Resume value (`resume`).
    #[serde(default)]
    pub value: Value,
    /// Update values (`update_state`).
    #[serde(default)]
    pub values: Value,
    /// Writer of an update.
    pub as_node: Option<String>,
    /// The checkpoint the operation addresses (default: the thread).
    pub at: Option<Selector>,
    /// Name under which to keep the returned config.
    pub save: Option<String>,
    /// History limit.
    pub limit: Option<usize>,
    /// History upper bound (exclusive).
    pub before: Option<Selector>,
    /// History metadata filter.
    pub filter: Option<Map<String, Value>>,
    /// Record `"error": null` when the operation succeeds.
    #[serde(default)]
    pub expect_error: bool,
    /// `get_state(..., subgraphs=True)`.
    #[serde(default)]
    pub subgraphs: bool,
    /// `invoke(..., durability=...)` (`invoke` and `resume`).
    pub durability: Option<Durability>,
}

impl Scenario {
    /// Parses a scenario file; errors name the path of the bad field.
    pub fn parse(json: &str) -> Result<Scenario> {
        parse_document(json)
    }

    /// Runs the scenario on a fresh [`InMemorySaver`] with a deterministic
    /// clock and returns its trace `{"name", "trace": [RECORD, ...]}`.
    pub fn run(&self) -> Result<Value> {
        let saver = Rc::new(InMemorySaver::new());
        let graph = self.graph.compile(CompileOptions {
            checkpointer: Some(saver.clone()),
            clock: Some(Rc::new(ManualClock::new())),
            seed: Some(42),
            ..Default::default()
        })?;
        let thread_id = match &self.thread_id {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let mut run = Runner {
            graph,
            saver,
            thread: RunnableConfig::thread(thread_id.clone()),
            thread_id,
            saved: HashMap::new(),
            given_ids: given_ids(&self.ops),
            message_channels: message_channels(&self.graph),
            labels: BTreeMap::new(),
            slabels: BTreeMap::new(),
        };
        let mut trace = Vec::new();
        for op in &self.ops {
            let mut record = Map::new();
            record.insert("op".into(), Value::String(op.op.clone()));
            let result = run.apply(op);
            run.relabel()?;
            match result.and_then(|fields| run.finish(fields)) {
                Ok(fields) => {
                    record.extend(fields);
                    if op.expect_error {
                        record.insert("error".into(), Value::Null);
                    }
                }
                Err(e) => {
                    let text = e.to_string();
                    record.insert(
                        "error".into(),
                        Value::String(text.lines().next().unwrap_or_default().to_owned()),
                    );
                }
            }
            trace.push(Value::Object(record));
        }
        Ok(json!({ "name": self.name, "trace": trace }))
    }
}

/// Message ids written in the scenario itself: only these appear in traces
/// (generated ids differ from run to run).
fn given_ids(ops: &[Operation]) -> BTreeSet<String> {
    fn walk(v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(id)) = m.get("id") {
                    out.insert(id.clone());
                }
                m.values().for_each(|x| walk(x, out));
            }
            Value::Array(items) => items.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    for op in ops {
        walk(&op.input, &mut out);
        walk(&op.values, &mut out);
        walk(&op.value, &mut out);
    }
    out
}

/// The `add_messages` channels of a graph and of its subgraphs, by name.
fn message_channels(spec: &GraphSpec) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = spec
        .channels
        .iter()
        .filter(|(_, c)| c.reducer == ReducerName::AddMessages)
        .map(|(k, _)| k.clone())
        .collect();
    for node in spec.nodes.values() {
        if let Some(sub) = &node.subgraph {
            out.extend(message_channels(sub));
        }
    }
    out
}

/// An operation's record before its labels are filled in: snapshots keep
/// their checkpoint ids until every new checkpoint has a label.
enum Pending {
    Value(Value),
    Snapshot(Box<StateSnapshot>),
    History(Vec<StateSnapshot>),
    Checkpoint(RunnableConfig),
}

struct Runner {
    graph: CompiledGraph,
    saver: Rc<InMemorySaver>,
    thread: RunnableConfig,
    thread_id: String,
    saved: HashMap<String, RunnableConfig>,
    given_ids: BTreeSet<String>,
    message_channels: BTreeSet<String>,
    /// Root checkpoint id → `cN`.
    labels: BTreeMap<String, String>,
    /// (namespace, checkpoint id) → `sN`.
    slabels: BTreeMap<(String, String), String>,
}

impl Runner {
    /// Labels every checkpoint that has none yet (lg_golden's `relabel`):
    /// root checkpoints `cN` in id order; subgraph checkpoints `sN` ordered
    /// by where they sit (the parent checkpoint whose task ran the
    /// subgraph, that task's index, recursively) and then by id.
    fn relabel(&mut self) -> Result<()> {
        let all = self.saver.list(
            &ListTarget::thread(self.thread_id.clone()),
            &ListOptions::default(),
        )?;
        let mut root: Vec<String> = Vec::new();
        let mut new: Vec<(String, String)> = Vec::new();
        for t in all {
            let (ns, Some(id)) = (t.config.checkpoint_ns, t.config.checkpoint_id) else {
                continue;
            };
            if ns.is_empty() {
                if !self.labels.contains_key(&id) {
                    root.push(id);
                }
            } else if !self.slabels.contains_key(&(ns.clone(), id.clone())) {
                new.push((ns, id));
            }
        }
        root.sort();
        for id in root {
            let label = format!("c{}", self.labels.len());
            self.labels.insert(id, label);
        }
        if new.is_empty() {
            return Ok(());
        }
        let mut paths: HashMap<String, Vec<PathPart>> = HashMap::new();
        let mut keyed = Vec::with_capacity(new.len());
        for (ns, id) in new {
            let key = self.key(&ns, &id, &mut paths)?;
            keyed.push((key, ns, id));
        }
        keyed.sort();
        for (_, ns, id) in keyed {
            let label = format!("s{}", self.slabels.len());
            self.slabels.insert((ns, id), label);
        }
        Ok(())
    }

    /// The sort key of subgraph checkpoint `id` in namespace `ns`: where
    /// its namespace sits, then its id. A persistent subgraph's namespace
    /// (no task id) holds every run: each checkpoint sits after the parent
    /// checkpoint its `parents` name, at the index of the task named after
    /// the node there (0 if none); without one, by its own id.
    fn key(
        &self,
        ns: &str,
        id: &str,
        memo: &mut HashMap<String, Vec<PathPart>>,
    ) -> Result<Vec<PathPart>> {
        if ns.is_empty() {
            return Ok(vec![PathPart::Id(id.to_owned())]);
        }
        let (parent_ns, last) = ns.rsplit_once('|').unwrap_or(("", ns));
        if last.contains(':') {
            let mut key = self.path(ns, memo)?;
            key.push(PathPart::Id(id.to_owned()));
            return Ok(key);
        }
        let at = CheckpointConfig {
            thread_id: self.thread_id.clone(),
            checkpoint_ns: ns.to_owned(),
            checkpoint_id: Some(id.to_owned()),
        };
        let parents = self
            .saver
            .get_tuple(&at)?
            .map(|t| t.metadata.parents)
            .unwrap_or_default();
        let parent_key = if parent_ns.is_empty() {
            parents.contains_key("").then(String::new)
        } else {
            parents
                .keys()
                .find(|k| recast_checkpoint_ns(k) == recast_checkpoint_ns(parent_ns))
                .cloned()
        };
        let Some(pns) = parent_key else {
            return Ok(vec![PathPart::Id(id.to_owned())]);
        };
        let pcid = parents[&pns].clone();
        let history = self.graph.get_state_history(
            &self.thread.clone().in_namespace(pns.clone()),
            &ListOptions::default(),
        )?;
        let idx = history
            .iter()
            .filter(|s| s.config.checkpoint_id.as_deref() == Some(&pcid))
            .find_map(|s| s.tasks.iter().position(|t| t.name == last))
            .unwrap_or(0);
        let mut key = self.key(&pns, &pcid, memo)?;
        key.pop();
        key.extend([
            PathPart::Id(pcid),
            PathPart::Index(idx),
            PathPart::Id(id.to_owned()),
        ]);
        Ok(key)
    }

    /// Where namespace `ns` (a task's) sits: for each level, the newest
    /// parent checkpoint with the task that ran it, and that task's index.
    fn path(&self, ns: &str, memo: &mut HashMap<String, Vec<PathPart>>) -> Result<Vec<PathPart>> {
        if let Some(p) = memo.get(ns) {
            return Ok(p.clone());
        }
        let (parent_ns, last) = ns.rsplit_once('|').unwrap_or(("", ns));
        let task_id = last.split_once(':').map_or("", |(_, id)| id);
        let history = self.graph.get_state_history(
            &self.thread.clone().in_namespace(parent_ns),
            &ListOptions::default(),
        )?;
        let found = history.iter().find_map(|s| {
            let idx = s.tasks.iter().position(|t| t.id == task_id)?;
            Some((s.config.checkpoint_id.clone()?, idx))
        });
        let Some((id, idx)) = found else {
            return Err(Error::spec(format!("no parent task for namespace {ns}")));
        };
        let mut path = self.key(parent_ns, &id, memo)?;
        path.pop();
        path.push(PathPart::Id(id));
        path.push(PathPart::Index(idx));
        memo.insert(ns.to_owned(), path.clone());
        Ok(path)
    }

    fn label_of(&self, ns: &str, id: Option<&str>) -> Value {
        let Some(id) = id else {
            return Value::Null;
        };
        let label = match ns.is_empty() {
            true => self.labels.get(id),
            false => self.slabels.get(&(ns.to_owned(), id.to_owned())),
        };
        Value::String(label.cloned().unwrap_or_else(|| id.to_owned()))
    }

    fn resolve(&self, sel: &Selector) -> Result<RunnableConfig> {
        if let Some(name) = &sel.saved {
            return self
                .saved
                .get(name)
                .cloned()
                .ok_or_else(|| Error::spec(format!("no saved config named {name:?}")));
        }
        if let Some(ts) = &sel.task_state {
            let snap = self.graph.get_state_subgraphs(&self.config(&ts.at)?)?;
            for t in &snap.tasks {
                if let (true, Some(TaskState::Snapshot(sub))) = (t.name == ts.task, &t.state) {
                    if sub.config.checkpoint_id.is_none() {
                        return Err(Error::spec(format!(
                            "subgraph task {} has no checkpoint yet",
                            ts.task
                        )));
                    }
                    return Ok(sub.runnable_config());
                }
            }
            return Err(Error::spec(format!("no subgraph task {}", ts.task)));
        }
        if let Some(ts) = &sel.task_ns {
            let snap = self.graph.get_state(&self.config(&ts.at)?)?;
            for t in &snap.tasks {
                if let (true, Some(TaskState::Config(c))) = (t.name == ts.task, &t.state) {
                    return Ok(self.thread.clone().in_namespace(c.checkpoint_ns.clone()));
                }
            }
            return Err(Error::spec(format!("no subgraph task {}", ts.task)));
        }
        if let Some(id) = &sel.checkpoint_id {
            return Ok(self.thread.clone().at(id.clone()));
        }
        let label = sel.label.as_deref().unwrap_or_default();
        if label.starts_with('s') {
            let (ns, id) = self
                .slabels
                .iter()
                .find(|(_, l)| *l == label)
                .map(|(k, _)| k.clone())
                .ok_or_else(|| Error::spec(format!("no checkpoint labelled {label:?}")))?;
            let at = CheckpointConfig {
                thread_id: self.thread_id.clone(),
                checkpoint_ns: ns,
                checkpoint_id: Some(id),
            };
            let mut config = match self.saver.get_tuple(&at)? {
                Some(stored) => stored.runnable_config(),
                None => self
                    .thread
                    .clone()
                    .in_namespace(at.checkpoint_ns.clone())
                    .at(at.checkpoint_id.clone().unwrap_or_default()),
            };
            if config.checkpoint_map().is_empty() {
                let mut map = BTreeMap::new();
                map.insert(
                    at.checkpoint_ns.clone(),
                    at.checkpoint_id.clone().unwrap_or_default(),
                );
                config = config.with_checkpoint_map(&map);
            }
            return Ok(config);
        }
        let id = self
            .labels
            .iter()
            .find(|(_, l)| *l == label)
            .map(|(id, _)| id.clone())
            .ok_or_else(|| Error::spec(format!("no checkpoint labelled {label:?}")))?;
        Ok(self.thread.clone().at(id))
    }

    fn config(&self, at: &Option<Selector>) -> Result<RunnableConfig> {
        match at {
            Some(sel) => self.resolve(sel),
            None => Ok(self.thread.clone()),
        }
    }

    fn apply(&mut self, op: &Operation) -> Result<(&'static str, Pending)> {
        let mut config = self.config(&op.at)?;
        if op.durability.is_some() {
            if !matches!(op.op.as_str(), "invoke" | "resume") {
                return Err(Error::spec("durability belongs to invoke and resume"));
            }
            config.durability = op.durability;
        }
        match op.op.as_str() {
            "invoke" | "resume" => {
                let input = if op.op == "resume" {
                    RunInput::Command(Command::resume(op.value.clone()))
                } else {
                    RunInput::from(op.input.clone())
                };
                let output = self.graph.invoke(input, &config)?;
                let mut values = self.normalize(output.values.to_json());
                if !output.interrupts.is_empty() {
                    values[INTERRUPT] = output.interrupts.iter().map(|i| i.value.clone()).collect();
                }
                Ok(("result", Pending::Value(values)))
            }
            "update_state" => {
                let values = Some(op.values.clone()).filter(|v| !v.is_null());
                let returned = self
                    .graph
                    .update_state(&config, values, op.as_node.as_deref())?;
                if let Some(name) = &op.save {
                    self.saved.insert(name.clone(), returned.clone());
                }
                Ok(("checkpoint", Pending::Checkpoint(returned)))
            }
            "get_state" => {
                let snap = match op.subgraphs {
                    true => self.graph.get_state_subgraphs(&config)?,
                    false => self.graph.get_state(&config)?,
                };
                Ok(("snapshot", Pending::Snapshot(Box::new(snap))))
            }
            "history" => {
                let before = match &op.before {
                    Some(sel) => self.resolve(sel)?.checkpoint_id(),
                    None => None,
                };
                let options = ListOptions {
                    filter: op.filter.clone().unwrap_or_default().into_iter().collect(),
                    before,
                    limit: op.limit,
                };
                let history = self.graph.get_state_history(&config, &options)?;
                Ok(("history", Pending::History(history)))
            }
            other => Err(Error::spec(format!("unknown op {other:?}"))),
        }
    }

    /// The operation's record fields, labels filled in.
    fn finish(&self, (key, pending): (&'static str, Pending)) -> Result<Map<String, Value>> {
        let value = match pending {
            Pending::Value(v) => v,
            Pending::Snapshot(s) => self.snapshot(&s),
            Pending::History(h) => h.iter().map(|s| self.snapshot(s)).collect(),
            Pending::Checkpoint(c) => {
                self.label_of(&c.checkpoint_ns(), c.checkpoint_id().as_deref())
            }
        };
        let mut out = Map::new();
        out.insert(key.into(), value);
        Ok(out)
    }

    fn snapshot(&self, s: &StateSnapshot) -> Value {
        let ns = &s.config.checkpoint_ns;
        let mut out = Map::new();
        out.insert(
            "id".into(),
            self.label_of(ns, s.config.checkpoint_id.as_deref()),
        );
        if !ns.is_empty() {
            out.insert("ns".into(), Value::String(recast_checkpoint_ns(ns)));
        }
        out.insert(
            "parent".into(),
            self.label_of(
                ns,
                s.parent_config
                    .as_ref()
                    .and_then(|p| p.checkpoint_id.as_deref()),
            ),
        );
        out.insert("step".into(), json!(s.metadata.as_ref().map(|m| m.step)));
        out.insert(
            "source".into(),
            json!(s.metadata.as_ref().map(|m| m.source.as_str())),
        );
        out.insert("next".into(), json!(s.next));
        out.insert("values".into(), self.normalize(s.values.to_json()));
        let tasks = s
            .tasks
            .iter()
            .map(|t| {
                let mut task = Map::new();
                task.insert("name".into(), Value::String(t.name.clone()));
                task.insert(
                    "interrupts".into(),
                    t.interrupts.iter().map(|i| i.value.clone()).collect(),
                );
                if let Some(TaskState::Snapshot(sub)) = &t.state {
                    task.insert("state".into(), self.snapshot(sub));
                }
                Value::Object(task)
            })
            .collect();
        out.insert("tasks".into(), tasks);
        Value::Object(out)
    }

    /// Messages as the trace shows them: `{type, content}`, plus `id` only
    /// when the scenario gave it.
    fn normalize(&self, mut values: Value) -> Value {
        for key in &self.message_channels {
            if let Some(Value::Array(messages)) = values.get_mut(key) {
                for m in messages.iter_mut() {
                    let mut out = Map::new();
                    out.insert("type".into(), m.get("type").cloned().unwrap_or(Value::Null));
                    out.insert(
                        "content".into(),
                        m.get("content").cloned().unwrap_or(Value::Null),
                    );
                    if let Some(Value::String(id)) = m.get("id") {
                        if self.given_ids.contains(id) {
                            out.insert("id".into(), Value::String(id.clone()));
                        }
                    }
                    *m = Value::Object(out);
                }
            }
        }
        values
    }
}

/// One element of a subgraph checkpoint's sort key (lg_golden's `path`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum PathPart {
    Id(String),
    Index(usize),
}

/// Compares two traces as JSON values, errors by their first line only.
/// Returns a description of the first difference.
pub fn compare_traces(expected: &Value, actual: &Value) -> Option<String> {
    fn first_line(v: &Value) -> Value {
        match v {
            Value::String(s) => Value::String(s.lines().next().unwrap_or_default().to_owned()),
            other => other.clone(),
        }
    }
    fn walk(path: &str, e: &Value, a: &Value) -> Option<String> {
        match (e, a) {
            (Value::Object(em), Value::Object(am)) => {
                for k in em.keys().chain(am.keys()).collect::<BTreeSet<_>>() {
                    let p = format!("{path}.{k}");
                    let (ev, av) = (
                        em.get(k).unwrap_or(&Value::Null),
                        am.get(k).unwrap_or(&Value::Null),
                    );
                    if em.contains_key(k) != am.contains_key(k) {
                        return Some(format!("{p}: expected {ev}, got {av}"));
                    }
                    let diff = if k == "error" {
                        walk(&p, &first_line(ev), &first_line(av))
                    } else {
                        walk(&p, ev, av)
                    };
                    if diff.is_some() {
                        return diff;
                    }
                }
                None
            }
            (Value::Array(ea), Value::Array(aa)) => {
                if ea.len() != aa.len() {
                    return Some(format!(
                        "{path}: expected {} items, got {}: {a}",
                        ea.len(),
                        aa.len()
                    ));
                }
                ea.iter()
                    .zip(aa)
                    .enumerate()
                    .find_map(|(i, (x, y))| walk(&format!("{path}[{i}]"), x, y))
            }
            (Value::Number(x), Value::Number(y)) if x.as_f64() == y.as_f64() => None,
            _ if e == a => None,
            _ => Some(format!("{path}: expected {e}, got {a}")),
        }
    }
    walk("", expected, actual)
}
