//! Running JS tasks by number: what `interrupt()` reaches.
//!
//! A JS node is handed its task as a number (see `node.rs`); the JS layer
//! keeps it where `interrupt()` finds it (the node's config, Node's
//! AsyncLocalStorage, the current call) and calls [`task_interrupt`] with
//! it. A number instead of a wasm-bindgen object per call: no JS wrapper,
//! no FinalizationRegistry entry for every node call.

use super::held::{self, Scope};
use super::types::args::{from_js, json_from_js, to_js};
use super::types::args::{ValueArg, WritesArg};
use crate::error::JsResult;
use crate::error::OrJs;
use chronograph::{Error, ErrorKind, NodeContext};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A running task: its context, and the scope its run holds values in
/// (an `interrupt()` after an `await` runs outside the run's polls).
type Running = (NodeContext, Option<Rc<Scope>>);

thread_local! {
    static TASKS: RefCell<HashMap<u32, Running>> = RefCell::new(HashMap::new());
    static NEXT: Cell<u32> = const { Cell::new(0) };
}

/// A running task's entry in the registry, removed when dropped (when the
/// node's future ends or is dropped): an `interrupt()` after its node
/// finished finds nothing.
pub struct TaskHandle(u32);

impl TaskHandle {
    /// Registers a running task (in the current scope, see [`super::held`]).
    pub fn new(ctx: NodeContext) -> Self {
        // Never 0 (the JS layer tests for a task with `!= null`, but a
        // falsy id would be a trap), and unique among running tasks.
        let id = NEXT.with(|n| {
            let id = n.get().wrapping_add(1).max(1);
            n.set(id);
            id
        });
        TASKS.with(|t| t.borrow_mut().insert(id, (ctx, held::current())));
        TaskHandle(id)
    }

    /// The number the JS layer knows the task by.
    pub fn id(&self) -> u32 {
        self.0
    }
}

impl Drop for TaskHandle {
    fn drop(&mut self) {
        TASKS.with(|t| t.borrow_mut().remove(&self.0));
    }
}

/// The context of running task `task` (`None` once its node finished).
pub fn task_context(task: u32) -> Option<NodeContext> {
    TASKS.with(|t| t.borrow().get(&task).map(|(ctx, _)| ctx.clone()))
}

/// The error of a call from JS that needs a running task after its node
/// finished: a `GraphValueError` with this message and code.
struct Outside {
    message: &'static str,
    code: &'static str,
}

const INTERRUPT_OUTSIDE: Outside = Outside {
    message: "Called interrupt() after its node finished; call it while the node runs.",
    code: "INTERRUPT_OUTSIDE_NODE",
};

const WRITE_OUTSIDE: Outside = Outside {
    message: "A ChannelWrite ran outside a running node; call it while the node runs.",
    code: "WRITE_OUTSIDE_NODE",
};

const CALL_OUTSIDE: Outside = Outside {
    message:
        "A task was called after its caller finished; call tasks while the entrypoint or node runs.",
    code: "TASK_OUTSIDE_NODE",
};

/// Running task `task`'s context and `value` read as JSON data (`what`
/// names it) in the scope of the task's run, so values it holds by
/// reference live as long as the run; `outside` when the task finished.
fn read_in_task(
    task: u32,
    value: JsValue,
    what: &str,
    outside: &Outside,
) -> JsResult<(NodeContext, serde_json::Value)> {
    let running = TASKS.with(|t| t.borrow().get(&task).cloned());
    let Some((ctx, scope)) = running else {
        let error = Error::value(outside.message).with_code(outside.code);
        return Err(crate::error::to_js(&error));
    };
    let value = held::enter(scope, || json_from_js(value, what))?;
    Ok((ctx, value))
}

/// In running task `task` of an error handler, the failure it handles:
/// `[node, error]` (the error the node threw); `undefined` in any other task.
#[wasm_bindgen(js_name = taskNodeError, unchecked_return_type = "[node: string, error: unknown] | undefined")]
pub fn task_node_error(task: u32) -> JsValue {
    let failure = TASKS.with(|t| {
        t.borrow()
            .get(&task)
            .and_then(|(ctx, _)| ctx.node_error().cloned())
    });
    match failure {
        Some(f) => js_sys::Array::of2(
            &JsValue::from_str(&f.node),
            &crate::error::handled_to_js(&f.error),
        )
        .into(),
        None => JsValue::UNDEFINED,
    }
}

/// LangGraph's `interrupt(value)` in running task `task`: the answer when
/// this call was already answered, else throws the `GraphInterrupt` marker
/// that pauses the node.
#[wasm_bindgen(js_name = taskInterrupt, unchecked_return_type = "unknown")]
pub fn task_interrupt(task: u32, value: ValueArg) -> JsResult<JsValue> {
    let (ctx, value) = read_in_task(
        task,
        value.into(),
        "interrupt(value): value",
        &INTERRUPT_OUTSIDE,
    )?;
    let answer = ctx.interrupt(value).or_js()?;
    to_js(&answer)
}

