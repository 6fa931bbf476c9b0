//! Lesson mode: a guided tour of the seed walkthrough on the chat graph
//! (`design/visualizer.md`), then of checkpoint namespaces on the research
//! subgraph. Each step asks the learner to predict what an engine call will
//! do, runs it, and checks the prediction against what the engine actually
//! did. Pure Rust over [`Session`], no Leptos.

mod ask;

pub use ask::{Ask, Question};

use crate::chat::human;
use crate::i18n::Lang;
use crate::session::{Created, Outcome, Session};
use chronograph::COPY;
use serde_json::json;

/// What a step's action did (or, from a dry run, will do).
#[derive(Clone, Debug, PartialEq)]
pub struct Effect {
    /// Root checkpoints before the action.
    pub before: usize,
    /// New root checkpoints, in creation order.
    pub created: Vec<Created>,
    /// New checkpoints inside subgraph namespaces, in creation order.
    pub sub_created: Vec<Created>,
    /// Nodes that ran (without `__start__`).
    pub ran: Vec<String>,
    /// Messages in the last new checkpoint.
    pub messages: Option<usize>,
}

impl Effect {
    fn measure(before: usize, session: &Session, outcome: &Outcome) -> Effect {
        let (new, ran) = session.created(outcome);
        let (mut created, mut sub_created) = (Vec::new(), Vec::new());
        for c in new {
            if c.view.ns.is_empty() {
                created.push(c);
            } else {
                sub_created.push(c);
            }
        }
        let messages = outcome.created.last().and_then(|id| {
            let snap = session.snapshot(Some(id)).ok()?;
            snap.values.get("messages").and_then(|m| m.len())
        });
        Effect {
            before,
            created,
            sub_created,
            ran,
            messages,
        }
    }

    fn total(&self) -> usize {
        self.before + self.created.len()
    }
}

type Action = fn(&mut Session) -> chronograph::Result<Outcome>;

/// One screen of the tour. Its words (heading, instruction, the lesson
/// it teaches) are the catalogue's `lesson_steps`, at the same index.
pub struct Step {
    /// Predictions to make first.
    pub asks: &'static [Ask],
    /// The scenario the step runs on; a step on another scenario than the
    /// one before starts a new thread of it.
    pub scenario: &'static str,
    action: Action,
}

impl Step {
    /// What the step would do on `session`, from a run on a copy of the
    /// thread (`None` when it cannot run there).
    fn dry_run(&self, session: &Session) -> Option<Effect> {
        let before = session.checkpoints().len();
        let mut effect = None;
        session.preview(|copy| {
            let out = (self.action)(copy)?;
            effect = Some(Effect::measure(before, copy, &out));
            Ok(out)
        });
        effect
    }
}

fn id_of(s: &Session, label: &str) -> chronograph::Result<String> {
    s.labels()
        .into_iter()
        .find(|(_, l)| l == label)
        .map(|(id, _)| id)
        .ok_or_else(|| {
            chronograph::Error::value(format!(
                "the lesson expects checkpoint {label}; restart the lesson"
            ))
        })
}

fn say(s: &mut Session, text: &str, at: Option<&str>) -> chronograph::Result<Outcome> {
    s.invoke(human(text), at)
}

/// `update_state` on the checkpoint labelled `label`.
fn update(
    s: &mut Session,
    label: &str,
    values: Option<serde_json::Value>,
    as_node: Option<&str>,
) -> chronograph::Result<Outcome> {
    let id = id_of(s, label)?;
    s.update(&id, values, as_node)
}

/// Replay from the checkpoint labelled `label`.
fn replay(s: &mut Session, label: &str) -> chronograph::Result<Outcome> {
    let id = id_of(s, label)?;
    s.replay(&id)
}

const EDIT: &str = "Make it tomorrow at 2 pm";

const CHAT: &str = "chat";
const RESEARCH: &str = "research";

/// A step of the tour on `scenario`.
const fn step(scenario: &'static str, asks: &'static [Ask], action: Action) -> Step {
    Step {
        asks,
        scenario,
        action,
    }
}

