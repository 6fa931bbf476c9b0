//! The one conversion of JavaScript values into the engine's JSON data:
//! [`json_from_js`] for values (run inputs, `updateState` values, node and
//! reducer results, `interrupt()` values, `Command` fields),
//! [`document_from_js`] and [`data_from_js`] for documents and configs
//! (saver writes, imported threads, graph specs; typed documents through
//! [`crate::types::args::from_js`], which reads the JSON first).
//!
//! It reads what `serde_wasm_bindgen` reads (objects by `Object.entries`,
//! arrays, `Map`s with string keys, `null` as `null`, safe integers as
//! integers, `NaN` and infinities as `null`, BigInts as integers when a JS
//! number holds them exactly). A value reads what JSON does not hold as
//! LangGraph.js keeps it ([`super::records`]): `undefined` as the record
//! for `undefined`, and, while a run goes on (`held.rs`), a
//! function, a symbol or an object that is not plain data (its prototype
//! is neither `Object.prototype` nor `null`: a class instance, a `Map`, a
//! `Date`) as a record of the value held by reference. A document or a
//! config reads `undefined` as `null`, and objects by their entries.
//! Either refuses, with a `TypeError` of code `INVALID_VALUE` whose
//! message names the path of the bad value (`input.n.self: ...`):
//!
//! - cycles, and nesting deeper than [`MAX_DEPTH`] objects and arrays
//!   (both found by the depth limit, so the common case costs one counter;
//!   the cycle is told apart only when the limit is hit);
//! - arrays longer than [`MAX_ITEMS`] (a sparse `length` of 2³² would
//!   otherwise be read hole by hole into memory the module does not have);
//! - BigInts outside the safe integer range; outside a run (or in a
//!   document), functions, symbols, and objects JSON does not hold (`Set`,
//!   typed arrays, other iterables);
//! - a getter, `Proxy` trap or iterator that throws (the thrown value is
//!   the error's `cause`).
//!
//! Every JavaScript operation here that can run the caller's code
//! (getters, Proxy traps, `Symbol.toStringTag`, iterators) goes through an
//! import that catches, so nothing the caller's code throws unwinds through
//! the module's frames (which would leave Rust state half-updated).

