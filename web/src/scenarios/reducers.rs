//! foo (last value) and bar (append): the LangGraph docs' reducer example.

use super::Scenario;

/// node_a then node_b, each writing foo and appending to bar.
pub const SCENARIO: Scenario = Scenario {
    id: "reducers",
    spec: r#"{
  "channels": {"foo": {"reducer": "last_value"}, "bar": {"reducer": "append"}},
  "nodes": {
    "node_a": {"writes": [{"set": {"foo": "a", "bar": ["a"]}}]},
    "node_b": {"writes": [{"set": {"foo": "b", "bar": ["b"]}}]}
  },
  "edges": [["__start__", "node_a"], ["node_a", "node_b"], ["node_b", "__end__"]]
}"#,
    input: r#"{"foo": "", "bar": []}"#,
};
