//! The data shapes that cross the boundary, and their conversions. Values
//! go out through `serde_wasm_bindgen::Serializer::json_compatible()`
//! (plain objects, `null` for `None`) and come in through
//! `serde_wasm_bindgen::from_value`. Shapes follow LangGraph.js: camelCase
//! snapshot fields (`createdAt`, `parentConfig`), snake_case config keys
//! (`thread_id`, `checkpoint_id`, `checkpoint_ns`). Their TypeScript
//! declarations are in `npm/src/types.ts` (the public surface is
//! the JS layer there), next to the classes that return them.

use super::checkpoint_chunk::{CheckpointChunk, CheckpointEvent, RunConfig};
use super::error::{describe, invalid_argument};
use super::shapes::{js_error, js_timestamp, task_path, Interrupts};
use super::value::{array_items, is_array, object_pairs};
use chronograph::{CheckpointConfig, CheckpointMetadata, ListOptions};
use chronograph::{
    Command, Durability, Error, Goto, PregelTask, Resume, RunInput, RunnableConfig, Send, State,
    StateSnapshot, StateUpdate, StreamEvent, TaskState, PARENT, START,
};
use js_sys::Reflect;
use serde::de::DeserializeOwned;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

/// Converts any serializable value to JS, the engine's records
/// ([`super::records`]) as the values they stand for (`undefined`, a value
/// held by reference, a `Map`, ...) once records are in use.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    match super::records::seen() {
        true => super::js_out::to_js(value).map_err(conversion_error),
        false => plain_to_js(value),
    }
}

/// Converts any serializable value to plain JS data, records as they are
/// (a document: what `exportThread` hands out and `importThread` reads back).
pub fn plain_to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(conversion_error)
}

fn conversion_error(e: serde_wasm_bindgen::Error) -> JsValue {
    crate::error::to_js(
        &Error::runtime(format!("Could not convert a value to JavaScript: {e}"))
            .with_code("SERIALIZATION"),
    )
}

/// Reads a JS value as JSON data ([`super::value::json_from_js`], the one
/// conversion of JS values into the engine); the error names `what` and
/// the path of the bad value.
pub fn json_from_js(value: JsValue, what: &str) -> Result<Value, JsValue> {
    super::value::json_from_js(&value, what)
}

