//! A hard-coded thread to draw until the engine is wired in: the seed's chat
//! graph (`booking -> reply` over `messages`) after two chat rounds, a replay
//! from the middle, a replay of a finished checkpoint, an edit of the first
//! message and the copy-then-edit path. Shapes, steps, sources and `next`
//! match `tests/conformance/expected/seed_booking.json` (message texts are
//! translated to English). Ids and times are made up.
//!
//! Pure data, no Leptos: the types here are the view's input, the same shape
//! the engine's snapshots will be converted into.

use crate::layout::NodeIn;

/// What created a checkpoint (LangGraph's `metadata.source`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// The input of a run (`invoke` with input).
    Input,
    /// A step of the run loop.
    Loop,
    /// An `update_state` call.
    Update,
    /// A replay or copy of an existing checkpoint.
    Fork,
}

impl Source {
    /// LangGraph's spelling: `input`, `loop`, `update`, `fork`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Input => "input",
            Source::Loop => "loop",
            Source::Update => "update",
            Source::Fork => "fork",
        }
    }

    /// The letter drawn inside a node: a cue that does not rely on colour.
    pub fn letter(self) -> &'static str {
        match self {
            Source::Input => "I",
            Source::Loop => "L",
            Source::Update => "U",
            Source::Fork => "F",
        }
    }

    /// All sources, in legend order.
    pub const ALL: [Source; 4] = [Source::Input, Source::Loop, Source::Update, Source::Fork];
}

/// One chat message in a checkpoint's `messages` channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// `human`, `ai`, `system` or `tool`.
    pub kind: &'static str,
    /// The text.
    pub content: String,
}

/// One checkpoint as the visualizer shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// `c0`, `c1`, … in creation order.
    pub label: String,
    /// The checkpoint id (time-ordered, like LangGraph's uuid6 ids).
    pub id: String,
    /// The parent checkpoint's id, `None` for the thread's first checkpoint.
    pub parent: Option<String>,
    /// `metadata.step`: -1 for the first input, then one per superstep.
    pub step: i64,
    /// What created the checkpoint.
    pub source: Source,
    /// Nodes that run next; empty when the run is done.
    pub next: Vec<String>,
    /// Creation time, ISO 8601.
    pub created_at: String,
    /// The `messages` channel.
    pub messages: Vec<Message>,
}

impl Checkpoint {
    /// First characters of the id, enough to tell checkpoints apart at a glance.
    pub fn short_id(&self) -> &str {
        self.id.get(..8).unwrap_or(&self.id)
    }

    /// `next` as shown on a node: node names joined by commas, or `done`.
    pub fn next_text(&self) -> String {
        if self.next.is_empty() {
            "done".to_owned()
        } else {
            self.next.join(", ")
        }
    }
}

/// One entry of the log panel: an engine call and what it produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// The call, as code.
    pub call: String,
    /// Its effect, in words (new checkpoint labels).
    pub effect: String,
}

/// The graph's topology, for the small topology panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Topology {
    /// Node names, `__start__` first and `__end__` last.
    pub nodes: Vec<&'static str>,
    /// Edges between node names.
    pub edges: Vec<(&'static str, &'static str)>,
}

const ASK_MORNING: &str = "Any slots tomorrow morning?";
const ASK_AFTERNOON: &str = "And in the afternoon?";
const EDITED: &str = "Make it 2 pm tomorrow";

fn human(text: &str) -> Message {
    Message {
        kind: "human",
        content: text.to_owned(),
    }
}

fn ai(text: &str) -> Message {
    Message {
        kind: "ai",
        content: format!("Reply: {text}"),
    }
}

/// The seed's booking graph: `__start__ -> booking -> reply -> __end__`.
pub fn booking_topology() -> Topology {
    Topology {
        nodes: vec!["__start__", "booking", "reply", "__end__"],
        edges: vec![
            ("__start__", "booking"),
            ("booking", "reply"),
            ("reply", "__end__"),
        ],
    }
}

/// One sample checkpoint: parent index, step, source, next, messages.
type Row = (
    Option<usize>,
    i64,
    Source,
    &'static [&'static str],
    Vec<Message>,
);

/// The booking thread's 16 checkpoints, in creation order.
pub fn booking_thread() -> Vec<Checkpoint> {
    use Source::*;
    let m = || human(ASK_MORNING);
    let round1 = || vec![m(), ai(ASK_MORNING)];
    let round2_in = || vec![m(), ai(ASK_MORNING), human(ASK_AFTERNOON)];
    #[rustfmt::skip]
    let rows: Vec<Row> = vec![
        (None,     -1, Input,  &["__start__"], vec![]),
        (Some(0),   0, Loop,   &["booking"],   vec![m()]),
        (Some(1),   1, Loop,   &["reply"],     vec![m()]),
        (Some(2),   2, Loop,   &[],            round1()),
        (Some(3),   3, Input,  &["__start__"], round1()),
        (Some(4),   4, Loop,   &["booking"],   round2_in()),
        (Some(5),   5, Loop,   &["reply"],     round2_in()),
        (Some(6),   6, Loop,   &[],            [round2_in(), vec![ai(ASK_AFTERNOON)]].concat()),
        (Some(2),   2, Fork,   &["reply"],     vec![m()]),
        (Some(8),   3, Loop,   &[],            round1()),
        (Some(3),   3, Fork,   &[],            round1()),
        (Some(0),   0, Update, &["reply"],     vec![human(EDITED)]),
        (Some(11),  1, Loop,   &[],            vec![human(EDITED), ai(EDITED)]),
        (Some(1),   2, Fork,   &["reply"],     vec![m()]),
        (Some(13),  3, Update, &["reply"],     vec![m(), human(EDITED)]),
        (Some(14),  4, Loop,   &[],            vec![m(), human(EDITED), ai(EDITED)]),
    ];
    let id = |i: usize| {
        format!(
            "1f0cd{:03x}-{:04x}-6e2a-8{:03x}-5a17c0de{:04x}",
            0x4a0 + i * 0x13,
            0x1b00 + i * 7,
            i,
            0x9e3 * (i + 1) % 0xffff
        )
    };
    rows.into_iter()
        .enumerate()
        .map(|(i, (parent, step, source, next, messages))| Checkpoint {
            label: format!("c{i}"),
            id: id(i),
            parent: parent.map(id),
            step,
            source,
            next: next.iter().map(|s| s.to_string()).collect(),
            created_at: format!("2026-11-29T23:40:{:02}.{:03}Z", 5 + i * 3, 120 + i * 37),
            messages,
        })
        .collect()
}

