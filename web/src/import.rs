//! Opening a thread from a file or pasted text: Chronograph's own export
//! (`ThreadExport`) or one of the three formats LangGraph writes, read by
//! [`chronograph::import_thread`] (an Agent Server's history, a dump of
//! Python's `get_state_history`, a LangGraph.js saver's `list`).
//!
//! A LangGraph history has states but not the graph that wrote them, so
//! [`open`] also writes a graph spec from what the history names: its nodes
//! (from `next` and the saver's trigger channels), the edges seen between
//! them, and its channels (`add_messages` for lists of messages). Those
//! nodes have no code: the spec serves `update_state` (the Fork dialog's
//! `as_node` choices, and the `next` an update computes) until the user
//! attaches the real graph ([`missing_nodes`] says whether one fits).
//!
//! Pure Rust over JSON text (no Leptos), unit-tested natively.

mod infer;

pub use infer::{history_nodes, infer_spec, recorded, Recorded};

use chronograph::{GraphSpec, ImportFormat, ThreadExport};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Where a thread came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Chronograph's own export (the toolbar's Export).
    Chronograph,
    /// One of LangGraph's formats.
    LangGraph(ImportFormat),
    /// A thread read from a LangGraph server (its history, paged): the
    /// page's [`crate::state::ServerState::opened`] names the server.
    Server,
}

/// A thread read from text, ready for the session.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The thread in the engine's format.
    pub thread: ThreadExport,
    /// Which format the text was.
    pub origin: Origin,
    /// For a LangGraph history: the graph spec written from it (JSON text).
    pub spec: Option<String>,
    /// For a LangGraph history: each checkpoint's `next` as LangGraph
    /// recorded it (checkpoint id → node names).
    pub next: BTreeMap<String, Vec<String>>,
    /// For a LangGraph history: the checkpoints whose tasks wait on
    /// `interrupt()`, as LangGraph recorded them (what Resume is offered on).
    pub interrupted: BTreeSet<String>,
}

impl Opened {
    /// How many checkpoints the thread holds (every namespace).
    pub fn len(&self) -> usize {
        self.thread
            .namespaces
            .iter()
            .map(|n| n.checkpoints.len())
            .sum()
    }

    /// Whether the thread holds no checkpoint.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Where a mistake is in the text, as the engine's error names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// 1-based line.
    pub line: usize,
    /// Column as serde_json counts it (bytes into the line).
    pub column: usize,
    /// The JSON path (`$[3].metadata.step`), when the error names one.
    pub path: Option<String>,
}

/// Why a text does not open: the engine's message and where it points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The engine's message (LangGraph's wording stays English).
    pub message: String,
    /// Where in the text, when the message says.
    pub at: Option<Location>,
}

impl Problem {
    /// A problem with the location `message` names, if any.
    pub fn new(message: String) -> Problem {
        let at = locate(&message);
        Problem { message, at }
    }
}

/// Reads `text`: a Chronograph export (an object with `"format"`) or a
/// LangGraph history (a list; the format is detected).
pub fn open(text: &str) -> Result<Opened, Problem> {
    let own = matches!(
        serde_json::from_str::<Value>(text),
        Ok(Value::Object(ref o)) if o.contains_key("format")
    );
    if own {
        let mut de = serde_json::Deserializer::from_str(text);
        let thread: ThreadExport = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let what = inner.to_string();
            let what = what.split(" at line ").next().unwrap_or(&what).to_owned();
            Problem::new(format!(
                "Cannot import the thread: {what} at line {}, column {} ($.{path})",
                inner.line(),
                inner.column()
            ))
        })?;
        return Ok(Opened {
            thread,
            origin: Origin::Chronograph,
            spec: None,
            next: BTreeMap::new(),
            interrupted: BTreeSet::new(),
        });
    }
    let format = chronograph::detect_format(text).map_err(|e| Problem::new(e.to_string()))?;
    let thread =
        chronograph::import_thread_as(text, format).map_err(|e| Problem::new(e.to_string()))?;
    // The text parsed as a list of objects above.
    let items: Vec<Value> = serde_json::from_str(text).unwrap_or_default();
    let recorded = recorded(&items, format);
    let spec = serde_json::to_string_pretty(&infer_spec(&recorded)).unwrap_or_default();
    let next: BTreeMap<String, Vec<String>> = recorded
        .iter()
        .map(|r| (r.id.clone(), r.next.clone()))
        .collect();
    Ok(Opened {
        thread,
        origin: Origin::LangGraph(format),
        spec: Some(spec),
        next,
        interrupted: interrupted(&items),
    })
}