/// Reads a JS value into a Rust type; the error names `what` and the path
/// of the bad field (`put(...): checkpoint.channel_versions.x: ...`).
pub fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsValue> {
    let json = super::value::document_from_js(&value, what)?;
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

fn absent(v: &JsValue) -> bool {
    v.is_undefined() || v.is_null()
}

/// Whether `v` is a plain-ish object (not an array, function or primitive).
pub fn is_object(v: &JsValue) -> bool {
    v.is_object() && !is_array(v)
}

/// The own enumerable `[key, value]` pairs of an object (none for a
/// primitive); the error names `what` when reading them threw.
pub fn entries(v: &JsValue, what: &str) -> Result<Vec<(String, JsValue)>, JsValue> {
    match v.is_object() || v.is_function() {
        true => object_pairs(v, what),
        false => Ok(Vec::new()),
    }
}

/// A string argument, or an error naming it.
pub fn string_arg(v: &JsValue, what: &str) -> Result<String, JsValue> {
    v.as_string()
        .ok_or_else(|| invalid_argument(format!("{what} must be a string, got {}", describe(v))))
}

/// A string or a list of strings (`"*"`, `["a", "b"]`); absent is empty.
pub fn names_arg(v: &JsValue, what: &str) -> Result<Vec<String>, JsValue> {
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
fn integer_arg(v: &JsValue, what: &str) -> Result<Option<i64>, JsValue> {
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
fn json_entries(v: &JsValue, what: &str) -> Result<Map<String, Value>, JsValue> {
    Ok(entries(v, what)?
        .into_iter()
        .filter(|(_, x)| !x.is_undefined())
        .filter_map(|(k, x)| Some((k, super::value::data_from_js(&x, what).ok()?)))
        .collect())
}

/// `{configurable: {thread_id, checkpoint_id?, checkpoint_ns?, ...}, recursionLimit?, metadata?}`
/// → core config. A falsy `checkpoint_id` is left out, as LangGraph.js
/// treats it (so `getState` gives the "live" view).
pub fn config_from_js(v: &JsValue, what: &str) -> Result<RunnableConfig, JsValue> {
    let mut config = RunnableConfig::default();
    if absent(v) {
        return Ok(config);
    }
    if !is_object(v) {
        return Err(invalid_argument(format!(
            "{what} must be an object like {{configurable: {{thread_id: \"1\"}}}}, got {}",
            describe(v)
        )));
    }
    let configurable = get(v, "configurable");
    if !absent(&configurable) && !is_object(&configurable) {
        return Err(invalid_argument(format!(
            "{what}.configurable must be an object, got {}",
            describe(&configurable)
        )));
    }
    config.configurable = json_entries(&configurable, &format!("{what}.configurable"))?;
    let cfg = &mut config.configurable;
    match cfg.get("checkpoint_id") {
        Some(Value::Null) => drop(cfg.remove("checkpoint_id")),
        Some(Value::String(s)) if s.is_empty() => drop(cfg.remove("checkpoint_id")),
        Some(Value::String(_)) | None => {}
        Some(_) => return Err(key_error(what, "checkpoint_id", "a string", &configurable)),
    }
    match cfg.get("thread_id") {
        Some(Value::String(_) | Value::Number(_)) | None => {}
        Some(_) => {
            return Err(key_error(
                what,
                "thread_id",
                "a string or a number",
                &configurable,
            ))
        }
    }
    match cfg.get("checkpoint_ns") {
        Some(Value::String(_)) | None => {}
        Some(_) => return Err(key_error(what, "checkpoint_ns", "a string", &configurable)),
    }
    let mut limit = get(v, "recursionLimit");
    if limit.is_undefined() {
        limit = get(v, "recursion_limit");
    }
    config.recursion_limit = integer_arg(&limit, &format!("{what}.recursionLimit"))?;
    let metadata = get(v, "metadata");
    if is_object(&metadata) {
        config.metadata = json_entries(&metadata, &format!("{what}.metadata"))?;
    }
    config.durability = durability_arg(v, what)?;
    for (key, slot) in [
        ("interruptBefore", &mut config.interrupt_before),
        ("interruptAfter", &mut config.interrupt_after),
    ] {
        let names = get(v, key);
        if !absent(&names) {
            *slot = Some(names_arg(&names, &format!("{what}.{key}"))?);
        }
    }
    Ok(config)
}

/// LangGraph.js's `durability` ("sync" | "async" | "exit"), or its older
/// `checkpointDuring` (`false` is "exit", `true` "async"); both at once is
/// LangGraph.js's error.
fn durability_arg(v: &JsValue, what: &str) -> Result<Option<Durability>, JsValue> {
    let (durability, during) = (get(v, "durability"), get(v, "checkpointDuring"));
    if !absent(&durability) && !absent(&during) {
        return Err(JsError::new(
            "Cannot use both `durability` and `checkpointDuring` at the same time.",
        )
        .into());
    }
    if !absent(&during) {
        return match during.as_bool() {
            Some(false) => Ok(Some(Durability::Exit)),
            Some(true) => Ok(Some(Durability::Async)),
            None => Err(invalid_argument(format!(
                "{what}.checkpointDuring must be a boolean, got {}",
                describe(&during)
            ))),
        };
    }
    match durability.as_string().as_deref() {
        _ if absent(&durability) => Ok(None),
        Some("sync") => Ok(Some(Durability::Sync)),
        Some("async") => Ok(Some(Durability::Async)),
        Some("exit") => Ok(Some(Durability::Exit)),
        _ => Err(invalid_argument(format!(
            "{what}.durability must be \"sync\", \"async\" or \"exit\", got {}",
            describe(&durability)
        ))),
    }
}

fn key_error(what: &str, key: &str, expected: &str, configurable: &JsValue) -> JsValue {
    invalid_argument(format!(
        "{what}.configurable.{key} must be {expected}, got {}",
        describe(&get(configurable, key))
    ))
}

/// The order of a config's `configurable` keys. LangGraph.js builds its
/// configs in different places, each with its own key order, and the JS
/// surface shows them as it does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeyOrder {
    /// `thread_id, checkpoint_ns, checkpoint_id`: a saved checkpoint's
    /// config (history, `parentConfig`, tuples, `updateState`'s result).
    #[default]
    Saved,
    /// `thread_id, checkpoint_id, checkpoint_ns`: `getState`'s snapshot.
    State,
}

/// `{configurable: {thread_id, checkpoint_ns, checkpoint_id}}`.
#[derive(Serialize)]
pub struct Address<'a> {
    configurable: AddressParts<'a>,
}

/// The fields of a [`CheckpointConfig`], borrowed (same names and omitted
/// `checkpoint_id` as its own serialization), plus a subgraph checkpoint's
/// `checkpoint_map`, in the [`KeyOrder`] of where LangGraph.js writes it.
struct AddressParts<'a> {
    thread_id: &'a str,
    checkpoint_ns: &'a str,
    checkpoint_id: Option<&'a str>,
    checkpoint_map: Option<BTreeMap<&'a str, &'a str>>,
    order: KeyOrder,
}