/// The tour, in order: the seed walkthrough (1–9), then namespaces (10–13).
pub const STEPS: [Step; 13] = [
    step(CHAT, &[Ask::Count, Ask::Inputs], |s| {
        let first = say(s, "Is there a slot tomorrow morning?", None)?;
        Ok(first.then(say(s, "And in the afternoon?", None)?))
    }),
    step(
        CHAT,
        &[Ask::Count, Ask::Parent, Ask::Source, Ask::Step],
        |s| replay(s, "c2"),
    ),
    step(CHAT, &[Ask::Count, Ask::Source, Ask::Runs], |s| {
        replay(s, "c3")
    }),
    step(
        CHAT,
        &[Ask::Parent, Ask::Source, Ask::Step, Ask::Next, Ask::Runs],
        |s| update(s, "c0", Some(human(EDIT)), Some("booking")),
    ),
    step(CHAT, &[Ask::Count, Ask::Parent, Ask::Runs], |s| {
        replay(s, "c11")
    }),
    step(CHAT, &[Ask::Next, Ask::Count, Ask::Runs], |s| {
        let id = id_of(s, "c0")?;
        s.fork_and_run(&id, human(EDIT), Some("reply"))
    }),
    step(CHAT, &[Ask::Parent, Ask::Source, Ask::Step], |s| {
        update(s, "c2", None, Some(COPY))
    }),
    step(
        CHAT,
        &[Ask::Parent, Ask::Source, Ask::Step, Ask::Runs],
        |s| {
            let id = id_of(s, "c3")?;
            say(s, "Can I bring a friend?", Some(&id))
        },
    ),
    step(CHAT, &[Ask::Messages, Ask::Next], |s| {
        update(s, "c3", Some(human("One more thing")), Some("reply"))
    }),
    step(RESEARCH, &[Ask::Count, Ask::Namespaces], |s| {
        s.invoke(json!({"log": []}), None)
    }),
    step(RESEARCH, &[Ask::Namespaces, Ask::SubSource], |s| {
        replay(s, "c2")
    }),
    step(
        RESEARCH,
        &[Ask::SubSource, Ask::Namespaces, Ask::Count],
        |s| update(s, "s7", Some(json!({"draft": "Draft v2"})), None),
    ),
    step(RESEARCH, &[Ask::Namespaces, Ask::Count], |s| {
        let id = id_of(s, "c3")?;
        s.resume(json!(true), Some(&id))
    }),
];

/// Where the learner is in the tour.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lesson {
    index: usize,
    questions: Vec<Question>,
    answers: Vec<Option<usize>>,
    result: Option<Effect>,
    error: Option<String>,
}

impl Lesson {
    /// The tour at its first step, with a fresh chat session to run it on.
    pub fn start() -> chronograph::Result<(Lesson, Session)> {
        let session = fresh(STEPS[0].scenario)?;
        let mut lesson = Lesson::default();
        lesson.prepare(&session);
        Ok((lesson, session))
    }

