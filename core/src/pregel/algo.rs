//! Pure superstep logic (LangGraph `pregel/_algo.py`): which tasks a
//! checkpoint schedules, how one superstep's writes are applied, and when a
//! breakpoint fires. No I/O, no node calls.

use crate::channels::{ChannelKind, ChannelValue};
use crate::checkpoint::{Checkpoint, Name, PendingWrite, Version, NULL_TASK_ID};
use crate::clock::{format_uuid, Digits, IdGenerator};
use crate::error::Result;
use crate::graph::{CompiledNode, GraphInner, NodeInput, NodeIo, State};
use crate::reserved::{
    ERROR, ERROR_SOURCE_NODE, INTERRUPT, NO_WRITES, NS_SEP, PULL, PUSH, RESUME, RETURN,
};
use crate::types::START;
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::Arc;

/// Writes that `apply_writes` never applies to a channel.
const SPECIAL_CHANNELS: [&str; 7] = [
    NO_WRITES,
    PUSH,
    RESUME,
    INTERRUPT,
    RETURN,
    ERROR,
    ERROR_SOURCE_NODE,
];

/// Writes that record what happened to a task rather than its output.
const CONTROL_CHANNELS: [&str; 4] = [ERROR, ERROR_SOURCE_NODE, INTERRUPT, RESUME];

/// Whether `channel` is a control channel (a task with only those is unfinished).
pub(crate) fn is_control(channel: &str) -> bool {
    CONTROL_CHANNELS.contains(&channel)
}

/// The version function of a read (a snapshot, a paused run's state): a
/// version past `current` that does not advance the saver's counter, so
/// reading never changes the versions later saves get.
pub(crate) fn read_version(current: Option<Version>) -> Version {
    Version {
        counter: current.map_or(0, |v| v.counter) + 1,
        salt: u64::MAX,
    }
}

/// The writes stored for the `NULL_TASK_ID` pseudo-task (a `Command`'s
/// update, goto and resume): applied before the tasks of the checkpoint
/// they are stored on run or are shown.
pub(crate) fn null_writes(pending: &[PendingWrite]) -> Vec<(String, Value)> {
    pending
        .iter()
        .filter(|w| w.task_id == NULL_TASK_ID)
        .map(|w| (w.channel.clone(), w.value.clone()))
        .collect()
}

/// A task scheduled from a checkpoint: node `name`, triggered by `triggers`
/// (a PULL task), or run by a `Send` with its argument (a PUSH task).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Task {
    pub id: String,
    pub name: Name,
    /// `~__pregel_pull, NAME` or `~__pregel_push, 0000000003, False`:
    /// writes are applied in path order.
    pub path: Name,
    pub triggers: Vec<Name>,
    pub writes: Vec<(String, Value)>,
    /// A PUSH task's input: its `Send`'s argument.
    pub arg: Option<Value>,
    /// A PULL task of a [`Pregel`](crate::Pregel) node: what it reads
    /// (its channel's value, or an object of its channels). Boxed: a
    /// `StateGraph`'s tasks, moved around every superstep, stay small.
    pub input: Option<Box<State>>,
}

impl Task {
    /// A pseudo-task with no triggers (input, null writes): applying it
    /// neither consumes triggers nor clears ephemeral channels.
    pub(crate) fn pseudo(name: &str, writes: Vec<(String, Value)>) -> Self {
        Task {
            id: String::new(),
            name: name.into(),
            path: "".into(),
            triggers: Vec::new(),
            writes,
            arg: None,
            input: None,
        }
    }

    /// Whether stored writes show the task completed (any non-control write).
    pub(crate) fn is_finished(&self) -> bool {
        self.writes.iter().any(|(c, _)| !is_control(c))
    }
}

/// LangGraph's `task_path_str` for a pull task.
pub(crate) fn pull_path(node: &str) -> String {
    format!("~{PULL}, {node}")
}

/// The 16 raw bytes of a UUID string (zeros where it is not one).
fn uuid_bytes(id: &str) -> [u8; 16] {
    let mut digits = id.bytes().filter(|c| *c != b'-');
    let mut out = [0u8; 16];
    for b in out.iter_mut() {
        let pair = (digits.next(), digits.next());
        let hex = |d: Option<u8>| d.and_then(|d| char::from(d).to_digit(16));
        *b = match (hex(pair.0), hex(pair.1)) {
            (Some(hi), Some(lo)) => (hi * 16 + lo) as u8,
            _ => 0,
        };
    }
    out
}

