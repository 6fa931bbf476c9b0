//! [`StateCache`]: the per-graph cache of what JS nodes and routers are
//! handed: each channel's JS value (reused while the core value is the
//! same one, converted incrementally when a list grew), the channel names
//! as JS strings, and the run's config as JS.
//!
//! Every node and router call goes through it, so its work per call must
//! not grow with the history: a list channel whose cached JS value is not
//! current is not converted at all but handed as a lazy property (see
//! [`super::lazy_state`]), converted only when the node or router reads
//! it; then the list is compared with the cached version log by log
//! ([`shared_prefix`]) and only its new items are converted.

use super::lazy_state::{LazyProperties, StateObject};
use super::types::args::to_js;
use super::types::shapes::Interrupts;
use crate::error::JsResult;
use chronograph::{ChannelList, ChannelValue, NodeContext, RunOutput, RunnableConfig, State};
use js_sys::{Object, Reflect};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The JS value a `Send`'s argument stands for when it is one of the
/// engine's records ([`super::records`]): its keys are then the state's
/// channels, `lc` (2) first.
fn sent_record(state: &State) -> JsResult<Option<JsValue>> {
    let first = state.iter().next();
    let Some((key, ChannelValue::Json(lc))) = first else {
        return Ok(None);
    };
    if &**key != "lc" || lc.as_u64() != Some(2) || !super::records::seen() {
        return Ok(None);
    }
    let record: serde_json::Map<String, Value> = state
        .iter()
        .map(|(k, v)| (String::from(&**k), v.to_json()))
        .collect();
    super::records::revive(&Value::Object(record))
}

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
/// changed, so it must not be O(length): versions of one list share their
/// log, and [`ChannelList::shared_prefix`] compares logs before items.
pub(crate) fn shared_prefix(old: &ChannelList, new: &ChannelList) -> usize {
    old.shared_prefix(new)
}

/// How many leading items of `old` have a JS form that also stands for
/// `new`'s: the shared prefix ([`shared_prefix`]), then the items equal by
/// value. A fresh read and the superstep's own apply write the same update
/// as different `Arc`s, so the version after a superstep differs from the
/// one its router saw only by pointers; comparing values there is still
/// cheaper than converting (nodes see shared items and must not mutate
/// them, so an equal item's JS form can stand for it).
pub(crate) fn reusable_prefix(old: &ChannelList, new: &ChannelList) -> usize {
    let l = shared_prefix(old, new);
    let n = old.len().min(new.len());
    l + old
        .iter()
        .skip(l)
        .zip(new.iter().skip(l))
        .take(n - l)
        .take_while(|(a, b)| a == b)
        .count()
}

/// Per graph: the last JS value made for each channel, keyed by the core
/// value it was made from (which the entry keeps alive, so a pointer is
/// never reused for another value while it is cached).
///
/// A changed list whose first items are the same `Arc`s as the cached
/// version's (after an `append` or an `add_messages` that added or
/// replaced recent messages) is converted incrementally: the shared prefix
/// of the cached JS array is copied (one `concat` with the new items, a shallow
/// copy) and only the items after it are converted; a version with the
/// very same items keeps the cached array. Any other change
/// converts the whole value. The JS
/// arrays and their items are shared between calls: nodes and routers must
/// not mutate the state they are given (as in LangGraph.js).
#[derive(Default)]
pub struct StateCache {
    entries: RefCell<HashMap<String, Entry>>,
    /// The last run config seen and its JS form (see [`StateCache::run_config`]).
    run: RefCell<Option<(RunnableConfig, JsValue)>>,
    /// The last task `checkpoint_map` made, by the checkpoint id of its
    /// superstep (every task of a superstep has the same map; see
    /// [`StateCache::checkpoint_map`]).
    map: RefCell<Option<(String, JsValue)>>,
    /// JS strings of names that cross on every call but have no [`Entry`]:
    /// the lazy list channels' keys and the tasks' triggers (a graph has
    /// few; decoding a string costs more than a lookup).
    names: RefCell<HashMap<String, JsValue>>,
    conversions: Cell<u64>,
    items: Cell<u64>,
}

/// What a changed list's JS array is made from: the cached array as it
/// is, or the first `l` items of the cached array and the new items.
enum Base {
    Same(JsValue),
    Prefix(js_sys::Array, usize),
}

/// One channel's cached JS value, the core value it was made from, and the
/// channel's name as a JS string (made once, not per call).
struct Entry {
    value: ChannelValue,
    js: JsValue,
    key: JsValue,
}

