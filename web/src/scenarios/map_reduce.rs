//! Map-reduce with `Send`: one worker task per topic, then a reduce.

use super::Scenario;

/// plan fans out a `Send` per topic to worker; reduce runs once after them.
pub const SCENARIO: Scenario = Scenario {
    id: "map-reduce",
    spec: r#"{
  "channels": {"topics": {"reducer": "last_value"}, "notes": {"reducer": "append"}, "summary": {"reducer": "last_value"}},
  "nodes": {
    "plan": {"writes": [{"set": {"topics": ["cats", "owls", "bees"]}}]},
    "worker": {"writes": [{"collect": "notes", "from": "topic", "prefix": "notes on "}]},
    "reduce": {"writes": [{"set": {"summary": "all notes merged"}}]}
  },
  "edges": [["__start__", "plan"], ["worker", "reduce"], ["reduce", "__end__"]],
  "conditional_edges": [{"from": "plan", "send": {"to": "worker", "each": "topics", "key": "topic"}}]
}"#,
    input: r#"{"notes": []}"#,
};
