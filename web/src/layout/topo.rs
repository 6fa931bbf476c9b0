//! Layered drawing of a graph's topology (the small panel): `__start__` on
//! top, each node one layer below its deepest forward predecessor, `__end__`
//! at the bottom. Edges that point back up (loops) are drawn as arcs on the
//! right. Pure, unit-tested natively.

use std::collections::{HashMap, HashSet};

use super::geometry::Point;

/// Box size and spacing of the topology drawing.
pub const TOPO_BOX_W: f64 = 92.0;
/// Height of a node box.
pub const TOPO_BOX_H: f64 = 26.0;
const H_GAP: f64 = 12.0;
const V_GAP: f64 = 26.0;
const MARGIN: f64 = 8.0;

/// A placed topology node (top-left corner of its box).
#[derive(Clone, Debug, PartialEq)]
pub struct TopoNode {
    /// Node name.
    pub name: String,
    /// Top-left corner.
    pub at: Point,
    /// Box width.
    pub w: f64,
    /// Box height.
    pub h: f64,
}

/// What an edge of the topology stands for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EdgeKind {
    /// A static edge (solid).
    #[default]
    Plain,
    /// A conditional edge: may or may not be taken (dashed).
    Conditional,
    /// A router's `Send` fan-out: one task per item (thick, labelled).
    Send,
    /// A `Command(goto=...)` destination (dashed, its own colour).
    Goto,
}

/// A placed topology edge.
#[derive(Clone, Debug, PartialEq)]
pub struct TopoEdge {
    /// Source node.
    pub from: String,
    /// Target node.
    pub to: String,
    /// SVG path data.
    pub d: String,
    /// Drawn dashed: a conditional edge.
    pub conditional: bool,
    /// Points back up (a loop).
    pub back: bool,
    /// What the edge stands for.
    pub kind: EdgeKind,
    /// A point half-way along it, for a label.
    pub mid: Point,
}

/// The whole drawing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TopoLayout {
    /// Nodes.
    pub nodes: Vec<TopoNode>,
    /// Edges.
    pub edges: Vec<TopoEdge>,
    /// Drawing width.
    pub width: f64,
    /// Drawing height.
    pub height: f64,
}

/// Lays out `nodes` (in display order, `__start__` first) and `edges`
/// `(from, to, conditional)`, every box the same size.
pub fn layout_topology(nodes: &[String], edges: &[(String, String, bool)]) -> TopoLayout {
    let kinded: Vec<(String, String, EdgeKind)> = edges
        .iter()
        .map(|(a, b, c)| {
            let kind = if *c {
                EdgeKind::Conditional
            } else {
                EdgeKind::Plain
            };
            (a.clone(), b.clone(), kind)
        })
        .collect();
    let sizes = vec![(TOPO_BOX_W, TOPO_BOX_H); nodes.len()];
    layout_sized(nodes, &kinded, &sizes)
}

/// Lays out `nodes` with a box size each (`sizes[i]` for `nodes[i]`: an
/// open subgraph is a bigger box) and edges of any kind. A layer is as tall
/// as its tallest box; boxes of a layer sit side by side, centred.
pub fn layout_sized(
    nodes: &[String],
    edges: &[(String, String, EdgeKind)],
    sizes: &[(f64, f64)],
) -> TopoLayout {
    let index: HashMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let size = |i: usize| sizes.get(i).copied().unwrap_or((TOPO_BOX_W, TOPO_BOX_H));
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (a, b, _) in edges {
        if let (Some(&i), Some(&j)) = (index.get(a.as_str()), index.get(b.as_str())) {
            out[i].push(j);
        }
    }
    let (back, order) = back_edges(&out);
    let layer = layers(&out, &back, &order, index.get(chronograph::END).copied());
    let placed = place(&layer, size);
    let placed_edges = edges
        .iter()
        .filter_map(|(a, b, kind)| {
            let (&i, &j) = (index.get(a.as_str())?, index.get(b.as_str())?);
            let is_back = back.contains(&(i, j)) || layer[j] <= layer[i];
            let from = (placed.at[i], size(i));
            let (d, mid) = edge_path(from, (placed.at[j], size(j)), is_back);
            Some(TopoEdge {
                from: a.clone(),
                to: b.clone(),
                d,
                conditional: matches!(kind, EdgeKind::Conditional | EdgeKind::Goto),
                back: is_back,
                kind: *kind,
                mid,
            })
        })
        .collect();
    TopoLayout {
        nodes: nodes
            .iter()
            .zip(placed.at)
            .enumerate()
            .map(|(i, (name, at))| TopoNode {
                name: name.clone(),
                at,
                w: size(i).0,
                h: size(i).1,
            })
            .collect(),
        edges: placed_edges,
        width: placed.width,
        height: placed.height,
    }
}

/// A depth-first walk from each unvisited node in turn: the edges to a node
/// still on the stack (loops), and the nodes in post-order.
fn back_edges(out: &[Vec<usize>]) -> (HashSet<(usize, usize)>, Vec<usize>) {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnStack,
        Done,
    }
    fn visit(
        v: usize,
        out: &[Vec<usize>],
        mark: &mut [Mark],
        back: &mut HashSet<(usize, usize)>,
        order: &mut Vec<usize>,
    ) {
        mark[v] = Mark::OnStack;
        for &w in &out[v] {
            match mark[w] {
                Mark::New => visit(w, out, mark, back, order),
                Mark::OnStack => {
                    back.insert((v, w));
                }
                Mark::Done => {}
            }
        }
        mark[v] = Mark::Done;
        order.push(v);
    }
    let mut mark = vec![Mark::New; out.len()];
    let mut back = HashSet::new();
    let mut order = Vec::new();
    for v in 0..out.len() {
        if mark[v] == Mark::New {
            visit(v, out, &mut mark, &mut back, &mut order);
        }
    }
    (back, order)
}

