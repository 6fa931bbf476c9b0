//! `update_state` / `bulk_update_state` (LangGraph `Pregel.bulk_update_state`
//! and its `perform_superstep`): a write to a thread's state as if a node
//! had run, saved as a new checkpoint.
//!
//! What an update does depends on its `as_node`, one function per rule:
//!
//! | `as_node`           | rule                                      | function          |
//! |---------------------|-------------------------------------------|-------------------|
//! | `__end__`, no values| run nothing, apply the pending tasks' stored writes: the thread ends | [`clear_as_end`] |
//! | `__input__`         | the values are new input (`__start__`)    | [`update_as_input`] |
//! | `__copy__`          | a sibling copy of the checkpoint, then optional updates on it | [`copy_checkpoint`] |
//! | a node (or inferred)| the node's writers run on the values      | [`update_as_nodes`] |

use super::{config_with_map, with_null_writes, Scope, StateUpdate};
use crate::channels::py_repr;
use crate::checkpoint::{
    ChannelVersions, Checkpoint, CheckpointConfig, CheckpointMetadata, CheckpointTuple, Name,
    Source, Version,
};
use crate::error::{Error, Result};
use crate::graph::Channels;
use crate::graph::GraphInner;
use crate::pregel::algo::{self, Task};
use crate::pregel::delta::DeltaCounters;
use crate::pregel::r#loop::map_input;
use crate::pregel::write::{node_writes, pregel_writes};
use crate::reserved::INTERRUPT;
use crate::types::{Command, NodeOutput, RunnableConfig, COPY, END, INPUT, START};
use serde_json::Value;

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

/// One superstep of `bulk_update_state` (LangGraph `perform_superstep`):
/// the first update's `as_node` picks the rule (see the module docs).
async fn superstep(
    scope: &Scope<'_>,
    config: &RunnableConfig,
    updates: Vec<StateUpdate>,
    first: bool,
) -> Result<RunnableConfig> {
    let base = Base::load(scope, config)?;
    let head = &updates[0];
    match (head.values.as_ref(), head.as_node.as_deref()) {
        (None, Some(END)) => clear_as_end(scope, config, &base, &updates),
        (_, Some(INPUT)) => update_as_input(scope, config, &base, &updates),
        (_, Some(COPY)) => copy_checkpoint(scope, config, &base, &updates).await,
        _ => update_as_nodes(scope, config, &base, updates, first).await,
    }
}

/// The one update of a rule that takes no company, or LangGraph's `error`.
fn only<'u>(updates: &'u [StateUpdate], error: &str) -> Result<&'u StateUpdate> {
    match updates {
        [one] => Ok(one),
        _ => Err(Error::invalid_update(error)),
    }
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
        scope.graph.adopt(&mut checkpoint);
        Ok(Base {
            saved,
            superseded,
            checkpoint,
            step,
            parent_id,
            thread,
        })
    }

    /// Saves `checkpoint` as an `update` checkpoint, a child of the base,
    /// at the next step (its id drawn with clock sequence `clock_seq`).
    fn save_update(
        &self,
        scope: &Scope,
        config: &RunnableConfig,
        checkpoint: Checkpoint,
        clock_seq: i64,
    ) -> Result<RunnableConfig> {
        let parent = self.parent_id.clone();
        let step = self.step + 1;
        self.save(
            scope,
            config,
            checkpoint,
            parent,
            Source::Update,
            step,
            clock_seq,
        )
    }

    /// LangGraph.js's delta-channel metadata of an update (its
    /// `updateStateDeltaPlan`): the base's counters advanced by one
    /// superstep that updated the channels written; a copy (`fork`) keeps
    /// the base's; a new thread has none (LangGraph.js snapshots its delta
    /// channels there).
    fn delta_metadata(
        &self,
        graph: &GraphInner,
        source: Source,
        checkpoint: &Checkpoint,
        written: &ChannelVersions,
        metadata: &mut CheckpointMetadata,
    ) {
        let base = self.saved.as_ref().map(|s| &s.metadata);
        let mut delta = DeltaCounters::loaded(base);
        if let Some(saved) = &self.saved {
            delta.force(
                &graph.delta,
                saved.pending_writes.iter().map(|w| &*w.channel),
            );
            if self.superseded {
                delta.force(&graph.delta, written.keys().map(|c| &**c));
            }
        }
        if base.is_some() && source != Source::Fork {
            let written: Vec<Name> = written.keys().cloned().collect();
            delta.advance(&graph.delta, &written, &checkpoint.channel_versions);
        }
        delta.write_into(&mut metadata.extra);
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
        let new_versions: ChannelVersions = checkpoint
            .channel_versions
            .iter()
            .filter(|(c, v)| before.get(*c) != Some(*v) || self.saved.is_none())
            .map(|(c, v)| (c.clone(), *v))
            .collect();
        let mut metadata = CheckpointMetadata {
            source,
            step,
            parents: self
                .saved
                .as_ref()
                .map(|s| s.metadata.parents.clone())
                .unwrap_or_default(),
            extra: scope.graph.metadata_extras(config),
        };
        if !scope.graph.delta.is_empty() {
            self.delta_metadata(
                scope.graph,
                source,
                &checkpoint,
                &new_versions,
                &mut metadata,
            );
        }
        let parent = CheckpointConfig {
            checkpoint_id: parent,
            ..self.thread.clone()
        };
        let saved = saver.put(
            &parent,
            &scope.graph.to_save(&checkpoint),
            metadata.clone(),
            &new_versions,
        )?;
        Ok(config_with_map(&saved, Some(&metadata)))
    }
}

