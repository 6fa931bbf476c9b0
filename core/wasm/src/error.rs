//! Errors across the boundary, both ways.
//!
//! Core → JS: every [`Error`] becomes a real JS `Error` (an instance of the
//! package's error class for its name when the JS layer registered one)
//! with `name`, `code`, `node` when a node raised it, and `lc_error_code`
//! when LangGraph links a troubleshooting page. Core texts stay
//! Python-faithful; [`js_message`] applies LangGraph.js's wording where it
//! differs (semantics.md §14).
//!
//! JS → core: a value thrown by a node, router or reducer becomes
//! [`Error::node_failure`] with the thrown error's name and message. The
//! thrown object itself is remembered, so the rejection the caller sees is
//! that same object (with `node` attached), not a copy.

use chronograph::{Error, ErrorKind};
use js_sys::{Object, Reflect};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::VecDeque;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// What a binding returns: its value, or the JS value it throws (a real
/// `Error`, see [`to_js`]).
pub type JsResult<T = ()> = Result<T, JsValue>;

/// The code every argument-validation error carries.
pub const INVALID_ARGUMENT: &str = "INVALID_ARGUMENT";

const PY_LINK: &str =
    "\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/";
const JS_LINK: &str =
    "\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langgraph/";

/// How many thrown JS errors are remembered until their run reports them.
const REMEMBERED: usize = 32;

thread_local! {
    static CLASSES: RefCell<Option<Object>> = const { RefCell::new(None) };
    static THROWN: RefCell<VecDeque<(String, String, JsValue)>> = const { RefCell::new(VecDeque::new()) };
}

#[wasm_bindgen(typescript_custom_section)]
const TS_ERROR: &str = r#"
/** The JS layer's error classes by name (`registerErrorClasses`): a class, or a `function` that `new` calls and that returns the error. */
export type ErrorClasses = { [name: string]: (new (message: string) => Error) | ((message: string) => Error) };
"#;

/// Registers the JS layer's error classes (`{InvalidUpdateError: class, ...}`):
/// errors whose name has a class are constructed from it, so `instanceof` works.
#[wasm_bindgen(js_name = registerErrorClasses)]
pub fn register_error_classes(
    #[wasm_bindgen(unchecked_param_type = "ErrorClasses")] classes: Object,
) {
    CLASSES.with(|c| *c.borrow_mut() = Some(classes));
}

/// The LangGraph.js class name of a core error (JS has no `ValueError`).
pub fn js_name(e: &Error) -> &str {
    match (e.kind(), e.code()) {
        // LangGraph.js's `validate()` and `messagesStateReducer` throw plain Errors.
        (_, "INVALID_GRAPH" | "MESSAGE_NOT_FOUND" | "INVALID_INPUT") => "Error",
        (_, "UNREACHABLE_NODE") => "UnreachableNodeError",
        (ErrorKind::Value, _) | (_, "MISSING_THREAD_ID") => "GraphValueError",
        _ => e.name(),
    }
}

/// The message as LangGraph.js words it, and the troubleshooting code it links to.
pub fn js_message(e: &Error) -> (String, Option<String>) {
    let m = e.message();
    let mut text = match e.kind() {
        ErrorKind::InvalidUpdate => invalid_update_text(m),
        ErrorKind::EmptyInput => empty_input_text(m),
        ErrorKind::Type if e.code() == "INVALID_INPUT" => {
            Some("Input chunk must be an object when \"inputChannels\" is an array".into())
        }
        ErrorKind::Value => value_text(m),
        ErrorKind::GraphRecursion => Some(m.replace(
            "setting the `recursion_limit` config key.",
            "setting the \"recursionLimit\" config key.",
        )),
        _ => None,
    }
    .unwrap_or_else(|| m.to_owned());
    // LangGraph.js's text says "step", has no troubleshooting link, and its
    // `apply_writes` names the channel and the writes (their JSON).
    if text.starts_with("Can receive only one Overwrite value per super-step.") {
        text = "Can receive only one Overwrite value per step.".into();
        if let (Some(channel), Some(values)) = (e.channel(), e.values()) {
            let values: Vec<Value> = values
                .iter()
                .map(|v| match chronograph::overwrite_value(v) {
                    Some(x) => json!({ chronograph::OVERWRITE: x }),
                    None => v.clone(),
                })
                .collect();
            text = format!(
                "Invalid update for channel \"{channel}\" with values {}: {text}",
                serde_json::to_string(&values).unwrap_or_default()
            );
        }
    }
    match e.code() {
        "MISSING_THREAD_ID" => text = "Checkpointer requires one or more of the following 'configurable' keys: thread_id, checkpoint_ns, checkpoint_id".into(),
        // LangGraph.js links a page for this one; LangGraph does not.
        "MISSING_CHECKPOINTER" if !text.contains(PY_LINK) => {
            text.push_str(&format!("{PY_LINK}MISSING_CHECKPOINTER"));
        }
        _ => {}
    }
    if let Some(js) = e
        .values()
        .and_then(|values| concurrent_update_text(&text, values))
    {
        text = js;
    }
    if let Some(name) = text
        .strip_prefix("Found edge starting at unknown node '")
        .and_then(|n| n.strip_suffix('\''))
    {
        text = format!("Found edge starting at unknown node `{name}`");
    }
    if let (Some(got), Some(node)) = (text.strip_prefix("Expected dict, got "), e.node()) {
        let got = got.split(PY_LINK).next().unwrap_or(got);
        let link = text
            .find(PY_LINK)
            .map(|at| text[at..].to_owned())
            .unwrap_or_default();
        text = format!(
            "Expected node \"{node}\" to return an object or an array containing at least one Command object, received {}{link}",
            js_type_of_repr(got)
        );
    }
    match text.find(PY_LINK) {
        Some(at) => {
            let code = text[at + PY_LINK.len()..].trim().to_owned();
            text.truncate(at);
            text.push_str(&format!("{JS_LINK}{code}/\n"));
            (text, Some(code))
        }
        None => (text, None),
    }
}

