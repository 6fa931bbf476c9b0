//! The one adapter from JavaScript functions to the core: nodes, routers
//! and reducers, and the cache of the state handed to them.
//!
//! A JS node is called as `fn(state, config, task)` (the JS layer turns the
//! third argument into the context `interrupt()` reads) and may return an
//! update or a Promise of one; routers are called as `router(state, config)`
//! and return a name or names, or a Promise of them. What they throw (or
//! reject with) becomes a core error through [`from_thrown`]; the marker
//! `interrupt()` throws becomes the core's `GraphInterrupt`.
//!
//! The state object is rebuilt per call (it is small: one property per
//! channel), but each channel's JS value is reused while the core channel
//! value is the same one (`Arc`/persistent-vector pointer equality), so a
//! step converts only the channels that changed. Nodes see shared objects
//! and must not mutate them, as in LangGraph.js.

use super::error::{describe, from_thrown, invalid_argument};
use super::task::TaskContext;
use super::types::{is_object, json_from_js, to_js};
use crate::{
    ChannelList, ChannelValue, CustomReducer, Error, NodeAction, NodeContext, NodeFuture, Reducer,
    RouterFn, RunOutput, State,
};
use js_sys::{Function, Object, Reflect};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Whether two channel values are the very same value (not merely equal).
fn same(a: &ChannelValue, b: &ChannelValue) -> bool {
    match (a, b) {
        (ChannelValue::Json(x), ChannelValue::Json(y)) => Arc::ptr_eq(x, y),
        (ChannelValue::List(x), ChannelValue::List(y)) => x.ptr_eq(y),
        _ => false,
    }
}

/// How many leading items `old` and `new` share (the very same `Arc`s).
///
/// Called on every node and router call for every list channel that
/// changed, so it must not be O(length): a list that grew by `append`
/// shares all but its last chunk with the previous version (imbl shares
/// the tree's chunks between versions). The chunks holding the same index
/// in both vectors are compared first: when they cover the same range and
/// are the very same memory, all their items are shared and the whole
/// chunk is skipped; otherwise the items of the overlap are compared one
/// by one, stopping at the first difference. O(length / 64) pointer
/// comparisons for an appended list, plus O(64) items at the end.
pub(crate) fn shared_prefix(old: &ChannelList, new: &ChannelList) -> usize {
    let n = old.len().min(new.len());
    let (mut fo, mut fnew) = (old.focus(), new.focus());
    let mut i = 0;
    while i < n {
        let (ro, a) = fo.chunk_at(i);
        let (rn, b) = fnew.chunk_at(i);
        if ro == rn && std::ptr::eq(a, b) {
            // Same slice (pointer and length): every item is shared.
            i = ro.end;
            continue;
        }
        let end = ro.end.min(rn.end);
        let a = &a[i - ro.start..end - ro.start];
        let b = &b[i - rn.start..end - rn.start];
        match a.iter().zip(b).position(|(x, y)| !Arc::ptr_eq(x, y)) {
            Some(k) => return i + k,
            None => i = end,
        }
    }
    n
}

/// Per graph: the last JS value made for each channel, keyed by the core
/// value it was made from (which the entry keeps alive, so a pointer is
/// never reused for another value while it is cached).
///
/// A changed list whose first items are the same `Arc`s as the cached
/// version's (after an `append` or an `add_messages` that added or
/// replaced recent messages) is converted incrementally: the shared prefix
/// of the cached JS array is copied (`Array.prototype.slice`, a shallow
/// copy) and only the items after it are converted; a version with the
/// very same items keeps the cached array. Any other change
/// converts the whole value. The JS
/// arrays and their items are shared between calls: nodes and routers must
/// not mutate the state they are given (as in LangGraph.js).
#[derive(Default)]
pub struct StateCache {
    entries: RefCell<HashMap<String, (ChannelValue, JsValue)>>,
    conversions: std::cell::Cell<u64>,
    items: std::cell::Cell<u64>,
}

