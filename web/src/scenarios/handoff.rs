//! A multi-agent handoff with `Command(goto=...)`.

use super::Scenario;

/// triage hands off to billing, billing to support, by `goto`.
pub const SCENARIO: Scenario = Scenario {
    id: "handoff",
    title: "Handoff: agents with Command(goto)",
    about: "No edge leaves triage or billing: each agent returns Command(update, goto=next agent), \
            drawn as dashed arrows. Fork as billing and only support runs next: update_state \
            follows a node's edges, never its goto, so here nothing runs.",
    spec: r#"{
  "channels": {"log": {"reducer": "append"}, "agent": {"reducer": "last_value"}},
  "nodes": {
    "triage": {"writes": [{"set": {"log": ["triage: a billing question"], "agent": "billing"}}, {"goto": "billing"}]},
    "billing": {"writes": [{"set": {"log": ["billing: refund issued"], "agent": "support"}}, {"goto": "support"}]},
    "support": {"writes": [{"set": {"log": ["support: confirmed with the customer"]}}]}
  },
  "edges": [["__start__", "triage"], ["support", "__end__"]]
}"#,
    input: r#"{"log": []}"#,
};
