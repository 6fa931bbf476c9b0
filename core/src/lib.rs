//! # Chronograph
//!
//! LangGraph's checkpoint and time-travel engine, rebuilt in Rust: a graph
//! executor with LangGraph's superstep (Pregel) semantics and an in-memory
//! checkpoint saver. Every superstep writes a checkpoint; checkpoints form a
//! parent-pointer tree per thread; replay and fork add branches and never
//! change existing ones. Step numbers, `source` (input/loop/update/fork),
//! `next`, parents, values and error texts match LangGraph's.
//!
//! ```
//! use chronograph::{CompileOptions, InMemorySaver, Reducer, RunnableConfig, StateGraph, END, START};
//! use serde_json::json;
//! use std::rc::Rc;
//!
//! let mut g = StateGraph::new();
//! g.add_channel("messages", Reducer::AddMessages)
//!     .add_node("booking", |_, _| Ok(json!({})))
//!     .add_node("reply", |state, _| {
//!         let n = state.get("messages").and_then(|m| m.len()).unwrap_or(0);
//!         Ok(json!({"messages": [{"type": "ai", "content": format!("reply (saw {n})")}]}))
//!     })
//!     .add_edge(START, "booking")
//!     .add_edge("booking", "reply")
//!     .add_edge("reply", END);
//! let saver = Rc::new(InMemorySaver::new());
//! let app = g.compile(CompileOptions::with_checkpointer(saver))?;
//! let cfg = RunnableConfig::thread("t1");
//!
//! app.invoke(json!({"messages": [{"type": "human", "content": "hi"}]}), &cfg)?;
//! let history = app.get_state_history(&cfg, &Default::default())?;
//! assert_eq!(history.len(), 4); // input -1, loop 0, 1, 2
//!
//! // Replay from the checkpoint before `reply` ran: a fork, then a re-run.
//! let before_reply = history.iter().find(|s| s.next == ["reply"]).unwrap();
//! let id = before_reply.config.checkpoint_id.clone().unwrap();
//! app.invoke(json!(null), &cfg.clone().at(id))?;
//! assert_eq!(app.get_state_history(&cfg, &Default::default())?.len(), 6);
//! # Ok::<(), chronograph::Error>(())
//! ```

// Functions stay short enough to read whole (the default threshold, 100 lines).
#![warn(clippy::too_many_lines)]

/// `From` conversions, one a line: `impl From<A> for B = |a| body;` (the
/// conversions of the enums and newtypes that take node and channel names).
macro_rules! from_impls {
    ($(impl$(<const $n:ident: $nt:ty>)? From<$from:ty> for $to:ty = |$v:ident| $body:expr;)*) => {
        $(
            impl$(<const $n: $nt>)? From<$from> for $to {
                fn from($v: $from) -> Self {
                    $body
                }
            }
        )*
    };
}

mod cache;
mod channels;
mod checkpoint;
mod checkpoint_ns;
pub mod clock;
mod error;
mod graph;
mod import;
mod pregel;
mod reserved;
mod semantics;
mod state;
mod types;

pub use cache::{
    node_namespace, BaseCache, CacheFuture, CacheKey, CachePolicy, CachedWrites, InMemoryCache,
    KeyFn, CACHE_NS_WRITES,
};
pub use channels::{
    add_messages, overwrite_value, ChannelKind, ChannelList, ChannelListIter, ChannelValue,
    CustomReducer, Reducer, OVERWRITE,
};
pub use checkpoint::{
    plan_prune, ChannelVersions, Checkpoint, CheckpointConfig, CheckpointMetadata, CheckpointSaver,
    CheckpointTuple, GivenCheckpoint, GivenVersion, GivenVersions, InMemorySaver, ListOptions,
    ListTarget, Name, PendingWrite, PruneCandidate, PrunePlan, ResolvedVersions, Retention, Source,
    StoredView, ThreadExport, ValueLayout, VecMap, Version, VersionScheme, VersionsSeen,
    EXPORT_FORMAT, NULL_TASK_ID,
};
pub use checkpoint_ns::recast_checkpoint_ns;
pub use error::{Error, ErrorKind, Result};
pub use graph::{
    error_handler_node, parse_document, Branch, ChannelSpec, ChannelWrite, ChannelWriteEntry,
    Channels, CompileOptions, CompileSpec, CompiledGraph, ConditionSpec, ConditionalEdgeSpec,
    EdgeFrom, EdgeSources, EdgeSpec, GraphSpec, NodeAction, NodeBuilder, NodeContext, NodeError,
    NodeFuture, NodeInput, NodeSpec, Pregel, ReducerName, RouterFn, RuleSpec, SpecOp, State,
    StateGraph, TaskPath, Topology, TopologyEdge, WriteMapper, DEFAULT_ERROR_HANDLER_NODE,
};
pub use import::{detect_format, import_thread, import_thread_as, ImportFormat};
pub use semantics::Semantics;
pub use state::{PregelTask, StateSnapshot, StateUpdate, TaskState};
pub use types::{
    Command, Durability, Goto, Interrupt, NodeOutput, Resume, RunInput, RunOutput, RunnableConfig,
    Send, StreamEvent, COPY, DEFAULT_RECURSION_LIMIT, END, INPUT, PARENT, START,
};
