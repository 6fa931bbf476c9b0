//! The state API (LangGraph `Pregel.get_state`, `get_state_history`,
//! `bulk_update_state`) plus [`lineage`], the parent walk a branch view needs.
//! Updates, one function per `as_node` rule, are in [`update`].

mod update;

pub(crate) use update::bulk_update_state;

use crate::checkpoint::{
    Checkpoint, CheckpointConfig, CheckpointMetadata, CheckpointSaver, CheckpointTuple,
    ListOptions, ListTarget, PendingWrite, Version,
};
use crate::checkpoint_ns::{self, config_with_map, recast_checkpoint_ns};
use crate::clock::IdGenerator;
use crate::error::{Error, Result};
use crate::graph::{GraphInner, State};
use crate::pregel::algo::{self, Task};
use crate::reserved::{ERROR, ERROR_SOURCE_NODE, INTERRUPT, RESUME};
use crate::types::{Interrupt, RunnableConfig, INPUT};
use serde_json::{Map, Value};
use std::rc::Rc;

/// A task a checkpoint schedules, as a snapshot shows it (`PregelTask`).
#[derive(Clone, Debug, PartialEq)]
pub struct PregelTask {
    /// Task id.
    pub id: String,
    /// Node name.
    pub name: String,
    /// `~__pregel_pull, NAME`.
    pub path: String,
    /// The stored error (`repr` text), if the task failed.
    pub error: Option<String>,
    /// Interrupts the task raised.
    pub interrupts: Vec<Interrupt>,
    /// For a finished task: its state writes (`{"$writes": [...]}` for a
    /// key written more than once); `None` while unfinished.
    pub result: Option<Value>,
    /// For a task that runs a subgraph: where its checkpoints are (the
    /// namespace), or with `subgraphs: true` that namespace's newest snapshot.
    pub state: Option<TaskState>,
}

/// What a snapshot says about the subgraph a task runs.
#[derive(Clone, Debug, PartialEq)]
pub enum TaskState {
    /// The task's namespace, without a checkpoint id (reads like a thread).
    Config(CheckpointConfig),
    /// The newest snapshot in the task's namespace (`get_state(subgraphs=True)`).
    Snapshot(Box<StateSnapshot>),
}

/// The state of a thread at one checkpoint (LangGraph `StateSnapshot`).
#[derive(Clone, Debug, PartialEq)]
pub struct StateSnapshot {
    /// State values. Converted to JSON only when read (`values.to_json()`).
    pub values: State,
    /// Nodes that run next.
    pub next: Vec<String>,
    /// The checkpoint's address.
    pub config: CheckpointConfig,
    /// Its metadata (`None` for a missing checkpoint).
    pub metadata: Option<CheckpointMetadata>,
    /// Its timestamp.
    pub created_at: Option<String>,
    /// The parent's address.
    pub parent_config: Option<CheckpointConfig>,
    /// Tasks scheduled from this checkpoint.
    pub tasks: Vec<PregelTask>,
    /// Every interrupt of `tasks`, flattened.
    pub interrupts: Vec<Interrupt>,
}

impl StateSnapshot {
    /// The config that addresses this snapshot, as LangGraph gives it:
    /// thread, namespace, checkpoint id and, for a subgraph checkpoint,
    /// `checkpoint_map` (its ancestors' checkpoints plus its own).
    pub fn runnable_config(&self) -> RunnableConfig {
        config_with_map(&self.config, self.metadata.as_ref())
    }

    fn missing(config: CheckpointConfig) -> Self {
        StateSnapshot {
            values: State::default(),
            next: Vec::new(),
            config,
            metadata: None,
            created_at: None,
            parent_config: None,
            tasks: Vec::new(),
            interrupts: Vec::new(),
        }
    }
}