use super::error::new_error;
use crate::error::JsResult;
use chronograph::OVERWRITE;
use js_sys::Reflect;
use serde_json::{Map, Number, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// How deeply objects and arrays may nest in a value handed to the engine
/// (the value itself is level 1: `{a: {b: 1}}` nests 2 deep).
pub const MAX_DEPTH: usize = 256;

/// How deeply a document the engine reads whole (a checkpoint, a thread
/// export) may nest: [`MAX_DEPTH`] for the values it holds, plus room for
/// its own structure (an export holds a channel value 6 levels down and a
/// node's update, itself up to [`MAX_DEPTH`] deep, 7 levels down).
pub const DOCUMENT_DEPTH: usize = MAX_DEPTH + 16;

/// How many items an array handed to the engine may hold (2²², 4,194,304:
/// a sparse array of that length already reads as 134 MB of `null`s).
pub const MAX_ITEMS: u32 = 1 << 22;

/// The code of every error this conversion raises.
pub const INVALID_VALUE: &str = "INVALID_VALUE";

thread_local! {
    /// `Symbol.iterator`, fetched once.
    static ITERATOR: JsValue = js_sys::Symbol::iterator().into();
    /// `Object.prototype`, fetched once.
    static OBJECT_PROTOTYPE: JsValue = Reflect::get_prototype_of(&js_sys::Object::new())
        .map(JsValue::from)
        .unwrap_or(JsValue::NULL);
}

#[wasm_bindgen]
extern "C" {
    /// `Object.entries(v)`, catching what getters and Proxy traps throw.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = entries)]
    fn object_entries(v: &JsValue) -> JsResult<js_sys::Array>;

    /// `Array.isArray(v)` (which throws on a revoked Proxy).
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn array_is_array(v: &JsValue) -> JsResult<bool>;

    /// `Array.prototype.slice.call(v)`: a plain copy of an array (or of a
    /// Proxy of one), catching what its traps throw.
    #[wasm_bindgen(catch, js_namespace = ["Array", "prototype", "slice"], js_name = call)]
    fn array_slice(v: &JsValue) -> JsResult<js_sys::Array>;

    /// `Array.from(v)`, catching what the iterator throws.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = from)]
    fn array_from(v: &JsValue) -> JsResult<js_sys::Array>;
}

/// `Array.isArray(v)`; a revoked Proxy is no array.
pub fn is_array(v: &JsValue) -> bool {
    v.is_object() && array_is_array(v).unwrap_or(false)
}

/// The items of an array (read through `Reflect`, so a Proxy's traps cannot
/// unwind through the module); `Ok(None)` when `v` is no array.
pub fn array_items(v: &JsValue) -> JsResult<Option<Vec<JsValue>>> {
    if !is_array(v) {
        return Ok(None);
    }
    let len = array_length(v).map_err(|e| e.into_error("the array"))?;
    (0..len)
        .map(|i| Reflect::get_u32(v, i))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
        .map_err(|e| Bad::threw(e).into_error("the array"))
}

fn array_length(v: &JsValue) -> Result<u32, Bad> {
    let len = Reflect::get(v, &JsValue::from_str("length"))
        .map_err(Bad::threw)?
        .as_f64()
        .unwrap_or(0.0);
    if len > f64::from(MAX_ITEMS) {
        return Err(Bad::new(format!(
            "an array of {len} items is longer than the {MAX_ITEMS} items a value may hold"
        )));
    }
    Ok(len.max(0.0) as u32)
}

/// The own enumerable `[key, value]` pairs of an object (what
/// `Object.entries` gives), or the error naming `what` when reading them threw.
pub fn object_pairs(v: &JsValue, what: &str) -> JsResult<Vec<(String, JsValue)>> {
    pairs(v).map_err(|e| e.into_error(what))
}

fn pairs(v: &JsValue) -> Result<Vec<(String, JsValue)>, Bad> {
    let entries = object_entries(v).map_err(Bad::threw)?;
    // Pairs made by `Object.entries` are fresh arrays of two items.
    Ok(entries
        .iter()
        .filter_map(|pair| {
            let pair: js_sys::Array = pair.unchecked_into();
            Some((pair.get(0).as_string()?, pair.get(1)))
        })
        .collect())
}

/// Reads a JS value as a value of the engine (see the module docs); `what`
/// names the value and is the root of the path in error messages
/// (`"input"` gives `input.n.self: ...`).
pub fn json_from_js(value: &JsValue, what: &str) -> JsResult<Value> {
    json_within(value, what, MAX_DEPTH, true)
}

/// A document read whole as JSON data, nesting up to [`DOCUMENT_DEPTH`].
pub fn document_from_js(value: &JsValue, what: &str) -> JsResult<Value> {
    json_within(value, what, DOCUMENT_DEPTH, false)
}

/// A config's entry as JSON data (`undefined` as `null`, nothing held).
pub fn data_from_js(value: &JsValue, what: &str) -> JsResult<Value> {
    json_within(value, what, MAX_DEPTH, false)
}

/// [`json_from_js`] with its depth limit, as a value or as data.
fn json_within(value: &JsValue, what: &str, max_depth: usize, as_value: bool) -> JsResult<Value> {
    let root = Place {
        up: None,
        key: Key::Root,
        value,
    };
    Reader {
        max_depth,
        as_value,
    }
    .read(&root, 0)
    .map_err(|e| e.into_error(what))
}

/// Where a value sits: the place of its container, its key there, and the
/// value itself (kept for telling a cycle from deep nesting). A chain of
/// these on the stack is the path, built into text only on failure.
struct Place<'a> {
    up: Option<&'a Place<'a>>,
    key: Key<'a>,
    value: &'a JsValue,
}

#[derive(Clone, Copy)]
enum Key<'a> {
    Root,
    Name(&'a str),
    Index(u32),
}

impl<'a> Place<'a> {
    /// The places from the root down to this one.
    fn chain(&'a self) -> Vec<&'a Place<'a>> {
        let mut chain = Vec::new();
        let mut at = Some(self);
        while let Some(p) = at {
            chain.push(p);
            at = p.up;
        }
        chain.reverse();
        chain
    }

    /// The keys from the root down to this place.
    fn keys(&'a self) -> Vec<Key<'a>> {
        self.chain().iter().map(|p| p.key).collect()
    }
}

/// A refused value: why, where (the path after the root, filled in by
/// [`Bad::at`]) and what the caller's code threw, if that is why.
struct Bad {
    reason: String,
    path: String,
    cause: Option<JsValue>,
}

impl Bad {
    fn new(reason: impl Into<String>) -> Bad {
        Bad {
            reason: reason.into(),
            path: String::new(),
            cause: None,
        }
    }

    /// Reading the value ran the caller's code, which threw `thrown`.
    fn threw(thrown: JsValue) -> Bad {
        Bad {
            cause: Some(thrown.clone()),
            ..Bad::new(format!("reading it threw {}", thrown_text(&thrown)))
        }
    }

