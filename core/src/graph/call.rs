//! Tasks a running task calls (LangGraph's functional API: `@task` in
//! Python, `task()` in LangGraph.js, `Call` in `pregel/_call.py`): the
//! call is queued for the loop running the calling task, which schedules
//! it as a PUSH task of the same superstep (`accept_push`), runs it
//! beside its caller and stores its return value as a pending write
//! (`__return__`), so that a resumed run hands the stored value back
//! instead of calling the function again (see `pregel/loop/call.rs`).

use super::node::{NodeAction, NodeContext, Scratchpad};
use crate::error::{Error, Result};
use futures::channel::oneshot;
use serde_json::Value;
use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;
use std::task::Waker;

/// A call of a task's function, waiting for its loop to schedule it.
pub(crate) struct Call {
    /// The task's name (what its updates and its namespace are named by).
    pub name: String,
    /// What it runs.
    pub action: NodeAction,
    /// What it is called on (LangGraph.js: its arguments, as an array).
    pub input: Value,
    /// The calling task.
    pub caller: Rc<Scratchpad>,
    /// How many tasks the caller called before this one.
    pub index: usize,
    /// Where its result goes.
    pub done: oneshot::Sender<Result<Value>>,
}

/// The calls a superstep's tasks made that its loop has not scheduled
/// yet, and the loop's waker (a call made while the loop waits wakes it).
#[derive(Default)]
pub(crate) struct Calls {
    queue: RefCell<Vec<Call>>,
    waker: RefCell<Option<Waker>>,
}

impl Calls {
    /// Queues `call` and wakes the loop.
    fn push(&self, call: Call) {
        self.queue.borrow_mut().push(call);
        self.wake();
    }

    /// Wakes the loop (it then commits the calls that settled).
    fn wake(&self) {
        if let Some(waker) = self.waker.borrow().as_ref() {
            waker.wake_by_ref();
        }
    }

    /// The calls queued so far; `waker` wakes the loop on the next one.
    pub(crate) fn take(&self, waker: &Waker) -> Vec<Call> {
        super::node::remember_waker(&self.waker, waker);
        std::mem::take(&mut *self.queue.borrow_mut())
    }
}

impl std::fmt::Debug for Calls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Calls")
            .field("queued", &self.queue.borrow().len())
            .finish()
    }
}

impl NodeContext {
    /// LangGraph's `call(func, input)` from this running task: `action`,
    /// named `name`, run on `input` as a task of this superstep. The
    /// returned future gives its return value (a stored one, when a
    /// resumed run had already run the call), or its error. Only a loop
    /// that commits its tasks as they settle
    /// ([`Semantics::commit_as_settled`](crate::Semantics::commit_as_settled))
    /// schedules calls; elsewhere the future fails with `UNSUPPORTED`.
    pub fn call(
        &self,
        name: &str,
        action: NodeAction,
        input: Value,
    ) -> impl Future<Output = Result<Value>> + 'static {
        let pad = &self.pad;
        let index = pad.calls.get();
        pad.calls.set(index + 1);
        let (done, result) = oneshot::channel();
        // Dropped at once where no loop takes calls: the future fails.
        if let Some(calls) = &pad.tick.calls {
            calls.push(Call {
                name: name.to_owned(),
                action,
                input,
                caller: pad.clone(),
                index,
                done,
            });
        }
        async move {
            result.await.unwrap_or_else(|_| {
                Err(Error::value(
                    "A task was called where its graph cannot run it: call tasks from an entrypoint or a node of a running graph",
                )
                .with_code("UNSUPPORTED"))
            })
        }
    }

    /// Wakes the loop running this task, so that it commits the tasks this
    /// task called that settled (a JS caller calls it once its code after
    /// the call ran: the loop polls futures, not the JS promises they await).
    pub fn wake_loop(&self) {
        if let Some(calls) = &self.pad.tick.calls {
            calls.wake();
        }
    }

    /// LangGraph's `CONFIG_KEY_PREVIOUS_STATE`: the value of the graph's
    /// `__previous__` channel in the checkpoint the task's superstep runs
    /// from (an entrypoint's last saved return value on the thread).
    pub fn previous(&self) -> Option<&Value> {
        self.pad.tick.previous.as_ref()
    }
}
