//! [`WasmEngineSaver`]: the in-memory checkpoint saver (core
//! `InMemorySaver`), usable on its own and shared by the graphs compiled
//! with it. It shows its checkpoints as LangGraph.js's `MemorySaver` does
//! ([`super::types::tuple`]), versions in the scheme it was made with.

use super::listing::WasmListing;
use super::types::args::{from_js, plain_to_js, string_arg, to_js};
use super::types::args::{NameArg, ValueArg, WritesArg};
use super::types::checkpoint_tuple::{listed_values, stored_tuple};
use super::types::config::{config_from_js, list_options_from_js, Address};
use super::types::config::{ConfigArg, ListOptionsArg};
use crate::error::JsResult;
use crate::error::{invalid_argument, OrJs};
use chronograph::CheckpointSaver;
use chronograph::{CheckpointMetadata, GivenCheckpoint, GivenVersion, ListOptions, ListTarget};
use chronograph::{InMemorySaver, Name, ThreadExport, VecMap, VersionScheme};
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_ENGINE_SAVER: &str = r#"
/** A checkpoint as a thread document holds it: versions as the engine's texts, values in the namespace's `blobs`. */
export interface ExportedCheckpointOut {
  v: number;
  id: string;
  ts: string;
  channel_values: { [channel: string]: unknown };
  channel_versions: { [channel: string]: string };
  versions_seen: { [node: string]: { [channel: string]: string } };
  updated_channels?: string[] | null;
}

/** A task's write as a thread document holds it (`idx` < 0 for a control write). */
export interface ExportedWriteOut {
  task_id: string;
  channel: string;
  value: unknown;
  task_path: string;
  idx: number;
}

/** Everything stored for a thread, as a document (`exportThread`, `importThread`: the engine's `ThreadExport`). */
export interface ThreadExportOut {
  format: "chronograph.thread.v1";
  thread_id: string;
  namespaces: {
    checkpoint_ns: string;
    checkpoints: {
      checkpoint: ExportedCheckpointOut;
      metadata: MetadataOut;
      parent_id: string | null;
      pending_writes: ExportedWriteOut[];
    }[];
    blobs: { channel: string; version: string; value?: unknown }[];
  }[];
}
"#;

/// LangGraph.js `MemorySaver`. Channel versions are LangGraph.js's integers
/// (`"integer"`) or LangGraph (Python)'s `InMemorySaver` text (`"text"`,
/// the default).
#[wasm_bindgen]
#[derive(Default)]
pub struct WasmEngineSaver(Rc<InMemorySaver>);

impl WasmEngineSaver {
    /// The shared core saver.
    pub fn shared(&self) -> Rc<InMemorySaver> {
        self.0.clone()
    }
}

#[wasm_bindgen]
impl WasmEngineSaver {
    /// An empty saver; `versions` is `"integer"` or `"text"` (the default).
    #[wasm_bindgen(constructor)]
    pub fn new(versions: Option<String>) -> JsResult<WasmEngineSaver> {
        let scheme = match versions.as_deref() {
            None | Some("text") => VersionScheme::Text,
            Some("integer") => VersionScheme::Integer,
            Some(other) => {
                return Err(invalid_argument(format!(
                    "new WasmEngineSaver(versions): versions must be \"integer\" or \"text\", got {other:?}"
                )))
            }
        };
        Ok(WasmEngineSaver(Rc::new(
            InMemorySaver::with_version_scheme(scheme),
        )))
    }

    /// The addressed checkpoint, or the thread's newest; `undefined` when none.
    #[wasm_bindgen(js_name = getTuple, unchecked_return_type = "TupleOut | undefined")]
    pub fn get_tuple(&self, config: ConfigArg) -> JsResult<JsValue> {
        let address = config_from_js(&config, "getTuple(config): config")?
            .checkpoint_config()
            .or_js()?;
        let options = ListOptions {
            limit: Some(1),
            ..Default::default()
        };
        let scheme = self.0.version_scheme();
        let mut out = Ok(JsValue::UNDEFINED);
        // The namespace's newest is the first one listed; a lookup by id lists that one only.
        self.0
            .visit(&ListTarget::from(&address), &options, &mut |view| {
                let values = listed_values(&view);
                out = to_js(&stored_tuple(&view, Some(&values), true, scheme));
            });
        out
    }

    /// A second handle on the same saver (what `compile` consumes).
    pub fn share(&self) -> WasmEngineSaver {
        WasmEngineSaver(self.0.clone())
    }