/// The engine calls that produced [`booking_thread`], oldest first.
pub fn booking_log() -> Vec<LogEntry> {
    let entry = |call: &str, effect: &str| LogEntry {
        call: call.to_owned(),
        effect: effect.to_owned(),
    };
    vec![
        entry(
            &format!(r#"graph.invoke({{"messages": [human("{ASK_MORNING}")]}}, thread)"#),
            "c0 input, c1–c3 loop",
        ),
        entry(
            &format!(r#"graph.invoke({{"messages": [human("{ASK_AFTERNOON}")]}}, thread)"#),
            "c4 input, c5–c7 loop",
        ),
        entry(
            "graph.invoke(None, at(c2))",
            "replay: c8 fork under c2, c9 loop",
        ),
        entry(
            "graph.invoke(None, at(c3))",
            "replay of a finished run: c10 fork, nothing runs",
        ),
        entry(
            &format!(
                r#"graph.update_state(at(c0), {{"messages": [human("{EDITED}")]}}, as_node="booking")"#
            ),
            "c11 update under c0, next = reply",
        ),
        entry("graph.invoke(None, at(c11))", "c12 loop"),
        entry(
            r#"graph.update_state(at(c2), None, as_node="__copy__")"#,
            "c13 fork: a sibling of c2",
        ),
        entry(
            &format!(
                r#"graph.update_state(at(c13), {{"messages": [human("{EDITED}")]}}, as_node="booking")"#
            ),
            "c14 update under c13",
        ),
        entry("graph.invoke(None, at(c14))", "c15 loop"),
    ]
}

/// The layout's input for a list of checkpoints.
pub fn layout_input(thread: &[Checkpoint]) -> Vec<NodeIn> {
    thread
        .iter()
        .map(|c| NodeIn {
            id: c.id.clone(),
            parent: c.parent.clone(),
        })
        .collect()
}

/// One line of a diff between two message lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffLine {
    /// A message only the newer list has.
    Added(Message),
    /// A message only the older list has.
    Removed(Message),
}

/// How `newer` differs from `older`, after their common prefix: what a
/// checkpoint changed in `messages` relative to its parent. Empty when equal.
pub fn diff_messages(older: &[Message], newer: &[Message]) -> Vec<DiffLine> {
    let common = older.iter().zip(newer).take_while(|(a, b)| a == b).count();
    older[common..]
        .iter()
        .cloned()
        .map(DiffLine::Removed)
        .chain(newer[common..].iter().cloned().map(DiffLine::Added))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;

    #[test]
    fn booking_thread_is_the_seed_tree() {
        let t = booking_thread();
        assert_eq!(t.len(), 16);
        let parents: Vec<Option<&str>> = t
            .iter()
            .map(|c| {
                c.parent
                    .as_deref()
                    .map(|p| t.iter().find(|x| x.id == p).unwrap().label.as_str())
            })
            .collect();
        assert_eq!(parents[8], Some("c2"));
        assert_eq!(parents[13], Some("c1"));
        assert_eq!(parents[11], Some("c0"));
        let ids: std::collections::HashSet<&str> = t.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), t.len(), "ids are unique");
        let short: std::collections::HashSet<&str> = t.iter().map(|c| c.short_id()).collect();
        assert_eq!(short.len(), t.len(), "short ids are unique");
        assert!(
            t.windows(2).all(|w| w[0].id < w[1].id),
            "ids are time-ordered"
        );
        assert!(t.windows(2).all(|w| w[0].created_at < w[1].created_at));
    }

    #[test]
    fn booking_thread_lays_out_in_five_lanes() {
        let l = Layout::compute(&layout_input(&booking_thread()));
        assert_eq!(l.lane_count(), 5);
        assert!(l.nodes().iter().all(|n| !n.dangling));
    }

    #[test]
    fn next_text_says_done_for_a_finished_checkpoint() {
        let t = booking_thread();
        assert_eq!(t[3].next_text(), "done");
        assert_eq!(t[2].next_text(), "reply");
    }

    #[test]
    fn diff_shows_what_changed_after_the_common_prefix() {
        let t = booking_thread();
        assert_eq!(
            diff_messages(&t[2].messages, &t[3].messages),
            [DiffLine::Added(ai(ASK_MORNING))]
        );
        assert!(diff_messages(&t[3].messages, &t[10].messages).is_empty());
        assert_eq!(
            diff_messages(&[human("a"), human("b")], &[human("a"), human("c")]),
            [DiffLine::Removed(human("b")), DiffLine::Added(human("c"))]
        );
    }
}
