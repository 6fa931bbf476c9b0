//! [`WasmLangGraphStore`]: the engine's `InMemorySaver` as a plain
//! checkpoint store for `chronograph/langgraph`'s `MemorySaver`, the
//! drop-in saver for LangGraph.js graphs.
//!
//! Unlike [`WasmEngineSaver`](crate::WasmEngineSaver), which shows
//! Chronograph's own threads the way LangGraph.js's state API does (metadata
//! with `thread_id`, values handed out lazily), this class stores and returns
//! exactly what it is given: LangGraph.js checkpoints whose values the
//! TypeScript layer has already serialized with the graph's serializer. Data
//! crosses as JSON text both ways: one `JSON.parse` on the JS side is
//! cheaper than building objects field by field through the boundary. The
//! texts of a `put` and a `putWrites` come staged in the memory
//! ([`crate::linear_memory`]), written there by `TextEncoder.encodeInto`.
//!
//! The store is the engine's: each channel version's value is kept once
//! (channels outside a `put`'s `newVersions` are not stored again), writes
//! are kept per checkpoint (a regular write never overwritten, control
//! writes last-write-wins), and `list` walks ids in order without copying.

use crate::error::{invalid_argument, serialization_error, OrJs};
use crate::json_text::{utf8, TakenText};
use crate::linear_memory::{keep_headroom, with_staged};
use chronograph::{
    ChannelValue, ChannelVersions, Checkpoint, CheckpointConfig, CheckpointMetadata,
    CheckpointSaver, InMemorySaver, ListOptions, ListTarget, Name, StoredView,
};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

use super::types::checkpoint_tuple::{InScheme, VersionsAs};
use super::types::config::Address;
use crate::error::JsResult;

/// A LangGraph.js checkpoint store over the engine's `InMemorySaver`.
#[wasm_bindgen]
#[derive(Default)]
pub struct WasmLangGraphStore(Rc<InMemorySaver>);

/// Parses JSON text the TypeScript layer wrote, naming the argument on error.
fn parse<T: DeserializeOwned>(text: &str, what: &str) -> JsResult<T> {
    serde_json::from_str(text).map_err(|e| invalid_argument(format!("{what}: {e}")))
}

/// What the store's errors say it could not do.
const WRITING: &str = "serialize a checkpoint";

#[wasm_bindgen]
impl WasmLangGraphStore {
    /// An empty store.
    #[wasm_bindgen(constructor)]
    pub fn new() -> WasmLangGraphStore {
        WasmLangGraphStore::default()
    }

    /// Stores a checkpoint under `parent_id` in `thread_id` /
    /// `checkpoint_ns`. Its texts are staged ([`stage_text`](crate::linear_memory::stage_text)),
    /// `lengths[i]` bytes each: the checkpoint (JSON, without
    /// `channel_values`), its metadata (JSON), its `newVersions` (JSON:
    /// channel → version), then one value per name in `channels` (the
    /// value's serialized text, kept as it is). The values never pass
    /// through the checkpoint's JSON, so nothing escapes and unescapes them.
    pub fn put(
        &self,
        thread_id: String,
        checkpoint_ns: String,
        parent_id: Option<String>,
        channels: Vec<String>,
        lengths: &[u32],
    ) -> JsResult {
        if lengths.len() != 3 + channels.len() {
            return Err(invalid_argument(
                "put(): the checkpoint, metadata, newVersions and one value per channel",
            ));
        }
        let (mut checkpoint, metadata, new_versions) = with_staged(lengths, "put()", |texts| {
            let mut checkpoint: Checkpoint = parse(texts[0], "put(): checkpoint")?;
            let metadata: CheckpointMetadata = parse(texts[1], "put(): metadata")?;
            let new_versions: ChannelVersions = parse(texts[2], "put(): newVersions")?;
            for (channel, text) in channels.into_iter().zip(&texts[3..]) {
                checkpoint.channel_values.insert(
                    Name::from(channel),
                    ChannelValue::Json(Arc::new(stored_value(text))),
                );
            }
            Ok((checkpoint, metadata, new_versions))
        })?;
        let parent = CheckpointConfig {
            thread_id,
            checkpoint_ns,
            checkpoint_id: parent_id,
        };
        let stored = self.0.put(&parent, &checkpoint, metadata, &new_versions);
        // The store holds the values now; the checkpoint's are dropped here.
        checkpoint.channel_values.clear();
        keep_headroom();
        stored.or_js().map(drop)
    }

