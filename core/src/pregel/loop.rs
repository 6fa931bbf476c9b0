//! The run loop (LangGraph `pregel/_loop.py`): load a checkpoint, classify
//! the run (new input, resume, replay/fork), then tick supersteps until no
//! task is left, a breakpoint or `interrupt()` pauses, a node fails, or the
//! recursion limit is reached. Every superstep writes one checkpoint.
//!
//! Where each of LangGraph's steps lives:
//!
//! | LangGraph (`_loop.py`)            | here                                   |
//! |-----------------------------------|----------------------------------------|
//! | `__enter__`: load the checkpoint  | [`enter`]: `Frame`, `Loop::load`       |
//! | `_first`: input, resume, fork     | [`first`]: `Loop::first`, `map_command`|
//! | `tick` + `PregelRunner.tick`      | [`tick`]: schedule, run, commit        |
//! | `after_tick`                      | [`tick`]: `Loop::after_tick`           |
//! | `_put_checkpoint`, `put_writes`   | [`durability`]: `save`, `put_writes`   |
//! | `__exit__` (`durability="exit"`)  | [`durability`]: `save_on_exit`         |
//! | a task's node and writers         | [`task`]: `run_task`                   |
//! | `PregelRunner`'s settle order (JS) | [`settle`]: `settle_ticks`             |
//!
//! A subgraph node runs the same loop nested in its task ([`run_subgraph`]):
//! in the task's namespace (see [`crate::checkpoint_ns`]), with what the
//! parent's tick passes down ([`TickContext`](crate::graph::TickContext): the saver, `checkpoint_map`,
//! the resuming flag and the replay of a time-travelling root run).

mod cached;
mod call;
mod durability;
mod enter;
mod first;
mod handlers;
mod settle;
mod task;
mod tick;