    /// Checkpoints newest first, as a listing (values handed out lazily);
    /// `config` may name a thread, a namespace and a checkpoint, or be
    /// `undefined` for every thread.
    pub fn list(&self, config: ConfigArg, options: ListOptionsArg) -> JsResult<WasmListing> {
        let config = config_from_js(&config, "list(config, options): config")?;
        let target = ListTarget {
            thread_id: config.thread_id(),
            checkpoint_ns: config
                .configurable
                .get("checkpoint_ns")
                .and(Some(config.checkpoint_ns())),
            checkpoint_id: config.checkpoint_id(),
        };
        let options = list_options_from_js(&options, "list(config, options): options")?;
        WasmListing::stored(&self.0, &target, &options)
    }

    /// Stores a checkpoint under `config`'s checkpoint (its parent); returns
    /// its config. Versions may be integers (LangGraph.js's) or version
    /// texts; values are read back in the order they were put, those of
    /// the `messages` channels as message instances.
    #[wasm_bindgen(unchecked_return_type = "CheckpointAddress")]
    pub fn put(
        &self,
        config: ConfigArg,
        checkpoint: ValueArg,
        metadata: ValueArg,
        #[wasm_bindgen(unchecked_param_type = "ChannelVersionsOut")] new_versions: JsValue,
        messages: Option<Vec<String>>,
    ) -> JsResult<JsValue> {
        let parent = config_from_js(&config, "put(config, ...): config")?
            .checkpoint_config()
            .or_js()?;
        let mut checkpoint: GivenCheckpoint = from_js(
            checkpoint.into(),
            "put(config, checkpoint, ...): checkpoint",
        )?;
        checkpoint.messages = messages
            .unwrap_or_default()
            .into_iter()
            .map(Name::from)
            .collect();
        let metadata: CheckpointMetadata = from_js(
            metadata.into(),
            "put(config, checkpoint, metadata, ...): metadata",
        )?;
        let versions: VecMap<Name, GivenVersion> = from_js(
            new_versions,
            "put(config, checkpoint, metadata, newVersions): newVersions",
        )?;
        let saved = self
            .0
            .put_given(&parent, checkpoint, metadata, versions)
            .or_js()?;
        to_js(&Address::new(&saved))
    }

    /// Stores a task's writes (`[channel, value][]`) against `config`'s checkpoint.
    #[wasm_bindgen(js_name = putWrites)]
    pub fn put_writes(
        &self,
        config: ConfigArg,
        writes: WritesArg,
        task_id: NameArg,
        #[wasm_bindgen(unchecked_param_type = "string | undefined")] task_path: JsValue,
    ) -> JsResult {
        let address = config_from_js(&config, "putWrites(config, ...): config")?
            .checkpoint_config()
            .or_js()?;
        let writes: Vec<(String, Value)> =
            from_js(writes.into(), "putWrites(config, writes, taskId): writes")?;
        let task_id = string_arg(&task_id, "putWrites(config, writes, taskId): taskId")?;
        let task_path = task_path.as_string().unwrap_or_default();
        self.0
            .put_writes(&address, &writes, &task_id, &task_path)
            .or_js()
    }

    /// Forgets a thread.
    #[wasm_bindgen(js_name = deleteThread)]
    pub fn delete_thread(&self, thread_id: NameArg) -> JsResult {
        let thread_id = string_arg(&thread_id, "deleteThread(threadId): threadId")?;
        self.0.delete_thread(&thread_id).or_js()
    }

    /// Everything stored for a thread (format `chronograph.thread.v1`), or `undefined`.
    #[wasm_bindgen(js_name = exportThread, unchecked_return_type = "ThreadExportOut | undefined")]
    pub fn export_thread(&self, thread_id: NameArg) -> JsResult<JsValue> {
        let thread_id = string_arg(&thread_id, "exportThread(threadId): threadId")?;
        match self.0.export_thread(&thread_id) {
            // A document: records stay records, so `importThread` reads it back the same.
            Some(data) => plain_to_js(&data),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Loads an exported thread, replacing a thread of the same id.
    #[wasm_bindgen(js_name = importThread)]
    pub fn import_thread(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ThreadExportOut")] data: JsValue,
    ) -> JsResult {
        let data: ThreadExport = from_js(data, "importThread(data): data")?;
        self.0.import_thread(data).or_js()
    }

    /// Ids of every stored thread, sorted.
    #[wasm_bindgen(js_name = threadIds)]
    pub fn thread_ids(&self) -> Vec<String> {
        self.0.thread_ids()
    }
}