/// A task's id, as LangGraph hashes it (`_xxhash_str`): xxh3-128 over the
/// checkpoint id bytes, then the task's namespace (`[parent_ns|]node`), the
/// step, the node, and `__pregel_pull` + the triggers (PULL) or
/// `__pregel_push` + the `Send`'s index (PUSH).
pub(crate) fn task_id(
    checkpoint_id: &str,
    parent_ns: &str,
    node: &str,
    step: i64,
    kind: &str,
    parts: &[&str],
) -> String {
    // Streamed into the hasher: the same bytes as one concatenated buffer,
    // without building it on every superstep.
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(&uuid_bytes(checkpoint_id));
    if !parent_ns.is_empty() {
        hasher.update(parent_ns.as_bytes());
        hasher.update(&[NS_SEP as u8]);
    }
    hasher.update(node.as_bytes());
    // `step.to_string()`, without the allocation.
    if step < 0 {
        hasher.update(b"-");
    }
    hasher.update(Digits::new(step.unsigned_abs(), 1).as_bytes());
    hasher.update(node.as_bytes());
    hasher.update(kind.as_bytes());
    for p in parts {
        hasher.update(p.as_bytes());
    }
    format_uuid(hasher.digest128())
}

/// A deterministic UUID derived from a checkpoint id and a name (stands in
/// for LangGraph's `uuid5(base_id, name)` ids of `update_state` tasks).
pub(crate) fn derived_id(checkpoint_id: &str, name: &str) -> String {
    let mut bytes = uuid_bytes(checkpoint_id).to_vec();
    bytes.extend_from_slice(name.as_bytes());
    let bits = xxhash_rust::xxh3::xxh3_128(&bytes);
    let bits = bits & !(0xF000u128 << 64) | (0x5000u128 << 64);
    format_uuid(bits & !(0xC000u128 << 48) | (0x8000u128 << 48))
}

/// The tasks `checkpoint` schedules for superstep `step` of the graph at
/// namespace `ns`: a PUSH task per `Send` in `__pregel_tasks`
/// ([`prepare_push_tasks`](super::push::prepare_push_tasks)), then PULL tasks in node
/// registration order (`__start__` first). Node N runs iff one of its
/// trigger channels is available and newer than what N last saw.
pub(crate) fn prepare_next_tasks(
    graph: &GraphInner,
    checkpoint: &Checkpoint,
    ns: &str,
    step: i64,
) -> Vec<Task> {
    if checkpoint.channel_versions.is_empty() {
        return Vec::new();
    }
    let mut tasks = Vec::new();
    super::push::prepare_push_tasks(graph, checkpoint, ns, step, &mut tasks);
    for node in graph.nodes.values() {
        let seen = checkpoint.versions_seen.get(&node.name);
        let fired = node.triggers.iter().any(|c| {
            // Cheapest test first: most triggers of most nodes are empty.
            let value = checkpoint.channel_values.get(c);
            value.is_some()
                && graph.channels.get(c).is_some_and(|k| k.is_available(value))
                && checkpoint.channel_versions.get(c) > seen.and_then(|s| s.get(c))
        });
        if !fired {
            continue;
        }
        if let Some(io) = &node.io {
            tasks.extend(pregel_task(graph, checkpoint, ns, step, node, io));
            continue;
        }
        // LangGraph's task triggers are all of the node's triggers (sorted),
        // not only those that fired.
        let triggers: Vec<&str> = node.triggers.iter().map(|t| &**t).collect();
        tasks.push(Task {
            id: task_id(&checkpoint.id, ns, &node.name, step, PULL, &triggers),
            name: node.name.clone(),
            path: node.path.clone(),
            triggers: node.triggers.clone(),
            writes: Vec::new(),
            arg: None,
            input: None,
        });
    }
    tasks
}

