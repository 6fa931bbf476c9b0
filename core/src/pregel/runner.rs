//! The run loop (LangGraph `pregel/_loop.py`): load a checkpoint, classify
//! the run (new input, resume, replay/fork), then tick supersteps until no
//! task is left, a breakpoint or `interrupt()` pauses, a node fails, or the
//! recursion limit is reached. Every superstep writes one checkpoint.
//!
//! A subgraph node runs the same loop nested in its task ([`run_subgraph`]):
//! in the task's namespace, with what the parent's tick passes down
//! ([`TickContext`]: the saver, `checkpoint_map`, the resuming flag and the
//! replay of a time-travelling root run).

use super::algo::{self, Task};
use super::aliasing;
use super::write::node_writes;
use crate::checkpoint::{
    ChannelVersions, Checkpoint, CheckpointConfig, CheckpointMetadata, CheckpointSaver,
    ListOptions, ListTarget, Name, PendingWrite, Source, Version, NULL_TASK_ID,
};
use crate::clock::IdGenerator;
use crate::error::{troubleshooting, Error, ErrorKind, Result};
use crate::graph::{
    CompiledGraph, GraphInner, NestedEvents, NodeContext, NullResume, ReplayState, Scratchpad,
    State, TickContext,
};
use crate::reserved::{ERROR, INTERRUPT, NO_WRITES, RESUME};
use crate::types::{
    Command, Interrupt, NodeOutput, Resume, RunInput, RunOutput, RunnableConfig, StreamEvent,
    PARENT, START,
};
use futures::future::join_all;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::future::Future;
use std::rc::Rc;
use std::sync::Arc;

/// Where a run reports its stream events: each with the namespace of the
/// graph that reported it (`""` for the root graph).
pub(crate) type Sink<'a> = &'a mut dyn FnMut(&str, StreamEvent);

/// Runs the root graph `graph` once. See the module docs for the shape of a
/// run. With `subgraphs`, the loops of the subgraphs it runs report their
/// events to `sink` too (tagged with their namespaces); otherwise only the
/// root graph's events reach it.
pub(crate) async fn run<'a>(
    graph: &'a GraphInner,
    input: RunInput,
    config: &RunnableConfig,
    sink: Option<Sink<'a>>,
    subgraphs: bool,
) -> Result<RunOutput> {
    let mut frame = Frame::root(graph, config, &input)?;
    if subgraphs && sink.is_some() {
        frame.events = Some(Rc::default());
    }
    match run_loop(graph, input, frame, sink).await? {
        Outcome::Done(values) => Ok(RunOutput {
            values,
            interrupts: Vec::new(),
            paused: false,
        }),
        Outcome::Paused(values, interrupts) => Ok(RunOutput {
            values,
            interrupts,
            paused: true,
        }),
    }
}

/// Runs subgraph `graph` as the node of the task `ctx` belongs to, on that
/// task's input (the parent's state or a `Send`'s argument). Its final
/// state is the node's update; when it pauses, the task pauses with its
/// interrupts; a `Command(graph=PARENT)` from inside it is handed to the task.
pub(crate) async fn run_subgraph(
    graph: &CompiledGraph,
    input: State,
    ctx: NodeContext,
) -> Result<NodeOutput> {
    let pad = ctx.pad.clone();
    let frame = Frame::nested(&pad, &graph.inner);
    match Box::pin(run_loop(
        &graph.inner,
        RunInput::Values(input.to_json()),
        frame,
        None,
    ))
    .await?
    {
        Outcome::Done(values) => Ok(NodeOutput::Update(values.to_json())),
        Outcome::Paused(_, interrupts) => {
            pad.raised.borrow_mut().extend(interrupts);
            Err(Error::new(ErrorKind::GraphInterrupt, "interrupted").in_node(&*pad.node))
        }
    }
}

/// How a loop ended (short of an error).
enum Outcome {
    /// No task left: the final state.
    Done(State),
    /// A breakpoint or `interrupt()`: the state, and the interrupts raised
    /// (none for a breakpoint).
    Paused(State, Vec<Interrupt>),
}

async fn run_loop<'a>(
    graph: &'a GraphInner,
    input: RunInput,
    frame: Frame,
    sink: Option<Sink<'a>>,
) -> Result<Outcome> {
    let limit = frame.config.recursion_limit()?;
    let mut run = Loop::load(graph, frame, &input, sink)?;
    run.stop = run.step + limit + 1;
    let result = run.drive(input, limit).await;
    if let Some(exec) = &mut run.exec {
        let ran = exec.end();
        run.store(ran)?;
    }
    if run.exit_mode
        && (!run.frame.is_nested() || graph.persistent || !matches!(result, Ok(Outcome::Done(_))))
    {
        run.save_on_exit()?;
    }
    result
}

