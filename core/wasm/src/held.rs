//! JavaScript values held by reference while a run goes on.
//!
//! LangGraph.js's channels hold what nodes write as it is: a function, a
//! class instance (a LangChain runnable, a tool, a `Date`, a `Map`) goes
//! through a run untouched, and the run returns the very same object. The
//! engine holds JSON data, so such a value enters it as a record
//! `{"lc": 2, "type": "js_ref", "id": n}` ([`super::records`]) and the value
//! itself waits here, in a table by id, until its run ends; wherever the
//! record goes out to JS, the value itself does.
//!
//! Which run: each run, update and call from a node runs its future
//! through [`scoped`], which makes its [`Scope`] the current one while the
//! future is polled (the engine calls nodes, reducers and routers from
//! there), and a running task keeps the scope it started in (for an
//! `interrupt()` called after an `await`, outside any poll). Values read
//! with no current scope (a channel's default, a config) are JSON data or
//! refused, as before. When the last handle on a scope goes (its run
//! ended), its values leave the table.
//!
//! Nothing stored keeps a record of a held value: a checkpointer stores
//! each checkpoint and write the way LangGraph.js's serializer does
//! ([`stored`], through [`super::js_graph_saver::JsGraphSaver`]), so a stored value
//! reads back as LangGraph.js's `MemorySaver` gives it back (functions
//! dropped, `Map`s as new `Map`s, class instances as their own data), and
//! a graph without a checkpointer keeps nothing past its run.

use chronograph::Error;
use js_sys::Function;
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use wasm_bindgen::prelude::*;

thread_local! {
    static TABLE: RefCell<HashMap<u64, JsValue>> = RefCell::new(HashMap::new());
    static NEXT: Cell<u64> = const { Cell::new(0) };
    static CURRENT: RefCell<Option<Rc<Scope>>> = const { RefCell::new(None) };
    /// The JS layer's `storedValue(value)` (npm/src/checkpoint/records.ts), once registered.
    static STORED: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// The values one run holds; they leave the table when it is dropped.
#[derive(Default)]
pub struct Scope {
    ids: RefCell<Vec<u64>>,
}

impl Drop for Scope {
    fn drop(&mut self) {
        let ids = std::mem::take(&mut *self.ids.borrow_mut());
        TABLE.with(|t| {
            let mut t = t.borrow_mut();
            for id in ids {
                t.remove(&id);
            }
        });
    }
}

/// The current scope, if any (what a running task keeps, see `task.rs`).
pub fn current() -> Option<Rc<Scope>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Whether a scope is current (values read now may be held).
pub fn in_scope() -> bool {
    CURRENT.with(|c| c.borrow().is_some())
}

/// Runs `f` with `scope` as the current scope.
pub fn enter<R>(scope: Option<Rc<Scope>>, f: impl FnOnce() -> R) -> R {
    let previous = CURRENT.with(|c| c.replace(scope));
    let out = f();
    CURRENT.with(|c| *c.borrow_mut() = previous);
    out
}

/// A future polled with its scope as the current one.
pub struct Scoped<F> {
    scope: Rc<Scope>,
    inner: Pin<Box<F>>,
}

impl<F: Future> Future for Scoped<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let scope = self.scope.clone();
        enter(Some(scope), || self.inner.as_mut().poll(cx))
    }
}

/// `f` in a scope of its own: a run, an update, a call from a node.
pub fn scoped<F: Future>(f: F) -> Scoped<F> {
    Scoped {
        scope: Rc::default(),
        inner: Box::pin(f),
    }
}

/// The record standing for `v`, held until the current scope ends;
/// `None` when no scope is current.
pub fn hold(v: &JsValue) -> Option<Value> {
    let scope = current()?;
    let id = NEXT.with(|n| {
        let id = n.get() + 1;
        n.set(id);
        id
    });
    TABLE.with(|t| t.borrow_mut().insert(id, v.clone()));
    scope.ids.borrow_mut().push(id);
    Some(super::records::reference(id))
}

/// The value held as `id`, while its run goes on.
pub fn get(id: u64) -> Option<JsValue> {
    TABLE.with(|t| t.borrow().get(&id).cloned())
}

/// The value held as `id` (`undefined` once its run ended), for the JS
/// layer's reviver of listed values (npm/src/checkpoint/records.ts).
#[wasm_bindgen(js_name = heldValue, unchecked_return_type = "unknown")]
pub fn held_value(id: f64) -> JsValue {
    get(id as u64).unwrap_or(JsValue::UNDEFINED)
}

/// Whether any value is held now (else no value can hold a record of one).
pub fn any() -> bool {
    TABLE.with(|t| !t.borrow().is_empty())
}

/// Whether `v` holds a record of a held value.
pub fn contains_refs(v: &Value) -> bool {
    match v {
        Value::Array(items) => items.iter().any(contains_refs),
        Value::Object(map) => {
            super::records::reference_id(map).is_some() || map.values().any(contains_refs)
        }
        _ => false,
    }
}

/// Registers the JS layer's `storedValue(value)`: a JS value as
/// LangGraph.js's serializer stores and reads it back, as plain JSON
/// data (records for `undefined`, `Map`s and the like).
#[wasm_bindgen(js_name = registerStoredValue)]
pub fn register_stored_value(
    #[wasm_bindgen(unchecked_param_type = "(value: unknown) => unknown")] f: Function,
) {
    STORED.with(|s| *s.borrow_mut() = Some(f));
}

/// `v` as a checkpointer stores it: unchanged when it holds no record of
/// a held value, else the JS value it stands for through the JS layer's
/// `storedValue` (LangGraph.js's serializer), read back as JSON data.
/// Without that function (the bindings used alone), each held value is
/// stored as `undefined`.
pub fn stored(v: &Value) -> Result<Value, Error> {
    if !contains_refs(v) {
        return Ok(v.clone());
    }
    let Some(f) = STORED.with(|s| s.borrow().clone()) else {
        return Ok(without_refs(v));
    };
    let js = super::types::args::to_js(v).map_err(super::error::from_thrown)?;
    let out = f
        .call1(&JsValue::UNDEFINED, &js)
        .map_err(super::error::from_thrown)?;
    // Plain JSON data: read with no scope, so nothing in it is held again.
    enter(None, || super::value::json_from_js(&out, "a stored value"))
        .map_err(super::error::from_thrown)
}

/// `v` with each record of a held value replaced by the record for `undefined`.
fn without_refs(v: &Value) -> Value {
    match v {
        Value::Array(items) => Value::Array(items.iter().map(without_refs).collect()),
        Value::Object(map) if super::records::reference_id(map).is_some() => {
            super::records::undefined()
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, x)| (k.clone(), without_refs(x)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn refs_are_found_at_any_depth_and_stored_as_undefined_without_the_js_layer() {
        let v = json!({"a": [1, {"b": {"lc": 2, "type": "js_ref", "id": 3}}], "c": "x"});
        assert!(contains_refs(&v));
        assert!(!contains_refs(
            &json!({"a": [1, {"lc": 2, "type": "undefined"}]})
        ));
        assert_eq!(
            without_refs(&v),
            json!({"a": [1, {"b": {"lc": 2, "type": "undefined"}}], "c": "x"})
        );
    }
}
