//! LangGraph's `_first`: what a run does before its first superstep.
//!
//! It classifies the run from its input and the loaded checkpoint:
//! - **resuming** (no input, or a `Command`, on a checkpoint with values):
//!   the pending tasks run again, finished ones from their stored writes;
//! - **time travel** (a named checkpoint): stored resume answers are
//!   dropped, and a resume on an old checkpoint **forks** it (a `fork`
//!   checkpoint under it);
//! - **new input**: an `input` checkpoint with `__start__` written.
//!
//! A `Command`'s update, goto and resume become writes of the
//! `NULL_TASK_ID` pseudo-task (LangGraph's `map_command`), applied before
//! the first superstep.

use super::super::algo::{self, Task};
use super::super::push::send_write;
use super::Loop;
use crate::channels::py_repr;
use crate::checkpoint::{ChannelVersions, PendingWrite, Source, NULL_TASK_ID};
use crate::error::{Error, ErrorKind, Result};
use crate::graph::Channels;
use crate::graph::ReplayState;
use crate::reserved::{INTERRUPT, RESUME};
use crate::types::{update_as_tuples, Command, Goto, Resume, RunInput, INPUT, PARENT, START};
use serde_json::Value;
use std::rc::Rc;
use std::sync::Arc;

/// How `_first` classified a run.
struct Classified {
    /// No new input on a checkpoint with values: the pending tasks go on.
    resuming: bool,
    /// The run named a checkpoint: stored answers are not reused.
    time_traveling: bool,
    /// A resume on an old checkpoint: a `fork` checkpoint is saved first.
    forks: bool,
}

