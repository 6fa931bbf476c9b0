//! The predictions a lesson step asks for: what each asks, its right
//! answer for what the step did, and the choices offered around it.

use chronograph::Source;

use super::Effect;
use crate::i18n::Strings;

/// A prediction to make before a step runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// How many checkpoints the thread will have.
    Count,
    /// The parent of the first new checkpoint.
    Parent,
    /// The source of the first new checkpoint.
    Source,
    /// The step of the first new checkpoint.
    Step,
    /// The `next` of the first new checkpoint.
    Next,
    /// Which nodes run.
    Runs,
    /// How many of the new checkpoints are `input` checkpoints.
    Inputs,
    /// How many messages the new checkpoint holds.
    Messages,
    /// How many new subgraph namespaces the thread gets.
    Namespaces,
    /// The source of the first new checkpoint inside a subgraph.
    SubSource,
}

/// One multiple-choice question.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// What is asked.
    pub ask: Ask,
    /// The question text.
    pub prompt: String,
    /// Answers to pick from.
    pub choices: Vec<String>,
}

impl Ask {
    /// The question, in the language of `t`.
    pub fn prompt(self, t: &Strings) -> &'static str {
        match self {
            Ask::Count => t.ask_count,
            Ask::Parent => t.ask_parent,
            Ask::Source => t.ask_source,
            Ask::Step => t.ask_step,
            Ask::Next => t.ask_next,
            Ask::Runs => t.ask_runs,
            Ask::Inputs => t.ask_inputs,
            Ask::Messages => t.ask_messages,
            Ask::Namespaces => t.ask_namespaces,
            Ask::SubSource => t.ask_sub_source,
        }
    }

    /// The right answer for an effect, as choice text.
    pub fn answer(self, e: &Effect) -> String {
        let first = e.created.first();
        match self {
            Ask::Count => e.total().to_string(),
            Ask::Parent => first
                .and_then(|c| c.parent_label.clone())
                .unwrap_or_else(|| "none".into()),
            Ask::Source => first.map_or("none".into(), |c| c.view.source.as_str().to_owned()),
            Ask::Step => first.map_or("none".into(), |c| c.view.step.to_string()),
            Ask::Next => first.map_or("none".into(), |c| next_text(&c.view.next)),
            Ask::Runs => runs_text(&e.ran),
            Ask::Inputs => e
                .created
                .iter()
                .filter(|c| c.view.source == Source::Input)
                .count()
                .to_string(),
            Ask::Messages => e.messages.map_or("none".into(), |n| n.to_string()),
            // A namespace starts with its own input checkpoint (step -1).
            Ask::Namespaces => e
                .sub_created
                .iter()
                .filter(|c| c.view.source == Source::Input)
                .count()
                .to_string(),
            Ask::SubSource => e
                .sub_created
                .first()
                .map_or("none".into(), |c| c.view.source.as_str().to_owned()),
        }
    }

    pub(super) fn choices(self, e: &Effect) -> Vec<String> {
        let right = self.answer(e);
        let mut out: Vec<String> = match self {
            Ask::Count => {
                let t = e.total();
                [e.before, e.before + 1, t, t + 1, t + 2]
                    .iter()
                    .map(usize::to_string)
                    .collect()
            }
            Ask::Parent => {
                let mut v: Vec<String> = e
                    .created
                    .iter()
                    .filter_map(|c| c.parent_label.clone())
                    .collect();
                if let Some(p) = e.created.first().and_then(|c| c.parent_label.as_ref()) {
                    let n: usize = p.trim_start_matches('c').parse().unwrap_or(0);
                    v.extend([format!("c{}", n.saturating_sub(1)), format!("c{}", n + 1)]);
                }
                v.push(format!("c{}", e.before.saturating_sub(1)));
                v
            }
            Ask::Source => ["input", "loop", "update", "fork"]
                .map(String::from)
                .to_vec(),
            Ask::Step => {
                let s = e.created.first().map_or(0, |c| c.view.step);
                [s - 1, s, s + 1, 0].iter().map(i64::to_string).collect()
            }
            Ask::Next => ["booking", "reply", "booking, reply", "done"]
                .map(String::from)
                .to_vec(),
            Ask::Runs => ["nothing", "booking", "reply", "booking, reply"]
                .map(String::from)
                .to_vec(),
            Ask::Inputs => ["0", "1", "2", "4"].map(String::from).to_vec(),
            Ask::Namespaces => ["0", "1", "2"].map(String::from).to_vec(),
            Ask::SubSource => ["input", "loop", "update", "fork", "none"]
                .map(String::from)
                .to_vec(),
            Ask::Messages => {
                let m = e.messages.unwrap_or(1);
                [1, m.saturating_sub(1), m, m + 1]
                    .iter()
                    .map(usize::to_string)
                    .collect()
            }
        };
        out.push(right);
        crate::sort::sort_by_key(&mut out, |c| {
            (c.parse::<i64>().unwrap_or(i64::MAX), c.clone())
        });
        out.dedup();
        out
    }
}

fn next_text(next: &[String]) -> String {
    if next.is_empty() {
        "done".into()
    } else {
        next.join(", ")
    }
}

fn runs_text(ran: &[String]) -> String {
    if ran.is_empty() {
        "nothing".into()
    } else {
        ran.join(", ")
    }
}
