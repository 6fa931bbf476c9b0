//! Tasks called by running tasks (LangGraph's functional API; the loop
//! side of [`NodeContext::call`](crate::NodeContext::call)): LangGraph's
//! `accept_push` and the runner's `call`. A call becomes a PUSH task of
//! the running superstep: its id is hashed from the checkpoint, the
//! caller's namespace, the step and the caller's path, call index and id,
//! so the same call of a resumed run finds the same task. A call whose
//! return value is stored on the checkpoint gets it back
//! without running (LangGraph's `_match_writes`); any other runs beside
//! its caller and is committed like every task: its return value is
//! stored as a `__return__` write.

use super::super::algo::Task;
use super::super::push::call_task;
use super::tick::{Started, TaskFuture, Writes};
use super::Loop;
use crate::error::{Error, ErrorKind, Result};
use crate::graph::{Call, NodeContext, Scratchpad, State, TickContext};
use crate::reserved::{NS_SEP, PUSH, RETURN};
use crate::types::{NodeOutput, StreamEvent};
use futures::channel::oneshot;
use serde_json::Value;
use std::rc::Rc;

/// A called task's caller, waiting: the call's index among the
/// superstep's running futures, and where its result goes.
pub(super) type Waiting = (usize, oneshot::Sender<Result<Value>>);

/// The superstep's futures and their bookkeeping, which calls join.
struct Running<'s, 'a> {
    /// The superstep's tasks.
    pub tasks: &'s mut Vec<Task>,
    /// The started ones: index in `tasks` and scratchpad.
    pub runs: &'s mut Started,
    /// Their futures (`None` once settled).
    pub running: &'s mut Vec<Option<TaskFuture<'a>>>,
    /// The called tasks still running.
    pub waiting: &'s mut Vec<Waiting>,
}

impl<'a> Loop<'a> {
    /// Takes the calls queued for this superstep (`cx` wakes the loop on
    /// the next one) and schedules them: see [`accept_calls`](Self::accept_calls).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn take_calls(
        &mut self,
        cx: &std::task::Context<'_>,
        tick: &Rc<TickContext>,
        tasks: &mut Vec<Task>,
        runs: &mut Started,
        running: &mut Vec<Option<TaskFuture<'a>>>,
        waiting: &mut Vec<Waiting>,
    ) -> bool {
        let calls = match &tick.calls {
            Some(calls) => calls.take(cx.waker()),
            None => return false,
        };
        let at = Running {
            tasks,
            runs,
            running,
            waiting,
        };
        !calls.is_empty() && self.accept_calls(calls, at, tick)
    }

    /// Schedules `calls` (LangGraph's `accept_push`): each one either
    /// gets its stored result at once or joins the superstep's running
    /// futures. Returns whether some joined (they need a first poll).
    fn accept_calls(
        &mut self,
        calls: Vec<Call>,
        at: Running<'_, 'a>,
        tick: &Rc<TickContext>,
    ) -> bool {
        let mut joined = false;
        for call in calls {
            let caller = call.caller.clone();
            let task = call_task(
                &self.checkpoint.id,
                self.step,
                &caller,
                &call.name,
                call.index,
                call.input.clone(),
            );
            // Reported started even when its stored result serves it (LangGraph.js's
            // `acceptPush` reports it before it matches the stored writes).
            let step = self.step;
            self.emit(|_| StreamEvent::Task {
                id: task.id.clone(),
                name: call.name.clone(),
                step,
                input: call.input.clone(),
                triggers: vec![PUSH.to_owned()],
                path: String::from(&*task.path),
            });
            if let Some(value) = self.stored_call(&task.id) {
                let update = value.clone();
                self.emit(|_| StreamEvent::CachedUpdates {
                    node: call.name.clone(),
                    update,
                });
                let _ = call.done.send(Ok(value));
                continue;
            }
            let mut pad = self.scratchpad(&task, tick);
            pad.task_ns = format!("{}{NS_SEP}{}:{}", caller.task_ns, call.name, task.id);
            let pad = Rc::new(pad);
            at.running.push(Some(Box::pin(run_call(
                call.action,
                call.input,
                pad.clone(),
            ))));
            at.tasks.push(task);
            at.runs.push((at.tasks.len() - 1, pad));
            at.waiting.push((at.running.len() - 1, call.done));
            joined = true;
        }
        joined
    }

    /// The return value stored on the checkpoint for called task `id`
    /// (`None`: it has not finished, or failed, and runs again, as a
    /// failed task of the graph does; a replay runs every call again).
    fn stored_call(&self, id: &str) -> Option<Value> {
        if self.is_replaying {
            return None;
        }
        self.pending
            .iter()
            .find(|w| w.task_id == id && w.channel == RETURN)
            .map(|w| w.value.clone())
    }
}

/// Hands a settled call's `result` to its caller: its return value, or
/// its error; a paused call's error carries the interrupts it raised
/// (LangGraph's `GraphInterrupt(interrupts)`), which pause the caller in
/// turn when it lets the error through.
pub(super) fn answer(waiting: Waiting, result: &Result<Writes>, raised: &[crate::Interrupt]) {
    let (_, done) = waiting;
    let answer = match result {
        Ok(writes) => Ok(writes
            .iter()
            .find(|(c, _)| c == RETURN)
            .map_or(Value::Null, |(_, v)| v.clone())),
        Err(e) if e.kind() == ErrorKind::GraphInterrupt => Err(e.clone().with_values(
            raised
                .iter()
                .filter_map(|i| serde_json::to_value(i).ok())
                .collect(),
        )),
        Err(e) => Err(e.clone()),
    };
    let _ = done.send(answer);
}

/// The interrupts a called task's `GraphInterrupt` carries (none for any other error).
pub(super) fn interrupts_of(e: &Error) -> Vec<crate::Interrupt> {
    e.values()
        .unwrap_or_default()
        .iter()
        .filter_map(|v| serde_json::from_value(v.clone()).ok())
        .collect()
}

/// Runs a called task: its function on its input; its return value is
/// its one write.
async fn run_call(action: crate::NodeAction, input: Value, pad: Rc<Scratchpad>) -> Result<Writes> {
    let output = action
        .call(State::from_arg(input), NodeContext::new(pad))
        .await?;
    match output {
        NodeOutput::Update(value) => Ok(vec![(RETURN.to_owned(), value)]),
        NodeOutput::Command(_) => Err(Error::invalid_update(
            "A task returned a Command: a task's return value is handed to its caller, not applied to the graph",
        )),
    }
}
