//! [`WasmCompiledGraph`]: a compiled graph (core `CompiledGraph`): runs and
//! the state API. Runs and updates return Promises (nodes and routers may
//! be async); reads are synchronous (the JS layer makes them async). Each
//! run and update is polled in a scope of its own ([`held::scoped`]): the
//! values it holds by reference live as long as it does.

use super::engine_saver::WasmEngineSaver;
use super::error::{invalid_argument, run_error};
use super::held;
use super::listing::WasmListing;
use super::node::{function_arg, StateCache};
use super::types::args::ValueArg;
use super::types::args::{json_from_js, names_arg, optional_name, to_js};
use super::types::checkpoint_chunk::RunConfig;
use super::types::command::{input_from_js, supersteps_from_js, update_from_js};
use super::types::config::{config_from_js, config_to_js, list_options_from_js};
use super::types::config::{ConfigArg, ListOptionsArg};
use super::types::snapshot::snapshot_to_js;
use super::types::stream::{stream_chunks, StreamMode};
use super::types::stream::{ModesArg, OnChunkArg};
use crate::error::JsResult;
use crate::error::OrJs;
use chronograph::{CompiledGraph, RunInput, StateUpdate, StreamEvent, END};
use js_sys::Promise;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

/// A compiled graph.
#[wasm_bindgen]
pub struct WasmCompiledGraph {
    graph: CompiledGraph,
    cache: Rc<StateCache>,
}

impl WasmCompiledGraph {
    /// Wraps a compiled graph and the state cache its JS nodes share.
    pub fn new(graph: CompiledGraph, cache: Rc<StateCache>) -> Self {
        WasmCompiledGraph { graph, cache }
    }

    /// The supersteps of updates `updates` reads, applied on `config`'s
    /// thread (`what` names the call in errors): resolves to the new
    /// checkpoint's config. The config is read first, then the updates,
    /// in the scope of the update, which holds their values by reference.
    fn updated(
        &self,
        config: ConfigArg,
        what: &'static str,
        updates: impl FnOnce() -> JsResult<Vec<Vec<StateUpdate>>> + 'static,
    ) -> Promise {
        let graph = self.graph.clone();
        future_to_promise(held::scoped(async move {
            let config = config_from_js(&config, &format!("{what}: config"))?;
            let saved = graph
                .abulk_update_state(&config, updates()?)
                .await
                .or_js()?;
            config_to_js(&saved)
        }))
    }

    /// The core graph (to run it as another graph's subgraph).
    pub fn graph(&self) -> &CompiledGraph {
        &self.graph
    }
}

/// A stream namespace as LangGraph.js gives it: its levels (`node:task_id`),
/// `[]` for the root graph.
fn namespace_to_js(ns: &str) -> js_sys::Array {
    match ns.is_empty() {
        true => js_sys::Array::new(),
        false => ns.split('|').map(JsValue::from_str).collect(),
    }
}

/// The context of running task `task` a call (`what`) from inside a node
/// joins, and the call's input as JSON.
fn in_task(
    task: u32,
    input: JsValue,
    what: &str,
) -> JsResult<(chronograph::NodeContext, serde_json::Value)> {
    let Some(ctx) = super::task::task_context(task) else {
        return Err(invalid_argument(format!(
            "{what}: called from a node that has finished"
        )));
    };
    Ok((ctx, json_from_js(input, "input")?))
}

/// The run input, with `Command.goto` names checked against the graph's
/// nodes (LangGraph only logs a warning and drops an unknown one).
fn run_input(graph: &CompiledGraph, input: JsValue) -> JsResult<RunInput> {
    let input = input_from_js(input, graph.input_channels().is_some())?;
    if let RunInput::Command(cmd) = &input {
        let nodes = graph.node_names();
        let bad = cmd.goto.iter().find_map(|g| match g {
            chronograph::Goto::Node(n) if n != END && !nodes.contains(n) => Some(n),
            _ => None,
        });
        if let Some(bad) = bad {
            return Err(invalid_argument(format!(
                "Command.goto names an unknown node {bad:?} (nodes: {})",
                nodes.join(", ")
            )));
        }
    }
    Ok(input)
}

#[wasm_bindgen]
impl WasmCompiledGraph {
    /// Runs the graph; resolves to the state values (with `__interrupt__`
    /// when `interrupt()` paused it). Lists are converted through the
    /// graph's state cache: only what changed since the nodes last saw
    /// them crosses to JS.
    #[wasm_bindgen(unchecked_return_type = "Promise<unknown>")]
    pub fn invoke(&self, input: ValueArg, config: ConfigArg) -> Promise {
        let graph = self.graph.clone();
        let cache = self.cache.clone();
        future_to_promise(held::scoped(async move {
            let input = run_input(&graph, input.into())?;
            let config = config_from_js(&config, "config")?;
            let output = graph.ainvoke(input, &config).await.map_err(run_error)?;
            cache.output(&output)
        }))
    }

