//! The topology panel's picture of a graph spec, with LangGraph's whole
//! graph model: subgraph nodes as boxes that open to show their own nodes
//! (nested to any depth), `Send` fan-outs, conditional edges, and the
//! destinations of `Command(goto=...)` as dashed arrows (LangGraph.js asks
//! for them as `ends` on `addNode`, to draw exactly these). Pure, unit-tested
//! natively.

use std::collections::{BTreeMap, BTreeSet};

use chronograph::{EdgeFrom, GraphSpec, SpecOp, END, START};

use super::geometry::Point;
use super::topo::{layout_sized, EdgeKind, TopoLayout, TOPO_BOX_H, TOPO_BOX_W};

/// A graph as the topology draws it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpecGraph {
    /// `__start__`, the nodes in registration order, `__end__`.
    pub nodes: Vec<String>,
    /// Every edge, with its kind.
    pub edges: Vec<(String, String, EdgeKind)>,
    /// The graphs of the subgraph nodes, by node name.
    pub subgraphs: BTreeMap<String, SpecGraph>,
    /// Send edges' labels (`Send × topics`), by `(from, to)`.
    pub send_labels: BTreeMap<(String, String), String>,
}

/// The picture of `spec`: static edges, conditional rules, Sends, and the
/// goto destinations of its nodes' ops (a `"graph": "parent"` goto inside a
/// subgraph is drawn in the parent, from the subgraph's node).
pub fn spec_graph(spec: &GraphSpec) -> SpecGraph {
    let mut g = SpecGraph {
        nodes: std::iter::once(START.to_owned())
            .chain(spec.nodes.keys().cloned())
            .chain(std::iter::once(END.to_owned()))
            .collect(),
        ..SpecGraph::default()
    };
    for e in &spec.edges {
        let froms: Vec<&String> = match &e.0 {
            EdgeFrom::One(a) => vec![a],
            EdgeFrom::Many(v) => v.iter().collect(),
        };
        for a in froms {
            g.edges.push((a.clone(), e.1.clone(), EdgeKind::Plain));
        }
    }
    for c in &spec.conditional_edges {
        let rules = c.when.iter().map(|r| &r.to).chain(&c.otherwise);
        for to in rules {
            g.edges
                .push((c.from.clone(), to.clone(), EdgeKind::Conditional));
        }
        if let Some(send) = &c.send {
            g.edges
                .push((c.from.clone(), send.to.clone(), EdgeKind::Send));
            g.send_labels.insert(
                (c.from.clone(), send.to.clone()),
                format!("Send × {}", send.each),
            );
        }
    }
    for (name, node) in &spec.nodes {
        for to in gotos(&node.writes, false) {
            g.edges.push((name.clone(), to, EdgeKind::Goto));
        }
        if let Some(sub) = &node.subgraph {
            for inner in sub.nodes.values() {
                for to in gotos(&inner.writes, true) {
                    g.edges.push((name.clone(), to, EdgeKind::Goto));
                }
            }
            g.subgraphs.insert(name.clone(), spec_graph(sub));
        }
    }
    // One arrow per pair and kind, in first-seen order.
    let mut seen = BTreeSet::new();
    g.edges
        .retain(|(a, b, k)| seen.insert((a.clone(), b.clone(), *k as u8)));
    g
}

/// The goto destinations of a node's ops (`to_parent`: those for the parent).
fn gotos(ops: &[SpecOp], to_parent: bool) -> Vec<String> {
    ops.iter()
        .filter_map(|op| match op {
            SpecOp::Goto { to, parent } if *parent == to_parent => Some(to.clone()),
            _ => None,
        })
        .flatten()
        .filter(|t| t != END)
        .collect()
}

/// Height of an open subgraph box's title bar.
pub const OPEN_TITLE_H: f64 = 20.0;
/// Inner margin of an open subgraph box.
const OPEN_PAD: f64 = 6.0;

/// A laid-out graph and, inside each open subgraph box, its own drawing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TopoDrawing {
    /// This graph's boxes and edges.
    pub layout: TopoLayout,
    /// Open subgraph boxes: node name, where its inner drawing starts, and
    /// the drawing.
    pub inner: Vec<(String, Point, TopoDrawing)>,
    /// Nodes of this graph that are subgraphs (open or not).
    pub subgraphs: BTreeSet<String>,
    /// Labels of the Send edges, by `(from, to)`.
    pub send_labels: BTreeMap<(String, String), String>,
}