impl Loop<'_> {
    async fn drive(&mut self, input: RunInput, limit: i64) -> Result<Outcome> {
        let run = self;
        if let Some(output) = run.first(input)? {
            return Ok(output);
        }
        run.ticks(limit).await
    }

    async fn ticks(&mut self, limit: i64) -> Result<Outcome> {
        let run = self;
        loop {
            if run.step > run.stop {
                return Err(Error::new(
                ErrorKind::GraphRecursion,
                format!(
                    "Recursion limit of {limit} reached without hitting a stop condition. You can increase the limit by setting the `recursion_limit` config key.{}",
                    troubleshooting("GRAPH_RECURSION_LIMIT")
                ),
            ));
            }
            if let Some(output) = run.tick().await? {
                return Ok(output);
            }
        }
    }

    /// `durability="exit"`: saves the checkpoint the run ended on (unless
    /// it is the one it loaded), under the checkpoint the run started
    /// from, then the writes its last step left pending.
    fn save_on_exit(&mut self) -> Result<()> {
        let Some(saver) = self.frame.saver.clone() else {
            return Ok(());
        };
        if let (Some(source), true) = (
            self.last_saved,
            Some(&self.checkpoint.id) != self.loaded_id.as_ref(),
        ) {
            let mut new_versions = ChannelVersions::new();
            for (c, v) in self.checkpoint.channel_versions.iter() {
                if self.stored_versions.get(c) != Some(v) {
                    new_versions.insert(c.clone(), *v);
                }
            }
            let metadata = CheckpointMetadata {
                step: self.last_step,
                ..self.metadata(source)
            };
            saver.put(&self.parent, &self.checkpoint, metadata, &new_versions)?;
            self.stored_versions = self.checkpoint.channel_versions.clone();
        }
        for (task_id, path, writes) in std::mem::take(&mut self.exit_writes) {
            saver.put_writes(&self.address, &writes, &task_id, &path)?;
        }
        Ok(())
    }
}

/// What a loop is given: the root's from the run config; a subgraph's from
/// the task that runs it (LangGraph's task `configurable`).
struct Frame {
    saver: Option<Rc<dyn CheckpointSaver>>,
    thread_id: String,
    /// The loop's namespace (`""` at the root).
    ns: String,
    /// The checkpoint to load: a `checkpoint_id`, or this namespace's
    /// `checkpoint_map` entry.
    checkpoint_id: Option<String>,
    /// The config's `checkpoint_map`: becomes the `parents` of the
    /// checkpoints this loop saves.
    checkpoint_map: BTreeMap<String, String>,
    /// `CONFIG_KEY_RESUMING`, set by the parent for a subgraph.
    resuming: Option<bool>,
    replay: Option<Rc<ReplayState>>,
    resume_map: Rc<BTreeMap<String, Value>>,
    parent_null_resume: Option<Rc<NullResume>>,
    /// The task running this loop, for a subgraph.
    outer: Option<Rc<Scratchpad>>,
    /// The root graph's id generator: ids increase over the whole thread.
    ids: Rc<IdGenerator>,
    config: Rc<RunnableConfig>,
    /// When the run streams subgraphs: the queue subgraph loops report
    /// their events to (the root forwards them to its sink).
    events: Option<Rc<NestedEvents>>,
}

impl Frame {
    fn root(graph: &GraphInner, config: &RunnableConfig, input: &RunInput) -> Result<Frame> {
        let resume_map = match input {
            RunInput::Command(Command {
                resume: Some(Resume::ById(map)),
                ..
            }) => map.clone(),
            _ => BTreeMap::new(),
        };
        let (thread_id, checkpoint_id, checkpoint_map) = match &graph.saver {
            Some(_) => {
                let addr = config.checkpoint_config()?;
                let map = config.checkpoint_map();
                // A root run is always in the root namespace: a subgraph's
                // config resumes the root from its `checkpoint_map` entry.
                let id = match addr.checkpoint_ns.is_empty() {
                    true => addr.checkpoint_id.or_else(|| map.get("").cloned()),
                    false => map.get("").cloned(),
                };
                (addr.thread_id, id, map)
            }
            None => {
                if let RunInput::Command(Command {
                    resume: Some(_), ..
                }) = input
                {
                    return Err(Error::runtime(
                        "Cannot use Command(resume=...) without checkpointer",
                    ));
                }
                (String::new(), None, BTreeMap::new())
            }
        };
        Ok(Frame {
            saver: graph.saver.clone(),
            thread_id,
            ns: String::new(),
            checkpoint_id,
            checkpoint_map,
            resuming: None,
            replay: None,
            resume_map: Rc::new(resume_map),
            parent_null_resume: None,
            outer: None,
            ids: graph.ids.clone(),
            config: Rc::new(config.clone()),
            events: None,
        })
    }

    fn nested(pad: &Rc<Scratchpad>, graph: &GraphInner) -> Frame {
        let tick = &pad.tick;
        let ns = graph.subgraph_ns(&tick.checkpoint_ns, &pad.node, &pad.task_id);
        Frame {
            saver: tick.saver.clone(),
            thread_id: tick.thread_id.clone(),
            checkpoint_id: tick.checkpoint_map.get(&ns).cloned(),
            ns,
            checkpoint_map: tick.checkpoint_map.clone(),
            resuming: tick.resuming,
            replay: tick.replay.clone(),
            resume_map: tick.resume_map.clone(),
            parent_null_resume: Some(tick.null_resume.clone()),
            outer: Some(pad.clone()),
            ids: tick.ids.clone(),
            config: tick.config.clone(),
            events: tick.events.clone(),
        }
    }

    fn is_nested(&self) -> bool {
        self.outer.is_some()
    }
}

/// A task's writes held back until the run ends: (task id, path, writes).
type HeldWrites = (String, String, Vec<(String, Value)>);

/// A checkpoint save waiting for LangGraph's thread pool to run it.
struct DeferredPut {
    parent: CheckpointConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    new_versions: ChannelVersions,
}