    /// Stores a task's writes against a checkpoint: `channels[i]`'s value is
    /// the staged text `lengths[i]` bytes long (its serialized text, kept
    /// as it is), as for [`put`](Self::put).
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = putWrites)]
    pub fn put_writes(
        &self,
        thread_id: String,
        checkpoint_ns: String,
        checkpoint_id: String,
        task_id: &str,
        task_path: &str,
        channels: Vec<String>,
        lengths: &[u32],
    ) -> JsResult {
        if lengths.len() != channels.len() {
            return Err(invalid_argument("putWrites(): one value per channel"));
        }
        let writes: Vec<(String, Value)> = with_staged(lengths, "putWrites()", |texts| {
            Ok(channels
                .into_iter()
                .zip(texts)
                .map(|(channel, text)| (channel, stored_value(text)))
                .collect())
        })?;
        let at = CheckpointConfig {
            thread_id,
            checkpoint_ns,
            checkpoint_id: Some(checkpoint_id),
        };
        let stored = self.0.put_writes(&at, &writes, task_id, task_path);
        keep_headroom();
        stored.or_js()
    }

    /// The tuple (JSON text, see [`WasmLangGraphStorePage`]) of a checkpoint, or of
    /// the namespace's newest when `checkpoint_id` is absent; `undefined`
    /// when there is none. Its serialized values are written in place with
    /// `plain` (LangGraph.js's own serializer), else as JSON strings (the
    /// text a custom serializer gets back as it wrote it).
    #[wasm_bindgen(js_name = getTuple)]
    pub fn get_tuple(
        &self,
        thread_id: String,
        checkpoint_ns: String,
        checkpoint_id: Option<String>,
        plain: bool,
    ) -> JsResult<Option<String>> {
        let mode = match plain {
            true => Mode::Parsed,
            false => Mode::Text,
        };
        let target = ListTarget {
            thread_id: Some(thread_id),
            checkpoint_ns: Some(checkpoint_ns),
            checkpoint_id,
        };
        let options = ListOptions {
            limit: Some(1),
            ..Default::default()
        };
        let mut out = Ok(None);
        // The newest of the namespace is the first one listed; a lookup by
        // id lists that one only. `visit` reads it in place.
        self.0.visit(&target, &options, &mut |view| {
            let mut text = Vec::new();
            out = match write_tuple(&mut text, &view, mode) {
                Ok(_) => utf8(text, WRITING).map(Some),
                Err(e) => Err(serialization_error(WRITING, e)),
            };
        });
        keep_headroom();
        out
    }

    /// A page of tuples, newest first per namespace (see [`WasmLangGraphStorePage`]):
    /// `thread_id`/`checkpoint_ns`/`checkpoint_id` narrow the search when
    /// given; `before` keeps ids lower than it; `filter` (JSON text of an
    /// object) keeps checkpoints whose metadata has those values; `limit`
    /// caps the count. With `plain` (LangGraph.js's own serializer), the
    /// channel values of a checkpoint whose data holds nothing to revive
    /// stay in the page until read; without, every serialized value is in
    /// the text as a JSON string, for the serializer.
    #[allow(clippy::too_many_arguments)]
    pub fn list(
        &self,
        thread_id: Option<String>,
        checkpoint_ns: Option<String>,
        checkpoint_id: Option<String>,
        before: Option<String>,
        filter: Option<String>,
        limit: Option<u32>,
        plain: bool,
    ) -> JsResult<WasmLangGraphStorePage> {
        let mode = match plain {
            true => Mode::Lazy,
            false => Mode::Text,
        };
        let filter: BTreeMap<String, Value> = match filter {
            Some(f) => parse(&f, "list(): filter")?,
            None => BTreeMap::new(),
        };
        let target = ListTarget {
            thread_id,
            checkpoint_ns,
            checkpoint_id,
        };
        let options = ListOptions {
            filter,
            before,
            limit: limit.map(|l| l as usize),
        };
        let mut text = Vec::with_capacity(4096);
        text.push(b'[');
        let mut values = Vec::new();
        let mut revive = Vec::new();
        let mut failed = None;
        self.0.visit(&target, &options, &mut |view| {
            if failed.is_some() {
                return;
            }
            let i = values.len();
            if i > 0 {
                text.push(b',');
            }
            match write_tuple(&mut text, &view, mode) {
                Ok(Written::Plain(v)) => values.push(v),
                Ok(Written::Revive) => {
                    values.push(None);
                    revive.push(i as u32);
                }
                Err(e) => failed = Some(e),
            }
        });
        if let Some(e) = failed {
            return Err(serialization_error(WRITING, e));
        }
        text.push(b']');
        keep_headroom();
        Ok(WasmLangGraphStorePage {
            text: TakenText::new(utf8(text, WRITING)?),
            values,
            revive,
        })
    }

    /// Forgets a thread: its checkpoints, writes and values.
    #[wasm_bindgen(js_name = deleteThread)]
    pub fn delete_thread(&self, thread_id: &str) -> JsResult {
        self.0.delete_thread(thread_id).or_js()
    }

    /// Ids of every stored thread, sorted.
    #[wasm_bindgen(js_name = threadIds)]
    pub fn thread_ids(&self) -> Vec<String> {
        self.0.thread_ids()
    }
}

