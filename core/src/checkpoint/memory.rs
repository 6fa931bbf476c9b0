//! [`InMemorySaver`]: LangGraph's in-memory saver, with the same storage
//! layout (checkpoint without values + metadata + parent per
//! thread/namespace/id; writes per checkpoint; values per channel and
//! version, so a channel that did not change is never stored again).

use super::model::{
    ChannelVersions, Checkpoint, CheckpointConfig, CheckpointMetadata, CheckpointTuple, Name,
    PendingWrite, ValueLayout, Version,
};
use super::saver::{CheckpointSaver, ListOptions, ListTarget};
use super::scheme::{GivenCheckpoint, GivenVersion, VersionScheme};
use super::vec_map::VecMap;
use crate::channels::ChannelValue;
use crate::error::{Error, Result};
use crate::graph::FastIndexMap;
use crate::reserved::{ERROR, INTERRUPT, RESUME, SCHEDULED};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

/// A thread's namespaces, in insertion order (looked up on every write).
type Namespaces = FastIndexMap<String, Namespace>;

/// Slot of a control write; regular writes use their position (>= 0).
fn write_index(channel: &str, position: usize) -> i64 {
    match channel {
        ERROR => -1,
        SCHEDULED => -2,
        INTERRUPT => -3,
        RESUME => -4,
        _ => position as i64,
    }
}

/// One stored write. The task's id and path are shared by its writes.
#[derive(Clone, Debug)]
struct StoredWrite {
    task_id: Name,
    channel: Name,
    value: Value,
    task_path: Name,
    idx: i64,
}

impl StoredWrite {
    fn key(&self) -> (&str, i64) {
        (&self.task_id, self.idx)
    }
}

#[derive(Clone, Debug)]
struct Stored {
    /// The checkpoint with `channel_values` left empty (values live in `blobs`).
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    parent_id: Option<String>,
    /// Writes of tasks that ran from it, sorted by (task id, idx). Kept in
    /// the record, not in a map by id: a checkpoint has a handful, and a
    /// separate map would cost a table slot and a copy of the id each.
    writes: Vec<StoredWrite>,
}

#[derive(Default, Debug)]
struct Namespace {
    /// Boxed: the map's nodes hold 11 slots each, so large inline values
    /// would waste memory in half-full nodes and make every node a large
    /// allocation.
    checkpoints: BTreeMap<String, Box<Stored>>,
    /// Writes put against a checkpoint id not stored (yet), as LangGraph
    /// keeps them; `put` moves them into the record when the id arrives.
    orphan_writes: FxHashMap<String, Vec<StoredWrite>>,
    /// channel → version → value (`None`: the channel was empty at that version).
    blobs: FxHashMap<Name, FxHashMap<Version, Option<ChannelValue>>>,
    /// Whether some checkpoint was ever stored under a parent whose id does
    /// not sort before its own (only `put` and imports from outside do
    /// that: the engine's ids grow with time). While none was, every
    /// parent chain goes down in id order, so a `put` under a smaller id
    /// cannot close a cycle and needs no walk up the chain.
    upward: bool,
}

impl Namespace {
    /// Whether storing checkpoint `id` under `parent` would make it its own
    /// ancestor (a parent chain that never ends: lineage would loop).
    fn closes_cycle(&self, id: &str, parent: Option<&str>) -> bool {
        let Some(parent) = parent else {
            return false;
        };
        if !self.upward && parent < id {
            return false;
        }
        let mut at = parent;
        // Each hop leaves a stored checkpoint: a chain without a loop makes
        // at most as many hops as there are checkpoints.
        for _ in 0..=self.checkpoints.len() {
            if at == id {
                return true;
            }
            match self
                .checkpoints
                .get(at)
                .and_then(|s| s.parent_id.as_deref())
            {
                Some(p) => at = p,
                None => return false,
            }
        }
        true
    }

