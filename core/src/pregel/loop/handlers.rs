//! Node error handlers in the loop (LangGraph's `schedule_error_handler`,
//! `prepare_node_error_handler_task` and
//! `_resume_error_handlers_if_applicable`): a task of a node with an error
//! handler that fails (not an interrupt, a parent command or a cancel)
//! stores its error with `__error_source_node__`, and the handler runs in
//! the same superstep as a PUSH task on the failed task's input, given the
//! failure ([`NodeError`]); the superstep then ends as usual. A resumed
//! superstep whose failed task was routed does not run that task again: it
//! runs the handler again.

use super::super::algo::Task;
use super::super::push::handler_task;
use super::task::run_task;
use super::tick::{Committing, Started, TaskFuture, Writes};
use super::Loop;
use crate::checkpoint_ns;
use crate::error::{Error, ErrorKind, Result};
use crate::graph::{NodeError, Scratchpad, TickContext};
use crate::reserved::{ERROR, ERROR_SOURCE_NODE, NS_SEP, PUSH};
use crate::types::StreamEvent;
use futures::future::join_all;
use serde_json::Value;
use std::rc::Rc;

/// An error handler task a resumed superstep scheduled, waiting for its
/// scratchpad: (task id, its namespace, the failure it handles).
pub(super) type ResumedHandler = (String, String, NodeError);

impl<'a> Loop<'a> {
    /// Whether `task`'s failure `e` goes to an error handler: the task's
    /// node has one (and is not one itself), and `e` is a failure, not a
    /// pause, a parent command or a cancelled run.
    pub(super) fn routes_to_handler(&self, task: &Task, e: &Error) -> bool {
        let failure = !matches!(
            e.kind(),
            ErrorKind::GraphInterrupt | ErrorKind::ParentCommand | ErrorKind::Cancelled
        );
        failure
            && self.graph.nodes.get(&*task.name).is_some_and(|node| {
                !node.is_error_handler
                    && node
                        .error_handler
                        .as_ref()
                        .is_some_and(|h| self.graph.nodes.contains_key(&**h))
            })
    }

    /// The handler task of `failed` ([`handler_task`]) and its
    /// namespace: the failed task's `|` its own.
    fn handler_task(&self, failed: &Task) -> (Task, String) {
        let node = &self.graph.nodes[&*failed.name];
        let handler = node.error_handler.clone().unwrap_or_default();
        let failed_ns = checkpoint_ns::task_ns(&self.frame.ns, &failed.name, &failed.id);
        let input = match &failed.arg {
            Some(arg) => arg.clone(),
            None => node.read(&self.state()).to_json(),
        };
        let task = handler_task(
            &self.checkpoint.id,
            self.step,
            failed,
            &failed_ns,
            handler,
            input,
        );
        let ns = format!("{failed_ns}{NS_SEP}{}:{}", task.name, task.id);
        (task, ns)
    }

    /// Schedules `failed`'s error handler for failure `e` in this
    /// superstep (context `tick`): reports it started and returns it with
    /// its scratchpad.
    pub(super) fn error_handler_task(
        &mut self,
        failed: &Task,
        e: &Error,
        tick: &Rc<TickContext>,
    ) -> (Task, Rc<Scratchpad>) {
        let (task, ns) = self.handler_task(failed);
        let error = NodeError {
            node: String::from(&*failed.name),
            error: e.clone(),
        };
        let pad = self.scratchpad(&task, tick).for_error_handler(ns, error);
        self.report_handler_start(&task);
        (task, Rc::new(pad))
    }

    /// The `Task` event of a handler task (started outside `start_tasks`).
    fn report_handler_start(&mut self, task: &Task) {
        let step = self.step;
        self.emit(|_| StreamEvent::Task {
            id: task.id.clone(),
            name: String::from(&*task.name),
            step,
            input: task.arg.clone().unwrap_or(Value::Null),
            triggers: vec![PUSH.to_owned()],
            path: String::from(&*task.path),
        });
    }