/// The PULL task of a [`Pregel`](crate::Pregel) node one of whose triggers
/// fired, with what it reads (LangGraph's `_proc_input`); `None` when it
/// reads nothing yet: its channel (or every channel of its list) is empty,
/// or, as in LangGraph.js, one of the trigger channels it reads as an
/// object is. Its triggers: all of the node's, sorted (LangGraph), or the
/// first that fired (LangGraph.js).
fn pregel_task(
    graph: &GraphInner,
    checkpoint: &Checkpoint,
    ns: &str,
    step: i64,
    node: &CompiledNode,
    io: &NodeIo,
) -> Option<Task> {
    let js = graph.semantics.pregel_nodes_as_js;
    let values = &checkpoint.channel_values;
    let read = |c: &str| {
        let kind = graph.channels.get(c)?;
        let value = values.get(c).filter(|v| kind.is_available(Some(v)))?;
        Some(kind.read(value))
    };
    let input = match &io.input {
        NodeInput::Channel(c) => State::from_arg(read(c)?.to_json()),
        NodeInput::FirstOf(cs) => State::from_arg(cs.iter().find_map(|c| read(c))?.to_json()),
        NodeInput::Dict(entries) => {
            let mut map = std::collections::BTreeMap::new();
            let mut order: Vec<Name> = Vec::with_capacity(entries.len());
            for (key, c) in entries {
                match read(c) {
                    Some(v) => {
                        let key = Name::from(key.as_str());
                        order.push(key.clone());
                        map.insert(key, v);
                    }
                    None if js && node.triggers.iter().any(|t| **t == **c) => return None,
                    None => {}
                }
            }
            State::from_values(map).in_order(order.into())
        }
    };
    let triggers: Vec<Name> = match js {
        true => node
            .triggers
            .iter()
            .find(|c| {
                let value = values.get(*c);
                graph
                    .channels
                    .get(*c)
                    .is_some_and(|k| k.is_available(value))
                    && checkpoint.channel_versions.get(*c)
                        > checkpoint
                            .versions_seen
                            .get(&node.name)
                            .and_then(|s| s.get(*c))
            })
            .cloned()
            .into_iter()
            .collect(),
        false => {
            let mut all = node.triggers.clone();
            all.sort();
            all
        }
    };
    let parts: Vec<&str> = triggers.iter().map(|t| &**t).collect();
    Some(Task {
        id: task_id(&checkpoint.id, ns, &node.name, step, PULL, &parts),
        name: node.name.clone(),
        path: node.path.clone(),
        triggers,
        writes: Vec::new(),
        arg: None,
        input: Some(Box::new(input)),
    })
}

/// Gives each task the output writes stored for it; a task that gets any
/// is finished and will not run again.
pub(crate) fn match_writes(tasks: &mut [Task], pending: &[PendingWrite]) {
    for task in tasks.iter_mut() {
        task.writes = pending
            .iter()
            .filter(|w| w.task_id == task.id && !is_control(&w.channel))
            .map(|w| (w.channel.clone(), w.value.clone()))
            .collect();
    }
}

/// Applies one superstep's writes to a copy of `checkpoint` (LangGraph
/// `apply_writes`): tasks in path order, trigger versions recorded as seen,
/// one new version for every channel that changed, ephemeral channels
/// cleared when a real step ran. Message ids come from `ids` (the root
/// graph's: ids stay unique across subgraphs). Returns the new checkpoint and the
/// channels it updated; on error `checkpoint` is untouched.
pub(crate) fn apply_writes(
    graph: &GraphInner,
    ids: &IdGenerator,
    checkpoint: &Checkpoint,
    tasks: &[Task],
    next_version: &dyn Fn(Option<Version>) -> Version,
) -> Result<(Checkpoint, BTreeSet<Name>)> {
    let mut cp = checkpoint.clone();
    let updated = apply_writes_in_place(graph, ids, &mut cp, &mut tasks.to_vec(), next_version)?;
    Ok((cp, updated))
}