    /// A checkpoint that is its own ancestor, if any (for imports).
    fn cycle(&self) -> Option<&str> {
        // 1: on the chain being walked, 2: known to reach a root.
        let mut state: FxHashMap<&str, u8> = FxHashMap::default();
        for start in self.checkpoints.keys() {
            let mut chain = Vec::new();
            let mut at = Some(start.as_str());
            while let Some(id) = at {
                match state.get(id) {
                    Some(1) => return Some(id),
                    Some(_) => break,
                    None => {}
                }
                state.insert(id, 1);
                chain.push(id);
                at = self
                    .checkpoints
                    .get(id)
                    .and_then(|s| s.parent_id.as_deref());
            }
            for id in chain {
                state.insert(id, 2);
            }
        }
        None
    }
}

/// A stored checkpoint seen in place, without copying anything: what
/// [`InMemorySaver::visit`] hands out. [`to_tuple`](Self::to_tuple) makes
/// the owned [`CheckpointTuple`] `list` returns.
pub struct StoredView<'a> {
    ns: &'a Namespace,
    stored: &'a Stored,
    /// The thread.
    pub thread_id: &'a str,
    /// The namespace.
    pub checkpoint_ns: &'a str,
}

impl<'a> StoredView<'a> {
    /// The checkpoint, without its values (see [`channel_values`](Self::channel_values)).
    pub fn checkpoint(&self) -> &'a Checkpoint {
        &self.stored.checkpoint
    }

    /// Its metadata.
    pub fn metadata(&self) -> &'a CheckpointMetadata {
        &self.stored.metadata
    }

    /// Its parent's id.
    pub fn parent_id(&self) -> Option<&'a str> {
        self.stored.parent_id.as_deref()
    }

    /// Its channel values, from the values stored per channel and version.
    pub fn channel_values(&self) -> BTreeMap<Name, ChannelValue> {
        let mut values = BTreeMap::new();
        for (channel, version) in self.stored.checkpoint.channel_versions.iter() {
            let value = self.ns.blobs.get(channel).and_then(|b| b.get(version));
            if let Some(Some(value)) = value {
                values.insert(channel.clone(), value.clone());
            }
        }
        values
    }

    /// How LangGraph.js lists its values, if the graph that wrote it said.
    pub fn layout(&self) -> Option<&'a ValueLayout> {
        self.stored.checkpoint.layout.as_deref()
    }

    /// Its channel values as LangGraph.js's savers list them: the channels
    /// of its [`ValueLayout`] in order, with the values of channels that
    /// have none stored per version (a default never written, the empty
    /// task list); a channel outside it is not listed, as LangGraph.js
    /// lists its graph's channels only. Without a layout, every channel
    /// with a value, in `channel_versions` order.
    pub fn channel_values_listed(&self) -> Vec<(Name, ChannelValue)> {
        let versions = &self.stored.checkpoint.channel_versions;
        let stored = |channel: &Name| -> Option<Option<&ChannelValue>> {
            let version = versions.get(channel)?;
            Some(
                self.ns
                    .blobs
                    .get(channel)
                    .and_then(|b| b.get(version))
                    .and_then(Option::as_ref),
            )
        };
        let mut out = Vec::with_capacity(versions.len());
        match self.layout() {
            Some(layout) => {
                for channel in &layout.order {
                    let value = match stored(channel) {
                        Some(value) => value,
                        None => layout.unversioned.get(channel),
                    };
                    if let Some(value) = value {
                        out.push((channel.clone(), value.clone()));
                    }
                }
            }
            None => {
                for channel in versions.keys() {
                    if let Some(Some(value)) = stored(channel) {
                        out.push((channel.clone(), value.clone()));
                    }
                }
            }
        }
        out
    }

    /// Writes of tasks that ran from it as `(task_id, channel, value)`,
    /// sorted by task path, task id and index (as tuples list them).
    pub fn pending_writes(&self) -> Vec<(&'a str, &'a str, &'a Value)> {
        let mut writes: Vec<&StoredWrite> = self.stored.writes.iter().collect();
        writes.sort_by(|a, b| {
            (&a.task_path, &a.task_id, a.idx).cmp(&(&b.task_path, &b.task_id, b.idx))
        });
        writes
            .into_iter()
            .map(|w| (&*w.task_id, &*w.channel, &w.value))
            .collect()
    }

    /// The owned tuple (copies what it needs; values are shared).
    pub fn to_tuple(&self) -> CheckpointTuple {
        let config = |id: &str| CheckpointConfig {
            thread_id: self.thread_id.to_owned(),
            checkpoint_ns: self.checkpoint_ns.to_owned(),
            checkpoint_id: Some(id.to_owned()),
        };
        let mut checkpoint = self.stored.checkpoint.clone();
        checkpoint.channel_values = self.channel_values();
        CheckpointTuple {
            config: config(&checkpoint.id),
            parent_config: self.parent_id().map(config),
            pending_writes: self
                .pending_writes()
                .into_iter()
                .map(|(task_id, channel, value)| PendingWrite {
                    task_id: task_id.to_owned(),
                    channel: channel.to_owned(),
                    value: value.clone(),
                })
                .collect(),
            metadata: self.stored.metadata.clone(),
            checkpoint,
        }
    }
}