impl StateCache {
    /// The JS value of one channel, converted only if it changed (and
    /// then, for a list that grew, only its new items).
    fn channel(&self, name: &str, value: &ChannelValue) -> Result<JsValue, JsValue> {
        let base = match self.entries.borrow().get(name) {
            Some((cached, js)) if same(cached, value) => return Ok(js.clone()),
            Some((ChannelValue::List(old), js)) => match value {
                ChannelValue::List(new) => match shared_prefix(old, new) {
                    // Another version with the very same items (e.g. a
                    // fresh read that wrote nothing to this channel): the
                    // cached array is still right as it is.
                    l if l == old.len() && l == new.len() => Some((js.clone(), l)),
                    0 => None,
                    l => js
                        .dyn_ref::<js_sys::Array>()
                        .map(|a| (a.slice(0, l as u32).into(), l)),
                },
                _ => None,
            },
            _ => None,
        };
        let js: JsValue = match (base, value) {
            (Some((js, l)), ChannelValue::List(new)) if l == new.len() => js,
            (Some((copy, l)), ChannelValue::List(new)) => {
                let copy = js_sys::Array::unchecked_from_js(copy);
                // Not `new.iter().skip(l)`: imbl's iterator skips item by
                // item (O(length)); a focus reaches index `l` in O(log n).
                let mut focus = new.focus();
                for i in l..new.len() {
                    let item = focus.get(i).expect("index below the length");
                    copy.push(&to_js(&**item)?);
                }
                self.items.set(self.items.get() + (new.len() - l) as u64);
                self.conversions.set(self.conversions.get() + 1);
                copy.into()
            }
            _ => {
                self.items
                    .set(self.items.get() + value.len().unwrap_or(1) as u64);
                self.conversions.set(self.conversions.get() + 1);
                to_js(value)?
            }
        };
        self.entries
            .borrow_mut()
            .insert(name.to_owned(), (value.clone(), js.clone()));
        Ok(js)
    }

    /// The state as a JS object (a fresh object over cached channel values).
    pub fn state(&self, state: &State) -> Result<JsValue, JsValue> {
        let obj = Object::new();
        for (name, value) in state.iter() {
            Reflect::set(&obj, &JsValue::from_str(name), &self.channel(name, value)?)?;
        }
        Ok(obj.into())
    }

    /// A run's result as JS: the state values with `__interrupt__` added
    /// when the run was interrupted. Lists come from the cache (converted
    /// only where they changed) as fresh shallow copies, so the caller may
    /// push to or reorder them; their items are shared with the state nodes
    /// see and must not be mutated in place. Other values are converted
    /// afresh.
    pub fn output(&self, output: &RunOutput) -> Result<JsValue, JsValue> {
        let obj = Object::new();
        for (name, value) in output.values.iter() {
            let js = match value {
                ChannelValue::List(_) => js_sys::Array::from(&self.channel(name, value)?)
                    .slice(0, u32::MAX)
                    .into(),
                ChannelValue::Json(v) => to_js(&**v)?,
            };
            Reflect::set(&obj, &JsValue::from_str(name), &js)?;
        }
        if !output.interrupts.is_empty() {
            Reflect::set(&obj, &"__interrupt__".into(), &to_js(&output.interrupts)?)?;
        }
        Ok(obj.into())
    }

    /// How many channel values were converted so far, fully or
    /// incrementally (for tests and benchmarks).
    pub fn conversions(&self) -> u64 {
        self.conversions.get()
    }

    /// How many values were converted so far counting list items one by
    /// one (a non-list value counts 1): what the conversions cost.
    pub fn converted_items(&self) -> u64 {
        self.items.get()
    }
}

/// The value of a call that may return a Promise (or any thenable).
async fn settle(value: JsValue) -> Result<JsValue, JsValue> {
    let then = super::types::get(&value, "then");
    if value.is_object() && then.is_function() {
        let promise = js_sys::Promise::resolve(&value);
        return JsFuture::from(promise).await;
    }
    Ok(value)
}

/// The JS function in `f`, or an error naming the argument.
pub fn function_arg(f: &JsValue, what: &str) -> Result<Function, JsValue> {
    f.dyn_ref::<Function>()
        .cloned()
        .ok_or_else(|| invalid_argument(format!("{what} must be a function, got {}", describe(f))))
}

