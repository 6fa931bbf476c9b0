//! Subgraph groups in the checkpoint tree: a checkpoint whose task ran a
//! subgraph can be expanded in place, and that namespace's own checkpoint
//! tree is drawn right below it, in lanes of its own inside a framed group,
//! nested to any depth.
//!
//! Rules:
//! - each namespace's checkpoints get their lanes from [`Layout::compute`]
//!   on that namespace alone, so a group looks exactly like the same tree
//!   drawn at the root (first run left-most, replays and forks to the right);
//! - a group's rows come right after its owner's row, before the owner's
//!   namespace goes on, so rows are still one checkpoint each and time still
//!   flows downward inside every group;
//! - a group's lanes sit right of every lane of the namespace that owns it
//!   (all of them, not only those drawn so far), so no edge of the enclosing
//!   tree crosses a group, and a nested group sits right of its parent
//!   group's lanes.
//!
//! Pure code, unit-tested natively.

use super::geometry::{node_center, LANE_WIDTH, NODE_RADIUS, ROW_HEIGHT};
use super::lanes::{Layout, NodeIn};

/// The checkpoints of one namespace, and the expanded subgraph runs under them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Group {
    /// The namespace (`""` at the root).
    pub ns: String,
    /// Its checkpoints in creation order.
    pub nodes: Vec<NodeIn>,
    /// The expanded runs: the owning checkpoint's id (one of `nodes`) and
    /// the group of the namespace its task wrote, in the order to draw them.
    pub runs: Vec<(String, Group)>,
}

/// One framed group, in rows and lanes of the whole drawing.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The namespace drawn inside.
    pub ns: String,
    /// 1 for a subgraph of the root, 2 inside that, …
    pub depth: usize,
    /// Row of the checkpoint whose task ran the subgraph.
    pub owner: usize,
    /// First and last row inside the frame (nested groups included).
    pub first: usize,
    /// Last row inside the frame.
    pub last: usize,
    /// Left-most lane of the frame.
    pub left_lane: usize,
    /// One past the right-most lane used inside (nested groups included).
    pub end_lane: usize,
    /// How many levels of groups are nested inside this one (0: none).
    pub inner_depth: usize,
}

/// A world-space rectangle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

/// Gap between a frame's border and the one nested in it.
const NEST_GAP: f64 = 4.0;

impl Frame {
    /// The frame's border: around its lanes and rows, a little wider for
    /// every level nested inside, so nested borders never coincide.
    pub fn rect(&self) -> Rect {
        let top_left = node_center(self.left_lane, self.first);
        let bottom_right = node_center(self.end_lane.max(self.left_lane + 1) - 1, self.last);
        let x = top_left.x - LANE_WIDTH / 2.0 + 2.0;
        let right = bottom_right.x + NODE_RADIUS + 4.0 + NEST_GAP * self.inner_depth as f64;
        let y = top_left.y - ROW_HEIGHT / 2.0 + 2.0;
        let bottom = bottom_right.y + ROW_HEIGHT / 2.0 - 2.0 - NEST_GAP * (self.depth - 1) as f64;
        Rect {
            x,
            y,
            w: right - x,
            h: (bottom - y).max(ROW_HEIGHT / 2.0),
        }
    }

    /// SVG path of the dashed link from the owning checkpoint (drawn in lane
    /// `owner_lane`) to the frame's top-left corner.
    pub fn link_d(&self, owner_lane: usize) -> String {
        let a = node_center(owner_lane, self.owner);
        let r = self.rect();
        let x = r.x + 10.0;
        format!("M{} {} L{x} {} L{x} {}", a.x + NODE_RADIUS, a.y, a.y, r.y)
    }
}

/// The whole tree with its expanded groups: one [`Layout`] (row = index in
/// `order`), the frames, and each row's depth.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Framed {
    /// Lanes, rows and edges of every drawn checkpoint.
    pub layout: Layout,
    /// Checkpoint ids in drawing order (row order).
    pub order: Vec<String>,
    /// Per row: 0 at the root, the frame depth inside a group.
    pub depth: Vec<usize>,
    /// Every frame, outer ones before the ones nested in them.
    pub frames: Vec<Frame>,
}

