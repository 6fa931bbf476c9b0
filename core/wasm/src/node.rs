//! The one adapter from JavaScript functions to the core: nodes, routers
//! and reducers.
//!
//! A JS node is called as `fn(state, base, task, node, step, taskId, ns,
//! trigger, push, map)`: `base` is the run's config as
//! [`StateCache::run_config`] makes it (converted once per run), and the
//! JS layer (`wrapNode` in npm/src/pregel/runtime.ts) builds LangGraph.js's node
//! `config` from it and the task: its `node`, `step`, `taskId`, checkpoint
//! namespace `ns`, the channel that triggered it (`trigger`), the index of
//! its `Send` (`push`, -1 for a task a channel triggered) and the
//! superstep's `checkpoint_map` (`map`, shared by the superstep's tasks);
//! it keeps `task` (a number, see `task.rs`) where `interrupt()` finds it.
//! It may return an update, a `Command` (`new Command({update, goto,
//! graph})`), or a Promise of either; routers are called as
//! `router(state)` and return a name, a `Send`, or an array of them, or a
//! Promise of that. What
//! they throw (or reject with) becomes a core error through
//! [`from_thrown`]; the marker `interrupt()` throws becomes the core's
//! `GraphInterrupt`.
//!
//! The state object is rebuilt per call (it is small: one property per
//! channel), but each channel's JS value is reused while the core channel
//! value is the same one (see [`StateCache`]), and a list channel that
//! changed is a lazy property converted only if the node or router reads
//! it, so a step converts only the channels that changed and are read.
//! Nodes see shared objects and must not mutate them, as in LangGraph.js.

use super::error::{describe, from_thrown, invalid_argument, is_graph_interrupt};
pub use super::state_cache::StateCache;
use super::task::TaskHandle;
use super::types::args::{from_js, get, is_object, json_from_js, to_js};
use super::types::command::{command_from_js, gotos_from_js};
use crate::error::JsResult;
use chronograph::{
    ChannelValue, Command, CustomReducer, Error, Goto, Interrupt, NodeAction, NodeContext,
    NodeFuture, NodeOutput, Reducer, RouterFn, State, TaskPath, WriteMapper,
};
use js_sys::{Function, Reflect};
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(typescript_custom_section)]
const TS_NODE: &str = r#"
/**
 * A node function as the engine calls it (`call_node`): the state (or a
 * `Send`'s argument), the run's config as the engine holds it, the running
 * task's number, the node, the superstep, the task's id and checkpoint
 * namespace (`undefined` for `node:taskId`), the channel that triggered
 * it, the index of its `Send` (-1 for none) and the superstep's
 * `checkpoint_map`. Returns an update or a `Command`, or a Promise of one.
 */
export type EngineNode = (
  state: unknown,
  base: { configurable: { [key: string]: unknown }; recursionLimit?: number; metadata: { [key: string]: unknown } },
  task: number,
  node: string,
  step: number,
  taskId: string,
  ns: string | undefined,
  trigger: string,
  push: number,
  map: { [namespace: string]: string },
) => unknown;

/**
 * A router (`router`): `(state)`, or with `setRouterTasks(true)` `(state, ns)`;
 * returns where to go, or a Promise of it. Its state is the graph's, whose
 * type the TypeScript layer knows and the engine does not (hence `never`).
 */
export type EngineRouter = (state: never, ns?: string) => unknown;

/** A channel (`channel_from_js`): a reducer's name, `null` (last value), or `{reducer?, default?}` (`twin`: a reducer the engine runs natively; `delta`: LangGraph.js's DeltaChannel with this snapshot frequency). */
export type ChannelSpecIn =
  | string
  | null
  | undefined
  | {
      reducer?: string | ((current: never, update: never) => unknown) | null;
      default?: (() => unknown) | null;
      twin?: "concat" | "add";
      guard?: boolean;
      delta?: number;
    };

/** The JS layer's `updateText(value)` (`register_update_text`): a plain result's JSON text, else `undefined`. */
export type UpdateText = (value: unknown) => string | undefined;
"#;

#[wasm_bindgen]
extern "C" {
    /// A node function (`EngineNode`), checked to be a function.
    #[wasm_bindgen(typescript_type = "EngineNode")]
    pub type NodeArg;

    /// A state's channels, name to declaration (`channel_from_js` each).
    #[wasm_bindgen(typescript_type = "{ [channel: string]: ChannelSpecIn }")]
    pub type ChannelSpecsArg;
}

