//! A stored checkpoint as LangGraph.js's `MemorySaver` hands it out: a
//! `CheckpointTuple` `{config, checkpoint: {v, id, ts, channel_values,
//! channel_versions, versions_seen}, metadata, pendingWrites, parentConfig?}`
//! with its keys in LangGraph.js's order, serialized straight from the
//! saver's stored data ([`StoredView`]). Channel versions are written in
//! the saver's [`VersionScheme`]: LangGraph.js's integers, or LangGraph's
//! text (whose checkpoints also carry `updated_channels`). Values are
//! listed as LangGraph.js lists them ([`StoredView::channel_values_listed`]).

use super::config::Address;
use super::shapes::{js_error, js_timestamp};
use super::snapshot::Metadata;
use chronograph::{ChannelValue, ChannelVersions, Name, StoredView, Version, VersionScheme};
use chronograph::{Checkpoint, VecMap, VersionsSeen};
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::borrow::Cow;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_CHECKPOINT_TUPLE: &str = r#"
/** Channel versions (`InScheme`): LangGraph.js's integers, or version texts. */
export type ChannelVersionsOut = { [channel: string]: number | string };

/** A stored checkpoint (`CheckpointOut`); values and version maps `null` when a listing hands them out lazily. */
export interface CheckpointOut {
  v: number;
  id: string;
  ts: string;
  channel_values: { [channel: string]: unknown } | null;
  channel_versions: ChannelVersionsOut | null;
  versions_seen: { [node: string]: ChannelVersionsOut } | null;
  updated_channels?: string[] | null;
}

/** LangGraph.js's `CheckpointTuple` (`TupleOut`), with the names of its message channels for the TypeScript layer. */
export interface TupleOut {
  config: CheckpointAddress;
  checkpoint: CheckpointOut;
  metadata: MetadataOut;
  pendingWrites: [string, string, unknown][];
  parentConfig?: CheckpointAddress;
  messageChannels?: string[];
}
"#;

/// How channel versions are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VersionsAs {
    /// In the saver's scheme: LangGraph.js's integers, or LangGraph's text.
    Scheme(VersionScheme),
    /// LangGraph.js's integers where the store marked them (it keeps an
    /// integer `n` as `n.<u64::MAX>`, see npm/src/checkpoint/langgraph_saver.ts), text
    /// otherwise: the versions a LangGraph.js saver was given.
    Marked,
}

/// Versions written as [`VersionsAs`] says: one version,
/// `channel_versions`, or `versions_seen`, maps in their (insertion) order.
pub struct InScheme<'a, T>(pub &'a T, pub VersionsAs);

/// What [`InScheme`] writes.
pub trait WriteVersions {
    /// Writes `self` with its versions as `how` says.
    fn write<S: Serializer>(&self, s: S, how: VersionsAs) -> Result<S::Ok, S::Error>;
}

impl WriteVersions for Version {
    fn write<S: Serializer>(&self, s: S, how: VersionsAs) -> Result<S::Ok, S::Error> {
        match how {
            VersionsAs::Scheme(VersionScheme::Integer) => s.serialize_u64(self.counter),
            VersionsAs::Marked if self.salt == u64::MAX => s.serialize_u64(self.counter),
            _ => self.serialize(s),
        }
    }
}

impl<V: WriteVersions> WriteVersions for VecMap<Name, V> {
    fn write<S: Serializer>(&self, s: S, how: VersionsAs) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter().map(|(key, v)| (&**key, InScheme(v, how))))
    }
}

impl<V: WriteVersions> WriteVersions for Arc<V> {
    fn write<S: Serializer>(&self, s: S, how: VersionsAs) -> Result<S::Ok, S::Error> {
        (**self).write(s, how)
    }
}

impl<T: WriteVersions> Serialize for InScheme<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.write(s, self.1)
    }
}

/// Channel values in the order they are listed.
pub struct Values<'a>(pub &'a [(Name, ChannelValue)]);

impl Serialize for Values<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (&**k, v)))
    }
}

/// A checkpoint; its values and version maps `null` when they go out
/// lazily (the listing hands them out, [`crate::WasmListing`]).
#[derive(Serialize)]
struct CheckpointOut<'a> {
    v: u32,
    id: &'a str,
    ts: String,
    channel_values: Option<Values<'a>>,
    channel_versions: Option<InScheme<'a, ChannelVersions>>,
    versions_seen: Option<InScheme<'a, VersionsSeen>>,
    /// LangGraph's checkpoints carry it; LangGraph.js's have no such key.
    #[serde(skip_serializing_if = "Option::is_none")]
    updated_channels: Option<&'a Option<Vec<Name>>>,
}

impl<'a> CheckpointOut<'a> {
    /// `c` with `values`, with its version maps when `versions`, versions in `scheme`.
    fn new(
        c: &'a Checkpoint,
        values: Option<&'a [(Name, ChannelValue)]>,
        versions: bool,
        scheme: VersionScheme,
    ) -> Self {
        let how = VersionsAs::Scheme(scheme);
        let versions = versions.then_some(c);
        CheckpointOut {
            v: c.v,
            id: &c.id,
            ts: js_timestamp(&c.ts),
            channel_values: values.map(Values),
            channel_versions: versions.map(|c| InScheme(&*c.channel_versions, how)),
            versions_seen: versions.map(|c| InScheme(&*c.versions_seen, how)),
            updated_channels: (scheme == VersionScheme::Text).then_some(&c.updated_channels),
        }
    }
}