/// `config` handed to a node, as LangGraph.js: the run's `configurable`
/// (`thread_id`, the caller's keys), `recursionLimit`, and `metadata` with
/// the run's metadata plus `langgraph_node`, `langgraph_step`, `langgraph_task_id`.
fn node_config(ctx: &NodeContext) -> Result<JsValue, JsValue> {
    let run = ctx.config();
    let mut metadata = run.metadata.clone();
    metadata.insert("langgraph_node".into(), ctx.node().into());
    metadata.insert("langgraph_step".into(), ctx.step().into());
    metadata.insert("langgraph_task_id".into(), ctx.task_id().into());
    let mut config = serde_json::Map::new();
    config.insert(
        "configurable".into(),
        Value::Object(run.configurable.clone()),
    );
    if let Some(limit) = run.recursion_limit {
        config.insert("recursionLimit".into(), limit.into());
    }
    config.insert("metadata".into(), Value::Object(metadata));
    to_js(&config)
}

/// A node's return value as an update: an object, or `null`/`undefined` for none.
fn update_from_js(out: JsValue, node: &str) -> crate::Result<Value> {
    if out.is_undefined() || out.is_null() {
        return Ok(Value::Null);
    }
    if super::types::get(&out, "lg_name").as_string().as_deref() == Some("Command") {
        return Err(Error::invalid_update(format!(
            "Node \"{node}\" returned a Command; returning a Command from a node is not supported, return an update object"
        )));
    }
    serde_wasm_bindgen::from_value(out).map_err(|e| {
        Error::invalid_update(format!(
            "Node \"{node}\" returned a value that is not plain data: {e}"
        ))
    })
}

/// A JS node as a core node.
pub fn node_action(name: String, f: Function, cache: Rc<StateCache>) -> NodeAction {
    NodeAction::Async(Rc::new(move |state: State, ctx: NodeContext| {
        let (f, cache, name) = (f.clone(), cache.clone(), name.clone());
        let fut: NodeFuture = Box::pin(async move {
            let input = cache.state(&state).map_err(from_thrown)?;
            let config = node_config(&ctx).map_err(from_thrown)?;
            let task = JsValue::from(TaskContext::new(ctx));
            let out = f
                .call3(&JsValue::UNDEFINED, &input, &config, &task)
                .map_err(from_thrown)?;
            let out = settle(out).await.map_err(from_thrown)?;
            update_from_js(out, &name)
        });
        fut
    }))
}

/// A router's result: a node name or a list of them.
fn destinations(out: &JsValue, from: &str) -> crate::Result<Vec<String>> {
    if let Some(name) = out.as_string() {
        return Ok(vec![name]);
    }
    if js_sys::Array::is_array(out) {
        let names: Option<Vec<String>> = js_sys::Array::from(out)
            .iter()
            .map(|x| x.as_string())
            .collect();
        if let Some(names) = names {
            return Ok(names);
        }
    }
    Err(Error::value(format!(
        "Branch condition returned unknown or null destination: the router of \"{from}\" returned {}; return a node name, END, or an array of them",
        describe(out)
    )))
}

/// A JS router as a core router.
pub fn router(from: String, f: Function, cache: Rc<StateCache>) -> RouterFn {
    RouterFn::Async(Rc::new(move |state: State| {
        let (f, cache, from) = (f.clone(), cache.clone(), from.clone());
        let fut: NodeFuture<Vec<String>> = Box::pin(async move {
            let input = cache.state(&state).map_err(from_thrown)?;
            let out = f.call1(&JsValue::UNDEFINED, &input).map_err(from_thrown)?;
            let out = settle(out).await.map_err(from_thrown)?;
            destinations(&out, &from)
        });
        fut
    }))
}

/// A channel declaration: a reducer name, `null` (last value),
/// `{reducer: name}` or `{reducer: (a, b) => c, default?: () => v}`.
pub fn reducer_from_js(channel: &str, spec: &JsValue) -> Result<Reducer, JsValue> {
    if spec.is_undefined() || spec.is_null() {
        return Ok(Reducer::LastValue);
    }
    let what = format!("channels.{channel}");
    if let Some(name) = spec.as_string() {
        return Reducer::from_name(&name).ok_or_else(|| {
            invalid_argument(format!(
                "{what} must be \"last_value\", \"append\", \"sum\", \"add_messages\" or {{reducer, default}}, got {name:?}"
            ))
        });
    }
    if !is_object(spec) {
        return Err(invalid_argument(format!(
            "{what} must be a reducer name or {{reducer, default}}, got {}",
            describe(spec)
        )));
    }
    let reducer = super::types::get(spec, "reducer");
    if reducer.as_string().is_some() {
        return reducer_from_js(channel, &reducer);
    }
    let f = function_arg(&reducer, &format!("{what}.reducer"))?;
    let default = super::types::get(spec, "default");
    let default = match default.is_undefined() {
        true => None,
        false => Some(function_arg(&default, &format!("{what}.default"))?),
    };
    Ok(Reducer::Custom(custom_reducer(f, default)))
}