    /// The same failure at the end of `keys`.
    fn at(mut self, keys: &[Key]) -> Bad {
        self.path = path_text(keys);
        self
    }

    /// The JS error: a `TypeError` of code `INVALID_VALUE`, `cause` set
    /// when the caller's code threw.
    fn into_error(self, what: &str) -> JsValue {
        let error = new_error(
            "TypeError",
            &format!("{what}{}: {}", self.path, self.reason),
            INVALID_VALUE,
        );
        if let Some(cause) = self.cause {
            let _ = Reflect::set(&error, &JsValue::from_str("cause"), &cause);
        }
        error
    }
}

/// A thrown value in a message: an Error's `name: message`, a string as
/// is, anything else described.
fn thrown_text(thrown: &JsValue) -> String {
    let field = |k: &str| {
        Reflect::get(thrown, &JsValue::from_str(k))
            .ok()
            .and_then(|v| v.as_string())
    };
    if let Some(s) = thrown.as_string() {
        return format!("{s:?}");
    }
    match (
        thrown.is_instance_of::<js_sys::Error>(),
        field("name"),
        field("message"),
    ) {
        (true, Some(name), Some(message)) => format!("{name}: {message}"),
        _ => super::error::describe(thrown),
    }
}

/// How many keys of a long path are shown at its start and at its end.
const PATH_HEAD: usize = 12;
const PATH_TAIL: usize = 4;

/// `keys` (the root's first) as `.name`, `["odd name"]` and `[3]`; a path
/// longer than `PATH_HEAD + PATH_TAIL` keys is shortened in the middle.
fn path_text(keys: &[Key]) -> String {
    let keys: Vec<&Key> = keys.iter().filter(|k| !matches!(k, Key::Root)).collect();
    let one = |k: &Key| match k {
        Key::Root => String::new(),
        Key::Index(i) => format!("[{i}]"),
        Key::Name(n) if is_identifier(n) => format!(".{n}"),
        Key::Name(n) => format!("[{}]", Value::from(*n)),
    };
    if keys.len() <= PATH_HEAD + PATH_TAIL {
        return keys.iter().map(|k| one(k)).collect();
    }
    let head: String = keys[..PATH_HEAD].iter().map(|k| one(k)).collect();
    let tail: String = keys[keys.len() - PATH_TAIL..]
        .iter()
        .map(|k| one(k))
        .collect();
    let skipped = keys.len() - PATH_HEAD - PATH_TAIL;
    format!("{head}…({skipped} more)…{tail}")
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// The largest integer a JS number holds exactly (`Number.MAX_SAFE_INTEGER`).
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

struct Reader {
    max_depth: usize,
    /// A value (see the module docs), not a document or a config.
    as_value: bool,
}

impl Reader {
    /// Reads the value at `place`, which sits inside `depth` objects and arrays.
    fn read(&self, place: &Place, depth: usize) -> Result<Value, Bad> {
        let v = place.value;
        // The common kinds first: every check is a call into JS.
        if let Some(s) = v.as_string() {
            return Ok(Value::String(s));
        }
        if let Some(n) = v.as_f64() {
            // As serde_wasm_bindgen: safe integers as integers (-0 as 0),
            // other numbers as floats, NaN and infinities as null.
            if n.fract() == 0.0 && n.abs() <= MAX_SAFE {
                return Ok(Value::from(n as i64));
            }
            return Ok(Number::from_f64(n).map_or(Value::Null, Value::Number));
        }
        if v.is_object() {
            if depth == self.max_depth {
                return Err(self.too_deep(place));
            }
            return self.container(place, depth + 1);
        }
        if v.is_null() {
            return Ok(Value::Null);
        }
        if v.is_undefined() {
            return Ok(match self.as_value {
                true => super::records::undefined(),
                false => Value::Null,
            });
        }
        if let Some(b) = v.as_bool() {
            return Ok(Value::Bool(b));
        }
        if v.is_bigint() {
            return bigint(v).map_err(|e| e.at(&place.keys()));
        }
        // A function or a symbol in a run: held by reference.
        if let Some(held) = self.hold(v) {
            return Ok(held);
        }
        let refused = if v.is_function() {
            Bad::new("a function is not JSON data")
        } else if v.is_symbol() {
            Bad::new("a symbol is not JSON data")
        } else {
            Bad::new(format!("{} is not JSON data", super::error::describe(v)))
        };
        Err(refused.at(&place.keys()))
    }

    /// An object, array or Map at `place`, which is at level `depth`.
    fn container(&self, place: &Place, depth: usize) -> Result<Value, Bad> {
        let v = place.value;
        let here = |e: Bad| e.at(&place.keys());
        if array_is_array(v).map_err(|e| here(Bad::threw(e)))? {
            let len = array_length(v).map_err(here)?;
            // One guarded copy (a Proxy's traps run, and may throw, here),
            // then plain reads of the copy: a guarded call per item costs more.
            let copy = array_slice(v).map_err(|e| self.item_threw(place, v, len, e))?;
            let mut items = Vec::new();
            items.try_reserve_exact(len as usize).map_err(|_| {
                here(Bad::new(format!(
                    "an array of {len} items does not fit in memory"
                )))
            })?;
            for (i, item) in (0..len).zip(copy.iter()) {
                let child = Place {
                    up: Some(place),
                    key: Key::Index(i),
                    value: &item,
                };
                items.push(self.read(&child, depth)?);
            }
            return Ok(Value::Array(items));
        }
        let pairs = if self.as_value && super::held::in_scope() {
            // In a run, an object that is not plain data is held by reference.
            let proto: JsValue = Reflect::get_prototype_of(v)
                .map_err(|e| here(Bad::threw(e)))?
                .into();
            let plain = proto.is_null() || OBJECT_PROTOTYPE.with(|p| *p == proto);
            if !plain {
                if let Some(replacement) = overwrite_of(v).map_err(here)? {
                    return self.overwrite(place, &replacement, depth);
                }
                return Ok(self.hold(v).unwrap_or(Value::Null));
            }
            pairs(v).map_err(here)?
        } else {
            self.entries(v).map_err(here)?
        };
        // LangGraph.js's records (`{lc: 2, ...}`) as data: values going out revive them.
        if pairs
            .first()
            .is_some_and(|(k, x)| k == "lc" && x.as_f64() == Some(2.0))
        {
            super::records::note();
        }
        let mut map = Map::new();
        for (key, item) in pairs {
            let child = Place {
                up: Some(place),
                key: Key::Name(&key),
                value: &item,
            };
            let value = self.read(&child, depth)?;
            map.insert(key, value);
        }
        match map.get("lg_name").and_then(Value::as_str) {
            // A LangGraph.js `Command` held as data reads as its JSON (its `toJSON`):
            // without LangChain's `lc_direct_tool_output` mark.
            Some("Command") => {
                map.remove("lc_direct_tool_output");
            }
            // An `Overwrite` read by its entries (outside a run) as its JSON too.
            Some("Overwrite") if map.contains_key(OVERWRITE) => {
                map.remove("lg_name");
            }
            _ => {}
        }
        Ok(Value::Object(map))
    }

    /// An `Overwrite` instance (the package's or LangGraph.js's) at `place`,
    /// wrapping `replacement`, in a run: held by reference like any class
    /// instance (a last-value channel, an "updates" chunk give the instance
    /// back, and a checkpointer stores its JSON, as in LangGraph.js), its
    /// record carrying the value read too, under `__overwrite__`, for the
    /// reducer channel it is written to (`chronograph::overwrite_value`).
    fn overwrite(&self, place: &Place, replacement: &JsValue, depth: usize) -> Result<Value, Bad> {
        let child = Place {
            up: Some(place),
            key: Key::Name(OVERWRITE),
            value: replacement,
        };
        let value = self.read(&child, depth)?;
        let mut record = match self.hold(place.value) {
            Some(Value::Object(record)) => record,
            _ => Map::new(),
        };
        record.insert(OVERWRITE.to_owned(), value);
        Ok(Value::Object(record))
    }

    /// The record of `v` held by reference, when this is a value read in a run.
    fn hold(&self, v: &JsValue) -> Option<Value> {
        match self.as_value {
            true => super::held::hold(v),
            false => None,
        }
    }

    /// The entries of an object read as data: a `Map`'s, or its own
    /// enumerable ones (refused: other iterables and `ArrayBuffer`s).
    fn entries(&self, v: &JsValue) -> Result<Vec<(String, JsValue)>, Bad> {
        // Plain objects (the common case) are no iterables and no ArrayBuffers.
        let iterable = ITERATOR.with(|k| Reflect::has(v, k)).map_err(Bad::threw)?;
        if iterable && v.is_instance_of::<js_sys::Map>() {
            map_pairs(v)
        } else if iterable || v.is_instance_of::<js_sys::ArrayBuffer>() {
            Err(Bad::new(format!("{} is not JSON data", kind(v))))
        } else {
            pairs(v)
        }
    }

    /// Copying the array at `place` threw `thrown`: the error names the
    /// first item whose read throws (read again one by one), else the array.
    fn item_threw(&self, place: &Place, v: &JsValue, len: u32, thrown: JsValue) -> Bad {
        for i in 0..len {
            if let Err(e) = Reflect::get_u32(v, i) {
                let child = Place {
                    up: Some(place),
                    key: Key::Index(i),
                    value: v,
                };
                return Bad::threw(e).at(&child.keys());
            }
        }
        Bad::threw(thrown).at(&place.keys())
    }

    /// The error for a container past the depth limit at `place`: a cycle
    /// when a value on the path repeats (reported where it first repeats),
    /// else nesting too deep.
    fn too_deep(&self, place: &Place) -> Bad {
        let values: Vec<&JsValue> = place.chain().iter().map(|p| p.value).collect();
        let keys = place.keys();
        for j in 1..values.len() {
            if values[..j].iter().any(|a| *a == values[j]) {
                return Bad::new(
                    "the value contains itself (a cycle); values must be JSON data, which has no cycles",
                )
                .at(&keys[..=j]);
            }
        }
        Bad::new(format!(
            "objects and arrays nest deeper than {} levels, the limit",
            self.max_depth
        ))
        .at(&keys)
    }
}

/// The value an object that is not plain data wraps when it is an
/// `Overwrite` (has an `__overwrite__` property, LangGraph.js's test).
fn overwrite_of(v: &JsValue) -> Result<Option<JsValue>, Bad> {
    let key = JsValue::from_str(OVERWRITE);
    if !Reflect::has(v, &key).map_err(Bad::threw)? {
        return Ok(None);
    }
    Reflect::get(v, &key).map(Some).map_err(Bad::threw)
}

/// A BigInt as an integer, when it is one a JS number holds exactly: a
/// larger one would be stored and then fail every read of the thread
/// (it cannot go back out as a number).
fn bigint(v: &JsValue) -> Result<Value, Bad> {
    match i64::try_from(v.clone()) {
        Ok(i) if i.unsigned_abs() <= MAX_SAFE as u64 => Ok(Value::from(i)),
        _ => Err(Bad::new(
            "a BigInt outside the safe integer range (±(2^53 - 1)) is not JSON data: it could not be read back as a JavaScript number",
        )),
    }
}

/// The `[key, value]` pairs of a Map; its keys must be strings.
fn map_pairs(v: &JsValue) -> Result<Vec<(String, JsValue)>, Bad> {
    let items = array_from(v).map_err(Bad::threw)?;
    let mut out = Vec::new();
    for pair in items.iter() {
        let key = Reflect::get_u32(&pair, 0).map_err(Bad::threw)?;
        let value = Reflect::get_u32(&pair, 1).map_err(Bad::threw)?;
        let Some(key) = key.as_string() else {
            return Err(Bad::new(format!(
                "a Map key that is not a string ({}) is not JSON data",
                super::error::describe(&key)
            )));
        };
        out.push((key, value));
    }
    Ok(out)
}

/// What kind of object `v` is, for messages: "an object of class Set"
/// (its constructor's name, read without letting a throw through), or
/// "an object".
fn kind(v: &JsValue) -> String {
    let name = Reflect::get_prototype_of(v)
        .ok()
        .and_then(|p| Reflect::get(&p, &JsValue::from_str("constructor")).ok())
        .and_then(|c| Reflect::get(&c, &JsValue::from_str("name")).ok())
        .and_then(|n| n.as_string())
        .filter(|n| !n.is_empty() && n.len() <= 64);
    match name {
        Some(n) => format!("an object of class {n}"),
        None => "an object".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::{is_identifier, path_text, Key};

    #[test]
    fn paths_read_like_js() {
        let keys = [
            Key::Root,
            Key::Name("n"),
            Key::Name("self"),
            Key::Index(3),
            Key::Name("a b"),
            Key::Name("\"q\""),
        ];
        assert_eq!(path_text(&keys), r#".n.self[3]["a b"]["\"q\""]"#);
        assert_eq!(path_text(&[Key::Root]), "");
    }

    #[test]
    fn long_paths_are_shortened_in_the_middle() {
        let keys: Vec<Key> = std::iter::once(Key::Root)
            .chain((0..300).map(|_| Key::Name("a")))
            .collect();
        let text = path_text(&keys);
        assert_eq!(
            text,
            format!("{}…(284 more)…{}", ".a".repeat(12), ".a".repeat(4))
        );
    }

    #[test]
    fn identifiers() {
        for ok in ["a", "_x", "$1", "camelCase9"] {
            assert!(is_identifier(ok), "{ok}");
        }
        for bad in ["", "1a", "a-b", "é", "a b"] {
            assert!(!is_identifier(bad), "{bad}");
        }
    }
}
