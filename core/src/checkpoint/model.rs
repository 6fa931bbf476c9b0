//! The checkpoint data model, shaped like LangGraph's `Checkpoint`,
//! `CheckpointMetadata` and `CheckpointTuple`.

use super::vec_map::VecMap;
use crate::channels::ChannelValue;
use crate::clock::Digits;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// The task id of writes that belong to no task (Command input, resume values).
pub const NULL_TASK_ID: &str = "00000000-0000-0000-0000-000000000000";

/// A channel version. Ordered by `counter`, then `salt`; the saver makes the
/// salt unique so two branches that both reach "max + 1" never share a
/// version (LangGraph's InMemorySaver uses a random fraction for this).
/// Written as `"<counter, 32 digits>.<salt, 16 digits>"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// The integer part: one more than the highest version it succeeds.
    pub counter: u64,
    /// Makes versions unique per saver.
    pub salt: u64,
}

impl Version {
    /// The version's text on the stack (see [`VersionText`]).
    fn text(&self) -> VersionText {
        let mut t = VersionText {
            bytes: [0; 53],
            len: 0,
        };
        for part in [
            Digits::new(self.counter, 32).as_bytes(),
            b".",
            Digits::new(self.salt, 16).as_bytes(),
        ] {
            t.bytes[t.len..t.len + part.len()].copy_from_slice(part);
            t.len += part.len();
        }
        t
    }
}

/// A version's text, `format!("{:032}.{:016}", counter, salt)`, written
/// digit by digit on the stack: listings write tens of thousands of
/// versions, and the formatting machinery pads character by character.
struct VersionText {
    /// 32 digits (a `u64` has at most 20), the dot, up to 20 digits.
    bytes: [u8; 53],
    len: usize,
}

impl VersionText {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).expect("ASCII digits")
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text().as_str())
    }
}

impl std::str::FromStr for Version {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (c, salt) = s.split_once('.').unwrap_or((s, "0"));
        let bad = || format!("invalid channel version {s:?}");
        Ok(Version {
            counter: c.parse().map_err(|_| bad())?,
            salt: salt.parse().map_err(|_| bad())?,
        })
    }
}

impl Serialize for Version {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.text().as_str())
    }
}

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// A channel or node name. Shared (`Arc<str>`), not copied: every
/// checkpoint keys several maps by channel name, and a superstep makes a
/// new checkpoint, so cloning a name must not allocate.
pub type Name = Arc<str>;

/// Channel name → version (a sorted vector: kept per checkpoint, so small).
pub type ChannelVersions = VecMap<Name, Version>;

/// Node name → the versions of its triggers it last consumed.
pub type VersionsSeen = VecMap<Name, Arc<ChannelVersions>>;

/// What wrote a checkpoint (`metadata.source`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// New input to a run.
    Input,
    /// The end of a superstep.
    Loop,
    /// `update_state`.
    Update,
    /// A copy: replaying a past checkpoint, or `update_state(..., as_node="__copy__")`.
    Fork,
}

impl Source {
    /// `"input" | "loop" | "update" | "fork"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Input => "input",
            Source::Loop => "loop",
            Source::Update => "update",
            Source::Fork => "fork",
        }
    }
}

/// A snapshot of every channel at the end of a superstep (format version 4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Format version (4).
    pub v: u32,
    /// UUIDv6; ids sort in creation order.
    pub id: String,
    /// Creation time, ISO-8601 UTC.
    pub ts: String,
    /// Values of the non-empty channels.
    pub channel_values: BTreeMap<Name, ChannelValue>,
    /// Current version of every channel written on this lineage. Behind an
    /// `Arc`: the saver, the tuples it hands out and the run share one map
    /// per checkpoint (a superstep copies it once, to change it).
    pub channel_versions: Arc<ChannelVersions>,
    /// Per node (plus `__input__`, `__interrupt__`): the trigger versions it
    /// consumed. Each node's map is behind an `Arc`, shared with the parent
    /// checkpoint until that node runs again (a superstep changes one or two
    /// of them), so keeping a checkpoint per step does not copy them all.
    /// The outer map is shared the same way as `channel_versions`.
    /// Serialized as a plain map of maps.
    pub versions_seen: Arc<VersionsSeen>,
    /// Channels the superstep that wrote this checkpoint updated (sorted);
    /// `None` for forks and `update_state` checkpoints.
    pub updated_channels: Option<Vec<Name>>,
    /// How LangGraph.js lists this checkpoint's values (see [`ValueLayout`]),
    /// shared by every checkpoint of the graph that wrote it; `None` where
    /// nothing says (the values are then listed in `channel_versions`
    /// order). Not part of the checkpoint's data: never serialized.
    #[serde(skip)]
    pub layout: Option<std::rc::Rc<ValueLayout>>,
}