/// LangGraph.js's `BinaryOperatorAggregate` over a JS function: starts from
/// `default()` when given, else from the first value written.
fn custom_reducer(f: Function, default: Option<Function>) -> CustomReducer {
    CustomReducer::new(move |current, value| {
        let current = match (current, &default) {
            (Some(c), _) => to_js(c).map_err(from_thrown)?,
            (None, Some(d)) => d.call0(&JsValue::UNDEFINED).map_err(from_thrown)?,
            (None, None) => return Ok(ChannelValue::from_json(value)),
        };
        let value = to_js(&value).map_err(from_thrown)?;
        let out = f
            .call2(&JsValue::UNDEFINED, &current, &value)
            .map_err(from_thrown)?;
        if out.is_object() && super::types::get(&out, "then").is_function() {
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
    use super::shared_prefix;
    use crate::ChannelList;
    use serde_json::{json, Value};
    use std::sync::Arc;

    /// The definition: items compared one by one.
    fn naive(old: &ChannelList, new: &ChannelList) -> usize {
        old.iter()
            .zip(new.iter())
            .take_while(|(a, b)| Arc::ptr_eq(a, b))
            .count()
    }

    fn list(n: usize) -> ChannelList {
        (0..n).map(|i| Arc::new(json!(i))).collect()
    }

    fn item(v: i64) -> Arc<Value> {
        Arc::new(json!(v))
    }

    fn check(old: &ChannelList, new: &ChannelList, want: usize) {
        assert_eq!(naive(old, new), want, "the test's own expectation");
        assert_eq!(shared_prefix(old, new), want);
    }

    #[test]
    fn same_vector_and_empty_lists() {
        for n in [0, 1, 63, 64, 65, 1000, 5000] {
            let a = list(n);
            check(&a, &a.clone(), n);
            check(&a, &ChannelList::new(), 0);
            check(&ChannelList::new(), &a, 0);
        }
    }

    #[test]
    fn appended_one_by_one_as_a_run_does() {
        let mut old = ChannelList::new();
        for i in 0..3000 {
            let mut new = old.clone();
            new.push_back(item(i));
            check(&old, &new, old.len());
            old = new;
        }
    }

    #[test]
    fn appended_in_bulk() {
        for n in [10, 64, 200, 4000] {
            let old = list(n);
            let mut new = old.clone();
            new.append(list(500));
            check(&old, &new, n);
        }
    }

    #[test]
    fn replaced_items() {
        for n in [5, 64, 300, 4000] {
            let old = list(n);
            for at in [0, 1, n / 2, n - 1] {
                let mut new = old.clone();
                new.set(at, item(-1));
                check(&old, &new, at);
            }
        }
    }

    #[test]
    fn shorter_new_list() {
        for n in [5, 70, 3000] {
            let old = list(n);
            let mut new = old.clone();
            new.truncate(n / 3);
            check(&old, &new, n / 3);
            check(&new, &old, n / 3);
            new.push_back(item(-1));
            check(&old, &new, n / 3);
        }
    }

    #[test]
    fn forked_versions() {
        let base = list(2500);
        let (mut a, mut b) = (base.clone(), base.clone());
        a.push_back(item(-1));
        b.push_back(item(-2));
        check(&a, &b, 2500);
        a.append(list(300));
        b.append(list(10));
        check(&a, &b, 2500);
    }

    #[test]
    fn same_items_in_another_tree_shape() {
        // Built from the front: the chunks cut the items at other indices.
        let old = list(1000);
        let mut new = ChannelList::new();
        for x in old.iter().rev() {
            new.push_front(x.clone());
        }
        check(&old, &new, 1000);
        new.set(700, item(-1));
        check(&old, &new, 700);
        let equal_not_same = list(1000);
        check(&old, &equal_not_same, 0);
    }
}
