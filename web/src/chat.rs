//! The chat view's logic (graphs with a `messages` channel), over a
//! [`Session`]: the transcript of a branch, and the engine calls behind
//! "regenerate", "edit" and the ‹ i/n › branch switchers, as
//! `design/visualizer.md` maps them. Pure Rust, no Leptos.

use crate::session::{CheckpointView, Outcome, Session};
use chronograph::{Source, StateSnapshot, START};
use serde_json::{json, Value};
use std::collections::HashMap;

/// One message of a transcript.
#[derive(Clone, Debug, PartialEq)]
pub struct ChatMessage {
    /// Position in the transcript.
    pub index: usize,
    /// `human`, `ai`, `system`, `tool`.
    pub kind: String,
    /// Text content.
    pub content: String,
    /// Message id.
    pub id: String,
    /// `(position, count)` among the branches that share everything before
    /// this message but differ here; `None` when there is only one.
    pub branch: Option<(usize, usize)>,
}

/// The messages at checkpoint `tip` (record mode).
fn messages_at(snapshot: &StateSnapshot) -> Vec<Value> {
    snapshot
        .values
        .get("messages")
        .and_then(|m| m.as_list())
        .map(|l| l.iter().map(|m| (**m).clone()).collect())
        .unwrap_or_default()
}