/// Each node's layer: one below its deepest forward predecessor, and `end`
/// (`__end__`) alone at the bottom. `post_order` is [`back_edges`]'s.
fn layers(
    out: &[Vec<usize>],
    back: &HashSet<(usize, usize)>,
    post_order: &[usize],
    end: Option<usize>,
) -> Vec<usize> {
    let mut layer = vec![0usize; out.len()];
    // Reversed, the post-order is a topological order of the forward edges.
    for &v in post_order.iter().rev() {
        for &w in &out[v] {
            if !back.contains(&(v, w)) {
                layer[w] = layer[w].max(layer[v] + 1);
            }
        }
    }
    if let Some(e) = end {
        let deepest = (0..out.len())
            .filter(|&v| v != e)
            .map(|v| layer[v])
            .max()
            .unwrap_or(0);
        layer[e] = deepest + 1;
    }
    layer
}

/// Where the boxes go, and the drawing's size.
struct Placed {
    at: Vec<Point>,
    width: f64,
    height: f64,
}

/// Places the boxes layer by layer, top to bottom: a layer's boxes side
/// by side, centred, sharing their vertical centre.
fn place(layer: &[usize], size: impl Fn(usize) -> (f64, f64)) -> Placed {
    let layers = layer.iter().copied().max().map_or(0, |m| m + 1);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); layers];
    for (v, &l) in layer.iter().enumerate() {
        rows[l].push(v);
    }
    let row_width = |row: &Vec<usize>| {
        row.iter().map(|&v| size(v).0).sum::<f64>() + (row.len().max(1) - 1) as f64 * H_GAP
    };
    let inner = rows.iter().map(row_width).fold(TOPO_BOX_W, f64::max);
    let mut at = vec![Point::default(); layer.len()];
    let mut y = MARGIN;
    for row in &rows {
        let mut x = MARGIN + (inner - row_width(row)) / 2.0;
        let tallest = row.iter().map(|&v| size(v).1).fold(0.0, f64::max);
        for &v in row {
            at[v] = Point::new(x, y + (tallest - size(v).1) / 2.0);
            x += size(v).0 + H_GAP;
        }
        y += tallest + V_GAP;
    }
    Placed {
        at,
        // Room for the loop arcs on the right.
        width: inner + 2.0 * MARGIN + 26.0,
        height: (y - V_GAP + MARGIN).max(2.0 * MARGIN),
    }
}

/// An edge's SVG path between two boxes `(top-left, (w, h))`, and a point
/// half-way along it: down from bottom centre to top centre, or for a back
/// edge an arc out on the right from side to side.
fn edge_path(from: (Point, (f64, f64)), to: (Point, (f64, f64)), back: bool) -> (String, Point) {
    let ((p, (pw, ph)), (q, (qw, qh))) = (from, to);
    if back {
        let (x1, y1) = (p.x + pw, p.y + ph / 2.0);
        let (x2, y2) = (q.x + qw, q.y + qh / 2.0);
        let bulge = x1.max(x2) + 22.0;
        (
            format!("M{x1} {y1} C{bulge} {y1} {bulge} {y2} {} {y2}", x2 + 3.0),
            Point::new(bulge - 5.0, (y1 + y2) / 2.0),
        )
    } else {
        let (x1, y1) = (p.x + pw / 2.0, p.y + ph);
        let (x2, y2) = (q.x + qw / 2.0, q.y - 3.0);
        let mid = (y1 + y2) / 2.0;
        (
            format!("M{x1} {y1} C{x1} {mid} {x2} {mid} {x2} {y2}"),
            Point::new((x1 + x2) / 2.0, mid),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    fn e(a: &str, b: &str) -> (String, String, bool) {
        (a.into(), b.into(), false)
    }

    #[test]
    fn a_chain_is_one_column_top_to_bottom() {
        let t = layout_topology(
            &s(&["__start__", "booking", "reply", "__end__"]),
            &[
                e("__start__", "booking"),
                e("booking", "reply"),
                e("reply", "__end__"),
            ],
        );
        let ys: Vec<f64> = t.nodes.iter().map(|n| n.at.y).collect();
        assert!(ys.windows(2).all(|w| w[0] < w[1]));
        assert!(t.nodes.iter().all(|n| n.at.x == t.nodes[0].at.x));
        assert!(t.edges.iter().all(|e| !e.back));
    }

    #[test]
    fn fan_out_shares_a_layer_and_loops_are_back_edges() {
        let t = layout_topology(
            &s(&["__start__", "a", "b", "c", "__end__"]),
            &[
                e("__start__", "a"),
                e("__start__", "b"),
                e("a", "c"),
                e("b", "c"),
                e("c", "__end__"),
            ],
        );
        assert_eq!(t.nodes[1].at.y, t.nodes[2].at.y);
        assert_ne!(t.nodes[1].at.x, t.nodes[2].at.x);
        let l = layout_topology(
            &s(&["__start__", "agent", "tool", "__end__"]),
            &[
                e("__start__", "agent"),
                e("agent", "tool"),
                e("tool", "agent"),
                e("agent", "__end__"),
            ],
        );
        let back: Vec<_> = l
            .edges
            .iter()
            .filter(|e| e.back)
            .map(|e| (&e.from[..], &e.to[..]))
            .collect();
        assert_eq!(back, [("tool", "agent")]);
        assert!(
            l.nodes[3].at.y > l.nodes[2].at.y,
            "__end__ is the bottom layer"
        );
    }
}