/// Every join channel's names in `checkpoint` (empty when unset).
fn join_sets(graph: &GraphInner, checkpoint: &Checkpoint) -> Vec<(Name, Vec<String>)> {
    graph
        .channels
        .iter()
        .filter(|(_, k)| matches!(k, crate::channels::ChannelKind::Barrier(_)))
        .map(|(c, _)| {
            let names = checkpoint
                .channel_values
                .get(c)
                .map(|v| {
                    v.items()
                        .filter_map(|n| n.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            (c.clone(), names)
        })
        .collect()
}

/// One run's working state.
struct Loop<'a> {
    graph: &'a GraphInner,
    frame: Frame,
    /// Thread and namespace of the run (no id).
    thread: CheckpointConfig,
    /// The current checkpoint's address, where its tasks' writes go (kept,
    /// not rebuilt for every write).
    address: CheckpointConfig,
    /// The checkpoint the next superstep runs from.
    checkpoint: Checkpoint,
    /// The parent recorded for the next saved checkpoint (thread,
    /// namespace and the parent's id, if any).
    parent: CheckpointConfig,
    /// The checkpoint before the last one saved (LangGraph's
    /// `prev_checkpoint_config`): at first the loaded checkpoint's parent.
    prev_id: Option<String>,
    /// Versions as last stored: only channels that moved past them are saved again.
    stored_versions: Arc<ChannelVersions>,
    source: Option<Source>,
    extras: BTreeMap<String, Value>,
    pending: Vec<PendingWrite>,
    step: i64,
    stop: i64,
    addressed: bool,
    superseded: bool,
    is_replaying: bool,
    /// `durability="exit"`: checkpoints and writes are kept in memory and
    /// saved once, when the run ends (see `save_on_exit`).
    exit_mode: bool,
    /// The id of the checkpoint the run loaded (nothing new to save on exit
    /// while it is still the current one).
    loaded_id: Option<String>,
    /// The source and step of the last checkpoint the run would have saved.
    last_saved: Option<Source>,
    last_step: i64,
    /// Writes held back until the run ends.
    exit_writes: Vec<HeldWrites>,
    /// LangGraph's background saves, replayed for graphs with joins (see
    /// [`aliasing`]): saves wait here until the replay says they ran.
    exec: Option<aliasing::VirtualExecutor>,
    deferred: Vec<Option<DeferredPut>>,
    /// The root loop's sink (a subgraph's loop reports to `frame.events`).
    sink: Option<Sink<'a>>,
}

impl<'a> Loop<'a> {
    /// LangGraph's `__enter__`: loads the checkpoint the run starts from.
    fn load(
        graph: &'a GraphInner,
        mut frame: Frame,
        _input: &RunInput,
        sink: Option<Sink<'a>>,
    ) -> Result<Self> {
        let thread = CheckpointConfig {
            thread_id: frame.thread_id.clone(),
            checkpoint_ns: frame.ns.clone(),
            checkpoint_id: None,
        };
        let addressed = frame.checkpoint_id.is_some() || frame.replay.is_some();
        let (loaded, superseded) = match &frame.saver {
            None => (None, false),
            Some(s) => match (&frame.checkpoint_id, &frame.replay) {
                (Some(id), _) => {
                    let loaded = s.get_tuple(&thread.at(id.clone()))?;
                    let superseded = match &loaded {
                        Some(_) => {
                            s.get_tuple(&thread)?.map(|t| t.checkpoint.id) != Some(id.clone())
                        }
                        None => false,
                    };
                    (loaded, superseded)
                }
                (None, Some(replay)) => {
                    // A subgraph of a replaying run: its first entry starts
                    // from the newest checkpoint before the replayed one.
                    frame.resuming = None;
                    let loaded = match replay.first_visit(&frame.ns) {
                        true => s
                            .list(
                                &ListTarget::from(&thread),
                                &ListOptions {
                                    before: Some(replay.checkpoint_id.clone()),
                                    limit: Some(1),
                                    ..Default::default()
                                },
                            )?
                            .into_iter()
                            .next(),
                        false => s.get_tuple(&thread)?,
                    };
                    (loaded, false)
                }
                (None, None) => (s.get_tuple(&thread)?, false),
            },
        };
        let exit_mode = frame.config.durability == Some(crate::types::Durability::Exit);
        let has_joins = graph
            .channels
            .values()
            .any(|k| matches!(k, crate::channels::ChannelKind::Barrier(_)));
        let loaded_id = loaded.as_ref().map(|t| t.checkpoint.id.clone());
        let (mut checkpoint, parent_id, prev_id, step, source, pending) = match loaded {
            Some(t) => (
                t.checkpoint,
                t.config.checkpoint_id,
                t.parent_config.and_then(|p| p.checkpoint_id),
                t.metadata.step + 1,
                Some(t.metadata.source),
                t.pending_writes,
            ),
            None => {
                let (id, ts) = frame.ids.checkpoint_id(-2);
                // An unknown checkpoint id becomes a dangling parent, as in LangGraph.
                (
                    Checkpoint::empty(id, ts),
                    frame.checkpoint_id.clone(),
                    None,
                    -1,
                    None,
                    Vec::new(),
                )
            }
        };
        graph.fill_defaults(&mut checkpoint);
        let exec = (has_joins && !exit_mode && frame.saver.is_some())
            .then(|| aliasing::VirtualExecutor::new(join_sets(graph, &checkpoint)));
        Ok(Loop {
            graph,
            address: thread.at(checkpoint.id.clone()),
            parent: CheckpointConfig {
                checkpoint_id: parent_id,
                ..thread.clone()
            },
            prev_id,
            thread,
            stored_versions: checkpoint.channel_versions.clone(),
            checkpoint,
            source,
            extras: frame.config.metadata_extras(),
            frame,
            pending,
            step,
            stop: 0,
            addressed,
            superseded,
            is_replaying: false,
            exit_mode,
            loaded_id,
            last_saved: None,
            last_step: 0,
            exit_writes: Vec::new(),
            exec,
            deferred: Vec::new(),
            sink,
        })
    }

    /// Reports an event (built only when someone listens): the root loop
    /// to its sink, a subgraph's loop to the run's queue of nested events.
    fn emit(&mut self, event: impl FnOnce(&Self) -> StreamEvent) {
        if self.sink.is_some() {
            let e = event(self);
            if let Some(sink) = self.sink.as_mut() {
                sink("", e);
            }
        } else if self.frame.is_nested() {
            if let Some(events) = &self.frame.events {
                let e = event(self);
                events.borrow_mut().push((self.frame.ns.clone(), e));
            }
        }
    }

    /// Hands the events subgraph loops queued so far to the root's sink.
    fn forward_nested(&mut self) {
        let Some(events) = &self.frame.events else {
            return;
        };
        let queued = std::mem::take(&mut *events.borrow_mut());
        if let Some(sink) = self.sink.as_mut() {
            for (ns, e) in queued {
                sink(&ns, e);
            }
        }
    }

    /// Applies (and takes) the tasks' writes: see `algo::apply_writes_in_place`.
    fn apply(&mut self, tasks: &mut [Task]) -> Result<std::collections::BTreeSet<Name>> {
        let saver = self.frame.saver.clone();
        let next = move |current: Option<Version>| match &saver {
            Some(s) => s.get_next_version(current),
            None => Version {
                counter: current.map_or(0, |v| v.counter) + 1,
                salt: 0,
            },
        };
        let consumed = self.joins_consumed_by(tasks);
        // In place: on error the run ends and this checkpoint is dropped.
        let updated = algo::apply_writes_in_place(
            self.graph,
            &self.frame.ids,
            &mut self.checkpoint,
            tasks,
            &next,
        )?;
        if let Some(exec) = &mut self.exec {
            exec.apply(join_sets(self.graph, &self.checkpoint), &consumed);
        }
        Ok(updated)
    }

    /// The main thread submitted a `put_writes` (for the replayed pool).
    fn submitted_writes(&mut self) -> Result<()> {
        if let Some(exec) = &mut self.exec {
            let ran = exec.writes();
            self.store(ran)?;
        }
        Ok(())
    }

    /// The join channels `tasks` consume (complete ones they are triggered by).
    fn joins_consumed_by(&self, tasks: &[Task]) -> Vec<Name> {
        if self.exec.is_none() {
            return Vec::new();
        }
        let mut out: Vec<Name> = Vec::new();
        for t in tasks {
            for c in &t.triggers {
                if let Some(kind @ crate::channels::ChannelKind::Barrier(_)) =
                    self.graph.channels.get(c)
                {
                    if kind.is_available(self.checkpoint.channel_values.get(c)) && !out.contains(c)
                    {
                        out.push(c.clone());
                    }
                }
            }
        }
        out
    }

    /// Saves what the executor ran: each deferred checkpoint, its join
    /// channels as they stood then.
    fn store(&mut self, ran: aliasing::Ran) -> Result<()> {
        let Some(saver) = self.frame.saver.clone() else {
            return Ok(());
        };
        for (index, joins) in ran {
            let Some(mut put) = self.deferred.get_mut(index).and_then(Option::take) else {
                continue;
            };
            for (channel, names) in joins {
                put.checkpoint.channel_values.insert(
                    channel,
                    crate::channels::ChannelValue::List(
                        names
                            .into_iter()
                            .map(|n| Arc::new(Value::String(n)))
                            .collect(),
                    ),
                );
            }
            saver.put(
                &put.parent,
                &put.checkpoint,
                put.metadata,
                &put.new_versions,
            )?;
        }
        Ok(())
    }

    fn state(&self) -> State {
        self.graph.read_state(&self.checkpoint)
    }

    /// The state a paused run returns: with the writes of the step's tasks
    /// that did finish applied (LangGraph's last "values" event on an
    /// interrupt), though nothing of them is saved as a checkpoint.
    fn paused_state(&mut self, tasks: &[Task]) -> State {
        if tasks.iter().all(|t| t.writes.is_empty()) {
            return self.state();
        }
        let read_version = |current: Option<Version>| Version {
            counter: current.map_or(0, |v| v.counter) + 1,
            salt: u64::MAX,
        };
        let consumed = self.joins_consumed_by(tasks);
        match algo::apply_writes(
            self.graph,
            &self.frame.ids,
            &self.checkpoint,
            tasks,
            &read_version,
        ) {
            Ok((cp, _)) => {
                // LangGraph applies them to the live channels, so the join
                // sets that saves still to run will store change too.
                if let Some(exec) = &mut self.exec {
                    exec.apply(join_sets(self.graph, &cp), &consumed);
                }
                self.graph.read_state(&cp)
            }
            Err(_) => self.state(),
        }
    }

    /// The metadata of the checkpoint a save at the current step writes.
    fn metadata(&self, source: Source) -> CheckpointMetadata {
        CheckpointMetadata {
            source,
            step: self.step,
            parents: self.frame.checkpoint_map.clone(),
            extra: self.extras.clone(),
        }
    }

    /// Saves the current checkpoint as a new one (LangGraph `_put_checkpoint`).
    fn save(&mut self, source: Source, updated: Option<Vec<Name>>) -> Result<()> {
        let (id, ts) = self.frame.ids.checkpoint_id(self.step);
        self.checkpoint.id = id.clone();
        self.checkpoint.ts = ts;
        self.checkpoint.updated_channels = updated;
        self.last_saved = Some(source);
        self.last_step = self.step;
        if self.exit_mode {
            // Only the checkpoint the run ends on is saved, under the one
            // the run started from (`parent` stays where it is).
            self.address.checkpoint_id = Some(id);
            self.source = Some(source);
            return Ok(());
        }
        if let Some(saver) = self.frame.saver.clone() {
            let mut new_versions = ChannelVersions::new();
            for (c, v) in self.checkpoint.channel_versions.iter() {
                if self.stored_versions.get(c) != Some(v) {
                    new_versions.insert(c.clone(), *v);
                }
            }
            match self.exec.is_some() {
                true => {
                    let joins: Vec<Name> = new_versions
                        .keys()
                        .filter(|c| {
                            matches!(
                                self.graph.channels.get(&***c),
                                Some(crate::channels::ChannelKind::Barrier(_))
                            )
                        })
                        .cloned()
                        .collect();
                    self.deferred.push(Some(DeferredPut {
                        parent: self.parent.clone(),
                        checkpoint: self.checkpoint.clone(),
                        metadata: self.metadata(source),
                        new_versions,
                    }));
                    let index = self.deferred.len() - 1;
                    let ran = match &mut self.exec {
                        Some(exec) => exec.put(index, &joins),
                        None => Vec::new(),
                    };
                    self.store(ran)?;
                }
                false => {
                    saver.put(
                        &self.parent,
                        &self.checkpoint,
                        self.metadata(source),
                        &new_versions,
                    )?;
                }
            }
            self.stored_versions = self.checkpoint.channel_versions.clone();
        }
        let parent_id = self.parent.checkpoint_id.replace(id.clone());
        self.prev_id = parent_id.clone();
        self.address.checkpoint_id = Some(id);
        self.source = Some(source);
        let step = self.step;
        self.emit(|run| StreamEvent::Checkpoint {
            config: run.address.clone(),
            metadata: run.metadata(source),
            parent_config: parent_id.map(|p| run.thread.at(p)),
            values: run.graph.read_values(&run.checkpoint.channel_values),
            next: algo::prepare_next_tasks(run.graph, &run.checkpoint, &run.frame.ns, step + 1)
                .into_iter()
                .map(|t| String::from(&*t.name))
                .collect(),
        });
        Ok(())
    }

    fn put_writes(&mut self, task_id: &str, path: &str, writes: &[(String, Value)]) -> Result<()> {
        if self.exit_mode {
            self.exit_writes
                .push((task_id.to_owned(), path.to_owned(), writes.to_vec()));
            return Ok(());
        }
        match &self.frame.saver {
            Some(saver) => saver.put_writes(&self.address, writes, task_id, path),
            None => Ok(()),
        }
    }

    /// LangGraph `_first`: classifies the run and writes the input or fork
    /// checkpoint. Returns an outcome when the run ends before any superstep.
    fn first(&mut self, input: RunInput) -> Result<Option<Outcome>> {
        let has_versions = !self.checkpoint.channel_versions.is_empty();
        let (is_cmd, resume_cmd) = match &input {
            RunInput::Command(c) => (true, c.resume.is_some()),
            _ => (false, false),
        };
        let resuming_flag = self.frame.resuming;
        let is_resuming =
            has_versions && resuming_flag.unwrap_or(matches!(input, RunInput::None) || is_cmd);
        // A subgraph addressed through its own `checkpoint_map` entry is
        // time travel even when its parent says it resumes.
        let own_entry =
            self.frame.is_nested() && self.frame.checkpoint_map.contains_key(&self.frame.ns);
        let is_time_traveling =
            self.addressed && (own_entry || !(resume_cmd || resuming_flag == Some(true)));
        self.is_replaying = is_time_traveling || self.superseded;
        let loaded_source = self.source;
        let loaded_parent = self.prev_id.clone();
        let forks = is_resuming
            && is_time_traveling
            && (!matches!(loaded_source, Some(Source::Update | Source::Fork)) || self.superseded);

        if is_time_traveling {
            self.pending.retain(|w| w.channel != RESUME);
        }
        if let RunInput::Command(cmd) = &input {
            self.command(cmd, forks)?;
        }
        let null_writes: Vec<(String, Value)> = self
            .pending
            .iter()
            .filter(|w| w.task_id == NULL_TASK_ID)
            .map(|w| (w.channel.clone(), w.value.clone()))
            .collect();
        if !null_writes.is_empty() {
            self.apply(&mut [Task::pseudo("__input__", null_writes)])?;
        }

        if is_resuming {
            let versions = self.checkpoint.channel_versions.clone();
            Arc::make_mut(&mut self.checkpoint.versions_seen).insert(INTERRUPT.into(), versions);
            if forks {
                self.pending.retain(|w| w.channel != INTERRUPT);
                self.save(Source::Fork, None)?;
                self.step += 1;
            }
            self.emit(|run| {
                StreamEvent::Values(run.graph.read_values(&run.checkpoint.channel_values))
            });
        } else {
            match input {
                RunInput::Values(values) => {
                    let mut discard = algo::prepare_next_tasks(
                        self.graph,
                        &self.checkpoint,
                        &self.frame.ns,
                        self.step,
                    );
                    discard.push(Task::pseudo("__input__", vec![(START.to_owned(), values)]));
                    let updated = self.apply(&mut discard)?;
                    self.pending.clear();
                    self.save(Source::Input, Some(updated.into_iter().collect()))?;
                    self.step += 1;
                }
                // A subgraph told it is not resuming, with no input: nothing to save.
                _ if resuming_flag.is_some() => {}
                _ => {
                    return Err(Error::new(
                        ErrorKind::EmptyInput,
                        "Received no input for __start__",
                    ))
                }
            }
        }
        // The root passes its classification down to the subgraphs of its first tick.
        if !self.frame.is_nested() {
            self.frame.resuming = Some(is_resuming);
            self.frame.replay = is_time_traveling.then(|| {
                let loaded_was_edit = matches!(loaded_source, Some(Source::Update | Source::Fork));
                let id = if forks && loaded_was_edit {
                    // The fork's parent is the edit; subgraphs replay from before it.
                    loaded_parent.clone()
                } else if matches!(self.source, Some(Source::Update | Source::Fork)) {
                    self.prev_id.clone()
                } else {
                    None
                };
                Rc::new(ReplayState::new(
                    id.unwrap_or_else(|| self.checkpoint.id.clone()),
                ))
            });
        }
        Ok(None)
    }

    /// The breakpoints before (`before`) or after nodes: the run's own for
    /// the root graph when its config gives them, else the compiled ones.
    fn breakpoints(&self, before: bool) -> &[String] {
        let config = &self.frame.config;
        let run = match before {
            true => config.interrupt_before.as_deref(),
            false => config.interrupt_after.as_deref(),
        };
        match (run, self.frame.is_nested(), before) {
            (Some(names), false, _) => names,
            (_, _, true) => &self.graph.interrupt_before,
            (_, _, false) => &self.graph.interrupt_after,
        }
    }

    /// Turns a `Command` into NULL_TASK_ID writes (LangGraph `map_command`).
    fn command(&mut self, cmd: &Command, forks: bool) -> Result<()> {
        if cmd.graph.as_deref() == Some(PARENT) {
            return Err(Error::invalid_update("There is no parent graph"));
        }
        if cmd.resume.is_none() && cmd.update.is_none() && cmd.goto.is_empty() {
            return Err(Error::new(
                ErrorKind::EmptyInput,
                "Received empty Command input",
            ));
        }
        let mut writes: Vec<(String, Value)> = Vec::new();
        for goto in &cmd.goto {
            match goto {
                crate::types::Goto::Node(node) => {
                    writes.push((format!("branch:to:{node}"), Value::String(START.into())))
                }
                crate::types::Goto::Send(send) => writes.push(super::write::send_write(send)),
            }
        }
        if let Some(Resume::Value(v)) = &cmd.resume {
            let pending_interrupts = self.unfinished_interrupts();
            if pending_interrupts > 1 {
                return Err(Error::runtime(
                    "When there are multiple pending interrupts, you must specify the interrupt id when resuming. Docs: https://docs.langchain.com/oss/python/langgraph/interrupts#handling-multiple-interrupts.",
                ));
            }
            writes.push((RESUME.into(), v.clone()));
        }
        if let Some(update) = &cmd.update {
            let Value::Object(map) = update else {
                return Err(Error::invalid_update(format!(
                    "Expected dict, got {}",
                    crate::channels::py_repr(update)
                )));
            };
            writes.extend(map.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        if writes.is_empty() {
            return Ok(());
        }
        // Stored on the loaded checkpoint (never on the synthetic empty one of a fresh thread).
        if !forks && self.source.is_some() {
            self.put_writes(NULL_TASK_ID, "", &writes)?;
            self.submitted_writes()?;
        }
        for (channel, value) in writes {
            let special = algo::is_control(&channel);
            if special {
                self.pending
                    .retain(|w| !(w.task_id == NULL_TASK_ID && w.channel == channel));
            }
            self.pending.push(PendingWrite {
                task_id: NULL_TASK_ID.into(),
                channel,
                value,
            });
        }
        Ok(())
    }

    /// Interrupts raised by tasks that have not finished since.
    fn unfinished_interrupts(&self) -> usize {
        self.pending
            .iter()
            .filter(|w| w.task_id != NULL_TASK_ID && w.channel == INTERRUPT)
            .filter(|w| {
                !self
                    .pending
                    .iter()
                    .any(|o| o.task_id == w.task_id && !algo::is_control(&o.channel))
            })
            .map(|w| w.value.as_array().map_or(1, Vec::len))
            .sum()
    }

    /// What this tick's tasks share, and what subgraphs they run inherit.
    fn tick_context(&self) -> Rc<TickContext> {
        let mut checkpoint_map = self.frame.checkpoint_map.clone();
        checkpoint_map.insert(self.frame.ns.clone(), self.checkpoint.id.clone());
        let own = self
            .pending
            .iter()
            .find(|w| w.task_id == NULL_TASK_ID && w.channel == RESUME)
            .map(|w| w.value.clone());
        Rc::new(TickContext {
            saver: self.frame.saver.clone(),
            thread_id: self.frame.thread_id.clone(),
            checkpoint_ns: self.frame.ns.clone(),
            checkpoint_map,
            resuming: self.frame.resuming,
            replay: self.frame.replay.clone(),
            resume_map: self.frame.resume_map.clone(),
            null_resume: Rc::new(NullResume {
                own: std::cell::RefCell::new(own),
                parent: self.frame.parent_null_resume.clone(),
            }),
            config: self.frame.config.clone(),
            ids: self.frame.ids.clone(),
            events: self.frame.events.clone(),
        })
    }

    /// One superstep. Returns an outcome when the run ends.
    async fn tick(&mut self) -> Result<Option<Outcome>> {
        let mut tasks =
            algo::prepare_next_tasks(self.graph, &self.checkpoint, &self.frame.ns, self.step);
        if tasks.is_empty() {
            return Ok(Some(Outcome::Done(self.state())));
        }
        if !self.is_replaying && !self.pending.is_empty() {
            algo::match_writes(&mut tasks, &self.pending);
        }
        if algo::should_interrupt(&self.checkpoint, self.breakpoints(true), &tasks) {
            self.emit(|_| StreamEvent::Interrupted(Vec::new()));
            return Ok(Some(Outcome::Paused(self.paused_state(&tasks), Vec::new())));
        }

        let tick = self.tick_context();
        let had_null_resume = tick.null_resume.own.borrow().is_some();
        let state = self.state();
        let start_input = self
            .checkpoint
            .channel_values
            .get(START)
            .map(|v| v.to_json());
        let mut runs = Vec::with_capacity(tasks.len());
        let mut futures = Vec::with_capacity(tasks.len());
        for (i, task) in tasks.iter().enumerate() {
            if !task.writes.is_empty() {
                continue;
            }
            let resume: Vec<Value> = self
                .pending
                .iter()
                .find(|w| w.task_id == task.id && w.channel == RESUME)
                .map(|w| match &w.value {
                    Value::Array(items) => items.clone(),
                    other => vec![other.clone()],
                })
                .unwrap_or_default();
            let pad = Rc::new(Scratchpad::new(
                &task.name,
                &task.id,
                self.step,
                resume,
                tick.clone(),
            ));
            let step = self.step;
            self.emit(|_| StreamEvent::Task {
                id: task.id.clone(),
                name: String::from(&*task.name),
                step,
            });
            runs.push((i, pad.clone()));
            futures.push(run_task(
                self.graph,
                task.name.clone(),
                task.arg.clone(),
                state.clone(),
                start_input.clone(),
                pad,
            ));
        }
        let single = futures.len() == 1;
        if let (false, Some(exec)) = (single, &mut self.exec) {
            let ran = exec.pool(futures.len());
            self.store(ran)?;
        }
        let results = if self.sink.is_some() && self.frame.events.is_some() {
            // Streaming subgraphs: what their loops report while the tasks
            // run reaches the sink after each poll, in the order it happened.
            let mut all = std::pin::pin!(join_all(futures));
            std::future::poll_fn(|cx| {
                let polled = all.as_mut().poll(cx);
                self.forward_nested();
                polled
            })
            .await
        } else {
            // The usual superstep runs one task: await it without `join_all`'s buffers.
            match futures.len() {
                1 => vec![futures.pop().expect("one future").await],
                _ => join_all(futures).await,
            }
        };
        if had_null_resume && tick.null_resume.own.borrow().is_none() {
            // The NULL resume value was taken by a task (or a subgraph's task).
            self.pending
                .retain(|w| !(w.task_id == NULL_TASK_ID && w.channel == RESUME));
        }

        let mut failure: Option<Error> = None;
        let mut paused = false;
        let mut interrupts: Vec<Interrupt> = Vec::new();
        for ((i, pad), result) in runs.into_iter().zip(results) {
            let task = &mut tasks[i];
            let resume_row = pad
                .resume_changed
                .get()
                .then(|| (RESUME.to_owned(), Value::Array(pad.resume.borrow().clone())));
            let mut raised = Vec::new();
            let mut error_text = None;
            match result {
                Ok(mut writes) => {
                    writes.extend(resume_row);
                    if !writes.iter().any(|(c, _)| !algo::is_control(c)) {
                        writes.push((NO_WRITES.into(), Value::Null));
                    }
                    self.put_writes(&task.id, &task.path, &writes)?;
                    if single {
                        self.submitted_writes()?;
                    }
                    // Built only for a stream (the closure runs only then).
                    self.emit(|run| {
                        let update: Map<String, Value> = writes
                            .iter()
                            .filter(|(c, _)| run.graph.is_state_key(c))
                            .map(|(c, v)| (c.clone(), v.clone()))
                            .collect();
                        StreamEvent::Updates {
                            node: String::from(&*task.name),
                            update: if update.is_empty() {
                                Value::Null
                            } else {
                                Value::Object(update)
                            },
                        }
                    });
                    task.writes = writes;
                }
                Err(e) if e.kind() == ErrorKind::GraphInterrupt => {
                    paused = true;
                    raised = std::mem::take(&mut *pad.raised.borrow_mut());
                    if !raised.is_empty() {
                        let mut rows = vec![(
                            INTERRUPT.to_owned(),
                            serde_json::to_value(&raised).unwrap_or(Value::Null),
                        )];
                        rows.extend(resume_row);
                        self.put_writes(&task.id, &task.path, &rows)?;
                        if single {
                            self.submitted_writes()?;
                        }
                    }
                }
                // A `Command(graph=PARENT)` bubbling up: nothing is stored
                // for the task (LangGraph's `GraphBubbleUp`).
                Err(e) if e.kind() == ErrorKind::ParentCommand => {
                    if let Some(outer) = &self.frame.outer {
                        let cmd = pad.parent_command.borrow_mut().take();
                        *outer.parent_command.borrow_mut() = cmd;
                    }
                    failure.get_or_insert(e);
                }
                Err(e) => {
                    let e = if e.node().is_none() {
                        e.in_node(&*task.name)
                    } else {
                        e
                    };
                    self.put_writes(
                        &task.id,
                        &task.path,
                        &[(ERROR.into(), Value::String(e.repr()))],
                    )?;
                    if single {
                        self.submitted_writes()?;
                    }
                    error_text = Some(e.to_string());
                    failure.get_or_insert(e);
                }
            }
            let step = self.step;
            self.emit(|_| StreamEvent::TaskResult {
                id: task.id.clone(),
                name: String::from(&*task.name),
                step,
                error: error_text,
                interrupts: raised.clone(),
            });
            interrupts.extend(raised);
        }
        if let Some(e) = failure {
            return Err(e);
        }
        if paused {
            let reported = interrupts.clone();
            self.emit(|_| StreamEvent::Interrupted(reported));
            return Ok(Some(Outcome::Paused(self.paused_state(&tasks), interrupts)));
        }

        // after_tick: apply, save, maybe pause after.
        let updated = self.apply(&mut tasks)?;
        self.pending.clear();
        self.exit_writes.clear();
        self.is_replaying = false;
        self.save(Source::Loop, Some(updated.into_iter().collect()))?;
        self.step += 1;
        self.frame.resuming = None;
        self.emit(|run| StreamEvent::Values(run.graph.read_values(&run.checkpoint.channel_values)));
        if algo::should_interrupt(&self.checkpoint, self.breakpoints(false), &tasks) {
            self.emit(|_| StreamEvent::Interrupted(Vec::new()));
            return Ok(Some(Outcome::Paused(self.state(), Vec::new())));
        }
        Ok(None)
    }
}

/// Runs one task's node and its writers. A PUSH task's node is given its
/// `Send`'s argument; its routers still read the graph state.
async fn run_task(
    graph: &GraphInner,
    name: Name,
    arg: Option<Value>,
    state: State,
    start_input: Option<Value>,
    pad: Rc<Scratchpad>,
) -> Result<Vec<(String, Value)>> {
    let node = &graph.nodes[&*name];
    let input = match arg {
        Some(arg) => State::from_arg(arg),
        None => state.clone(),
    };
    let output = match &node.action {
        Some(action) => match action.call(input, NodeContext::new(pad.clone())).await {
            Err(e) if e.kind() == ErrorKind::ParentCommand => {
                // A subgraph handed up a command for this graph: it is this
                // task's output (LangGraph runs the task's writers with it).
                match pad.parent_command.borrow_mut().take() {
                    Some(cmd) => NodeOutput::Command(cmd),
                    None => return Err(e),
                }
            }
            other => other?,
        },
        // `__start__`: its update is the run input itself.
        None => NodeOutput::Update(start_input.unwrap_or(Value::Null)),
    };
    if let NodeOutput::Command(cmd) = &output {
        if cmd.graph.as_deref() == Some(PARENT) {
            let mut cmd = cmd.clone();
            cmd.graph = None;
            let text = command_repr(&cmd);
            *pad.parent_command.borrow_mut() = Some(cmd);
            return Err(Error::new(ErrorKind::ParentCommand, text).in_node(&*name));
        }
    }
    node_writes(graph, node, output, &state).await
}

/// Python's repr of a `Command` (the text of a root `ParentCommand` error).
fn command_repr(cmd: &Command) -> String {
    let mut parts = Vec::new();
    if let Some(update) = &cmd.update {
        parts.push(format!("update={}", crate::channels::py_repr(update)));
    }
    if let Some(Resume::Value(v)) = &cmd.resume {
        parts.push(format!("resume={}", crate::channels::py_repr(v)));
    }
    let goto: Vec<String> = cmd
        .goto
        .iter()
        .map(|g| match g {
            crate::types::Goto::Node(n) => crate::channels::py_repr(&Value::String(n.clone())),
            crate::types::Goto::Send(s) => format!(
                "Send(node={}, arg={})",
                crate::channels::py_repr(&Value::String(s.node.clone())),
                crate::channels::py_repr(&s.arg)
            ),
        })
        .collect();
    match goto.len() {
        0 => {}
        1 => parts.push(format!("goto={}", goto[0])),
        _ => parts.push(format!("goto=[{}]", goto.join(", "))),
    }
    format!("Command({})", parts.join(", "))
}