#[derive(Default, Debug)]
struct Store {
    /// thread → namespace (in insertion order) → data.
    threads: BTreeMap<String, Namespaces>,
}

impl Store {
    /// The namespace `config` addresses, created if new. Looks up before
    /// inserting: `entry` would allocate both keys on every write.
    fn namespace_mut(&mut self, config: &CheckpointConfig) -> &mut Namespace {
        if !self.threads.contains_key(&config.thread_id) {
            self.threads
                .insert(config.thread_id.clone(), Namespaces::default());
        }
        let thread = self
            .threads
            .get_mut(&config.thread_id)
            .expect("inserted above");
        if !thread.contains_key(&config.checkpoint_ns) {
            thread.insert(config.checkpoint_ns.clone(), Namespace::default());
        }
        thread
            .get_mut(&config.checkpoint_ns)
            .expect("inserted above")
    }
}

/// An in-memory [`CheckpointSaver`]. Single-threaded (the engine runs in one
/// thread, natively and in wasm); share it with `Rc`.
#[derive(Debug, Default)]
pub struct InMemorySaver {
    store: RefCell<Store>,
    next_salt: Cell<u64>,
    scheme: VersionScheme,
}

impl InMemorySaver {
    /// An empty saver.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty saver whose callers see and give channel versions in
    /// `scheme` (the default is [`VersionScheme::Text`]). The store and
    /// the engine work the same either way; the scheme is for the code
    /// that shows the saver's checkpoints and reads those put from outside
    /// ([`GivenVersions`](super::GivenVersions)).
    pub fn with_version_scheme(scheme: VersionScheme) -> Self {
        InMemorySaver {
            scheme,
            ..Self::default()
        }
    }

    /// How its callers see channel versions.
    pub fn version_scheme(&self) -> VersionScheme {
        self.scheme
    }

    /// A version with `counter` and a salt no other version of this saver
    /// has (for versions given from outside by their counter alone).
    pub fn fresh_version(&self, counter: u64) -> Version {
        let salt = self.next_salt.get();
        self.next_salt.set(salt + 1);
        Version { counter, salt }
    }