/// A page of `list`: LangGraph.js `CheckpointTuple`s as one JSON array
/// text, ready as they are (keys in the order LangGraph.js's `MemorySaver`
/// writes them, integer channel versions as numbers, serialized values
/// written in place: one `JSON.parse` reads them), plus what cannot be in
/// the text:
///
/// - the channel values of the tuples listed lazily (`channel_values:
///   null` in the text), taken by [`values_text`](Self::values_text) on
///   first read: a listing read for its metadata parses no values;
/// - the tuples whose data the serializer must revive (an object with an
///   `lc` key somewhere: LangChain messages, typed values, or a format < 4
///   checkpoint to migrate), which the JS layer finishes asynchronously
///   (`revive_list`); they always carry their values in the text.
#[wasm_bindgen]
pub struct WasmLangGraphStorePage {
    text: TakenText,
    values: Vec<Option<BTreeMap<Name, ChannelValue>>>,
    revive: Vec<u32>,
}

#[wasm_bindgen]
impl WasmLangGraphStorePage {
    /// The tuples as a JSON array (taken: later calls return `"[]"`).
    #[wasm_bindgen(js_name = takeText)]
    pub fn take_text(&mut self) -> String {
        self.text.take()
    }

    /// Indexes of the tuples the serializer must revive, ascending.
    #[wasm_bindgen(js_name = reviveList)]
    pub fn revive_list(&self) -> Vec<u32> {
        self.revive.clone()
    }

    /// Tuple `i`'s `channel_values` as JSON text, the serialized values in
    /// place (taken: later calls, and tuples listed with their values,
    /// return `undefined`).
    #[wasm_bindgen(js_name = valuesText)]
    pub fn values_text(&mut self, i: usize) -> JsResult<Option<String>> {
        let Some(values) = self.values.get_mut(i).and_then(Option::take) else {
            return Ok(None);
        };
        let mut out = Vec::with_capacity(256);
        write_values(&mut out, &values, Mode::Lazy).map_err(|e| serialization_error(WRITING, e))?;
        utf8(out, WRITING).map(Some)
    }
}

/// What [`write_tuple`] wrote.
enum Written {
    /// Nothing to revive; the values when they were left out of the text.
    Plain(Option<BTreeMap<Name, ChannelValue>>),
    /// The serializer must revive something (values written in place).
    Revive,
}