/// The ids of the history items whose tasks wait on `interrupt()` (an
/// Agent Server's `checkpoint`, Python's `config.configurable`).
fn interrupted(items: &[Value]) -> BTreeSet<String> {
    let waits = |item: &Value| {
        item.get("tasks")
            .and_then(Value::as_array)
            .is_some_and(|tasks| {
                tasks.iter().any(|t| {
                    t.get("interrupts")
                        .and_then(Value::as_array)
                        .is_some_and(|i| !i.is_empty())
                })
            })
    };
    items
        .iter()
        .filter(|item| waits(item))
        .filter_map(|item| {
            item.pointer("/checkpoint/checkpoint_id")
                .or_else(|| item.pointer("/config/configurable/checkpoint_id"))?
                .as_str()
                .map(str::to_owned)
        })
        .collect()
}

/// The nodes of `needed` that `spec` does not have: a spec fits an imported
/// thread when this is empty.
pub fn missing_nodes(needed: &[String], spec: &GraphSpec) -> Vec<String> {
    needed
        .iter()
        .filter(|n| !spec.nodes.contains_key(n.as_str()))
        .cloned()
        .collect()
}

/// The location an engine error names: `at line 12, column 5 ($[3].metadata.step)`
/// (an import's) or serde_json's `at line 12 column 5`.
pub fn locate(message: &str) -> Option<Location> {
    let start = message.rfind(" at line ")?;
    let rest = &message[start + " at line ".len()..];
    let digits = |s: &str| -> Option<(usize, usize)> {
        let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        Some((s[..end].parse().ok()?, end))
    };
    let (line, used) = digits(rest)?;
    let rest = rest[used..]
        .trim_start_matches(',')
        .trim_start()
        .strip_prefix("column ")?;
    let (column, used) = digits(rest)?;
    let rest = rest[used..].trim_start();
    let path = rest
        .strip_prefix('(')
        .and_then(|p| p.split_once(')'))
        .map(|(p, _)| p.to_owned())
        .filter(|p| p.starts_with('$'));
    Some(Location { line, column, path })
}