fn message_id(m: &Value) -> String {
    m.get("id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// Checkpoints with no children: the tips of the thread's branches, newest last.
pub fn tips(views: &[CheckpointView]) -> Vec<String> {
    views
        .iter()
        .filter(|v| {
            !views
                .iter()
                .any(|c| c.parent.as_deref() == Some(v.id.as_str()))
        })
        .map(|v| v.id.clone())
        .collect()
}

/// The tips in branch order (the tree's columns, left to right), so a
/// message's ‹ i/n › position stays put when a branch grows: `(tip, creation
/// index)`.
fn branch_tips(views: &[CheckpointView]) -> Vec<(String, usize)> {
    let mut layout = crate::layout::Layout::with_capacity(views.len());
    for v in views {
        layout.push(&v.id, v.parent.as_deref());
    }
    let mut out: Vec<(String, usize)> = tips(views)
        .into_iter()
        .filter_map(|t| layout.index_of(&t).map(|i| (t, i)))
        .collect();
    crate::sort::sort_by_key(&mut out, |(_, i)| {
        (layout.node(*i).map_or(usize::MAX, |n| n.lane), *i)
    });
    out
}

/// The transcript of the branch ending at `tip`, with ‹ i/n › positions.
pub fn transcript(session: &Session, tip: &str) -> Vec<ChatMessage> {
    let Ok(snap) = session.snapshot(Some(tip)) else {
        return Vec::new();
    };
    let mine = messages_at(&snap);
    let views = session.checkpoints();
    let others: Vec<Vec<Value>> = branch_tips(&views)
        .iter()
        .filter_map(|(t, _)| session.snapshot(Some(t)).ok())
        .map(|s| messages_at(&s))
        .collect();
    mine.iter()
        .enumerate()
        .map(|(i, m)| {
            let prefix: Vec<String> = mine[..i].iter().map(message_id).collect();
            let mut groups: Vec<String> = Vec::new();
            for other in &others {
                let shares =
                    other.len() > i && other[..i].iter().map(message_id).eq(prefix.iter().cloned());
                if shares {
                    let id = message_id(&other[i]);
                    if !groups.contains(&id) {
                        groups.push(id);
                    }
                }
            }
            let position = groups.iter().position(|g| *g == message_id(m));
            ChatMessage {
                index: i,
                kind: m
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("human")
                    .to_owned(),
                content: match m.get("content") {
                    Some(Value::String(s)) => s.clone(),
                    Some(other) => other.to_string(),
                    None => String::new(),
                },
                id: message_id(m),
                branch: match (position, groups.len()) {
                    (Some(p), n) if n > 1 => Some((p, n)),
                    _ => None,
                },
            }
        })
        .collect()
}

/// The newest tip whose transcript has message `index` with id `message_id`
/// after the same earlier messages as `tip`: where ‹ / › switch to.
pub fn switch_branch(session: &Session, tip: &str, index: usize, step: isize) -> Option<String> {
    let mine = messages_at(&session.snapshot(Some(tip)).ok()?);
    let prefix: Vec<String> = mine.get(..index)?.iter().map(message_id).collect();
    let views = session.checkpoints();
    let mut groups: Vec<(String, String)> = Vec::new(); // (message id, first tip)
    let mut newest: HashMap<String, (usize, String)> = HashMap::new();
    for (t, created) in branch_tips(&views) {
        let Ok(s) = session.snapshot(Some(&t)) else {
            continue;
        };
        let other = messages_at(&s);
        if other.len() > index
            && other[..index]
                .iter()
                .map(message_id)
                .eq(prefix.iter().cloned())
        {
            let id = message_id(&other[index]);
            if !groups.iter().any(|(g, _)| *g == id) {
                groups.push((id.clone(), t.clone()));
            }
            let slot = newest.entry(id).or_insert((created, t.clone()));
            if created > slot.0 {
                *slot = (created, t);
            }
        }
    }
    let current = groups
        .iter()
        .position(|(g, _)| Some(g) == mine.get(index).map(message_id).as_ref())?;
    let target = (current as isize + step).rem_euclid(groups.len() as isize) as usize;
    newest.get(&groups[target].0).map(|(_, t)| t.clone())
}

/// Walks from `tip` to the root: `(checkpoint, number of messages there)`.
fn lineage_counts(session: &Session, tip: &str) -> Vec<(StateSnapshot, usize)> {
    session
        .lineage(tip)
        .unwrap_or_default()
        .into_iter()
        .map(|s| {
            let n = messages_at(&s).len();
            (s, n)
        })
        .collect()
}

/// The checkpoint just before message `index` was written on `tip`'s branch:
/// it has `index` messages and its child on the branch has more.
fn before_message(
    session: &Session,
    tip: &str,
    index: usize,
    want_input: bool,
) -> Option<StateSnapshot> {
    let chain = lineage_counts(session, tip);
    chain.windows(2).find_map(|w| {
        let (child, parent) = (&w[0], &w[1]);
        let source = parent.0.metadata.as_ref().map(|m| m.source);
        let ok =
            parent.1 == index && child.1 > index && (!want_input || source == Some(Source::Input));
        ok.then(|| parent.0.clone())
    })
}

/// Regenerate the AI message at `index`: replay from the checkpoint just
/// before it was written (its `next` holds the replying node). The old reply
/// stays on its branch.
pub fn regenerate(session: &mut Session, tip: &str, index: usize) -> chronograph::Result<Outcome> {
    let Some(from) = before_message(session, tip, index, false) else {
        return Err(chronograph::Error::value(format!(
            "message {index} has no checkpoint before it on this branch"
        )));
    };
    let id = from.config.checkpoint_id.clone().unwrap_or_default();
    session.replay(&id)
}

/// The node an edited human message is written as: the one START leads to,
/// so exactly the nodes after it run (for booking → reply: `booking`, and
/// only `reply` runs).
pub fn edit_as_node(session: &Session) -> String {
    let topo = session.graph().topology();
    let from_start: Vec<&str> = topo
        .edges
        .iter()
        .filter(|e| e.from == START)
        .map(|e| e.to.as_str())
        .collect();
    match from_start.as_slice() {
        [only] => (*only).to_owned(),
        _ => START.to_owned(),
    }
}

/// Edit the human message at `index`: `update_state` on the input
/// checkpoint from before that message entered the state, with the edited
/// message as the value, then run. Two calls: the edit, then the reply.
pub fn edit(
    session: &mut Session,
    tip: &str,
    index: usize,
    content: &str,
) -> chronograph::Result<Outcome> {
    let Some(from) = before_message(session, tip, index, true) else {
        return Err(chronograph::Error::value(format!(
            "message {index} did not enter as input on this branch"
        )));
    };
    let id = from.config.checkpoint_id.clone().unwrap_or_default();
    let as_node = edit_as_node(session);
    session.fork_and_run(&id, human(content), Some(&as_node))
}

/// Send a message on the branch ending at `tip`: `invoke({messages: [...]}, tip)`
/// (no checkpoint id when `tip` is HEAD).
pub fn send(
    session: &mut Session,
    tip: Option<&str>,
    content: &str,
) -> chronograph::Result<Outcome> {
    let at = tip.filter(|t| Some(t.to_string()) != session.head());
    session.invoke(human(content), at)
}

/// The state update that appends one human message: what the message box
/// sends and what an edit writes.
pub fn human(content: &str) -> Value {
    json!({"messages": [{"type": "human", "content": content}]})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chat() -> Session {
        Session::new(crate::scenarios::by_id("chat").unwrap().graph().unwrap()).unwrap()
    }

    fn head(s: &Session) -> String {
        s.head().unwrap()
    }

    #[test]
    fn transcript_is_the_head_chain() {
        let mut s = chat();
        send(&mut s, None, "one").unwrap();
        send(&mut s, None, "two").unwrap();
        let t = transcript(&s, &head(&s));
        let texts: Vec<&str> = t.iter().map(|m| m.content.as_str()).collect();
        assert_eq!(texts, ["one", "Reply: one", "two", "Reply: two"]);
        assert!(t.iter().all(|m| m.branch.is_none()));
    }

    #[test]
    fn regenerate_replays_from_before_the_reply_and_keeps_the_old_one() {
        let mut s = chat();
        send(&mut s, None, "one").unwrap();
        let tip = head(&s);
        let out = regenerate(&mut s, &tip, 1).unwrap();
        assert_eq!(out.calls, ["invoke(None, c2) → c4 … c5"]);
        let t = transcript(&s, &head(&s));
        assert_eq!(t[1].branch, Some((1, 2)));
        let back = switch_branch(&s, &head(&s), 1, -1).unwrap();
        assert_eq!(back, s.checkpoints()[3].id, "the original tip c3");
        assert_eq!(transcript(&s, &back)[1].branch, Some((0, 2)));
    }

    #[test]
    fn edit_updates_the_input_checkpoint_as_the_first_node_then_runs() {
        let mut s = chat();
        send(&mut s, None, "one").unwrap();
        let tip = head(&s);
        let out = edit(&mut s, &tip, 0, "uno").unwrap();
        assert_eq!(out.calls.len(), 2);
        assert!(
            out.calls[0].starts_with("update_state(c0, "),
            "{}",
            out.calls[0]
        );
        assert!(
            out.calls[0].ends_with(r#"as_node="booking") → c4"#),
            "{}",
            out.calls[0]
        );
        assert_eq!(out.calls[1], "invoke(None, c4) → c5");
        let t = transcript(&s, &head(&s));
        let texts: Vec<&str> = t.iter().map(|m| m.content.as_str()).collect();
        assert_eq!(texts, ["uno", "Reply: uno"]);
        assert_eq!(t[0].branch, Some((1, 2)));
    }

    #[test]
    fn send_on_an_old_branch_goes_to_its_tip() {
        let mut s = chat();
        send(&mut s, None, "one").unwrap();
        let first_tip = head(&s);
        regenerate(&mut s, &first_tip, 1).unwrap();
        let out = send(&mut s, Some(&first_tip), "two").unwrap();
        assert!(out.calls[0].contains(", c3) → c6 … c9"), "{}", out.calls[0]);
        let t = transcript(&s, &head(&s));
        assert_eq!(t.len(), 4);
        assert_eq!(
            t[1].branch,
            Some((0, 2)),
            "the original reply stays 1/2 when its branch grows"
        );
    }
}