/// Lays out `g`; a subgraph node whose path (`prefix` + name, levels
/// joined with `/`) is in `open` is drawn as a box holding its own graph.
pub fn draw_graph(g: &SpecGraph, open: &BTreeSet<String>, prefix: &str) -> TopoDrawing {
    let mut inner_drawings = BTreeMap::new();
    let sizes: Vec<(f64, f64)> = g
        .nodes
        .iter()
        .map(|n| {
            let path = format!("{prefix}{n}");
            match g.subgraphs.get(n).filter(|_| open.contains(&path)) {
                Some(sub) => {
                    let d = draw_graph(sub, open, &format!("{path}/"));
                    let size = (
                        (d.layout.width + 2.0 * OPEN_PAD).max(TOPO_BOX_W),
                        d.layout.height + OPEN_TITLE_H + OPEN_PAD,
                    );
                    inner_drawings.insert(n.clone(), d);
                    size
                }
                None => (TOPO_BOX_W, TOPO_BOX_H),
            }
        })
        .collect();
    let layout = layout_sized(&g.nodes, &g.edges, &sizes);
    let inner = layout
        .nodes
        .iter()
        .filter_map(|n| {
            let d = inner_drawings.remove(&n.name)?;
            let at = Point::new(n.at.x + OPEN_PAD, n.at.y + OPEN_TITLE_H);
            Some((n.name.clone(), at, d))
        })
        .collect();
    TopoDrawing {
        layout,
        inner,
        subgraphs: g.subgraphs.keys().cloned().collect(),
        send_labels: g.send_labels.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(id: &str) -> GraphSpec {
        crate::scenarios::by_id(id).unwrap().graph().unwrap()
    }

    fn kinds(g: &SpecGraph, kind: EdgeKind) -> Vec<(&str, &str)> {
        g.edges
            .iter()
            .filter(|e| e.2 == kind)
            .map(|(a, b, _)| (a.as_str(), b.as_str()))
            .collect()
    }

    #[test]
    fn send_fan_outs_are_edges_of_their_own_with_a_label() {
        let g = spec_graph(&spec("map-reduce"));
        assert_eq!(kinds(&g, EdgeKind::Send), [("plan", "worker")]);
        assert_eq!(
            g.send_labels
                .get(&("plan".into(), "worker".into()))
                .map(String::as_str),
            Some("Send × topics")
        );
        assert_eq!(
            kinds(&g, EdgeKind::Plain),
            [
                ("__start__", "plan"),
                ("worker", "reduce"),
                ("reduce", "__end__")
            ]
        );
    }

    #[test]
    fn goto_destinations_are_dashed_arrows() {
        let g = spec_graph(&spec("handoff"));
        assert_eq!(
            kinds(&g, EdgeKind::Goto),
            [
                ("triage", "billing"),
                ("billing", "support"),
                ("billing", "survey")
            ]
        );
        let d = draw_graph(&g, &BTreeSet::new(), "");
        let goto = d
            .layout
            .edges
            .iter()
            .find(|e| e.kind == EdgeKind::Goto)
            .unwrap();
        assert!(goto.conditional, "drawn dashed");
    }

    #[test]
    fn a_parent_goto_inside_a_subgraph_is_drawn_from_the_subgraph_node() {
        let s = GraphSpec::parse(
            r#"{"channels": {"x": {}}, "nodes": {
                "team": {"subgraph": {"channels": {"x": {}}, "nodes": {
                    "agent": {"writes": [{"set": {"x": 1}}, {"goto": "boss", "graph": "parent"}]}},
                    "edges": [["__start__", "agent"]]}},
                "boss": {"writes": []}},
                "edges": [["__start__", "team"], ["boss", "__end__"]]}"#,
        )
        .unwrap();
        let g = spec_graph(&s);
        assert_eq!(kinds(&g, EdgeKind::Goto), [("team", "boss")]);
        assert!(kinds(&g.subgraphs["team"], EdgeKind::Goto).is_empty());
    }

    fn node<'d>(d: &'d TopoDrawing, name: &str) -> &'d crate::layout::topo::TopoNode {
        d.layout.nodes.iter().find(|n| n.name == name).unwrap()
    }

    #[test]
    fn a_subgraph_box_opens_to_hold_its_own_graph() {
        let g = spec_graph(&spec("research"));
        assert_eq!(g.subgraphs.keys().collect::<Vec<_>>(), ["research"]);
        let closed = draw_graph(&g, &BTreeSet::new(), "");
        assert!(closed.inner.is_empty());
        let open = draw_graph(&g, &BTreeSet::from(["research".to_owned()]), "");
        let boxed = node(&open, "research");
        let (_, at, inner) = &open.inner[0];
        assert_eq!(
            inner
                .layout
                .nodes
                .iter()
                .map(|n| n.name.as_str())
                .collect::<Vec<_>>(),
            ["__start__", "search", "write", "approve", "__end__"]
        );
        // The inner drawing fits inside the box, below its title.
        assert!(at.x >= boxed.at.x && at.y >= boxed.at.y + OPEN_TITLE_H);
        assert!(at.x + inner.layout.width <= boxed.at.x + boxed.w + 0.01);
        assert!(at.y + inner.layout.height <= boxed.at.y + boxed.h + 0.01);
        // Nodes below the open box moved down, none overlap it.
        let publish = node(&open, "publish");
        assert!(publish.at.y > boxed.at.y + boxed.h);
        assert!(open.layout.height > closed.layout.height);
    }

    #[test]
    fn nested_subgraphs_open_by_path() {
        let s = GraphSpec::parse(
            r#"{"channels": {"x": {}}, "nodes": {
                "outer": {"subgraph": {"channels": {"x": {}}, "nodes": {
                    "inner": {"subgraph": {"channels": {"x": {}}, "nodes": {"leaf": {"writes": []}},
                        "edges": [["__start__", "leaf"]]}}},
                    "edges": [["__start__", "inner"]]}}},
                "edges": [["__start__", "outer"]]}"#,
        )
        .unwrap();
        let g = spec_graph(&s);
        let open = BTreeSet::from(["outer".to_owned(), "outer/inner".to_owned()]);
        let d = draw_graph(&g, &open, "");
        let (_, _, outer) = &d.inner[0];
        assert_eq!(outer.inner.len(), 1);
        assert!(outer.inner[0]
            .2
            .layout
            .nodes
            .iter()
            .any(|n| n.name == "leaf"));
        // Only "inner" open is not enough: its parent box is closed.
        let d = draw_graph(&g, &BTreeSet::from(["outer/inner".to_owned()]), "");
        assert!(d.inner.is_empty());
    }
}