#[wasm_bindgen]
extern "C" {
    /// A JS node function, for [`NodeFn::call_node`].
    #[wasm_bindgen(extends = Function)]
    type NodeFn;

    /// `f.call(undefined, state, base, task, node, step, taskId, ns,
    /// trigger, push, map)`: js_sys has no `call` of that many arguments,
    /// and an argument array would cost one more allocation per call.
    /// `ns` is `undefined` when it is `node:taskId` (a root graph's task:
    /// the JS layer joins the two rather than decode a third string).
    #[wasm_bindgen(method, catch, js_name = call)]
    #[allow(clippy::too_many_arguments)]
    fn call_node(
        this: &NodeFn,
        this_arg: &JsValue,
        state: &JsValue,
        base: &JsValue,
        task: u32,
        node: &JsValue,
        step: f64,
        task_id: &str,
        ns: &JsValue,
        trigger: &JsValue,
        push: f64,
        map: &JsValue,
    ) -> JsResult<JsValue>;
}

/// The value of a call that may return a Promise (or any thenable).
async fn settle(value: JsValue) -> JsResult<JsValue> {
    // Primitives first: `Reflect.get` on a string (a router's usual
    // result) throws, and a thrown exception costs more than the call.
    if !value.is_object() {
        return Ok(value);
    }
    if THEN
        .with(|k| Reflect::get(&value, k))
        .is_ok_and(|then| then.is_function())
    {
        let promise = js_sys::Promise::resolve(&value);
        return JsFuture::from(promise).await;
    }
    Ok(value)
}

/// The JS function in `f`, or an error naming the argument.
pub fn function_arg(f: &JsValue, what: &str) -> JsResult<Function> {
    f.dyn_ref::<Function>()
        .cloned()
        .ok_or_else(|| invalid_argument(format!("{what} must be a function, got {}", describe(f))))
}

