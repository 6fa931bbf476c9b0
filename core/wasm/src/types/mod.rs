//! The data shapes that cross the boundary, and their conversions, one
//! file per kind of shape. Values go out through
//! `serde_wasm_bindgen::Serializer::json_compatible()` (plain objects,
//! `null` for `None`) and come in through the one conversion of JS values
//! into the engine ([`crate::value`]). Shapes follow LangGraph.js:
//! camelCase snapshot fields (`createdAt`, `parentConfig`), snake_case
//! config keys (`thread_id`, `checkpoint_id`, `checkpoint_ns`).
//!
//! - [`args`]: argument readers (strings, names, integers, object entries,
//!   JSON data, Rust types) and the conversion of any value out;
//! - [`config`]: configs in and checkpoint addresses out, list options;
//! - [`snapshot`]: `StateSnapshot`s, their metadata and tasks;
//! - [`command`]: run inputs, `Command`, `Send`, gotos and updates;
//! - [`stream`]: stream modes and the chunks of an engine event, with
//!   [`checkpoint_chunk`] and [`task_chunk`];
//! - [`checkpoint_tuple`]: a stored checkpoint as LangGraph.js's `CheckpointTuple`;
//! - [`shapes`]: where LangGraph.js's forms differ from LangGraph's
//!   (timestamps, task paths, errors, interrupts).

pub mod args;
pub mod checkpoint_chunk;
pub mod checkpoint_tuple;
pub mod command;
pub mod config;
pub mod shapes;
pub mod snapshot;
pub mod stream;
pub mod task_chunk;