/// LangGraph.js's `CheckpointTuple`, in its key order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TupleOut<'a> {
    config: Address<'a>,
    checkpoint: CheckpointOut<'a>,
    metadata: Metadata<'a>,
    pending_writes: Vec<(&'a str, &'a str, Cow<'a, Value>)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent_config: Option<Address<'a>>,
    /// The channels of messages ([`chronograph::ValueLayout::messages`]),
    /// for the TypeScript layer, which makes them message instances and
    /// takes the key away (it is last: V8 deletes a last key cheaply).
    #[serde(rename = "messageChannels", skip_serializing_if = "<[Name]>::is_empty")]
    message_channels: &'a [Name],
}

/// `view` as a tuple: with `values` (else `channel_values: null`), with its
/// version maps when `versions` (else `null`), versions in `scheme`.
pub fn stored_tuple<'a>(
    view: &StoredView<'a>,
    values: Option<&'a [(Name, ChannelValue)]>,
    versions: bool,
    scheme: VersionScheme,
) -> TupleOut<'a> {
    let checkpoint = view.checkpoint();
    TupleOut {
        config: Address::of(view.thread_id, view.checkpoint_ns, Some(&checkpoint.id)),
        checkpoint: CheckpointOut::new(checkpoint, values, versions, scheme),
        metadata: Metadata::new(view.metadata(), view.thread_id),
        pending_writes: writes_out(view.pending_writes()),
        parent_config: view
            .parent_id()
            .map(|p| Address::of(view.thread_id, view.checkpoint_ns, Some(p))),
        message_channels: view.layout().map_or(&[], |l| &l.messages),
    }
}

/// LangGraph's channel of a task's error in pending writes.
const ERROR_CHANNEL: &str = "__error__";
/// The channel of interrupts in pending writes.
const INTERRUPT_CHANNEL: &str = "__interrupt__";
/// The channel of `Send` packets.
const TASKS_CHANNEL: &str = "__pregel_tasks";

/// Pending writes as LangGraph.js's savers hold them: a task's error
/// (`__error__`, the engine's Python `repr` text) as `{message, name}`
/// (see [`js_error`]), interrupts as `{id, value}`, `Send` packets as
/// `{node, args}` ([`send_out`]), every other write as it is.
fn writes_out<'a>(
    writes: impl IntoIterator<Item = (&'a str, &'a str, &'a Value)>,
) -> Vec<(&'a str, &'a str, Cow<'a, Value>)> {
    writes
        .into_iter()
        .map(|(task, channel, value)| {
            let value = match (channel, value) {
                (ERROR_CHANNEL, Value::String(repr)) => Cow::Owned(js_error(repr)),
                (INTERRUPT_CHANNEL, Value::Array(items)) => {
                    Cow::Owned(Value::Array(items.iter().map(interrupt_out).collect()))
                }
                (TASKS_CHANNEL, packet) => send_out(packet),
                _ => Cow::Borrowed(value),
            };
            (task, channel, value)
        })
        .collect()
}

/// An interrupt as LangGraph.js writes it: `{id, value}` (the engine keeps
/// LangGraph's `{value, id}`).
fn interrupt_out(item: &Value) -> Value {
    let Value::Object(fields) = item else {
        return item.clone();
    };
    let mut out = serde_json::Map::new();
    for key in ["id", "value"] {
        if let Some(v) = fields.get(key) {
            out.insert(key.to_owned(), v.clone());
        }
    }
    for (k, v) in fields {
        out.entry(k.clone()).or_insert_with(|| v.clone());
    }
    Value::Object(out)
}

/// A `Send` packet as LangGraph.js's savers hold it, `{node, args}` (the
/// engine keeps LangGraph's `{node, arg}`); any other value as it is.
pub fn send_out(packet: &Value) -> Cow<'_, Value> {
    match packet {
        Value::Object(m) if m.len() == 2 && m.contains_key("node") && m.contains_key("arg") => {
            Cow::Owned(serde_json::json!({"node": m["node"], "args": m["arg"]}))
        }
        _ => Cow::Borrowed(packet),
    }
}

/// A stored checkpoint's channel values as LangGraph.js's savers list
/// them ([`StoredView::channel_values_listed`]), the `Send` packets of
/// `__pregel_tasks` as `{node, args}`.
pub fn listed_values(view: &StoredView<'_>) -> Vec<(Name, ChannelValue)> {
    let mut values = view.channel_values_listed();
    for (channel, value) in values.iter_mut() {
        if &**channel == TASKS_CHANNEL && !value.is_empty() {
            let packets = value.to_json();
            if let Value::Array(items) = &packets {
                let items = items.iter().map(|p| send_out(p).into_owned()).collect();
                *value = ChannelValue::from_json(Value::Array(items));
            }
        }
    }
    values
}
