//! [`WasmPregel`]: the low-level graph builder (core `Pregel`, with
//! `NodeBuilder` nodes) with JS node functions, write mappers and
//! reducers. The JS layer (npm/src/pregel/index.ts) turns LangGraph.js's
//! `new Pregel({ nodes, channels, ... })` with its `Channel.subscribeTo`
//! nodes and channel classes into these calls.

use super::compiled::WasmCompiledGraph;
use super::error::{describe, invalid_argument};
use super::node::{channel_from_js, function_arg, pregel_node_action, write_mapper, StateCache};
use super::state_graph::compile_options;
use super::types::args::{entries, get, is_object, json_from_js, names_arg, string_arg};
use super::types::args::{NameArg, NameListArg, NamesArg};
use super::value::is_array;
use crate::error::JsResult;
use crate::error::OrJs;
use chronograph::{
    ChannelKind, ChannelWrite, ChannelWriteEntry, Channels, NodeAction, NodeBuilder, Pregel, Send,
};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_PREGEL: &str = r#"
/** A channel of a `Pregel` graph (`addChannel`): LangGraph's channel class and its options. */
export type PregelChannelSpec = Exclude<ChannelSpecIn, string | null | undefined> & {
  kind: "LastValue" | "BinaryOperatorAggregate" | "EphemeralValue" | "AnyValue" | "Topic" | "NamedBarrierValue";
  accumulate?: boolean;
  unique?: boolean;
  names?: Names;
};

/** One entry of a node's `ChannelWrite` (`channel_write`): a write, or a `Send`. */
export type ChannelWriteEntryIn =
  | { channel: string; value?: unknown; passthrough?: boolean; skipNone?: boolean; mapper?: ((value: unknown) => unknown) | null }
  | { send: { node: string; args: unknown } };

/** A node of a `Pregel` graph (`addNode`): what it reads, what triggers it, its function and its writers. */
export interface PregelNodeSpec {
  channels: string | string[] | { [key: string]: string };
  triggers: Names;
  bound?: EngineNode | null;
  writers?: ChannelWriteEntryIn[][];
}
"#;

/// A graph of channels and nodes under construction. Argument mistakes are
/// thrown at once; graph mistakes by `compile`, with LangGraph's texts.
#[wasm_bindgen]
pub struct WasmPregel {
    pregel: Pregel,
    cache: Rc<StateCache>,
}

impl Default for WasmPregel {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen]
impl WasmPregel {
    /// An empty graph.
    #[wasm_bindgen(constructor)]
    pub fn new() -> WasmPregel {
        WasmPregel {
            pregel: Pregel::new(),
            cache: Rc::default(),
        }
    }

    /// `addChannel(name, { kind, ... })`: `kind` is LangGraph's channel
    /// class name: `"LastValue"` (`default?`), `"BinaryOperatorAggregate"`
    /// (`reducer`, `default?`), `"EphemeralValue"` (`guard`), `"AnyValue"`,
    /// `"Topic"` (`accumulate`, `unique`), `"NamedBarrierValue"` (`names`).
    #[wasm_bindgen(js_name = addChannel)]
    pub fn add_channel(
        &mut self,
        name: NameArg,
        #[wasm_bindgen(unchecked_param_type = "PregelChannelSpec")] spec: JsValue,
    ) -> JsResult {
        let name = string_arg(&name, "addChannel(name, spec): name")?;
        let what = format!("channels.{name}");
        let kind = string_arg(&get(&spec, "kind"), &format!("{what}.kind"))?;
        let flag = |key: &str| get(&spec, key).as_bool().unwrap_or(false);
        let kind = match kind.as_str() {
            "LastValue" | "BinaryOperatorAggregate" => {
                let (reducer, default) = channel_from_js(&name, &spec)?;
                if let Some(value) = default {
                    self.pregel.set_channel_default(name.clone(), value);
                }
                ChannelKind::binary_operator_aggregate(reducer)
            }
            "EphemeralValue" => ChannelKind::ephemeral_value(flag("guard")),
            "AnyValue" => ChannelKind::any_value(),
            "Topic" if flag("unique") => ChannelKind::unique_topic(flag("accumulate")),
            "Topic" => ChannelKind::topic(flag("accumulate")),
            "NamedBarrierValue" => {
                ChannelKind::named_barrier_value(names_arg(&get(&spec, "names"), &format!("{what}.names"))?)
            }
            other => {
                return Err(invalid_argument(format!(
                    "{what}: a {other} channel is not supported (LastValue, BinaryOperatorAggregate, EphemeralValue, AnyValue, Topic, NamedBarrierValue)"
                )))
            }
        };
        self.pregel.add_channel(name, kind);
        Ok(())
    }