    /// Runs the graph inside running task `task` (a node function that
    /// calls this graph: LangGraph.js's "subgraph called as a function"):
    /// in that task's namespace, pausing the task when it pauses.
    #[wasm_bindgen(js_name = invokeInTask, unchecked_return_type = "Promise<unknown>")]
    pub fn invoke_in_task(&self, input: ValueArg, task: u32) -> Promise {
        let graph = self.graph.clone();
        future_to_promise(held::scoped(async move {
            let (ctx, input) = in_task(task, input.into(), "invoke(input, config)")?;
            let values = graph.ainvoke_in_task(input, &ctx).await.or_js()?;
            to_js(&values)
        }))
    }

    /// [`invokeInTask`](Self::invoke_in_task), calling `onChunk(mode,
    /// chunk)` for each chunk of the requested modes that the graph's own
    /// loop reports (a node that streams a compiled graph); resolves to
    /// the graph's final state.
    #[wasm_bindgen(js_name = streamInTask, unchecked_return_type = "Promise<unknown>")]
    pub fn stream_in_task(
        &self,
        input: ValueArg,
        task: u32,
        modes: ModesArg,
        on_chunk: OnChunkArg,
    ) -> Promise {
        let graph = self.graph.clone();
        future_to_promise(held::scoped(async move {
            let (ctx, input) = in_task(task, input.into(), "stream(input, config)")?;
            let modes = names_arg(&modes, "streamMode")?
                .iter()
                .map(|m| StreamMode::parse(m))
                .collect::<Result<Vec<_>, _>>()?;
            let on_chunk = function_arg(&on_chunk, "onChunk")?;
            let run = RunConfig::new(ctx.config());
            let mut failure: Option<JsValue> = None;
            let result = {
                let mut sink = |event: StreamEvent| {
                    if failure.is_some() {
                        return;
                    }
                    let sent = stream_chunks(&event, &modes, &run).and_then(|chunks| {
                        chunks.iter().try_for_each(|(mode, chunk)| {
                            on_chunk
                                .call3(
                                    &JsValue::UNDEFINED,
                                    &mode.name().into(),
                                    chunk,
                                    &JsValue::UNDEFINED,
                                )
                                .map(drop)
                        })
                    });
                    failure = sent.err();
                };
                graph.astream_in_task(input, &ctx, &mut sink).await
            };
            if let Some(e) = failure {
                return Err(e);
            }
            let values = result.or_js()?;
            to_js(&values)
        }))
    }

    /// Runs the graph, calling `onChunk(mode, chunk)` for each chunk of the
    /// requested modes as it happens; resolves when the run ends (with
    /// `output`, to what [`invoke`](Self::invoke) resolves to). With
    /// `subgraphs`, the subgraphs' chunks too, as `onChunk(mode, chunk,
    /// namespace)` (`namespace`: an array of `node:task_id` levels, `[]`
    /// for the root graph).
    #[wasm_bindgen(unchecked_return_type = "Promise<unknown>")]
    pub fn stream(
        &self,
        input: ValueArg,
        config: ConfigArg,
        modes: ModesArg,
        on_chunk: OnChunkArg,
        subgraphs: bool,
        output: bool,
    ) -> Promise {
        let graph = self.graph.clone();
        let cache = self.cache.clone();
        future_to_promise(held::scoped(async move {
            let input = run_input(&graph, input.into())?;
            let config = config_from_js(&config, "config")?;
            let modes = names_arg(&modes, "streamMode")?
                .iter()
                .map(|m| StreamMode::parse(m))
                .collect::<Result<Vec<_>, _>>()?;
            let on_chunk = function_arg(&on_chunk, "onChunk")?;
            let run = RunConfig::new(&config);
            let mut failure: Option<JsValue> = None;
            let result = {
                let mut sink = |ns: &str, event: StreamEvent| {
                    if failure.is_some() {
                        return;
                    }
                    let sent = stream_chunks(&event, &modes, &run).and_then(|chunks| {
                        if chunks.is_empty() {
                            return Ok(());
                        }
                        let namespace: JsValue = match subgraphs {
                            true => namespace_to_js(ns).into(),
                            false => JsValue::UNDEFINED,
                        };
                        chunks.iter().try_for_each(|(mode, chunk)| {
                            on_chunk
                                .call3(&JsValue::UNDEFINED, &mode.name().into(), chunk, &namespace)
                                .map(drop)
                        })
                    });
                    failure = sent.err();
                };
                match subgraphs {
                    true => graph.astream_subgraphs(input, &config, &mut sink).await,
                    false => {
                        let mut root = |e: StreamEvent| sink("", e);
                        graph.astream(input, &config, &mut root).await
                    }
                }
            };
            if let Some(e) = failure {
                return Err(e);
            }
            let out = result.map_err(run_error)?;
            match output {
                true => cache.output(&out),
                false => Ok(JsValue::UNDEFINED),
            }
        }))
    }

