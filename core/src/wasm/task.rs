//! [`TaskContext`]: what a running JS node can ask of the engine. The JS
//! layer keeps the current one where `interrupt()` finds it.

use super::types::{json_from_js, to_js};
use crate::NodeContext;
use wasm_bindgen::prelude::*;

/// The context of one running task (a newtype over the core `NodeContext`).
#[wasm_bindgen]
pub struct TaskContext(NodeContext);

impl TaskContext {
    /// Wraps a core context.
    pub fn new(ctx: NodeContext) -> Self {
        TaskContext(ctx)
    }
}

#[wasm_bindgen]
impl TaskContext {
    /// The node's name.
    #[wasm_bindgen(getter)]
    pub fn node(&self) -> String {
        self.0.node().to_owned()
    }

    /// The task id.
    #[wasm_bindgen(getter, js_name = taskId)]
    pub fn task_id(&self) -> String {
        self.0.task_id().to_owned()
    }

    /// The superstep.
    #[wasm_bindgen(getter)]
    pub fn step(&self) -> f64 {
        self.0.step() as f64
    }

    /// LangGraph's `interrupt(value)`: the answer when this call was already
    /// answered, else throws the `GraphInterrupt` marker that pauses the node.
    pub fn interrupt(&self, value: JsValue) -> Result<JsValue, JsValue> {
        let value = json_from_js(value, "interrupt(value)")?;
        let answer = self.0.interrupt(value)?;
        to_js(&answer)
    }
}
