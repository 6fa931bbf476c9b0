//! The `"__task_runs"` chunks: every task's start and end, `__start__`'s
//! included, for the JS layer's LangChain callback runs (npm/src/task_runs.ts
//! reports each task as a chain run, as LangGraph.js's tasks are runs of
//! their node's runnable). The other modes hide `__start__`, as LangGraph
//! does; LangGraph.js's callbacks see it (tagged `langsmith:hidden`).

use super::shapes::{js_error, task_path, Interrupts};
use super::types::to_js;
use chronograph::StreamEvent;
use serde::Serialize;
use serde_json::{Map, Value};
use wasm_bindgen::JsValue;

/// A task's start: `{event: "start", id, name, step, input, triggers, path}`,
/// the path as LangGraph.js's `langgraph_path` (`["__pregel_pull", "a"]`).
#[derive(Serialize)]
struct Start<'a> {
    event: &'static str,
    id: &'a str,
    name: &'a str,
    step: i64,
    input: &'a Value,
    triggers: &'a [String],
    path: Vec<Value>,
}

/// A task's end: `{event: "end", id, name, step, result, interrupts, error}`,
/// `result` its writes to state keys as `{key: value}` (the last write of a
/// key wins), `error` `{message, name}` when it failed.
#[derive(Serialize)]
struct End<'a> {
    event: &'static str,
    id: &'a str,
    name: &'a str,
    step: i64,
    result: Map<String, Value>,
    interrupts: Interrupts<'a>,
    error: Option<Value>,
}

/// The chunk of a task's start or end event; `None` for other events.
pub fn task_run_chunk(event: &StreamEvent) -> Result<Option<JsValue>, JsValue> {
    match event {
        StreamEvent::Task {
            id,
            name,
            step,
            input,
            triggers,
            path,
        } => to_js(&Start {
            event: "start",
            id,
            name,
            step: *step,
            input,
            triggers,
            path: task_path(path),
        })
        .map(Some),
        StreamEvent::TaskResult {
            id,
            name,
            step,
            error,
            interrupts,
            result,
        } => to_js(&End {
            event: "end",
            id,
            name,
            step: *step,
            result: result.iter().cloned().collect(),
            interrupts: Interrupts(interrupts),
            error: error.as_deref().map(js_error),
        })
        .map(Some),
        _ => Ok(None),
    }
}