impl Serialize for AddressParts<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("thread_id", self.thread_id)?;
        match self.order {
            KeyOrder::Saved => {
                m.serialize_entry("checkpoint_ns", self.checkpoint_ns)?;
                if let Some(id) = self.checkpoint_id {
                    m.serialize_entry("checkpoint_id", id)?;
                }
            }
            KeyOrder::State => {
                if let Some(id) = self.checkpoint_id {
                    m.serialize_entry("checkpoint_id", id)?;
                }
                m.serialize_entry("checkpoint_ns", self.checkpoint_ns)?;
            }
        }
        if let Some(map) = &self.checkpoint_map {
            m.serialize_entry("checkpoint_map", map)?;
        }
        m.end()
    }
}

impl<'a> Address<'a> {
    /// The JS config addressing `c`.
    pub fn new(c: &'a CheckpointConfig) -> Self {
        Self::of(&c.thread_id, &c.checkpoint_ns, c.checkpoint_id.as_deref())
    }

    /// The JS config addressing a checkpoint given by its parts.
    pub fn of(thread_id: &'a str, checkpoint_ns: &'a str, checkpoint_id: Option<&'a str>) -> Self {
        Address {
            configurable: AddressParts {
                thread_id,
                checkpoint_ns,
                checkpoint_id,
                checkpoint_map: None,
                order: KeyOrder::Saved,
            },
        }
    }

    /// The same config with its keys in `order`.
    pub fn in_order(mut self, order: KeyOrder) -> Self {
        self.configurable.order = order;
        self
    }

    /// The config of a snapshot of `c`: with `checkpoint_map` (the
    /// checkpoint's `parents` plus itself) for a subgraph checkpoint, as
    /// LangGraph gives it (`StateSnapshot::runnable_config`).
    pub fn of_snapshot(c: &'a CheckpointConfig, metadata: Option<&'a CheckpointMetadata>) -> Self {
        let mut address = Self::new(c);
        if let Some(parents) = metadata.map(|m| &m.parents).filter(|p| !p.is_empty()) {
            let mut map: BTreeMap<&str, &str> = parents
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            if let Some(id) = &c.checkpoint_id {
                map.insert(&c.checkpoint_ns, id);
            }
            address.configurable.checkpoint_map = Some(map);
        }
        address
    }
}

#[derive(Serialize)]
struct ConfigOut<'a> {
    configurable: &'a Map<String, Value>,
    #[serde(rename = "recursionLimit", skip_serializing_if = "Option::is_none")]
    recursion_limit: Option<i64>,
}

/// A core config as JS: `{configurable: {...}, recursionLimit?}`.
pub fn config_to_js(c: &RunnableConfig) -> Result<JsValue, JsValue> {
    to_js(&ConfigOut {
        configurable: &c.configurable,
        recursion_limit: c.recursion_limit,
    })
}

/// State channels as a JS object, serialized straight from the channel
/// values (no intermediate JSON copy).
pub struct StateValues<'a>(pub &'a State);

impl Serialize for StateValues<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.arg() {
            // A Pregel graph streaming one channel: that channel's value itself.
            Some(value) => value.serialize(s),
            None => s.collect_map(self.0.iter()),
        }
    }
}

/// Checkpoint metadata as LangGraph.js shows it: `source`, `step`,
/// `parents`, and in a snapshot or a stream chunk `thread_id` (LangGraph.js
/// adds it there; its savers store none). The keys LangGraph copies from
/// the run's config into each checkpoint's metadata are stored (the saver
/// API shows them, as it shows anything `put` stored) but a snapshot or a
/// stream chunk leaves them out, as LangGraph.js records none.
pub struct Metadata<'a> {
    inner: &'a CheckpointMetadata,
    thread_id: &'a str,
    extra: bool,
}

impl Serialize for Metadata<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("source", &self.inner.source)?;
        m.serialize_entry("step", &self.inner.step)?;
        m.serialize_entry("parents", &self.inner.parents)?;
        match self.extra {
            // What was stored, as LangGraph.js's savers give it back (they
            // store no `thread_id` of their own).
            true => {
                for (k, v) in &self.inner.extra {
                    m.serialize_entry(k, v)?;
                }
            }
            // LangGraph.js's snapshot: the stored keys and the thread's id.
            false => m.serialize_entry("thread_id", self.thread_id)?,
        }
        m.end()
    }
}

