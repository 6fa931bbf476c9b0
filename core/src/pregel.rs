//! The Pregel superstep engine: pure scheduling and write application
//! (`algo`), node writers (`write`), and the run loop (`runner`).

pub(crate) mod algo;
pub(crate) mod aliasing;
pub(crate) mod runner;
pub(crate) mod write;
pub(crate) use algo::pull_path;
