//! Chronograph: LangGraph's checkpoint and time-travel engine in Rust.