    /// The current step (`None` when the tour is over).
    pub fn step(&self) -> Option<&'static Step> {
        STEPS.get(self.index)
    }

    /// Index of the current step.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The predictions asked for the current step.
    pub fn questions(&self) -> &[Question] {
        &self.questions
    }

    /// The learner's answers (choice indices).
    pub fn answers(&self) -> &[Option<usize>] {
        &self.answers
    }

    /// What the step did, once run.
    pub fn result(&self) -> Option<&Effect> {
        self.result.as_ref()
    }

    /// The error of the last run, if it failed.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Builds the current step's questions from a dry run on a copy of the thread.
    fn prepare(&mut self, session: &Session) {
        self.questions.clear();
        self.result = None;
        self.error = None;
        let Some(step) = self.step() else { return };
        let effect = step.dry_run(session);
        let Some(effect) = effect else {
            self.error =
                Some("this step cannot run on the current thread; restart the lesson".into());
            return;
        };
        self.questions = step
            .asks
            .iter()
            .map(|a| Question {
                ask: *a,
                prompt: a.prompt(Lang::En.t()).into(),
                choices: a.choices(&effect),
            })
            .collect();
        self.answers = vec![None; self.questions.len()];
    }

    /// Records the learner's choice for question `q`.
    pub fn answer(&mut self, q: usize, choice: usize) {
        if let Some(slot) = self.answers.get_mut(q) {
            *slot = Some(choice);
        }
    }

    /// Whether every question has an answer.
    pub fn all_answered(&self) -> bool {
        self.answers.iter().all(Option::is_some)
    }

    /// Runs the step's engine calls on `session` and keeps what they did.
    pub fn run(&mut self, session: &mut Session) -> chronograph::Result<Outcome> {
        let step = self
            .step()
            .ok_or_else(|| chronograph::Error::value("the lesson is over"))?;
        let before = session.checkpoints().len();
        match (step.action)(session) {
            Ok(out) => {
                self.result = Some(Effect::measure(before, session, &out));
                Ok(out)
            }
            Err(e) => {
                self.error = Some(e.to_string());
                Err(e)
            }
        }
    }

    /// After a run: whether each prediction matched what the engine did.
    pub fn checks(&self) -> Vec<bool> {
        let Some(effect) = &self.result else {
            return Vec::new();
        };
        self.questions
            .iter()
            .zip(&self.answers)
            .map(|(q, a)| {
                a.and_then(|i| q.choices.get(i))
                    .is_some_and(|c| *c == q.ask.answer(effect))
            })
            .collect()
    }

    /// Moves to the next step, preparing its questions on `session`; when
    /// the step runs on another scenario, on a new thread of it, returned
    /// for the page to show.
    pub fn advance(&mut self, session: &Session) -> Option<Session> {
        let was = self.step().map(|s| s.scenario);
        if self.index < STEPS.len() {
            self.index += 1;
        }
        let now = self.step().map(|s| s.scenario);
        match now.filter(|n| Some(*n) != was).map(fresh) {
            Some(Ok(new)) => {
                self.prepare(&new);
                Some(new)
            }
            Some(Err(e)) => {
                self.error = Some(e.to_string());
                None
            }
            None => {
                self.prepare(session);
                None
            }
        }
    }

    /// Whether every step is done.
    pub fn finished(&self) -> bool {
        self.index >= STEPS.len()
    }
}

