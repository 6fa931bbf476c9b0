//! [`WasmListing`]: a listed history (`getStateHistory`, `getLineage`,
//! `MemorySaver.list`) as one JSON text plus one handle on the items'
//! values.
//!
//! Listing a long history is usually done for its metadata, so the items
//! go out without their values (`null`) and the JS layer (`listed` in
//! npm/src/internal/lazy.ts) makes each item's `values` (or `checkpoint.channel_values`)
//! a lazy property that converts that item's values on first read. The
//! items themselves cross as one `serde_json` text that JS reads with one
//! `JSON.parse`: V8 parses JSON faster than objects can be built through a
//! wasm crossing per field (`serde_wasm_bindgen`), and one handle for the
//! whole listing replaces a wasm-bindgen object per item.
//!
//! `MemorySaver.list` items leave their checkpoint's version maps out too
//! (`channel_versions`, `versions_seen`): in LangGraph's version text they
//! are about half of each item's JSON, and listing code reads metadata.
//! JS reads both maps of an item from [`WasmListing::versions_text`] when
//! either is first read.

use super::error::serialization_error;
use super::json_text::{utf8, TakenText};
use super::types::checkpoint_tuple::{listed_values, stored_tuple, InScheme, VersionsAs};
use super::types::snapshot::snapshot_head;
use crate::error::JsResult;
use chronograph::{ChannelValue, ChannelVersions, Name, State, StateSnapshot, VersionsSeen};
use chronograph::{InMemorySaver, ListOptions, ListTarget, VersionScheme};
use serde::ser::Error as _;
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// A listing: the items as JSON text (values left out) and each item's
/// values (and, for stored checkpoints, version maps), in the same order.
/// Holds the persistent states and maps (shared with the saver, not
/// copies) until they are read or the listing is freed.
#[wasm_bindgen]
pub struct WasmListing {
    text: TakenText,
    values: Vec<Option<ItemValues>>,
    versions: Vec<Option<ItemVersions>>,
    /// How the stored checkpoints' versions are written.
    scheme: VersionScheme,
}

/// One listed item's values: a snapshot's state, or a stored checkpoint's
/// `channel_values` as LangGraph.js lists them.
enum ItemValues {
    State(State),
    Listed(Vec<(Name, ChannelValue)>),
}

/// One listed checkpoint's `channel_versions` and `versions_seen`.
type ItemVersions = (Arc<ChannelVersions>, Arc<VersionsSeen>);

/// Both version maps of an item as one JSON object, in the saver's scheme.
#[derive(Serialize)]
struct VersionsText<'a> {
    channel_versions: InScheme<'a, ChannelVersions>,
    versions_seen: InScheme<'a, VersionsSeen>,
}

/// What the listing's errors say it could not do.
const WRITING: &str = "convert a value to JavaScript";

/// `value` as JSON text, serialized straight from the core values.
fn json_text(value: impl Serialize) -> JsResult<String> {
    let mut out = Vec::with_capacity(256);
    serde_json::to_writer(&mut out, &value).map_err(|e| serialization_error(WRITING, e))?;
    utf8(out, WRITING)
}

impl WasmListing {
    /// Snapshots (LangGraph.js `StateSnapshot`s, `values: null`).
    pub fn snapshots(list: Vec<StateSnapshot>) -> JsResult<WasmListing> {
        let text = TakenText::new(json_text(Seq(list.iter().map(snapshot_head)))?);
        let values = list
            .into_iter()
            .map(|s| Some(ItemValues::State(s.values)))
            .collect();
        Ok(WasmListing {
            text,
            values,
            versions: Vec::new(),
            scheme: VersionScheme::default(),
        })
    }

    /// Checkpoints listed by `saver` (`checkpoint.channel_values`,
    /// `channel_versions` and `versions_seen`: `null`),
    /// each written as JSON straight from the stored data: no tuple is
    /// built (no copies of ids, configs, metadata or pending writes).
    pub fn stored(
        saver: &InMemorySaver,
        target: &ListTarget,
        options: &ListOptions,
    ) -> JsResult<WasmListing> {
        let scheme = saver.version_scheme();
        let mut out = Vec::with_capacity(4096);
        out.push(b'[');
        let mut values = Vec::new();
        let mut versions = Vec::new();
        let mut failed = None;
        saver.visit(target, options, &mut |view| {
            if failed.is_some() {
                return;
            }
            if !values.is_empty() {
                out.push(b',');
            }
            match serde_json::to_writer(&mut out, &stored_tuple(&view, None, false, scheme)) {
                Ok(()) => {
                    values.push(Some(ItemValues::Listed(listed_values(&view))));
                    let c = view.checkpoint();
                    versions.push(Some((c.channel_versions.clone(), c.versions_seen.clone())));
                }
                Err(e) => failed = Some(e),
            }
        });
        if let Some(e) = failed {
            return Err(serialization_error(WRITING, e));
        }
        out.push(b']');
        let text = TakenText::new(utf8(out, WRITING)?);
        Ok(WasmListing {
            text,
            values,
            versions,
            scheme,
        })
    }
}

