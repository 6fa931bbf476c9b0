//! The chunks of a task's start and end: the `"tasks"` chunk (and the
//! payload of a `"debug"` chunk of type `task` / `task_result`) as
//! LangGraph.js writes it, and the `"__task_runs"` chunk, every task's
//! start and end, `__start__`'s included, for the JS layer's LangChain
//! callback runs (npm/src/langchain/task_runs.ts reports each task as a chain run,
//! as LangGraph.js's tasks are runs of their node's runnable). The other
//! modes hide `__start__`, as LangGraph does; LangGraph.js's callbacks see
//! it (tagged `langsmith:hidden`).

use super::args::to_js;
use super::shapes::{js_error, task_path, Interrupts};
use crate::error::JsResult;
use chronograph::{Interrupt, StreamEvent};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use wasm_bindgen::JsValue;

/// A task's start or end, borrowed from its stream event.
pub(crate) struct TaskEvent<'a> {
    id: &'a str,
    name: &'a str,
    step: i64,
    kind: TaskKind<'a>,
}

/// What a task's start or end carries besides its id, name and step.
enum TaskKind<'a> {
    /// [`StreamEvent::Task`]: its input, triggers and path.
    Start {
        input: &'a Value,
        triggers: &'a [String],
        path: &'a str,
    },
    /// [`StreamEvent::TaskResult`]: its writes, interrupts and error.
    End {
        result: &'a [(String, Value)],
        interrupts: &'a [Interrupt],
        error: Option<&'a str>,
    },
}

impl<'a> TaskEvent<'a> {
    /// The task event `event` is, if it is one.
    pub(crate) fn of(event: &'a StreamEvent) -> Option<Self> {
        let (id, name, step, kind) = match event {
            StreamEvent::Task {
                id,
                name,
                step,
                input,
                triggers,
                path,
            } => (
                id,
                name,
                step,
                TaskKind::Start {
                    input,
                    triggers,
                    path,
                },
            ),
            StreamEvent::TaskResult {
                id,
                name,
                step,
                error,
                interrupts,
                result,
            } => {
                let error = error.as_deref();
                (
                    id,
                    name,
                    step,
                    TaskKind::End {
                        result,
                        interrupts,
                        error,
                    },
                )
            }
            _ => return None,
        };
        Some(TaskEvent {
            id,
            name,
            step: *step,
            kind,
        })
    }

    /// The superstep the task runs in.
    pub(crate) fn step(&self) -> i64 {
        self.step
    }

    /// The `type` of its `"debug"` chunk.
    pub(crate) fn debug_type(&self) -> &'static str {
        match self.kind {
            TaskKind::Start { .. } => "task",
            TaskKind::End { .. } => "task_result",
        }
    }

    /// Its `"__task_runs"` chunk (see [`TaskRun`]).
    pub(crate) fn run_chunk(&self) -> JsResult<JsValue> {
        to_js(&TaskRun(self))
    }
}

/// A `"tasks"` chunk as LangGraph.js writes it: a task starting
/// (`{id, name, input, triggers, interrupts}`) or its result (`{id, name,
/// result, interrupts, error}`, a key written twice as `{$writes: [...]}`).
pub(crate) struct TaskChunk<'a>(pub &'a TaskEvent<'a>);

impl Serialize for TaskChunk<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let task = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("id", task.id)?;
        m.serialize_entry("name", task.name)?;
        match task.kind {
            TaskKind::Start {
                input, triggers, ..
            } => {
                m.serialize_entry("input", input)?;
                m.serialize_entry("triggers", triggers)?;
                m.serialize_entry("interrupts", &[] as &[Value])?;
            }
            TaskKind::End {
                result,
                interrupts,
                error,
            } => {
                m.serialize_entry("result", &result_with_repeats(result))?;
                m.serialize_entry("interrupts", &Interrupts(interrupts))?;
                // LangGraph.js streams the error it stores: `{message, name}`.
                let error = error.map(|e| {
                    let (name, message) = e.split_once(": ").unwrap_or(("Error", e));
                    serde_json::json!({ "message": message, "name": name })
                });
                m.serialize_entry("error", &error)?;
            }
        }
        m.end()
    }
}

/// A task's writes as `{key: value}`, a key written more than once as
/// `{$writes: [...]}` (LangGraph.js's `"tasks"` chunk).
fn result_with_repeats(result: &[(String, Value)]) -> Map<String, Value> {
    let mut map: indexmap::IndexMap<&str, Vec<&Value>> = indexmap::IndexMap::new();
    for (k, v) in result {
        map.entry(k.as_str()).or_default().push(v);
    }
    map.into_iter()
        .map(|(k, vs)| {
            let v = match vs.as_slice() {
                [one] => (*one).clone(),
                many => serde_json::json!({ "$writes": many }),
            };
            (k.to_owned(), v)
        })
        .collect()
}

/// A `"__task_runs"` chunk: a task's start, `{event: "start", id, name,
/// step, input, triggers, path}` (the path as LangGraph.js's
/// `langgraph_path`, `["__pregel_pull", "a"]`), or its end, `{event:
/// "end", id, name, step, result, interrupts, error}` (`result` its writes
/// to state keys as `{key: value}`, the last write of a key winning;
/// `error` `{message, name}` when it failed).
struct TaskRun<'a>(&'a TaskEvent<'a>);

impl Serialize for TaskRun<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let task = self.0;
        let mut m = s.serialize_map(None)?;
        let event = match task.kind {
            TaskKind::Start { .. } => "start",
            TaskKind::End { .. } => "end",
        };
        m.serialize_entry("event", event)?;
        m.serialize_entry("id", task.id)?;
        m.serialize_entry("name", task.name)?;
        m.serialize_entry("step", &task.step)?;
        match task.kind {
            TaskKind::Start {
                input,
                triggers,
                path,
            } => {
                m.serialize_entry("input", input)?;
                m.serialize_entry("triggers", triggers)?;
                m.serialize_entry("path", &task_path(path))?;
            }
            TaskKind::End {
                result,
                interrupts,
                error,
            } => {
                let result: Map<String, Value> = result.iter().cloned().collect();
                m.serialize_entry("result", &result)?;
                m.serialize_entry("interrupts", &Interrupts(interrupts))?;
                m.serialize_entry("error", &error.map(js_error))?;
            }
        }
        m.end()
    }
}