/// Where a rewritten text's troubleshooting link comes from.
enum Link {
    /// The link LangGraph's text had, if any.
    Kept,
    /// The link to this code's page.
    Code(&'static str),
    /// None.
    Dropped,
}

/// The errors of a channel written more than once in a superstep:
/// LangGraph's text after `At key 'K': `, LangGraph.js's after `Invalid
/// update for channel "K" with values [...]: `, and its link.
const CONCURRENT_UPDATES: [(&str, &str, Link); 3] = [
    (
        "Can receive only one value per step.",
        "LastValue can only receive one value per step.",
        Link::Kept,
    ),
    (
        "UntrackedValue(guard=True) can receive only one value per step.",
        "UntrackedValue(guard=true) can receive only one value per step. Use guard=false if you want to store any one of multiple values.",
        Link::Code("INVALID_CONCURRENT_GRAPH_UPDATE"),
    ),
    (
        "EphemeralValue(guard=True) can receive only one value per step.",
        "EphemeralValue can only receive one value per step.",
        Link::Dropped,
    ),
];

/// LangGraph's `At key 'K': ...` error of a channel written twice in a
/// step as LangGraph.js words it: `Invalid update for channel "K" with
/// values [...]: LastValue can only ...` (see [`CONCURRENT_UPDATES`]).
fn concurrent_update_text(text: &str, values: &[Value]) -> Option<String> {
    let rest = text.strip_prefix("At key '")?;
    CONCURRENT_UPDATES.iter().find_map(|(python, js, link)| {
        let (key, tail) = rest.split_once(&format!("': {python}"))?;
        let link = match link {
            Link::Kept => tail
                .find(PY_LINK)
                .map_or(String::new(), |at| tail[at..].to_owned()),
            Link::Code(code) => format!("{PY_LINK}{code}"),
            Link::Dropped => String::new(),
        };
        let values = serde_json::to_string(values).unwrap_or_default();
        Some(format!(
            "Invalid update for channel \"{key}\" with values {values}: {js}{link}"
        ))
    })
}

/// The JS type name (`typeof`) of a value from its Python `repr`.
fn js_type_of_repr(repr: &str) -> &'static str {
    match repr.chars().next() {
        Some('\'' | '"') => "string",
        Some('0'..='9' | '-') => "number",
        _ if repr == "True" || repr == "False" => "boolean",
        _ if repr == "None" => "object",
        _ => "object",
    }
}

fn invalid_update_text(m: &str) -> Option<String> {
    if m == "Ambiguous update, specify as_node" {
        return Some("Ambiguous update, specify \"asNode\"".into());
    }
    if m == "There is no parent graph" {
        return Some("There is no parent graph.".into());
    }
    if m == "as_node is required when applying multiple updates" {
        return Some("\"asNode\" is required when applying multiple updates".into());
    }
    let node = m.strip_prefix("Node ")?;
    if let Some(name) = node.strip_suffix(" does not exist") {
        return Some(format!("Node \"{name}\" does not exist"));
    }
    let name = node.strip_suffix(" has no writers")?;
    Some(format!("No writers found for node \"{name}\""))
}

