//! What the inspector shows, as plain data: a snapshot flattened to JSON-ish
//! fields, and a per-channel diff between two snapshots. Pure Rust (no
//! Leptos), unit-tested natively.

use crate::i18n::{fill, Strings};
use serde_json::Value;

use crate::session::{short, Session};

/// One task scheduled from a checkpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskData {
    /// Node name.
    pub name: String,
    /// Values passed to `interrupt()`, if the task paused.
    pub interrupts: Vec<Value>,
    /// The stored error, if it failed.
    pub error: Option<String>,
    /// Its writes, once finished.
    pub result: Option<Value>,
    /// A PUSH task's input: the argument of the `Send` that made it.
    pub arg: Option<Value>,
    /// For a task that runs a subgraph: the namespace its checkpoints go to.
    pub ns: Option<String>,
}

/// The selected snapshot, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct SnapshotData {
    /// Checkpoint id.
    pub id: String,
    /// State values (channels as a JSON object).
    pub values: Value,
    /// Nodes that run next.
    pub next: Vec<String>,
    /// Tasks (with interrupts and errors).
    pub tasks: Vec<TaskData>,
    /// `metadata` as JSON.
    pub metadata: Value,
    /// Creation time.
    pub created_at: String,
    /// Parent checkpoint id.
    pub parent: Option<String>,
}

impl SnapshotData {
    /// Whether a task of this checkpoint is waiting for a resume value.
    pub fn interrupted(&self) -> bool {
        self.tasks.iter().any(|t| !t.interrupts.is_empty())
    }
}

/// The snapshot at `id`, or `None` when it is not in the thread.
pub fn snapshot(session: &Session, id: &str) -> Option<SnapshotData> {
    let s = session.snapshot(Some(id)).ok()?;
    let sends = if s.tasks.iter().any(|t| send_index(&t.path).is_some()) {
        session.sends(id)
    } else {
        Vec::new()
    };
    Some(SnapshotData {
        id: s
            .config
            .checkpoint_id
            .clone()
            .unwrap_or_else(|| id.to_owned()),
        values: s.values.to_json(),
        next: s.next.clone(),
        tasks: s
            .tasks
            .iter()
            .map(|t| TaskData {
                name: t.name.clone(),
                interrupts: t.interrupts.iter().map(|i| i.value.clone()).collect(),
                error: t.error.clone(),
                result: t.result.clone(),
                arg: send_index(&t.path)
                    .and_then(|i| sends.get(i))
                    .and_then(|p| p.get("arg").cloned()),
                ns: match &t.state {
                    Some(chronograph::TaskState::Config(c)) => Some(c.checkpoint_ns.clone()),
                    Some(chronograph::TaskState::Snapshot(s)) => {
                        Some(s.config.checkpoint_ns.clone())
                    }
                    None => None,
                },
            })
            .collect(),
        metadata: s
            .metadata
            .as_ref()
            .and_then(|m| serde_json::to_value(m).ok())
            .unwrap_or(Value::Null),
        created_at: s.created_at.clone().unwrap_or_default(),
        parent: s
            .parent_config
            .as_ref()
            .and_then(|p| p.checkpoint_id.clone()),
    })
}

/// How one channel differs between two snapshots.
#[derive(Clone, Debug, PartialEq)]
pub enum ChannelDiff {
    /// Only in the newer snapshot.
    Added(String, Value),
    /// Only in the older snapshot.
    Removed(String, Value),
    /// A list that kept its old items and gained these at the end (a reducer append).
    Appended(String, Vec<Value>),
    /// Any other change.
    Changed(String, Value, Value),
}

impl ChannelDiff {
    /// The channel's name.
    pub fn channel(&self) -> &str {
        match self {
            ChannelDiff::Added(c, _)
            | ChannelDiff::Removed(c, _)
            | ChannelDiff::Appended(c, _)
            | ChannelDiff::Changed(c, _, _) => c,
        }
    }
}

