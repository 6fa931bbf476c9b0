//! The seed's chat graph: `booking → reply` over a `messages` channel.

use super::Scenario;

/// booking → reply, over messages (the lesson's graph).
pub const SCENARIO: Scenario = Scenario {
    id: "chat",
    spec: r#"{
  "channels": {"messages": {"reducer": "add_messages"}},
  "nodes": {
    "booking": {"writes": []},
    "reply": {"writes": [{"reply": "messages", "prefix": "Reply: "}]}
  },
  "edges": [["__start__", "booking"], ["booking", "reply"], ["reply", "__end__"]]
}"#,
    input: r#"{"messages": [{"type": "human", "content": "Is there a slot tomorrow morning?"}]}"#,
};
