//! [`WasmCheckpointStore`]: the engine's `InMemorySaver` as a plain
//! checkpoint store for `chronograph/langgraph`'s `MemorySaver`, the
//! drop-in saver for LangGraph.js graphs.
//!
//! Unlike [`WasmMemorySaver`](crate::WasmMemorySaver), which shows
//! Chronograph's own threads the way LangGraph.js's state API does (metadata
//! with `thread_id`, values handed out lazily), this class stores and returns
//! exactly what it is given: LangGraph.js checkpoints whose values the
//! TypeScript layer has already serialized with the graph's serializer. Data
//! crosses as JSON text both ways: one `JSON.parse` on the JS side is
//! cheaper than building objects field by field through the boundary.
//!
//! The store is the engine's: each channel version's value is kept once
//! (channels outside a `put`'s `newVersions` are not stored again), writes
//! are kept per checkpoint (a regular write never overwritten, control
//! writes last-write-wins), and `list` walks ids in order without copying.

use crate::error::{invalid_argument, to_js, OrJs};
use chronograph::{
    ChannelValue, ChannelVersions, Checkpoint, CheckpointConfig, CheckpointMetadata,
    CheckpointSaver, CheckpointTuple, InMemorySaver, ListOptions, ListTarget, Name, StoredView,
    VersionsSeen,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::types::Address;

/// A LangGraph.js checkpoint store over the engine's `InMemorySaver`.
#[wasm_bindgen]
#[derive(Default)]
pub struct WasmCheckpointStore(Rc<InMemorySaver>);

/// A stored checkpoint as LangGraph.js writes it (`updated_channels` only
/// when it was given).
#[derive(Serialize)]
struct CheckpointOut<'a> {
    v: u32,
    id: &'a str,
    ts: &'a str,
    channel_values: &'a BTreeMap<Name, ChannelValue>,
    channel_versions: &'a ChannelVersions,
    versions_seen: &'a VersionsSeen,
    #[serde(skip_serializing_if = "Option::is_none")]
    updated_channels: &'a Option<Vec<Name>>,
}

/// LangGraph.js `CheckpointTuple`, metadata exactly as stored.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TupleOut<'a> {
    config: Address<'a>,
    checkpoint: CheckpointOut<'a>,
    metadata: &'a CheckpointMetadata,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent_config: Option<Address<'a>>,
    pending_writes: Vec<(&'a str, &'a str, &'a Value)>,
}

/// Parses JSON text the TypeScript layer wrote, naming the argument on error.
fn parse<T: DeserializeOwned>(text: &str, what: &str) -> Result<T, JsValue> {
    serde_json::from_str(text).map_err(|e| invalid_argument(format!("{what}: {e}")))
}

/// JSON text of a value the store holds (cannot fail for these types; an
/// error rather than a panic all the same).
fn text<T: Serialize>(value: &T) -> Result<String, JsValue> {
    serde_json::to_string(value).map_err(|e| {
        to_js(
            &chronograph::Error::runtime(format!("Could not serialize a checkpoint: {e}"))
                .with_code("SERIALIZATION"),
        )
    })
}

#[wasm_bindgen]
impl WasmCheckpointStore {
    /// An empty store.
    #[wasm_bindgen(constructor)]
    pub fn new() -> WasmCheckpointStore {
        WasmCheckpointStore::default()
    }

    /// Stores `checkpoint` (JSON text) under `parent_id` in `thread_id` /
    /// `checkpoint_ns`, keeping the values of the channels in
    /// `new_versions` (JSON text: channel → version).
    pub fn put(
        &self,
        thread_id: String,
        checkpoint_ns: String,
        parent_id: Option<String>,
        checkpoint: &str,
        metadata: &str,
        new_versions: &str,
    ) -> Result<(), JsValue> {
        let checkpoint: Checkpoint = parse(checkpoint, "put(): checkpoint")?;
        let metadata: CheckpointMetadata = parse(metadata, "put(): metadata")?;
        let new_versions: ChannelVersions = parse(new_versions, "put(): newVersions")?;
        let parent = CheckpointConfig {
            thread_id,
            checkpoint_ns,
            checkpoint_id: parent_id,
        };
        self.0
            .put(&parent, &checkpoint, metadata, &new_versions)
            .or_js()?;
        Ok(())
    }

    /// Stores a task's writes (JSON text: `[channel, value][]`) against a checkpoint.
    #[wasm_bindgen(js_name = putWrites)]
    pub fn put_writes(
        &self,
        thread_id: String,
        checkpoint_ns: String,
        checkpoint_id: String,
        writes: &str,
        task_id: &str,
        task_path: &str,
    ) -> Result<(), JsValue> {
        let writes: Vec<(String, Value)> = parse(writes, "putWrites(): writes")?;
        let at = CheckpointConfig {
            thread_id,
            checkpoint_ns,
            checkpoint_id: Some(checkpoint_id),
        };
        self.0.put_writes(&at, &writes, task_id, task_path).or_js()
    }

