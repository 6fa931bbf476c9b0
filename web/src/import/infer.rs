//! A graph spec written from a LangGraph history: its nodes (from `next`
//! and the saver's trigger channels), the edges seen between them, and
//! its channels (`add_messages` for lists of messages), per subgraph
//! namespace. The nodes have no code: the spec serves `update_state` until
//! the real graph is attached.

use chronograph::{ImportFormat, END, START};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// One checkpoint as the history records it.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// Checkpoint id.
    pub id: String,
    /// Namespace (`""` at the root).
    pub ns: String,
    /// Parent id.
    pub parent: Option<String>,
    /// `metadata.source`.
    pub source: String,
    /// The nodes that run next.
    pub next: Vec<String>,
    /// The state's values.
    pub values: Map<String, Value>,
}

fn text_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    path.iter().try_fold(v, |v, k| v.get(k))?.as_str()
}

/// The checkpoints of a LangGraph history (items that do not parse are left
/// out: [`chronograph::import_thread`] has already refused those).
pub fn recorded(items: &[Value], format: ImportFormat) -> Vec<Recorded> {
    items
        .iter()
        .filter_map(|item| {
            let (addr, parent) = match format {
                ImportFormat::AgentServerHistory => (
                    item.get("checkpoint")?,
                    item.get("parent_checkpoint").filter(|p| !p.is_null()),
                ),
                ImportFormat::PythonStateHistory => (
                    item.get("config")?.get("configurable")?,
                    item.get("parent_config")
                        .and_then(|p| p.get("configurable")),
                ),
                ImportFormat::SaverList => (
                    item.get("config")?.get("configurable")?,
                    item.get("parentConfig").and_then(|p| p.get("configurable")),
                ),
            };
            let (next, values) = match format {
                ImportFormat::SaverList => {
                    let cp = item.get("checkpoint")?;
                    let values = cp
                        .get("channel_values")
                        .and_then(Value::as_object)
                        .map(|m| {
                            m.iter()
                                .filter(|(k, _)| !is_internal(k))
                                .map(|(k, v)| (k.clone(), v.clone()))
                                .collect()
                        })
                        .unwrap_or_default();
                    (saver_next(cp), values)
                }
                _ => (
                    item.get("next")
                        .and_then(Value::as_array)
                        .map(|a| {
                            a.iter()
                                .filter_map(|n| n.as_str().map(str::to_owned))
                                .collect()
                        })
                        .unwrap_or_default(),
                    item.get("values")
                        .and_then(Value::as_object)
                        .cloned()
                        .unwrap_or_default(),
                ),
            };
            Some(Recorded {
                id: text_at(addr, &["checkpoint_id"])?.to_owned(),
                ns: text_at(addr, &["checkpoint_ns"]).unwrap_or("").to_owned(),
                parent: parent
                    .and_then(|p| text_at(p, &["checkpoint_id"]))
                    .map(str::to_owned),
                source: text_at(item, &["metadata", "source"])
                    .unwrap_or("loop")
                    .to_owned(),
                next,
                values,
            })
        })
        .collect()
}

/// Channels LangGraph keeps for itself (`__start__`, `branch:to:x`, …).
fn is_internal(channel: &str) -> bool {
    channel.starts_with("__") || channel.contains(':')
}

/// A saver checkpoint's `next`: the nodes whose trigger channel
/// (`branch:to:NODE`, or `__start__` for the input) has a version newer than
/// the one the node saw, and holds a value.
fn saver_next(checkpoint: &Value) -> Vec<String> {
    let versions = checkpoint.get("channel_versions");
    let seen = checkpoint.get("versions_seen");
    let held = checkpoint.get("channel_values");
    // A trigger fires when its channel holds a value newer than the node saw.
    let newer = |node: &str, channel: &str| {
        let Some(v) = versions.and_then(|v| v.get(channel)) else {
            return false;
        };
        if held.and_then(|h| h.get(channel)).is_none() {
            return false;
        }
        match seen.and_then(|s| s.get(node)).and_then(|m| m.get(channel)) {
            None => true,
            Some(s) => compare_versions(v, s) == std::cmp::Ordering::Greater,
        }
    };
    let mut out = Vec::new();
    if newer(START, START) {
        out.push(START.to_owned());
    }
    if let Some(Value::Object(v)) = versions {
        for channel in v.keys() {
            if let Some(node) = channel.strip_prefix("branch:to:") {
                if newer(node, channel) {
                    out.push(node.to_owned());
                }
            }
        }
    }
    out
}

/// Versions are integers (LangGraph.js) or `"counter.salt"` strings.
fn compare_versions(a: &Value, b: &Value) -> std::cmp::Ordering {
    let num = |v: &Value| match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.split('.').next()?.parse::<f64>().ok(),
        _ => None,
    };
    match (num(a), num(b)) {
        (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal),
        _ => a.to_string().cmp(&b.to_string()),
    }
}

/// The node names a history records (in `next`), in order of first appearance
/// from the oldest checkpoint: the `as_node` choices of an imported thread
/// with no graph (its root namespace).
pub fn history_nodes(recorded: &[Recorded]) -> Vec<String> {
    nodes_in(
        &recorded
            .iter()
            .filter(|r| r.ns.is_empty())
            .collect::<Vec<_>>(),
    )
}

