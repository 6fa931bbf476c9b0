//! One superstep, in LangGraph's four parts:
//!
//! 1. **schedule** (`_loop.py` `tick`): the tasks the current checkpoint
//!    triggers, their stored writes matched (a resumed task that finished
//!    does not run again), and `interrupt_before`;
//! 2. **run** (`_runner.py` `PregelRunner.tick`): every task without
//!    stored writes runs, concurrently;
//! 3. **commit** (`PregelRunner.commit`): each task's result is stored as
//!    writes on the current checkpoint: its output, its interrupts, or its
//!    error; any failure or pause ends the run here;
//! 4. **after tick** (`_loop.py` `after_tick`): the writes are applied to
//!    the channels, the next checkpoint is saved, then `interrupt_after`.

use super::super::algo::{self, Task};
use super::super::push;
use super::call::{self, Waiting};
use super::settle::settle_ticks;
use super::task::run_task;
use super::{Loop, Outcome};
use crate::channels::overwrite_value;
use crate::checkpoint::{Name, Source, Version, NULL_TASK_ID};
use crate::checkpoint_ns;
use crate::error::{Error, ErrorKind, Result};
use crate::graph::{Channels, GraphInner, NullResume, Scratchpad, TickContext};
use crate::reserved::{ERROR, ERROR_SOURCE_NODE, INTERRUPT, NO_WRITES, RESUME, RETURN};
use crate::types::{Interrupt, StreamEvent, START};
use futures::future::join_all;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::future::Future;
use std::ops::ControlFlow;
use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;

/// A task's writes: (channel, value) in the order it wrote them.
pub(super) type Writes = Vec<(String, Value)>;

/// The tasks a superstep started: each one's index in the superstep's
/// tasks, and its scratchpad.
pub(super) type Started = Vec<(usize, Rc<Scratchpad>)>;

/// A started task's run (boxed: an error handler's joins a running superstep).
pub(super) type TaskFuture<'a> = Pin<Box<dyn Future<Output = Result<Writes>> + 'a>>;

/// What running a superstep's tasks gave, for the commit.
struct Ran {
    /// Each task that ran: its index in the superstep's tasks and its scratchpad.
    runs: Started,
    /// Their results, in the same order.
    results: Vec<Result<Writes>>,
    /// Exactly one task ran (on LangGraph's main thread, not its pool).
    single: bool,
}

/// What committing one task's result left.
enum Committed {
    /// Its writes are stored.
    Wrote,
    /// It paused, raising these interrupts (none for a breakpoint).
    Paused(Vec<Interrupt>),
    /// A `Command(graph=PARENT)` bubbling up: nothing is stored for the
    /// task (LangGraph's `GraphBubbleUp`).
    Bubbled(Error),
    /// It failed; its error is stored.
    Failed(Error),
    /// It failed and its node has an error handler: its error is stored
    /// with the node it came from, and the handler runs next.
    Handled(Error),
}

/// What committing a superstep's tasks found so far.
#[derive(Default)]
pub(super) struct Committing {
    /// Some task paused.
    paused: bool,
    /// The interrupts the paused tasks raised, in commit order.
    interrupts: Vec<Interrupt>,
    /// The first failure (or `Command(graph=PARENT)` bubbling up).
    failure: Option<Error>,
}

impl Committing {
    /// The first failure as an error, else the interrupts raised if some task paused.
    fn finish(self) -> Result<Option<Vec<Interrupt>>> {
        match self.failure {
            Some(e) => Err(e),
            None => Ok(self.paused.then_some(self.interrupts)),
        }
    }
}