    /// The tuple (JSON text) of a checkpoint, or of the namespace's newest
    /// when `checkpoint_id` is absent; `undefined` when there is none.
    #[wasm_bindgen(js_name = getTuple)]
    pub fn get_tuple(
        &self,
        thread_id: String,
        checkpoint_ns: String,
        checkpoint_id: Option<String>,
    ) -> Result<Option<String>, JsValue> {
        if let Some(id) = checkpoint_id {
            // A lookup by id: the stored map is keyed by it.
            let at = CheckpointConfig {
                thread_id,
                checkpoint_ns,
                checkpoint_id: Some(id),
            };
            return match self.0.get_tuple(&at).or_js()? {
                Some(t) => owned_tuple_text(&t).map(Some),
                None => Ok(None),
            };
        }
        // The newest of the namespace is the first one listed; `visit` reads
        // it in place, where `get_tuple` would copy the tuple to serialize it.
        let target = ListTarget {
            thread_id: Some(thread_id),
            checkpoint_ns: Some(checkpoint_ns),
            checkpoint_id: None,
        };
        let options = ListOptions {
            limit: Some(1),
            ..Default::default()
        };
        let mut out = Ok(None);
        self.0.visit(&target, &options, &mut |view| {
            out = tuple_text(&view).map(Some);
        });
        out
    }

    /// Tuples (JSON text of an array), newest first per namespace:
    /// `thread_id`/`checkpoint_ns`/`checkpoint_id` narrow the search when
    /// given; `before` keeps ids lower than it; `filter` (JSON text of an
    /// object) keeps checkpoints whose metadata has those values; `limit`
    /// caps the count.
    pub fn list(
        &self,
        thread_id: Option<String>,
        checkpoint_ns: Option<String>,
        checkpoint_id: Option<String>,
        before: Option<String>,
        filter: Option<String>,
        limit: Option<u32>,
    ) -> Result<String, JsValue> {
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
        let mut out = String::from("[");
        let mut error = None;
        self.0.visit(&target, &options, &mut |view| {
            if error.is_some() {
                return;
            }
            match tuple_text(&view) {
                Ok(t) => {
                    if out.len() > 1 {
                        out.push(',');
                    }
                    out.push_str(&t);
                }
                Err(e) => error = Some(e),
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        out.push(']');
        Ok(out)
    }

    /// Forgets a thread: its checkpoints, writes and values.
    #[wasm_bindgen(js_name = deleteThread)]
    pub fn delete_thread(&self, thread_id: &str) -> Result<(), JsValue> {
        self.0.delete_thread(thread_id).or_js()
    }

    /// Ids of every stored thread, sorted.
    #[wasm_bindgen(js_name = threadIds)]
    pub fn thread_ids(&self) -> Vec<String> {
        self.0.thread_ids()
    }
}

/// A tuple the saver handed out, as JSON text.
fn owned_tuple_text(t: &CheckpointTuple) -> Result<String, JsValue> {
    let c = &t.checkpoint;
    text(&TupleOut {
        config: Address::new(&t.config),
        checkpoint: CheckpointOut {
            v: c.v,
            id: &c.id,
            ts: &c.ts,
            channel_values: &c.channel_values,
            channel_versions: &c.channel_versions,
            versions_seen: &c.versions_seen,
            updated_channels: &c.updated_channels,
        },
        metadata: &t.metadata,
        parent_config: t.parent_config.as_ref().map(Address::new),
        pending_writes: t
            .pending_writes
            .iter()
            .map(|w| (w.task_id.as_str(), w.channel.as_str(), &w.value))
            .collect(),
    })
}

/// One stored checkpoint's tuple as JSON text, written in place.
fn tuple_text(view: &StoredView<'_>) -> Result<String, JsValue> {
    let checkpoint = view.checkpoint();
    let values = view.channel_values();
    let tuple = TupleOut {
        config: Address::of(view.thread_id, view.checkpoint_ns, Some(&checkpoint.id)),
        checkpoint: CheckpointOut {
            v: checkpoint.v,
            id: &checkpoint.id,
            ts: &checkpoint.ts,
            channel_values: &values,
            channel_versions: &checkpoint.channel_versions,
            versions_seen: &checkpoint.versions_seen,
            updated_channels: &checkpoint.updated_channels,
        },
        metadata: view.metadata(),
        parent_config: view
            .parent_id()
            .map(|p| Address::of(view.thread_id, view.checkpoint_ns, Some(p))),
        pending_writes: view.pending_writes(),
    };
    text(&tuple)
}