    /// Stores a checkpoint put from outside ([`GivenCheckpoint`]) under
    /// `config`'s checkpoint (its parent), its integer versions made the
    /// store's own against the parent's ([`GivenVersions::resolve`]);
    /// returns its address, as [`put`](CheckpointSaver::put) does.
    ///
    /// [`GivenVersions::resolve`]: super::GivenVersions::resolve
    pub fn put_given(
        &self,
        config: &CheckpointConfig,
        checkpoint: GivenCheckpoint,
        metadata: CheckpointMetadata,
        new_versions: VecMap<Name, GivenVersion>,
    ) -> Result<CheckpointConfig> {
        let parent = config
            .checkpoint_id
            .is_some()
            .then(|| self.channel_versions_at(config))
            .flatten();
        let stored = |channel: &Name, version: &Version| -> Option<ChannelValue> {
            let store = self.store.borrow();
            let ns = store
                .threads
                .get(&config.thread_id)?
                .get(&config.checkpoint_ns)?;
            ns.blobs.get(channel)?.get(version)?.clone()
        };
        let (checkpoint, new_versions) =
            checkpoint.into_checkpoint(new_versions, parent.as_deref(), &stored, &mut |counter| {
                self.fresh_version(counter)
            });
        self.put(config, &checkpoint, metadata, &new_versions)
    }

    /// The `channel_versions` of the checkpoint `config` addresses (the
    /// namespace's newest without an id), shared with the store.
    pub fn channel_versions_at(
        &self,
        config: &CheckpointConfig,
    ) -> Option<std::sync::Arc<ChannelVersions>> {
        let store = self.store.borrow();
        let ns = store
            .threads
            .get(&config.thread_id)?
            .get(&config.checkpoint_ns)?;
        let stored = match &config.checkpoint_id {
            Some(id) => ns.checkpoints.get(id)?,
            None => ns.checkpoints.values().next_back()?,
        };
        Some(stored.checkpoint.channel_versions.clone())
    }

    /// Ids of every thread, sorted.
    pub fn thread_ids(&self) -> Vec<String> {
        self.store.borrow().threads.keys().cloned().collect()
    }

