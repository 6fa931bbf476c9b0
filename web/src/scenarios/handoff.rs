//! A multi-agent handoff with `Command(goto=...)`.

use super::Scenario;

/// triage hands off to billing, billing to support and survey together, by `goto`.
pub const SCENARIO: Scenario = Scenario {
    id: "handoff",
    spec: r#"{
  "channels": {"log": {"reducer": "append"}, "agent": {"reducer": "last_value"}},
  "nodes": {
    "triage": {"writes": [{"set": {"log": ["triage: a billing question"], "agent": "billing"}}, {"goto": "billing"}]},
    "billing": {"writes": [{"set": {"log": ["billing: refund issued"], "agent": "support"}}, {"goto": ["support", "survey"]}]},
    "support": {"writes": [{"set": {"log": ["support: confirmed with the customer"]}}]},
    "survey": {"writes": [{"set": {"log": ["survey: sent"]}}]}
  },
  "edges": [["__start__", "triage"], ["support", "__end__"], ["survey", "__end__"]]
}"#,
    input: r#"{"log": []}"#,
};