/// Whether JSON text may hold an object LangGraph.js's serializer revives
/// (one with an `lc` key). Conservative: `"lc"` anywhere counts.
fn may_revive(json: &[u8]) -> bool {
    let mut rest = json;
    while let Some(p) = rest.iter().position(|&b| b == b'l') {
        // The byte before position 0 of `rest` is an `l`, never a quote.
        if p > 0 && rest[p - 1] == b'"' && rest[p + 1..].starts_with(b"c\"") {
            return true;
        }
        rest = &rest[p + 1..];
    }
    false
}

/// A serialized value's text as the store keeps it, looked through for
/// something to revive once, here, so that a listing need not look through
/// every value's text again (a W1 listing holds 64 MB of them): a string
/// when it holds nothing to revive, else that string in a one-item array.
/// The text is copied once, out of the staging buffer, and never again.
fn stored_value(text: &str) -> Value {
    let value = Value::String(text.to_owned());
    match may_revive(text.as_bytes()) {
        true => Value::Array(vec![value]),
        false => value,
    }
}

/// A stored value's serialized text (see [`stored_value`]); `None` for any
/// other value.
fn stored_text(value: &Value) -> Option<&str> {
    match value {
        Value::String(text) => Some(text),
        Value::Array(one) => match one.as_slice() {
            [Value::String(text)] => Some(text),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a stored value may need reviving: only a text found to hold
/// nothing to revive is sure not to.
fn value_may_revive(value: &Value) -> bool {
    !matches!(value, Value::String(_))
}

/// How [`write_tuple`] writes serialized values.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// In place; channel values left out (and kept) when nothing needs reviving.
    Lazy,
    /// In place.
    Parsed,
    /// As JSON strings (the serialized text itself).
    Text,
}

/// A stored value: its serialized text in place (it is JSON), or with
/// `Mode::Text` as a JSON string; any other value as JSON.
fn write_value(out: &mut Vec<u8>, value: &Value, mode: Mode) -> serde_json::Result<()> {
    let Some(text) = stored_text(value) else {
        return serde_json::to_writer(out, value);
    };
    match mode {
        Mode::Text => serde_json::to_writer(out, text),
        _ if text.trim().is_empty() => {
            out.extend_from_slice(b"null");
            Ok(())
        }
        _ => {
            out.extend_from_slice(text.as_bytes());
            Ok(())
        }
    }
}

/// Channel values as a JSON object, each value as `mode` writes it.
fn write_values(
    out: &mut Vec<u8>,
    values: &BTreeMap<Name, ChannelValue>,
    mode: Mode,
) -> serde_json::Result<()> {
    out.push(b'{');
    for (i, (channel, value)) in values.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut *out, &**channel)?;
        out.push(b':');
        match value {
            ChannelValue::Json(v) => write_value(out, v, mode)?,
            list => serde_json::to_writer(&mut *out, list)?,
        }
    }
    out.push(b'}');
    Ok(())
}