    /// The state at the addressed checkpoint, or the thread's latest; with
    /// `subgraphs`, each subgraph task's `state` is its subgraph's snapshot.
    #[wasm_bindgen(js_name = getState, unchecked_return_type = "SnapshotOut")]
    pub fn get_state(&self, config: ConfigArg, subgraphs: bool) -> JsResult<JsValue> {
        let config = config_from_js(&config, "getState(config): config")?;
        let snapshot = match subgraphs {
            true => self.graph.get_state_subgraphs(&config).or_js()?,
            false => self.graph.get_state(&config).or_js()?,
        };
        snapshot_to_js(&snapshot)
    }

    /// Snapshots newest first, as a listing (values handed out lazily).
    #[wasm_bindgen(js_name = getStateHistory)]
    pub fn get_state_history(
        &self,
        config: ConfigArg,
        options: ListOptionsArg,
    ) -> JsResult<WasmListing> {
        let config = config_from_js(&config, "getStateHistory(config, options): config")?;
        let options = list_options_from_js(&options, "getStateHistory(config, options): options")?;
        WasmListing::snapshots(self.graph.get_state_history(&config, &options).or_js()?)
    }

    /// The addressed checkpoint (or the latest) and its ancestors, child
    /// first, as a listing (values handed out lazily).
    #[wasm_bindgen(js_name = getLineage)]
    pub fn get_lineage(&self, config: ConfigArg) -> JsResult<WasmListing> {
        let config = config_from_js(&config, "getLineage(config): config")?;
        WasmListing::snapshots(self.graph.lineage(&config).or_js()?)
    }

    /// `updateState(config, values, asNode?)`: resolves to the new checkpoint's config.
    #[wasm_bindgen(js_name = updateState, unchecked_return_type = "Promise<RunConfigOut>")]
    pub fn update_state(
        &self,
        config: ConfigArg,
        values: ValueArg,
        #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] as_node: JsValue,
    ) -> Promise {
        const WHAT: &str = "updateState(config, values, asNode)";
        self.updated(config, WHAT, move || {
            let as_node = optional_name(&as_node, &format!("{WHAT}: asNode"))?;
            let update = update_from_js(values.into(), as_node, &format!("{WHAT}: values"))?;
            Ok(vec![vec![update]])
        })
    }

    /// `bulkUpdateState(config, [{updates: [{values, asNode, taskId?}]}])`.
    #[wasm_bindgen(js_name = bulkUpdateState, unchecked_return_type = "Promise<RunConfigOut>")]
    pub fn bulk_update_state(
        &self,
        config: ConfigArg,
        #[wasm_bindgen(unchecked_param_type = "SuperstepIn[]")] supersteps: JsValue,
    ) -> Promise {
        self.updated(config, "bulkUpdateState(config, supersteps)", move || {
            supersteps_from_js(&supersteps)
        })
    }

    /// The same graph with another checkpointer (a fresh handle,
    /// `saver.share()`, which this consumes; none for `undefined`), and as a
    /// subgraph `persistent` or not: LangGraph.js's `graph.checkpointer = x`.
    #[wasm_bindgen(js_name = withCheckpointer)]
    pub fn with_checkpointer(
        &self,
        checkpointer: Option<WasmEngineSaver>,
        persistent: bool,
    ) -> WasmCompiledGraph {
        let saver = checkpointer.map(|s| s.shared() as Rc<dyn chronograph::CheckpointSaver>);
        WasmCompiledGraph::new(
            self.graph.with_checkpointer(saver, persistent),
            self.cache.clone(),
        )
    }

    /// How many channel values were converted to JS for nodes and routers so
    /// far (unchanged channels are reused, not converted again).
    #[wasm_bindgen(getter, js_name = stateConversions)]
    pub fn state_conversions(&self) -> f64 {
        self.cache.conversions() as f64
    }

    /// How many values were converted to JS for nodes and routers so far,
    /// counting list items one by one: a list that grew costs its new items
    /// only.
    #[wasm_bindgen(getter, js_name = stateItemsConverted)]
    pub fn state_items_converted(&self) -> f64 {
        self.cache.converted_items() as f64
    }
}
