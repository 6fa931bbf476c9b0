//! The run loop (LangGraph `pregel/_loop.py`): load a checkpoint, classify
//! the run (new input, resume, replay/fork), then tick supersteps until no
//! task is left, a breakpoint or `interrupt()` pauses, a node fails, or the
//! recursion limit is reached. Every superstep writes one checkpoint.

use super::algo::{self, Task};
use super::write::node_writes;
use crate::checkpoint::{
    ChannelVersions, Checkpoint, CheckpointConfig, CheckpointMetadata, CheckpointSaver, Name,
    PendingWrite, Source, Version, NULL_TASK_ID,
};
use crate::error::{troubleshooting, Error, ErrorKind, Result};
use crate::graph::{GraphInner, NodeContext, Scratchpad};
use crate::types::{
    Command, Interrupt, Resume, RunInput, RunOutput, RunnableConfig, StreamEvent, START,
};
use futures::future::join_all;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

/// Runs `graph` once. See the module docs for the shape of a run.
pub(crate) async fn run<'a>(
    graph: &'a GraphInner,
    input: RunInput,
    config: &RunnableConfig,
    sink: Option<&'a mut dyn FnMut(StreamEvent)>,
) -> Result<RunOutput> {
    let limit = config.recursion_limit()?;
    let mut run = Loop::load(graph, config, &input, sink)?;
    run.stop = run.step + limit + 1;
    if let Some(output) = run.first(input)? {
        return Ok(output);
    }
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

/// One run's working state.
struct Loop<'a> {
    graph: &'a GraphInner,
    saver: Option<Rc<dyn CheckpointSaver>>,
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
    /// Versions as last stored: only channels that moved past them are saved again.
    stored_versions: Arc<ChannelVersions>,
    source: Option<Source>,
    parents: BTreeMap<String, String>,
    extras: BTreeMap<String, Value>,
    pending: Vec<PendingWrite>,
    step: i64,
    stop: i64,
    addressed: bool,
    superseded: bool,
    is_replaying: bool,
    resume_map: Rc<BTreeMap<String, Value>>,
    /// The run's config, handed to nodes through their context.
    config: Rc<RunnableConfig>,
    sink: Option<&'a mut dyn FnMut(StreamEvent)>,
}

impl<'a> Loop<'a> {
    fn load(
        graph: &'a GraphInner,
        config: &RunnableConfig,
        input: &RunInput,
        sink: Option<&'a mut dyn FnMut(StreamEvent)>,
    ) -> Result<Self> {
        let saver = graph.saver.clone();
        let (thread, loaded, superseded) = match &saver {
            Some(s) => {
                let addr = config.checkpoint_config()?;
                let loaded = s.get_tuple(&addr)?;
                let superseded = match (&addr.checkpoint_id, &loaded) {
                    (Some(id), Some(_)) => {
                        let latest = s.get_tuple(&CheckpointConfig {
                            checkpoint_id: None,
                            ..addr.clone()
                        })?;
                        latest.map(|t| t.checkpoint.id) != Some(id.clone())
                    }
                    _ => false,
                };
                (addr, loaded, superseded)
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
                (CheckpointConfig::default(), None, false)
            }
        };
        let addressed = thread.checkpoint_id.is_some();
        let (checkpoint, parent_id, step, source, parents, pending) = match loaded {
            Some(t) => (
                t.checkpoint,
                t.config.checkpoint_id,
                t.metadata.step + 1,
                Some(t.metadata.source),
                t.metadata.parents,
                t.pending_writes,
            ),
            None => {
                let (id, ts) = graph.ids.checkpoint_id(-2);
                // An unknown checkpoint id becomes a dangling parent, as in LangGraph.
                (
                    Checkpoint::empty(id, ts),
                    thread.checkpoint_id.clone(),
                    -1,
                    None,
                    BTreeMap::new(),
                    Vec::new(),
                )
            }
        };
        let resume_map = match input {
            RunInput::Command(Command {
                resume: Some(Resume::ById(map)),
                ..
            }) => map.clone(),
            _ => BTreeMap::new(),
        };
        Ok(Loop {
            graph,
            saver,
            address: thread.at(checkpoint.id.clone()),
            parent: CheckpointConfig {
                checkpoint_id: parent_id,
                ..thread.clone()
            },
            thread: CheckpointConfig {
                checkpoint_id: None,
                ..thread
            },
            stored_versions: checkpoint.channel_versions.clone(),
            checkpoint,
            source,
            parents,
            extras: config.metadata_extras(),
            pending,
            step,
            stop: 0,
            addressed,
            superseded,
            is_replaying: false,
            resume_map: Rc::new(resume_map),
            config: Rc::new(config.clone()),
            sink,
        })
    }

