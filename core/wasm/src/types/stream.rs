//! Stream chunks: the modes a run streams ([`StreamMode`]) and the chunks
//! one engine event gives in them ([`stream_chunks`]), in LangGraph.js's
//! shapes: `"values"`, `"updates"`, `"checkpoints"` ([`super::checkpoint_chunk`]),
//! `"tasks"` ([`super::task_chunk`]), `"debug"` (those wrapped as `{type,
//! timestamp, step, payload}`), and the package's internal modes.

use super::args::to_js;
use super::checkpoint_chunk::{CheckpointChunk, CheckpointEvent, RunConfig};
use super::shapes::Interrupts;
use super::task_chunk::{TaskChunk, TaskEvent};
use crate::error::invalid_argument;
use crate::error::JsResult;
use chronograph::{Interrupt, StreamEvent, START};
use serde::Serialize;
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_STREAM: &str = r#"
/** The modes a run streams (`StreamMode::parse`); the `__` ones are the package's own. */
export type EngineStreamMode = "values" | "updates" | "checkpoints" | "tasks" | "debug" | "__task_runs" | "__checkpoint_meta";

/**
 * Called with each chunk of a run's stream (`stream_chunks`): its mode
 * (`"custom"` for what a subgraph's node sent to `config.writer`), the
 * chunk, and with `subgraphs` its namespace (`node:task_id` levels, `[]`
 * for the root graph).
 */
export type OnChunk = (mode: EngineStreamMode | "custom", chunk: unknown, namespace: string[] | undefined) => void;
"#;

#[wasm_bindgen]
extern "C" {
    /// The modes a run streams: one or several ([`StreamMode::parse`] each).
    #[wasm_bindgen(typescript_type = "EngineStreamMode | EngineStreamMode[]")]
    pub type ModesArg;

    /// The function a run's chunks go to (`OnChunk`).
    #[wasm_bindgen(typescript_type = "OnChunk")]
    pub type OnChunkArg;
}

/// The stream modes the package supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamMode {
    /// The full state after each superstep.
    Values,
    /// `{node: update}` as each node finishes.
    Updates,
    /// Each saved checkpoint.
    Checkpoints,
    /// Task starts and results.
    Tasks,
    /// Checkpoints, task starts and results, wrapped as `{type, timestamp, step, payload}`.
    Debug,
    /// Every task's start and end, `__start__`'s too (`"__task_runs"`): what
    /// the JS layer reports to LangChain callbacks as the tasks' chain runs
    /// (npm/src/langchain/task_runs.ts). Internal to the package.
    TaskRuns,
    /// What checkpoint each state is, `{id, parent_id?, step, source}`
    /// (`"__checkpoint_meta"`), before the state: `streamEvents` v3's
    /// `checkpoints` envelopes (npm/src/stream/run_stream.ts). Internal to the package.
    CheckpointMeta,
    /// What a subgraph's node sent to `config.writer` (the JS layer's token
    /// for it, see `taskCustom`): not a mode the engine is asked for (the
    /// JS layer streams `"custom"` itself), only the name of these chunks.
    Custom,
}

impl StreamMode {
    /// Parses a mode name.
    pub fn parse(name: &str) -> JsResult<StreamMode> {
        Ok(match name {
            "values" => StreamMode::Values,
            "updates" => StreamMode::Updates,
            "checkpoints" => StreamMode::Checkpoints,
            "tasks" => StreamMode::Tasks,
            "debug" => StreamMode::Debug,
            "__task_runs" => StreamMode::TaskRuns,
            "__checkpoint_meta" => StreamMode::CheckpointMeta,
            other => {
                return Err(invalid_argument(format!(
                    "streamMode {other:?} is not supported; use \"values\", \"updates\", \"checkpoints\", \"tasks\" or \"debug\""
                )))
            }
        })
    }

    /// The mode's name.
    pub fn name(self) -> &'static str {
        match self {
            StreamMode::Values => "values",
            StreamMode::Updates => "updates",
            StreamMode::Checkpoints => "checkpoints",
            StreamMode::Tasks => "tasks",
            StreamMode::Debug => "debug",
            StreamMode::TaskRuns => "__task_runs",
            StreamMode::CheckpointMeta => "__checkpoint_meta",
            StreamMode::Custom => "custom",
        }
    }
}

/// A `"debug"` chunk: `{step, type, timestamp, payload}`.
#[derive(Serialize)]
struct DebugChunk<T> {
    step: i64,
    #[serde(rename = "type")]
    kind: &'static str,
    timestamp: String,
    payload: T,
}

