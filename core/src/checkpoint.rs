//! Checkpoints and where they are kept: the data model (LangGraph
//! `checkpoint/base`), the [`CheckpointSaver`] trait and [`InMemorySaver`].

mod memory;
mod model;
mod prune;
mod saver;
mod scheme;
mod vec_map;

pub use memory::{InMemorySaver, StoredView, ThreadExport, EXPORT_FORMAT};
pub use model::{
    ChannelVersions, Checkpoint, CheckpointConfig, CheckpointMetadata, CheckpointTuple, Name,
    PendingWrite, Source, ValueLayout, Version, VersionsSeen, NULL_TASK_ID,
};
pub use prune::{plan_prune, PruneCandidate, PrunePlan, Retention};
pub use saver::{CheckpointSaver, ListOptions, ListTarget};
pub use scheme::{GivenCheckpoint, GivenVersion, GivenVersions, ResolvedVersions, VersionScheme};
pub use vec_map::VecMap;
