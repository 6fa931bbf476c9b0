//! [`WasmStateGraph`]: the graph builder (core `StateGraph`) with JS node
//! functions, routers and reducers.

use super::cache::{cache_policy, JsCache};
use super::clock::DateClock;
use super::compiled::WasmCompiledGraph;
use super::engine_saver::WasmEngineSaver;
use super::error::{describe, invalid_argument};
use super::js_graph_saver::JsGraphSaver;
use super::node::{channel_from_js, function_arg, node_action, router, StateCache};
use super::node::{ChannelSpecsArg, NodeArg};
use super::types::args::{entries, from_js, get, is_object, names_arg, string_arg};
use super::types::args::{NameArg, NameListArg, NamesArg};
use super::value::{document_from_js, is_array};
use crate::error::JsResult;
use crate::error::OrJs;
use chronograph::{
    BaseCache, Branch, CheckpointSaver, CompileOptions, GraphSpec, Reducer, Semantics, StateGraph,
};
use std::collections::BTreeMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A graph under construction. Graph mistakes (unknown nodes, reserved
/// names) are reported by `compile`, with LangGraph's texts; argument
/// mistakes (a name that is not a string, a node that is not a function)
/// are thrown at once.
#[wasm_bindgen]
pub struct WasmStateGraph {
    graph: StateGraph,
    spec: Option<GraphSpec>,
    cache: Rc<StateCache>,
}

#[wasm_bindgen]
impl WasmStateGraph {
    /// `new StateGraph({name: "last_value" | "append" | "sum" | "add_messages" | {reducer?, default?}})`
    /// (the JS layer turns LangGraph.js's state definitions into this form).
    #[wasm_bindgen(constructor)]
    pub fn new(channels: ChannelSpecsArg) -> JsResult<WasmStateGraph> {
        if !is_object(&channels) {
            return Err(invalid_argument(format!(
                "new StateGraph(channels): channels must be an object mapping channel names to reducers, got {}",
                describe(&channels)
            )));
        }
        let mut graph = StateGraph::new();
        for (name, spec) in entries(&channels, "new StateGraph(channels): channels")? {
            let (reducer, default) = channel_from_js(&name, &spec)?;
            if let Some(value) = default {
                graph.set_channel_default(name.clone(), value);
            }
            // `{delta: snapshotFrequency}`: LangGraph.js's DeltaChannel.
            if let Some(frequency) = delta_frequency(&spec) {
                graph.set_delta_channel(name.clone(), frequency);
            }
            graph.add_channel(name, reducer);
        }
        Ok(WasmStateGraph {
            graph,
            spec: None,
            cache: Rc::default(),
        })
    }

    /// A builder from the JSON graph format (built-in ops as nodes).
    #[wasm_bindgen(js_name = fromSpec)]
    pub fn from_spec(
        #[wasm_bindgen(unchecked_param_type = "object")] spec: JsValue,
    ) -> JsResult<WasmStateGraph> {
        let value = document_from_js(&spec, "StateGraph.fromSpec(spec): spec")?;
        let mut parsed = GraphSpec::from_value(&value).or_js()?;
        // The JSON value sorts object keys: restore the document's order
        // (nodes register, and so schedule, in it).
        in_document_order(&mut parsed, &spec);
        let spec = parsed;
        let graph = spec.to_state_graph().or_js()?;
        Ok(WasmStateGraph {
            graph,
            spec: Some(spec),
            cache: Rc::default(),
        })
    }

    /// `addNode(name, fn, ends?)`: `ends` lists where a `Command` the node
    /// returns may go (drawn as conditional edges, checked by `compile`).
    #[wasm_bindgen(js_name = addNode)]
    pub fn add_node(&mut self, name: NameArg, f: NodeArg, ends: NamesArg) -> JsResult {
        let name = string_arg(&name, "addNode(name, fn): name")?;
        let f = function_arg(&f, &format!("addNode({name:?}, fn): fn"))?;
        let ends = names_arg(
            &ends,
            &format!("addNode({name:?}, fn, options): options.ends"),
        )?;
        let action = node_action(name.clone(), f, self.cache.clone());
        self.graph.add_node_action(name.clone(), action);
        self.add_ends(name, ends);
        Ok(())
    }

    /// `addNode(name, compiledGraph, ends?)`: the compiled graph runs as a
    /// subgraph (its checkpoints in the task's namespace of this graph's
    /// checkpointer; its final state is the node's update).
    #[wasm_bindgen(js_name = addSubgraph)]
    pub fn add_subgraph(
        &mut self,
        name: NameArg,
        graph: &WasmCompiledGraph,
        ends: NamesArg,
    ) -> JsResult {
        let name = string_arg(&name, "addNode(name, graph): name")?;
        let ends = names_arg(
            &ends,
            &format!("addNode({name:?}, graph, options): options.ends"),
        )?;
        self.graph.add_subgraph(name.clone(), graph.graph().clone());
        self.add_ends(name, ends);
        Ok(())
    }

    /// `addNode(name, action, { input })`: node `name` reads only the
    /// channels of its input schema, given in the constructor's form
    /// (`{key: reducer | {reducer?, default?}}`); keys the state lacks
    /// become private channels (core `StateGraph::set_node_input`).
    #[wasm_bindgen(js_name = setNodeInput)]
    pub fn set_node_input(&mut self, name: NameArg, channels: ChannelSpecsArg) -> JsResult {
        let name = option_node(&name)?;
        let what = format!("addNode({name:?}, action, options): options.input");
        let schema = self.schema_from_js(&channels, &what)?;
        self.graph.set_node_input(name, schema);
        Ok(())
    }

    /// `addNode(name, action, { defer: true })`: the node runs only once
    /// the run would otherwise end (core `StateGraph::set_node_defer`).
    #[wasm_bindgen(js_name = setNodeDefer)]
    pub fn set_node_defer(&mut self, name: NameArg) -> JsResult {
        let name = option_node(&name)?;
        self.graph.set_node_defer(name, true);
        Ok(())
    }

    /// `addNode(name, fn, { errorHandler })`: `handler` (a node function,
    /// which reads its failure with `taskNodeError`) runs when a task of
    /// node `name` fails (core `StateGraph::set_node_error_handler`).
    #[wasm_bindgen(js_name = setNodeErrorHandler)]
    pub fn set_node_error_handler(&mut self, name: NameArg, handler: NodeArg) -> JsResult {
        let name = option_node(&name)?;
        let what = format!("addNode({name:?}, action, options): options.errorHandler");
        let f = function_arg(&handler, &what)?;
        let action = node_action(
            chronograph::error_handler_node(&name),
            f,
            self.cache.clone(),
        );
        self.graph.set_node_error_handler(name, action);
        Ok(())
    }

    /// `setNodeDefaults({ errorHandler })` as the graph compiles: the
    /// handler of every node without its own (`undefined`: none).
    #[wasm_bindgen(js_name = setDefaultErrorHandler)]
    pub fn set_default_error_handler(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "EngineNode | undefined")] handler: JsValue,
    ) -> JsResult {
        let action = match handler.is_undefined() {
            true => None,
            false => {
                let f = function_arg(&handler, "setNodeDefaults(defaults).errorHandler")?;
                let name = chronograph::DEFAULT_ERROR_HANDLER_NODE.to_owned();
                Some(node_action(name, f, self.cache.clone()))
            }
        };
        self.graph.set_default_error_handler(action);
        Ok(())
    }

    /// A node's `cachePolicy` as the JS layer resolves it: `keyOf(input)`
    /// returns the text its cache key hashes, entries live `ttl` seconds
    /// (`undefined`: for ever); `keyOf` `undefined` removes the policy.
    #[wasm_bindgen(js_name = setNodeCachePolicy)]
    pub fn set_node_cache_policy(
        &mut self,
        name: NameArg,
        #[wasm_bindgen(unchecked_param_type = "((input: unknown) => unknown) | undefined")] key_of: JsValue,
        ttl: Option<f64>,
    ) -> JsResult {
        let name = option_node(&name)?;
        let policy = match key_of.is_undefined() {
            true => None,
            false => {
                let what = format!("addNode({name:?}, action, options): options.cachePolicy");
                let key_of = function_arg(&key_of, &what)?;
                Some(cache_policy(key_of, ttl, self.cache.clone()))
            }
        };
        self.graph.set_node_cache_policy(name, policy);
        Ok(())
    }

    /// `new StateGraph({ state, input })`'s input schema, in the
    /// constructor's form: a run's input writes only its channels.
    #[wasm_bindgen(js_name = setInputSchema)]
    pub fn set_input_schema(&mut self, channels: ChannelSpecsArg) -> JsResult {
        let schema = self.schema_from_js(&channels, "new StateGraph(options): options.input")?;
        self.graph.set_input_schema(schema);
        Ok(())
    }

    /// `new StateGraph({ state, output })`'s output schema, in the
    /// constructor's form: a run returns only its channels.
    #[wasm_bindgen(js_name = setOutputSchema)]
    pub fn set_output_schema(&mut self, channels: ChannelSpecsArg) -> JsResult {
        let schema = self.schema_from_js(&channels, "new StateGraph(options): options.output")?;
        self.graph.set_output_schema(schema);
        Ok(())
    }

    /// `addEdge(from | [from, ...], to)`.
    #[wasm_bindgen(js_name = addEdge)]
    pub fn add_edge(&mut self, from: NameListArg, to: NameArg) -> JsResult {
        let sources = names_arg(&from, "addEdge(from, to): from")?;
        if sources.is_empty() {
            return Err(invalid_argument(
                "addEdge(from, to): from must be a node name or a non-empty array of node names",
            ));
        }
        let to = string_arg(&to, "addEdge(from, to): to")?;
        self.graph.add_edge(sources, to);
        Ok(())
    }

    /// `addConditionalEdges(from, router, pathMap?)`; `pathMap` maps router
    /// results to nodes (an object) or lists the possible destinations (an array).
    #[wasm_bindgen(js_name = addConditionalEdges)]
    pub fn add_conditional_edges(
        &mut self,
        from: NameArg,
        #[wasm_bindgen(unchecked_param_type = "EngineRouter")] route: JsValue,
        #[wasm_bindgen(
            unchecked_param_type = "{ [result: string]: string } | string[] | null | undefined"
        )]
        path_map: JsValue,
    ) -> JsResult {
        let from = string_arg(&from, "addConditionalEdges(from, router, pathMap): from")?;
        let f = function_arg(&route, "addConditionalEdges(from, router, pathMap): router")?;
        let what = "addConditionalEdges(from, router, pathMap): pathMap";
        let route = router(from.clone(), f, self.cache.clone());
        let branch = if path_map.is_undefined() || path_map.is_null() {
            Branch::new(route, None)
        } else if is_array(&path_map) {
            Branch::new(route, None).with_ends(names_arg(&path_map, what)?)
        } else {
            let map: BTreeMap<String, String> = from_js(path_map, what)?;
            Branch::new(route, Some(map))
        };
        self.graph.add_branch(from, branch);
        Ok(())
    }

    /// `compile({checkpointer, interruptBefore, interruptAfter})`; the JS
    /// layer passes the options unpacked, and the checkpointer as a fresh
    /// handle (`saver.share()`), which this call consumes.
    ///
    /// `persistent`: LangGraph.js's `compile({ checkpointer: true })` for a
    /// graph run as a subgraph (one history per thread, in its node's namespace).
    /// `js_semantics`: where LangGraph.js and LangGraph (Python) differ,
    /// follow LangGraph.js (`Semantics::langgraph_js`); the JS layer's
    /// `compile({ pythonSemantics: true })` turns it off for the Python
    /// conformance traces.
    /// `cache`: LangGraph.js's `compile({ cache })`, a JS cache object
    /// (see `cache::JsCache`), or `undefined`.
    #[allow(clippy::too_many_arguments)]
    pub fn compile(
        &self,
        checkpointer: Option<WasmEngineSaver>,
        interrupt_before: NamesArg,
        interrupt_after: NamesArg,
        persistent: bool,
        js_semantics: bool,
        #[wasm_bindgen(unchecked_param_type = "EngineCache | null | undefined")] cache: JsValue,
    ) -> Result<WasmCompiledGraph, JsValue> {
        let mut options = compile_options(
            checkpointer,
            &interrupt_before,
            &interrupt_after,
            persistent,
            js_semantics,
        )?;
        if !(cache.is_undefined() || cache.is_null()) {
            options.cache = Some(Rc::new(JsCache::new(cache)) as Rc<dyn BaseCache>);
        }
        if let Some(spec) = &self.spec {
            options = spec.compile_options(options);
        }
        let graph = self.graph.compile(options).or_js()?;
        Ok(WasmCompiledGraph::new(graph, self.cache.clone()))
    }
}

