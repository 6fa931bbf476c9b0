//! An agent–tool loop with a conditional edge.

use super::Scenario;

/// agent ⇄ tool until count reaches 3.
pub const SCENARIO: Scenario = Scenario {
    id: "agent-loop",
    spec: r#"{
  "channels": {"count": {"reducer": "last_value"}, "trail": {"reducer": "append"}},
  "nodes": {
    "agent": {"writes": [{"incr": "count", "by": 1}, {"set": {"trail": ["agent"]}}]},
    "tool": {"writes": [{"set": {"trail": ["tool"]}}]}
  },
  "edges": [["__start__", "agent"], ["tool", "agent"]],
  "conditional_edges": [{"from": "agent", "when": [{"if": {"channel": "count", "lt": 3}, "to": "tool"}], "else": "__end__"}]
}"#,
    input: r#"{"count": 0, "trail": []}"#,
};
