//! What the inspector shows, as plain data: a snapshot flattened to JSON-ish
//! fields, and a per-channel diff between two snapshots. Pure Rust (no
//! Leptos), unit-tested natively.

use crate::i18n::{fill, Strings};
use chronograph::{PregelTask, TaskState};
use serde_json::Value;

use crate::session::{short, CheckpointView, Preview, Session, NEEDS_GRAPH};

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
        self.tasks
            .iter()
            .any(|t| matches!(t.status, TaskStatus::Interrupted(_)))
    }
}

/// Where a task stands, in the order the inspector looks: a pause wins
/// over an error, an error over a result.
#[derive(Clone, Debug, PartialEq)]
pub enum TaskStatus {
    /// Paused on `interrupt()`: the values it was called with.
    Interrupted(Vec<Value>),
    /// Failed: the stored error.
    Failed(String),
    /// Finished: its writes.
    Done(Value),
    /// Not run yet.
    Pending,
}

impl TaskStatus {
    fn of(task: &PregelTask) -> TaskStatus {
        if !task.interrupts.is_empty() {
            TaskStatus::Interrupted(task.interrupts.iter().map(|i| i.value.clone()).collect())
        } else if let Some(e) = &task.error {
            TaskStatus::Failed(e.clone())
        } else if let Some(r) = &task.result {
            TaskStatus::Done(r.clone())
        } else {
            TaskStatus::Pending
        }
    }
}

/// One task scheduled from a checkpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskData {
    /// Node name.
    pub name: String,
    /// A PUSH task's input: the argument of the `Send` that made it.
    pub arg: Option<Value>,
    /// For a task that runs a subgraph: the namespace its checkpoints go to.
    pub ns: Option<String>,
    /// Where it stands.
    pub status: TaskStatus,
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
        id: s.config.checkpoint_id.unwrap_or_else(|| id.to_owned()),
        values: s.values.to_json(),
        next: s.next,
        tasks: s
            .tasks
            .into_iter()
            .map(|task| TaskData {
                status: TaskStatus::of(&task),
                arg: send_index(&task.path)
                    .and_then(|i| sends.get(i))
                    .and_then(|p| p.get("arg").cloned()),
                ns: match task.state {
                    Some(TaskState::Config(c)) => Some(c.checkpoint_ns),
                    Some(TaskState::Snapshot(s)) => Some(s.config.checkpoint_ns),
                    None => None,
                },
                name: task.name,
            })
            .collect(),
        metadata: s
            .metadata
            .as_ref()
            .and_then(|m| serde_json::to_value(m).ok())
            .unwrap_or(Value::Null),
        created_at: s.created_at.unwrap_or_default(),
        parent: s.parent_config.and_then(|p| p.checkpoint_id),
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
    crate::sort::sort(&mut keys);
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

/// What a checkpoint button is called: [`checkpoint_name`], and `, HEAD`
/// on HEAD.
pub fn checkpoint_aria(t: &Strings, c: &CheckpointView, is_head: bool) -> String {
    let name = checkpoint_name(t, &c.label, c.step, c.source.as_str(), &c.next);
    if is_head {
        format!("{name}, HEAD")
    } else {
        name
    }
}

/// A checkpoint's tooltip: its name, its short id and creation time, and
/// on HEAD what HEAD means.
pub fn checkpoint_tooltip(t: &Strings, c: &CheckpointView, is_head: bool) -> String {
    let name = checkpoint_name(t, &c.label, c.step, c.source.as_str(), &c.next);
    let about = fill(
        t.checkpoint_tip,
        &[("id", &short(&c.id)), ("created", &c.created_at)],
    );
    if is_head {
        format!("{name}\n{about}\n{}", t.head_note)
    } else {
        format!("{name}\n{about}")
    }
}

/// Describes a preview in one sentence, in the language of `t`.
pub fn describe(t: &Strings, p: &Preview) -> String {
    if let Some(e) = &p.error {
        // The app's own refusal (an imported thread without its graph) is in the catalogue.
        let e = if e.contains(NEEDS_GRAPH) {
            t.needs_graph
        } else {
            e
        };
        return fill(t.would_fail, &[("error", &e)]);
    }
    if p.checkpoints.is_empty() {
        return t.creates_none.into();
    }
    let first = &p.checkpoints[0];
    let root = p.checkpoints.len() - p.in_subgraphs;
    let parent = first.parent_label.clone().unwrap_or_else(|| t.root.into());
    let next = next_shown(t, &first.view.next);
    let mut s = fill(
        if root == 0 {
            t.new_checkpoint_sub
        } else {
            t.new_checkpoint
        },
        &[
            ("source", &first.view.source.as_str()),
            ("parent", &parent),
            ("step", &first.view.step),
            ("next", &next),
        ],
    );
    if root > 1 {
        s.push_str(&fill(t.then_more, &[("n", &(root - 1))]));
    }
    if root > 0 && p.in_subgraphs > 0 {
        s.push_str(&fill(t.and_in_subgraphs, &[("n", &p.in_subgraphs)]));
    } else if root == 0 && p.in_subgraphs > 1 {
        s.push_str(&fill(t.then_more, &[("n", &(p.in_subgraphs - 1))]));
    }
    s.push_str(t.period);
    if p.will_run.is_empty() {
        s.push_str(t.nothing_runs);
    } else {
        s.push_str(&fill(t.runs, &[("nodes", &p.will_run.join(", "))]));
    }
    s
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