/// `as_node=END` without values: the pending tasks' stored writes (and the
/// `Command` writes of the NULL task) are applied, nothing runs, and the
/// saved checkpoint schedules nothing.
fn clear_as_end(
    scope: &Scope,
    config: &RunnableConfig,
    base: &Base,
    updates: &[StateUpdate],
) -> Result<RunnableConfig> {
    only(updates, "Cannot apply multiple updates when clearing state")?;
    let graph = scope.graph;
    let next_version = |v: Option<Version>| scope.saver.get_next_version(v);
    let mut cp = base.checkpoint.clone();
    if let Some(saved) = &base.saved {
        let mut tasks =
            algo::prepare_next_tasks(graph, &cp, &base.thread.checkpoint_ns, base.step + 1);
        cp = with_null_writes(graph, &scope.ids, cp, &saved.pending_writes, &next_version)?;
        algo::match_writes(&mut tasks, &saved.pending_writes);
        cp = algo::apply_writes(graph, &scope.ids, &cp, &tasks, &next_version)?.0;
    }
    // Ids of an END update sort with the base step's (LangGraph passes
    // the base step as the checkpoint id's clock sequence).
    base.save_update(scope, config, cp, base.step)
}

/// `as_node=INPUT`: the values are written to `__start__` as new input
/// (an `input` checkpoint); on the newest checkpoint the write is also
/// stored as a pending write of the `__input__` pseudo-task.
fn update_as_input(
    scope: &Scope,
    config: &RunnableConfig,
    base: &Base,
    updates: &[StateUpdate],
) -> Result<RunnableConfig> {
    let update = only(
        updates,
        "Cannot apply multiple updates when updating as input",
    )?;
    // LangGraph's `map_input(START, values)`: a StateGraph's input
    // channel is `__start__` itself, so any value but None is input.
    let writes = match (&update.values, &scope.graph.pregel) {
        (Some(values), None) => vec![(START.to_owned(), values.clone())],
        (Some(values), Some(io)) => map_input(&io.input, values.clone())?,
        (None, _) => Vec::new(),
    };
    if writes.is_empty() {
        let channels = match &scope.graph.pregel {
            None => START.to_owned(),
            Some(io) => io.input.repr(),
        };
        return Err(Error::invalid_update(format!(
            "Received no input writes for {channels}"
        )));
    }
    let saver = &scope.saver;
    let (cp, _) = algo::apply_writes(
        scope.graph,
        &scope.ids,
        &base.checkpoint,
        &[Task::pseudo(INPUT, writes.clone())],
        &|v| saver.get_next_version(v),
    )?;
    if let (Some(saved), false) = (&base.saved, base.superseded) {
        let id = algo::derived_id(&saved.checkpoint.id, INPUT);
        saver.put_writes(&saved.config, &scope.graph.writes_to_save(&writes), &id, "")?;
    }
    // On a thread with no checkpoint yet, the input is its first (-1).
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

/// `as_node=COPY`: a `fork` checkpoint with the same values, a sibling of
/// the copied one (same parent). Its values, if any, are `[values, as_node]`
/// pairs applied on the copy as one more superstep.
async fn copy_checkpoint(
    scope: &Scope<'_>,
    config: &RunnableConfig,
    base: &Base,
    updates: &[StateUpdate],
) -> Result<RunnableConfig> {
    let update = only(updates, "Cannot copy checkpoint with multiple updates")?;
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
    let mut pairs = match &update.values {
        None => return Ok(copy),
        Some(Value::Array(items)) => copy_updates(items)?,
        Some(other) => return Err(invalid_copy_item(other)),
    };
    if pairs.is_empty() {
        return Ok(copy);
    }
    // Each update stands for the copy's next task of its node (the k-th
    // update of a node for its k-th task), so the copy's history shows it
    // as that task's result.
    let fork = Base::load(scope, &copy)?;
    let next = algo::prepare_next_tasks(
        scope.graph,
        &fork.checkpoint,
        &fork.thread.checkpoint_ns,
        fork.step + 1,
    );
    let mut taken: Vec<&str> = Vec::new();
    for pair in &mut pairs {
        let id = next
            .iter()
            .find(|t| Some(&*t.name) == pair.as_node.as_deref() && !taken.contains(&&*t.id));
        if let Some(t) = id {
            taken.push(&t.id);
            pair.task_id = Some(t.id.clone());
        }
    }
    Box::pin(superstep(scope, &copy, pairs, false)).await
}

/// The `[values, as_node]` pairs of a copy, as updates. LangGraph groups
/// them by node (in order of first appearance) before applying them; that
/// order is the order reducers see the values in.
fn copy_updates(items: &[Value]) -> Result<Vec<StateUpdate>> {
    let mut pairs: Vec<StateUpdate> = Vec::with_capacity(items.len());
    for item in items {
        let Value::Array(pair) = item else {
            return Err(invalid_copy_item(item));
        };
        if pair.len() < 2 {
            return Err(invalid_copy_item(item));
        }
        let update = StateUpdate {
            values: Some(pair[0].clone()).filter(|v| !v.is_null()),
            as_node: pair[1].as_str().map(str::to_owned),
            task_id: None,
            goto: Vec::new(),
        };
        match pairs.iter().rposition(|p| p.as_node == update.as_node) {
            Some(last) => pairs.insert(last + 1, update),
            None => pairs.push(update),
        }
    }
    Ok(pairs)
}

fn invalid_copy_item(item: &Value) -> Error {
    Error::invalid_update(format!(
        "Invalid update item: {} when copying checkpoint",
        py_repr(item)
    ))
}

/// A regular update: each update runs its node's writers on the base
/// state, as a task of the `__interrupt__` pseudo-step; the writes are
/// applied together and saved as one `update` checkpoint. They are also
/// stored as the base's pending writes (a resume then skips those tasks),
/// unless the first superstep edits a checkpoint that is not the newest.
async fn update_as_nodes(
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
        // The id of the pending task the update stands for (so a resume
        // sees that task as done), else one derived from the checkpoint
        // (always, for LangGraph.js: `derived_update_ids`).
        let id = update.task_id.clone().unwrap_or_else(|| {
            let pending = match graph.semantics.derived_update_ids {
                true => None,
                false => pending_tasks
                    .iter()
                    .find(|t| *t.name == *as_node && !used.contains(&t.id)),
            };
            match pending {
                Some(t) => t.id.clone(),
                None => {
                    let name = if i == 0 {
                        INTERRUPT.to_owned()
                    } else {
                        format!("{INTERRUPT}:{i}")
                    };
                    algo::derived_id(&base.checkpoint.id, &name)
                }
            }
        });
        used.push(id.clone());
        // A `Command`'s update ([channel, value] pairs too) and goto, else plain
        // values. A Pregel node's writers (an entrypoint's) take any value as
        // it is, a list too: LangGraph runs them on the values unchanged.
        let pregel = node.io.is_some();
        let output = match (update.values, update.goto.is_empty()) {
            (values, true) if pregel => NodeOutput::Update(values.unwrap_or(Value::Null)),
            (values @ Some(Value::Array(_)), _) | (values, false) => {
                NodeOutput::Command(Command::goto(values, update.goto))
            }
            (values, true) => NodeOutput::Update(values.unwrap_or(Value::Null)),
        };
        let writes = match (&node.io, output) {
            (None, output) => node_writes(graph, node, output, &state, None).await?,
            // A Pregel node's writers write the values, as if it returned them.
            (Some(io), NodeOutput::Update(values)) if !io.writers.is_empty() => {
                pregel_writes(io, values, Vec::new()).await?
            }
            (Some(_), _) => {
                return Err(Error::invalid_update(format!(
                    "Node {as_node} has no writers"
                )))
            }
        };
        tasks.push(Task {
            id,
            name: as_node.into(),
            path: format!("~{INTERRUPT}, {i:010}").into(),
            triggers: vec![INTERRUPT.into()],
            writes,
            arg: None,
            input: None,
        });
    }
    let (cp, _) = algo::apply_writes(graph, &scope.ids, &base.checkpoint, &tasks, &|v| {
        saver.get_next_version(v)
    })?;
    // The writes are stored on the base as its tasks' results, except for
    // an edit of an older checkpoint, whose other children would replay
    // them (only on a run's first superstep: later ones address the
    // checkpoint just written).
    if let (Some(saved), false) = (&base.saved, first && base.superseded) {
        for task in &tasks {
            saver.put_writes(
                &saved.config,
                &graph.writes_to_save(&task.writes),
                &task.id,
                &task.path,
            )?;
        }
    }
    base.save_update(scope, config, cp, base.step + 1)
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
        // The input "node": a StateGraph's `__start__`; for a Pregel graph
        // its one input channel when a node has that name.
        match &graph.pregel {
            None => return Ok(START.to_owned()),
            Some(io) => match &io.input {
                Channels::One(c) if graph.nodes.contains_key(c) => return Ok(c.clone()),
                _ => return Err(Error::invalid_update("Ambiguous update, specify as_node")),
            },
        }
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
