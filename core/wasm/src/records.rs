//! The engine's JSON stand-ins for JavaScript values that JSON data cannot
//! hold: LangGraph.js's own serialized forms (`@langchain/langgraph-checkpoint`'s
//! `JsonPlusSerializer`), objects of the shape `{"lc": 2, "type": ...}`:
//!
//! - `{"lc": 2, "type": "undefined"}`: JavaScript's `undefined`. A node
//!   that returns `{x: undefined}` writes it (LangGraph.js writes
//!   `undefined`), a last-value channel holds it while the run goes on, and
//!   a checkpoint restores it as no value (the engine's
//!   `CompileOptions::js_undefined`, set by the bindings), as LangGraph.js's
//!   channels restore `undefined`. Inside a value (`{a: {b: undefined}}`,
//!   `[undefined]`) it stays `undefined` everywhere, stored checkpoints
//!   included, as LangGraph.js's serializer keeps it.
//! - `{"lc": 2, "type": "js_ref", "id": n}`: a value held by reference
//!   while a run goes on (see `held.rs`): functions, symbols and
//!   objects that are not plain data (class instances, `Map`, `Date`, ...),
//!   which LangGraph.js passes through its channels as they are.
//! - `{"lc": 2, "type": "constructor", "id": ["Map"], "args": [...], ...}`:
//!   a `Map`, `Set`, `RegExp`, `Error` or `Uint8Array` as LangGraph.js's
//!   serializer stores one; revived into a new instance, as its reviver does.
//!
//! Values go out to JS through [`revive`]: `undefined`, the held value
//! itself, or (for a constructor record) what the JS layer's
//! `reviveRecord` makes of it (npm/src/checkpoint/records.ts). A record of an unknown
//! type, or of a value no longer held, stays the plain object it is (inert,
//! as LangGraph.js keeps records it does not know).
//!
//! Until a record has entered the engine ([`seen`]), nothing needs reviving,
//! and values go out through the plain conversion (`types::args::to_js`).

use crate::error::JsResult;
use chronograph::OVERWRITE;
use js_sys::Function;
use serde_json::{json, Map, Value};
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;

/// The `type` of the record for `undefined`.
pub const UNDEFINED: &str = "undefined";
/// The `type` of the record for a value held by reference.
pub const REF: &str = "js_ref";
/// The `type` of LangGraph.js's record for a `Map`, `Set`, `RegExp`, `Error` or `Uint8Array`.
pub const CONSTRUCTOR: &str = "constructor";

thread_local! {
    static SEEN: Cell<bool> = const { Cell::new(false) };
    /// The JS layer's `reviveRecord(record)` (npm/src/checkpoint/records.ts), once registered.
    static REVIVE: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// Registers the JS layer's `reviveRecord(record)`: a constructor record
/// (as plain JS data) as the instance LangGraph.js's reviver makes of it,
/// or the record itself. Without it (the bindings used alone) constructor
/// records go out as they are.
#[wasm_bindgen(js_name = registerReviveRecord)]
pub fn register_revive_record(
    #[wasm_bindgen(unchecked_param_type = "(record: object) => unknown")] f: Function,
) {
    REVIVE.with(|r| *r.borrow_mut() = Some(f));
}

/// Whether a record entered the engine in this process (else no value
/// holds one, and the plain conversion serves).
#[wasm_bindgen(js_name = recordsSeen)]
pub fn seen() -> bool {
    SEEN.with(Cell::get)
}

/// Notes that a record entered the engine.
pub fn note() {
    SEEN.with(|s| s.set(true));
}

/// The record for `undefined` (notes that records are in use).
pub fn undefined() -> Value {
    note();
    undefined_json()
}

/// The record for `undefined`, as the engine's `CompileOptions::js_undefined`.
pub fn undefined_json() -> Value {
    json!({"lc": 2, "type": UNDEFINED})
}

/// The record of the value held as `id` (see `held.rs`).
pub fn reference(id: u64) -> Value {
    note();
    json!({"lc": 2, "type": REF, "id": id})
}

/// The record type of `map` when it is a record (`lc` is its first key and 2).
pub fn kind(map: &Map<String, Value>) -> Option<&str> {
    let (first, lc) = map.iter().next()?;
    if first != "lc" || lc.as_u64() != Some(2) {
        return None;
    }
    map.get("type")?.as_str()
}

/// Whether `v` is the record for `undefined`.
pub fn is_undefined(v: &Value) -> bool {
    matches!(v, Value::Object(m) if m.len() == 2 && kind(m) == Some(UNDEFINED))
}

/// The held value's id of a `js_ref` record.
pub fn reference_id(map: &Map<String, Value>) -> Option<u64> {
    match kind(map) {
        Some(REF) => map.get("id")?.as_u64(),
        _ => None,
    }
}

/// The JS value a record stands for (`None`: not a record, or one that
/// stays the plain object it is).
pub fn revive(v: &Value) -> JsResult<Option<JsValue>> {
    let Value::Object(map) = v else {
        return Ok(None);
    };
    match kind(map) {
        Some(UNDEFINED) if map.len() == 2 => Ok(Some(JsValue::UNDEFINED)),
        // An `Overwrite` held has its value beside (`value.rs`).
        Some(REF) if map.len() == 3 || (map.len() == 4 && map.contains_key(OVERWRITE)) => {
            Ok(reference_id(map).and_then(super::held::get))
        }
        Some(CONSTRUCTOR) => {
            let Some(f) = REVIVE.with(|r| r.borrow().clone()) else {
                return Ok(None);
            };
            let plain = super::types::args::plain_to_js(v)?;
            f.call1(&JsValue::UNDEFINED, &plain).map(Some)
        }
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_told_by_their_first_key() {
        let Value::Object(m) = json!({"lc": 2, "type": "undefined"}) else {
            unreachable!()
        };
        assert_eq!(kind(&m), Some(UNDEFINED));
        assert!(is_undefined(&Value::Object(m)));
        let Value::Object(later) = json!({"type": "undefined", "lc": 2}) else {
            unreachable!()
        };
        assert_eq!(
            kind(&later),
            None,
            "lc must come first, as the serializer writes it"
        );
        let Value::Object(lc1) = json!({"lc": 1, "type": "constructor"}) else {
            unreachable!()
        };
        assert_eq!(
            kind(&lc1),
            None,
            "LangChain's own records (lc: 1) are not the engine's"
        );
        let Value::Object(r) = json!({"lc": 2, "type": "js_ref", "id": 7}) else {
            unreachable!()
        };
        assert_eq!(reference_id(&r), Some(7));
        assert!(!is_undefined(
            &json!({"lc": 2, "type": "undefined", "x": 1})
        ));
    }
}