impl<'a> Loop<'a> {
    /// One superstep. Returns an outcome when the run ends.
    pub(super) async fn tick(&mut self) -> Result<Option<Outcome>> {
        let mut tasks = match self.schedule()? {
            ControlFlow::Break(outcome) => return Ok(Some(outcome)),
            ControlFlow::Continue(tasks) => tasks,
        };
        let cached = self.match_cached_writes(&mut tasks).await?;
        let paused = match self.graph.semantics.commit_as_settled {
            true => self.run_and_commit_as_settled(&mut tasks, &cached).await?,
            false => {
                let ran = self.run_tasks(&tasks, &cached).await?;
                let mut outcome = Committing::default();
                let handled = self.commit(&mut tasks, ran, &mut outcome)?;
                self.run_error_handlers(&mut tasks, handled, &mut outcome)
                    .await?;
                outcome.finish()?
            }
        };
        if let Some(interrupts) = paused {
            // Committed as settled, each task reported its own interrupts
            // already; else they are reported together, before the state.
            if !interrupts.is_empty() && !self.graph.semantics.commit_as_settled {
                let reported = interrupts.clone();
                self.emit(|_| StreamEvent::Interrupted(reported));
            }
            let state = self.paused_state(&tasks)?;
            // A subgraph that paused at a breakpoint raised no interrupt:
            // only the root reports that pause, after the state (LangGraph's
            // `_suppress_interrupt`).
            if interrupts.is_empty() {
                self.emit_breakpoint();
            }
            return Ok(Some(Outcome::Paused(state, interrupts)));
        }
        self.after_tick(&mut tasks)
    }

    /// The superstep's tasks, or how the run ends before any runs: no
    /// task left, or `interrupt_before` names one of them.
    fn schedule(&mut self) -> Result<ControlFlow<Outcome, Vec<Task>>> {
        let mut tasks =
            algo::prepare_next_tasks(self.graph, &self.checkpoint, &self.frame.ns, self.step);
        if self.knows_updated {
            // PUSH tasks keep their `Send` order, ahead of the PULL tasks.
            tasks.sort_by_cached_key(|t| match t.arg {
                Some(_) => None,
                None => Some(t.name.clone()),
            });
        }
        self.emit_checkpoint(&tasks);
        if tasks.is_empty() {
            return Ok(ControlFlow::Break(Outcome::Done(self.output())));
        }
        // A replay re-runs every task: the writes stored on the replayed
        // checkpoint are history, not results to reuse.
        if !self.is_replaying && !self.pending.is_empty() {
            algo::match_writes(&mut tasks, &self.pending);
            self.resume_error_handlers(&mut tasks);
        }
        if algo::should_interrupt(&self.checkpoint, self.breakpoints(true), &tasks) {
            self.emit_breakpoint();
            let state = self.paused_state(&tasks)?;
            return Ok(ControlFlow::Break(Outcome::Paused(state, Vec::new())));
        }
        // The tasks that finished in an earlier run report their updates again.
        for task in tasks.iter().filter(|t| t.is_finished()) {
            self.emit(|run| StreamEvent::CachedUpdates {
                node: String::from(&*task.name),
                update: update_chunk(run.graph, &task.writes),
            });
        }
        Ok(ControlFlow::Continue(tasks))
    }

    /// A breakpoint's `{__interrupt__: []}`: the root graph reports it (a
    /// subgraph's pause reaches the root as its task's empty interrupt),
    /// as LangGraph's `_suppress_interrupt` does for the root loop only.
    fn emit_breakpoint(&mut self) {
        if !self.frame.is_nested() {
            self.emit(|_| StreamEvent::Interrupted(Vec::new()));
        }
    }

    /// What this tick's tasks share, and what subgraphs they run inherit.
    pub(super) fn tick_context(&self) -> Rc<TickContext> {
        let own = self
            .pending
            .iter()
            .find(|w| w.task_id == NULL_TASK_ID && w.channel == RESUME)
            .map(|w| w.value.clone());
        Rc::new(TickContext {
            saver: self.frame.saver.clone(),
            thread_id: self.frame.thread_id.clone(),
            checkpoint_ns: self.frame.ns.clone(),
            checkpoint_map: checkpoint_ns::child_map(
                &self.frame.checkpoint_map,
                &self.frame.ns,
                &self.checkpoint.id,
            ),
            resuming: self.frame.resuming,
            replay: self.frame.replay.clone(),
            resume_map: self.frame.resume_map.clone(),
            null_resume: Rc::new(NullResume {
                own: RefCell::new(own),
                parent: self.frame.parent_null_resume.clone(),
            }),
            config: self.frame.config.clone(),
            ids: self.frame.ids.clone(),
            events: self.frame.events.clone(),
            calls: self
                .graph
                .semantics
                .commit_as_settled
                .then(Default::default),
            previous: self
                .checkpoint
                .channel_values
                .get(crate::reserved::PREVIOUS)
                .map(|v| v.to_json()),
        })
    }