    /// [`list`](CheckpointSaver::list) without building tuples: `f` sees each
    /// matching checkpoint in place, newest first (same order, filters and
    /// limit). For callers that only read what they list, such as the JS
    /// bindings, which serialize straight from it.
    pub fn visit(
        &self,
        target: &ListTarget,
        options: &ListOptions,
        f: &mut dyn FnMut(StoredView<'_>),
    ) {
        let store = self.store.borrow();
        let limit = options.limit.unwrap_or(usize::MAX);
        let mut seen = 0;
        let threads: Vec<(&String, &Namespaces)> = match &target.thread_id {
            Some(t) => store.threads.get_key_value(t).into_iter().collect(),
            None => store.threads.iter().collect(),
        };
        for (thread_id, namespaces) in threads {
            for (ns_name, ns) in namespaces {
                if target
                    .checkpoint_ns
                    .as_ref()
                    .is_some_and(|want| want != ns_name)
                {
                    continue;
                }
                let upper = match (&target.checkpoint_id, &options.before) {
                    (_, Some(before)) => std::ops::Bound::Excluded(before.clone()),
                    _ => std::ops::Bound::Unbounded,
                };
                for (id, stored) in ns
                    .checkpoints
                    .range((std::ops::Bound::Unbounded, upper))
                    .rev()
                {
                    if seen >= limit {
                        return;
                    }
                    if target.checkpoint_id.as_ref().is_some_and(|want| want != id) {
                        continue;
                    }
                    let matches = options
                        .filter
                        .iter()
                        .all(|(k, v)| stored.metadata.get(k).as_ref() == Some(v));
                    if matches {
                        seen += 1;
                        f(StoredView {
                            ns,
                            stored,
                            thread_id,
                            checkpoint_ns: ns_name,
                        });
                    }
                }
            }
        }
    }

    /// Everything stored for one thread, in the documented export format
    /// (see [`ThreadExport`]). `None` for an unknown thread.
    pub fn export_thread(&self, thread_id: &str) -> Option<ThreadExport> {
        let store = self.store.borrow();
        let namespaces = store.threads.get(thread_id)?;
        let mut out = ThreadExport {
            format: EXPORT_FORMAT.to_owned(),
            thread_id: thread_id.to_owned(),
            namespaces: Vec::new(),
        };
        for (ns, data) in namespaces {
            let mut blobs: Vec<ExportedBlob> = data
                .blobs
                .iter()
                .flat_map(|(channel, versions)| {
                    versions.iter().map(move |(version, value)| ExportedBlob {
                        channel: String::from(&**channel),
                        version: *version,
                        value: value.as_ref().map(ChannelValue::to_json),
                    })
                })
                .collect();
            blobs.sort_by(|a, b| (&a.channel, a.version).cmp(&(&b.channel, b.version)));
            let checkpoints = data
                .checkpoints
                .values()
                .map(|s| ExportedCheckpoint {
                    checkpoint: s.checkpoint.clone(),
                    metadata: s.metadata.clone(),
                    parent_id: s.parent_id.clone(),
                    pending_writes: s.writes.iter().cloned().map(ExportedWrite::from).collect(),
                })
                .collect();
            out.namespaces.push(ExportedNamespace {
                checkpoint_ns: ns.clone(),
                checkpoints,
                blobs,
            });
        }
        Some(out)
    }

    /// Loads a thread exported by [`export_thread`](Self::export_thread),
    /// replacing any thread of the same id. Validates everything before
    /// changing anything.
    pub fn import_thread(&self, data: ThreadExport) -> Result<()> {
        if data.format != EXPORT_FORMAT {
            return Err(Error::value(format!(
                "Unsupported thread export format {:?} (expected {EXPORT_FORMAT:?})",
                data.format
            ))
            .with_code("INVALID_EXPORT"));
        }
        let mut namespaces = Namespaces::default();
        let mut max_salt = 0;
        for ns in data.namespaces {
            let mut out = Namespace::default();
            for blob in ns.blobs {
                max_salt = max_salt.max(blob.version.salt);
                out.blobs
                    .entry(blob.channel.into())
                    .or_default()
                    .insert(blob.version, blob.value.map(ChannelValue::from_json));
            }
            for c in ns.checkpoints {
                let id = c.checkpoint.id.clone();
                let mut checkpoint = c.checkpoint;
                checkpoint.channel_values.clear();
                let mut writes: Vec<StoredWrite> = c
                    .pending_writes
                    .into_iter()
                    .map(StoredWrite::from)
                    .collect();
                writes.sort_by(|a, b| a.key().cmp(&b.key()));
                writes.dedup_by(|a, b| a.key() == b.key());
                out.upward |= c.parent_id.as_deref().is_some_and(|p| p >= id.as_str());
                out.checkpoints.insert(
                    id,
                    Box::new(Stored {
                        checkpoint,
                        metadata: c.metadata,
                        parent_id: c.parent_id,
                        writes,
                    }),
                );
            }
            if let Some(id) = out.cycle() {
                return Err(Error::value(format!(
                    "Checkpoint {id} of namespace {:?} is its own ancestor (its parent chain loops)",
                    ns.checkpoint_ns
                ))
                .with_code("INVALID_EXPORT"));
            }
            namespaces.insert(ns.checkpoint_ns, out);
        }
        self.next_salt.set(self.next_salt.get().max(max_salt + 1));
        self.store
            .borrow_mut()
            .threads
            .insert(data.thread_id, namespaces);
        Ok(())
    }
}

/// The format tag of [`ThreadExport`].
pub const EXPORT_FORMAT: &str = "chronograph.thread.v1";

/// A whole thread, every branch and pending write included, as JSON-ready data:
/// `{"format": "chronograph.thread.v1", "thread_id", "namespaces": [{
/// "checkpoint_ns", "checkpoints": [{"checkpoint", "metadata", "parent_id",
/// "pending_writes": [{"task_id", "channel", "value", "task_path", "idx"}]}],
/// "blobs": [{"channel", "version", "value"?}]}]}`. Checkpoints carry no
/// values; each `(channel, version)` value is stored once in `blobs`. A blob
/// without `value` marks a channel that was empty at that version; a
/// `"value": null` is a stored `null` (a trigger written with no value).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThreadExport {
    /// Always [`EXPORT_FORMAT`].
    pub format: String,
    /// The thread.
    pub thread_id: String,
    /// Its namespaces, root first.
    pub namespaces: Vec<ExportedNamespace>,
}