impl Loop<'_> {
    /// LangGraph `_first`: classifies the run, applies a `Command`'s
    /// writes, and writes the input or fork checkpoint.
    pub(super) fn first(&mut self, input: RunInput) -> Result<()> {
        let loaded_source = self.source;
        let loaded_parent = self.prev_id.clone();
        let run = self.classify(&input);
        if let Some(delta) = &mut self.delta {
            // Unless the run re-applies them (a resume at the head), the
            // loaded pending writes start a new branch.
            if !(run.resuming && !(run.time_traveling || self.superseded)) {
                delta.force(&self.graph.delta, self.pending.iter().map(|w| &*w.channel));
            }
        }
        self.is_replaying = run.time_traveling || self.superseded;
        if run.time_traveling {
            self.pending.retain(|w| w.channel != RESUME);
        }
        if let RunInput::Command(cmd) = &input {
            self.map_command(cmd, run.forks)?;
        }
        let null_writes = algo::null_writes(&self.pending);
        // LangGraph.js starts a run from a `Command` with an update or a goto
        // even on a thread that has nothing to resume (LangGraph refuses it).
        let command_starts = self.graph.semantics.command_starts_run
            && matches!(input, RunInput::Command(_))
            && !null_writes.is_empty();
        if !null_writes.is_empty() {
            self.apply(&mut [Task::pseudo(INPUT, null_writes)])?;
        }
        if run.resuming {
            self.resume(run.forks)?;
        } else if command_starts {
            self.command_input()?;
        } else {
            self.input(input)?;
        }
        // The root passes its classification down to the subgraphs of its first tick.
        if !self.frame.is_nested() {
            self.frame.resuming = Some(run.resuming);
            self.frame.replay = run.time_traveling.then(|| {
                let loaded_was_edit = matches!(loaded_source, Some(Source::Update | Source::Fork));
                let id = if run.forks && loaded_was_edit {
                    // The fork's parent is the edit; subgraphs replay from before it.
                    loaded_parent
                } else if matches!(self.source, Some(Source::Update | Source::Fork)) {
                    self.prev_id.clone()
                } else {
                    None
                };
                Rc::new(ReplayState::new(
                    id.unwrap_or_else(|| self.checkpoint.id.clone()),
                ))
            });
        }
        Ok(())
    }

    /// What kind of run `input` starts on the loaded checkpoint.
    fn classify(&self, input: &RunInput) -> Classified {
        let has_versions = !self.checkpoint.channel_versions.is_empty();
        let (is_cmd, resume_cmd) = match input {
            RunInput::Command(c) => (true, c.resume.is_some()),
            _ => (false, false),
        };
        // A subgraph's parent says whether it resumes (`CONFIG_KEY_RESUMING`).
        let resuming_flag = self.frame.resuming;
        // LangGraph.js resumes from a `Command` only when it has a `resume`:
        // an update or a goto alone on a thread starts a run from it
        // (`command_starts_run`; addressed runs keep LangGraph's rule).
        let starts =
            self.graph.semantics.command_starts_run && is_cmd && !resume_cmd && !self.addressed;
        let resuming = has_versions
            && resuming_flag.unwrap_or(matches!(input, RunInput::None) || (is_cmd && !starts));
        // A subgraph addressed through its own `checkpoint_map` entry is
        // time travel even when its parent says it resumes.
        let own_entry =
            self.frame.is_nested() && self.frame.checkpoint_map.contains_key(&self.frame.ns);
        let time_traveling =
            self.addressed && (own_entry || !(resume_cmd || resuming_flag == Some(true)));
        // Resuming an old checkpoint forks it, unless it is itself an edit
        // (an update or fork) that is still the newest.
        let forks = resuming
            && time_traveling
            && (!matches!(self.source, Some(Source::Update | Source::Fork)) || self.superseded);
        Classified {
            resuming,
            time_traveling,
            forks,
        }
    }

    /// A resumed run: the pending tasks' interrupts are answered from here
    /// on (`versions_seen[__interrupt__]`), and a time-travelling resume
    /// saves the `fork` checkpoint it continues from.
    fn resume(&mut self, forks: bool) -> Result<()> {
        let versions = self.interrupt_seen();
        Arc::make_mut(&mut self.checkpoint.versions_seen).insert(INTERRUPT.into(), versions);
        if forks {
            self.pending.retain(|w| w.channel != INTERRUPT);
            self.save(Source::Fork, None)?;
            self.step += 1;
        }
        self.emit_values();
        self.note_output();
        Ok(())
    }

    /// `versions_seen[__interrupt__]` from here on: every channel's current
    /// version, listed as LangGraph.js's loop sets them (the channels the
    /// map had, then the graph's channels in order), so that a saver shows
    /// the same map. A resume is rare: the copy costs nothing that matters.
    fn interrupt_seen(&self) -> Arc<ChannelVersions> {
        let current = &self.checkpoint.channel_versions;
        let previous = self.checkpoint.versions_seen.get(INTERRUPT);
        let keys = previous
            .into_iter()
            .flat_map(|p| p.keys())
            .chain(self.graph.channels.keys())
            .chain(current.keys());
        let mut seen = ChannelVersions::new();
        for channel in keys {
            if let (false, Some(v)) = (seen.contains_key(channel), current.get(channel)) {
                seen.insert(channel.clone(), *v);
            }
        }
        Arc::new(seen)
    }

    /// LangGraph.js's run from a `Command` on a thread with nothing to
    /// resume: its writes are the input, saved as an `input` checkpoint.
    fn command_input(&mut self) -> Result<()> {
        let versions = self.interrupt_seen();
        Arc::make_mut(&mut self.checkpoint.versions_seen).insert(INTERRUPT.into(), versions);
        self.pending.clear();
        self.save(Source::Input, None)?;
        self.step += 1;
        // LangGraph.js reports the state the command wrote.
        self.emit_values();
        self.note_output();
        Ok(())
    }

    /// A run on new input: the pending tasks are dropped (their triggers
    /// consumed) and the `input` checkpoint is saved with `__start__`
    /// written.
    fn input(&mut self, input: RunInput) -> Result<()> {
        match input {
            RunInput::Values(values) => {
                let writes = match &self.graph.pregel {
                    None => vec![(START.to_owned(), values)],
                    Some(io) => map_input(&io.input, values)?,
                };
                if writes.is_empty() {
                    return Err(self.no_input());
                }
                let mut discard = algo::prepare_next_tasks(
                    self.graph,
                    &self.checkpoint,
                    &self.frame.ns,
                    self.step,
                );
                discard.push(Task::pseudo(INPUT, writes));
                let updated = self.apply(&mut discard)?;
                self.knows_updated = true;
                self.pending.clear();
                self.save(Source::Input, Some(updated.into_iter().collect()))?;
                self.step += 1;
                Ok(())
            }
            // A subgraph told it is not resuming, with no input: nothing to save.
            _ if self.frame.resuming.is_some() => Ok(()),
            _ => Err(self.no_input()),
        }
    }

    /// LangGraph's `EmptyInputError` for a run given no input.
    fn no_input(&self) -> Error {
        let channels = match &self.graph.pregel {
            None => START.to_owned(),
            Some(io) => io.input.repr(),
        };
        Error::new(
            ErrorKind::EmptyInput,
            format!("Received no input for {channels}"),
        )
    }

    /// Turns a `Command` into NULL_TASK_ID writes (LangGraph `map_command`).
    fn map_command(&mut self, cmd: &Command, forks: bool) -> Result<()> {
        if cmd.graph.as_deref() == Some(PARENT) {
            return Err(Error::invalid_update("There is no parent graph"));
        }
        if cmd.resume.is_none() && cmd.update.is_none() && cmd.goto.is_empty() {
            return Err(Error::new(
                ErrorKind::EmptyInput,
                "Received empty Command input",
            ));
        }
        let mut writes: Vec<(String, Value)> = Vec::new();
        for goto in &cmd.goto {
            match goto {
                Goto::Node(node) => {
                    writes.push((format!("branch:to:{node}"), Value::String(START.into())))
                }
                Goto::Send(send) => writes.push(send_write(send)),
            }
        }
        if let Some(Resume::Value(v)) = &cmd.resume {
            let pending_interrupts = self.unfinished_interrupts();
            if pending_interrupts > 1 {
                return Err(Error::runtime(
                    "When there are multiple pending interrupts, you must specify the interrupt id when resuming. Docs: https://docs.langchain.com/oss/python/langgraph/interrupts#handling-multiple-interrupts.",
                ));
            }
            writes.push((RESUME.into(), v.clone()));
        }
        if let Some(update) = &cmd.update {
            let Some(pairs) = update_as_tuples(update.clone()) else {
                return Err(Error::invalid_update(format!(
                    "Expected dict, got {}",
                    py_repr(update)
                )));
            };
            writes.extend(pairs);
        }
        if writes.is_empty() {
            return Ok(());
        }
        // Stored on the loaded checkpoint (never on the synthetic empty one of a fresh thread).
        if !forks && self.source.is_some() {
            self.put_writes(NULL_TASK_ID, "", &writes)?;
            self.submitted_writes()?;
        }
        for (channel, value) in writes {
            let special = algo::is_control(&channel);
            if special {
                self.pending
                    .retain(|w| !(w.task_id == NULL_TASK_ID && w.channel == channel));
            }
            self.pending.push(PendingWrite {
                task_id: NULL_TASK_ID.into(),
                channel,
                value,
            });
        }
        Ok(())
    }

    /// Interrupts raised by tasks that have not finished since.
    fn unfinished_interrupts(&self) -> usize {
        self.pending
            .iter()
            .filter(|w| w.task_id != NULL_TASK_ID && w.channel == INTERRUPT)
            .filter(|w| {
                !self
                    .pending
                    .iter()
                    .any(|o| o.task_id == w.task_id && !algo::is_control(&o.channel))
            })
            .flat_map(|w| match &w.value {
                Value::Array(items) => items.iter().collect(),
                one => vec![one],
            })
            // One interrupt stored twice (a called task's, which its caller
            // re-raised: functional API) is one interrupt to answer.
            // (Interrupts without an id count one each.)
            .enumerate()
            .map(|(k, i)| i.get("id").and_then(Value::as_str).ok_or(k))
            .collect::<std::collections::BTreeSet<_>>()
            .len()
    }
}

/// LangGraph's `map_input`: a [`Pregel`](crate::Pregel) graph's input as
/// writes of its input channels: the whole input to one channel, or the
/// input object's keys that name one of several (other keys are ignored).
pub(crate) fn map_input(channels: &Channels, input: Value) -> Result<Vec<(String, Value)>> {
    match (channels, input) {
        (_, Value::Null) => Ok(Vec::new()),
        (Channels::One(c), input) => Ok(vec![(c.clone(), input)]),
        (Channels::Many(cs), Value::Object(map)) => {
            Ok(map.into_iter().filter(|(k, _)| cs.contains(k)).collect())
        }
        (Channels::Many(_), other) => Err(Error::type_error(format!(
            "Expected chunk to be a dict, got {}",
            crate::channels::py_type(&other)
        ))
        .with_code("INVALID_INPUT")),
    }
}
