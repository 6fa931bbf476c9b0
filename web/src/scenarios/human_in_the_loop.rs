//! A node that asks a human with `interrupt()`.

use super::Scenario;

/// draft → review (interrupts for approval) → publish.
pub const SCENARIO: Scenario = Scenario {
    id: "human-in-the-loop",
    title: "Human in the loop: interrupt()",
    about: "review calls interrupt() and the run pauses with no new checkpoint; Resume answers it \
            and review runs again from its first line, this time getting your answer.",
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