/// An update for [`CompiledGraph::bulk_update_state`](crate::CompiledGraph::bulk_update_state) (LangGraph `StateUpdate`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StateUpdate {
    /// Values, as if the node had returned them (`None`: no state writes).
    pub values: Option<Value>,
    /// The node the update is written as; inferred when `None`.
    pub as_node: Option<String>,
    /// Reuse this task id.
    pub task_id: Option<String>,
    /// Where the update goes next, as a `Command` given as the update's
    /// values does (LangGraph's `update_state(config, Command(update=...,
    /// goto=...))`): node names or `Send`s, written as the node's writers
    /// write a returned `Command`'s goto. `values` is then its update.
    pub goto: Vec<crate::types::Goto>,
}

/// The graph a state call works on (the root, or the subgraph a
/// namespaced config addresses), with the root's saver and id generator.
pub(crate) struct Scope<'g> {
    pub graph: &'g GraphInner,
    pub saver: Rc<dyn CheckpointSaver>,
    pub ids: Rc<IdGenerator>,
}

impl<'g> Scope<'g> {
    /// The root graph's scope, or LangGraph's "No checkpointer set".
    pub(crate) fn root(graph: &'g GraphInner) -> Result<Self> {
        Ok(Scope {
            graph,
            saver: graph.saver()?.clone(),
            ids: graph.ids.clone(),
        })
    }

    /// The subgraph at `recast` (`outer|inner`, no task ids), if this graph has it.
    fn subgraph(&self, recast: &str) -> Option<Scope<'g>> {
        let mut graph = self.graph;
        for level in checkpoint_ns::levels(recast) {
            graph = &graph.nodes.get(level)?.action.as_ref()?.subgraph()?.inner;
        }
        Some(Scope {
            graph,
            saver: self.saver.clone(),
            ids: self.ids.clone(),
        })
    }

    /// The scope a config addresses (LangGraph's `_subgraph_for_namespace`):
    /// a namespace names a subgraph by its levels with task ids stripped; a
    /// namespace that names none reads with this graph's channels, and is
    /// an error for an update.
    pub(crate) fn for_config(
        &self,
        config: &RunnableConfig,
        for_update: bool,
    ) -> Result<Scope<'g>> {
        let ns = config.checkpoint_ns();
        if ns.is_empty() {
            return Ok(self.same());
        }
        let recast = recast_checkpoint_ns(&ns);
        match self.subgraph(&recast) {
            Some(scope) => Ok(scope),
            None if for_update => Err(Error::value(format!("Subgraph {recast} not found"))),
            None => Ok(self.same()),
        }
    }

    fn same(&self) -> Scope<'g> {
        Scope {
            graph: self.graph,
            saver: self.saver.clone(),
            ids: self.ids.clone(),
        }
    }
}

/// Builds the snapshot of a stored checkpoint. `live` applies the outputs
/// of tasks that already finished and leaves them out of `next`.
pub(crate) fn snapshot(
    scope: &Scope,
    mut t: CheckpointTuple,
    live: bool,
    recurse: bool,
) -> Result<StateSnapshot> {
    let graph = scope.graph;
    let step = t.metadata.step + 1;
    graph.restore(&mut t.checkpoint);
    let mut tasks = algo::prepare_next_tasks(graph, &t.checkpoint, &t.config.checkpoint_ns, step);
    let created_at = t.checkpoint.ts.clone();
    let mut cp = with_null_writes(
        graph,
        &scope.ids,
        t.checkpoint,
        &t.pending_writes,
        &algo::read_version,
    )?;
    algo::match_writes(&mut tasks, &t.pending_writes);
    if live {
        let mut finished: Vec<Task> = tasks.iter().filter(|t| t.is_finished()).cloned().collect();
        if !finished.is_empty() {
            algo::apply_writes_in_place(
                graph,
                &scope.ids,
                &mut cp,
                &mut finished,
                &algo::read_version,
            )?;
        }
    }
    let mut out_tasks = Vec::with_capacity(tasks.len());
    let mut interrupts = Vec::new();
    for task in &tasks {
        let mut described = describe_task(graph, task, &t.pending_writes);
        if live && task.is_finished() {
            described.interrupts.clear();
        }
        interrupts.extend(described.interrupts.iter().cloned());
        described.state = subgraph_state(scope, &t.config, task, recurse)?;
        out_tasks.push(described);
    }
    // LangGraph.js reads a failure its error handler took as the task's end.
    let handled = |task: &Task| {
        graph.semantics.error_handlers_as_js
            && t.pending_writes
                .iter()
                .any(|w| w.task_id == task.id && w.channel == ERROR_SOURCE_NODE)
    };
    // LangGraph.js also counts a paused task's stored resume value as a write.
    let resumed = |task: &Task| {
        graph.semantics.resumed_not_next
            && t.pending_writes
                .iter()
                .any(|w| w.task_id == task.id && w.channel == RESUME)
    };
    let next = tasks
        .iter()
        .filter(|task| !live || !(task.is_finished() || handled(task) || resumed(task)))
        .map(|task| String::from(&*task.name))
        .collect();
    Ok(StateSnapshot {
        values: graph.read_state(&cp),
        next,
        config: t.config,
        metadata: Some(t.metadata),
        created_at: Some(created_at),
        parent_config: t.parent_config,
        tasks: out_tasks,
        interrupts,
    })
}

