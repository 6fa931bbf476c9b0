//! A node that asks a human with `interrupt()`.

use super::Scenario;

/// draft → review (interrupts for approval) → publish.
pub const SCENARIO: Scenario = Scenario {
    id: "human-in-the-loop",
    spec: r#"{
  "channels": {"draft": {"reducer": "last_value"}, "approved": {"reducer": "last_value"}, "log": {"reducer": "append"}},
  "nodes": {
    "draft": {"writes": [{"set": {"draft": "Booking for 2 pm", "log": ["draft"]}}]},
    "review": {"writes": [{"interrupt": {"question": "Approve this draft?"}, "resume_to": "approved"}, {"set": {"log": ["review"]}}]},
    "publish": {"writes": [{"set": {"log": ["publish"]}}]}
  },
  "edges": [["__start__", "draft"], ["draft", "review"], ["review", "publish"], ["publish", "__end__"]]
}"#,
    input: r#"{"log": []}"#,
};
