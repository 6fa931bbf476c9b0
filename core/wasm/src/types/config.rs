//! Configs both ways: a JS `RunnableConfig` read into the engine's
//! (`configurable` with LangGraph.js's snake_case keys, `recursionLimit`,
//! `metadata`, `durability`, breakpoints), list options, and the
//! addresses of checkpoints going out ([`Address`]) in the key order
//! LangGraph.js writes at each place ([`KeyOrder`]).

use super::args::{absent, get, integer_arg, is_object, json_entries, names_arg, to_js};
use crate::error::JsResult;
use crate::error::{describe, invalid_argument};
use chronograph::{CheckpointConfig, CheckpointMetadata, Durability, ListOptions, RunnableConfig};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_CONFIG: &str = r#"
/** A run's config as `config_from_js` reads it (LangGraph.js's `RunnableConfig`; other keys are the TypeScript layer's). */
export interface RunConfigIn {
  configurable?: { thread_id?: string | number; checkpoint_id?: string | null; checkpoint_ns?: string; [key: string]: unknown };
  recursionLimit?: number;
  recursion_limit?: number;
  metadata?: { [key: string]: unknown };
  durability?: "sync" | "async" | "exit";
  checkpointDuring?: boolean;
  interruptBefore?: Names;
  interruptAfter?: Names;
}

/** The address of a saved checkpoint (`Address`). */
export interface CheckpointAddress {
  configurable: { thread_id: string; checkpoint_ns: string; checkpoint_id: string };
}

/** A snapshot's address (`Address::of_snapshot`): no `checkpoint_id` for a namespace without checkpoints, a `checkpoint_map` for a subgraph's. */
export interface SnapshotAddress {
  configurable: { thread_id: string; checkpoint_ns: string; checkpoint_id?: string; checkpoint_map?: { [namespace: string]: string } };
}

/** A run's config going out (`config_to_js`): `updateState`'s result. */
export interface RunConfigOut {
  configurable: { thread_id: string; checkpoint_ns: string; checkpoint_id: string; checkpoint_map?: { [namespace: string]: string }; [key: string]: unknown };
  recursionLimit?: number;
}

/** `{limit?, before?, filter?}` (`list_options_from_js`): `before` a config or a checkpoint id. */
export interface ListOptionsIn {
  limit?: number;
  before?: RunConfigIn | string;
  filter?: { [key: string]: unknown };
}
"#;

#[wasm_bindgen]
extern "C" {
    /// A run's config, as [`config_from_js`] reads it (`RunConfigIn`, or none).
    #[wasm_bindgen(typescript_type = "RunConfigIn | null | undefined")]
    pub type ConfigArg;

    /// List options, as [`list_options_from_js`] reads them (`ListOptionsIn`, or none).
    #[wasm_bindgen(typescript_type = "ListOptionsIn | null | undefined")]
    pub type ListOptionsArg;
}

/// `{configurable: {thread_id, checkpoint_id?, checkpoint_ns?, ...}, recursionLimit?, metadata?}`
/// → core config. A falsy `checkpoint_id` is left out, as LangGraph.js
/// treats it (so `getState` gives the "live" view).
pub fn config_from_js(v: &JsValue, what: &str) -> JsResult<RunnableConfig> {
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
fn durability_arg(v: &JsValue, what: &str) -> JsResult<Option<Durability>> {
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
pub fn config_to_js(c: &RunnableConfig) -> JsResult<JsValue> {
    to_js(&ConfigOut {
        configurable: &c.configurable,
        recursion_limit: c.recursion_limit,
    })
}

/// `{limit?, before?, filter?}`; `before` is a config or a checkpoint id.
pub fn list_options_from_js(v: &JsValue, what: &str) -> JsResult<ListOptions> {
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
