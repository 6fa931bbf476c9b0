//! Scenario files (`tests/conformance/FORMAT.md`): a graph plus operations
//! on one thread, run to produce the trace LangGraph produced for them.
//! Used by the `conformance` example, the conformance tests (native and
//! wasm) and anything that wants to replay a documented session.

use crate::checkpoint::{InMemorySaver, ListOptions, ListTarget};
use crate::clock::ManualClock;
use crate::error::{Error, Result};
use crate::graph::{CompileOptions, CompiledGraph, GraphSpec};
use crate::state::StateSnapshot;
use crate::types::{Command, RunInput, RunnableConfig};
use crate::{CheckpointSaver, Reducer};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

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

/// Selects a checkpoint: `{"label": "c3"}`, `{"saved": NAME}` or `{"checkpoint_id": ID}`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selector {
    /// A creation-order label (`c0` is the thread's first checkpoint).
    #[serde(default)]
    pub label: Option<String>,
    /// A config kept by an earlier `update_state` with `save`.
    #[serde(default)]
    pub saved: Option<String>,
    /// A literal checkpoint id.
    #[serde(default)]
    pub checkpoint_id: Option<String>,
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
    #[serde(default)]
    pub as_node: Option<String>,
    /// The checkpoint the operation addresses (default: the thread).
    #[serde(default)]
    pub at: Option<Selector>,
    /// Name under which to keep the returned config.
    #[serde(default)]
    pub save: Option<String>,
    /// History limit.
    #[serde(default)]
    pub limit: Option<usize>,
    /// History upper bound (exclusive).
    #[serde(default)]
    pub before: Option<Selector>,
    /// History metadata filter.
    #[serde(default)]
    pub filter: Option<Map<String, Value>>,
    /// Record `"error": null` when the operation succeeds.
    #[serde(default)]
    pub expect_error: bool,
}

impl Scenario {
    /// Parses a scenario file; errors name the path of the bad field.
    pub fn parse(json: &str) -> Result<Scenario> {
        let de = &mut serde_json::Deserializer::from_str(json);
        serde_path_to_error::deserialize(de).map_err(crate::graph::spec_error)
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
        };
        let mut trace = Vec::new();
        for op in &self.ops {
            let mut record = Map::new();
            record.insert("op".into(), Value::String(op.op.clone()));
            match run.apply(op) {
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

struct Runner {
    graph: CompiledGraph,
    saver: Rc<InMemorySaver>,
    thread: RunnableConfig,
    thread_id: String,
    saved: HashMap<String, RunnableConfig>,
    given_ids: BTreeSet<String>,
}

impl Runner {
    /// Checkpoint id → `cN`, in creation (id) order.
    fn labels(&self) -> Result<BTreeMap<String, String>> {
        let mut ids: Vec<String> = self
            .saver
            .list(
                &ListTarget::thread(self.thread_id.clone()),
                &ListOptions::default(),
            )?
            .into_iter()
            .filter_map(|t| t.config.checkpoint_id)
            .collect();
        ids.sort();
        Ok(ids
            .into_iter()
            .enumerate()
            .map(|(i, id)| (id, format!("c{i}")))
            .collect())
    }

    fn label(labels: &BTreeMap<String, String>, id: Option<&str>) -> Value {
        match id {
            Some(id) => Value::String(labels.get(id).cloned().unwrap_or_else(|| id.to_owned())),
            None => Value::Null,
        }
    }

    fn resolve(&self, sel: &Selector) -> Result<RunnableConfig> {
        if let Some(name) = &sel.saved {
            return self
                .saved
                .get(name)
                .cloned()
                .ok_or_else(|| Error::spec(format!("no saved config named {name:?}")));
        }
        if let Some(id) = &sel.checkpoint_id {
            return Ok(self.thread.clone().at(id.clone()));
        }
        let label = sel.label.as_deref().unwrap_or_default();
        let id = self
            .labels()?
            .into_iter()
            .find(|(_, l)| l == label)
            .map(|(id, _)| id)
            .ok_or_else(|| Error::spec(format!("no checkpoint labelled {label:?}")))?;
        Ok(self.thread.clone().at(id))
    }

    fn config(&self, at: &Option<Selector>) -> Result<RunnableConfig> {
        match at {
            Some(sel) => self.resolve(sel),
            None => Ok(self.thread.clone()),
        }
    }

    fn apply(&mut self, op: &Operation) -> Result<Map<String, Value>> {
        let config = self.config(&op.at)?;
        let mut out = Map::new();
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
                    values["__interrupt__"] =
                        output.interrupts.iter().map(|i| i.value.clone()).collect();
                }
                out.insert("result".into(), values);
            }
            "update_state" => {
                let values = Some(op.values.clone()).filter(|v| !v.is_null());
                let returned = self
                    .graph
                    .update_state(&config, values, op.as_node.as_deref())?;
                let labels = self.labels()?;
                out.insert(
                    "checkpoint".into(),
                    Self::label(&labels, returned.checkpoint_id().as_deref()),
                );
                if let Some(name) = &op.save {
                    self.saved.insert(name.clone(), returned);
                }
            }
            "get_state" => {
                let snap = self.graph.get_state(&config)?;
                let labels = self.labels()?;
                out.insert("snapshot".into(), self.snapshot(&snap, &labels));
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
                let labels = self.labels()?;
                out.insert(
                    "history".into(),
                    history.iter().map(|s| self.snapshot(s, &labels)).collect(),
                );
            }
            other => return Err(Error::spec(format!("unknown op {other:?}"))),
        }
        Ok(out)
    }

    fn snapshot(&self, s: &StateSnapshot, labels: &BTreeMap<String, String>) -> Value {
        json!({
            "id": Self::label(labels, s.config.checkpoint_id.as_deref()),
            "parent": Self::label(labels, s.parent_config.as_ref().and_then(|p| p.checkpoint_id.as_deref())),
            "step": s.metadata.as_ref().map(|m| m.step),
            "source": s.metadata.as_ref().map(|m| m.source.as_str()),
            "next": s.next,
            "values": self.normalize(s.values.to_json()),
            "tasks": s.tasks.iter().map(|t| json!({
                "name": t.name,
                "interrupts": t.interrupts.iter().map(|i| i.value.clone()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    }

    /// Messages as the trace shows them: `{type, content}`, plus `id` only
    /// when the scenario gave it.
    fn normalize(&self, mut values: Value) -> Value {
        for (key, reducer) in self.graph.channels() {
            if !matches!(reducer, Reducer::AddMessages) {
                continue;
            }
            if let Some(Value::Array(messages)) = values.get_mut(&key) {
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
