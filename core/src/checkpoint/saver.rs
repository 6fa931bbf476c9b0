//! The [`CheckpointSaver`] trait (LangGraph's `BaseCheckpointSaver`).

use super::model::{
    ChannelVersions, Checkpoint, CheckpointConfig, CheckpointMetadata, CheckpointTuple, Version,
};
use crate::error::Result;
use serde_json::Value;
use std::collections::BTreeMap;

/// Which checkpoints `list` looks at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListTarget {
    /// One thread, or every thread when `None`.
    pub thread_id: Option<String>,
    /// One namespace, or every namespace of the thread when `None`.
    pub checkpoint_ns: Option<String>,
    /// Just this checkpoint.
    pub checkpoint_id: Option<String>,
}

impl ListTarget {
    /// Every namespace of one thread.
    pub fn thread(thread_id: impl Into<String>) -> Self {
        ListTarget {
            thread_id: Some(thread_id.into()),
            ..Default::default()
        }
    }
}

impl From<&CheckpointConfig> for ListTarget {
    fn from(c: &CheckpointConfig) -> Self {
        ListTarget {
            thread_id: Some(c.thread_id.clone()),
            checkpoint_ns: Some(c.checkpoint_ns.clone()),
            checkpoint_id: c.checkpoint_id.clone(),
        }
    }
}

/// Filters for `list`, as LangGraph's `list(config, filter=, before=, limit=)`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ListOptions {
    /// Every key must equal the stored metadata's value.
    pub filter: BTreeMap<String, Value>,
    /// Only checkpoints with an id strictly lower than this one.
    pub before: Option<String>,
    /// At most this many results (counted after filtering).
    pub limit: Option<usize>,
}

/// Stores checkpoints, their metadata and parents, and the pending writes of
/// the tasks that ran from them. Methods take `&self`: a saver is shared by
/// the graphs that use it and by callers who inspect it.
pub trait CheckpointSaver {
    /// The checkpoint at `config.checkpoint_id`, or the thread's latest (the
    /// highest id in the namespace, on any branch) when there is no id.
    fn get_tuple(&self, config: &CheckpointConfig) -> Result<Option<CheckpointTuple>>;

    /// Checkpoints newest first (by id, per namespace), filtered.
    fn list(&self, target: &ListTarget, options: &ListOptions) -> Result<Vec<CheckpointTuple>>;

    /// Stores `checkpoint` with `config.checkpoint_id` as its parent. Only the
    /// channels in `new_versions` have new values to keep; the others are
    /// already stored under their version. Returns the new checkpoint's address.
    fn put(
        &self,
        config: &CheckpointConfig,
        checkpoint: &Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: &ChannelVersions,
    ) -> Result<CheckpointConfig>;

    /// Stores a task's writes against the checkpoint it ran from. A regular
    /// write is never overwritten (first write wins); control writes
    /// (`__error__`, `__interrupt__`, `__resume__`) are (last write wins).
    fn put_writes(
        &self,
        config: &CheckpointConfig,
        writes: &[(String, Value)],
        task_id: &str,
        task_path: &str,
    ) -> Result<()>;

    /// Forgets a thread: its checkpoints, writes and values.
    fn delete_thread(&self, thread_id: &str) -> Result<()>;

    /// The version that follows `current` (the highest version in a checkpoint).
    fn get_next_version(&self, current: Option<Version>) -> Version;
}