/// One namespace of a [`ThreadExport`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportedNamespace {
    /// `""` at the root.
    pub checkpoint_ns: String,
    /// In id (creation) order.
    pub checkpoints: Vec<ExportedCheckpoint>,
    /// Channel values by version.
    pub blobs: Vec<ExportedBlob>,
}

/// One checkpoint of a [`ThreadExport`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportedCheckpoint {
    /// The checkpoint, `channel_values` empty.
    pub checkpoint: Checkpoint,
    /// Its metadata.
    pub metadata: CheckpointMetadata,
    /// Its parent's id.
    pub parent_id: Option<String>,
    /// Writes stored against it.
    pub pending_writes: Vec<ExportedWrite>,
}

/// A stored write of a [`ThreadExport`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportedWrite {
    /// Writing task.
    pub task_id: String,
    /// Channel written.
    pub channel: String,
    /// Value written.
    pub value: Value,
    /// The task's path, the sort key of pending writes.
    pub task_path: String,
    /// Slot: position, or negative for control writes.
    pub idx: i64,
}

impl From<StoredWrite> for ExportedWrite {
    fn from(w: StoredWrite) -> Self {
        ExportedWrite {
            task_id: String::from(&*w.task_id),
            channel: String::from(&*w.channel),
            value: w.value,
            task_path: String::from(&*w.task_path),
            idx: w.idx,
        }
    }
}

impl From<ExportedWrite> for StoredWrite {
    fn from(w: ExportedWrite) -> Self {
        StoredWrite {
            task_id: w.task_id.into(),
            channel: w.channel.into(),
            value: w.value,
            task_path: w.task_path.into(),
            idx: w.idx,
        }
    }
}

/// A channel value at one version, in a [`ThreadExport`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportedBlob {
    /// Channel.
    pub channel: String,
    /// Version.
    pub version: Version,
    /// Value; `None` (no `value` key) when the channel was empty at that
    /// version. `Some(null)` is a real value: a `branch:to:*` trigger holds
    /// `null` while its node is pending.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present_value"
    )]
    pub value: Option<Value>,
}

/// A present `value` key, even `null`, is a value; only a missing key is empty.
fn present_value<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

impl CheckpointSaver for InMemorySaver {
    fn get_tuple(&self, config: &CheckpointConfig) -> Result<Option<CheckpointTuple>> {
        let store = self.store.borrow();
        let Some(ns) = store
            .threads
            .get(&config.thread_id)
            .and_then(|t| t.get(&config.checkpoint_ns))
        else {
            return Ok(None);
        };
        let stored = match &config.checkpoint_id {
            Some(id) => ns.checkpoints.get(id),
            None => ns.checkpoints.values().next_back(),
        };
        Ok(stored.map(|stored| {
            StoredView {
                ns,
                stored,
                thread_id: &config.thread_id,
                checkpoint_ns: &config.checkpoint_ns,
            }
            .to_tuple()
        }))
    }

    fn list(&self, target: &ListTarget, options: &ListOptions) -> Result<Vec<CheckpointTuple>> {
        let mut out = Vec::new();
        self.visit(target, options, &mut |view| out.push(view.to_tuple()));
        Ok(out)
    }

