//! The thread in and out: Chronograph's export and import, a LangGraph
//! history imported without its graph (runs wait until a spec is
//! attached), and the spec attached to it.

use chronograph::{GraphSpec, InMemorySaver, ThreadExport};
use std::collections::BTreeMap;
use std::rc::Rc;

use super::{LogLine, Session, NEEDS_GRAPH, THREAD_ID};

impl Session {
    /// The thread in the npm package's export format.
    pub fn export(&self) -> Option<ThreadExport> {
        self.saver.export_thread(THREAD_ID)
    }

    /// Replaces the thread with an export (its thread id is rewritten to this
    /// session's). Nothing changes when it fails.
    pub fn import(&mut self, data: ThreadExport) -> chronograph::Result<()> {
        self.import_from(data, "file")
    }

    /// [`Session::import`], logged as `import_thread(from)` (`file`, `server`).
    fn import_from(&mut self, mut data: ThreadExport, from: &str) -> chronograph::Result<()> {
        data.thread_id = THREAD_ID.to_owned();
        let fresh = Rc::new(InMemorySaver::new());
        fresh.import_thread(data)?;
        let graph = Self::with_saver(self.spec.clone(), fresh.clone())?.graph;
        self.saver = fresh;
        self.graph = graph;
        self.recorded_next.clear();
        self.recorded_interrupts.clear();
        self.source = super::ThreadSource::InPage;
        self.log.push(LogLine {
            text: format!("import_thread({from})"),
            failed: false,
        });
        Ok(())
    }

    /// Replaces the thread with one imported from a LangGraph history, on
    /// this session's graph written from that history
    /// ([`crate::import::infer_spec`]): runs wait for [`Session::attach`].
    /// `next` is each checkpoint's `next` as LangGraph recorded it; `from`
    /// names where the history came from in the log (`file`, `server`).
    pub fn import_history(
        &mut self,
        data: ThreadExport,
        next: BTreeMap<String, Vec<String>>,
        from: &str,
    ) -> chronograph::Result<()> {
        self.import_from(data, from)?;
        self.recorded_next = next;
        self.needs_graph = true;
        Ok(())
    }

    /// Whether runs wait for the graph's spec (the thread was imported from
    /// a history and no spec is attached yet).
    pub fn needs_graph(&self) -> bool {
        self.needs_graph
    }

    /// Marks the session as waiting for its graph (restoring a saved one).
    pub fn set_needs_graph(&mut self, needs: bool) {
        self.needs_graph = needs;
    }

    /// Each imported checkpoint's `next` as LangGraph recorded it.
    pub fn recorded_next(&self) -> &BTreeMap<String, Vec<String>> {
        &self.recorded_next
    }

    /// Whether LangGraph recorded checkpoint `id` waiting on `interrupt()`.
    pub fn recorded_interrupt(&self, id: &str) -> bool {
        self.recorded_interrupts.contains(id)
    }

    /// Sets the checkpoints LangGraph recorded waiting on `interrupt()`.
    pub fn set_recorded_interrupts(&mut self, ids: std::collections::BTreeSet<String>) {
        self.recorded_interrupts = ids;
    }

    /// Restores [`Session::recorded_next`] (a saved session).
    pub fn set_recorded_next(&mut self, next: BTreeMap<String, Vec<String>>) {
        self.recorded_next = next;
    }

    pub(super) fn check_runnable(&self) -> chronograph::Result<()> {
        if self.on_server() {
            return Err(chronograph::Error::value(super::ON_SERVER));
        }
        if self.needs_graph {
            return Err(chronograph::Error::value(NEEDS_GRAPH));
        }
        Ok(())
    }

    /// Runs the thread on `spec` from now on: the graph of a thread imported
    /// from a history. Refused (and nothing changes) when `spec` lacks a node
    /// the current graph has ([`crate::import::missing_nodes`]).
    pub fn attach(&mut self, spec: GraphSpec) -> chronograph::Result<()> {
        let needed: Vec<String> = self.spec.nodes.keys().cloned().collect();
        let missing = crate::import::missing_nodes(&needed, &spec);
        if !missing.is_empty() {
            return Err(chronograph::Error::value(format!(
                "The graph has no node named {}",
                missing.join(", ")
            )));
        }
        let graph = Self::with_saver(spec.clone(), self.saver.clone())?.graph;
        self.graph = graph;
        self.spec = spec;
        self.needs_graph = false;
        self.log.push(LogLine {
            text: "compile(spec, checkpointer=saver)".into(),
            failed: false,
        });
        Ok(())
    }
}