/// The chunks one core event gives in the requested modes, as `(mode, chunk)`.
/// The `__start__` task is hidden, as in LangGraph (`TAG_HIDDEN`).
pub fn stream_chunks(
    event: &StreamEvent,
    modes: &[StreamMode],
    run: &RunConfig,
) -> JsResult<Vec<(StreamMode, JsValue)>> {
    let mut out = Vec::new();
    let wants = |m: StreamMode| modes.contains(&m);
    let task = TaskEvent::of(event);
    if let (true, Some(task)) = (wants(StreamMode::TaskRuns), &task) {
        out.push((StreamMode::TaskRuns, task.run_chunk()?));
    }
    match event {
        StreamEvent::Values(v) if wants(StreamMode::Values) => {
            out.push((StreamMode::Values, to_js(v)?));
        }
        // Queued only at the JS layer's request (`taskCustom`), whatever the modes.
        StreamEvent::Custom(v) => out.push((StreamMode::Custom, to_js(v)?)),
        StreamEvent::Updates { node, .. }
        | StreamEvent::CachedUpdates { node, .. }
        | StreamEvent::Task { name: node, .. }
        | StreamEvent::TaskResult { name: node, .. }
            if node == START => {}
        StreamEvent::Updates { node, update } if wants(StreamMode::Updates) => {
            out.push((StreamMode::Updates, update_chunk(node, update, false)?));
        }
        StreamEvent::CachedUpdates { node, update } if wants(StreamMode::Updates) => {
            out.push((StreamMode::Updates, update_chunk(node, update, true)?));
        }
        StreamEvent::CheckpointMeta {
            id,
            parent_id,
            step,
            source,
        } if wants(StreamMode::CheckpointMeta) => {
            let mut envelope = Map::new();
            envelope.insert("id".into(), id.as_str().into());
            if let Some(parent) = parent_id {
                envelope.insert("parent_id".into(), parent.as_str().into());
            }
            envelope.insert("step".into(), (*step).into());
            envelope.insert("source".into(), source.as_str().into());
            out.push((StreamMode::CheckpointMeta, to_js(&envelope)?));
        }
        StreamEvent::Interrupted(list) => interrupt_chunks(&mut out, modes, list)?,
        StreamEvent::Checkpoint {
            config,
            metadata,
            parent_config,
            parent_in_run,
            values,
            next,
            tasks,
        } => {
            let event = CheckpointEvent {
                config,
                metadata,
                parent_config: parent_config.as_ref(),
                parent_in_run: *parent_in_run,
                values,
                next,
                tasks,
            };
            checkpoint_chunks(&mut out, modes, CheckpointChunk::new(event, run))?;
        }
        _ => {
            if let Some(task) = &task {
                task_chunks(&mut out, modes, task)?;
            }
        }
    }
    Ok(out)
}

/// A pause: `{__interrupt__: [...]}`. LangGraph.js reports it in both
/// modes (`_outputWrites`, `finishAndHandleError`); LangGraph (Python) in
/// "updates" only.
fn interrupt_chunks(
    out: &mut Vec<(StreamMode, JsValue)>,
    modes: &[StreamMode],
    list: &[Interrupt],
) -> JsResult {
    for mode in [StreamMode::Updates, StreamMode::Values] {
        if modes.contains(&mode) {
            let mut chunk = std::collections::BTreeMap::new();
            chunk.insert("__interrupt__", Interrupts(list));
            out.push((mode, to_js(&chunk)?));
        }
    }
    Ok(())
}

/// A checkpoint's `"checkpoints"` chunk, and its `"debug"` chunk of type `checkpoint`.
fn checkpoint_chunks(
    out: &mut Vec<(StreamMode, JsValue)>,
    modes: &[StreamMode],
    chunk: CheckpointChunk,
) -> JsResult {
    if modes.contains(&StreamMode::Checkpoints) {
        out.push((StreamMode::Checkpoints, to_js(&chunk)?));
    }
    if modes.contains(&StreamMode::Debug) {
        let step = chunk.step();
        out.push((StreamMode::Debug, debug("checkpoint", step, chunk)?));
    }
    Ok(())
}

/// An "updates" chunk: `{node: update}`, and for a task that finished in
/// an earlier run `"__metadata__": {"cached": true}`. LangGraph.js reports
/// a node that wrote nothing as `{}` (LangGraph: `None`).
fn update_chunk(node: &str, update: &Value, cached: bool) -> JsResult<JsValue> {
    let mut map = Map::new();
    let update = match update {
        Value::Null => Value::Object(Map::new()),
        other => other.clone(),
    };
    map.insert(node.to_owned(), update);
    if cached {
        map.insert("__metadata__".into(), serde_json::json!({ "cached": true }));
    }
    to_js(&map)
}

/// A task's `"tasks"` chunk, and its `"debug"` chunk of type `task` or `task_result`.
fn task_chunks(
    out: &mut Vec<(StreamMode, JsValue)>,
    modes: &[StreamMode],
    task: &TaskEvent,
) -> JsResult {
    if modes.contains(&StreamMode::Tasks) {
        out.push((StreamMode::Tasks, to_js(&TaskChunk(task))?));
    }
    if modes.contains(&StreamMode::Debug) {
        let chunk = debug(task.debug_type(), task.step(), TaskChunk(task))?;
        out.push((StreamMode::Debug, chunk));
    }
    Ok(())
}

/// A `"debug"` chunk of `payload`, stamped with the time now.
fn debug<T: Serialize>(kind: &'static str, step: i64, payload: T) -> JsResult<JsValue> {
    to_js(&DebugChunk {
        kind,
        timestamp: String::from(js_sys::Date::new_0().to_iso_string()),
        step,
        payload,
    })
}