impl Framed {
    /// World x of the right-most frame border (0 without frames), so the
    /// label column can start right of it.
    pub fn frames_right(&self) -> f64 {
        self.frames
            .iter()
            .map(|f| {
                let r = f.rect();
                r.x + r.w
            })
            .fold(0.0, f64::max)
    }
}

/// Lays out `root` and, in place, every group under it.
pub fn layout_groups(root: &Group) -> Framed {
    let mut out = Framed::default();
    emit(root, 0, 0, &mut out);
    out
}

/// Appends `g`'s checkpoints (lanes from `offset`) and its groups; returns
/// one past the right-most lane used and the deepest level nested below.
fn emit(g: &Group, offset: usize, depth: usize, out: &mut Framed) -> (usize, usize) {
    let local = Layout::compute(&g.nodes);
    let lanes = local.lane_count().max(1);
    let mut end_lane = offset + lanes;
    let mut deepest = 0;
    for (i, n) in g.nodes.iter().enumerate() {
        let lane = offset + local.node(i).map_or(0, |p| p.lane);
        let owner = out.layout.push_in_lane(&n.id, n.parent.as_deref(), lane);
        out.order.push(n.id.clone());
        out.depth.push(depth);
        for (_, child) in g.runs.iter().filter(|(o, _)| *o == n.id) {
            if child.nodes.is_empty() {
                continue;
            }
            let at = out.frames.len();
            let first = out.layout.len();
            out.frames.push(Frame {
                ns: child.ns.clone(),
                depth: depth + 1,
                owner,
                first,
                last: first,
                left_lane: offset + lanes,
                end_lane: offset + lanes + 1,
                inner_depth: 0,
            });
            let (end, inner) = emit(child, offset + lanes, depth + 1, out);
            let f = &mut out.frames[at];
            f.last = out.layout.len() - 1;
            f.end_lane = end;
            f.inner_depth = inner;
            end_lane = end_lane.max(end);
            deepest = deepest.max(inner + 1);
        }
    }
    (end_lane, deepest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes(spec: &[(&str, Option<&str>)]) -> Vec<NodeIn> {
        spec.iter()
            .map(|(id, p)| match p {
                Some(p) => NodeIn::child(*id, *p),
                None => NodeIn::root(*id),
            })
            .collect()
    }

    fn chain(prefix: &str, n: usize) -> Vec<NodeIn> {
        (0..n)
            .map(|i| {
                let id = format!("{prefix}{i}");
                if i == 0 {
                    NodeIn::root(id)
                } else {
                    NodeIn::child(id, format!("{prefix}{}", i - 1))
                }
            })
            .collect()
    }

    fn group(ns: &str, nodes: Vec<NodeIn>, runs: Vec<(&str, Group)>) -> Group {
        Group {
            ns: ns.into(),
            nodes,
            runs: runs.into_iter().map(|(o, g)| (o.to_owned(), g)).collect(),
        }
    }

    #[test]
    fn without_groups_it_is_the_plain_layout() {
        let root = nodes(&[
            ("c0", None),
            ("c1", Some("c0")),
            ("c2", Some("c1")),
            ("c3", Some("c1")),
        ]);
        let f = layout_groups(&group("", root.clone(), vec![]));
        let plain = Layout::compute(&root);
        assert_eq!(f.layout.nodes(), plain.nodes());
        assert_eq!(f.layout.edges(), plain.edges());
        assert!(f.frames.is_empty());
        assert_eq!(f.frames_right(), 0.0);
    }

    #[test]
    fn a_group_follows_its_owner_in_lanes_right_of_the_root() {
        // c1 ran the subgraph; the root has two lanes (c3 is a replay of c1).
        let sub = group("research:1", chain("s", 3), vec![]);
        let root = nodes(&[
            ("c0", None),
            ("c1", Some("c0")),
            ("c2", Some("c1")),
            ("c3", Some("c1")),
        ]);
        let f = layout_groups(&group("", root, vec![("c1", sub)]));
        assert_eq!(f.order, ["c0", "c1", "s0", "s1", "s2", "c2", "c3"]);
        assert_eq!(f.depth, [0, 0, 1, 1, 1, 0, 0]);
        let lane = |id: &str| f.layout.node(f.layout.index_of(id).unwrap()).unwrap().lane;
        assert_eq!((lane("c0"), lane("c2"), lane("c3")), (0, 0, 1));
        assert!(["s0", "s1", "s2"].iter().all(|s| lane(s) == 2));
        assert_eq!(
            f.frames,
            [Frame {
                ns: "research:1".into(),
                depth: 1,
                owner: 1,
                first: 2,
                last: 4,
                left_lane: 2,
                end_lane: 3,
                inner_depth: 0,
            }]
        );
        // The group's first checkpoint has no edge from the root: the frame's
        // link stands for it. c1 → c2 runs straight down lane 0, past the group.
        let into_s0 = f.layout.edges().iter().any(|e| e.to == 2);
        assert!(!into_s0);
        let c1_c2 = f.layout.edges().iter().find(|e| e.to == 5).unwrap();
        assert!(c1_c2.is_straight());
        // Rows stay one checkpoint each: hit testing still works.
        for i in 0..f.layout.len() {
            let c = f.layout.center(i).unwrap();
            assert_eq!(f.layout.hit_test(c.x, c.y), Some(i));
        }
    }

    #[test]
    fn groups_nest_to_any_depth_with_borders_inside_each_other() {
        let inner = group("a:1|b:2", chain("t", 2), vec![]);
        let outer = group("a:1", chain("s", 3), vec![("s1", inner)]);
        let f = layout_groups(&group("", chain("c", 3), vec![("c1", outer)]));
        assert_eq!(f.order, ["c0", "c1", "s0", "s1", "t0", "t1", "s2", "c2"]);
        assert_eq!(f.depth, [0, 0, 1, 1, 2, 2, 1, 0]);
        let (o, i) = (&f.frames[0], &f.frames[1]);
        assert_eq!((o.first, o.last, o.left_lane, o.end_lane), (2, 6, 1, 3));
        assert_eq!((i.first, i.last, i.left_lane, i.end_lane), (4, 5, 2, 3));
        assert_eq!((o.inner_depth, i.inner_depth), (1, 0));
        let (ro, ri) = (o.rect(), i.rect());
        assert!(ro.x < ri.x && ro.y < ri.y);
        assert!(ro.x + ro.w > ri.x + ri.w, "the outer border is wider");
        assert!(ro.y + ro.h > ri.y + ri.h - 0.1);
        assert_eq!(f.frames_right(), ro.x + ro.w);
    }

    #[test]
    fn several_runs_of_one_checkpoint_stack_and_a_group_keeps_its_own_branches() {
        // A Send into a subgraph node: one checkpoint, two namespaces.
        let a = group("w:1", chain("a", 2), vec![]);
        // A namespace with a fork: b2 is an update under b0.
        let b = group(
            "w:2",
            nodes(&[("b0", None), ("b1", Some("b0")), ("b2", Some("b0"))]),
            vec![],
        );
        let f = layout_groups(&group("", chain("c", 2), vec![("c0", a), ("c0", b)]));
        assert_eq!(f.order, ["c0", "a0", "a1", "b0", "b1", "b2", "c1"]);
        assert_eq!(f.frames.len(), 2);
        assert_eq!((f.frames[0].first, f.frames[0].last), (1, 2));
        assert_eq!((f.frames[1].first, f.frames[1].last), (3, 5));
        let lane = |id: &str| f.layout.node(f.layout.index_of(id).unwrap()).unwrap().lane;
        assert_eq!((lane("b0"), lane("b1"), lane("b2")), (1, 1, 2));
        assert_eq!(f.frames[1].end_lane, 3);
    }

    #[test]
    fn a_run_with_no_checkpoints_draws_no_frame() {
        let empty = group("x:1", vec![], vec![]);
        let f = layout_groups(&group("", chain("c", 2), vec![("c0", empty)]));
        assert!(f.frames.is_empty());
        assert_eq!(f.order, ["c0", "c1"]);
    }
}