/// A new, empty thread of a built-in scenario.
fn fresh(scenario: &str) -> chronograph::Result<Session> {
    let spec = crate::scenarios::by_id(scenario)
        .ok_or_else(|| chronograph::Error::value(format!("no {scenario} scenario")))?
        .graph()?;
    Session::new(spec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chronograph::Source;

    /// Answers every question right, from a dry run of the learner's own.
    fn answer_right(lesson: &mut Lesson, session: &Session) {
        let effect = lesson.step().unwrap().dry_run(session).unwrap();
        for (i, q) in lesson.questions().to_vec().iter().enumerate() {
            let right = q.ask.answer(&effect);
            let choice = q
                .choices
                .iter()
                .position(|c| *c == right)
                .expect("the right answer is offered");
            lesson.answer(i, choice);
        }
    }

    #[test]
    fn the_tour_follows_the_seed_walkthrough() {
        let (mut lesson, mut session) = Lesson::start().unwrap();
        let mut counts = Vec::new();
        while !lesson.finished() {
            answer_right(&mut lesson, &session);
            lesson.run(&mut session).unwrap();
            assert!(
                lesson.checks().iter().all(|ok| *ok),
                "step {}: {:?}",
                lesson.index() + 1,
                lesson.result()
            );
            counts.push(session.checkpoints().len());
            if let Some(new) = lesson.advance(&session) {
                session = new;
            }
        }
        assert_eq!(counts, [8, 10, 11, 12, 13, 14, 15, 19, 20, 3, 4, 4, 6]);
    }

    #[test]
    fn predictions_are_checked_against_what_the_engine_did() {
        let (mut lesson, mut session) = Lesson::start().unwrap();
        let count = lesson.questions()[0]
            .choices
            .iter()
            .position(|c| c == "8")
            .unwrap();
        let wrong = lesson.questions()[0]
            .choices
            .iter()
            .position(|c| c == "4")
            .unwrap_or(0);
        lesson.answer(0, wrong);
        let inputs = lesson.questions()[1]
            .choices
            .iter()
            .position(|c| c == "2")
            .unwrap();
        lesson.answer(1, inputs);
        lesson.run(&mut session).unwrap();
        assert_eq!(lesson.checks(), [false, true]);
        assert_ne!(count, wrong);
    }

    #[test]
    fn key_facts_of_each_step() {
        let (mut lesson, mut session) = Lesson::start().unwrap();
        let mut effects = Vec::new();
        while !lesson.finished() {
            lesson.run(&mut session).unwrap();
            effects.push(lesson.result().unwrap().clone());
            if let Some(new) = lesson.advance(&session) {
                session = new;
            }
        }
        let first = |i: usize| effects[i].created[0].clone();
        // 2: a fork at step 2 under c2.
        assert_eq!(
            (
                first(1).parent_label.as_deref(),
                first(1).view.source,
                first(1).view.step
            ),
            (Some("c2"), Source::Fork, 2)
        );
        // 3: one fork copy, nothing runs.
        assert_eq!((effects[2].created.len(), effects[2].ran.len()), (1, 0));
        // 4: update at step 0 under c0, next = reply, nothing ran.
        assert_eq!(
            (
                first(3).parent_label.as_deref(),
                first(3).view.source,
                first(3).view.step,
                first(3).view.next.clone()
            ),
            (Some("c0"), Source::Update, 0, vec!["reply".to_owned()])
        );
        // 5: only reply runs.
        assert_eq!(effects[4].ran, ["reply"]);
        // 6: as reply, next is empty and running adds nothing.
        assert_eq!((first(5).view.next.len(), effects[5].created.len()), (0, 1));
        // 7: the copy is a sibling of c2 (parent c1), step 2.
        assert_eq!(
            (
                first(6).parent_label.as_deref(),
                first(6).view.source,
                first(6).view.step
            ),
            (Some("c1"), Source::Fork, 2)
        );
        // 8: input under c3, then the graph runs from the entry.
        assert_eq!(
            (
                first(7).parent_label.as_deref(),
                first(7).view.source,
                first(7).view.step
            ),
            (Some("c3"), Source::Input, 3)
        );
        assert_eq!(effects[7].ran, ["booking", "reply"]);
        // 9: the edit appends: c3 held 2 messages, the update holds 3.
        assert_eq!(effects[8].messages, Some(3));
        let answer = |i: usize, ask: Ask| ask.answer(&effects[i]);
        // 10: one namespace, the root pauses at c2 (3 root checkpoints).
        assert_eq!(
            (answer(9, Ask::Count), answer(9, Ask::Namespaces)),
            ("3".into(), "1".into())
        );
        assert_eq!(
            effects[9].sub_created.len(),
            4,
            "s0 … s3, paused at approve"
        );
        // 11: the replay re-runs the subgraph from scratch in a new namespace.
        assert_eq!(
            (answer(10, Ask::Namespaces), answer(10, Ask::SubSource)),
            ("1".into(), "input".into())
        );
        assert_eq!(first(10).view.source, Source::Fork);
        // 12: an update checkpoint inside the namespace; the root is unchanged.
        assert_eq!(
            (
                answer(11, Ask::SubSource),
                answer(11, Ask::Namespaces),
                answer(11, Ask::Count)
            ),
            ("update".into(), "0".into(), "4".into())
        );
        assert_eq!(
            effects[11].sub_created[0].parent_label.as_deref(),
            Some("s7")
        );
        // 13: the resume continues that namespace (no new one) from the edit.
        assert_eq!(answer(12, Ask::Namespaces), "0");
        assert_eq!(
            effects[12].sub_created[0].parent_label.as_deref(),
            Some("s8")
        );
        assert_eq!(effects[12].ran, ["approve", "research", "publish"]);
    }
}