/// A scheduled task as a snapshot (or a `checkpoints` stream event) shows
/// it, from the writes stored for it so far: its error, its interrupts,
/// and its result once it finished. `state` is left for the caller.
pub(crate) fn describe_task(
    graph: &GraphInner,
    task: &Task,
    pending: &[PendingWrite],
) -> PregelTask {
    let rows = pending.iter().filter(|w| w.task_id == task.id);
    let error = rows.clone().rfind(|w| w.channel == ERROR).map(|w| {
        w.value
            .as_str()
            .map_or_else(|| w.value.to_string(), str::to_owned)
    });
    let interrupts: Vec<Interrupt> = rows
        .clone()
        .rfind(|w| w.channel == INTERRUPT)
        .and_then(|w| serde_json::from_value(w.value.clone()).ok())
        .unwrap_or_default();
    PregelTask {
        id: task.id.clone(),
        name: String::from(&*task.name),
        path: String::from(&*task.path),
        error,
        interrupts,
        result: task
            .is_finished()
            .then(|| task_result(graph, task))
            .flatten(),
        state: None,
    }
}

/// What a snapshot shows of the subgraph `task` runs: its namespace, or
/// (`recurse`) that namespace's newest snapshot, nested to any depth.
fn subgraph_state(
    scope: &Scope,
    at: &CheckpointConfig,
    task: &Task,
    recurse: bool,
) -> Result<Option<TaskState>> {
    let Some(sub) = scope
        .graph
        .nodes
        .get(&*task.name)
        .and_then(|n| n.action.as_ref())
        .and_then(|a| a.subgraph())
    else {
        return Ok(None);
    };
    let ns = sub
        .inner
        .subgraph_ns(&at.checkpoint_ns, &task.name, &task.id);
    let config = CheckpointConfig {
        thread_id: at.thread_id.clone(),
        checkpoint_ns: ns,
        checkpoint_id: None,
    };
    if !recurse {
        return Ok(Some(TaskState::Config(config)));
    }
    let sub_scope = Scope {
        graph: &sub.inner,
        saver: scope.saver.clone(),
        ids: scope.ids.clone(),
    };
    let snap = match scope.saver.get_tuple(&config)? {
        Some(t) => snapshot(&sub_scope, t, true, true)?,
        None => StateSnapshot::missing(config),
    };
    Ok(Some(TaskState::Snapshot(Box::new(snap))))
}