/// Per-channel differences from `old` to `new` (both JSON objects), in
/// channel order. Unchanged channels are left out.
pub fn diff(old: &Value, new: &Value) -> Vec<ChannelDiff> {
    let empty = serde_json::Map::new();
    let o = old.as_object().unwrap_or(&empty);
    let n = new.as_object().unwrap_or(&empty);
    let mut keys: Vec<&String> = o.keys().chain(n.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter_map(|k| match (o.get(k), n.get(k)) {
            (None, Some(v)) => Some(ChannelDiff::Added(k.clone(), v.clone())),
            (Some(v), None) => Some(ChannelDiff::Removed(k.clone(), v.clone())),
            (Some(a), Some(b)) if a == b => None,
            (Some(Value::Array(a)), Some(Value::Array(b)))
                if b.len() > a.len() && b[..a.len()] == a[..] =>
            {
                Some(ChannelDiff::Appended(k.clone(), b[a.len()..].to_vec()))
            }
            (Some(a), Some(b)) => Some(ChannelDiff::Changed(k.clone(), a.clone(), b.clone())),
            (None, None) => None,
        })
        .collect()
}

/// The accessible name of a checkpoint button, in the language of `t`:
/// `Checkpoint c3, step 2, loop, next: reply`.
pub fn checkpoint_name(
    t: &Strings,
    label: &str,
    step: i64,
    source: &str,
    next: &[String],
) -> String {
    fill(
        t.checkpoint_name,
        &[
            ("label", &label),
            ("step", &step),
            ("source", &source),
            ("next", &next_shown(t, next)),
        ],
    )
}

/// [`next_text`] as the page shows it: `done` in the language of `t`
/// (node names and `3 × worker` stay as they are).
pub fn next_shown(t: &Strings, next: &[String]) -> String {
    if next.is_empty() {
        t.done.to_owned()
    } else {
        next_text(next)
    }
}

/// `next` as the tree shows it: names joined by commas, or `done`.
pub fn next_text(next: &[String]) -> String {
    if next.is_empty() {
        return "done".to_owned();
    }
    // A Send fan-out schedules one task per Send, all with the node's name:
    // `3 × worker` reads better than the name three times.
    let mut groups: Vec<(&str, usize)> = Vec::new();
    for n in next {
        match groups.iter_mut().find(|(name, _)| *name == n) {
            Some((_, k)) => *k += 1,
            None => groups.push((n, 1)),
        }
    }
    groups
        .into_iter()
        .map(|(n, k)| {
            if k > 1 {
                format!("{k} × {n}")
            } else {
                n.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The index of a PUSH task's `Send` from its path (`~__pregel_push, 0000000002, False`).
pub fn send_index(path: &str) -> Option<usize> {
    let rest = path.strip_prefix("~__pregel_push, ")?;
    rest.split(',').next()?.trim().parse().ok()
}

/// The id shortened for tooltips.
pub fn short_id(id: &str) -> String {
    short(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use serde_json::json;

    #[test]
    fn diff_reports_added_removed_appended_and_changed_channels() {
        let old = json!({"a": 1, "b": [1, 2], "c": "x", "d": true});
        let new = json!({"a": 2, "b": [1, 2, 3], "c": "x", "e": null});
        assert_eq!(
            diff(&old, &new),
            vec![
                ChannelDiff::Changed("a".into(), json!(1), json!(2)),
                ChannelDiff::Appended("b".into(), vec![json!(3)]),
                ChannelDiff::Removed("d".into(), json!(true)),
                ChannelDiff::Added("e".into(), json!(null)),
            ]
        );
        assert!(diff(&old, &old).is_empty());
    }

    #[test]
    fn a_shrunk_list_is_a_change_not_an_append() {
        let d = diff(&json!({"l": [1, 2]}), &json!({"l": [2]}));
        assert_eq!(
            d[0],
            ChannelDiff::Changed("l".into(), json!([1, 2]), json!([2]))
        );
    }

    #[test]
    fn checkpoint_names_begin_with_checkpoint_and_say_done() {
        assert_eq!(
            checkpoint_name(Lang::En.t(), "c3", 2, "loop", &["reply".into()]),
            "Checkpoint c3, step 2, loop, next: reply"
        );
        assert_eq!(
            checkpoint_name(Lang::En.t(), "c0", -1, "input", &[]),
            "Checkpoint c0, step -1, input, next: done"
        );
    }

    #[test]
    fn snapshot_data_of_a_chat_round() {
        let spec = crate::scenarios::by_id("chat").unwrap().graph().unwrap();
        let mut s = Session::new(spec).unwrap();
        s.invoke(
            json!({"messages": [{"type": "human", "content": "hi"}]}),
            None,
        )
        .unwrap();
        let views = s.checkpoints();
        let d = snapshot(&s, &views[2].id).unwrap();
        assert_eq!(d.next, ["reply"]);
        assert_eq!(d.parent.as_deref(), Some(views[1].id.as_str()));
        assert_eq!(d.metadata["source"], "loop");
        assert_eq!(d.values["messages"][0]["content"], "hi");
        assert_eq!(d.tasks[0].name, "reply");
    }
}