impl<'a> Metadata<'a> {
    /// `metadata` of a checkpoint, as the saver API shows it: what was stored.
    pub fn new(inner: &'a CheckpointMetadata, thread_id: &'a str) -> Self {
        Metadata {
            inner,
            thread_id,
            extra: true,
        }
    }

    /// `metadata` of a checkpoint as a snapshot or a stream chunk shows it (LangGraph.js's keys only).
    pub fn recorded(inner: &'a CheckpointMetadata, thread_id: &'a str) -> Self {
        Metadata {
            extra: false,
            ..Self::new(inner, thread_id)
        }
    }
}

/// LangGraph.js's `PregelTaskDescription`: `{id, name, path, error?,
/// interrupts, state?, result?}`, in that order.
pub(crate) struct Task<'a> {
    task: &'a PregelTask,
    state: Option<TaskStateOut<'a>>,
}

impl Serialize for Task<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let t = self.task;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("id", &t.id)?;
        m.serialize_entry("name", &t.name)?;
        m.serialize_entry("path", &task_path(&t.path))?;
        if let Some(e) = &t.error {
            m.serialize_entry("error", &js_error(e))?;
        }
        m.serialize_entry("interrupts", &Interrupts(&t.interrupts))?;
        if let Some(state) = &self.state {
            m.serialize_entry("state", state)?;
        }
        // LangGraph.js leaves `result` out for a task that wrote no state key.
        match &t.result {
            Some(Value::Object(r)) if r.is_empty() => {}
            Some(r) => m.serialize_entry("result", r)?,
            None => {}
        }
        m.end()
    }
}

/// A subgraph task's `state`: its namespace as a config
/// (`{configurable: {thread_id, checkpoint_ns}}`), or with
/// `getState(config, {subgraphs: true})` that namespace's snapshot.
#[derive(Serialize)]
#[serde(untagged)]
enum TaskStateOut<'a> {
    Config(Address<'a>),
    Snapshot(Box<Snapshot<'a>>),
}

impl<'a> From<&'a PregelTask> for Task<'a> {
    fn from(t: &'a PregelTask) -> Self {
        Task {
            task: t,
            state: t.state.as_ref().map(|s| match s {
                TaskState::Config(c) => TaskStateOut::Config(Address::new(c)),
                TaskState::Snapshot(s) => {
                    TaskStateOut::Snapshot(Box::new(Snapshot::from(&**s).in_order(KeyOrder::State)))
                }
            }),
        }
    }
}

/// LangGraph.js `StateSnapshot`: `{values, next, tasks, metadata, config,
/// createdAt, parentConfig?}` in that order; for a thread without
/// checkpoints `{values, next, config, tasks}`.
pub struct Snapshot<'a> {
    /// `None` (sent as `null`) when the values go out lazily.
    values: Option<StateValues<'a>>,
    next: &'a [String],
    config: Address<'a>,
    metadata: Option<Metadata<'a>>,
    created_at: Option<String>,
    parent_config: Option<Address<'a>>,
    tasks: Vec<Task<'a>>,
}

impl Serialize for Snapshot<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("values", &self.values)?;
        m.serialize_entry("next", self.next)?;
        let Some(metadata) = &self.metadata else {
            m.serialize_entry("config", &self.config)?;
            m.serialize_entry("tasks", &self.tasks)?;
            return m.end();
        };
        m.serialize_entry("tasks", &self.tasks)?;
        m.serialize_entry("metadata", metadata)?;
        m.serialize_entry("config", &self.config)?;
        if let Some(at) = &self.created_at {
            m.serialize_entry("createdAt", at)?;
        }
        if let Some(parent) = &self.parent_config {
            m.serialize_entry("parentConfig", parent)?;
        }
        m.end()
    }
}

impl<'a> Snapshot<'a> {
    /// The same snapshot with its config's keys in `order`.
    pub fn in_order(mut self, order: KeyOrder) -> Self {
        self.config = self.config.in_order(order);
        self
    }
}

impl<'a> From<&'a StateSnapshot> for Snapshot<'a> {
    fn from(s: &'a StateSnapshot) -> Self {
        Snapshot {
            values: Some(StateValues(&s.values)),
            next: &s.next,
            config: Address::of_snapshot(&s.config, s.metadata.as_ref()),
            metadata: s
                .metadata
                .as_ref()
                .map(|m| Metadata::recorded(m, &s.config.thread_id)),
            created_at: s.created_at.as_deref().map(js_timestamp),
            parent_config: s.parent_config.as_ref().map(Address::new),
            tasks: s.tasks.iter().map(Task::from).collect(),
        }
    }
}