/// [`apply_writes`] changing `cp` itself (the run loop, which has no use
/// for the old checkpoint, so nothing is copied), and moving the tasks'
/// writes into the channels (the tasks are left without writes). On error
/// `cp` may be half updated: only a caller that then discards it may use this.
pub(crate) fn apply_writes_in_place(
    graph: &GraphInner,
    ids: &IdGenerator,
    cp: &mut Checkpoint,
    tasks: &mut [Task],
    next_version: &dyn Fn(Option<Version>) -> Version,
) -> Result<BTreeSet<Name>> {
    tasks.sort_by(|a, b| a.path.cmp(&b.path));
    let bump_step = tasks.iter().any(|t| !t.triggers.is_empty());

    for task in tasks.iter() {
        let seen = Arc::make_mut(
            Arc::make_mut(&mut cp.versions_seen).get_or_insert_default(task.name.clone()),
        );
        for trigger in &task.triggers {
            if let Some(v) = cp.channel_versions.get(trigger) {
                seen.insert(trigger.clone(), *v);
            }
        }
    }
    let version = next_version(cp.max_version());

    for task in tasks.iter() {
        for trigger in &task.triggers {
            // Only a complete barrier or a finished deferred channel changes when consumed.
            if let Some(kind) = graph.channels.get(trigger).filter(|k| k.is_consumable()) {
                let mut slot = cp.channel_values.remove(trigger);
                if kind.consume(&mut slot) {
                    Arc::make_mut(&mut cp.channel_versions).insert(trigger.clone(), version);
                }
                if let Some(v) = slot {
                    cp.channel_values.insert(trigger.clone(), v);
                }
            }
        }
    }

    // Per channel, in first-write order, the values written (a superstep
    // writes a handful of channels: a Vec beats a map here).
    let mut grouped: Vec<(&Name, &ChannelKind, Vec<Value>)> = Vec::new();
    for task in tasks.iter_mut() {
        for (channel, value) in std::mem::take(&mut task.writes) {
            if SPECIAL_CHANNELS.contains(&channel.as_str()) {
                continue;
            }
            let Some((name, kind)) = graph.channels.get_key_value(channel.as_str()) else {
                continue; // LangGraph ignores writes to unknown channels
            };
            match grouped.iter_mut().find(|(n, _, _)| *n == name) {
                Some((_, _, values)) => values.push(value),
                None => grouped.push((name, kind, vec![value])),
            }
        }
    }

    let mut updated = BTreeSet::new();
    for (channel, kind, values) in grouped {
        if update_slot(
            ids,
            cp,
            kind,
            channel,
            values,
            graph.semantics.js_undefined.as_ref(),
        )? {
            Arc::make_mut(&mut cp.channel_versions).insert(channel.clone(), version);
        }
        if kind.is_available(cp.channel_values.get(channel)) {
            updated.insert(channel.clone());
        }
    }

    if bump_step {
        // LangGraph updates every channel not written with no values: only
        // an ephemeral channel or a topic that does not accumulate changes
        // then (it clears); reducers and barriers ignore an empty update,
        // so they are skipped.
        for (channel, kind) in &graph.channels {
            if updated.contains(channel) {
                continue;
            }
            let cleared = match kind {
                ChannelKind::Ephemeral { .. } => cp.channel_values.remove(channel).is_some(),
                ChannelKind::Topic {
                    accumulate: false, ..
                } => clear_topic(ids, cp, kind, channel)?,
                // Emptied, and kept as an empty list (as LangGraph stores it).
                ChannelKind::Tasks => match cp.channel_values.get_mut(channel) {
                    Some(v) if !v.is_empty() => {
                        *v = ChannelValue::List(Default::default());
                        true
                    }
                    _ => false,
                },
                _ => false,
            };
            if cleared {
                Arc::make_mut(&mut cp.channel_versions).insert(channel.clone(), version);
            }
        }
        finish_if_last(graph, cp, &mut updated, version);
    }
    Ok(updated)
}

/// LangGraph's end of `apply_writes`: when this superstep triggers no node
/// (the run would end after it), every channel is told the run finishes,
/// so a deferred node's channel becomes available and the node runs next
/// (`add_node(defer=True)`). Graphs without deferred nodes skip it.
fn finish_if_last(
    graph: &GraphInner,
    cp: &mut Checkpoint,
    updated: &mut BTreeSet<Name>,
    version: Version,
) {
    if !graph.channels.values().any(ChannelKind::waits_for_finish) {
        return;
    }
    let triggers_a_node = |c: &Name| graph.nodes.values().any(|n| n.triggers.contains(c));
    if updated.iter().any(triggers_a_node) {
        return;
    }
    for (channel, kind) in graph.channels.iter().filter(|(_, k)| k.waits_for_finish()) {
        let mut slot = cp.channel_values.remove(channel);
        let finished = kind.finish(&mut slot);
        let available = kind.is_available(slot.as_ref());
        if let Some(v) = slot {
            cp.channel_values.insert(channel.clone(), v);
        }
        if finished {
            Arc::make_mut(&mut cp.channel_versions).insert(channel.clone(), version);
            if available {
                updated.insert(channel.clone());
            }
        }
    }
}