thread_local! {
    /// The JS layer's `updateText(value)` (npm/src/pregel/runtime.ts), once registered.
    static UPDATE_TEXT: RefCell<Option<Function>> = const { RefCell::new(None) };
    /// Property names read on every call, made once (not per call).
    static THEN: JsValue = JsValue::from_str("then");
    static LG_NAME: JsValue = JsValue::from_str("lg_name");
    /// Whether routers are told their task (see [`set_router_tasks`]).
    static ROUTER_TASKS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Registers the JS layer's `updateText(value)`: the JSON text of a node's
/// result when it is a plain object of JSON data that the field-by-field
/// conversion would read the same, else `undefined`. One `JSON.stringify`
/// and one string crossing cost less than a crossing per field; without
/// it (the bindings used alone) every result is converted field by field.
#[wasm_bindgen(js_name = registerUpdateText)]
pub fn register_update_text(#[wasm_bindgen(unchecked_param_type = "UpdateText")] f: Function) {
    UPDATE_TEXT.with(|u| *u.borrow_mut() = Some(f));
}

/// `out` as JSON through `updateText`, when it is plain data.
fn update_by_text(out: &JsValue) -> Option<Value> {
    if !out.is_object() {
        return None;
    }
    let text = UPDATE_TEXT.with(|u| u.borrow().as_ref()?.call1(&JsValue::UNDEFINED, out).ok())?;
    let text = text.as_string()?;
    // LangGraph.js's records (`{"lc": 2, ...}`) as data: values going out revive them.
    if !super::records::seen() && text.contains("\"lc\":2") {
        super::records::note();
    }
    // A text that serde_json reads differently from JS (it should not
    // happen) falls back to the field-by-field conversion.
    serde_json::from_str(&text).ok()
}

/// A node's return value: an update object (`null`/`undefined` for none),
/// or a `Command` (an object with `lg_name: "Command"`).
fn output_from_js(out: JsValue, node: &str) -> chronograph::Result<NodeOutput> {
    if out.is_undefined() || out.is_null() {
        return Ok(NodeOutput::Update(Value::Null));
    }
    if let Some(update) = update_by_text(&out) {
        return Ok(NodeOutput::Update(update));
    }
    if is_command(&out) {
        return command_from_js(&out)
            .map(NodeOutput::Command)
            .map_err(|e| invalid_result(e, node));
    }
    if let Some(items) = out.dyn_ref::<js_sys::Array>() {
        if items.iter().any(|item| is_command(&item)) {
            return commands_from_js(items, node).map(NodeOutput::Command);
        }
    }
    json_from_js(out, &format!("node {node:?}: update"))
        .map(NodeOutput::Update)
        .map_err(from_thrown)
}

/// Whether `v` is a `Command` (an object with `lg_name: "Command"`).
fn is_command(v: &JsValue) -> bool {
    v.is_object()
        && LG_NAME
            .with(|k| Reflect::get(v, k).unwrap_or(JsValue::UNDEFINED))
            .as_string()
            .as_deref()
            == Some("Command")
}

/// A node's array of `Command`s and update objects (LangGraph's and
/// LangGraph.js's `_getUpdates` over a list) as one `Command`: every
/// update's writes in order, as `[channel, value]` pairs, and every goto.
/// A `Command.PARENT` in it is the node's output alone, as LangGraph's
/// `_control_branch` raises the first one it meets.
fn commands_from_js(items: &js_sys::Array, node: &str) -> chronograph::Result<Command> {
    let mut writes = Vec::new();
    let mut goto = Vec::new();
    for item in items.iter() {
        let update = if is_command(&item) {
            let command = command_from_js(&item).map_err(|e| invalid_result(e, node))?;
            if command.graph.is_some() {
                return Ok(command);
            }
            goto.extend(command.goto);
            command.update
        } else {
            match json_from_js(item, &format!("node {node:?}: update")).map_err(from_thrown)? {
                v @ (Value::Object(_) | Value::Null) => Some(v),
                other => {
                    let kind = match other {
                        Value::Array(_) => "array",
                        Value::String(_) => "string",
                        Value::Number(_) => "number",
                        _ => "boolean",
                    };
                    return Err(Error::invalid_update(format!(
                        "Expected node \"{node}\" to return an object or an array containing at least one Command object, received {kind}"
                    )));
                }
            }
        };
        match update {
            Some(Value::Object(map)) => writes.extend(
                map.into_iter()
                    .map(|(k, v)| Value::Array(vec![Value::String(k), v])),
            ),
            Some(Value::Array(pairs)) => writes.extend(pairs),
            _ => {}
        }
    }
    Ok(Command::goto(Some(Value::Array(writes)), goto))
}

/// What was wrong with a node's `Command` as the error of that node: a
/// value that is not JSON data as itself (`INVALID_VALUE`), a malformed
/// field as an `InvalidUpdateError` naming the node.
fn invalid_result(e: JsValue, node: &str) -> Error {
    if is_invalid_value(&e) {
        return from_thrown(e);
    }
    let message = get(&e, "message").as_string().unwrap_or_default();
    Error::invalid_update(format!(
        "Node \"{node}\" returned an invalid Command: {message}"
    ))
}

fn is_invalid_value(e: &JsValue) -> bool {
    get(e, "code").as_string().as_deref() == Some("INVALID_VALUE")
}

/// A JS node as a core node.
pub fn node_action(name: String, f: Function, cache: Rc<StateCache>) -> NodeAction {
    js_node(name, f, cache, false)
}

/// A JS node of a `Pregel` graph as a core node: its result is a value for
/// its writers, taken as it is (not read as an update or a `Command`).
pub fn pregel_node_action(name: String, f: Function, cache: Rc<StateCache>) -> NodeAction {
    js_node(name, f, cache, true)
}

/// A JS channel-write mapper as a core one: `f(value)` (or a Promise of
/// it); `undefined` writes nothing.
pub fn write_mapper(f: Function) -> WriteMapper {
    Rc::new(move |value: Value| {
        let f = f.clone();
        let fut: NodeFuture<Option<Value>> = Box::pin(async move {
            let input = to_js(&value).map_err(from_thrown)?;
            let out = f.call1(&JsValue::UNDEFINED, &input).map_err(from_thrown)?;
            let out = settle(out).await.map_err(from_thrown)?;
            match out.is_undefined() {
                true => Ok(None),
                false => json_from_js(out, "a channel write's mapper result")
                    .map(Some)
                    .map_err(from_thrown),
            }
        });
        fut
    })
}

/// The task's checkpoint namespace for `call_node`: `undefined` when it
/// is `node:task_id`, which the JS layer makes itself.
fn task_namespace(ctx: &NodeContext, node: &str) -> JsValue {
    let (ns, id) = (ctx.checkpoint_ns(), ctx.task_id());
    let joined = ns.len() == node.len() + 1 + id.len()
        && ns.starts_with(node)
        && ns[node.len()..].starts_with(':')
        && ns.ends_with(id);
    match joined {
        true => JsValue::UNDEFINED,
        false => JsValue::from_str(ns),
    }
}

fn js_node(name: String, f: Function, cache: Rc<StateCache>, raw: bool) -> NodeAction {
    // Made once: the name crosses to JS on every call.
    let (name, node): (Rc<str>, JsValue) = (name.as_str().into(), JsValue::from_str(&name));
    NodeAction::Async(Rc::new(move |state: State, ctx: NodeContext| {
        let (f, cache, name, node) = (f.clone(), cache.clone(), name.clone(), node.clone());
        let fut: NodeFuture<NodeOutput> = Box::pin(async move {
            let input = cache.state(&state).map_err(from_thrown)?;
            let base = cache.run_config(ctx.config()).map_err(from_thrown)?;
            let map = cache.checkpoint_map(&ctx).map_err(from_thrown)?;
            let push = match ctx.path() {
                TaskPath::Push(index) => index as f64,
                TaskPath::Pull => -1.0,
            };
            // Registered while the node runs (held across the await).
            let task = TaskHandle::new(ctx.clone());
            let out = f
                .unchecked_ref::<NodeFn>()
                .call_node(
                    &JsValue::UNDEFINED,
                    &input,
                    &base,
                    task.id(),
                    &node,
                    ctx.step() as f64,
                    ctx.task_id(),
                    &task_namespace(&ctx, &name),
                    &cache.name(ctx.trigger()),
                    push,
                    &map,
                )
                .map_err(|e| node_thrown(e, &ctx))?;
            // A plain object (the usual result) is no thenable: skip `settle`.
            if let Some(update) = update_by_text(&out) {
                return Ok(NodeOutput::Update(update));
            }
            let out = settle(out).await.map_err(|e| node_thrown(e, &ctx))?;
            match raw {
                true => json_from_js(out, &format!("node {name:?}: result"))
                    .map(NodeOutput::Update)
                    .map_err(from_thrown),
                false => output_from_js(out, &name),
            }
        });
        fut
    }))
}

/// What a node threw (or rejected with), as a core error. A LangGraph.js
/// `GraphInterrupt` carrying its `interrupts` (its deprecated
/// `NodeInterrupt(value)`, from this package or from LangGraph.js itself)
/// pauses the task with them, as LangGraph.js's runner does; anything else
/// goes through [`from_thrown`].
fn node_thrown(thrown: JsValue, ctx: &NodeContext) -> Error {
    // A called task's pause, let through by its caller: the caller pauses with its interrupts.
    if let Some(paused) = thrown
        .is_object()
        .then(|| super::task::call_interrupt(&thrown))
        .flatten()
    {
        return paused;
    }
    if is_graph_interrupt(&thrown) || !thrown.is_object() {
        return from_thrown(thrown);
    }
    let name = get(&thrown, "name").as_string();
    if !matches!(name.as_deref(), Some("NodeInterrupt" | "GraphInterrupt")) {
        return from_thrown(thrown);
    }
    let interrupts = get(&thrown, "interrupts");
    if !js_sys::Array::is_array(&interrupts) {
        return from_thrown(thrown);
    }
    match from_js::<Vec<Interrupt>>(interrupts, "NodeInterrupt: interrupts") {
        Ok(interrupts) => ctx.raise(interrupts),
        Err(e) => from_thrown(e),
    }
}

/// A router's result: a node name, a `Send`, or an array of them.
fn destinations(out: &JsValue, from: &str) -> chronograph::Result<Vec<Goto>> {
    if let Some(name) = out.as_string() {
        return Ok(vec![Goto::Node(name)]);
    }
    let what = format!("the router of \"{from}\"");
    match gotos_from_js(out, &what) {
        Ok(gotos) if !out.is_undefined() && !out.is_null() => Ok(gotos),
        Err(e) if is_invalid_value(&e) => Err(from_thrown(e)),
        _ => Err(Error::value(format!(
            "Branch condition returned unknown or null destination: the router of \"{from}\" returned {}; return a node name, END, a Send, or an array of them",
            describe(out)
        ))),
    }
}

/// Tells routers the task they route from (see [`router`]): on while a run
/// with LangChain callbacks is in flight (npm/src/langchain/task_runs.ts reports each
/// router call as a run nested in its task's), off otherwise, when the
/// crossing of the task's namespace would be spent for nothing.
#[wasm_bindgen(js_name = setRouterTasks)]
pub fn set_router_tasks(on: bool) {
    ROUTER_TASKS.with(|r| r.set(on));
}

/// A JS router as a core router: called as `router(state)`, or with
/// [`set_router_tasks`] on, `router(state, ns)` (`ns`: the checkpoint
/// namespace of the task it routes from, `undefined` outside a task).
pub fn router(from: String, f: Function, cache: Rc<StateCache>) -> RouterFn {
    RouterFn::InTask(Rc::new(move |state: State, task: Option<&NodeContext>| {
        let (f, cache, from) = (f.clone(), cache.clone(), from.clone());
        let ns = match ROUTER_TASKS.with(|r| r.get()) {
            true => task.map(|t| JsValue::from_str(t.checkpoint_ns())),
            false => None,
        };
        let fut: NodeFuture<Vec<Goto>> = Box::pin(async move {
            let input = cache.state(&state).map_err(from_thrown)?;
            let out = match ns {
                Some(ns) => f.call2(&JsValue::UNDEFINED, &input, &ns),
                None => f.call1(&JsValue::UNDEFINED, &input),
            }
            .map_err(from_thrown)?;
            let out = settle(out).await.map_err(from_thrown)?;
            destinations(&out, &from)
        });
        fut
    }))
}

/// A channel declaration: a reducer name, `null` (last value),
/// `{reducer: name}` or `{reducer: (a, b) => c}`, each with an optional
/// `default: () => v` (LangGraph.js's `Annotation({reducer, default})`; a
/// `{default}` without a reducer is a last-value channel with a default, as
/// a zod `.default()` field is). Returns the reducer and the default's
/// value: `default()` is called once, here, and the channel starts from
/// that value (LangGraph.js calls it for each fresh channel; for the pure
/// factories state definitions use, the values are the same).
pub fn channel_from_js(channel: &str, spec: &JsValue) -> JsResult<(Reducer, Option<Value>)> {
    if spec.is_undefined() || spec.is_null() {
        return Ok((Reducer::LastValue, None));
    }
    let what = format!("channels.{channel}");
    if let Some(name) = spec.as_string() {
        return Ok((reducer_by_name(&what, &name)?, None));
    }
    if !is_object(spec) {
        return Err(invalid_argument(format!(
            "{what} must be a reducer name or {{reducer, default}}, got {}",
            describe(spec)
        )));
    }
    let reducer = get(spec, "reducer");
    let reducer = if let Some(name) = reducer.as_string() {
        reducer_by_name(&what, &name)?
    } else if reducer.is_undefined() || reducer.is_null() {
        Reducer::LastValue
    } else {
        let f = function_arg(&reducer, &format!("{what}.reducer"))?;
        let twin = match get(spec, "twin").as_string().as_deref() {
            Some("concat") => Some(Twin::Concat),
            Some("add") => Some(Twin::Add),
            _ => None,
        };
        Reducer::Custom(custom_reducer(f, twin))
    };
    // `{reducer: "untracked", guard: false}`: LangGraph.js's `UntrackedValueChannel({ guard: false })`.
    let reducer = match reducer {
        Reducer::Untracked { .. } if get(spec, "guard").as_bool() == Some(false) => {
            Reducer::Untracked { guard: false }
        }
        other => other,
    };
    let default = get(spec, "default");
    let default = match default.is_undefined() || default.is_null() {
        true => None,
        false => {
            let f = function_arg(&default, &format!("{what}.default"))?;
            let value = f.call0(&JsValue::UNDEFINED)?;
            Some(json_from_js(value, &format!("{what}.default()"))?)
        }
    };
    Ok((reducer, default))
}

fn reducer_by_name(what: &str, name: &str) -> JsResult<Reducer> {
    Reducer::from_name(name).ok_or_else(|| {
        invalid_argument(format!(
            "{what} must be \"last_value\", \"append\", \"sum\", \"add_messages\", \"untracked\" or {{reducer, default}}, got {name:?}"
        ))
    })
}

/// The native twin of a JS reducer whose source the npm layer recognised
/// (npm/src/state/definitions.ts `TWINS`): `(a, b) => a.concat(b)` or `(a, b) => a + b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Twin {
    /// `Array.prototype.concat`: an array update's items are appended, any
    /// other update is appended as one item.
    Concat,
    /// `+` on two numbers (IEEE doubles, as in JS).
    Add,
}

