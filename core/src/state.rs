//! The state API (LangGraph `Pregel.get_state`, `get_state_history`,
//! `bulk_update_state`) plus [`lineage`], the parent walk a branch view needs.

use crate::checkpoint::{
    Checkpoint, CheckpointConfig, CheckpointMetadata, CheckpointSaver, CheckpointTuple,
    ListOptions, ListTarget, PendingWrite, Source, Version, NULL_TASK_ID,
};
use crate::clock::IdGenerator;
use crate::error::{Error, Result};
use crate::graph::{GraphInner, State};
use crate::pregel::algo::{self, Task};
use crate::pregel::write::node_writes;
use crate::reserved::recast_checkpoint_ns;
use crate::types::{Interrupt, NodeOutput, RunnableConfig, COPY, END, INPUT, START};
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
}

/// LangGraph's `patch_checkpoint_map`: a config with its checkpoint's
/// `parents` plus itself as `checkpoint_map` (nothing at the root).
pub(crate) fn config_with_map(
    config: &CheckpointConfig,
    metadata: Option<&CheckpointMetadata>,
) -> RunnableConfig {
    let mut out =
        RunnableConfig::thread(config.thread_id.clone()).in_namespace(config.checkpoint_ns.clone());
    if let Some(id) = &config.checkpoint_id {
        out = out.at(id.clone());
    }
    if let Some(parents) = metadata.map(|m| &m.parents).filter(|p| !p.is_empty()) {
        let mut map = parents.clone();
        if let Some(id) = &config.checkpoint_id {
            map.insert(config.checkpoint_ns.clone(), id.clone());
        }
        out = out.with_checkpoint_map(&map);
    }
    out
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
        for level in recast.split('|') {
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

/// A version function for reads, which must not advance the saver's counter.
fn read_version(current: Option<Version>) -> Version {
    Version {
        counter: current.map_or(0, |v| v.counter) + 1,
        salt: u64::MAX,
    }
}

/// Builds the snapshot of a stored checkpoint. `live` applies the outputs
/// of tasks that already finished and leaves them out of `next`.
pub(crate) fn snapshot(
    scope: &Scope,
    t: CheckpointTuple,
    live: bool,
    recurse: bool,
) -> Result<StateSnapshot> {
    let graph = scope.graph;
    let step = t.metadata.step + 1;
    let mut tasks = algo::prepare_next_tasks(graph, &t.checkpoint, &t.config.checkpoint_ns, step);
    let created_at = t.checkpoint.ts.clone();
    let mut cp = with_null_writes(
        graph,
        &scope.ids,
        t.checkpoint,
        &t.pending_writes,
        &read_version,
    )?;
    algo::match_writes(&mut tasks, &t.pending_writes);
    if live {
        let mut finished: Vec<Task> = tasks.iter().filter(|t| t.is_finished()).cloned().collect();
        if !finished.is_empty() {
            algo::apply_writes_in_place(graph, &scope.ids, &mut cp, &mut finished, &read_version)?;
        }
    }
    let mut out_tasks = Vec::with_capacity(tasks.len());
    let mut interrupts = Vec::new();
    for task in &tasks {
        let rows = t.pending_writes.iter().filter(|w| w.task_id == task.id);
        let error = rows.clone().rfind(|w| w.channel == "__error__").map(|w| {
            w.value
                .as_str()
                .map_or_else(|| w.value.to_string(), str::to_owned)
        });
        let mut raised: Vec<Interrupt> = rows
            .clone()
            .rfind(|w| w.channel == "__interrupt__")
            .and_then(|w| serde_json::from_value(w.value.clone()).ok())
            .unwrap_or_default();
        let done = task.is_finished();
        if live && done {
            raised.clear();
        }
        interrupts.extend(raised.iter().cloned());
        out_tasks.push(PregelTask {
            id: task.id.clone(),
            name: String::from(&*task.name),
            path: String::from(&*task.path),
            error,
            interrupts: raised,
            result: done.then(|| task_result(graph, task)),
            state: subgraph_state(scope, &t.config, task, recurse)?,
        });
    }
    let next = tasks
        .iter()
        .filter(|t| !live || !t.is_finished())
        .map(|t| String::from(&*t.name))
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
    let nulls = null_writes(pending);
    if nulls.is_empty() {
        return Ok(cp);
    }
    let mut input = [Task::pseudo("__input__", nulls)];
    algo::apply_writes_in_place(graph, ids, &mut cp, &mut input, next_version)?;
    Ok(cp)
}

fn null_writes(pending: &[PendingWrite]) -> Vec<(String, Value)> {
    pending
        .iter()
        .filter(|w| w.task_id == NULL_TASK_ID)
        .map(|w| (w.channel.clone(), w.value.clone()))
        .collect()
}

/// A finished task's state writes, as LangGraph's `task.result`, keys in
/// the order the task wrote them (a dict in LangGraph, an object in LangGraph.js).
fn task_result(graph: &GraphInner, task: &Task) -> Value {
    let mut grouped: indexmap::IndexMap<&str, Vec<&Value>> = indexmap::IndexMap::new();
    for (c, v) in &task.writes {
        if graph.is_state_key(c) {
            grouped.entry(c).or_default().push(v);
        }
    }
    Value::Object(
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
    )
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

/// `bulk_update_state`: each superstep's updates applied on the previous
/// result; a subgraph's namespace updates that subgraph's checkpoints.
pub(crate) async fn bulk_update_state(
    root: &GraphInner,
    config: &RunnableConfig,
    supersteps: Vec<Vec<StateUpdate>>,
) -> Result<RunnableConfig> {
    let root = Scope::root(root)?;
    if supersteps.is_empty() {
        return Err(Error::value("No supersteps provided"));
    }
    if supersteps.iter().any(Vec::is_empty) {
        return Err(Error::value("No updates provided"));
    }
    let scope = root.for_config(config, true)?;
    let mut current = config.clone();
    for (i, updates) in supersteps.into_iter().enumerate() {
        current = Box::pin(superstep(&scope, &current, updates, i == 0)).await?;
    }
    Ok(current)
}

/// The checkpoint an update works on, and where its result goes.
struct Base {
    saved: Option<CheckpointTuple>,
    superseded: bool,
    checkpoint: Checkpoint,
    step: i64,
    parent_id: Option<String>,
    thread: CheckpointConfig,
}

impl Base {
    fn load(scope: &Scope, config: &RunnableConfig) -> Result<Base> {
        let saver = &scope.saver;
        let addr = config.checkpoint_config()?;
        let saved = saver.get_tuple(&addr)?;
        let thread = CheckpointConfig {
            checkpoint_id: None,
            ..addr.clone()
        };
        let superseded = match &saved {
            Some(s) => {
                saver.get_tuple(&thread)?.map(|l| l.checkpoint.id) != Some(s.checkpoint.id.clone())
            }
            None => false,
        };
        let (mut checkpoint, step, parent_id) = match &saved {
            Some(s) => (
                s.checkpoint.clone(),
                s.metadata.step,
                Some(s.checkpoint.id.clone()),
            ),
            None => {
                let (id, ts) = scope.ids.checkpoint_id(-2);
                (Checkpoint::empty(id, ts), -1, addr.checkpoint_id.clone())
            }
        };
        scope.graph.fill_defaults(&mut checkpoint);
        Ok(Base {
            saved,
            superseded,
            checkpoint,
            step,
            parent_id,
            thread,
        })
    }

    /// Saves `checkpoint` as a new checkpoint under `parent`.
    #[allow(clippy::too_many_arguments)]
    fn save(
        &self,
        scope: &Scope,
        config: &RunnableConfig,
        mut checkpoint: Checkpoint,
        parent: Option<String>,
        source: Source,
        step: i64,
        clock_seq: i64,
    ) -> Result<RunnableConfig> {
        let saver = &scope.saver;
        let (id, ts) = scope.ids.checkpoint_id(clock_seq);
        checkpoint.id = id;
        checkpoint.ts = ts;
        checkpoint.updated_channels = None;
        let before = &self.checkpoint.channel_versions;
        let new_versions = checkpoint
            .channel_versions
            .iter()
            .filter(|(c, v)| before.get(*c) != Some(*v) || self.saved.is_none())
            .map(|(c, v)| (c.clone(), *v))
            .collect();
        let metadata = CheckpointMetadata {
            source,
            step,
            parents: self
                .saved
                .as_ref()
                .map(|s| s.metadata.parents.clone())
                .unwrap_or_default(),
            extra: config.metadata_extras(),
        };
        let parent = CheckpointConfig {
            checkpoint_id: parent,
            ..self.thread.clone()
        };
        let saved = saver.put(&parent, &checkpoint, metadata.clone(), &new_versions)?;
        Ok(config_with_map(&saved, Some(&metadata)))
    }
}

/// One superstep of `bulk_update_state` (LangGraph `perform_superstep`).
async fn superstep(
    scope: &Scope<'_>,
    config: &RunnableConfig,
    updates: Vec<StateUpdate>,
    first: bool,
) -> Result<RunnableConfig> {
    let graph = scope.graph;
    let base = Base::load(scope, config)?;
    let saver = &scope.saver;
    let next_version = |v: Option<Version>| saver.get_next_version(v);
    let head = &updates[0];
    match (head.values.as_ref(), head.as_node.as_deref()) {
        (None, Some(END)) => {
            if updates.len() > 1 {
                return Err(Error::invalid_update(
                    "Cannot apply multiple updates when clearing state",
                ));
            }
            let mut cp = base.checkpoint.clone();
            if let Some(saved) = &base.saved {
                let mut tasks =
                    algo::prepare_next_tasks(graph, &cp, &base.thread.checkpoint_ns, base.step + 1);
                cp = with_null_writes(graph, &scope.ids, cp, &saved.pending_writes, &next_version)?;
                algo::match_writes(&mut tasks, &saved.pending_writes);
                cp = algo::apply_writes(graph, &scope.ids, &cp, &tasks, &next_version)?.0;
            }
            base.save(
                scope,
                config,
                cp,
                base.parent_id.clone(),
                Source::Update,
                base.step + 1,
                base.step,
            )
        }
        (values, Some(INPUT)) => {
            if updates.len() > 1 {
                return Err(Error::invalid_update(
                    "Cannot apply multiple updates when updating as input",
                ));
            }
            // LangGraph's `map_input(START, values)`: a StateGraph's input
            // channel is `__start__` itself, so any value but None is input.
            let Some(values) = values else {
                return Err(Error::invalid_update(
                    "Received no input writes for __start__",
                ));
            };
            let writes = vec![(START.to_owned(), values.clone())];
            let (cp, _) = algo::apply_writes(
                graph,
                &scope.ids,
                &base.checkpoint,
                &[Task::pseudo(INPUT, writes.clone())],
                &next_version,
            )?;
            if let (Some(saved), false) = (&base.saved, base.superseded) {
                let id = algo::derived_id(&saved.checkpoint.id, INPUT);
                saver.put_writes(&saved.config, &writes, &id, "")?;
            }
            let step = if base.saved.is_some() {
                base.step + 1
            } else {
                -1
            };
            base.save(
                scope,
                config,
                cp,
                base.parent_id.clone(),
                Source::Input,
                step,
                step,
            )
        }
        (values, Some(COPY)) => {
            if updates.len() > 1 {
                return Err(Error::invalid_update(
                    "Cannot copy checkpoint with multiple updates",
                ));
            }
            let Some(saved) = &base.saved else {
                return Err(Error::invalid_update(
                    "Cannot copy a non-existent checkpoint",
                ));
            };
            let parent = saved
                .parent_config
                .as_ref()
                .and_then(|p| p.checkpoint_id.clone());
            let copy = base.save(
                scope,
                config,
                base.checkpoint.clone(),
                parent,
                Source::Fork,
                base.step + 1,
                base.step,
            )?;
            match values {
                None => Ok(copy),
                Some(Value::Array(items)) => {
                    // LangGraph groups the pairs by node (in order of first
                    // appearance) before applying them; that order is the
                    // order reducers see the values in.
                    let mut pairs: Vec<StateUpdate> = Vec::with_capacity(items.len());
                    for item in items {
                        match item {
                            Value::Array(pair) if pair.len() >= 2 => {
                                let update = StateUpdate {
                                    values: Some(pair[0].clone()).filter(|v| !v.is_null()),
                                    as_node: pair[1].as_str().map(str::to_owned),
                                    task_id: None,
                                };
                                match pairs.iter().rposition(|p| p.as_node == update.as_node) {
                                    Some(last) => pairs.insert(last + 1, update),
                                    None => pairs.push(update),
                                }
                            }
                            other => {
                                return Err(Error::invalid_update(format!(
                                    "Invalid update item: {} when copying checkpoint",
                                    crate::channels::py_repr(other)
                                )))
                            }
                        }
                    }
                    if pairs.is_empty() {
                        return Ok(copy);
                    }
                    Box::pin(superstep(scope, &copy, pairs, false)).await
                }
                Some(other) => Err(Error::invalid_update(format!(
                    "Invalid update item: {} when copying checkpoint",
                    crate::channels::py_repr(other)
                ))),
            }
        }
        _ => node_update(scope, config, &base, updates, first).await,
    }
}

/// A regular update: each update runs its node's writers on the base state.
async fn node_update(
    scope: &Scope<'_>,
    config: &RunnableConfig,
    base: &Base,
    updates: Vec<StateUpdate>,
    first: bool,
) -> Result<RunnableConfig> {
    let graph = scope.graph;
    let saver = &scope.saver;
    let many = updates.len() > 1;
    let pending_tasks = algo::prepare_next_tasks(
        graph,
        &base.checkpoint,
        &base.thread.checkpoint_ns,
        base.step + 1,
    );
    let mut used: Vec<String> = Vec::new();
    let state = graph.read_state(&base.checkpoint);
    let mut tasks = Vec::with_capacity(updates.len());
    for (i, update) in updates.into_iter().enumerate() {
        let as_node = match update.as_node {
            Some(n) => n,
            None if many => {
                return Err(Error::invalid_update(
                    "as_node is required when applying multiple updates",
                ))
            }
            None => infer_as_node(graph, &base.checkpoint)?,
        };
        let Some(node) = graph.nodes.get(&as_node) else {
            return Err(Error::invalid_update(format!(
                "Node {as_node} does not exist"
            )));
        };
        let id = update.task_id.clone().unwrap_or_else(|| {
            match pending_tasks
                .iter()
                .find(|t| *t.name == *as_node && !used.contains(&t.id))
            {
                Some(t) => t.id.clone(),
                None => {
                    let name = if i == 0 {
                        "__interrupt__".to_owned()
                    } else {
                        format!("__interrupt__:{i}")
                    };
                    algo::derived_id(&base.checkpoint.id, &name)
                }
            }
        });
        used.push(id.clone());
        let writes = node_writes(
            graph,
            node,
            NodeOutput::Update(update.values.unwrap_or(Value::Null)),
            &state,
        )
        .await?;
        tasks.push(Task {
            id,
            name: as_node.into(),
            path: format!("~__interrupt__, {i:010}").into(),
            triggers: vec!["__interrupt__".into()],
            writes,
            arg: None,
        });
    }
    let (cp, _) = algo::apply_writes(graph, &scope.ids, &base.checkpoint, &tasks, &|v| {
        saver.get_next_version(v)
    })?;
    if let (true, Some(saved), false) = (first, &base.saved, base.superseded) {
        for task in &tasks {
            saver.put_writes(&saved.config, &task.writes, &task.id, &task.path)?;
        }
    }
    let step = base.step + 1;
    base.save(
        scope,
        config,
        cp,
        base.parent_id.clone(),
        Source::Update,
        step,
        step,
    )
}

/// LangGraph's `as_node` inference: the node that last wrote, `__start__`
/// on a thread where no node has run, ambiguous on a tie.
fn infer_as_node(graph: &GraphInner, checkpoint: &Checkpoint) -> Result<String> {
    if graph.nodes.len() == 1 {
        return Ok(graph.nodes.keys().next().cloned().unwrap_or_default());
    }
    if checkpoint
        .versions_seen
        .values()
        .all(|seen| seen.is_empty())
    {
        return Ok(START.to_owned());
    }
    let mut last: Vec<(Version, &str)> = checkpoint
        .versions_seen
        .iter()
        .filter(|(n, _)| graph.nodes.contains_key(&***n))
        .flat_map(|(n, seen)| seen.values().map(move |v| (*v, &**n)))
        .collect();
    last.sort();
    match last.as_slice() {
        [] => {}
        [(_, n)] => return Ok((*n).to_owned()),
        [.., (a, _), (b, n)] if a != b => return Ok((*n).to_owned()),
        _ => {}
    }
    Err(Error::invalid_update("Ambiguous update, specify as_node"))
}
