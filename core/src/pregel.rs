//! The Pregel superstep engine, in files named after LangGraph's:
//! - [`algo`] (`_algo.py`): pure scheduling and write application;
//! - [`write`](mod@write) (`_write.py`): what a node's output writes, through its writers;
//! - `loop` (`_loop.py`): the run loop, one superstep at a time, with
//!   its parts (`_first`, the tick, durability) in files of their own;
//! - [`aliasing`]: the replay of LangGraph's thread pool that decides what
//!   a join's stored seen-set holds.

pub(crate) mod algo;
pub(crate) mod aliasing;
pub(crate) mod r#loop;
pub(crate) mod write;
pub(crate) use algo::pull_path;
pub(crate) use r#loop::{run, run_subgraph, run_subgraph_into};