use super::algo::{self, Task};
use super::delta::DeltaCounters;
use super::thread_pool_saves;
use crate::checkpoint::{
    ChannelVersions, Checkpoint, CheckpointConfig, CheckpointMetadata, PendingWrite, Source,
};
use crate::error::{troubleshooting, Error, ErrorKind, Result};
use crate::graph::{CompiledGraph, GraphInner, NodeContext, State};
use crate::types::{Interrupt, NodeOutput, RunInput, RunOutput, RunnableConfig, StreamEvent};
use durability::{DeferredPut, HeldWrites};
use enter::Frame;
pub(crate) use first::map_input;
use serde_json::Value;
use std::collections::BTreeMap;
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
        (Outcome::Done(values), values_reported) => Ok(RunOutput {
            values,
            interrupts: Vec::new(),
            paused: false,
            values_reported,
        }),
        (Outcome::Paused(values, interrupts), values_reported) => Ok(RunOutput {
            values,
            interrupts,
            paused: true,
            values_reported,
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
    run_subgraph_into(graph, input, ctx, None).await
}

/// [`run_subgraph`], reporting the subgraph's own events to `sink` when
/// given (a graph a node streams: its stream shows what its loop reports,
/// in its own namespace as `""`; the events of the subgraphs it runs in
/// turn are not reported, to it or to the root's stream).
pub(crate) async fn run_subgraph_into<'a>(
    graph: &'a CompiledGraph,
    input: State,
    ctx: NodeContext,
    sink: Option<Sink<'a>>,
) -> Result<NodeOutput> {
    let pad = ctx.pad.clone();
    let mut frame = Frame::nested(&pad, &graph.inner);
    if sink.is_some() {
        frame.events = None;
    }
    match Box::pin(run_loop(
        &graph.inner,
        RunInput::Values(input.to_json()),
        frame,
        sink,
    ))
    .await?
    {
        (Outcome::Done(values), _) => Ok(NodeOutput::Update(values.to_json())),
        (Outcome::Paused(_, interrupts), _) => {
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

impl Outcome {
    /// The same outcome with `values` (when given) as its state.
    fn with_values(self, values: Option<State>) -> Outcome {
        match (self, values) {
            (Outcome::Done(_), Some(v)) => Outcome::Done(v),
            (Outcome::Paused(_, i), Some(v)) => Outcome::Paused(v, i),
            (outcome, None) => outcome,
        }
    }
}

/// One loop, from `__enter__` to `__exit__`: whatever ended it, what the
/// replayed thread pool still holds is stored, and with
/// `durability="exit"` the checkpoint the run ended on is saved. With the
/// outcome: whether the run reported its state in a "values" event.
async fn run_loop<'a>(
    graph: &'a GraphInner,
    input: RunInput,
    frame: Frame,
    sink: Option<Sink<'a>>,
) -> Result<(Outcome, bool)> {
    let limit = frame.config.recursion_limit()?;
    let mut run = Loop::load(graph, frame, sink)?;
    run.stop = run.step + limit + 1;
    let result = run.drive(input, limit).await;
    if let Some(exec) = &mut run.exec {
        let ran = exec.end();
        run.store(ran)?;
    }
    // A subgraph that finished leaves nothing to its namespace on exit
    // (its parent's checkpoint holds its result), unless it keeps a
    // history of its own or ended paused or failed (to be resumed there).
    if run.exit_mode
        && (!run.frame.is_nested() || graph.persistent || !matches!(result, Ok(Outcome::Done(_))))
    {
        run.save_on_exit()?;
    }
    // A Pregel graph's run returns the output channels as they were last
    // reported (LangGraph's `invoke` keeps the last "values" chunk of its
    // output channels), or nothing when none was.
    if graph.pregel.is_some() {
        let latest = run.last_output.take();
        let reported = latest.is_some();
        return result.map(|outcome| (outcome.with_values(latest), reported));
    }
    result.map(|outcome| (outcome, run.values_reported))
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
    /// The source of the current checkpoint (`None` for the empty one of
    /// a fresh thread).
    source: Option<Source>,
    /// The current checkpoint's metadata (`None` for the empty one of a
    /// fresh thread), for the `checkpoints` event.
    meta: Option<CheckpointMetadata>,
    /// The current checkpoint's parent is the checkpoint the run loaded or
    /// one it saved (see [`StreamEvent::Checkpoint`]).
    parent_in_run: bool,
    /// The config's extra metadata keys, copied into every checkpoint.
    extras: BTreeMap<String, Value>,
    /// LangGraph.js's delta-channel counters (`None` for a graph without
    /// delta channels, which pays nothing for them).
    delta: Option<DeltaCounters>,
    /// Writes stored on the current checkpoint (loaded, then this tick's).
    pending: Vec<PendingWrite>,
    step: i64,
    /// The step past which the recursion limit is hit.
    stop: i64,
    /// The run named a checkpoint (an id, or a replay's): time travel.
    addressed: bool,
    /// The named checkpoint is not the newest of its namespace.
    superseded: bool,
    /// Until the first tick: stored writes are not matched to tasks.
    is_replaying: bool,
    /// This run applied a step's writes (its input, or a superstep):
    /// LangGraph then knows the step's `updated_channels` and schedules
    /// the nodes they trigger in name order (`prepare_next_tasks`' fast
    /// path); the first tick of a resumed run takes them in registration
    /// order. The order decides which task's interrupts come first.
    knows_updated: bool,
    /// The run reported its state in a "values" event (see
    /// [`RunOutput::values_reported`]).
    values_reported: bool,
    /// For a [`Pregel`](crate::Pregel) graph: its output channels when a
    /// step last wrote one of them (or a resumed run started), what its
    /// run returns.
    last_output: Option<State>,
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
    /// [`thread_pool_saves`]): saves wait here until the replay says they ran.
    exec: Option<thread_pool_saves::VirtualExecutor>,
    deferred: Vec<Option<DeferredPut>>,
    /// The cache keys of this superstep's tasks that run (see [`cached`]).
    cache_keys: Vec<cached::PendingKey>,
    /// Error handlers a resumed superstep scheduled again (see [`handlers`]).
    resumed_handlers: Vec<handlers::ResumedHandler>,
    /// The root loop's sink (a subgraph's loop reports to `frame.events`).
    sink: Option<Sink<'a>>,
}

impl Loop<'_> {
    /// `_first`, then supersteps until one ends the run.
    async fn drive(&mut self, input: RunInput, limit: i64) -> Result<Outcome> {
        self.first(input)?;
        loop {
            if self.step > self.stop {
                return Err(Error::new(
                    ErrorKind::GraphRecursion,
                    format!(
                        "Recursion limit of {limit} reached without hitting a stop condition. You can increase the limit by setting the `recursion_limit` config key.{}",
                        troubleshooting("GRAPH_RECURSION_LIMIT")
                    ),
                ));
            }
            if let Some(output) = self.tick().await? {
                return Ok(output);
            }
        }
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
                events.push(self.frame.ns.clone(), e);
            }
        }
    }

    /// Hands the events subgraph loops queued so far to the root's sink
    /// (`waker`: the root loop's, woken by the next one).
    fn forward_nested(&mut self, waker: &std::task::Waker) {
        let Some(events) = &self.frame.events else {
            return;
        };
        let queued = events.take(waker);
        if let Some(sink) = self.sink.as_mut() {
            for (ns, e) in queued {
                sink(&ns, e);
            }
        }
    }

    /// Notes the output channels as the run's latest output, for a
    /// [`Pregel`](crate::Pregel) graph (see `last_output`).
    fn note_output(&mut self) {
        if self.graph.pregel.is_some() {
            self.last_output = Some(self.output());
        }
    }

    /// Whether some task wrote an output channel of a [`Pregel`](crate::Pregel) graph.
    fn wrote_output(&self, tasks: &[Task]) -> bool {
        let keys = &self.graph.output_keys;
        self.graph.pregel.is_some()
            && tasks.iter().any(|t| {
                t.writes
                    .iter()
                    .any(|(c, _)| keys.iter().any(|k| **k == **c))
            })
    }

    /// The "values" event of the current checkpoint, after what that
    /// checkpoint is ([`StreamEvent::CheckpointMeta`]).
    fn emit_values(&mut self) {
        self.values_reported = true;
        if let (Some(meta), false) = (&self.meta, self.checkpoint.id.is_empty()) {
            let (step, source) = (meta.step, meta.source);
            self.emit(|run| StreamEvent::CheckpointMeta {
                id: run.checkpoint.id.clone(),
                parent_id: run.frame.saver.as_ref().and(run.prev_id.clone()),
                step,
                source,
            });
        }
        self.emit(|run| StreamEvent::Values(run.graph.read_values(&run.checkpoint.channel_values)));
    }

    /// Whether some task wrote a state key (LangGraph's
    /// `map_output_values` reports the state only then).
    fn wrote_state(&self, tasks: &[Task]) -> bool {
        let keys = &self.graph.stream_keys;
        tasks.iter().any(|t| {
            t.writes
                .iter()
                .any(|(c, _)| keys.iter().any(|k| **k == **c))
        })
    }

    /// What the superstep's tasks read (each node then its own channels).
    fn state(&self) -> State {
        self.graph.read_state(&self.checkpoint)
    }

    /// What the run returns if it ends here.
    fn output(&self) -> State {
        self.graph.read_output(&self.checkpoint)
    }

    /// The state a paused run returns: with the writes of the step's tasks
    /// that did finish applied (LangGraph's last "values" event on an
    /// interrupt), though nothing of them is saved as a checkpoint.
    ///
    /// The root graph's loop applies them as a step would, so writes that
    /// cannot be applied together (two values for one `LastValue` channel)
    /// fail the run with their `InvalidUpdateError` instead of its
    /// interrupts (`_suppress_interrupt` runs `apply_writes` unguarded).
    fn paused_state(&mut self, tasks: &[Task]) -> Result<State> {
        if tasks.iter().all(|t| t.writes.is_empty()) {
            return Ok(self.output());
        }
        let consumed = self.joins_consumed_by(tasks);
        let wrote_output = self.wrote_output(tasks);
        match algo::apply_writes(
            self.graph,
            &self.frame.ids,
            &self.checkpoint,
            tasks,
            &algo::read_version,
        ) {
            Ok((cp, _)) => {
                // LangGraph applies them to the live channels, so the join
                // sets that saves still to run will store change too.
                if let Some(exec) = &mut self.exec {
                    exec.apply(durability::join_sets(self.graph, &cp), &consumed);
                }
                if wrote_output {
                    self.last_output = Some(self.graph.read_output(&cp));
                }
                // ... and reports that state (`_suppress_interrupt`).
                if self.wrote_state(tasks) {
                    self.values_reported = true;
                    let values = self.graph.read_values(&cp.channel_values);
                    self.emit(|_| StreamEvent::Values(values));
                }
                Ok(self.graph.read_output(&cp))
            }
            Err(e) if !self.frame.is_nested() => Err(e),
            Err(_) => Ok(self.output()),
        }
    }
}