/// A snapshot as JS, as `getState` gives it.
pub fn snapshot_to_js(s: &StateSnapshot) -> Result<JsValue, JsValue> {
    to_js(&Snapshot::from(s).in_order(KeyOrder::State))
}

/// A listed snapshot without its values (`values: null`): the listing
/// ([`super::listing::WasmListing`]) hands them out lazily.
pub fn snapshot_head(s: &StateSnapshot) -> Snapshot<'_> {
    Snapshot {
        values: None,
        ..Snapshot::from(s)
    }
}

/// Run input: `null`/`undefined` (continue), a `Command` (an object with
/// `lg_name: "Command"`), or an object of channel values (with
/// `any_value`, a `Pregel`'s input: any JSON value).
pub fn input_from_js(v: JsValue, any_value: bool) -> Result<RunInput, JsValue> {
    if absent(&v) {
        return Ok(RunInput::None);
    }
    if get(&v, "lg_name").as_string().as_deref() == Some("Command") {
        return command_from_js(&v).map(RunInput::Command);
    }
    if !is_object(&v) && !any_value {
        return Err(invalid_argument(format!(
            "input must be an object of channel values, null, or a Command, got {}",
            describe(&v)
        )));
    }
    Ok(RunInput::Values(json_from_js(v, "input")?))
}

/// `new Command({resume, update, goto, graph})` → core `Command`.
pub fn command_from_js(v: &JsValue) -> Result<Command, JsValue> {
    let resume = get(v, "resume");
    let update = get(v, "update");
    let graph = get(v, "graph");
    // LangGraph.js acts on `Command.PARENT` only: any other string (say
    // "PARENT") leaves the command to the node's own graph.
    let graph = match graph.as_string() {
        _ if absent(&graph) => None,
        Some(g) if g == PARENT => Some(g),
        Some(_) => None,
        _ => {
            return Err(invalid_argument(format!(
                "Command.graph must be Command.PARENT (\"{PARENT}\") or undefined, got {}",
                describe(&graph)
            )))
        }
    };
    Ok(Command {
        resume: match resume.is_undefined() {
            true => None,
            false => Some(Resume::from_json(json_from_js(resume, "Command.resume")?)),
        },
        update: match absent(&update) {
            true => None,
            // An object, or LangGraph.js's `[[channel, value], ...]`, which the
            // engine writes pair by pair (a channel may repeat).
            false => Some(json_from_js(update, "Command.update")?),
        },
        goto: gotos_from_js(&get(v, "goto"), "Command.goto")?,
        graph,
    })
}

/// A `Send` (`new Send(node, args)`, or an object `{node, args}` like one),
/// if `v` is one; an error when it looks like one but its node is no string.
pub fn send_from_js(v: &JsValue, what: &str) -> Result<Option<Send>, JsValue> {
    if !is_object(v) {
        return Ok(None);
    }
    let tagged = get(v, "lg_name").as_string().as_deref() == Some("Send");
    let node = get(v, "node");
    if !tagged && (node.as_string().is_none() || !Reflect::has(v, &"args".into()).unwrap_or(false))
    {
        return Ok(None);
    }
    let Some(node) = node.as_string() else {
        return Err(invalid_argument(format!(
            "{what}: a Send's node must be a string, got {}",
            describe(&node)
        )));
    };
    let args = json_from_js(get(v, "args"), &format!("{what}: Send({node:?}).args"))?;
    Ok(Some(Send::new(node, args)))
}

/// Where to go: a node name, a `Send`, or an array of them (absent: nowhere).
pub fn gotos_from_js(v: &JsValue, what: &str) -> Result<Vec<Goto>, JsValue> {
    if absent(v) {
        return Ok(Vec::new());
    }
    let one = |x: &JsValue| -> Result<Option<Goto>, JsValue> {
        if let Some(name) = x.as_string() {
            return Ok(Some(Goto::Node(name)));
        }
        Ok(send_from_js(x, what)?.map(Goto::Send))
    };
    let bad = |x: &JsValue| {
        invalid_argument(format!(
            "{what} must be a node name, a Send, or an array of them, got {}",
            describe(x)
        ))
    };
    if let Some(goto) = one(v)? {
        return Ok(vec![goto]);
    }
    let Some(items) = array_items(v)? else {
        return Err(bad(v));
    };
    items
        .iter()
        .map(|x| one(x)?.ok_or_else(|| bad(x)))
        .collect()
}

/// Update values: `null`/`undefined` is "no values".
pub fn values_from_js(v: JsValue, what: &str) -> Result<Option<Value>, JsValue> {
    match absent(&v) {
        true => Ok(None),
        false => json_from_js(v, what).map(Some),
    }
}