/// What the twin's JS function returns for `current` and `value`, when the
/// twin computes it exactly (a list to concat onto, two finite numbers to
/// add); `None` leaves the call to the function itself.
pub fn native_twin(twin: Twin, current: &ChannelValue, value: &Value) -> Option<ChannelValue> {
    match (twin, current) {
        (Twin::Concat, ChannelValue::List(list)) => {
            let mut list = list.clone();
            match value {
                Value::Array(items) => list.extend(items.iter().cloned().map(Arc::new)),
                item => list.push_back(Arc::new(item.clone())),
            }
            Some(ChannelValue::List(list))
        }
        (Twin::Add, ChannelValue::Json(acc)) => {
            let (Value::Number(a), Value::Number(b)) = (acc.as_ref(), value) else {
                return None;
            };
            let sum = a.as_f64()? + b.as_f64()?;
            // JSON.stringify writes an integral double without a fraction.
            let n = if sum.fract() == 0.0 && sum.abs() < 9_007_199_254_740_992.0 {
                Value::from(sum as i64)
            } else {
                Value::Number(serde_json::Number::from_f64(sum)?)
            };
            Some(ChannelValue::from_json(n))
        }
        _ => None,
    }
}

/// LangGraph.js's `BinaryOperatorAggregate` over a JS function: folds each
/// write into the current value; the first write of a channel without a
/// default (or holding `undefined`: the engine's `js_undefined`) is taken
/// as is. With a `twin`, values it computes exactly never cross into JS.
fn custom_reducer(f: Function, twin: Option<Twin>) -> CustomReducer {
    CustomReducer::new(move |current, value| {
        let Some(current) = current else {
            return Ok(ChannelValue::from_json(value));
        };
        if let Some(out) = twin.and_then(|t| native_twin(t, current, &value)) {
            return Ok(out);
        }
        let current = to_js(current).map_err(from_thrown)?;
        let value = to_js(&value).map_err(from_thrown)?;
        let out = f
            .call2(&JsValue::UNDEFINED, &current, &value)
            .map_err(from_thrown)?;
        if out.is_object() && get(&out, "then").is_function() {
            return Err(Error::type_error(
                "A reducer returned a Promise; reducers must be synchronous",
            ));
        }
        json_from_js(out, "the reducer's result")
            .map(ChannelValue::from_json)
            .map_err(from_thrown)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn list(v: Value) -> ChannelValue {
        ChannelValue::from_json(v)
    }

    #[test]
    fn concat_twin_appends_an_arrays_items_and_any_other_value_whole() {
        let cur = list(json!([1, [2]]));
        let out = native_twin(Twin::Concat, &cur, &json!([3, [4]])).unwrap();
        assert_eq!(
            out.to_json(),
            json!([1, [2], 3, [4]]),
            "one level, as Array.prototype.concat"
        );
        let out = native_twin(Twin::Concat, &cur, &json!({"k": 1})).unwrap();
        assert_eq!(out.to_json(), json!([1, [2], {"k": 1}]));
        assert_eq!(
            cur.to_json(),
            json!([1, [2]]),
            "the stored version is untouched"
        );
    }

    #[test]
    fn concat_twin_leaves_a_value_that_is_not_a_list_to_the_js_function() {
        // "ab".concat("c") is a string in JS: not the twin's to compute.
        assert_eq!(
            native_twin(Twin::Concat, &list(json!("ab")), &json!("c")),
            None
        );
    }

    #[test]
    fn add_twin_adds_numbers_as_js_doubles_and_leaves_the_rest_to_js() {
        let add = |a: Value, b: Value| native_twin(Twin::Add, &list(a), &b).map(|v| v.to_json());
        assert_eq!(add(json!(2), json!(3)), Some(json!(5)));
        assert_eq!(
            add(json!(0.1), json!(0.2)),
            Some(json!(0.30000000000000004))
        );
        assert_eq!(
            add(json!(1.5), json!(1.5)),
            Some(json!(3)),
            "an integral double reads as JSON.stringify writes it"
        );
        assert_eq!(add(json!("a"), json!("b")), None, "string + string is JS's");
        assert_eq!(add(json!(1), json!("b")), None);
        assert_eq!(add(json!([1]), json!(2)), None);
    }
}