/// How LangGraph.js lists a checkpoint's `channel_values`: its graph's
/// channels in their order (state keys, `__start__`, `__pregel_tasks`,
/// then each node's `branch:to:NODE` and the joins), each with a value,
/// including the channels that hold one without a version: a reducer's
/// default that was never written, the empty `__pregel_tasks` list. A
/// saver keeps values per channel version, so these come from here.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueLayout {
    /// Channel names in listing order.
    pub order: Vec<Name>,
    /// The value each channel shows while it has no version.
    pub unversioned: VecMap<Name, ChannelValue>,
    /// The channels of messages (the `add_messages` reducer), which
    /// LangGraph.js lists as LangChain message instances.
    pub messages: Vec<Name>,
}

impl Checkpoint {
    /// An empty checkpoint with the given id and timestamp.
    pub fn empty(id: String, ts: String) -> Self {
        Checkpoint {
            v: 4,
            id,
            ts,
            channel_values: BTreeMap::new(),
            channel_versions: Arc::default(),
            versions_seen: Arc::default(),
            updated_channels: None,
            layout: None,
        }
    }

    /// The checkpoint without its channel values (what a saver keeps: the
    /// values are stored per channel and version). Shares the version maps.
    pub fn clone_without_values(&self) -> Self {
        Checkpoint {
            v: self.v,
            id: self.id.clone(),
            ts: self.ts.clone(),
            channel_values: BTreeMap::new(),
            channel_versions: self.channel_versions.clone(),
            versions_seen: self.versions_seen.clone(),
            updated_channels: self.updated_channels.clone(),
            layout: self.layout.clone(),
        }
    }

    /// The highest channel version, if any channel has one.
    pub fn max_version(&self) -> Option<Version> {
        self.channel_versions.values().max().copied()
    }
}

/// `CheckpointMetadata`: `source`, `step`, `parents`, plus primitive keys
/// copied from the run config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointMetadata {
    /// What wrote the checkpoint.
    pub source: Source,
    /// The superstep number (-1 for a thread's first input).
    pub step: i64,
    /// Ancestor namespace → checkpoint id (empty at the root).
    #[serde(default)]
    pub parents: BTreeMap<String, String>,
    /// Extra keys from `config.metadata` / `config.configurable`.
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

impl CheckpointMetadata {
    /// Metadata with no extra keys.
    pub fn new(source: Source, step: i64) -> Self {
        CheckpointMetadata {
            source,
            step,
            parents: BTreeMap::new(),
            extra: BTreeMap::new(),
        }
    }

    /// One key as JSON, the way `list(filter=...)` compares it.
    pub fn get(&self, key: &str) -> Option<Value> {
        match key {
            "source" => Some(Value::from(self.source.as_str())),
            "step" => Some(Value::from(self.step)),
            "parents" => serde_json::to_value(&self.parents).ok(),
            other => self.extra.get(other).cloned(),
        }
    }
}

/// Where a checkpoint lives: thread, namespace and (optionally) id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CheckpointConfig {
    /// The thread.
    pub thread_id: String,
    /// The namespace (`""` at the root graph).
    #[serde(default)]
    pub checkpoint_ns: String,
    /// The checkpoint; `None` means the thread's latest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint_id: Option<String>,
}

impl CheckpointConfig {
    /// The root namespace of `thread_id`, no checkpoint id.
    pub fn thread(thread_id: impl Into<String>) -> Self {
        CheckpointConfig {
            thread_id: thread_id.into(),
            ..Default::default()
        }
    }

    /// The same thread and namespace, at checkpoint `id`.
    pub fn at(&self, id: impl Into<String>) -> Self {
        CheckpointConfig {
            checkpoint_id: Some(id.into()),
            ..self.clone()
        }
    }
}

/// One row stored with `put_writes`: a task's write to a channel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingWrite {
    /// The task that wrote it (`NULL_TASK_ID` for run-level writes).
    pub task_id: String,
    /// The channel (or a control channel such as `__error__`).
    pub channel: String,
    /// The value written.
    pub value: Value,
}

/// A stored checkpoint with everything needed to resume from it.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckpointTuple {
    /// The checkpoint's own address.
    pub config: CheckpointConfig,
    /// The checkpoint, with its channel values.
    pub checkpoint: Checkpoint,
    /// Its metadata.
    pub metadata: CheckpointMetadata,
    /// The parent's address, `None` for a root.
    pub parent_config: Option<CheckpointConfig>,
    /// Writes of tasks that ran from this checkpoint, sorted by task path, id, index.
    pub pending_writes: Vec<PendingWrite>,
}

#[cfg(test)]
mod tests {
    use super::Version;

    #[test]
    fn versions_write_langgraphs_padded_text() {
        let values = [
            0,
            1,
            9,
            10,
            99,
            1234,
            10u64.pow(15),
            10u64.pow(16),
            10u64.pow(19),
            u64::MAX - 1,
            u64::MAX,
        ];
        for counter in values {
            for salt in values {
                let v = Version { counter, salt };
                let want = format!("{counter:032}.{salt:016}");
                assert_eq!(v.to_string(), want);
                assert_eq!(serde_json::to_value(v).unwrap(), want.as_str());
                assert_eq!(want.parse::<Version>(), Ok(v));
            }
        }
    }
}