    fn put(
        &self,
        config: &CheckpointConfig,
        checkpoint: &Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: &ChannelVersions,
    ) -> Result<CheckpointConfig> {
        let mut store = self.store.borrow_mut();
        // Checked before anything changes: a refused put leaves the thread as it was.
        let parent_id = config.checkpoint_id.as_deref();
        let existing = store
            .threads
            .get(&config.thread_id)
            .and_then(|t| t.get(&config.checkpoint_ns));
        let cycle = match existing {
            Some(ns) => ns.closes_cycle(&checkpoint.id, parent_id),
            None => parent_id == Some(checkpoint.id.as_str()),
        };
        if cycle {
            return Err(Error::value(format!(
                "Checkpoint {} cannot be stored under {}: it would be its own ancestor",
                checkpoint.id,
                parent_id.unwrap_or_default()
            ))
            .with_code("INVALID_PARENT"));
        }
        let ns = store.namespace_mut(config);
        ns.upward |= parent_id.is_some_and(|p| p >= checkpoint.id.as_str());
        for (channel, version) in new_versions {
            let value = checkpoint.channel_values.get(channel).cloned();
            ns.blobs
                .entry(channel.clone())
                .or_default()
                .insert(*version, value);
        }
        // Values live in `blobs`; the version maps are shared, not copied.
        let checkpoint = checkpoint.clone_without_values();
        let id = checkpoint.id.clone();
        let parent_id = config.checkpoint_id.clone();
        // Writes are kept per id, as LangGraph keys them: a checkpoint put
        // again keeps its writes, and writes put before it are picked up.
        match ns.checkpoints.entry(id.clone()) {
            Entry::Occupied(mut stored) => {
                let stored = stored.get_mut();
                stored.checkpoint = checkpoint;
                stored.metadata = metadata;
                stored.parent_id = parent_id;
            }
            Entry::Vacant(slot) => {
                let writes = ns.orphan_writes.remove(&id).unwrap_or_default();
                slot.insert(Box::new(Stored {
                    checkpoint,
                    metadata,
                    parent_id,
                    writes,
                }));
            }
        }
        Ok(CheckpointConfig {
            thread_id: config.thread_id.clone(),
            checkpoint_ns: config.checkpoint_ns.clone(),
            checkpoint_id: Some(id),
        })
    }

    fn put_writes(
        &self,
        config: &CheckpointConfig,
        writes: &[(String, Value)],
        task_id: &str,
        task_path: &str,
    ) -> Result<()> {
        let Some(checkpoint_id) = &config.checkpoint_id else {
            return Err(Error::value("put_writes needs a checkpoint_id"));
        };
        let mut store = self.store.borrow_mut();
        let Namespace {
            blobs,
            checkpoints,
            orphan_writes,
            ..
        } = store.namespace_mut(config);
        // A write's channel shares the name already kept for its values.
        let channel_name = |channel: &str| match blobs.get_key_value(channel) {
            Some((name, _)) => name.clone(),
            None => Name::from(channel),
        };
        let rows = match checkpoints.get_mut(checkpoint_id) {
            Some(stored) => &mut stored.writes,
            None => orphan_writes.entry(checkpoint_id.clone()).or_default(),
        };
        // Exact growth: the rows stay with the checkpoint for its lifetime.
        rows.reserve_exact(writes.len());
        let (task, path): (Name, Name) = (task_id.into(), task_path.into());
        for (position, (channel, value)) in writes.iter().enumerate() {
            let idx = write_index(channel, position);
            let row = StoredWrite {
                task_id: task.clone(),
                channel: channel_name(channel),
                value: value.clone(),
                task_path: path.clone(),
                idx,
            };
            match rows.binary_search_by(|w| w.key().cmp(&(task_id, idx))) {
                // A regular write is kept (first wins); a control write is replaced.
                Ok(_) if idx >= 0 => {}
                Ok(at) => rows[at] = row,
                Err(at) => rows.insert(at, row),
            }
        }
        Ok(())
    }

    fn delete_thread(&self, thread_id: &str) -> Result<()> {
        self.store.borrow_mut().threads.remove(thread_id);
        Ok(())
    }

    fn get_next_version(&self, current: Option<Version>) -> Version {
        self.fresh_version(current.map_or(0, |v| v.counter) + 1)
    }
}
