//! What each checkpoint of the thread costs to keep: estimated bytes for
//! two LangGraph savers and for Chronograph's own store, so the storage
//! view shows where a thread's growth comes from.
//!
//! The estimates count the serialized payload a saver writes (JSON text
//! of values, versions and metadata) plus a fixed cost per row for its
//! keys; they leave out indexes, pages and a serializer's own framing
//! (LangChain's message encoding is larger than the plain JSON counted
//! here). They model:
//! - LangGraph's PostgreSQL saver (`langgraph-checkpoint-postgres`,
//!   `@langchain/langgraph-checkpoint-postgres`): a `checkpoints` row per
//!   put with the versions, the metadata and the values of primitive
//!   channels (strings, numbers, booleans, null) inline, plus a
//!   `checkpoint_blobs` row for each other channel whose version is new;
//! - LangGraph's SQLite saver (`langgraph-checkpoint-sqlite`, and the JS
//!   one): the whole checkpoint, every channel value included, at every put;
//! - Chronograph's store: each channel version once, and a list that
//!   extends its previous version only by its new items (lists are logs
//!   that share their prefix).
//!
//! Each saver also writes every pending write once; the three agree there.

use chronograph::{ChannelValue, ListOptions, ListTarget, Name, Version};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

use super::{Session, THREAD_ID};

/// Bytes of a row's keys: thread id, namespace, checkpoint id and parent
/// id (UUIDs as text), channel or task id, and the row header.
pub const ROW_BYTES: u64 = 160;

/// One channel of a stored checkpoint, sized.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelBytes {
    /// The channel.
    pub channel: Name,
    /// Its version in this checkpoint.
    pub version: Version,
    /// The value's size as JSON text.
    pub full: u64,
    /// Whether the checkpoint has a version of this channel its parent does not.
    pub new_version: bool,
    /// For a new version that extends the parent's list: the parent's
    /// version and the new items' size.
    pub appended: Option<(Version, u64)>,
    /// A string, number, boolean or null (LangGraph's PostgreSQL saver keeps
    /// these inline in the checkpoint row).
    pub primitive: bool,
}

/// A stored checkpoint as the estimates need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredCheckpoint {
    /// Checkpoint id.
    pub id: String,
    /// Its namespace (`""`: the root).
    pub ns: String,
    /// Its parent in the namespace.
    pub parent: Option<String>,
    /// Creation time, in milliseconds since the Unix epoch, when readable.
    pub created_ms: Option<i64>,
    /// For a subgraph checkpoint, the checkpoint of the enclosing namespace that ran it.
    pub owner: Option<String>,
    /// The checkpoint without values (versions, versions seen) as JSON text.
    pub skeleton: u64,
    /// Its metadata as JSON text.
    pub metadata: u64,
    /// Its channels with a value.
    pub channels: Vec<ChannelBytes>,
    /// Its pending writes' values as JSON text, summed.
    pub writes: u64,
    /// How many pending writes it has.
    pub write_count: u64,
}

/// Estimated bytes one checkpoint costs each store.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// LangGraph's PostgreSQL saver.
    pub postgres: u64,
    /// LangGraph's SQLite saver.
    pub sqlite: u64,
    /// Chronograph's store.
    pub chronograph: u64,
}

impl std::ops::AddAssign for Cost {
    fn add_assign(&mut self, o: Cost) {
        self.postgres += o.postgres;
        self.sqlite += o.sqlite;
        self.chronograph += o.chronograph;
    }
}

impl StoredCheckpoint {
    /// The checkpoint row and its writes: what every store writes for it
    /// besides channel values.
    fn head(&self) -> u64 {
        ROW_BYTES + self.skeleton + self.metadata + self.writes + ROW_BYTES * self.write_count
    }

    /// What writing this checkpoint added to each store (see the module's
    /// models): its row, its writes, and the channel versions it made.
    pub fn cost(&self) -> Cost {
        let sum = |f: &dyn Fn(&ChannelBytes) -> u64| self.channels.iter().map(f).sum::<u64>();
        Cost {
            postgres: self.head()
                + sum(&|c| match (c.primitive, c.new_version) {
                    (true, _) => c.full,
                    (false, true) => ROW_BYTES + c.full,
                    (false, false) => 0,
                }),
            sqlite: self.head() + sum(&|c| c.full),
            chronograph: self.head()
                + sum(&|c| match (c.new_version, c.appended) {
                    (false, _) => 0,
                    (true, Some((_, tail))) => tail,
                    (true, None) => c.full,
                }),
        }
    }
}