/// [`history_nodes`] of one namespace's checkpoints.
fn nodes_in(checkpoints: &[&Recorded]) -> Vec<String> {
    let mut sorted = checkpoints.to_vec();
    crate::sort::sort_by(&mut sorted, |a, b| a.id.cmp(&b.id));
    let mut out: Vec<String> = Vec::new();
    for r in sorted {
        for n in &r.next {
            if n != START && n != END && !out.contains(n) {
                out.push(n.clone());
            }
        }
    }
    out
}

/// A namespace's node names without task ids (`research:1d90…|search:7a…`
/// → `research|search`): every run of a subgraph node shares one spec.
fn name_path(ns: &str) -> String {
    ns.split('|')
        .filter(|s| !s.is_empty())
        .map(|s| s.split(':').next().unwrap_or(s))
        .collect::<Vec<_>>()
        .join("|")
}

/// Whether `v` is a list of chat messages (`{type|role, content}` objects,
/// or LangChain's serialized `{lc, kwargs: {content}}`).
fn is_message_list(v: &Value) -> bool {
    v.as_array().is_some_and(|items| {
        !items.is_empty()
            && items.iter().all(|m| {
                let plain = (m.get("type").is_some() || m.get("role").is_some())
                    && m.get("content").is_some();
                let lc = m.get("lc").is_some()
                    && m.get("kwargs").and_then(|k| k.get("content")).is_some();
                plain || lc
            })
    })
}

/// A graph spec (the JSON graph format) for a history's root namespace:
/// its channels (`add_messages` where a value is a list of messages, else
/// `last_value`), its nodes (no code), and an edge from each node to the
/// nodes a checkpoint it wrote had `next` (`__end__` when that was empty).
/// A node whose runs have a namespace of their own (a LangGraph.js saver
/// lists them) is a subgraph with the spec written from those checkpoints,
/// so a fork inside it offers the subgraph's nodes.
pub fn infer_spec(recorded: &[Recorded]) -> Value {
    spec_at(recorded, "")
}

/// [`infer_spec`] for the namespaces whose [`name_path`] is `path`.
fn spec_at(recorded: &[Recorded], path: &str) -> Value {
    let root: Vec<&Recorded> = recorded
        .iter()
        .filter(|r| name_path(&r.ns) == path)
        .collect();
    let by_id: BTreeMap<&str, &Recorded> = root.iter().map(|r| (r.id.as_str(), *r)).collect();
    let mut channels = Map::new();
    for r in &root {
        for (k, v) in &r.values {
            let reducer = if is_message_list(v) {
                "add_messages"
            } else {
                "last_value"
            };
            // A list of messages anywhere decides; an empty one does not.
            let known = channels.get(k).and_then(|c: &Value| c["reducer"].as_str());
            if known.is_none() || (known == Some("last_value") && reducer == "add_messages") {
                channels.insert(k.clone(), json!({ "reducer": reducer }));
            }
        }
    }
    let mut nodes = nodes_in(&root);
    // Subgraph nodes: the namespaces one level below this one.
    let below = |name: &str| {
        if path.is_empty() {
            name.to_owned()
        } else {
            format!("{path}|{name}")
        }
    };
    for r in recorded {
        let p = name_path(&r.ns);
        let child = match p.rsplit_once('|') {
            Some((parent, child)) if parent == path => child,
            None if path.is_empty() && !p.is_empty() => p.as_str(),
            _ => continue,
        };
        if !nodes.iter().any(|n| n == child) {
            nodes.push(child.to_owned());
        }
    }
    let mut edges: BTreeSet<(String, String)> = BTreeSet::new();
    for r in &root {
        // A loop checkpoint is what the nodes its parent had in `next` wrote.
        if r.source != "loop" {
            continue;
        }
        let Some(parent) = r.parent.as_deref().and_then(|p| by_id.get(p)) else {
            continue;
        };
        for ran in &parent.next {
            if r.next.is_empty() {
                if ran != START {
                    edges.insert((ran.clone(), END.to_owned()));
                }
            } else {
                for to in &r.next {
                    edges.insert((ran.clone(), to.clone()));
                }
            }
        }
    }
    if !edges.iter().any(|(from, _)| from == START) {
        if let Some(first) = nodes.first() {
            edges.insert((START.to_owned(), first.clone()));
        }
    }
    // Edges in a stable, readable order: from __start__ first, then by node order.
    let rank = |n: &str| {
        if n == START {
            0
        } else {
            nodes
                .iter()
                .position(|x| x == n)
                .map_or(usize::MAX, |i| i + 1)
        }
    };
    let mut edges: Vec<(String, String)> = edges.into_iter().collect();
    crate::sort::sort_by_key(&mut edges, |(a, b)| (rank(a), rank(b)));
    let nodes: Map<String, Value> = nodes
        .into_iter()
        .map(|n| {
            let inner = below(&n);
            let node = if recorded.iter().any(|r| name_path(&r.ns) == inner) {
                json!({ "subgraph": spec_at(recorded, &inner) })
            } else {
                json!({ "writes": [] })
            };
            (n, node)
        })
        .collect();
    json!({
        "channels": channels,
        "nodes": nodes,
        "edges": edges.into_iter().map(|(a, b)| json!([a, b])).collect::<Vec<_>>(),
    })
}
