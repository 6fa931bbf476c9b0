//! Defining graphs: the [`StateGraph`] builder (Rust closures), the JSON
//! graph format ([`GraphSpec`]), node functions and conditional edges, and
//! the [`CompiledGraph`] that runs them.

mod branch;
mod builder;
mod call;
mod compiled;
mod inner;
mod node;
mod pregel;
mod spec;
mod validate;

pub use branch::{Branch, RouterFn};
pub use builder::{
    error_handler_node, CompileOptions, EdgeSources, StateGraph, DEFAULT_ERROR_HANDLER_NODE,
};
pub use compiled::{CompiledGraph, Topology, TopologyEdge};
pub use node::{NodeAction, NodeContext, NodeError, NodeFuture, State, TaskPath};
pub use pregel::node::{ChannelWrite, ChannelWriteEntry, NodeBuilder, NodeInput, WriteMapper};
pub use pregel::{Channels, Pregel};
pub use spec::parse_document;
pub use spec::{
    ChannelSpec, CompileSpec, ConditionSpec, ConditionalEdgeSpec, EdgeFrom, EdgeSpec, GraphSpec,
    NodeSpec, ReducerName, RuleSpec, SpecOp,
};

pub(crate) use builder::branch_channel;
pub(crate) use call::Call;
pub(crate) use inner::{CompiledNode, FastIndexMap, GraphInner};
pub(crate) use node::{NestedEvents, NullResume, ReplayState, Returned, Scratchpad, TickContext};
pub(crate) use pregel::node::NodeIo;