/// The node an option of `addNode(name, action, options)` is set on (the
/// JS layer sets each option with its own call, after the node).
fn option_node(name: &NameArg) -> JsResult<String> {
    string_arg(name, "addNode(name, action, options): name")
}

/// The compile options of a graph made in JS (a `StateGraph` or a
/// `Pregel`): the run's clock and a random id seed, the checkpointer (a
/// fresh handle, consumed), breakpoints, and with `js_semantics`
/// LangGraph.js's rules where they differ from LangGraph (Python)'s
/// ([`Semantics::langgraph_js`]; each kind of graph applies those that
/// concern it). Without, LangGraph's rules, JavaScript's `undefined` still
/// stored as LangGraph.js's serializer stores it.
pub(crate) fn compile_options(
    checkpointer: Option<WasmEngineSaver>,
    interrupt_before: &JsValue,
    interrupt_after: &JsValue,
    persistent: bool,
    js_semantics: bool,
) -> Result<CompileOptions, JsValue> {
    Ok(CompileOptions {
        persistent,
        semantics: match js_semantics {
            true => Semantics::langgraph_js(),
            false => Semantics {
                js_undefined: Some(super::records::undefined_json()),
                ..Semantics::langgraph()
            },
        },
        // Stored as LangGraph.js's serializer stores values (see `js_graph_saver.rs`).
        checkpointer: checkpointer
            .map(|s| Rc::new(JsGraphSaver(s.shared())) as Rc<dyn CheckpointSaver>),
        interrupt_before: names_arg(interrupt_before, "compile(options): interruptBefore")?,
        interrupt_after: names_arg(interrupt_after, "compile(options): interruptAfter")?,
        clock: Some(Rc::new(DateClock)),
        seed: Some((js_sys::Math::random() * 9_007_199_254_740_992.0) as u64),
        ..Default::default()
    })
}

