//! Channel versions for imported checkpoints (see the module docs of
//! `import`): a snapshot's value keeps its parent's version while it is
//! the parent's value, and gets a new one where it changed; a LangGraph.js
//! version keeps its counter, with a salt of its own where the same
//! version holds another value on another branch.

use super::{invalid, triggers, Read};
use crate::error::Result;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};

/// Channel → version.
type Versions = BTreeMap<String, String>;

/// One namespace of the engine's export: `reads` in id order, each with
/// engine versions, and the blobs that hold their values.
pub(super) fn export_namespace(ns: String, mut reads: Vec<Read>) -> Result<Value> {
    reads.sort_by(|a, b| a.id.cmp(&b.id));
    for pair in reads.windows(2) {
        if pair[0].id == pair[1].id {
            return Err(invalid(format!(
                "checkpoint {} appears twice in namespace {ns:?}",
                pair[0].id
            )));
        }
    }
    let values_by_id: HashMap<String, BTreeMap<String, Value>> = reads
        .iter()
        .map(|r| (r.id.clone(), r.values.clone()))
        .collect();
    let first_loop_child = first_loop_children(&reads);
    let mut assigner = Assigner::default();
    let mut checkpoints = Vec::new();
    for r in reads {
        let mut versions = assigner.assign(&r, &values_by_id);
        // A history keeps states, not the trigger channels behind `next`.
        if let Some(next) = &r.next {
            let child = first_loop_child
                .get(&r.id)
                .and_then(|c| values_by_id.get(c));
            assigner.add_triggers(triggers(next, &r.values, child), &mut versions);
        }
        let seen = versions_seen(&r, &versions);
        assigner.assigned.insert(r.id.clone(), versions.clone());
        checkpoints.push(json!({
            "checkpoint": {
                "v": 4, "id": r.id, "ts": r.ts, "channel_values": {},
                "channel_versions": versions, "versions_seen": seen, "updated_channels": null,
            },
            "metadata": r.metadata,
            "parent_id": r.parent,
            "pending_writes": r.writes,
        }));
    }
    Ok(json!({"checkpoint_ns": ns, "checkpoints": checkpoints, "blobs": assigner.blobs}))
}

/// Checkpoint id → its first `loop` child: the step that ran its `__start__`.
fn first_loop_children(reads: &[Read]) -> HashMap<String, String> {
    let mut first_loop_child: HashMap<String, String> = HashMap::new();
    for r in reads
        .iter()
        .filter(|r| r.metadata.source.as_str() == "loop")
    {
        if let Some(p) = &r.parent {
            first_loop_child
                .entry(p.clone())
                .or_insert_with(|| r.id.clone());
        }
    }
    first_loop_child
}

/// The versions of one namespace, as they are assigned.
#[derive(Default)]
struct Assigner {
    /// The last salt given (one namespace's salts are all different).
    salt: u64,
    /// `{channel, version, value}` blobs (no `value`: an empty channel).
    blobs: Vec<Value>,
    /// (channel, original version) → the values it held, each with its version.
    held: HashMap<(String, String), Vec<(Value, String)>>,
    /// Checkpoint id → its versions (children keep their parent's).
    assigned: HashMap<String, Versions>,
}