/// What the checkpoints `keep` accepts cost each store together: each
/// channel version counted once, and in Chronograph's store a list version
/// kept as its new items only while the version it extends is kept too
/// (otherwise a prune rebases it: it is stored whole).
pub fn total(stored: &[StoredCheckpoint], keep: impl Fn(&StoredCheckpoint) -> bool) -> Cost {
    let mut cost = Cost::default();
    let mut versions: HashMap<(&str, &Name, Version), &ChannelBytes> = HashMap::new();
    for c in stored.iter().filter(|c| keep(c)) {
        let primitives: u64 = c
            .channels
            .iter()
            .filter(|b| b.primitive)
            .map(|b| b.full)
            .sum();
        let all: u64 = c.channels.iter().map(|b| b.full).sum();
        cost += Cost {
            postgres: c.head() + primitives,
            sqlite: c.head() + all,
            chronograph: c.head(),
        };
        for b in &c.channels {
            let slot = versions
                .entry((c.ns.as_str(), &b.channel, b.version))
                .or_insert(b);
            if b.new_version {
                *slot = b;
            }
        }
    }
    for ((ns, channel, _), b) in &versions {
        if !b.primitive {
            cost.postgres += ROW_BYTES + b.full;
        }
        cost.chronograph += match b.appended {
            Some((base, tail)) if versions.contains_key(&(*ns, *channel, base)) => tail,
            _ => b.full,
        };
    }
    cost
}

/// Running totals along a branch of the root namespace (`branch`: ids,
/// oldest first): each step adds its checkpoint's [`cost`](StoredCheckpoint::cost)
/// and that of every subgraph checkpoint its tasks wrote, at any depth.
pub fn branch_series(stored: &[StoredCheckpoint], branch: &[String]) -> Vec<Cost> {
    // Each checkpoint's root ancestor: itself at the root, else its owner's.
    let mut order: Vec<&StoredCheckpoint> = stored.iter().collect();
    crate::sort::sort_by_key(&mut order, |c| {
        c.ns.matches('|').count() + usize::from(!c.ns.is_empty())
    });
    let mut root_of: HashMap<&str, &str> = HashMap::new();
    let mut own: HashMap<&str, Cost> = HashMap::new();
    for c in order {
        let root = match c.owner.as_deref() {
            None => c.id.as_str(),
            Some(owner) => match root_of.get(owner) {
                Some(r) => *r,
                None => continue,
            },
        };
        root_of.insert(c.id.as_str(), root);
        *own.entry(root).or_default() += c.cost();
    }
    let mut running = Cost::default();
    branch
        .iter()
        .map(|id| {
            running += own.get(id.as_str()).copied().unwrap_or_default();
            running
        })
        .collect()
}

/// The checkpoints as [`chronograph::plan_prune`] reads them.
pub fn prune_candidates(stored: &[StoredCheckpoint]) -> Vec<chronograph::PruneCandidate> {
    stored
        .iter()
        .map(|c| chronograph::PruneCandidate {
            id: c.id.clone(),
            parent: c.parent.clone(),
            ns: c.ns.clone(),
            owner: c.owner.clone(),
            created_ms: c.created_ms,
        })
        .collect()
}

/// JSON text size of `v`.
fn json_len(v: &Value) -> u64 {
    v.to_string().len() as u64
}

/// The checkpoint without values as JSON text, counted rather than written
/// (a serializer of the checkpoint type would add its own code to the
/// app's wasm): id, timestamp and format, then each channel version and
/// each node's versions seen, a version being its 49 characters.
fn skeleton_len(cp: &chronograph::Checkpoint) -> u64 {
    const VERSION: u64 = 49;
    let versions = |m: &chronograph::ChannelVersions| -> u64 {
        2 + m.keys().map(|k| k.len() as u64 + VERSION + 6).sum::<u64>()
    };
    let seen: u64 = cp
        .versions_seen
        .iter()
        .map(|(node, m)| node.len() as u64 + 4 + versions(m))
        .sum();
    120 + versions(&cp.channel_versions) + seen
}

/// Sizes channel values once per (namespace, channel, version): a version
/// is shared by every checkpoint until the channel is written again.
#[derive(Default)]
struct Sizer<'a> {
    full: HashMap<(&'a str, Name, Version), u64>,
}

impl<'a> Sizer<'a> {
    fn full(&mut self, ns: &'a str, channel: &Name, version: Version, value: &ChannelValue) -> u64 {
        let key = (ns, channel.clone(), version);
        *self.full.entry(key).or_insert_with(|| match value {
            ChannelValue::Json(v) => json_len(v),
            ChannelValue::List(items) => {
                let inner: u64 = items.iter().map(|i| json_len(i) + 1).sum();
                inner.max(1) + 1
            }
        })
    }
}

