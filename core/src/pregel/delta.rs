//! LangGraph.js's `DeltaChannel` (beta) in checkpoint metadata. A delta
//! channel's value is what its batch reducer folds, as any reducer
//! channel's (the engine keeps it whole in each checkpoint); what
//! LangGraph.js adds, and shows in `getState`/`getStateHistory`, is two
//! metadata keys every checkpoint of a graph with delta channels carries:
//! - `delta_writes_versioned: true`, on every checkpoint of a thread the
//!   graph started (and of a branch loaded from one that has it);
//! - `counters_since_delta_snapshot: {channel: [updates, supersteps]}`:
//!   per delta channel, the supersteps that updated it and all supersteps
//!   since its last snapshot. A channel snapshots (its counters restart, and
//!   a channel at `[0, 0]` is left out) when it has a version and its
//!   updates reach its `snapshotFrequency` or its supersteps reach
//!   [`MAX_SUPERSTEPS_SINCE_SNAPSHOT`] (LangGraph.js `advanceDeltaCounters`,
//!   `deltaChannelsToSnapshot`, `_putCheckpoint`).

use crate::checkpoint::{ChannelVersions, CheckpointMetadata, Name};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The metadata key of the counters.
pub(crate) const COUNTERS: &str = "counters_since_delta_snapshot";
/// The metadata key telling that every delta write on the branch carries a version.
pub(crate) const VERSIONED: &str = "delta_writes_versioned";
/// LangGraph.js's `DELTA_MAX_SUPERSTEPS_SINCE_SNAPSHOT` default: a channel
/// no longer written still snapshots this often. (Its environment override,
/// `LANGGRAPH_DELTA_MAX_SUPERSTEPS_SINCE_SNAPSHOT`, is not read: the engine
/// has no environment in a browser.)
pub const MAX_SUPERSTEPS_SINCE_SNAPSHOT: u64 = 5000;

/// A run's delta-channel bookkeeping, carried from checkpoint to checkpoint.
#[derive(Clone, Debug, Default)]
pub(crate) struct DeltaCounters {
    /// `delta_writes_versioned` of the branch.
    versioned: bool,
    /// `counters_since_delta_snapshot` of the current checkpoint.
    counters: Map<String, Value>,
    /// Channels the next checkpoint snapshots whatever their counters.
    forced: Vec<Name>,
}

impl DeltaCounters {
    /// The bookkeeping a run starts from: the loaded checkpoint's, or a new
    /// thread's (which carries `delta_writes_versioned`).
    pub(crate) fn loaded(meta: Option<&CheckpointMetadata>) -> Self {
        let Some(meta) = meta else {
            return DeltaCounters {
                versioned: true,
                ..DeltaCounters::default()
            };
        };
        DeltaCounters {
            versioned: meta.extra.get(VERSIONED) == Some(&Value::Bool(true)),
            counters: meta
                .extra
                .get(COUNTERS)
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default(),
            forced: Vec::new(),
        }
    }

    /// A branch from a checkpoint with pending writes to delta channels
    /// snapshots them at its next checkpoint: nothing records which child
    /// consumed those writes, so LangGraph.js's ancestor walk must never
    /// replay them (its `deltaChannelsWithPendingWrites`). Also the
    /// channels an update of a superseded checkpoint writes.
    pub(crate) fn force<'a>(
        &mut self,
        channels: &[(Name, u64)],
        written: impl IntoIterator<Item = &'a str>,
    ) {
        for channel in written {
            if let Some((name, _)) = channels.iter().find(|(n, _)| &**n == channel) {
                if !self.forced.contains(name) {
                    self.forced.push(name.clone());
                }
            }
        }
    }

    /// One more superstep that updated `updated`: each delta channel of
    /// `channels` (name, snapshot frequency) gains a superstep, an updated
    /// one an update, and one that reached its bound snapshots.
    pub(crate) fn advance(
        &mut self,
        channels: &[(Name, u64)],
        updated: &[Name],
        versions: &ChannelVersions,
    ) {
        let mut next = Map::new();
        for (name, frequency) in channels {
            let [updates, supersteps] = pair(self.counters.get(&**name));
            let updates = updates + u64::from(updated.contains(name));
            let supersteps = supersteps + 1;
            let has_version = !self.versioned || versions.contains_key(&**name);
            let snapshots = self.forced.contains(name)
                || has_version
                    && (updates >= *frequency || supersteps >= MAX_SUPERSTEPS_SINCE_SNAPSHOT);
            if !snapshots {
                next.insert(name.to_string(), Value::from(vec![updates, supersteps]));
            }
        }
        self.counters = next;
        self.forced.clear();
    }

    /// Writes both keys into a checkpoint's metadata `extra` (LangGraph.js
    /// adds them after `source`, `step` and `parents`).
    pub(crate) fn write_into(&self, extra: &mut BTreeMap<String, Value>) {
        if self.versioned {
            extra.insert(VERSIONED.into(), Value::Bool(true));
        }
        match self.counters.is_empty() {
            true => extra.remove(COUNTERS),
            false => extra.insert(COUNTERS.into(), Value::Object(self.counters.clone())),
        };
    }
}

/// `[updates, supersteps]` as stored (`[0, 0]` when absent or malformed).
fn pair(v: Option<&Value>) -> [u64; 2] {
    let at = |i: usize| {
        v.and_then(|v| v.get(i))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    [at(0), at(1)]
}