/// `cp` with the stored NULL_TASK_ID writes (a `Command`'s update, goto,
/// resume) applied, as both snapshots and the END-clear update see it.
fn with_null_writes(
    graph: &GraphInner,
    ids: &IdGenerator,
    mut cp: Checkpoint,
    pending: &[PendingWrite],
    next_version: &dyn Fn(Option<Version>) -> Version,
) -> Result<Checkpoint> {
    let nulls = algo::null_writes(pending);
    if nulls.is_empty() {
        return Ok(cp);
    }
    let mut input = [Task::pseudo(INPUT, nulls)];
    algo::apply_writes_in_place(graph, ids, &mut cp, &mut input, next_version)?;
    Ok(cp)
}

/// A finished task's state writes, as LangGraph's `task.result`, keys in
/// the order the task wrote them (a dict in LangGraph, an object in LangGraph.js);
/// a called task's return value; for a [`Pregel`](crate::Pregel) graph that
/// streams one channel, the value the task wrote to it (`None`: none).
fn task_result(graph: &GraphInner, task: &Task) -> Option<Value> {
    let written = |channel: &str| {
        task.writes
            .iter()
            .find(|(c, _)| c == channel)
            .map(|(_, v)| v.clone())
    };
    if let Some(value) = written(crate::reserved::RETURN) {
        return Some(value);
    }
    if let Some(crate::graph::Channels::One(channel)) = graph.pregel.as_ref().map(|p| &p.stream) {
        return written(channel);
    }
    let mut grouped: indexmap::IndexMap<&str, Vec<&Value>> = indexmap::IndexMap::new();
    for (c, v) in &task.writes {
        if graph.shows_write(c) {
            grouped.entry(c).or_default().push(v);
        }
    }
    Some(Value::Object(
        grouped
            .into_iter()
            .map(|(k, vs)| {
                let v = if vs.len() == 1 {
                    vs[0].clone()
                } else {
                    serde_json::json!({ "$writes": vs })
                };
                (k.to_owned(), v)
            })
            .collect::<Map<_, _>>(),
    ))
}

/// `get_state` (`subgraphs`: nest each subgraph task's newest snapshot).
pub(crate) fn get_state(
    root: &GraphInner,
    config: &RunnableConfig,
    subgraphs: bool,
) -> Result<StateSnapshot> {
    let scope = Scope::root(root)?.for_config(config, false)?;
    let addr = config.checkpoint_config()?;
    match scope.saver.get_tuple(&addr)? {
        Some(t) => snapshot(&scope, t, !config.has_checkpoint_id_key(), subgraphs),
        None => Ok(StateSnapshot::missing(addr)),
    }
}

/// `get_state_history`: newest first, one namespace, never live.
pub(crate) fn get_state_history(
    root: &GraphInner,
    config: &RunnableConfig,
    options: &ListOptions,
) -> Result<Vec<StateSnapshot>> {
    let scope = Scope::root(root)?.for_config(config, false)?;
    let addr = config.checkpoint_config()?;
    scope
        .saver
        .list(&ListTarget::from(&addr), options)?
        .into_iter()
        .map(|t| snapshot(&scope, t, false, false))
        .collect()
}

/// The addressed checkpoint (or the latest) and its ancestors, child first.
pub(crate) fn lineage(root: &GraphInner, config: &RunnableConfig) -> Result<Vec<StateSnapshot>> {
    let scope = Scope::root(root)?.for_config(config, false)?;
    let saver = scope.saver.clone();
    let addr = config.checkpoint_config()?;
    let Some(mut t) = saver.get_tuple(&addr)? else {
        return match &addr.checkpoint_id {
            Some(id) => Err(Error::value(format!("Checkpoint {id} not found"))
                .with_code("CHECKPOINT_NOT_FOUND")),
            None => Ok(Vec::new()),
        };
    };
    let mut out = Vec::new();
    loop {
        let parent = t.parent_config.clone();
        out.push(snapshot(&scope, t, false, false)?);
        let Some(parent) = parent else {
            break;
        };
        match saver.get_tuple(&parent)? {
            Some(p) => t = p,
            None => break,
        }
    }
    Ok(out)
}