    fn emit(&mut self, event: impl FnOnce(&Self) -> StreamEvent) {
        if self.sink.is_some() {
            let e = event(self);
            if let Some(sink) = self.sink.as_mut() {
                sink(e);
            }
        }
    }

    /// Applies (and takes) the tasks' writes: see `algo::apply_writes_in_place`.
    fn apply(&mut self, tasks: &mut [Task]) -> Result<std::collections::BTreeSet<Name>> {
        let saver = self.saver.clone();
        let next = move |current: Option<Version>| match &saver {
            Some(s) => s.get_next_version(current),
            None => Version {
                counter: current.map_or(0, |v| v.counter) + 1,
                salt: 0,
            },
        };
        // In place: on error the run ends and this checkpoint is dropped.
        algo::apply_writes_in_place(self.graph, &mut self.checkpoint, tasks, &next)
    }

    fn output(&self, interrupts: Vec<Interrupt>) -> RunOutput {
        RunOutput {
            values: self.graph.read_state(&self.checkpoint),
            interrupts,
        }
    }

    /// The metadata of the checkpoint a save at the current step writes.
    fn metadata(&self, source: Source) -> CheckpointMetadata {
        CheckpointMetadata {
            source,
            step: self.step,
            parents: self.parents.clone(),
            extra: self.extras.clone(),
        }
    }

    /// Saves the current checkpoint as a new one (LangGraph `_put_checkpoint`).
    fn save(&mut self, source: Source, updated: Option<Vec<Name>>) -> Result<()> {
        let (id, ts) = self.graph.ids.checkpoint_id(self.step);
        self.checkpoint.id = id.clone();
        self.checkpoint.ts = ts;
        self.checkpoint.updated_channels = updated;
        if let Some(saver) = &self.saver {
            let mut new_versions = ChannelVersions::new();
            for (c, v) in self.checkpoint.channel_versions.iter() {
                if self.stored_versions.get(c) != Some(v) {
                    new_versions.insert(c.clone(), *v);
                }
            }
            saver.put(
                &self.parent,
                &self.checkpoint,
                self.metadata(source),
                &new_versions,
            )?;
            self.stored_versions = self.checkpoint.channel_versions.clone();
        }
        let parent_id = self.parent.checkpoint_id.replace(id.clone());
        self.address.checkpoint_id = Some(id);
        self.source = Some(source);
        let step = self.step;
        self.emit(|run| StreamEvent::Checkpoint {
            config: run.address.clone(),
            metadata: run.metadata(source),
            parent_config: parent_id.map(|p| run.thread.at(p)),
            values: run.graph.read_values(&run.checkpoint.channel_values),
            next: algo::prepare_next_tasks(run.graph, &run.checkpoint, step + 1)
                .into_iter()
                .map(|t| String::from(&*t.name))
                .collect(),
        });
        Ok(())
    }

    fn put_writes(&self, task_id: &str, path: &str, writes: &[(String, Value)]) -> Result<()> {
        match &self.saver {
            Some(saver) => saver.put_writes(&self.address, writes, task_id, path),
            None => Ok(()),
        }
    }

