//! Built-in scenarios: graphs in the JSON graph format
//! (`tests/conformance/FORMAT.md`), each with a first input.

mod agent_loop;
mod chat;
mod counter;
mod fanout;
mod handoff;
mod human_in_the_loop;
mod map_reduce;
mod reducers;
mod research;

use crate::i18n::Strings;
use chronograph::GraphSpec;
use serde_json::Value;

/// A graph the app can load from the Scenario picker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// Stable id, used in the URL and in saved sessions.
    pub id: &'static str,
    /// The graph, in the JSON graph format.
    pub spec: &'static str,
    /// A first input for the JSON input box (chat scenarios use the message box).
    pub input: &'static str,
}

impl Scenario {
    /// The picker's text, in the language of `t`.
    pub fn title(&self, t: &Strings) -> &'static str {
        self.words(t).0
    }

    /// One or two sentences on what the scenario shows, in the language of `t`.
    pub fn about(&self, t: &Strings) -> &'static str {
        self.words(t).1
    }

    fn words(&self, t: &Strings) -> (&'static str, &'static str) {
        match self.id {
            "agent-loop" => (t.scenario_agent_loop, t.scenario_agent_loop_about),
            "chat" => (t.scenario_chat, t.scenario_chat_about),
            "counter" => (t.scenario_counter, t.scenario_counter_about),
            "fanout" => (t.scenario_fanout, t.scenario_fanout_about),
            "handoff" => (t.scenario_handoff, t.scenario_handoff_about),
            "human-in-the-loop" => (
                t.scenario_human_in_the_loop,
                t.scenario_human_in_the_loop_about,
            ),
            "map-reduce" => (t.scenario_map_reduce, t.scenario_map_reduce_about),
            "reducers" => (t.scenario_reducers, t.scenario_reducers_about),
            "research" => (t.scenario_research, t.scenario_research_about),
            _ => (t.custom_spec, t.custom_about),
        }
    }

    /// The parsed graph.
    pub fn graph(&self) -> chronograph::Result<GraphSpec> {
        GraphSpec::parse(self.spec)
    }

    /// The first input as JSON.
    pub fn input_json(&self) -> Value {
        serde_json::from_str(self.input).unwrap_or(Value::Null)
    }
}

/// Every built-in scenario, the seed's chat first.
pub const ALL: [Scenario; 9] = [
    chat::SCENARIO,
    counter::SCENARIO,
    reducers::SCENARIO,
    fanout::SCENARIO,
    agent_loop::SCENARIO,
    human_in_the_loop::SCENARIO,
    map_reduce::SCENARIO,
    handoff::SCENARIO,
    research::SCENARIO,
];

/// The scenario with this id.
pub fn by_id(id: &str) -> Option<Scenario> {
    ALL.iter().copied().find(|s| s.id == id)
}

/// Whether a graph has a `messages` channel (the chat view and message box apply).
pub fn is_chat(spec: &GraphSpec) -> bool {
    spec.channels
        .get("messages")
        .is_some_and(|c| c.reducer == chronograph::ReducerName::AddMessages)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::session::Session;

    #[test]
    fn every_scenario_has_a_title_and_an_about_in_both_languages() {
        for lang in Lang::ALL {
            let t = lang.t();
            for s in ALL {
                assert_ne!(
                    s.title(t),
                    t.custom_spec,
                    "{} has no title in {lang:?}",
                    s.id
                );
                assert_ne!(
                    s.about(t),
                    t.custom_about,
                    "{} has no about in {lang:?}",
                    s.id
                );
            }
        }
    }

    #[test]
    fn every_scenario_parses_compiles_and_runs_its_first_input() {
        for s in ALL {
            let spec = s.graph().unwrap_or_else(|e| panic!("{}: {e}", s.id));
            let mut session =
                Session::new(spec.clone()).unwrap_or_else(|e| panic!("{}: {e}", s.id));
            let input = if is_chat(&spec) {
                serde_json::json!({"messages": [{"type": "human", "content": "hello"}]})
            } else {
                s.input_json()
            };
            session
                .invoke(input, None)
                .unwrap_or_else(|e| panic!("{}: {e}", s.id));
            assert!(
                session.checkpoints().len() >= 2,
                "{} wrote checkpoints",
                s.id
            );
        }
    }

    #[test]
    fn ids_are_unique() {
        for (i, a) in ALL.iter().enumerate() {
            for b in &ALL[i + 1..] {
                assert_ne!(a.id, b.id);
            }
        }
    }
}