/// A topic that does not accumulate, emptied at the end of a superstep that
/// did not write it (its empty update); whether it changed. Out of line:
/// most graphs have no topics.
#[cold]
fn clear_topic(
    ids: &IdGenerator,
    cp: &mut Checkpoint,
    kind: &ChannelKind,
    channel: &Name,
) -> Result<bool> {
    if !kind.is_available(cp.channel_values.get(channel)) {
        return Ok(false);
    }
    update_slot(ids, cp, kind, channel, Vec::new(), None)
}

fn update_slot(
    ids: &IdGenerator,
    cp: &mut Checkpoint,
    kind: &ChannelKind,
    channel: &Name,
    values: Vec<Value>,
    undefined: Option<&Value>,
) -> Result<bool> {
    // Updated in place when the channel has a value (no remove + insert).
    if let Some(current) = cp.channel_values.get_mut(channel) {
        let placeholder = ChannelValue::List(Default::default()); // allocation-free
        let mut slot = Some(std::mem::replace(current, placeholder));
        let result = kind.update(channel, &mut slot, values, ids, undefined);
        match slot {
            Some(v) => *current = v,
            None => {
                cp.channel_values.remove(channel);
            }
        }
        return result;
    }
    let mut slot = None;
    let result = kind.update(channel, &mut slot, values, ids, undefined);
    if let Some(v) = slot {
        cp.channel_values.insert(channel.clone(), v);
    }
    result
}

/// LangGraph's `should_interrupt`: some channel changed since the last
/// pause or resume, and one of `tasks` is named in `nodes` (`"*"`: any
/// node but `__start__`).
pub(crate) fn should_interrupt(checkpoint: &Checkpoint, nodes: &[String], tasks: &[Task]) -> bool {
    if nodes.is_empty() {
        return false;
    }
    let seen = checkpoint.versions_seen.get(INTERRUPT);
    let changed = checkpoint
        .channel_versions
        .iter()
        .any(|(c, v)| Some(v) > seen.and_then(|s| s.get(c)));
    let all = nodes.iter().any(|n| n == "*");
    changed
        && tasks.iter().any(|t| {
            if all {
                &*t.name != START
            } else {
                nodes.iter().any(|n| **n == *t.name)
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_ids_are_uuid_shaped_and_depend_on_every_input() {
        let cp = "1f0b2c3d-4e5f-6a7b-8000-0123456789ab";
        let a = task_id(cp, "", "booking", 1, PULL, &["branch:to:booking"]);
        // The streamed hash equals the hash of the concatenated bytes.
        let mut bytes = uuid_bytes(cp).to_vec();
        bytes.extend_from_slice(b"booking1booking__pregel_pullbranch:to:booking");
        assert_eq!(a, format_uuid(xxhash_rust::xxh3::xxh3_128(&bytes)));
        assert_eq!(a.len(), 36);
        assert_eq!(
            a,
            task_id(cp, "", "booking", 1, PULL, &["branch:to:booking"])
        );
        assert_ne!(
            a,
            task_id(cp, "", "booking", 2, PULL, &["branch:to:booking"])
        );
        assert_ne!(a, task_id(cp, "", "reply", 1, PULL, &["branch:to:booking"]));
        // Inside a subgraph the namespace is hashed before the node.
        let nested = task_id(cp, "outer:1", "booking", 1, PULL, &["branch:to:booking"]);
        let mut bytes = uuid_bytes(cp).to_vec();
        bytes.extend_from_slice(b"outer:1|booking1booking__pregel_pullbranch:to:booking");
        assert_eq!(nested, format_uuid(xxhash_rust::xxh3::xxh3_128(&bytes)));
    }

    #[test]
    fn steps_hash_as_their_decimal_text() {
        let cp = "1f0b2c3d-4e5f-6a7b-8000-0123456789ab";
        for n in [0, 7, -1, -2, 42, i64::MAX, i64::MIN] {
            let mut bytes = uuid_bytes(cp).to_vec();
            bytes.extend_from_slice(format!("a{n}a__pregel_pullt").as_bytes());
            assert_eq!(
                task_id(cp, "", "a", n, PULL, &["t"]),
                format_uuid(xxhash_rust::xxh3::xxh3_128(&bytes))
            );
        }
    }

    #[test]
    fn pull_paths_sort_by_node_name() {
        let mut paths = vec![pull_path("zz_b"), pull_path("c"), pull_path("a")];
        paths.sort();
        assert_eq!(paths, [pull_path("a"), pull_path("c"), pull_path("zz_b")]);
    }
}
