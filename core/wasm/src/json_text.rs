//! JSON text written in wasm for one `JSON.parse` in JS: V8 parses JSON
//! faster than objects can be built through a wasm crossing per field, so
//! the listings ([`crate::WasmListing`]) and the LangGraph.js store's pages
//! ([`crate::WasmLangGraphStorePage`]) hand their items out as one text.

use crate::error::serialization_error;
use crate::error::JsResult;

/// The text serde_json wrote (always UTF-8).
pub(crate) fn utf8(bytes: Vec<u8>, what: &str) -> JsResult<String> {
    String::from_utf8(bytes).map_err(|e| serialization_error(what, e))
}

/// A JSON array text handed out once: later reads give `"[]"`, so the
/// text is not kept in wasm memory after JS took it.
#[derive(Default)]
pub(crate) struct TakenText(String);

impl TakenText {
    /// Holds `text`.
    pub(crate) fn new(text: String) -> Self {
        TakenText(text)
    }

    /// The text (taken: later calls return `"[]"`).
    pub(crate) fn take(&mut self) -> String {
        match self.0.is_empty() {
            true => "[]".into(),
            false => std::mem::take(&mut self.0),
        }
    }
}
