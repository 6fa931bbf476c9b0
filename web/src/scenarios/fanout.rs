//! Parallel fan-out and a join.

use super::Scenario;

/// a and b in one superstep, c waits for both.
pub const SCENARIO: Scenario = Scenario {
    id: "fanout",
    spec: r#"{
  "channels": {"log": {"reducer": "append"}, "total": {"reducer": "sum"}},
  "nodes": {
    "a": {"writes": [{"set": {"log": ["a"], "total": 1}}]},
    "b": {"writes": [{"set": {"log": ["b"], "total": 10}}]},
    "c": {"writes": [{"set": {"log": ["c"], "total": 100}}]}
  },
  "edges": [["__start__", "a"], ["__start__", "b"], [["a", "b"], "c"], ["c", "__end__"]]
}"#,
    input: r#"{"log": ["start"], "total": 0}"#,
};
