//! The engine calls behind the buttons, each recorded in the log with
//! the checkpoints it created (or its error), named as LangGraph names
//! them: `invoke`, `update_state`, `Command(resume=...)`.

use chronograph::{Interrupt, RunInput, COPY};
use serde_json::Value;

use super::{compact, short_ns, LogLine, Outcome, Session};

impl Session {
    /// Runs `f`, logs `call` with the checkpoints it created (or its error).
    fn record(
        &mut self,
        call: String,
        f: impl FnOnce(&Session) -> chronograph::Result<Vec<Interrupt>>,
    ) -> chronograph::Result<Outcome> {
        // A server thread's nodes run on its server, never in this page.
        if self.on_server() {
            return Err(chronograph::Error::value(super::ON_SERVER));
        }
        let before = self.ids();
        let result = f(self);
        let after = self.ids();
        let created: Vec<String> = after
            .into_iter()
            .filter(|id| !before.contains(id))
            .collect();
        let labels = self.labels();
        let made = super::made(&labels, &created);
        match result {
            Ok(interrupts) => {
                let paused = if interrupts.is_empty() {
                    ""
                } else {
                    " (interrupted)"
                };
                let text = format!("{call} → {made}{paused}");
                self.log.push(LogLine {
                    text: text.clone(),
                    failed: false,
                });
                Ok(Outcome {
                    created,
                    interrupts,
                    calls: vec![text],
                })
            }
            Err(e) => {
                self.log.push(LogLine {
                    text: format!("{call} → {e}"),
                    failed: true,
                });
                Err(e)
            }
        }
    }

    /// How the log names a config: `thread`, `c3`, or `s4 in research:1f0c2a`
    /// for a checkpoint inside a subgraph (its namespace is part of the config).
    fn config_text(&self, id: Option<&str>) -> String {
        let Some(id) = id else {
            return "thread".to_owned();
        };
        let ns = self.ns_of(id);
        if ns.is_empty() {
            self.label(id)
        } else {
            format!("{} in {}", self.label(id), short_ns(&ns))
        }
    }

    /// `invoke(input, at)`: new input on the thread (or on checkpoint `at`).
    pub fn invoke(&mut self, input: Value, at: Option<&str>) -> chronograph::Result<Outcome> {
        self.check_runnable()?;
        let call = format!("invoke({}, {})", compact(&input), self.config_text(at));
        let config = self.config(at);
        self.record(call, |s| {
            s.graph
                .invoke(RunInput::from(input), &config)
                .map(|o| o.interrupts)
        })
    }

    /// Replay: `invoke(None, id)`.
    pub fn replay(&mut self, id: &str) -> chronograph::Result<Outcome> {
        self.check_runnable()?;
        let call = format!("invoke(None, {})", self.config_text(Some(id)));
        let config = self.config(Some(id));
        self.record(call, |s| {
            s.graph
                .invoke(RunInput::None, &config)
                .map(|o| o.interrupts)
        })
    }

    /// Resume an interrupt: `invoke(Command(resume=value), at)`.
    ///
    /// `at` may be a checkpoint inside a subgraph: the resume then runs from
    /// its parent ([`Session::resume_target`]).
    pub fn resume(&mut self, value: Value, at: Option<&str>) -> chronograph::Result<Outcome> {
        self.check_runnable()?;
        let at = at.map(|id| self.resume_target(id));
        let at = at.as_deref();
        let call = format!(
            "invoke(Command(resume={}), {})",
            compact(&value),
            self.config_text(at)
        );
        let config = self.config(at);
        let input = RunInput::Command(chronograph::Command::resume(value));
        self.record(call, |s| {
            s.graph.invoke(input, &config).map(|o| o.interrupts)
        })
    }

    /// `update_state(id, values, as_node)`; returns the new checkpoint's id in `created`.
    pub fn update(
        &mut self,
        id: &str,
        values: Option<Value>,
        as_node: Option<&str>,
    ) -> chronograph::Result<Outcome> {
        let node = as_node.map_or(String::new(), |n| format!(", as_node=\"{n}\""));
        let shown = values.as_ref().map_or("None".to_owned(), compact);
        let call = format!(
            "update_state({}, {shown}{node})",
            self.config_text(Some(id))
        );
        let config = self.config(Some(id));
        self.record(call, |s| {
            s.graph
                .update_state(&config, values, as_node)
                .map(|_| Vec::new())
        })
    }

    /// Fork: `update_state(id, values, as_node)` then `invoke(None, new)`.
    pub fn fork_and_run(
        &mut self,
        id: &str,
        values: Value,
        as_node: Option<&str>,
    ) -> chronograph::Result<Outcome> {
        self.check_runnable()?;
        let first = self.update(id, Some(values), as_node)?;
        let Some(new) = first.created.last().cloned() else {
            return Ok(first);
        };
        Ok(first.then(self.replay(&new)?))
    }

    /// Copy: `update_state(id, None, as_node="__copy__")`, a sibling of `id`.
    pub fn copy(&mut self, id: &str) -> chronograph::Result<Outcome> {
        self.update(id, None, Some(COPY))
    }
}