    /// LangGraph `_first`: classifies the run and writes the input or fork
    /// checkpoint. Returns an output when the run ends before any superstep.
    fn first(&mut self, input: RunInput) -> Result<Option<RunOutput>> {
        let has_versions = !self.checkpoint.channel_versions.is_empty();
        let (is_cmd, resume_cmd) = match &input {
            RunInput::Command(c) => (true, c.resume.is_some()),
            _ => (false, false),
        };
        let is_resuming = has_versions && (matches!(input, RunInput::None) || is_cmd);
        let is_time_traveling = self.addressed && !resume_cmd;
        self.is_replaying = is_time_traveling || self.superseded;
        let forks = is_resuming
            && is_time_traveling
            && (!matches!(self.source, Some(Source::Update | Source::Fork)) || self.superseded);

        if is_time_traveling {
            self.pending.retain(|w| w.channel != "__resume__");
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
            Arc::make_mut(&mut self.checkpoint.versions_seen)
                .insert("__interrupt__".into(), versions);
            if forks {
                self.pending.retain(|w| w.channel != "__interrupt__");
                self.save(Source::Fork, None)?;
                self.step += 1;
            }
            self.emit(|run| {
                StreamEvent::Values(run.graph.read_values(&run.checkpoint.channel_values))
            });
            return Ok(None);
        }
        match input {
            RunInput::Values(values) => {
                let mut discard = algo::prepare_next_tasks(self.graph, &self.checkpoint, self.step);
                discard.push(Task::pseudo("__input__", vec![(START.to_owned(), values)]));
                let updated = self.apply(&mut discard)?;
                self.pending.clear();
                self.save(Source::Input, Some(updated.into_iter().collect()))?;
                self.step += 1;
                Ok(None)
            }
            _ => Err(Error::new(
                ErrorKind::EmptyInput,
                "Received no input for __start__",
            )),
        }
    }

    /// Turns a `Command` into NULL_TASK_ID writes (LangGraph `map_command`).
    fn command(&mut self, cmd: &Command, forks: bool) -> Result<()> {
        if cmd.resume.is_none() && cmd.update.is_none() && cmd.goto.is_empty() {
            return Err(Error::new(
                ErrorKind::EmptyInput,
                "Received empty Command input",
            ));
        }
        let mut writes: Vec<(String, Value)> = Vec::new();
        for node in &cmd.goto {
            writes.push((format!("branch:to:{node}"), Value::String(START.into())));
        }
        if let Some(Resume::Value(v)) = &cmd.resume {
            let pending_interrupts = self.unfinished_interrupts();
            if pending_interrupts > 1 {
                return Err(Error::runtime(
                    "When there are multiple pending interrupts, you must specify the interrupt id when resuming. Docs: https://docs.langchain.com/oss/python/langgraph/interrupts#handling-multiple-interrupts.",
                ));
            }
            writes.push(("__resume__".into(), v.clone()));
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
            .filter(|w| w.task_id != NULL_TASK_ID && w.channel == "__interrupt__")
            .filter(|w| {
                !self
                    .pending
                    .iter()
                    .any(|o| o.task_id == w.task_id && !algo::is_control(&o.channel))
            })
            .map(|w| w.value.as_array().map_or(1, Vec::len))
            .sum()
    }

    /// One superstep. Returns an output when the run ends.
    async fn tick(&mut self) -> Result<Option<RunOutput>> {
        let mut tasks = algo::prepare_next_tasks(self.graph, &self.checkpoint, self.step);
        if tasks.is_empty() {
            return Ok(Some(self.output(Vec::new())));
        }
        if !self.is_replaying && !self.pending.is_empty() {
            algo::match_writes(&mut tasks, &self.pending);
        }
        if algo::should_interrupt(&self.checkpoint, &self.graph.interrupt_before, &tasks) {
            self.emit(|_| StreamEvent::Interrupted(Vec::new()));
            return Ok(Some(self.output(Vec::new())));
        }

        let null_resume = Rc::new(RefCell::new(
            self.pending
                .iter()
                .find(|w| w.task_id == NULL_TASK_ID && w.channel == "__resume__")
                .map(|w| w.value.clone()),
        ));
        let state = self.graph.read_state(&self.checkpoint);
        let mut runs = Vec::with_capacity(tasks.len());
        let mut futures = Vec::with_capacity(tasks.len());
        for (i, task) in tasks.iter().enumerate() {
            if !task.writes.is_empty() {
                continue;
            }
            let resume: Vec<Value> = self
                .pending
                .iter()
                .find(|w| w.task_id == task.id && w.channel == "__resume__")
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
                null_resume.clone(),
                self.resume_map.clone(),
                self.config.clone(),
            ));
            let step = self.step;
            self.emit(|_| StreamEvent::Task {
                id: task.id.clone(),
                name: String::from(&*task.name),
                step,
            });
            runs.push((i, pad.clone()));
            futures.push(self.run_task(task, state.clone(), pad));
        }
        // The usual superstep runs one task: await it without `join_all`'s buffers.
        let results = match futures.len() {
            1 => vec![futures.pop().expect("one future").await],
            _ => join_all(futures).await,
        };

