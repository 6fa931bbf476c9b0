//! Where a loop's checkpoints and writes go, and when (LangGraph's
//! `_put_checkpoint`, `put_writes` and the `durability` modes).
//!
//! - `"sync"` / `"async"`: every superstep's checkpoint and every task's
//!   writes are saved as they happen ([`Loop::save`], [`Loop::put_writes`]).
//!   For a graph with joins, saves go through the replay of LangGraph's
//!   thread pool ([`thread_pool_saves`]): each waits in
//!   `Loop::deferred` until the replay says it ran, so a join's stored
//!   seen-set is the one LangGraph stores.
//! - `"exit"`: nothing is saved until the run ends; then only the
//!   checkpoint the run ended on, and the writes its last step left
//!   pending ([`Loop::save_on_exit`]).

use super::algo::Task;
use super::thread_pool_saves;
use super::Loop;
use crate::channels::{seen_names, ChannelKind, ChannelValue};
use crate::checkpoint::{
    ChannelVersions, Checkpoint, CheckpointConfig, CheckpointMetadata, Name, Source,
};
use crate::error::Result;
use crate::graph::GraphInner;
use crate::types::StreamEvent;
use serde_json::Value;
use std::sync::Arc;

/// A task's writes held back until the run ends: (task id, path, writes).
pub(super) type HeldWrites = (String, String, Vec<(String, Value)>);

/// A checkpoint save waiting for LangGraph's thread pool to run it.
pub(super) struct DeferredPut {
    parent: CheckpointConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    new_versions: ChannelVersions,
}

/// Every join channel's names in `checkpoint` (empty when unset).
pub(super) fn join_sets(graph: &GraphInner, checkpoint: &Checkpoint) -> Vec<(Name, Vec<String>)> {
    graph
        .channels
        .iter()
        .filter(|(_, k)| matches!(k, ChannelKind::Barrier(_)))
        .map(|(c, _)| (c.clone(), seen_names(checkpoint.channel_values.get(c))))
        .collect()
}