/// An update's values, or a `Command` given as them (LangGraph.js's
/// `updateState(config, new Command({ update, goto }), asNode)`): its
/// update as the values and its goto.
pub fn update_from_js(
    v: JsValue,
    as_node: Option<String>,
    what: &str,
) -> Result<StateUpdate, JsValue> {
    if get(&v, "lg_name").as_string().as_deref() == Some("Command") {
        let command = command_from_js(&v)?;
        return Ok(StateUpdate {
            values: command.update,
            as_node,
            task_id: None,
            goto: command.goto,
        });
    }
    Ok(StateUpdate {
        values: values_from_js(v, what)?,
        as_node,
        task_id: None,
        goto: Vec::new(),
    })
}

/// An optional node name (`asNode`).
pub fn optional_name(v: &JsValue, what: &str) -> Result<Option<String>, JsValue> {
    match absent(v) {
        true => Ok(None),
        false => string_arg(v, what).map(Some),
    }
}

/// `[{updates: [{values, asNode?, taskId?}]}]` → supersteps of updates.
pub fn supersteps_from_js(v: &JsValue) -> Result<Vec<Vec<StateUpdate>>, JsValue> {
    let bad = |what: String, got: &JsValue| {
        invalid_argument(format!(
            "{what} must be an array of {{updates: [{{values, asNode}}]}}, got {}",
            describe(got)
        ))
    };
    let Some(steps) = array_items(v)? else {
        return Err(bad("supersteps".into(), v));
    };
    let mut out = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let updates = get(step, "updates");
        let Some(updates) = array_items(&updates)? else {
            return Err(bad(format!("supersteps[{i}].updates"), &updates));
        };
        let mut list = Vec::new();
        for (j, u) in updates.into_iter().enumerate() {
            let what = format!("supersteps[{i}].updates[{j}]");
            if !is_object(&u) {
                return Err(bad(what, &u));
            }
            let as_node = optional_name(&get(&u, "asNode"), &format!("{what}.asNode"))?;
            let mut update = update_from_js(get(&u, "values"), as_node, &format!("{what}.values"))?;
            update.task_id = optional_name(&get(&u, "taskId"), &format!("{what}.taskId"))?;
            list.push(update);
        }
        out.push(list);
    }
    Ok(out)
}

/// `{limit?, before?, filter?}`; `before` is a config or a checkpoint id.
pub fn list_options_from_js(v: &JsValue, what: &str) -> Result<ListOptions, JsValue> {
    if absent(v) {
        return Ok(ListOptions::default());
    }
    if !is_object(v) {
        return Err(invalid_argument(format!(
            "{what} must be an object like {{limit, before, filter}}, got {}",
            describe(v)
        )));
    }
    let before = get(v, "before");
    let before = match before.as_string() {
        Some(id) => Some(id),
        None => config_from_js(&before, &format!("{what}.before"))?.checkpoint_id(),
    };
    let limit = integer_arg(&get(v, "limit"), &format!("{what}.limit"))?;
    if limit.is_some_and(|l| l < 0) {
        return Err(invalid_argument(format!(
            "{what}.limit must not be negative"
        )));
    }
    let filter = get(v, "filter");
    if !absent(&filter) && !is_object(&filter) {
        return Err(invalid_argument(format!(
            "{what}.filter must be an object, got {}",
            describe(&filter)
        )));
    }
    Ok(ListOptions {
        filter: json_entries(&filter, &format!("{what}.filter"))?
            .into_iter()
            .collect(),
        before,
        limit: limit.map(|l| l as usize),
    })
}

/// The stream modes the package supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamMode {
    /// The full state after each superstep.
    Values,
    /// `{node: update}` as each node finishes.
    Updates,
    /// Each saved checkpoint.
    Checkpoints,
    /// Task starts and results.
    Tasks,
    /// Checkpoints, task starts and results, wrapped as `{type, timestamp, step, payload}`.
    Debug,
    /// Every task's start and end, `__start__`'s too (`"__task_runs"`): what
    /// the JS layer reports to LangChain callbacks as the tasks' chain runs
    /// (npm/src/task_runs.ts). Internal to the package.
    TaskRuns,
    /// What checkpoint each state is, `{id, parent_id?, step, source}`
    /// (`"__checkpoint_meta"`), before the state: `streamEvents` v3's
    /// `checkpoints` envelopes (npm/src/run_stream.ts). Internal to the package.
    CheckpointMeta,
    /// What a subgraph's node sent to `config.writer` (the JS layer's token
    /// for it, see `taskCustom`): not a mode the engine is asked for (the
    /// JS layer streams `"custom"` itself), only the name of these chunks.
    Custom,
}