    /// `addNode(name, { channels, triggers, bound?, subgraph?, writers })`:
    /// `channels` is a channel name (its value), an array (the first that
    /// has a value) or an object `{ key: channel }`; `bound` the node's
    /// function (called as npm/src/pregel/runtime.ts `wrapNode` makes it), or
    /// `subgraph` a compiled graph run as the node; `writers` an array of
    /// `ChannelWrite`s, each an array of entries `{ channel, value?,
    /// passthrough, skipNone, mapper? }` or `{ send: { node, args } }`.
    #[wasm_bindgen(js_name = addNode)]
    pub fn add_node(
        &mut self,
        name: NameArg,
        #[wasm_bindgen(unchecked_param_type = "PregelNodeSpec")] spec: JsValue,
        subgraph: Option<WasmCompiledGraph>,
    ) -> JsResult {
        let name = string_arg(&name, "addNode(name, node): name")?;
        let what = format!("nodes.{name}");
        let mut node = read_channels(NodeBuilder::new(), &get(&spec, "channels"), &what)?;
        node = node.triggered_by(names_arg(
            &get(&spec, "triggers"),
            &format!("{what}.triggers"),
        )?);
        let bound = get(&spec, "bound");
        if let Some(graph) = subgraph {
            node = node.action(NodeAction::Subgraph(graph.graph().clone()));
        } else if !bound.is_undefined() && !bound.is_null() {
            let f = function_arg(&bound, &format!("{what}.bound"))?;
            node = node.action(pregel_node_action(name.clone(), f, self.cache.clone()));
        }
        let writers = get(&spec, "writers");
        for (i, writer) in super::value::array_items(&writers)?
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            node = node.writer(channel_write(writer, &format!("{what}.writers[{i}]"))?);
        }
        self.pregel.add_node(name, node);
        Ok(())
    }

    /// `inputChannels`: one channel name (the input itself) or an array.
    #[wasm_bindgen(js_name = setInputChannels)]
    pub fn set_input_channels(&mut self, channels: NameListArg) -> JsResult {
        self.pregel
            .input_channels(channels_arg(&channels, "inputChannels")?);
        Ok(())
    }

    /// `outputChannels`: one channel name (the output itself) or an array.
    #[wasm_bindgen(js_name = setOutputChannels)]
    pub fn set_output_channels(&mut self, channels: NameListArg) -> JsResult {
        self.pregel
            .output_channels(channels_arg(&channels, "outputChannels")?);
        Ok(())
    }

    /// `streamChannels`: what snapshots and `values` chunks show.
    #[wasm_bindgen(js_name = setStreamChannels)]
    pub fn set_stream_channels(&mut self, channels: NameListArg) -> JsResult {
        self.pregel
            .stream_channels(channels_arg(&channels, "streamChannels")?);
        Ok(())
    }

    /// Compiles, with LangGraph.js's semantics (see the `js_semantics` of
    /// `WasmStateGraph.compile`, and `Semantics::pregel_nodes_as_js`), and
    /// no checkpointer: a `Pregel` gets its own, persistent or not, from
    /// `withCheckpointer` on the compiled graph (npm/src/pregel/index.ts).
    pub fn compile(
        &self,
        interrupt_before: NamesArg,
        interrupt_after: NamesArg,
    ) -> Result<WasmCompiledGraph, JsValue> {
        let options = compile_options(None, &interrupt_before, &interrupt_after, false, true)?;
        let graph = self.pregel.compile(options).or_js()?;
        Ok(WasmCompiledGraph::new(graph, self.cache.clone()))
    }
}

/// A channel name or an array of them, as one or several channels.
fn channels_arg(v: &JsValue, what: &str) -> JsResult<Channels> {
    match v.as_string() {
        Some(one) => Ok(Channels::One(one)),
        None if is_array(v) => Ok(Channels::Many(names_arg(v, what)?)),
        None => Err(invalid_argument(format!(
            "{what} must be a channel name or an array of channel names, got {}",
            describe(v)
        ))),
    }
}

/// A node's `channels`: a name, an array (first available) or `{ key: channel }`.
fn read_channels(node: NodeBuilder, channels: &JsValue, what: &str) -> JsResult<NodeBuilder> {
    let what = format!("{what}.channels");
    if let Some(one) = channels.as_string() {
        return Ok(node.read_channel(one));
    }
    if is_array(channels) {
        return Ok(node.read_first_of(names_arg(channels, &what)?));
    }
    if !is_object(channels) {
        return Err(invalid_argument(format!(
            "{what} must be a channel name, an array of them or an object of them, got {}",
            describe(channels)
        )));
    }
    let mut node = node;
    for (key, chan) in entries(channels, &what)? {
        node = node.read_as(key.clone(), string_arg(&chan, &format!("{what}.{key}"))?);
    }
    Ok(node)
}

/// One `ChannelWrite`: an array of entries.
fn channel_write(writer: &JsValue, what: &str) -> JsResult<ChannelWrite> {
    let items = super::value::array_items(writer)?
        .ok_or_else(|| invalid_argument(format!("{what} must be an array of write entries")))?;
    let mut entries = Vec::with_capacity(items.len());
    for (i, entry) in items.iter().enumerate() {
        let what = format!("{what}[{i}]");
        let send = get(entry, "send");
        if !send.is_undefined() {
            let node = string_arg(&get(&send, "node"), &format!("{what}.send.node"))?;
            let arg = json_from_js(get(&send, "args"), &format!("{what}.send.args"))?;
            entries.push(ChannelWriteEntry::send(Send::new(node, arg)));
            continue;
        }
        let channel = string_arg(&get(entry, "channel"), &format!("{what}.channel"))?;
        let passthrough = get(entry, "passthrough").as_bool().unwrap_or(false);
        let mapper = get(entry, "mapper");
        let value = match passthrough {
            true => None,
            false => Some(json_from_js(get(entry, "value"), &format!("{what}.value"))?),
        };
        entries.push(ChannelWriteEntry::Write {
            channel,
            value,
            skip_none: get(entry, "skipNone").as_bool().unwrap_or(false),
            mapper: match mapper.is_undefined() || mapper.is_null() {
                true => None,
                false => Some(write_mapper(function_arg(
                    &mapper,
                    &format!("{what}.mapper"),
                )?)),
            },
        });
    }
    Ok(ChannelWrite(entries))
}