impl Loop<'_> {
    /// The metadata of the checkpoint a save at the current step writes.
    pub(super) fn metadata(&self, source: Source) -> CheckpointMetadata {
        CheckpointMetadata {
            source,
            step: self.step,
            parents: self.frame.checkpoint_map.clone(),
            extra: self.extras.clone(),
        }
    }

    /// Saves the current checkpoint as a new one (LangGraph `_put_checkpoint`).
    pub(super) fn save(&mut self, source: Source, updated: Option<Vec<Name>>) -> Result<()> {
        let (id, ts) = self.frame.ids.checkpoint_id(self.step);
        self.checkpoint.id = id.clone();
        self.checkpoint.ts = ts;
        if let Some(delta) = &mut self.delta {
            let updated = updated.as_deref().unwrap_or_default();
            delta.advance(
                &self.graph.delta,
                updated,
                &self.checkpoint.channel_versions,
            );
            delta.write_into(&mut self.extras);
        }
        self.checkpoint.updated_channels = updated;
        self.last_saved = Some(source);
        self.last_step = self.step;
        if self.exit_mode {
            // Only the checkpoint the run ends on is saved, under the one
            // the run started from (`parent` stays where it is).
            self.address.checkpoint_id = Some(id);
            self.source = Some(source);
            return Ok(());
        }
        self.put_checkpoint(source)?;
        let parent_id = self.parent.checkpoint_id.replace(id.clone());
        self.prev_id = parent_id.clone();
        self.address.checkpoint_id = Some(id);
        self.source = Some(source);
        self.meta = Some(self.metadata(source));
        self.parent_in_run = true;
        Ok(())
    }

    /// For a task that runs a subgraph: the namespace its checkpoints go
    /// to, as the `checkpoints` event shows it (LangGraph's `task_states`).
    fn subgraph_address(&self, task: &Task) -> Option<crate::state::TaskState> {
        let node = self.graph.nodes.get(&*task.name)?;
        node.action.as_ref()?.subgraph()?;
        Some(crate::state::TaskState::Config(CheckpointConfig {
            thread_id: self.thread.thread_id.clone(),
            checkpoint_ns: crate::checkpoint_ns::task_ns(&self.frame.ns, &task.name, &task.id),
            checkpoint_id: None,
        }))
    }

    /// LangGraph's `checkpoints` event at the start of a superstep: the
    /// current checkpoint and the tasks it runs next (`tasks`), with what
    /// is stored for them.
    pub(super) fn emit_checkpoint(&mut self, tasks: &[Task]) {
        if self.frame.saver.is_none() {
            return;
        }
        let Some(metadata) = self.meta.clone() else {
            return;
        };
        self.emit(|run| StreamEvent::Checkpoint {
            config: run.address.clone(),
            metadata,
            parent_config: run.prev_id.clone().map(|p| run.thread.at(p)),
            parent_in_run: run.parent_in_run,
            values: run.graph.read_values(&run.checkpoint.channel_values),
            next: tasks.iter().map(|t| String::from(&*t.name)).collect(),
            tasks: tasks
                .iter()
                .map(|t| {
                    let mut described = crate::state::describe_task(run.graph, t, &run.pending);
                    described.state = run.subgraph_address(t);
                    described
                })
                .collect(),
        });
    }

    /// Hands the current checkpoint to the saver, with the versions of
    /// the channels that moved since the last save: at once, or for a
    /// graph with joins when the replayed pool runs the save.
    fn put_checkpoint(&mut self, source: Source) -> Result<()> {
        let Some(saver) = self.frame.saver.clone() else {
            return Ok(());
        };
        let new_versions = self.new_versions();
        if self.exec.is_some() {
            self.defer_put(source, new_versions)?;
        } else {
            saver.put(
                &self.parent,
                &self.graph.to_save(&self.checkpoint),
                self.metadata(source),
                &new_versions,
            )?;
        }
        self.stored_versions = self.checkpoint.channel_versions.clone();
        Ok(())
    }

    /// The channels whose version moved past the one last stored: only
    /// their values are saved again.
    fn new_versions(&self) -> ChannelVersions {
        let mut new_versions = ChannelVersions::new();
        for (c, v) in self.checkpoint.channel_versions.iter() {
            if self.stored_versions.get(c) != Some(v) {
                new_versions.insert(c.clone(), *v);
            }
        }
        new_versions
    }

    /// Submits the save to the replayed pool; it is stored when the
    /// replay says it ran, with the join sets live at that moment.
    fn defer_put(&mut self, source: Source, new_versions: ChannelVersions) -> Result<()> {
        let joins: Vec<Name> = new_versions
            .keys()
            .filter(|c| {
                matches!(
                    self.graph.channels.get(&***c),
                    Some(ChannelKind::Barrier(_))
                )
            })
            .cloned()
            .collect();
        self.deferred.push(Some(DeferredPut {
            parent: self.parent.clone(),
            checkpoint: self.checkpoint.clone(),
            metadata: self.metadata(source),
            new_versions,
        }));
        let index = self.deferred.len() - 1;
        let ran = match &mut self.exec {
            Some(exec) => exec.put(index, &joins),
            None => Vec::new(),
        };
        self.store(ran)
    }

    /// Stores a task's writes on the current checkpoint (held back until
    /// the run ends with `durability="exit"`).
    pub(super) fn put_writes(
        &mut self,
        task_id: &str,
        path: &str,
        writes: &[(String, Value)],
    ) -> Result<()> {
        if self.exit_mode {
            self.exit_writes
                .push((task_id.to_owned(), path.to_owned(), writes.to_vec()));
            return Ok(());
        }
        match &self.frame.saver {
            Some(saver) => saver.put_writes(
                &self.address,
                &self.graph.writes_to_save(writes),
                task_id,
                path,
            ),
            None => Ok(()),
        }
    }

    /// `durability="exit"`: saves the checkpoint the run ended on (unless
    /// it is the one it loaded), under the checkpoint the run started
    /// from, then the writes its last step left pending.
    pub(super) fn save_on_exit(&mut self) -> Result<()> {
        let Some(saver) = self.frame.saver.clone() else {
            return Ok(());
        };
        if let (Some(source), true) = (
            self.last_saved,
            Some(&self.checkpoint.id) != self.loaded_id.as_ref(),
        ) {
            let new_versions = self.new_versions();
            let metadata = CheckpointMetadata {
                step: self.last_step,
                ..self.metadata(source)
            };
            saver.put(
                &self.parent,
                &self.graph.to_save(&self.checkpoint),
                metadata,
                &new_versions,
            )?;
            self.stored_versions = self.checkpoint.channel_versions.clone();
        }
        for (task_id, path, writes) in std::mem::take(&mut self.exit_writes) {
            saver.put_writes(
                &self.address,
                &self.graph.writes_to_save(&writes),
                &task_id,
                &path,
            )?;
        }
        Ok(())
    }

    /// The main thread submitted a `put_writes` (for the replayed pool).
    pub(super) fn submitted_writes(&mut self) -> Result<()> {
        if let Some(exec) = &mut self.exec {
            let ran = exec.writes();
            self.store(ran)?;
        }
        Ok(())
    }

    /// The join channels `tasks` consume (complete ones they are triggered by).
    pub(super) fn joins_consumed_by(&self, tasks: &[Task]) -> Vec<Name> {
        if self.exec.is_none() {
            return Vec::new();
        }
        let mut out: Vec<Name> = Vec::new();
        for t in tasks {
            for c in &t.triggers {
                if let Some(kind @ ChannelKind::Barrier(_)) = self.graph.channels.get(c) {
                    if kind.is_available(self.checkpoint.channel_values.get(c)) && !out.contains(c)
                    {
                        out.push(c.clone());
                    }
                }
            }
        }
        out
    }

    /// Saves what the executor ran: each deferred checkpoint, its join
    /// channels as they stood then.
    pub(super) fn store(&mut self, ran: thread_pool_saves::SavesRan) -> Result<()> {
        let Some(saver) = self.frame.saver.clone() else {
            return Ok(());
        };
        for (index, joins) in ran {
            let Some(mut put) = self.deferred.get_mut(index).and_then(Option::take) else {
                continue;
            };
            for (channel, names) in joins {
                put.checkpoint.channel_values.insert(
                    channel,
                    ChannelValue::List(
                        names
                            .into_iter()
                            .map(|n| Arc::new(Value::String(n)))
                            .collect(),
                    ),
                );
            }
            saver.put(
                &put.parent,
                &self.graph.to_save(&put.checkpoint),
                put.metadata,
                &put.new_versions,
            )?;
        }
        Ok(())
    }
}