/// The position in `text` of `line` and serde_json's `column` (bytes into
/// the line), in UTF-16 code units: what a textarea's selection counts.
/// Clamped to the text; a column inside a character moves to its start.
pub fn utf16_offset(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split('\n').enumerate() {
        if i + 1 == line {
            let mut byte = column.min(l.len());
            while !l.is_char_boundary(byte) {
                byte -= 1;
            }
            return offset + l[..byte].encode_utf16().count();
        }
        offset += l.encode_utf16().count() + 1;
    }
    text.encode_utf16().count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;
    use chronograph::Source;
    use serde_json::{json, Map};

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/../core/tests/fixtures/import/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    fn session_of(opened: Opened) -> Session {
        let spec = GraphSpec::parse(opened.spec.as_deref().unwrap()).unwrap();
        let mut s = Session::new(spec).unwrap();
        s.import_history(opened.thread, opened.next, "file")
            .unwrap();
        s
    }

    #[test]
    fn every_langgraph_format_opens_with_a_spec_from_its_history() {
        for (name, format) in [
            ("python_history.json", ImportFormat::PythonStateHistory),
            (
                "agent_server_history.json",
                ImportFormat::AgentServerHistory,
            ),
            ("langgraphjs_saver.json", ImportFormat::SaverList),
        ] {
            let opened = open(&fixture(name)).unwrap();
            assert_eq!(opened.origin, Origin::LangGraph(format), "{name}");
            assert_eq!(opened.len(), 13, "{name}");
            let spec: Value = serde_json::from_str(opened.spec.as_deref().unwrap()).unwrap();
            assert_eq!(
                spec["edges"],
                json!([
                    ["__start__", "booking"],
                    ["booking", "reply"],
                    ["reply", "__end__"]
                ]),
                "{name}"
            );
            assert_eq!(spec["channels"]["messages"]["reducer"], "add_messages");
            let names: Vec<&String> = spec["nodes"].as_object().unwrap().keys().collect();
            assert_eq!(names, ["booking", "reply"], "{name}");
            let s = session_of(opened);
            let views = s.checkpoints();
            assert_eq!(views.len(), 13);
            let nexts: Vec<Vec<String>> = views.iter().map(|v| v.next.clone()).collect();
            assert_eq!(
                nexts[0],
                ["__start__"],
                "{name}: next as LangGraph recorded it"
            );
            assert_eq!(nexts[2], ["reply"], "{name}");
            assert!(nexts[3].is_empty(), "{name}");
        }
    }

    #[test]
    fn an_imported_history_forks_with_update_state_and_refuses_to_run_without_its_graph() {
        let mut s = session_of(open(&fixture("python_history.json")).unwrap());
        assert!(s.needs_graph());
        assert_eq!(
            s.spec().nodes.keys().collect::<Vec<_>>(),
            ["booking", "reply"]
        );
        let c0 = s.checkpoints()[0].id.clone();
        let out = s
            .update(
                &c0,
                Some(json!({"messages": [{"type": "human", "content": "fork"}]})),
                Some("booking"),
            )
            .unwrap();
        let views = s.checkpoints();
        let new = views.iter().find(|v| v.id == out.created[0]).unwrap();
        assert_eq!(
            (
                new.source,
                new.step,
                new.next.clone(),
                new.parent.as_deref()
            ),
            (
                Source::Update,
                0,
                vec!["reply".to_owned()],
                Some(c0.as_str())
            )
        );
        assert_eq!(views.len(), 14);
        let c2 = views[2].id.clone();
        let err = s.replay(&c2).unwrap_err();
        assert!(err.to_string().contains("graph"), "{err}");
        assert_eq!(s.checkpoints().len(), 14, "nothing ran");
    }

    #[test]
    fn after_attaching_a_graph_whose_nodes_fit_replay_runs_the_nodes() {
        let mut s = session_of(open(&fixture("python_history.json")).unwrap());
        let chat = crate::scenarios::by_id("chat").unwrap().graph().unwrap();
        let counter = crate::scenarios::by_id("counter").unwrap().graph().unwrap();
        let needed: Vec<String> = s.spec().nodes.keys().cloned().collect();
        assert!(!missing_nodes(&needed, &counter).is_empty());
        assert!(s.attach(counter).is_err());
        assert!(s.needs_graph(), "a spec that does not fit changes nothing");
        assert!(missing_nodes(&needed, &chat).is_empty());
        s.attach(chat).unwrap();
        assert!(!s.needs_graph());
        let c2 = s.checkpoints()[2].id.clone();
        let out = s.replay(&c2).unwrap();
        assert_eq!(out.created.len(), 2, "a fork copy of c2, then reply ran");
        let views = s.checkpoints();
        let last = views.iter().find(|v| v.id == out.created[1]).unwrap();
        assert_eq!((last.source, last.step), (Source::Loop, 3));
        let values = s.snapshot(Some(&last.id)).unwrap().values.to_json();
        let messages = values["messages"].as_array().unwrap();
        assert_eq!(messages.len(), 2);
        assert_eq!(messages[1]["content"], "Reply: 明天上午还有号吗");
    }

    #[test]
    fn replaying_an_imported_input_checkpoint_reruns_the_round_on_its_input() {
        let mut s = session_of(open(&fixture("python_history.json")).unwrap());
        s.attach(crate::scenarios::by_id("chat").unwrap().graph().unwrap())
            .unwrap();
        let c0 = s.checkpoints()[0].id.clone();
        let out = s.replay(&c0).unwrap();
        let last = out.created.last().unwrap().clone();
        let values = s.snapshot(Some(&last)).unwrap().values.to_json();
        let contents: Vec<&str> = values["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["content"].as_str().unwrap())
            .collect();
        assert_eq!(contents, ["明天上午还有号吗", "Reply: 明天上午还有号吗"]);
    }

    #[test]
    fn a_subgraph_namespace_opens_with_its_own_nodes_to_fork_as() {
        let opened = open(&fixture("langgraphjs_subgraph_saver.json")).unwrap();
        assert_eq!(opened.len(), 9);
        let spec: Value = serde_json::from_str(opened.spec.as_deref().unwrap()).unwrap();
        let names: Vec<&String> = spec["nodes"].as_object().unwrap().keys().collect();
        assert_eq!(names, ["plan", "research", "write"]);
        let research = &spec["nodes"]["research"]["subgraph"];
        assert_eq!(
            research["edges"],
            json!([
                ["__start__", "search"],
                ["search", "summarize"],
                ["summarize", "__end__"]
            ])
        );
        let mut s = session_of(opened);
        let ns = s
            .namespaces()
            .into_iter()
            .map(|n| n.ns)
            .find(|n| n.starts_with("research:"))
            .expect("the subgraph's namespace is in the thread");
        let nodes: Vec<&String> = s.spec_at(&ns).unwrap().nodes.keys().collect();
        assert_eq!(nodes, ["search", "summarize"], "the as_node choices inside");
        // A fork inside the subgraph, as one of its nodes.
        let inside = s.checkpoints_in(&ns);
        assert_eq!(inside.len(), 4);
        let after_search = inside[2].id.clone();
        let out = s
            .update(
                &after_search,
                Some(json!({"notes": ["edited"]})),
                Some("search"),
            )
            .unwrap();
        let new = s
            .checkpoints_in(&ns)
            .into_iter()
            .find(|v| v.id == out.created[0])
            .unwrap();
        assert_eq!(new.next, ["summarize"]);
        assert_eq!(new.parent.as_deref(), Some(after_search.as_str()));
    }

    #[test]
    fn chronographs_own_export_opens_as_it_is() {
        let mut s =
            Session::new(crate::scenarios::by_id("chat").unwrap().graph().unwrap()).unwrap();
        s.invoke(
            json!({"messages": [{"type": "human", "content": "hi"}]}),
            None,
        )
        .unwrap();
        let text = serde_json::to_string(&s.export().unwrap()).unwrap();
        let opened = open(&text).unwrap();
        assert_eq!(opened.origin, Origin::Chronograph);
        assert!(opened.spec.is_none());
        assert_eq!(opened.len(), 4);
        let bad = text.replacen("\"thread_id\"", "\"thread\"", 1);
        let p = open(&bad).unwrap_err();
        assert!(p.message.contains("thread_id"), "{}", p.message);
        assert_eq!(p.at.unwrap().line, 1);
    }

    #[test]
    fn a_mistake_names_its_line_column_and_path() {
        let bad = "[\n {\"values\": {}, \"config\": {\"configurable\": {\"thread_id\": \"t\", \"checkpoint_id\": \"a\"}},\n  \"metadata\": {\"source\": \"loop\", \"step\": \"two\"}}\n]";
        let p = open(bad).unwrap_err();
        let at = p.at.unwrap();
        assert_eq!(at.line, 3);
        assert_eq!(at.path.as_deref(), Some("$[0].metadata.step"));
        let p = open("[{\"values\": {}, ").unwrap_err();
        assert!(p.at.is_some(), "{}", p.message);
        assert_eq!(
            locate("Cannot import the thread: x at line 12, column 5 ($[3].metadata.step)"),
            Some(Location {
                line: 12,
                column: 5,
                path: Some("$[3].metadata.step".into())
            })
        );
        assert_eq!(
            locate("expected value at line 2 column 7"),
            Some(Location {
                line: 2,
                column: 7,
                path: None
            })
        );
        assert_eq!(locate("no location here"), None);
        assert!(open("[]").unwrap_err().at.is_none());
    }

    #[test]
    fn an_error_position_counts_utf16_units_for_the_textarea() {
        let text = "ab\n明天x\nz";
        assert_eq!(utf16_offset(text, 1, 1), 1);
        assert_eq!(utf16_offset(text, 2, 0), 3);
        // 明天 is six bytes and two UTF-16 units.
        assert_eq!(utf16_offset(text, 2, 6), 5);
        assert_eq!(utf16_offset(text, 2, 4), 4, "inside 天: its start");
        assert_eq!(utf16_offset(text, 3, 99), 8, "clamped to the line");
        assert_eq!(utf16_offset(text, 9, 1), 8, "clamped to the text");
    }

    #[test]
    fn history_nodes_come_in_order_of_first_appearance() {
        let rec = |id: &str, next: &[&str]| Recorded {
            id: id.into(),
            ns: String::new(),
            parent: None,
            source: "loop".into(),
            next: next.iter().map(|s| (*s).to_owned()).collect(),
            values: Map::new(),
        };
        let r = [
            rec("3", &["tools"]),
            rec("1", &["__start__"]),
            rec("2", &["agent"]),
            rec("4", &["agent"]),
        ];
        assert_eq!(history_nodes(&r), ["agent", "tools"]);
    }
}
