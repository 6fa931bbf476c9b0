//! [`WasmListing`]: a listed history (`getStateHistory`, `getLineage`,
//! `MemorySaver.list`) as one JSON text plus one handle on the items'
//! values.
//!
//! Listing a long history is usually done for its metadata, so the items
//! go out without their values (`null`) and the JS layer (`listed` in
//! npm/lib.js) makes each item's `values` (or `checkpoint.channel_values`)
//! a lazy property that converts that item's values on first read. The
//! items themselves cross as one `serde_json` text that JS reads with one
//! `JSON.parse`: V8 parses JSON faster than objects can be built through a
//! wasm crossing per field (`serde_wasm_bindgen`), and one handle for the
//! whole listing replaces a wasm-bindgen object per item.

use super::types::{snapshot_head, to_js, tuple_head, StateValues};
use crate::checkpoint::CheckpointTuple;
use crate::{Error, State, StateSnapshot};
use serde::{Serialize, Serializer};
use wasm_bindgen::prelude::*;

/// A listing: the items as JSON text (values left out) and each item's
/// values, in the same order. Holds the persistent states (shared with the
/// saver, not copies) until they are read or the listing is freed.
#[wasm_bindgen]
pub struct WasmListing {
    text: String,
    values: Vec<Option<State>>,
}

/// The items as one JSON array, serialized straight from the core values.
fn json_text<T: Serialize>(items: impl Iterator<Item = T>) -> Result<String, JsValue> {
    let mut out = Vec::with_capacity(256);
    let mut ser = serde_json::Serializer::new(&mut out);
    (&mut ser).collect_seq(items).map_err(|e| {
        JsValue::from(
            Error::runtime(format!("Could not convert a value to JavaScript: {e}"))
                .with_code("SERIALIZATION"),
        )
    })?;
    Ok(String::from_utf8(out).expect("serde_json writes UTF-8"))
}

impl WasmListing {
    /// Snapshots (LangGraph.js `StateSnapshot`s, `values: null`).
    pub fn snapshots(list: Vec<StateSnapshot>) -> Result<WasmListing, JsValue> {
        let text = json_text(list.iter().map(snapshot_head))?;
        let values = list.into_iter().map(|s| Some(s.values)).collect();
        Ok(WasmListing { text, values })
    }

    /// Checkpoint tuples (`checkpoint.channel_values: null`).
    pub fn tuples(list: Vec<CheckpointTuple>) -> Result<WasmListing, JsValue> {
        let text = json_text(list.iter().map(tuple_head))?;
        let values = list
            .into_iter()
            .map(|t| Some(State::from_values(t.checkpoint.channel_values)))
            .collect();
        Ok(WasmListing { text, values })
    }
}

#[wasm_bindgen]
impl WasmListing {
    /// The items as a JSON array (taken: later calls return `"[]"`).
    #[wasm_bindgen(js_name = takeText)]
    pub fn take_text(&mut self) -> String {
        match self.text.is_empty() {
            true => "[]".into(),
            false => std::mem::take(&mut self.text),
        }
    }

    /// Item `i`'s values as a plain JS object, converted now (taken: later
    /// calls, and indexes past the end, return `undefined`).
    pub fn values(&mut self, i: usize) -> Result<JsValue, JsValue> {
        match self.values.get_mut(i).and_then(Option::take) {
            Some(state) => to_js(&StateValues(&state)),
            None => Ok(JsValue::UNDEFINED),
        }
    }
}