    /// The run of a handler task scheduled while its superstep runs.
    pub(super) fn start_error_handler(&self, task: &Task, pad: Rc<Scratchpad>) -> TaskFuture<'a> {
        let start_input = None;
        Box::pin(run_task(
            self.graph,
            task.name.clone(),
            task.arg.clone(),
            None,
            self.state(),
            start_input,
            pad,
        ))
    }

    /// Runs the handlers of the failures `handled` (indexes into `tasks`)
    /// once the superstep's tasks ran (LangGraph runs them as the failures
    /// settle; the engine's Python path commits in task order), then
    /// commits them into `outcome`.
    pub(super) async fn run_error_handlers(
        &mut self,
        tasks: &mut Vec<Task>,
        handled: Vec<(usize, Error)>,
        outcome: &mut Committing,
    ) -> Result<()> {
        if handled.is_empty() {
            return Ok(());
        }
        let tick = self.tick_context();
        let mut runs: Started = Vec::new();
        let mut futures: Vec<TaskFuture<'a>> = Vec::new();
        for (i, e) in handled {
            let (task, pad) = self.error_handler_task(&tasks[i], &e, &tick);
            futures.push(self.start_error_handler(&task, pad.clone()));
            tasks.push(task);
            runs.push((tasks.len() - 1, pad));
        }
        let single = futures.len() == 1;
        let results: Vec<Result<Writes>> = join_all(futures).await;
        for ((i, pad), result) in runs.into_iter().zip(results) {
            // A handler's own failure is not routed: it fails the run.
            self.commit_one(&mut tasks[i], &pad, result, single, outcome)?;
        }
        Ok(())
    }

    /// A resumed superstep (LangGraph's `_resume_error_handlers_if_applicable`):
    /// each task whose stored writes say its failure went to its error
    /// handler is marked done with its error (it does not run again), and
    /// its handler is scheduled again, given that error.
    pub(super) fn resume_error_handlers(&mut self, tasks: &mut Vec<Task>) {
        let mut handlers = Vec::new();
        for task in tasks.iter_mut().filter(|t| t.writes.is_empty()) {
            let rows = || self.pending.iter().filter(|w| w.task_id == task.id);
            if !rows().any(|w| w.channel == ERROR_SOURCE_NODE) {
                continue;
            }
            let Some(stored) = rows().find(|w| w.channel == ERROR).map(|w| w.value.clone()) else {
                continue;
            };
            let has_handler = self
                .graph
                .nodes
                .get(&*task.name)
                .is_some_and(|n| n.error_handler.is_some());
            if !has_handler {
                continue;
            }
            let text = stored
                .as_str()
                .map_or_else(|| stored.to_string(), str::to_owned);
            // LangGraph.js rebuilds the error from its stored name and message;
            // LangGraph hands over what it stored (the text, here).
            let parsed = Error::from_repr(&text);
            let error = match self.graph.semantics.error_handlers_as_js {
                true => parsed,
                false => Error::node_failure(parsed.name().to_owned(), text),
            }
            .in_node(&*task.name);
            task.writes.push((ERROR.to_owned(), stored));
            handlers.push((task.clone(), error));
        }
        for (failed, error) in handlers {
            let (task, ns) = self.handler_task(&failed);
            let node = String::from(&*failed.name);
            self.resumed_handlers
                .push((task.id.clone(), ns, NodeError { node, error }));
            tasks.push(task);
        }
    }

    /// The namespace and failure of a handler task [`resume_error_handlers`](Self::resume_error_handlers)
    /// scheduled, taken when the task starts.
    pub(super) fn take_resumed_handler(&mut self, id: &str) -> Option<(String, NodeError)> {
        let at = self.resumed_handlers.iter().position(|(t, _, _)| t == id)?;
        let (_, ns, error) = self.resumed_handlers.swap_remove(at);
        Some((ns, error))
    }
}
