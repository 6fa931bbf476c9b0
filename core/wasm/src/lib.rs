//! JavaScript bindings of the engine crate `chronograph`: the raw layer of
//! the npm package `chronograph` (`scripts/build-pkg.sh` builds `pkg/` from
//! this crate). The engine crate itself knows nothing about JavaScript: every
//! `wasm_bindgen`, `js_sys` and `JsValue` lives here.
//!
//! Each exported class is a newtype over one core type, one class per file,
//! and each method is "convert, call the core, convert". The package's
//! public surface is the TypeScript layer in `npm/src/`, which wraps these
//! classes into LangGraph.js shapes (async iterables, `new Command({...})`,
//! `interrupt()`, method chaining) and declares the package's public types.
//!
//! The boundary is typed: every export that takes or returns a JS value
//! names its TypeScript type, declared in a `typescript_custom_section`
//! next to the Rust data it describes (`types/config.rs` declares
//! `RunConfigIn`, `types/snapshot.rs` `SnapshotOut`, `node.rs`
//! `EngineNode`, ...). Arguments of a kind several exports take have an
//! extern type of their own (`typescript_type`: [`types::args::NameArg`],
//! [`types::config::ConfigArg`], [`NodeArg`], ...; the same handle as a
//! `JsValue`, read as before), the others an `unchecked_param_type`;
//! results an `unchecked_return_type`. The declarations wasm-bindgen
//! generates, which the TypeScript layer is compiled against, have no
//! `any`.
//!
//! - [`types`]: the data shapes that cross the boundary, one file per
//!   kind (arguments, configs, snapshots, commands, stream chunks,
//!   checkpoint tuples), converted with
//!   `serde_wasm_bindgen::Serializer::json_compatible()`.
//! - [`value`]: the one conversion of JS values into the engine's JSON
//!   data, which refuses cycles, nesting deeper than
//!   [`value::MAX_DEPTH`] and anything else JSON does not hold with a
//!   `TypeError` of code `INVALID_VALUE` naming the bad value's path.
//! - [`records`]: the engine's stand-ins for `undefined` and for values
//!   held by reference while a run goes on (`held`: functions, class
//!   instances), LangGraph.js's own serialized forms; `js_out`: values
//!   going out with those turned back into JS values.
//! - [`error`]: core errors to real JS `Error` objects (`name`, `code`,
//!   `node`, LangGraph.js texts) and thrown JS values back to core errors.
//! - `node`: the one adapter from a JS function to a core node, router or
//!   reducer; `state_cache`: the per-graph cache of the state (and the
//!   run's config) handed to JS; `lazy_state`: the list channels of those
//!   states that are converted only when read; `cache`: node caching with
//!   a LangGraph.js cache object.
//! - [`WasmStateGraph`], [`WasmPregel`], [`WasmCompiledGraph`] and
//!   [`WasmListing`]: the graph classes; `task`: running JS tasks by
//!   number, for `interrupt()`.
//! - The savers, by role:
//!   - [`WasmEngineSaver`] (`engine_saver`): the engine's own saver, its
//!     `InMemorySaver` held in wasm, behind the package's `MemorySaver`;
//!   - `JsGraphSaver` (`js_graph_saver`): that saver as a graph made in JS
//!     runs on it, storing values as LangGraph.js's serializer does;
//!   - [`WasmLangGraphStore`] and its [`WasmLangGraphStorePage`]
//!     (`langgraph_store`): the store behind `chronograph/langgraph`'s
//!     `MemorySaver`, LangGraph.js's `BaseCheckpointSaver` over the
//!     engine's store. (LangGraph.js's own savers, PostgreSQL or SQLite,
//!     are bridged in the TypeScript layer, not here.)
//! - `json_text`: JSON text for one `JSON.parse` in JS (the listings and
//!   the store's pages hand their items out so).
//! - [`linear_memory`]: the wasm linear memory as the stores use it:
//!   grown in large steps (each growth past 64 MiB costs V8 a full
//!   collection), and the staging buffer the TypeScript layer writes
//!   texts into.

#![warn(clippy::too_many_lines)]

mod cache;
mod clock;
mod compiled;
mod engine_saver;
pub mod error;
mod held;
mod js_graph_saver;
mod js_out;
mod json_text;
mod langgraph_store;
mod lazy_state;
pub mod linear_memory;
mod listing;
mod node;
mod pregel;
pub mod records;
mod retention;
mod state_cache;
mod state_graph;
mod task;
pub mod types;
pub mod value;

pub use clock::DateClock;
pub use compiled::WasmCompiledGraph;
pub use engine_saver::WasmEngineSaver;
pub use langgraph_store::{WasmLangGraphStore, WasmLangGraphStorePage};
pub use listing::WasmListing;
pub use node::{ChannelSpecsArg, NodeArg};
pub use pregel::WasmPregel;
pub use state_graph::WasmStateGraph;