/// The size of the items `new` adds to `old`, when `new` is `old` with
/// items appended (the shared prefix is compared by pointer first: the
/// engine's lists share their items).
fn appended(old: &ChannelValue, new: &ChannelValue) -> Option<u64> {
    let (old, new) = (old.as_list()?, new.as_list()?);
    if old.len() > new.len() {
        return None;
    }
    let same = old
        .iter()
        .zip(new.iter())
        .all(|(a, b)| std::sync::Arc::ptr_eq(a, b) || a == b);
    same.then(|| new.iter().skip(old.len()).map(|i| json_len(i) + 1).sum())
}

/// A checkpoint as listed, before its channels are compared with its parent's.
struct Visited {
    stored: StoredCheckpoint,
    /// Channel → (version, value).
    values: BTreeMap<Name, (Version, ChannelValue)>,
}

impl Session {
    /// Every checkpoint of the thread (all namespaces), sized for the
    /// storage view, newest first within each namespace.
    pub fn stored_checkpoints(&self) -> Vec<StoredCheckpoint> {
        let mut sizer = Sizer::default();
        let mut seen: Vec<Visited> = Vec::new();
        let target = ListTarget::thread(THREAD_ID);
        self.saver
            .visit(&target, &ListOptions::default(), &mut |view| {
                let cp = view.checkpoint();
                let values = view.channel_values();
                let mut with_versions = BTreeMap::new();
                for (channel, value) in values {
                    if let Some(v) = cp.channel_versions.get(&channel) {
                        with_versions.insert(channel, (*v, value));
                    }
                }
                let skeleton = skeleton_len(cp);
                let metadata = serde_json::to_value(view.metadata()).map_or(0, |m| json_len(&m));
                let writes = view.pending_writes();
                let ns = view.checkpoint_ns.to_owned();
                let owner = view.metadata().parents.get(super::parent_ns(&ns)).cloned();
                let stored = StoredCheckpoint {
                    id: cp.id.clone(),
                    parent: view.parent_id().map(str::to_owned),
                    created_ms: chronograph::clock::parse_iso_ms(&cp.ts),
                    owner: if ns.is_empty() { None } else { owner },
                    ns,
                    skeleton,
                    metadata,
                    channels: Vec::new(),
                    writes: writes.iter().map(|(_, _, v)| json_len(v)).sum(),
                    write_count: writes.len() as u64,
                };
                seen.push(Visited {
                    stored,
                    values: with_versions,
                });
            });
        let index: HashMap<(&str, &str), usize> = seen
            .iter()
            .enumerate()
            .map(|(i, v)| ((v.stored.ns.as_str(), v.stored.id.as_str()), i))
            .collect();
        let mut out = Vec::with_capacity(seen.len());
        for Visited { stored, values } in &seen {
            let parent_values = stored
                .parent
                .as_deref()
                .and_then(|p| index.get(&(stored.ns.as_str(), p)))
                .map(|&i| &seen[i].values);
            let channels = values
                .iter()
                .map(|(channel, (version, value))| {
                    let before = parent_values.and_then(|p| p.get(channel));
                    let new_version = before.is_none_or(|(v, _)| v != version);
                    ChannelBytes {
                        channel: channel.clone(),
                        version: *version,
                        full: sizer.full(&stored.ns, channel, *version, value),
                        new_version,
                        appended: before
                            .filter(|_| new_version)
                            .and_then(|(base, old)| Some((*base, appended(old, value)?))),
                        primitive: value
                            .as_json()
                            .is_some_and(|v| !v.is_object() && !v.is_array()),
                    }
                })
                .collect();
            out.push(StoredCheckpoint {
                channels,
                ..stored.clone()
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(counter: u64) -> Version {
        Version { counter, salt: 0 }
    }

    fn channel(
        full: u64,
        new_version: bool,
        appended: Option<u64>,
        primitive: bool,
    ) -> ChannelBytes {
        ChannelBytes {
            channel: Name::from(format!("ch{full}")),
            version: version(2),
            full,
            new_version,
            appended: appended.map(|tail| (version(1), tail)),
            primitive,
        }
    }

    fn checkpoint(channels: Vec<ChannelBytes>) -> StoredCheckpoint {
        StoredCheckpoint {
            id: "c1".into(),
            ns: String::new(),
            parent: None,
            created_ms: None,
            owner: None,
            skeleton: 100,
            metadata: 40,
            channels,
            writes: 0,
            write_count: 0,
        }
    }

    #[test]
    fn sqlite_saver_writes_every_value_at_every_put() {
        let c = checkpoint(vec![
            channel(5_000, false, None, false),
            channel(20, true, None, false),
        ]);
        assert_eq!(c.cost().sqlite, ROW_BYTES + 140 + 5_020);
    }

    #[test]
    fn postgres_saver_writes_a_blob_per_new_version_and_primitives_inline() {
        let c = checkpoint(vec![
            channel(5_000, false, None, false),
            channel(300, true, None, false),
            channel(7, false, None, true),
        ]);
        assert_eq!(c.cost().postgres, ROW_BYTES + 140 + ROW_BYTES + 300 + 7);
    }

    #[test]
    fn chronograph_store_keeps_an_appended_list_as_its_new_items() {
        let c = checkpoint(vec![
            channel(5_000, true, Some(460), false),
            channel(9, false, None, true),
        ]);
        assert_eq!(c.cost().chronograph, ROW_BYTES + 140 + 460);
        assert!(
            c.cost().postgres > 5_000,
            "LangGraph writes the whole list again"
        );
    }

    #[test]
    fn pending_writes_cost_every_store_the_same() {
        let mut c = checkpoint(Vec::new());
        c.writes = 50;
        c.write_count = 2;
        let cost = c.cost();
        assert_eq!(cost.sqlite, cost.postgres);
        assert_eq!(cost.sqlite, cost.chronograph);
        assert_eq!(cost.sqlite, ROW_BYTES + 140 + 50 + 2 * ROW_BYTES);
    }

    #[test]
    fn appended_detects_a_list_that_extends_its_previous_version() {
        let old = ChannelValue::from_json(serde_json::json!([1, 2]));
        let new = ChannelValue::from_json(serde_json::json!([1, 2, 345]));
        assert_eq!(appended(&old, &new), Some(4));
        let replaced = ChannelValue::from_json(serde_json::json!([9, 2, 3]));
        assert_eq!(appended(&old, &replaced), None);
        let scalar = ChannelValue::from_json(serde_json::json!("x"));
        assert_eq!(appended(&old, &scalar), None);
    }

    #[test]
    fn a_branch_total_includes_the_subgraph_checkpoints_its_tasks_wrote() {
        let mut root = checkpoint(vec![channel(10, true, None, false)]);
        let mut sub = root.clone();
        (sub.id, sub.ns, sub.owner) = ("s1".into(), "sub:1".into(), Some("c1".into()));
        let mut inner = root.clone();
        (inner.id, inner.ns, inner.owner) = ("t1".into(), "sub:1|in:2".into(), Some("s1".into()));
        let mut other = root.clone();
        other.id = "c0".into();
        root.parent = Some("c0".into());
        let stored = [other.clone(), root.clone(), inner.clone(), sub.clone()];
        let series = branch_series(&stored, &["c0".into(), "c1".into()]);
        let one = root.cost().sqlite;
        assert_eq!(
            series.iter().map(|c| c.sqlite).collect::<Vec<_>>(),
            [one, 4 * one]
        );
    }

    fn chat_of(turns: usize) -> Session {
        let spec = crate::scenarios::by_id("chat").unwrap().graph().unwrap();
        let mut s = Session::new(spec).unwrap();
        let long = "x".repeat(200);
        for i in 0..turns {
            s.invoke(crate::chat::human(&format!("{i} {long}")), None)
                .unwrap();
        }
        s
    }

    #[test]
    fn a_growing_message_list_grows_sqlite_quadratically_and_chronograph_linearly() {
        let (small, large) = (chat_of(10), chat_of(20));
        let (a, b) = (
            total(&small.stored_checkpoints(), |_| true),
            total(&large.stored_checkpoints(), |_| true),
        );
        // Twice the turns: the SQLite model more than triples (every put
        // writes the whole list), Chronograph's store about doubles.
        assert!(b.sqlite > 3 * a.sqlite, "{a:?} {b:?}");
        assert!(b.chronograph < 5 * a.chronograph / 2, "{a:?} {b:?}");
        assert!(b.chronograph < b.postgres && b.postgres < b.sqlite, "{b:?}");
    }

    #[test]
    fn per_checkpoint_costs_add_up_to_the_thread_total() {
        let s = chat_of(5);
        let stored = s.stored_checkpoints();
        let mut sum = Cost::default();
        for c in &stored {
            sum += c.cost();
        }
        assert_eq!(sum, total(&stored, |_| true));
    }

    #[test]
    fn a_pruned_thread_rebases_the_lists_whose_base_is_dropped() {
        let s = chat_of(6);
        let stored = s.stored_checkpoints();
        let plan =
            chronograph::plan_prune(&prune_candidates(&stored), &chronograph::Retention::Latest);
        assert_eq!(plan.keep.len(), 1);
        let kept = total(&stored, |c| plan.keep.contains(&c.id));
        let latest = stored.iter().find(|c| plan.keep.contains(&c.id)).unwrap();
        // Alone, the latest checkpoint's message list is stored whole.
        let whole: u64 = latest.channels.iter().map(|b| b.full).sum();
        assert!(kept.chronograph >= whole, "{kept:?} {whole}");
        assert!(kept.sqlite < total(&stored, |_| true).sqlite / 4);
    }
}