impl StreamMode {
    /// Parses a mode name.
    pub fn parse(name: &str) -> Result<StreamMode, JsValue> {
        Ok(match name {
            "values" => StreamMode::Values,
            "updates" => StreamMode::Updates,
            "checkpoints" => StreamMode::Checkpoints,
            "tasks" => StreamMode::Tasks,
            "debug" => StreamMode::Debug,
            "__task_runs" => StreamMode::TaskRuns,
            "__checkpoint_meta" => StreamMode::CheckpointMeta,
            other => {
                return Err(invalid_argument(format!(
                    "streamMode {other:?} is not supported; use \"values\", \"updates\", \"checkpoints\", \"tasks\" or \"debug\""
                )))
            }
        })
    }

    /// The mode's name.
    pub fn name(self) -> &'static str {
        match self {
            StreamMode::Values => "values",
            StreamMode::Updates => "updates",
            StreamMode::Checkpoints => "checkpoints",
            StreamMode::Tasks => "tasks",
            StreamMode::Debug => "debug",
            StreamMode::TaskRuns => "__task_runs",
            StreamMode::CheckpointMeta => "__checkpoint_meta",
            StreamMode::Custom => "custom",
        }
    }
}

/// A `"tasks"` chunk as LangGraph.js writes it: a task starting
/// (`{id, name, input, triggers, interrupts}`) or its result (`{id, name,
/// result, interrupts, error}`, a key written twice as `{$writes: [...]}`).
enum TaskChunk<'a> {
    Start {
        id: &'a str,
        name: &'a str,
        input: &'a Value,
        triggers: &'a [String],
    },
    Result {
        id: &'a str,
        name: &'a str,
        result: &'a [(String, Value)],
        interrupts: Interrupts<'a>,
        error: Option<&'a str>,
    },
}

impl Serialize for TaskChunk<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        match self {
            TaskChunk::Start {
                id,
                name,
                input,
                triggers,
            } => {
                m.serialize_entry("id", id)?;
                m.serialize_entry("name", name)?;
                m.serialize_entry("input", input)?;
                m.serialize_entry("triggers", triggers)?;
                m.serialize_entry("interrupts", &[] as &[Value])?;
            }
            TaskChunk::Result {
                id,
                name,
                result,
                interrupts,
                error,
            } => {
                m.serialize_entry("id", id)?;
                m.serialize_entry("name", name)?;
                let mut map: indexmap::IndexMap<&str, Vec<&Value>> = indexmap::IndexMap::new();
                for (k, v) in result.iter() {
                    map.entry(k.as_str()).or_default().push(v);
                }
                let object: Map<String, Value> = map
                    .into_iter()
                    .map(|(k, vs)| {
                        let v = match vs.as_slice() {
                            [one] => (*one).clone(),
                            many => serde_json::json!({ "$writes": many }),
                        };
                        (k.to_owned(), v)
                    })
                    .collect();
                m.serialize_entry("result", &object)?;
                m.serialize_entry("interrupts", interrupts)?;
                // LangGraph.js streams the error it stores: `{message, name}`.
                let error = error.map(|e| {
                    let (name, message) = e.split_once(": ").unwrap_or(("Error", e));
                    serde_json::json!({ "message": message, "name": name })
                });
                m.serialize_entry("error", &error)?;
            }
        }
        m.end()
    }
}

#[derive(Serialize)]
struct DebugChunk<T> {
    step: i64,
    #[serde(rename = "type")]
    kind: &'static str,
    timestamp: String,
    payload: T,
}

