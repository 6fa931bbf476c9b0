//! A research subgraph with a human approval inside it.

use super::Scenario;

/// plan → research[search → write → approve (interrupt)] → publish.
pub const SCENARIO: Scenario = Scenario {
    id: "research",
    spec: r#"{
  "channels": {"topic": {"reducer": "last_value"}, "notes": {"reducer": "last_value"}, "draft": {"reducer": "last_value"}, "approved": {"reducer": "last_value"}, "log": {"reducer": "append"}},
  "nodes": {
    "plan": {"writes": [{"set": {"topic": "time travel", "log": ["plan"]}}]},
    "research": {"subgraph": {
      "channels": {"topic": {"reducer": "last_value"}, "notes": {"reducer": "last_value"}, "draft": {"reducer": "last_value"}, "approved": {"reducer": "last_value"}},
      "nodes": {
        "search": {"writes": [{"set": {"notes": "3 sources"}}]},
        "write": {"writes": [{"set": {"draft": "Draft v1"}}]},
        "approve": {"writes": [{"interrupt": "Approve the draft?", "resume_to": "approved"}]}
      },
      "edges": [["__start__", "search"], ["search", "write"], ["write", "approve"], ["approve", "__end__"]]
    }},
    "publish": {"writes": [{"set": {"log": ["publish"]}}]}
  },
  "edges": [["__start__", "plan"], ["plan", "research"], ["research", "publish"], ["publish", "__end__"]]
}"#,
    input: r#"{"log": []}"#,
};
