//! `a → b` writing a last-value counter.

use super::Scenario;

/// a sets step to 1, b adds 1.
pub const SCENARIO: Scenario = Scenario {
    id: "counter",
    spec: r#"{
  "channels": {"step": {"reducer": "last_value"}},
  "nodes": {"a": {"writes": [{"set": {"step": 1}}]}, "b": {"writes": [{"incr": "step", "by": 1}]}},
  "edges": [["__start__", "a"], ["a", "b"], ["b", "__end__"]]
}"#,
    input: r#"{"step": 0}"#,
};