/// One stored checkpoint as a LangGraph.js `CheckpointTuple` (`{config,
/// checkpoint: {v, id, ts, channel_values, channel_versions, versions_seen,
/// updated_channels?}, metadata, pendingWrites, parentConfig?}`), straight
/// from the stored data. With `Mode::Lazy` and nothing to revive, the
/// values are left out (`null`) and returned.
fn write_tuple(
    out: &mut Vec<u8>,
    view: &StoredView<'_>,
    mode: Mode,
) -> serde_json::Result<Written> {
    let c = view.checkpoint();
    let values = view.channel_values();
    let metadata = serde_json::to_vec(view.metadata())?;
    let writes = view.pending_writes();
    let revive = may_revive(&metadata)
        || (c.v < 4 && view.parent_id().is_some())
        || writes.iter().any(|(_, _, v)| value_may_revive(v))
        || values.values().any(|v| match v {
            ChannelValue::Json(v) => value_may_revive(v),
            ChannelValue::List(_) => true,
        });
    let address = |id| Address::of(view.thread_id, view.checkpoint_ns, Some(id));
    out.extend_from_slice(b"{\"config\":");
    serde_json::to_writer(&mut *out, &address(&c.id))?;
    out.extend_from_slice(b",\"checkpoint\":{\"v\":");
    serde_json::to_writer(&mut *out, &c.v)?;
    out.extend_from_slice(b",\"id\":");
    serde_json::to_writer(&mut *out, &c.id)?;
    out.extend_from_slice(b",\"ts\":");
    serde_json::to_writer(&mut *out, &c.ts)?;
    out.extend_from_slice(b",\"channel_values\":");
    let kept = if mode == Mode::Lazy && !revive {
        out.extend_from_slice(b"null");
        Some(values)
    } else {
        write_values(out, &values, mode)?;
        None
    };
    out.extend_from_slice(b",\"channel_versions\":");
    serde_json::to_writer(
        &mut *out,
        &InScheme(&*c.channel_versions, VersionsAs::Marked),
    )?;
    out.extend_from_slice(b",\"versions_seen\":");
    serde_json::to_writer(&mut *out, &InScheme(&*c.versions_seen, VersionsAs::Marked))?;
    if let Some(updated) = &c.updated_channels {
        out.extend_from_slice(b",\"updated_channels\":");
        serde_json::to_writer(&mut *out, updated)?;
    }
    out.extend_from_slice(b"},\"metadata\":");
    out.extend_from_slice(&metadata);
    out.extend_from_slice(b",\"pendingWrites\":[");
    for (i, (task_id, channel, value)) in writes.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'[');
        serde_json::to_writer(&mut *out, task_id)?;
        out.push(b',');
        serde_json::to_writer(&mut *out, channel)?;
        out.push(b',');
        write_value(out, value, mode)?;
        out.push(b']');
    }
    out.push(b']');
    if let Some(parent) = view.parent_id() {
        out.extend_from_slice(b",\"parentConfig\":");
        serde_json::to_writer(&mut *out, &address(parent))?;
    }
    out.push(b'}');
    Ok(match revive {
        true => Written::Revive,
        false => Written::Plain(kept),
    })
}

#[cfg(test)]
mod tests {
    use super::{may_revive, WasmLangGraphStore};
    use crate::linear_memory::stage_for_tests;
    use serde_json::{json, Value};

    /// A checkpoint as npm/src/checkpoint/langgraph_saver.ts `put` writes it: values as
    /// their serialized text, integer versions as `n.<u64::MAX>`.
    fn put(store: &WasmLangGraphStore, id: &str, parent: Option<&str>, trail: &Value, count: u64) {
        let max = u64::MAX;
        let checkpoint = json!({
            "v": 4, "id": id, "ts": "2026-12-01T00:00:00.000Z",
            "channel_versions": {"trail": format!("{count}.{max}"), "count": format!("{count}.{max}")},
            "versions_seen": {"agent": {"trail": format!("{}.{max}", count.saturating_sub(1))}, "tool": {"x": "7.3"}},
            "updated_channels": null,
            "channel_values": {},
        });
        let new_versions =
            json!({"trail": format!("{count}.{max}"), "count": format!("{count}.{max}")});
        let metadata = json!({"source": "loop", "step": count, "parents": {}});
        let lengths = stage_for_tests(&[
            &checkpoint.to_string(),
            &metadata.to_string(),
            &new_versions.to_string(),
            &trail.to_string(),
            &count.to_string(),
        ]);
        store
            .put(
                "t".into(),
                String::new(),
                parent.map(str::to_owned),
                vec!["trail".into(), "count".into()],
                &lengths,
            )
            .unwrap();
    }

    fn list(store: &WasmLangGraphStore, plain: bool) -> super::WasmLangGraphStorePage {
        store
            .list(Some("t".into()), None, None, None, None, None, plain)
            .unwrap()
    }

    #[test]
    fn revival_is_looked_for_as_an_lc_key() {
        for yes in [
            r#"{"lc":1}"#,
            r#"[{"a":{"lc":2,"type":"constructor"}}]"#,
            r#""lc""#,
        ] {
            assert!(may_revive(yes.as_bytes()), "{yes}");
        }
        for no in [
            r#"["tool","agent"]"#,
            r#"{"lcx":1,"l":"c"}"#,
            r#""\"lc\"""#,
            "",
            "l",
            r#""l"#,
        ] {
            assert!(!may_revive(no.as_bytes()), "{no}");
        }
    }