        let mut failure: Option<Error> = None;
        let mut interrupts: Vec<Interrupt> = Vec::new();
        for ((i, pad), result) in runs.into_iter().zip(results) {
            let task = &mut tasks[i];
            let resume_row = pad.resume_changed.get().then(|| {
                (
                    "__resume__".to_owned(),
                    Value::Array(pad.resume.borrow().clone()),
                )
            });
            if pad.resume_changed.get() {
                // The NULL resume value was taken by this task.
                if null_resume.borrow().is_none() {
                    self.pending
                        .retain(|w| !(w.task_id == NULL_TASK_ID && w.channel == "__resume__"));
                }
            }
            let mut raised = Vec::new();
            let mut error_text = None;
            match result {
                Ok(mut writes) => {
                    writes.extend(resume_row);
                    if !writes.iter().any(|(c, _)| !algo::is_control(c)) {
                        writes.push(("__no_writes__".into(), Value::Null));
                    }
                    self.put_writes(&task.id, &task.path, &writes)?;
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
                    if let Some(interrupt) = pad.raised.borrow_mut().take() {
                        let mut rows = vec![(
                            "__interrupt__".to_owned(),
                            serde_json::to_value(vec![&interrupt]).unwrap_or(Value::Null),
                        )];
                        rows.extend(resume_row);
                        self.put_writes(&task.id, &task.path, &rows)?;
                        raised.push(interrupt);
                    }
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
                        &[("__error__".into(), Value::String(e.repr()))],
                    )?;
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
        if !interrupts.is_empty() {
            let reported = interrupts.clone();
            self.emit(|_| StreamEvent::Interrupted(reported));
            return Ok(Some(self.output(interrupts)));
        }

        // after_tick: apply, save, maybe pause after.
        let updated = self.apply(&mut tasks)?;
        self.pending.clear();
        self.is_replaying = false;
        self.save(Source::Loop, Some(updated.into_iter().collect()))?;
        self.step += 1;
        self.emit(|run| StreamEvent::Values(run.graph.read_values(&run.checkpoint.channel_values)));
        if algo::should_interrupt(&self.checkpoint, &self.graph.interrupt_after, &tasks) {
            self.emit(|_| StreamEvent::Interrupted(Vec::new()));
            return Ok(Some(self.output(Vec::new())));
        }
        Ok(None)
    }

    /// Runs one task's node and its writers.
    fn run_task(
        &self,
        task: &Task,
        state: crate::graph::State,
        pad: Rc<Scratchpad>,
    ) -> impl std::future::Future<Output = Result<Vec<(String, Value)>>> + 'a {
        let graph = self.graph;
        let name = task.name.clone();
        let start_input = self
            .checkpoint
            .channel_values
            .get(START)
            .map(|v| v.to_json());
        async move {
            let node = &graph.nodes[&*name];
            let update = match &node.action {
                Some(action) => action.call(state.clone(), NodeContext::new(pad)).await?,
                None => start_input.unwrap_or(Value::Null),
            };
            node_writes(graph, node, update, &state).await
        }
    }
}