impl WasmStateGraph {
    /// A schema in the constructor's form as core channels; the defaults of
    /// channels the graph does not have yet are set (one the graph has
    /// keeps its own, as LangGraph.js's `_addSchema` keeps the channel).
    fn schema_from_js(
        &mut self,
        channels: &JsValue,
        what: &str,
    ) -> JsResult<Vec<(String, Reducer)>> {
        if !is_object(channels) {
            return Err(invalid_argument(format!(
                "{what} must map channel names to reducers, got {}",
                describe(channels)
            )));
        }
        let mut schema = Vec::new();
        for (key, spec) in entries(channels, what)? {
            let (reducer, default) = channel_from_js(&key, &spec)?;
            if let (Some(value), false) = (default, self.graph.has_channel(&key)) {
                self.graph.set_channel_default(key.clone(), value);
            }
            schema.push((key, reducer));
        }
        Ok(schema)
    }
}

/// Puts `spec`'s channels and nodes (and its subgraphs', recursively) in
/// the key order of the JS object `js` it was read from.
fn in_document_order(spec: &mut GraphSpec, js: &JsValue) {
    let keys = |v: &JsValue| -> Vec<String> {
        match v.dyn_ref::<js_sys::Object>() {
            Some(o) => js_sys::Object::keys(o)
                .iter()
                .filter_map(|k| k.as_string())
                .collect(),
            None => Vec::new(),
        }
    };
    let position = |order: &[String], key: &str| order.iter().position(|k| k == key);
    let channels = keys(&get(js, "channels"));
    spec.channels
        .sort_by_cached_key(|k, _| position(&channels, k));
    let nodes_js = get(js, "nodes");
    let nodes = keys(&nodes_js);
    spec.nodes.sort_by_cached_key(|k, _| position(&nodes, k));
    for (name, node) in spec.nodes.iter_mut() {
        if let Some(sub) = node.subgraph.as_deref_mut() {
            in_document_order(sub, &get(&get(&nodes_js, name), "subgraph"));
        }
    }
}

impl WasmStateGraph {
    fn add_ends(&mut self, name: String, ends: Vec<String>) {
        if !ends.is_empty() {
            self.graph.add_destinations(name, ends);
        }
    }
}

/// A channel declaration's `delta` (LangGraph.js's `DeltaChannel`
/// `snapshotFrequency`), when it has one.
fn delta_frequency(spec: &JsValue) -> Option<u64> {
    if !is_object(spec) {
        return None;
    }
    let frequency = get(spec, "delta").as_f64()?;
    // Integral and positive: the npm layer checked it as LangGraph.js does.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    (frequency >= 1.0).then_some(frequency as u64)
}