impl StateCache {
    /// The JS name and JS value of one channel, the value converted only
    /// if it changed (and then, for a list that grew, only its new items).
    pub(super) fn channel(&self, name: &str, value: &ChannelValue) -> JsResult<(JsValue, JsValue)> {
        let base = match self.entries.borrow().get(name) {
            Some(e) if same(&e.value, value) => return Ok((e.key.clone(), e.js.clone())),
            Some(Entry {
                value: ChannelValue::List(old),
                js,
                ..
            }) => match value {
                ChannelValue::List(new) => match reusable_prefix(old, new) {
                    // Another version with the same items (e.g. the
                    // superstep's result after its router's fresh read):
                    // the cached array is still right as it is.
                    l if l == old.len() && l == new.len() => Some(Base::Same(js.clone())),
                    0 => None,
                    l => js
                        .dyn_ref::<js_sys::Array>()
                        .map(|a| Base::Prefix(a.clone(), l)),
                },
                _ => None,
            },
            _ => None,
        };
        let js: JsValue = match (base, value) {
            (Some(Base::Same(js)), _) => js,
            (Some(Base::Prefix(cached, l)), ChannelValue::List(new)) => {
                // The new items in a small array, then one `concat`: one
                // copy of the shared prefix at its final size (`slice` then
                // `push` copies it twice, the push growing the array).
                let fresh = js_sys::Array::new();
                // `skip` is O(1) on a list's iterator.
                for item in new.iter().skip(l) {
                    fresh.push(&to_js(&**item)?);
                }
                let prefix = match l == cached.length() as usize {
                    true => cached,
                    false => cached.slice(0, l as u32),
                };
                self.count(1, new.len() - l);
                prefix.concat(&fresh).into()
            }
            _ => {
                self.count(1, value.len().unwrap_or(1));
                to_js(value)?
            }
        };
        let mut entries = self.entries.borrow_mut();
        let key = match entries.get_mut(name) {
            Some(e) => {
                e.value = value.clone();
                e.js = js.clone();
                e.key.clone()
            }
            None => {
                let key = JsValue::from_str(name);
                let entry = Entry {
                    value: value.clone(),
                    js: js.clone(),
                    key: key.clone(),
                };
                entries.insert(name.to_owned(), entry);
                key
            }
        };
        Ok((key, js))
    }

    fn count(&self, conversions: u64, items: usize) {
        self.conversions.set(self.conversions.get() + conversions);
        self.items.set(self.items.get() + items as u64);
    }

    /// The cached JS name and value of a channel when that value is current.
    fn current(&self, name: &str, value: &ChannelValue) -> Option<(JsValue, JsValue)> {
        match self.entries.borrow().get(name) {
            Some(e) if same(&e.value, value) => Some((e.key.clone(), e.js.clone())),
            _ => None,
        }
    }

    /// The JS name of a channel (made once per channel, cached).
    fn key(&self, name: &str) -> JsValue {
        if let Some(e) = self.entries.borrow().get(name) {
            return e.key.clone();
        }
        self.name(name)
    }

    /// `name` as a JS string, made once per name (see `names`).
    pub fn name(&self, name: &str) -> JsValue {
        if let Some(js) = self.names.borrow().get(name) {
            return js.clone();
        }
        let js = JsValue::from_str(name);
        self.names.borrow_mut().insert(name.to_owned(), js.clone());
        js
    }

    /// The state as a JS object (a fresh object over cached channel values),
    /// or a `Send`'s argument that is not an object as itself.
    /// A list channel whose cached JS value is not current is not converted
    /// here: it becomes a lazy property (see [`super::lazy_state`]) that
    /// converts it on first read, so a node that never reads a long list
    /// costs nothing for it.
    pub fn state(self: &Rc<Self>, state: &State) -> JsResult<JsValue> {
        // A node run by `new Send(node, 7)` is given the value itself.
        if let Some(arg) = state.arg() {
            return to_js(arg);
        }
        // So is one sent a value held by reference, or `undefined` (the
        // engine made channels of its record's keys).
        if let Some(js) = sent_record(state)? {
            return Ok(js);
        }
        let obj = Object::new().unchecked_into::<StateObject>();
        let mut lazy = LazyProperties::default();
        for (name, value) in state.iter() {
            if let Some((key, js)) = self.current(name, value) {
                obj.set(&key, &js);
                continue;
            }
            if let ChannelValue::List(_) = value {
                if lazy.define(&obj, &self.key(name), name, value)? {
                    continue;
                }
            }
            let (key, js) = self.channel(name, value)?;
            obj.set(&key, &js);
        }
        lazy.finish(self);
        Ok(obj.into())
    }