    /// A new scratchpad for `task` of this superstep (context `tick`).
    pub(super) fn scratchpad(&self, task: &Task, tick: &Rc<TickContext>) -> Scratchpad {
        Scratchpad::new(
            &task.name,
            &task.id,
            (&task.path, &task.triggers),
            self.step,
            self.stored_resume(&task.id),
            tick.clone(),
        )
    }

    /// The answers stored for task `task_id`'s `interrupt()` calls.
    fn stored_resume(&self, task_id: &str) -> Vec<Value> {
        self.pending
            .iter()
            .find(|w| w.task_id == task_id && w.channel == RESUME)
            .map(|w| match &w.value {
                Value::Array(items) => items.clone(),
                other => vec![other.clone()],
            })
            .unwrap_or_default()
    }

    /// Starts every task that has no stored writes: reports each one's
    /// start (and the start of those served from the cache, `cached`, whose
    /// updates follow), and returns them (their index and scratchpad) with
    /// their futures, in task order.
    fn start_tasks(
        &mut self,
        tasks: &[Task],
        tick: &Rc<TickContext>,
        cached: &[usize],
    ) -> Result<(Started, Vec<TaskFuture<'a>>)> {
        let state = self.state();
        let start_input = self
            .checkpoint
            .channel_values
            .get(START)
            .map(|v| v.to_json());
        let mut runs = Vec::with_capacity(tasks.len());
        let mut futures: Vec<TaskFuture<'a>> = Vec::with_capacity(tasks.len());
        for (i, task) in tasks.iter().enumerate() {
            let from_cache = cached.contains(&i);
            if !task.writes.is_empty() && !from_cache {
                continue;
            }
            let step = self.step;
            self.emit(|_| StreamEvent::Task {
                id: task.id.clone(),
                name: String::from(&*task.name),
                step,
                input: match (&task.arg, &task.input, &*task.name) {
                    (Some(arg), _, _) => arg.clone(),
                    (None, Some(read), _) => read.to_json(),
                    (None, None, START) => start_input.clone().unwrap_or(Value::Null),
                    (None, None, _) => self.graph.nodes[&*task.name].read(&state).to_json(),
                },
                triggers: match push::is_push(&task.path) {
                    true => vec![crate::reserved::PUSH.to_owned()],
                    false => task.triggers.iter().map(|t| String::from(&**t)).collect(),
                },
                path: String::from(&*task.path),
            });
            if from_cache {
                continue;
            }
            let pad = self.scratchpad(task, tick);
            // An error handler a resumed superstep scheduled again.
            let pad = Rc::new(match self.take_resumed_handler(&task.id) {
                Some((ns, error)) => pad.for_error_handler(ns, error),
                None => pad,
            });
            runs.push((i, pad.clone()));
            futures.push(Box::pin(run_task(
                self.graph,
                task.name.clone(),
                task.arg.clone(),
                task.input.clone(),
                state.clone(),
                start_input.clone(),
                pad,
            )));
        }
        self.report_cached(tasks, cached)?;
        Ok((runs, futures))
    }

    /// After the tasks ran: the NULL resume value a task (or a subgraph's
    /// task) took is no longer pending.
    fn forget_taken_null_resume(&mut self, tick: &TickContext, had_null_resume: bool) {
        if had_null_resume && tick.null_resume.own.borrow().is_none() {
            self.pending
                .retain(|w| !(w.task_id == NULL_TASK_ID && w.channel == RESUME));
        }
    }

