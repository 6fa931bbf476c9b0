//! Parallel fan-out and a join.

use super::Scenario;

/// a and b in one superstep, c waits for both.
pub const SCENARIO: Scenario = Scenario {
    id: "fanout",
    title: "Fan-out: a ∥ b → c",
    about:
        "a and b run in the same superstep and share one checkpoint; c waits for both (a join). \
            Forking as a alone leaves the join waiting for b, so nothing runs.",
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