/// LangGraph's `CONFIG_KEY_SEND` in running task `task`: `writes` (an
/// array of `[channel, value]` pairs, a `ChannelWrite` run inside a node)
/// become the task's writes, before its writers'.
#[wasm_bindgen(js_name = taskWrite)]
pub fn task_write(task: u32, writes: WritesArg) -> JsResult {
    let (ctx, written) = read_in_task(task, writes.into(), "writes", &WRITE_OUTSIDE)?;
    let pairs: Vec<(String, serde_json::Value)> = match written {
        serde_json::Value::Array(items) => items
            .into_iter()
            .filter_map(|item| match item {
                serde_json::Value::Array(mut pair) if pair.len() == 2 => {
                    let value = pair.pop()?;
                    let channel = pair.pop()?.as_str()?.to_owned();
                    Some((channel, value))
                }
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    ctx.write(pairs).or_js()
}

/// Forgets the writes running task `task` made (`taskWrite`) before a retry.
#[wasm_bindgen(js_name = taskClearWrites)]
pub fn task_clear_writes(task: u32) {
    if let Some((ctx, _)) = TASKS.with(|t| t.borrow().get(&task).cloned()) {
        ctx.clear_writes();
    }
}

/// `config.writer(chunk)` in running task `task` of a subgraph, when the
/// run streams subgraphs: queues `token` (the JS layer keeps the chunk
/// itself) among the subgraph's stream events, so the chunk keeps its place
/// among them; `false` when nothing was queued (a root graph's task, a run
/// that does not stream subgraphs, a finished task): the JS layer then
/// streams the chunk at once.
#[wasm_bindgen(js_name = taskCustom)]
pub fn task_custom(task: u32, token: f64) -> bool {
    let ctx = TASKS.with(|t| t.borrow().get(&task).cloned());
    ctx.is_some_and(|(ctx, _)| ctx.custom(token.into()))
}

/// LangGraph's `call(func, input)` in running task `task` (the
/// functional API's `task()`): `f`, a JS node function (`wrapNode`'s
/// form, see `node.rs`) named `name`, runs on `input` (the task's
/// arguments) as a task of the running superstep. Returns a Promise of
/// its return value, a stored one when a resumed run had already run
/// it; it rejects with the task's error.
#[wasm_bindgen(js_name = taskCall, unchecked_return_type = "Promise<unknown>")]
pub fn task_call(
    task: u32,
    name: String,
    #[wasm_bindgen(unchecked_param_type = "EngineNode")] f: js_sys::Function,
    input: ValueArg,
) -> JsResult<js_sys::Promise> {
    let (ctx, input) = read_in_task(task, input.into(), "task arguments", &CALL_OUTSIDE)?;
    let cache = Rc::new(super::node::StateCache::default());
    let action = super::node::pregel_node_action(name.clone(), f, cache);
    let result = ctx.call(&name, action, input);
    Ok(wasm_bindgen_futures::future_to_promise(async move {
        let value = result.await.map_err(|e| call_error(&e))?;
        to_js(&value)
    }))
}

/// The hidden property that marks a called task's `GraphInterrupt` (see [`call_error`]).
const CALL_INTERRUPT: &str = "__chronograph_call_interrupt";

/// A called task's error as its caller gets it: the error itself, and for
/// a pause LangGraph.js's `GraphInterrupt` with the task's `interrupts`,
/// marked so that the caller that lets it through pauses with them
/// ([`call_interrupt`]).
fn call_error(e: &Error) -> JsValue {
    let error = crate::error::to_js(e);
    if let (ErrorKind::GraphInterrupt, Some(values)) = (e.kind(), e.values()) {
        if let Ok(list) = to_js(values) {
            let _ = js_sys::Reflect::set(&error, &JsValue::from_str("interrupts"), &list);
        }
        let hidden = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&hidden, &JsValue::from_str("value"), &JsValue::TRUE);
        if let Some(object) = error.dyn_ref::<js_sys::Object>() {
            js_sys::Object::define_property(object, &JsValue::from_str(CALL_INTERRUPT), &hidden);
        }
    }
    error
}

/// The pause a caller let through: the interrupts of a called task's
/// `GraphInterrupt` ([`call_error`]) as the core's error; `None` for any
/// other thrown value.
pub fn call_interrupt(thrown: &JsValue) -> Option<Error> {
    let marked = js_sys::Reflect::get(thrown, &JsValue::from_str(CALL_INTERRUPT)).ok()?;
    if marked != JsValue::TRUE {
        return None;
    }
    let interrupts = js_sys::Reflect::get(thrown, &JsValue::from_str("interrupts")).ok()?;
    let values: Vec<serde_json::Value> = from_js(interrupts, "interrupts").ok()?;
    Some(Error::new(ErrorKind::GraphInterrupt, "interrupted").with_values(values))
}

/// Wakes the loop running task `task` (see `NodeContext::wake_loop`):
/// the JS layer calls it after the code that awaited a task's call ran.
#[wasm_bindgen(js_name = taskWake)]
pub fn task_wake(task: u32) {
    if let Some(ctx) = task_context(task) {
        ctx.wake_loop();
    }
}

/// LangGraph's `CONFIG_KEY_PREVIOUS_STATE` of running task `task`: the
/// graph's `__previous__` channel (an entrypoint's last saved value on
/// the thread); `undefined` when it has none or the task finished.
#[wasm_bindgen(js_name = taskPrevious, unchecked_return_type = "unknown")]
pub fn task_previous(task: u32) -> JsResult<JsValue> {
    let ctx = TASKS.with(|t| t.borrow().get(&task).map(|(ctx, _)| ctx.clone()));
    match ctx.as_ref().and_then(NodeContext::previous) {
        Some(value) => to_js(value),
        None => Ok(JsValue::UNDEFINED),
    }
}
