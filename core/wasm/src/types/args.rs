//! Reading arguments: JS values in (JSON data, Rust types, strings, names,
//! integers, object entries) with errors that name the argument, and any
//! serializable value out ([`to_js`], [`plain_to_js`]). Every other module
//! of the bindings reads and writes JS values through these.

use crate::error::JsResult;
use crate::error::{describe, invalid_argument, serialization_error};
use crate::value::{array_items, is_array, object_pairs};
use js_sys::Reflect;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_ARGS: &str = r#"
/** A name or a list of names (`undefined` or `null`: none), as `names_arg` reads it. */
export type Names = string | string[] | null | undefined;
"#;

#[wasm_bindgen]
extern "C" {
    /// A name: what [`string_arg`] reads (`string`; anything else is an
    /// `INVALID_ARGUMENT` error naming the argument).
    #[wasm_bindgen(typescript_type = "string")]
    pub type NameArg;

    /// Names: what [`names_arg`] reads (`Names`).
    #[wasm_bindgen(typescript_type = "Names")]
    pub type NamesArg;

    /// One name or a list of them, none left out (`string | string[]`).
    #[wasm_bindgen(typescript_type = "string | string[]")]
    pub type NameListArg;

    /// Any JS value, read as the engine's data ([`json_from_js`], [`from_js`]).
    #[wasm_bindgen(typescript_type = "unknown")]
    pub type ValueArg;

    /// A task's writes, `[channel, value]` pairs.
    #[wasm_bindgen(typescript_type = "[string, unknown][]")]
    pub type WritesArg;
}

/// Converts any serializable value to JS, the engine's records
/// ([`crate::records`]) as the values they stand for (`undefined`, a value
/// held by reference, a `Map`, ...) once records are in use.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> JsResult<JsValue> {
    match crate::records::seen() {
        true => crate::js_out::to_js(value).map_err(conversion_error),
        false => plain_to_js(value),
    }
}

/// Converts any serializable value to plain JS data, records as they are
/// (a document: what `exportThread` hands out and `importThread` reads back).
pub fn plain_to_js<T: Serialize + ?Sized>(value: &T) -> JsResult<JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(conversion_error)
}

/// A value that could not go out to JS, as a JS error.
fn conversion_error(e: serde_wasm_bindgen::Error) -> JsValue {
    serialization_error("convert a value to JavaScript", e)
}

/// Reads a JS value as JSON data ([`crate::value::json_from_js`], the one
/// conversion of JS values into the engine); the error names `what` and
/// the path of the bad value.
pub fn json_from_js(value: JsValue, what: &str) -> JsResult<Value> {
    crate::value::json_from_js(&value, what)
}

/// Reads a JS value into a Rust type; the error names `what` and the path
/// of the bad field (`put(...): checkpoint.channel_versions.x: ...`).
pub fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> JsResult<T> {
    let json = crate::value::document_from_js(&value, what)?;
    serde_path_to_error::deserialize(json).map_err(|e| {
        let path = e.path().to_string();
        let at = if path == "." {
            String::new()
        } else {
            format!(".{path}")
        };
        invalid_argument(format!("{what}{at}: {}", e.inner()))
    })
}

/// A property of a JS object (`undefined` when absent or unreadable).
pub fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Whether `v` is `undefined` or `null` (an argument left out).
pub(crate) fn absent(v: &JsValue) -> bool {
    v.is_undefined() || v.is_null()
}

/// Whether `v` is a plain-ish object (not an array, function or primitive).
pub fn is_object(v: &JsValue) -> bool {
    v.is_object() && !is_array(v)
}

/// The own enumerable `[key, value]` pairs of an object (none for a
/// primitive); the error names `what` when reading them threw.
pub fn entries(v: &JsValue, what: &str) -> JsResult<Vec<(String, JsValue)>> {
    match v.is_object() || v.is_function() {
        true => object_pairs(v, what),
        false => Ok(Vec::new()),
    }
}

/// A string argument, or an error naming it.
pub fn string_arg(v: &JsValue, what: &str) -> JsResult<String> {
    v.as_string()
        .ok_or_else(|| invalid_argument(format!("{what} must be a string, got {}", describe(v))))
}

/// A string or a list of strings (`"*"`, `["a", "b"]`); absent is empty.
pub fn names_arg(v: &JsValue, what: &str) -> JsResult<Vec<String>> {
    if absent(v) {
        return Ok(Vec::new());
    }
    if let Some(s) = v.as_string() {
        return Ok(vec![s]);
    }
    let bad = || {
        invalid_argument(format!(
            "{what} must be a string or an array of strings, got {}",
            describe(v)
        ))
    };
    array_items(v)?
        .ok_or_else(bad)?
        .iter()
        .map(|x| x.as_string().ok_or_else(bad))
        .collect()
}

/// A non-negative integer argument (absent is `None`).
pub(crate) fn integer_arg(v: &JsValue, what: &str) -> JsResult<Option<i64>> {
    if absent(v) {
        return Ok(None);
    }
    match v.as_f64() {
        Some(n) if n.fract() == 0.0 && n.is_finite() => Ok(Some(n as i64)),
        _ => Err(invalid_argument(format!(
            "{what} must be an integer, got {}",
            describe(v)
        ))),
    }
}

/// The JSON values of an object's entries; entries JSON cannot hold
/// (functions, symbols, `undefined`, cycles, ...) are left out.
pub(crate) fn json_entries(v: &JsValue, what: &str) -> JsResult<Map<String, Value>> {
    Ok(entries(v, what)?
        .into_iter()
        .filter(|(_, x)| !x.is_undefined())
        .filter_map(|(k, x)| Some((k, crate::value::data_from_js(&x, what).ok()?)))
        .collect())
}

/// An optional node name (`asNode`).
pub fn optional_name(v: &JsValue, what: &str) -> JsResult<Option<String>> {
    match absent(v) {
        true => Ok(None),
        false => string_arg(v, what).map(Some),
    }
}