    #[test]
    fn a_page_is_langgraph_tuples_with_plain_values_left_for_later() {
        let store = WasmLangGraphStore::new();
        put(&store, "1", None, &json!(["agent"]), 1);
        put(&store, "2", Some("1"), &json!(["agent", "tool"]), 2);
        let lengths = stage_for_tests(&[r#"["agent"]"#]);
        store
            .put_writes(
                "t".into(),
                String::new(),
                "2".into(),
                "task",
                "",
                vec!["trail".into()],
                &lengths,
            )
            .unwrap();
        let mut page = list(&store, true);
        let tuples: Value = serde_json::from_str(&page.take_text()).unwrap();
        assert!(page.revive_list().is_empty());
        assert!(
            tuples.to_string().find('\u{1}').is_none(),
            "no mark leaves the store"
        );
        let newest = &tuples[0];
        assert_eq!(
            newest["config"],
            json!({"configurable": {"thread_id": "t", "checkpoint_ns": "", "checkpoint_id": "2"}})
        );
        assert_eq!(newest["checkpoint"]["channel_values"], Value::Null);
        assert_eq!(
            newest["checkpoint"]["channel_versions"],
            json!({"count": 2, "trail": 2})
        );
        assert_eq!(
            newest["checkpoint"]["versions_seen"],
            json!({"agent": {"trail": 1}, "tool": {"x": "00000000000000000000000000000007.0000000000000003"}})
        );
        assert_eq!(
            newest["metadata"],
            json!({"source": "loop", "step": 2, "parents": {}})
        );
        assert_eq!(
            newest["pendingWrites"],
            json!([["task", "trail", ["agent"]]])
        );
        assert_eq!(newest["parentConfig"]["configurable"]["checkpoint_id"], "1");
        assert!(tuples[1].get("parentConfig").is_none());
        let values: Value = serde_json::from_str(&page.values_text(0).unwrap().unwrap()).unwrap();
        assert_eq!(values, json!({"count": 2, "trail": ["agent", "tool"]}));
        assert_eq!(page.values_text(0).unwrap(), None, "taken");
        // For another serializer, every value is its serialized text.
        let texts: Value = serde_json::from_str(&list(&store, false).take_text()).unwrap();
        assert_eq!(
            texts[1]["checkpoint"]["channel_values"],
            json!({"count": "1", "trail": "[\"agent\"]"})
        );
        assert_eq!(
            texts[0]["pendingWrites"],
            json!([["task", "trail", "[\"agent\"]"]])
        );
        // getTuple: the same tuple, values in place (or as text).
        let got = |plain| -> Value {
            let text = store.get_tuple("t".into(), String::new(), Some("1".into()), plain);
            serde_json::from_str(&text.unwrap().unwrap()).unwrap()
        };
        let mut parsed = tuples[1].clone();
        parsed["checkpoint"]["channel_values"] = json!({"count": 1, "trail": ["agent"]});
        assert_eq!(got(true), parsed);
        assert_eq!(got(false), texts[1]);
    }

    #[test]
    fn a_checkpoint_with_something_to_revive_carries_its_values_and_is_named() {
        let store = WasmLangGraphStore::new();
        put(&store, "1", None, &json!(["agent"]), 1);
        let message = json!([{"lc": 1, "type": "constructor", "id": ["x", "HumanMessage"], "kwargs": {"content": "hi"}}]);
        put(&store, "2", Some("1"), &message, 2);
        let mut page = list(&store, true);
        let tuples: Value = serde_json::from_str(&page.take_text()).unwrap();
        assert_eq!(page.revive_list(), vec![0]);
        assert_eq!(tuples[0]["checkpoint"]["channel_values"]["trail"], message);
        assert_eq!(tuples[1]["checkpoint"]["channel_values"], Value::Null);
        assert_eq!(page.values_text(0).unwrap(), None);
    }
}
