//! The Pregel superstep engine, in files named after LangGraph's:
//! - [`algo`] (`_algo.py`): pure scheduling and write application;
//! - [`write`](mod@write) (`_write.py`): what a node's output writes, through its writers;
//! - [`push`]: `Send` and PUSH tasks (sends, functional-API calls, error handlers);
//! - `loop` (`_loop.py`): the run loop, one superstep at a time, with
//!   its parts (`_first`, the tick, durability) in files of their own;
//! - [`thread_pool_saves`]: the replay of LangGraph (Python)'s saves on a
//!   thread pool, which decides what a join's stored seen-set holds.

pub(crate) mod algo;
pub(crate) mod delta;
pub(crate) mod r#loop;
pub(crate) mod push;
pub(crate) mod thread_pool_saves;
pub(crate) mod write;
pub(crate) use algo::pull_path;
pub(crate) use r#loop::{run, run_subgraph, run_subgraph_into};