/// `Received no input for X` (X a channel name, or a Python list of them)
/// as LangGraph.js words it: `Received no input writes for` the channels
/// as `JSON.stringify(channels, null, 2)`.
fn empty_input_text(m: &str) -> Option<String> {
    let channels = m.strip_prefix("Received no input for ")?;
    let json = match channels.strip_prefix('[').and_then(|c| c.strip_suffix(']')) {
        Some(list) => {
            let names: Vec<serde_json::Value> = list
                .split(", ")
                .filter(|n| !n.is_empty())
                .map(|n| n.trim_matches('\'').into())
                .collect();
            serde_json::to_string_pretty(&names).ok()?
        }
        None => serde_json::to_string(channels).ok()?,
    };
    Some(format!("Received no input writes for {json}"))
}

fn value_text(m: &str) -> Option<String> {
    if m == "recursion_limit must be at least 1" {
        return Some("\"recursionLimit\" must be at least 1".into());
    }
    let name = m.strip_prefix("Subgraph ")?.strip_suffix(" not found")?;
    Some(format!("Subgraph \"{name}\" not found"))
}

/// Sets a property, ignoring failure (a frozen object keeps what it has).
fn set(target: &JsValue, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A new JS error of class `name` (the registered class, a native
/// `TypeError`, or a plain `Error` renamed) with `code`.
pub(super) fn new_error(name: &str, message: &str, code: &str) -> JsValue {
    let registered = CLASSES.with(|c| {
        let classes = c.borrow();
        let ctor = get(classes.as_ref()?.as_ref(), name);
        let ctor = ctor.dyn_ref::<js_sys::Function>()?;
        Reflect::construct(ctor, &js_sys::Array::of1(&JsValue::from_str(message))).ok()
    });
    let error = match registered {
        Some(e) => e,
        None if name == "TypeError" => js_sys::TypeError::new(message).into(),
        None => js_sys::Error::new(message).into(),
    };
    set(&error, "name", &JsValue::from_str(name));
    set(&error, "code", &JsValue::from_str(code));
    error
}

/// The JS form of a core error: the object a JS node threw, when the error
/// came from one, else a new error with LangGraph.js's name and text.
pub fn to_js(e: &Error) -> JsValue {
    if e.kind() == ErrorKind::Node {
        if let Some(thrown) = take_thrown(e) {
            return thrown;
        }
    }
    let (message, lc_code) = js_message(e);
    let error = new_error(js_name(e), &message, e.code());
    if let Some(node) = e.node() {
        set(&error, "node", &JsValue::from_str(node));
    }
    if let Some(code) = lc_code {
        set(&error, "lc_error_code", &JsValue::from_str(&code));
    }
    error
}

/// A failure an error handler is given (its `NodeError.error`): the value
/// the node threw, as it was; for a failure read back from the thread's
/// stored writes, LangGraph.js's `new Error(message)` with the stored name;
/// an engine error (a bad update) as [`to_js`] makes it.
pub fn handled_to_js(e: &Error) -> JsValue {
    if e.kind() != ErrorKind::Node {
        return to_js(e);
    }
    take_raw_thrown(e).unwrap_or_else(|| {
        let error: JsValue = js_sys::Error::new(e.message()).into();
        set(&error, "name", &JsValue::from_str(e.name()));
        error
    })
}

/// What LangGraph.js's `MemorySaver.put` throws for a run without a
/// `thread_id` (its runs get that far: they check only that `configurable`
/// exists, and always give one).
const RUN_WITHOUT_THREAD: &str = "Failed to put checkpoint. The passed RunnableConfig is missing a required \"thread_id\" field in its \"configurable\" property. When using a checkpointer, you must pass a \"thread_id\" so the checkpointer knows which conversation thread to persist state for. Example: graph.stream(input, { configurable: { thread_id: \"my-thread-id\" } })";

/// The JS form of a run's (`invoke`, `stream`) error: as [`to_js`], but a
/// missing `thread_id` fails as LangGraph.js's run on its `MemorySaver` does.
pub fn run_error(e: Error) -> JsValue {
    match e.code() {
        "MISSING_THREAD_ID" => new_error("Error", RUN_WITHOUT_THREAD, e.code()),
        _ => to_js(&e),
    }
}

/// A failure to write a value out (`what`: what could not be done, "convert
/// a value to JavaScript") as a JS error of code `SERIALIZATION`. It
/// cannot happen for the engine's own types: an error rather than a panic
/// all the same.
pub fn serialization_error(what: &str, e: impl std::fmt::Display) -> JsValue {
    to_js(&Error::runtime(format!("Could not {what}: {e}")).with_code("SERIALIZATION"))
}

/// `?` on an engine result inside a binding: the engine's error becomes a
/// real JS `Error` ([`to_js`]). A trait rather than `From<Error> for
/// JsValue`, which the orphan rule allows only in the engine crate, and the
/// engine crate knows nothing about JavaScript.
pub trait OrJs<T> {
    /// The value, or the error as a JS `Error`.
    fn or_js(self) -> JsResult<T>;
}

impl<T> OrJs<T> for chronograph::Result<T> {
    fn or_js(self) -> JsResult<T> {
        self.map_err(|e| to_js(&e))
    }
}

/// A `TypeError` with code `INVALID_ARGUMENT`; `message` names the argument.
pub fn invalid_argument(message: impl AsRef<str>) -> JsValue {
    new_error("TypeError", message.as_ref(), INVALID_ARGUMENT)
}

/// A short description of a JS value for argument errors ("a number", "null").
pub fn describe(v: &JsValue) -> String {
    if v.is_undefined() {
        "undefined".into()
    } else if v.is_null() {
        "null".into()
    } else if let Some(s) = v.as_string() {
        format!("the string {s:?}")
    } else if let Some(n) = v.as_f64() {
        format!("the number {n}")
    } else if v.is_function() {
        "a function".into()
    } else if super::value::is_array(v) {
        "an array".into()
    } else {
        v.js_typeof()
            .as_string()
            .map_or_else(|| "a value".into(), |t| format!("a value of type {t}"))
    }
}

/// Whether `thrown` is the marker `interrupt()` throws to pause a node.
pub fn is_graph_interrupt(thrown: &JsValue) -> bool {
    get(thrown, "code").as_string().as_deref() == Some("GRAPH_INTERRUPT")
        && get(thrown, "name").as_string().as_deref() == Some("GraphInterrupt")
}

/// A value thrown (or a rejection) by a JS node, router or reducer, as a
/// core error. `interrupt()`'s marker becomes a `GraphInterrupt`; anything
/// else a node failure that remembers the thrown value for [`to_js`].
pub fn from_thrown(thrown: JsValue) -> Error {
    if is_graph_interrupt(&thrown) {
        return Error::new(ErrorKind::GraphInterrupt, "interrupted");
    }
    // The JS layer's marker for a node of a cancelled run (npm/src/pregel/cancel.ts).
    if get(&thrown, "code").as_string().as_deref() == Some("RUN_CANCELLED") {
        return Error::new(ErrorKind::Cancelled, "the run was cancelled");
    }
    // Read through `Reflect`: a getter or Proxy trap that throws must not
    // unwind through the module.
    let (name, message) = match thrown.is_instance_of::<js_sys::Error>() {
        true => (
            get(&thrown, "name")
                .as_string()
                .unwrap_or_else(|| "Error".into()),
            get(&thrown, "message").as_string().unwrap_or_default(),
        ),
        false => ("Error".to_owned(), thrown_text(&thrown)),
    };
    THROWN.with(|t| {
        let mut t = t.borrow_mut();
        if t.len() == REMEMBERED {
            t.pop_front();
        }
        t.push_back((name.clone(), message.clone(), thrown));
    });
    Error::node_failure(name, message)
}

fn thrown_text(v: &JsValue) -> String {
    if let Some(s) = v.as_string() {
        return s;
    }
    js_sys::JSON::stringify(v)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| describe(v))
}

/// The thrown JS value behind a node failure, as it was thrown (taken:
/// it is handed out once).
fn take_raw_thrown(e: &Error) -> Option<JsValue> {
    THROWN.with(|t| {
        let mut t = t.borrow_mut();
        let at = t
            .iter()
            .rposition(|(n, m, _)| n == e.name() && m == e.message())?;
        t.remove(at).map(|(_, _, v)| v)
    })
}

/// The thrown JS value behind a node failure, with `node` and `code` added.
fn take_thrown(e: &Error) -> Option<JsValue> {
    let thrown = take_raw_thrown(e)?;
    let error = if thrown.is_instance_of::<js_sys::Error>() {
        thrown
    } else {
        let fresh = new_error("Error", e.message(), e.code());
        set(&fresh, "cause", &thrown);
        fresh
    };
    if let Some(node) = e.node() {
        set(&error, "node", &JsValue::from_str(node));
    }
    if get(&error, "code").is_undefined() {
        set(&error, "code", &JsValue::from_str(e.code()));
    }
    Some(error)
}