#[wasm_bindgen]
impl WasmListing {
    /// The items as a JSON array (taken: later calls return `"[]"`).
    #[wasm_bindgen(js_name = takeText)]
    pub fn take_text(&mut self) -> String {
        self.text.take()
    }

    /// Item `i`'s values as JSON text for `JSON.parse` (taken: later calls,
    /// and indexes past the end, return `undefined`). Much faster than a
    /// crossing per value for long lists; the same values as the
    /// field-by-field conversion, which also rejects integers a JS number
    /// cannot hold exactly (see `JsNumbers` below).
    #[wasm_bindgen(js_name = valuesText)]
    pub fn values_text(&mut self, i: usize) -> JsResult<Option<String>> {
        match self.values.get_mut(i).and_then(Option::take) {
            Some(values) => json_text(ValuesText(&values)).map(Some),
            None => Ok(None),
        }
    }

    /// Item `i`'s `{"channel_versions", "versions_seen"}` as JSON text
    /// (taken, like [`values_text`](Self::values_text); `undefined` for
    /// listings without version maps).
    #[wasm_bindgen(js_name = versionsText)]
    pub fn versions_text(&mut self, i: usize) -> JsResult<Option<String>> {
        match self.versions.get_mut(i).and_then(Option::take) {
            Some((versions, seen)) => json_text(VersionsText {
                channel_versions: InScheme(&*versions, VersionsAs::Scheme(self.scheme)),
                versions_seen: InScheme(&*seen, VersionsAs::Scheme(self.scheme)),
            })
            .map(Some),
            None => Ok(None),
        }
    }
}

/// A sequence serialized from an iterator (once).
struct Seq<I>(I);

impl<I: Iterator<Item = T> + Clone, T: Serialize> Serialize for Seq<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.clone())
    }
}

/// An item's values as a JSON object, every number checked by [`JsNumbers`].
struct ValuesText<'a>(&'a ItemValues);

impl Serialize for ValuesText<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            // A Pregel graph streaming one channel: that channel's value itself.
            ItemValues::State(state) if state.arg().is_some() => {
                JsNumbers(state.arg().unwrap_or(&Value::Null)).serialize(s)
            }
            ItemValues::State(state) => {
                s.collect_map(state.iter().map(|(k, v)| (k, ChannelText(v))))
            }
            ItemValues::Listed(values) => {
                s.collect_map(values.iter().map(|(k, v)| (k, ChannelText(v))))
            }
        }
    }
}

struct ChannelText<'a>(&'a ChannelValue);

impl Serialize for ChannelText<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            ChannelValue::Json(v) => JsNumbers(v).serialize(s),
            ChannelValue::List(items) => s.collect_seq(items.iter().map(|v| JsNumbers(v))),
        }
    }
}

/// A JSON value that fails, as `serde_wasm_bindgen` does (same message),
/// on an integer outside JS's safe range: `JSON.parse` would round it.
struct JsNumbers<'a>(&'a Value);

impl Serialize for JsNumbers<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        const MAX_SAFE: u64 = (1 << 53) - 1;
        match self.0 {
            Value::Number(n) => {
                let unsafe_int = n.as_u64().is_some_and(|u| u > MAX_SAFE)
                    || n.as_i64().is_some_and(|i| i.unsigned_abs() > MAX_SAFE);
                match unsafe_int {
                    true => Err(S::Error::custom(format_args!(
                        "{n} can't be represented as a JavaScript number"
                    ))),
                    false => n.serialize(s),
                }
            }
            Value::Array(items) => s.collect_seq(items.iter().map(JsNumbers)),
            Value::Object(map) => s.collect_map(map.iter().map(|(k, v)| (k, JsNumbers(v)))),
            other => other.serialize(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::JsNumbers;
    use serde_json::{json, Value};

    fn text(v: &Value) -> Result<String, String> {
        serde_json::to_string(&JsNumbers(v)).map_err(|e| e.to_string())
    }

    #[test]
    fn plain_values_are_their_json() {
        let v = json!({"s": "é\"\n", "n": [0, -1, 9007199254740991_i64, -9007199254740991_i64, 1.5, -0.0],
            "o": {"b": null, "a": [true, {"x": []}]}});
        assert_eq!(text(&v).unwrap(), serde_json::to_string(&v).unwrap());
    }

    #[test]
    fn integers_js_cannot_hold_fail_as_serde_wasm_bindgen_does() {
        for (v, n) in [
            (json!([9007199254740992_u64]), "9007199254740992"),
            (
                json!({"a": {"b": -9007199254740992_i64}}),
                "-9007199254740992",
            ),
            (json!(u64::MAX), "18446744073709551615"),
        ] {
            assert_eq!(
                text(&v).unwrap_err(),
                format!("{n} can't be represented as a JavaScript number")
            );
        }
        assert!(
            text(&json!(9007199254740992.0)).is_ok(),
            "a float is a float"
        );
    }
}
