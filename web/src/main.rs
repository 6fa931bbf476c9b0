//! Chronograph's browser visualizer (placeholder until the app lands).
fn main() {}