impl Assigner {
    /// The versions of `r`'s values: its own (LangGraph.js's counter, a
    /// salt for a value the same version did not hold yet), or for a
    /// snapshot the parent's while the value is the parent's, else a new
    /// one; then the channels with a version but no value.
    fn assign(
        &mut self,
        r: &Read,
        values_by_id: &HashMap<String, BTreeMap<String, Value>>,
    ) -> Versions {
        let mut versions = BTreeMap::new();
        let parent_versions = r
            .parent
            .as_ref()
            .and_then(|p| self.assigned.get(p))
            .cloned()
            .unwrap_or_default();
        let parent_values = r.parent.as_ref().and_then(|p| values_by_id.get(p));
        for (ch, value) in &r.values {
            let original = r.versions.as_ref().and_then(|v| v.get(ch).cloned());
            // Snapshots: keep the parent's version while the value is the parent's.
            if original.is_none() {
                if let (Some(pv), Some(pvals)) = (parent_versions.get(ch), parent_values) {
                    if pvals.get(ch) == Some(value) {
                        versions.insert(ch.clone(), pv.clone());
                        continue;
                    }
                }
            }
            let counter = match &original {
                Some(o) => counter_of(o),
                None => next_counter(&parent_versions),
            };
            let version = self.version_of(ch, original, counter, value);
            versions.insert(ch.clone(), version);
        }
        // Channels with a version but no value (LangGraph.js keeps empty ones out of channel_values).
        for (ch, o) in r.versions.iter().flatten() {
            if !versions.contains_key(ch) {
                let version = self.salted(counter_of(o));
                self.blobs.push(json!({"channel": ch, "version": version}));
                versions.insert(ch.clone(), version);
            }
        }
        versions
    }

    /// The version of `value` in channel `ch` whose original version is
    /// `original`: the one given to the same value before, else a new one
    /// (and its blob).
    fn version_of(
        &mut self,
        ch: &str,
        original: Option<String>,
        counter: u64,
        value: &Value,
    ) -> String {
        let known = original.is_some();
        let slot = self
            .held
            .entry((ch.to_owned(), original.unwrap_or_default()))
            .or_default();
        match slot.iter().find(|(v, _)| v == value) {
            Some((_, version)) if known => version.clone(),
            _ => {
                self.salt += 1;
                let version = format!("{counter}.{}", self.salt);
                slot.push((value.clone(), version.clone()));
                self.blobs
                    .push(json!({"channel": ch, "version": version, "value": value}));
                version
            }
        }
    }

    /// Adds the trigger channels a history's `next` needs (see
    /// [`triggers`]) that `versions` lacks, each with a new version.
    fn add_triggers(&mut self, triggers: Vec<(String, Value)>, versions: &mut Versions) {
        for (channel, value) in triggers {
            if versions.contains_key(&channel) {
                continue;
            }
            let version = self.salted(next_counter(versions));
            self.blobs
                .push(json!({"channel": channel, "version": version, "value": value}));
            versions.insert(channel, version);
        }
    }

    /// A new version with counter `counter` and the next salt.
    fn salted(&mut self, counter: u64) -> String {
        self.salt += 1;
        format!("{counter}.{}", self.salt)
    }
}

/// `r`'s versions_seen: the checkpoint's own (salted) version where the
/// numbers agree, else the counter with salt 0.
fn versions_seen(r: &Read, versions: &Versions) -> Map<String, Value> {
    let own: HashMap<(&str, &str), &String> = r
        .versions
        .iter()
        .flat_map(|v| v.iter())
        .filter_map(|(ch, o)| versions.get(ch).map(|e| ((ch.as_str(), o.as_str()), e)))
        .collect();
    let mut seen = Map::new();
    for (node, m) in &r.versions_seen {
        let mut out = Map::new();
        for (ch, o) in m {
            let v = own
                .get(&(ch.as_str(), o.as_str()))
                .map(|s| (*s).clone())
                .unwrap_or_else(|| {
                    let counter = o.split('.').next().unwrap_or("0");
                    format!("{counter}.0")
                });
            out.insert(ch.clone(), Value::String(v));
        }
        seen.insert(node.clone(), Value::Object(out));
    }
    seen
}

/// The counter of version text `version` (`3.7` → 3; 0 when it has none).
fn counter_of(version: &str) -> u64 {
    version
        .split('.')
        .next()
        .unwrap_or("0")
        .parse::<u64>()
        .unwrap_or(0)
}

/// The counter a new version in a checkpoint with `versions` takes.
fn next_counter(versions: &Versions) -> u64 {
    versions
        .values()
        .filter_map(|v| v.split('.').next()?.parse::<u64>().ok())
        .max()
        .unwrap_or(0)
        + 1
}