    /// The run's config as the engine holds it (`configurable`,
    /// `recursionLimit`, `metadata`), as JS: the JS layer finds its run's
    /// data by it (npm/src/pregel/runtime.ts `wrapNode`), and builds the config of
    /// a node of a run without any from it. Converted once per run: kept while the runs' configs are
    /// equal (compared by value: a run's config lives as long as the run,
    /// so its address could be reused by the next run's).
    pub fn run_config(&self, run: &RunnableConfig) -> JsResult<JsValue> {
        if let Some((cached, js)) = &*self.run.borrow() {
            if cached == run {
                return Ok(js.clone());
            }
        }
        let mut config = serde_json::Map::new();
        config.insert(
            "configurable".into(),
            Value::Object(run.configurable.clone()),
        );
        if let Some(limit) = run.recursion_limit {
            config.insert("recursionLimit".into(), limit.into());
        }
        config.insert("metadata".into(), Value::Object(run.metadata.clone()));
        let js = to_js(&config)?;
        *self.run.borrow_mut() = Some((run.clone(), js.clone()));
        Ok(js)
    }

    /// The `checkpoint_map` of a task's config as JS (LangGraph.js's
    /// `configurable.checkpoint_map`): made once per superstep, shared by
    /// its tasks (the JS layer copies it per call).
    pub fn checkpoint_map(&self, ctx: &NodeContext) -> JsResult<JsValue> {
        let id = ctx.checkpoint_id().unwrap_or_default();
        if let Some((cached, js)) = &*self.map.borrow() {
            if cached == id {
                return Ok(js.clone());
            }
        }
        let js = to_js(ctx.checkpoint_map())?;
        *self.map.borrow_mut() = Some((id.to_owned(), js.clone()));
        Ok(js)
    }

    /// A run's result as JS: the state values with `__interrupt__` added
    /// when the run was interrupted. Lists come from the cache (converted
    /// only where they changed) as fresh shallow copies, so the caller may
    /// push to or reorder them; their items are shared with the state nodes
    /// see and must not be mutated in place. Other values are converted
    /// afresh.
    pub fn output(&self, output: &RunOutput) -> JsResult<JsValue> {
        // LangGraph.js's `invoke` returns the last "values" chunk: none
        // reported, no values (`undefined`, or just the `__interrupt__`).
        if !output.values_reported && !output.paused {
            return Ok(JsValue::UNDEFINED);
        }
        // A `Pregel`'s single output channel: the value itself, with the
        // interrupts added only to an object (LangGraph.js's `invoke`).
        if let Some(value) = output.values.arg().filter(|_| output.values_reported) {
            if !output.paused || !(value.is_object() || value.is_null()) {
                return to_js(value);
            }
            if value.is_object() {
                let obj = to_js(value)?;
                Reflect::set(
                    &obj,
                    &"__interrupt__".into(),
                    &to_js(&Interrupts(&output.interrupts))?,
                )?;
                return Ok(obj);
            }
        }
        let obj = Object::new();
        let values = output.values_reported.then(|| output.values.iter());
        for (name, value) in values.into_iter().flatten() {
            let (key, js) = match value {
                ChannelValue::List(_) => {
                    let (key, js) = self.channel(name, value)?;
                    (key, js_sys::Array::from(&js).slice(0, u32::MAX).into())
                }
                ChannelValue::Json(v) => (JsValue::from_str(name), to_js(&**v)?),
            };
            Reflect::set(&obj, &key, &js)?;
        }
        // LangGraph.js reports a pause at a breakpoint too, as `__interrupt__: []`.
        if output.paused {
            Reflect::set(
                &obj,
                &"__interrupt__".into(),
                &to_js(&Interrupts(&output.interrupts))?,
            )?;
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

#[cfg(test)]
mod tests {
    use super::{reusable_prefix, shared_prefix};
    use chronograph::ChannelList;
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
            // The same, appended on a fork (another log continues `old`).
            let mut fork = old.clone();
            fork.push_back(item(-7));
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
    fn same_items_in_another_log() {
        // Rebuilt (as `set` and `retain` do): the same items in a new log.
        let old = list(1000);
        let mut new: ChannelList = old.iter().cloned().collect();
        check(&old, &new, 1000);
        new.set(700, item(-1));
        check(&old, &new, 700);
        let equal_not_same = list(1000);
        check(&old, &equal_not_same, 0);
    }

    #[test]
    fn reusable_prefix_goes_on_over_equal_items() {
        let old = list(3000);
        let mut new = old.clone();
        new.set(2999, item(2999));
        new.push_back(item(-1));
        assert_eq!(shared_prefix(&old, &new), 2999);
        assert_eq!(reusable_prefix(&old, &new), 3000);
        new.set(100, item(-5));
        assert_eq!(reusable_prefix(&old, &new), 100);
        let rebuilt = list(3000);
        assert_eq!(reusable_prefix(&old, &rebuilt), 3000);
        assert_eq!(reusable_prefix(&old, &list(10)), 10);
        assert_eq!(reusable_prefix(&list(10), &old), 10);
    }
}