    /// Runs every task that has no stored writes, concurrently.
    async fn run_tasks(&mut self, tasks: &[Task], cached: &[usize]) -> Result<Ran> {
        let tick = self.tick_context();
        let had_null_resume = tick.null_resume.own.borrow().is_some();
        let (runs, mut futures) = self.start_tasks(tasks, &tick, cached)?;
        let single = futures.len() == 1;
        if let (false, Some(exec)) = (single, &mut self.exec) {
            let ran = exec.pool(futures.len());
            self.store(ran)?;
        }
        let results = if self.sink.is_some() && self.frame.events.is_some() {
            // Streaming subgraphs: what their loops report while the tasks
            // run reaches the sink after each poll, in the order it happened.
            let mut all = std::pin::pin!(join_all(futures));
            let events = self.frame.events.clone();
            std::future::poll_fn(|cx| {
                if let Some(events) = &events {
                    events.polling();
                }
                let polled = all.as_mut().poll(cx);
                self.forward_nested(cx.waker());
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
        self.forget_taken_null_resume(&tick, had_null_resume);
        Ok(Ran {
            runs,
            results,
            single,
        })
    }

    /// Runs every task that has no stored writes, concurrently, committing
    /// each one as it settles (see `Semantics::commit_as_settled`).
    /// Returns what [`commit`](Self::commit) returns.
    async fn run_and_commit_as_settled(
        &mut self,
        tasks: &mut Vec<Task>,
        cached: &[usize],
    ) -> Result<Option<Vec<Interrupt>>> {
        let tick = self.tick_context();
        let had_null_resume = tick.null_resume.own.borrow().is_some();
        let (mut runs, futures) = self.start_tasks(tasks, &tick, cached)?;
        let single = futures.len() == 1;
        let mut running: Vec<Option<TaskFuture<'a>>> = futures.into_iter().map(Some).collect();
        let mut outcome = Committing::default();
        let mut saver_error: Option<Error> = None;
        // The root loop's queue of what its subgraphs report (see `NestedEvents`).
        let events = self.sink.as_ref().and(self.frame.events.clone());
        let mut waiting: Vec<Waiting> = Vec::new();
        // Called tasks that settled, committed in the next round: LangGraph.js's
        // caller goes on (its next calls start) before the runner commits its call.
        let mut deferred: Vec<(usize, Result<Writes>)> = Vec::new();
        std::future::poll_fn(|cx| {
            if let Some(events) = &events {
                events.polling();
            }
            // Tasks called since the last poll join the superstep.
            self.take_calls(cx, &tick, tasks, &mut runs, &mut running, &mut waiting);
            for (k, result) in std::mem::take(&mut deferred) {
                let (i, pad) = runs[k].clone();
                let committed = self.commit_one(&mut tasks[i], &pad, result, single, &mut outcome);
                if let Err(e) = committed {
                    saver_error.get_or_insert(e);
                }
            }
            let mut settled: Vec<(usize, Result<Writes>)> = Vec::new();
            for (k, slot) in running.iter_mut().enumerate() {
                if let Some(Poll::Ready(result)) = slot.as_mut().map(|f| f.as_mut().poll(cx)) {
                    settled.push((k, result));
                    *slot = None;
                }
            }
            // What subgraph loops reported while polling happened before
            // the tasks running them settled (the root forwards it; a
            // subgraph's loop leaves it queued for the root).
            if self.sink.is_some() {
                self.forward_nested(cx.waker());
            }
            // In the order LangGraph.js's runner would commit them (settle.rs).
            settled.sort_by_cached_key(|(k, result)| {
                let (i, pad) = &runs[*k];
                let ticks = match push::is_call(&tasks[*i]) {
                    // A called task's function settles it (no writers).
                    true => 0,
                    false => {
                        let node = &self.graph.nodes[&*tasks[*i].name];
                        settle_ticks(node, result, pad.returned.get())
                    }
                };
                (ticks, *k)
            });
            let mut joined = false;
            for (k, result) in settled {
                let (i, pad) = runs[k].clone();
                // LangGraph.js schedules a failed task's error handler (and
                // reports it started) before it commits the failure.
                if let Err(e) = &result {
                    if !push::is_call(&tasks[i]) && self.routes_to_handler(&tasks[i], e) {
                        let (handler, hpad) = self.error_handler_task(&tasks[i], e, &tick);
                        running.push(Some(self.start_error_handler(&handler, hpad.clone())));
                        tasks.push(handler);
                        runs.push((tasks.len() - 1, hpad));
                        joined = true;
                    }
                }
                // A called task's caller gets its result now, the commit
                // comes in the next round.
                if let Some(at) = waiting.iter().position(|(r, _)| *r == k) {
                    call::answer(waiting.swap_remove(at), &result, &pad.raised.borrow());
                    deferred.push((k, result));
                    continue;
                }
                let committed = self.commit_one(&mut tasks[i], &pad, result, single, &mut outcome);
                if let Err(e) = committed {
                    saver_error.get_or_insert(e);
                }
            }
            // Tasks called in this poll join; they too are polled next round.
            joined |= self.take_calls(cx, &tick, tasks, &mut runs, &mut running, &mut waiting);
            // A handler that joined is polled in the next round; so is a
            // settled call once nothing else runs.
            let done = running.iter().all(Option::is_none);
            if joined || (done && !deferred.is_empty()) {
                cx.waker().wake_by_ref();
            }
            match done && deferred.is_empty() {
                true => Poll::Ready(()),
                false => Poll::Pending,
            }
        })
        .await;
        self.forget_taken_null_resume(&tick, had_null_resume);
        if let Some(e) = saver_error {
            return Err(e);
        }
        outcome.finish()
    }

    /// Stores each task's result, in task order, noting in `outcome` the
    /// interrupts raised and the first failure (every result is stored, so
    /// a resume does not re-run the others). Returns the failures that go
    /// to error handlers: the failed task's index and its error.
    fn commit(
        &mut self,
        tasks: &mut [Task],
        ran: Ran,
        outcome: &mut Committing,
    ) -> Result<Vec<(usize, Error)>> {
        let mut handled = Vec::new();
        for ((i, pad), result) in ran.runs.into_iter().zip(ran.results) {
            if let Some(e) = self.commit_one(&mut tasks[i], &pad, result, ran.single, outcome)? {
                handled.push((i, e));
            }
        }
        Ok(handled)
    }

    /// Stores one task's result and reports it (its "tasks" result event),
    /// noting in `outcome` whether it paused or failed. Returns the error
    /// of a task whose failure goes to its node's error handler.
    pub(super) fn commit_one(
        &mut self,
        task: &mut Task,
        pad: &Scratchpad,
        result: Result<Writes>,
        single: bool,
        outcome: &mut Committing,
    ) -> Result<Option<Error>> {
        let committed = self.commit_task(task, pad, result, single)?;
        let (error, raised) = match &committed {
            Committed::Failed(e) | Committed::Handled(e) => (Some(e.to_string()), &[][..]),
            Committed::Paused(raised) => (None, &raised[..]),
            Committed::Wrote | Committed::Bubbled(_) => (None, &[][..]),
        };
        let step = self.step;
        self.emit(|run| StreamEvent::TaskResult {
            id: task.id.clone(),
            name: String::from(&*task.name),
            step,
            error,
            interrupts: raised.to_vec(),
            result: task
                .writes
                .iter()
                .filter(|(c, _)| run.graph.shows_write(c))
                .cloned()
                .collect(),
        });
        match committed {
            Committed::Wrote => {}
            Committed::Paused(raised) => {
                outcome.paused = true;
                // A called task's interrupts are its caller's too: reported once, by the caller.
                if !push::is_call(task) {
                    outcome.interrupts.extend(raised);
                }
            }
            Committed::Bubbled(e) | Committed::Failed(e) => {
                outcome.failure.get_or_insert(e);
            }
            Committed::Handled(e) => return Ok(Some(e)),
        }
        Ok(None)
    }

    /// Stores one task's result as writes on the current checkpoint.
    fn commit_task(
        &mut self,
        task: &mut Task,
        pad: &Scratchpad,
        result: Result<Writes>,
        single: bool,
    ) -> Result<Committed> {
        // Answers the task received during this run are stored with it, so
        // a later resume replays them in `interrupt()` call order.
        let resume_row = pad
            .resume_changed
            .get()
            .then(|| (RESUME.to_owned(), Value::Array(pad.resume.borrow().clone())));
        match result {
            Ok(mut writes) => {
                writes.extend(resume_row);
                // A task with nothing but control writes still finished:
                // the marker keeps it from running again on resume.
                if !writes.iter().any(|(c, _)| !algo::is_control(c)) {
                    writes.push((NO_WRITES.into(), Value::Null));
                }
                self.put_task_writes(task, &writes, single)?;
                self.cache_writes(&task.id, &writes)?;
                // Built only for a stream (the closure runs only then).
                self.emit(|run| StreamEvent::Updates {
                    node: String::from(&*task.name),
                    update: update_chunk(run.graph, &writes),
                });
                task.writes = writes;
                Ok(Committed::Wrote)
            }
            Err(e) if e.kind() == ErrorKind::GraphInterrupt => {
                let mut raised = std::mem::take(&mut *pad.raised.borrow_mut());
                // A called task's interrupt that the task let through (see `call::answer`).
                if raised.is_empty() {
                    raised = call::interrupts_of(&e);
                }
                if !raised.is_empty() {
                    let mut rows = vec![(
                        INTERRUPT.to_owned(),
                        serde_json::to_value(&raised).unwrap_or(Value::Null),
                    )];
                    rows.extend(resume_row);
                    self.put_task_writes(task, &rows, single)?;
                    // LangGraph.js reports a task's interrupts as it commits.
                    // (A called task's are reported by its caller, which raises them too.)
                    if self.graph.semantics.commit_as_settled && !push::is_call(task) {
                        let reported = raised.clone();
                        self.emit(|_| StreamEvent::Interrupted(reported));
                    }
                }
                Ok(Committed::Paused(raised))
            }
            // A cancelled run saves nothing of a task it cancelled (LangGraph.js's
            // runner is gone when such a task settles).
            Err(e) if e.kind() == ErrorKind::Cancelled => Ok(Committed::Failed(e)),
            Err(e) if e.kind() == ErrorKind::ParentCommand => {
                // The command goes to the task running this loop, which
                // returns it as its own output.
                if let Some(outer) = &self.frame.outer {
                    let cmd = pad.parent_command.borrow_mut().take();
                    *outer.parent_command.borrow_mut() = cmd;
                }
                Ok(Committed::Bubbled(e))
            }
            Err(e) => {
                let e = if e.node().is_none() {
                    e.in_node(&*task.name)
                } else {
                    e
                };
                let mut rows = vec![(ERROR.to_owned(), Value::String(e.repr()))];
                let handled = self.routes_to_handler(task, &e);
                if handled {
                    rows.push((
                        ERROR_SOURCE_NODE.to_owned(),
                        Value::String(String::from(&*task.name)),
                    ));
                }
                self.put_task_writes(task, &rows, single)?;
                Ok(match handled {
                    true => Committed::Handled(e),
                    false => Committed::Failed(e),
                })
            }
        }
    }

    /// `put_writes` for one task's commit. A lone task commits on
    /// LangGraph's main thread, where its save is a submission the replayed
    /// pool sees; several tasks commit from the pool (see `exec.pool`).
    fn put_task_writes(
        &mut self,
        task: &Task,
        writes: &[(String, Value)],
        single: bool,
    ) -> Result<()> {
        self.put_writes(&task.id, &task.path, writes)?;
        if single {
            self.submitted_writes()?;
        }
        Ok(())
    }

    /// LangGraph's `after_tick`: applies the superstep's writes, saves the
    /// next checkpoint, then checks `interrupt_after`.
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

    fn after_tick(&mut self, tasks: &mut [Task]) -> Result<Option<Outcome>> {
        // A "values" event only when some task wrote a state key (a step
        // of nodes that returned nothing, or only routed, reports none).
        let wrote_state = self.wrote_state(tasks);
        let wrote_output = self.wrote_output(tasks);
        let updated = self.apply(tasks)?;
        self.knows_updated = true;
        self.pending.clear();
        self.exit_writes.clear();
        self.is_replaying = false;
        self.save(Source::Loop, Some(updated.into_iter().collect()))?;
        self.step += 1;
        // Only a run's first superstep passes its classification down.
        self.frame.resuming = None;
        if wrote_state {
            self.emit_values();
        }
        if wrote_output {
            self.note_output();
        }
        if algo::should_interrupt(&self.checkpoint, self.breakpoints(false), tasks) {
            self.emit_breakpoint();
            return Ok(Some(Outcome::Paused(self.output(), Vec::new())));
        }
        Ok(None)
    }

    /// Applies (and takes) the tasks' writes: see `algo::apply_writes_in_place`.
    pub(super) fn apply(&mut self, tasks: &mut [Task]) -> Result<BTreeSet<Name>> {
        let saver = self.frame.saver.clone();
        let next = move |current: Option<Version>| match &saver {
            Some(s) => s.get_next_version(current),
            None => Version {
                counter: current.map_or(0, |v| v.counter) + 1,
                salt: 0,
            },
        };
        let consumed = self.joins_consumed_by(tasks);
        if let Some(delta) = &mut self.delta {
            // An Overwrite of a delta channel: LangGraph.js snapshots it at this step's checkpoint.
            let overwritten = tasks
                .iter()
                .flat_map(|t| &t.writes)
                .filter(|(_, v)| overwrite_value(v).is_some());
            delta.force(&self.graph.delta, overwritten.map(|(c, _)| c.as_str()));
        }
        // In place: on error the run ends and this checkpoint is dropped.
        let updated = algo::apply_writes_in_place(
            self.graph,
            &self.frame.ids,
            &mut self.checkpoint,
            tasks,
            &next,
        )?;
        if let Some(exec) = &mut self.exec {
            exec.apply(
                super::durability::join_sets(self.graph, &self.checkpoint),
                &consumed,
            );
        }
        Ok(updated)
    }
}

/// A task's `updates` chunk (LangGraph's `map_output_updates`): its state
/// writes as one object, or, when it wrote a channel more than once, one
/// `{channel: value}` object per write, in order; `null` for none.
pub(super) fn update_chunk(graph: &GraphInner, writes: &[(String, Value)]) -> Value {
    // A called task's update is its return value (LangGraph's `RETURN` branch).
    if let Some((_, value)) = writes.iter().find(|(c, _)| c == RETURN) {
        return value.clone();
    }
    // A Pregel graph streaming one channel: the values written to it.
    if let Some(Channels::One(channel)) = graph.pregel.as_ref().map(|p| &p.stream) {
        let mut values: Vec<Value> = writes
            .iter()
            .filter(|(c, _)| c == channel)
            .map(|(_, v)| v.clone())
            .collect();
        return match values.len() {
            0 => Value::Null,
            1 => values.pop().unwrap_or(Value::Null),
            _ => Value::Array(values),
        };
    }
    let state: Vec<&(String, Value)> = writes
        .iter()
        .filter(|(c, _)| graph.shows_write(c))
        .collect();
    if state.is_empty() {
        return Value::Null;
    }
    let repeated = state
        .iter()
        .enumerate()
        .any(|(i, (c, _))| state[..i].iter().any(|(d, _)| d == c));
    let one = |(c, v): &&(String, Value)| (c.clone(), v.clone());
    match repeated {
        true => Value::Array(
            state
                .iter()
                .map(|w| Value::Object(std::iter::once(one(w)).collect()))
                .collect(),
        ),
        false => Value::Object(state.iter().map(one).collect::<Map<_, _>>()),
    }
}
