//! Schemas besides the state's (LangGraph's `_add_schema`): a node's input
//! schema, and the graph's own input and output schemas. Each adds the
//! channels the state lacks as private channels and says which channels
//! its reader sees.

use super::StateGraph;
use crate::channels::Reducer;

impl StateGraph {
    /// Gives node `node` an input schema (LangGraph's
    /// `add_node(..., input_schema=...)`): the node reads only these
    /// channels, in this order. A channel the graph's state does not declare
    /// becomes a private channel: any node may write it and nodes whose
    /// schema lists it read it, but a run's input does not write it and its
    /// output does not show it (snapshots and the `values` stream do, as
    /// LangGraph's `stream_channels`). Other nodes then read the state
    /// schema's channels only. A key declared before with another reducer
    /// is LangGraph's "Channel 'k' already exists with a different type"
    /// (unless the new one is a last value, which defers to it).
    pub fn set_node_input(
        &mut self,
        node: impl Into<String>,
        schema: Vec<(String, Reducer)>,
    ) -> &mut Self {
        let node = node.into();
        if !self.nodes.contains_key(&node) {
            return self.fail(format!("Need to add_node `{node}` first"));
        }
        if let Some(keys) = self.add_schema(schema) {
            self.inputs.insert(node, keys);
        }
        self
    }

    /// The graph's input schema (LangGraph's `StateGraph(state, input_schema=...)`):
    /// a run's input writes only these channels (others it names are
    /// dropped). Channels the state lacks are added as by
    /// [`set_node_input`](Self::set_node_input).
    pub fn set_input_schema(&mut self, schema: Vec<(String, Reducer)>) -> &mut Self {
        if let Some(keys) = self.add_schema(schema) {
            self.input_keys = Some(keys);
        }
        self
    }

    /// The graph's output schema (LangGraph's `output_schema`): a run
    /// returns only these channels (and a subgraph hands only them to its
    /// parent). Channels the state lacks are added as by
    /// [`set_node_input`](Self::set_node_input).
    pub fn set_output_schema(&mut self, schema: Vec<(String, Reducer)>) -> &mut Self {
        if let Some(keys) = self.add_schema(schema) {
            self.output_keys = Some(keys);
        }
        self
    }

    /// Adds `schema`'s channels the graph lacks as private channels and
    /// returns its keys; `None` (the mistake remembered for `compile`)
    /// when one redeclares a channel with another reducer.
    fn add_schema(&mut self, schema: Vec<(String, Reducer)>) -> Option<Vec<String>> {
        let mut keys = Vec::with_capacity(schema.len());
        for (key, reducer) in schema {
            match self.channels.get(&key).or_else(|| self.private.get(&key)) {
                Some(existing) => {
                    // Two user functions cannot be told apart here: the
                    // bindings compare them (JS functions by identity).
                    let differs = existing.name() != reducer.name();
                    if differs && !matches!(reducer, Reducer::LastValue) {
                        self.fail(format!(
                            "Channel '{key}' already exists with a different type"
                        ));
                        return None;
                    }
                }
                None => {
                    self.private.insert(key.clone(), reducer);
                }
            }
            keys.push(key);
        }
        Some(keys)
    }
}