/// The chunks one core event gives in the requested modes, as `(mode, chunk)`.
/// The `__start__` task is hidden, as in LangGraph (`TAG_HIDDEN`).
pub fn stream_chunks(
    event: &StreamEvent,
    modes: &[StreamMode],
    run: &RunConfig,
) -> Result<Vec<(StreamMode, JsValue)>, JsValue> {
    let mut out = Vec::new();
    let wants = |m: StreamMode| modes.contains(&m);
    if wants(StreamMode::TaskRuns) {
        if let Some(chunk) = super::task_run_chunk::task_run_chunk(event)? {
            out.push((StreamMode::TaskRuns, chunk));
        }
    }
    match event {
        StreamEvent::Values(v) if wants(StreamMode::Values) => {
            out.push((StreamMode::Values, to_js(v)?));
        }
        // Queued only at the JS layer's request (`taskCustom`), whatever the modes.
        StreamEvent::Custom(v) => out.push((StreamMode::Custom, to_js(v)?)),
        StreamEvent::Updates { node, .. }
        | StreamEvent::CachedUpdates { node, .. }
        | StreamEvent::Task { name: node, .. }
        | StreamEvent::TaskResult { name: node, .. }
            if node == START => {}
        StreamEvent::Updates { node, update } if wants(StreamMode::Updates) => {
            out.push((StreamMode::Updates, update_chunk(node, update, false)?));
        }
        StreamEvent::CachedUpdates { node, update } if wants(StreamMode::Updates) => {
            out.push((StreamMode::Updates, update_chunk(node, update, true)?));
        }
        StreamEvent::CheckpointMeta {
            id,
            parent_id,
            step,
            source,
        } if wants(StreamMode::CheckpointMeta) => {
            let mut envelope = Map::new();
            envelope.insert("id".into(), id.as_str().into());
            if let Some(parent) = parent_id {
                envelope.insert("parent_id".into(), parent.as_str().into());
            }
            envelope.insert("step".into(), (*step).into());
            envelope.insert("source".into(), source.as_str().into());
            out.push((StreamMode::CheckpointMeta, to_js(&envelope)?));
        }
        // LangGraph.js reports a pause in both modes (`_outputWrites`,
        // `finishAndHandleError`); LangGraph (Python) in "updates" only.
        StreamEvent::Interrupted(list) => {
            for mode in [StreamMode::Updates, StreamMode::Values] {
                if wants(mode) {
                    let mut chunk = std::collections::BTreeMap::new();
                    chunk.insert("__interrupt__", Interrupts(list));
                    out.push((mode, to_js(&chunk)?));
                }
            }
        }
        StreamEvent::Checkpoint {
            config,
            metadata,
            parent_config,
            parent_in_run,
            values,
            next,
            tasks,
        } => {
            let event = CheckpointEvent {
                config,
                metadata,
                parent_config: parent_config.as_ref(),
                parent_in_run: *parent_in_run,
                values,
                next,
                tasks,
            };
            let chunk = CheckpointChunk::new(event, run);
            if wants(StreamMode::Checkpoints) {
                out.push((StreamMode::Checkpoints, to_js(&chunk)?));
            }
            if wants(StreamMode::Debug) {
                out.push((
                    StreamMode::Debug,
                    debug("checkpoint", metadata.step, chunk)?,
                ));
            }
        }
        StreamEvent::Task {
            id,
            name,
            step,
            input,
            triggers,
            ..
        } => {
            let chunk = TaskChunk::Start {
                id,
                name,
                input,
                triggers,
            };
            task_chunks(&mut out, modes, "task", *step, chunk)?;
        }
        StreamEvent::TaskResult {
            id,
            name,
            step,
            error,
            interrupts,
            result,
        } => {
            let chunk = TaskChunk::Result {
                id,
                name,
                result,
                interrupts: Interrupts(interrupts),
                error: error.as_deref(),
            };
            task_chunks(&mut out, modes, "task_result", *step, chunk)?;
        }
        _ => {}
    }
    Ok(out)
}

/// An "updates" chunk: `{node: update}`, and for a task that finished in
/// an earlier run `"__metadata__": {"cached": true}`. LangGraph.js reports
/// a node that wrote nothing as `{}` (LangGraph: `None`).
fn update_chunk(node: &str, update: &Value, cached: bool) -> Result<JsValue, JsValue> {
    let mut map = Map::new();
    let update = match update {
        Value::Null => Value::Object(Map::new()),
        other => other.clone(),
    };
    map.insert(node.to_owned(), update);
    if cached {
        map.insert("__metadata__".into(), serde_json::json!({ "cached": true }));
    }
    to_js(&map)
}

fn task_chunks(
    out: &mut Vec<(StreamMode, JsValue)>,
    modes: &[StreamMode],
    kind: &'static str,
    step: i64,
    chunk: TaskChunk,
) -> Result<(), JsValue> {
    if modes.contains(&StreamMode::Tasks) {
        out.push((StreamMode::Tasks, to_js(&chunk)?));
    }
    if modes.contains(&StreamMode::Debug) {
        out.push((StreamMode::Debug, debug(kind, step, chunk)?));
    }
    Ok(())
}

fn debug<T: Serialize>(kind: &'static str, step: i64, payload: T) -> Result<JsValue, JsValue> {
    to_js(&DebugChunk {
        kind,
        timestamp: String::from(js_sys::Date::new_0().to_iso_string()),
        step,
        payload,
    })
}
