//! Lane assignment: which column each checkpoint is drawn in, and the edges
//! between parents and children.
//!
//! Rules (time flows downward, the oldest checkpoint on top):
//! - row = creation index, so the newest checkpoint is at the bottom and every
//!   row holds exactly one checkpoint;
//! - the first root opens lane 0: the first run is the left-most column;
//! - a parent's first child (in creation order) continues the parent's lane;
//! - every later child (a replay, fork or copy sibling), every further root and
//!   every checkpoint whose parent is not (yet) in the list opens a new lane
//!   to the right, numbered in order of creation;
//! - lanes are never reused, reassigned or reordered.
//!
//! Why the first child can always take its parent's lane: a lane is a chain in
//! which each checkpoint is its predecessor's first child, so when a checkpoint
//! gets its first child it is still the tip of its own lane.
//!
//! Consequence: the layout of a prefix of the list is a prefix of the layout.
//! [`Layout::push`] appends one checkpoint in O(1) expected time, so a view can
//! extend its layout as checkpoints arrive instead of recomputing it.

use std::collections::HashMap;

use super::geometry::{
    canvas_height, canvas_width, node_center, row_at, Point, HIT_SLOP, NODE_RADIUS, ROW_HEIGHT,
};

/// One checkpoint as the layout sees it: its id and its parent's id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeIn {
    /// The checkpoint's id (unique within the thread).
    pub id: String,
    /// The parent checkpoint's id; `None` for a root.
    pub parent: Option<String>,
}

impl NodeIn {
    /// A checkpoint without a parent.
    pub fn root(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            parent: None,
        }
    }

    /// A checkpoint whose parent is `parent`.
    pub fn child(id: impl Into<String>, parent: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            parent: Some(parent.into()),
        }
    }
}

/// Where one checkpoint is drawn, and how it hangs in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedNode {
    /// Column, 0 = left-most. Lanes are numbered in order of creation.
    pub lane: usize,
    /// Row, 0 = top. Always equal to the checkpoint's index in the input.
    pub row: usize,
    /// Index of the parent checkpoint, when the parent came earlier in the list.
    pub parent: Option<usize>,
    /// The checkpoint names a parent that is not earlier in the list (the
    /// layout treats it as a root).
    pub dangling: bool,
    /// This checkpoint opened its lane (a root, a dangling checkpoint, or a
    /// child that is not its parent's first).
    pub opens_lane: bool,
}

/// A line from a parent to a child, as world-space points.
///
/// Within one lane it is a straight segment `[parent, child]`. Into a new lane
/// it is `[parent, bend, child]`: a curve from the parent to the child's
/// column half a row below the parent (so it clears every other node), then a
/// straight run down the child's column, which no other checkpoint occupies
/// before the child. (A child in a new lane is never in the row right below
/// its parent: the parent's first child came in between.)
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    /// Index of the parent checkpoint.
    pub from: usize,
    /// Index of the child checkpoint.
    pub to: usize,
    /// The polyline from the parent's centre to the child's centre.
    pub points: Vec<Point>,
}

impl Edge {
    /// Whether the edge stays in one lane (a straight vertical line).
    pub fn is_straight(&self) -> bool {
        self.points.windows(2).all(|w| w[0].x == w[1].x)
    }

    /// SVG path data (`d` attribute) for the edge: vertical segments as lines,
    /// lane changes as an S-curve that leaves and enters vertically.
    pub fn path_d(&self) -> String {
        use std::fmt::Write as _;
        let mut d = String::with_capacity(48);
        let Some(first) = self.points.first() else {
            return d;
        };
        let _ = write!(d, "M{} {}", first.x, first.y);
        for w in self.points.windows(2) {
            let (a, b) = (w[0], w[1]);
            if a.x == b.x {
                let _ = write!(d, " L{} {}", b.x, b.y);
            } else {
                let mid = (a.y + b.y) / 2.0;
                let _ = write!(d, " C{} {} {} {} {} {}", a.x, mid, b.x, mid, b.x, b.y);
            }
        }
        d
    }
}

/// Lanes, rows and edges for a list of checkpoints in creation order.
///
/// Build it at once with [`Layout::compute`] or grow it with [`Layout::push`];
/// both give the same result for the same list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    nodes: Vec<PlacedNode>,
    edges: Vec<Edge>,
    /// id -> index of its first occurrence.
    index: HashMap<String, usize>,
    /// Per node: whether it already has a child.
    has_child: Vec<bool>,
    /// Per lane: the index of the checkpoint that opened it.
    lane_starts: Vec<usize>,
    /// One past the right-most lane given by [`Layout::push_in_lane`].
    placed_lanes: usize,
}

impl Layout {
    /// An empty layout.
    pub fn new() -> Self {
        Self::default()
    }

    /// Lays out `nodes`, given in creation order. O(n) expected time.
    pub fn compute(nodes: &[NodeIn]) -> Self {
        let mut layout = Self::with_capacity(nodes.len());
        layout.extend(nodes);
        layout
    }

    /// An empty layout with room for `n` checkpoints.
    pub fn with_capacity(n: usize) -> Self {
        Self {
            nodes: Vec::with_capacity(n),
            edges: Vec::with_capacity(n),
            index: HashMap::with_capacity(n),
            has_child: Vec::with_capacity(n),
            lane_starts: Vec::new(),
            placed_lanes: 0,
        }
    }

    /// Appends `nodes`, in creation order, after the checkpoints already laid out.
    pub fn extend(&mut self, nodes: &[NodeIn]) {
        for n in nodes {
            self.push(&n.id, n.parent.as_deref());
        }
    }

    /// Appends one checkpoint created after all the others and returns its
    /// index. Nothing already placed moves.
    ///
    /// A `parent` that is not among the checkpoints already laid out (or the
    /// checkpoint's own id) makes it a dangling root. If `id` repeats an
    /// earlier id, the new checkpoint still gets its own row, but children
    /// naming that id keep attaching to the first occurrence.
    pub fn push(&mut self, id: &str, parent: Option<&str>) -> usize {
        let row = self.nodes.len();
        let parent_index = parent.and_then(|p| self.index.get(p).copied());
        let dangling = parent.is_some() && parent_index.is_none();

        let continued = parent_index.filter(|&p| !self.has_child[p]);
        let lane = match continued {
            Some(p) => self.nodes[p].lane,
            None => {
                self.lane_starts.push(row);
                self.lane_starts.len() - 1
            }
        };
        self.place(id, parent_index, lane, dangling, continued.is_none())
    }

    /// Appends one checkpoint in a lane chosen by the caller (the lanes of a
    /// framed subgraph group, laid out by [`super::frames`]) and returns its
    /// index. Like [`Layout::push`], nothing already placed moves; the caller
    /// keeps each lane's column free above the checkpoint that opens it.
    pub fn push_in_lane(&mut self, id: &str, parent: Option<&str>, lane: usize) -> usize {
        let parent_index = parent.and_then(|p| self.index.get(p).copied());
        let dangling = parent.is_some() && parent_index.is_none();
        let continued = parent_index.filter(|&p| !self.has_child[p] && self.nodes[p].lane == lane);
        self.placed_lanes = self.placed_lanes.max(lane + 1);
        self.place(id, parent_index, lane, dangling, continued.is_none())
    }

    /// Places checkpoint `id` in the next row of `lane`, with the edge from
    /// its parent (shared by [`Layout::push`] and [`Layout::push_in_lane`],
    /// which differ only in how they choose the lane).
    fn place(
        &mut self,
        id: &str,
        parent_index: Option<usize>,
        lane: usize,
        dangling: bool,
        opens_lane: bool,
    ) -> usize {
        let row = self.nodes.len();
        if let Some(p) = parent_index {
            self.has_child[p] = true;
            let from = self.nodes[p];
            self.edges.push(Edge {
                from: p,
                to: row,
                points: edge_points(from.lane, from.row, lane, row),
            });
        }
        self.nodes.push(PlacedNode {
            lane,
            row,
            parent: parent_index,
            dangling,
            opens_lane,
        });
        self.has_child.push(false);
        self.index.entry(id.to_owned()).or_insert(row);
        row
    }

    /// The placed checkpoints, in input order (index = row).
    pub fn nodes(&self) -> &[PlacedNode] {
        &self.nodes
    }

    /// The placed checkpoint at `index`.
    pub fn node(&self, index: usize) -> Option<&PlacedNode> {
        self.nodes.get(index)
    }

    /// Parent-to-child edges, ordered by the child's index (one per checkpoint
    /// whose parent is in the list).
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// Number of checkpoints laid out.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether no checkpoint has been laid out.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Number of lanes (columns) in use.
    pub fn lane_count(&self) -> usize {
        self.lane_starts.len().max(self.placed_lanes)
    }

    /// For each lane, the index of the checkpoint that opened it.
    pub fn lane_starts(&self) -> &[usize] {
        &self.lane_starts
    }

    /// Index of the (first) checkpoint with this id.
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    /// World-space centre of the checkpoint at `index`.
    pub fn center(&self, index: usize) -> Option<Point> {
        self.nodes.get(index).map(|n| node_center(n.lane, n.row))
    }

    /// World-space width of the drawing (at least one lane wide).
    pub fn width(&self) -> f64 {
        canvas_width(self.lane_count().max(1))
    }

    /// World-space height of the drawing.
    pub fn height(&self) -> f64 {
        canvas_height(self.len())
    }

    /// The checkpoint whose circle (plus a small slop) contains the world
    /// point `(x, y)`. O(1): a row holds exactly one checkpoint. Inverse of
    /// [`Layout::center`]: `hit_test(center(i)) == Some(i)`.
    pub fn hit_test(&self, x: f64, y: f64) -> Option<usize> {
        let row = row_at(y)?;
        let center = self.center(row)?;
        (center.distance(Point::new(x, y)) <= NODE_RADIUS + HIT_SLOP).then_some(row)
    }
}

fn edge_points(from_lane: usize, from_row: usize, to_lane: usize, to_row: usize) -> Vec<Point> {
    let a = node_center(from_lane, from_row);
    let b = node_center(to_lane, to_row);
    if from_lane == to_lane {
        vec![a, b]
    } else {
        vec![a, Point::new(b.x, a.y + ROW_HEIGHT / 2.0), b]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small deterministic PRNG (SplitMix64) so the property tests need no crate.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// A random thread: mostly runs continuing from the newest checkpoint,
    /// with replays/forks/copies from random earlier checkpoints, and a few
    /// roots and dangling parents.
    fn random_tree(rng: &mut Rng, n: usize) -> Vec<NodeIn> {
        let mut out: Vec<NodeIn> = Vec::with_capacity(n);
        for i in 0..n {
            let id = format!("cp-{i}");
            let node = if i == 0 {
                NodeIn::root(id)
            } else {
                match rng.below(20) {
                    0 => NodeIn::root(id),
                    1 => NodeIn::child(id, format!("missing-{}", rng.below(5))),
                    2..=7 => {
                        let p = rng.below(i);
                        NodeIn::child(id, out[p].id.clone())
                    }
                    _ => NodeIn::child(id, out[i - 1].id.clone()),
                }
            };
            out.push(node);
        }
        out
    }

    fn ids(n: &[&str]) -> Vec<NodeIn> {
        // "c3<c1" = c3 with parent c1; "c0" = root.
        n.iter()
            .map(|s| match s.split_once('<') {
                Some((id, p)) => NodeIn::child(id, p),
                None => NodeIn::root(*s),
            })
            .collect()
    }

    fn lanes(l: &Layout) -> Vec<usize> {
        l.nodes().iter().map(|n| n.lane).collect()
    }

    /// The seed's booking thread (tests/conformance/expected/seed_booking.json).
    fn seed_booking() -> Vec<NodeIn> {
        ids(&[
            "c0", "c1<c0", "c2<c1", "c3<c2", "c4<c3", "c5<c4", "c6<c5", "c7<c6", "c8<c2", "c9<c8",
            "c10<c3", "c11<c0", "c12<c11", "c13<c1", "c14<c13", "c15<c14",
        ])
    }

    #[test]
    fn empty_input_gives_an_empty_layout() {
        let l = Layout::compute(&[]);
        assert!(l.is_empty());
        assert_eq!(l.lane_count(), 0);
        assert!(l.edges().is_empty());
        assert_eq!(l.hit_test(30.0, 30.0), None);
        assert!(l.width() > 0.0);
    }

    #[test]
    fn a_single_run_is_one_straight_lane() {
        let l = Layout::compute(&ids(&["a", "b<a", "c<b", "d<c"]));
        assert_eq!(lanes(&l), [0, 0, 0, 0]);
        assert_eq!(l.lane_count(), 1);
        assert_eq!(l.edges().len(), 3);
        assert!(l.edges().iter().all(Edge::is_straight));
        let rows: Vec<usize> = l.nodes().iter().map(|n| n.row).collect();
        assert_eq!(rows, [0, 1, 2, 3]);
    }

    #[test]
    fn seed_booking_thread_gets_one_lane_per_replay_fork_and_copy() {
        let l = Layout::compute(&seed_booking());
        // c0..c7 the two chat rounds; c8 replay of c2; c10 replay of the finished
        // c3; c11 edit of the first message; c13 copy of c2 (a sibling, under c1).
        assert_eq!(lanes(&l), [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 3, 4, 4, 4]);
        assert_eq!(l.lane_starts(), [0, 8, 10, 11, 13]);
        assert_eq!(l.node(13).unwrap().parent, Some(1));
        assert!(l.node(13).unwrap().opens_lane);
        assert!(!l.node(14).unwrap().opens_lane);
    }

    #[test]
    fn replaying_a_finished_leaf_continues_its_lane() {
        // The leaf has no child yet, so the replay copy is its first child.
        let l = Layout::compute(&ids(&["a", "b<a", "c<b", "d<c"]));
        let mut l2 = l.clone();
        l2.push("e", Some("b"));
        assert_eq!(l2.node(4).unwrap().lane, 1);
        let l3 = Layout::compute(&ids(&["a", "b<a", "x<b"]));
        assert_eq!(lanes(&l3), [0, 0, 0]);
    }

    #[test]
    fn dangling_parents_and_extra_roots_open_new_lanes() {
        let l = Layout::compute(&ids(&["a", "b<gone", "c<b", "d", "e<e"]));
        assert_eq!(lanes(&l), [0, 1, 1, 2, 3]);
        assert!(l.node(1).unwrap().dangling);
        assert_eq!(l.node(1).unwrap().parent, None);
        assert!(!l.node(3).unwrap().dangling);
        // A checkpoint naming itself as parent is dangling too.
        assert!(l.node(4).unwrap().dangling);
        assert_eq!(l.edges().len(), 1);
    }

    #[test]
    fn a_parent_listed_after_its_child_is_dangling() {
        let l = Layout::compute(&ids(&["b<a", "a"]));
        assert_eq!(lanes(&l), [0, 1]);
        assert!(l.node(0).unwrap().dangling);
        assert!(l.edges().is_empty());
    }

    #[test]
    fn duplicate_ids_keep_their_own_rows_and_children_attach_to_the_first() {
        let l = Layout::compute(&ids(&["a", "b<a", "b<a", "c<b"]));
        assert_eq!(l.len(), 4);
        assert_eq!(l.index_of("b"), Some(1));
        assert_eq!(l.node(3).unwrap().parent, Some(1));
        assert_eq!(lanes(&l), [0, 0, 1, 0]);
    }

    #[test]
    fn push_and_compute_agree() {
        let list = seed_booking();
        let mut l = Layout::new();
        for (i, n) in list.iter().enumerate() {
            assert_eq!(l.push(&n.id, n.parent.as_deref()), i);
        }
        let c = Layout::compute(&list);
        assert_eq!(l.nodes(), c.nodes());
        assert_eq!(l.edges(), c.edges());
    }

    /// Checks every structural rule of the layout on one list.
    fn check_rules(list: &[NodeIn], l: &Layout) {
        assert_eq!(l.len(), list.len());
        let mut first_child_seen = vec![false; list.len()];
        let mut next_lane = 0;
        let mut lane_tip: Vec<usize> = Vec::new();
        for (i, n) in l.nodes().iter().enumerate() {
            assert_eq!(n.row, i);
            match n.parent {
                Some(p) => {
                    assert!(p < i);
                    assert_eq!(Some(list[p].id.as_str()), list[i].parent.as_deref());
                    assert!(n.lane >= l.node(p).unwrap().lane);
                    if !first_child_seen[p] {
                        first_child_seen[p] = true;
                        assert_eq!(n.lane, l.node(p).unwrap().lane, "first child of {p}");
                        assert!(!n.opens_lane);
                    } else {
                        assert!(n.opens_lane);
                    }
                }
                None => assert!(n.opens_lane),
            }
            if n.opens_lane {
                assert_eq!(n.lane, next_lane, "lanes open left to right in order");
                next_lane += 1;
                lane_tip.push(i);
            } else {
                // A lane is a chain: the new node hangs under the lane's tip.
                assert_eq!(n.parent, Some(lane_tip[n.lane]));
                lane_tip[n.lane] = i;
            }
        }
        assert_eq!(l.lane_count(), next_lane);
        // Edges: one per resolved parent, from its centre to the child's.
        let with_parent = l.nodes().iter().filter(|n| n.parent.is_some()).count();
        assert_eq!(l.edges().len(), with_parent);
        for e in l.edges() {
            assert_eq!(l.node(e.to).unwrap().parent, Some(e.from));
            assert_eq!(e.points.first().copied(), l.center(e.from));
            assert_eq!(e.points.last().copied(), l.center(e.to));
        }
    }

    /// No edge runs through the circle of a checkpoint other than its ends.
    fn check_edges_clear_nodes(l: &Layout) {
        let clear = NODE_RADIUS + HIT_SLOP;
        for e in l.edges() {
            for w in e.points.windows(2) {
                let (a, b) = (w[0], w[1]);
                let (top, bottom) = (a.y.min(b.y), a.y.max(b.y));
                for (i, _) in l.nodes().iter().enumerate() {
                    if i == e.from || i == e.to {
                        continue;
                    }
                    let c = l.center(i).unwrap();
                    if c.y + clear < top || c.y - clear > bottom {
                        continue;
                    }
                    // The segment's bounding box (a curve stays inside it)
                    // must miss the circle.
                    let (left, right) = (a.x.min(b.x), a.x.max(b.x));
                    let hits_box = c.x + clear > left && c.x - clear < right;
                    assert!(!hits_box, "edge {}->{} crosses node {i}", e.from, e.to);
                }
            }
        }
    }

    /// 300 random threads of 1 to `max` checkpoints, from `seed`.
    fn random_trees(seed: u64, max: usize) -> impl Iterator<Item = Vec<NodeIn>> {
        let mut rng = Rng(seed);
        (0..300).map(move |_| {
            let n = 1 + rng.below(max);
            random_tree(&mut rng, n)
        })
    }

    #[test]
    fn random_trees_follow_the_rules() {
        for list in random_trees(7, 80) {
            let l = Layout::compute(&list);
            check_rules(&list, &l);
            check_edges_clear_nodes(&l);
        }
    }

    #[test]
    fn a_prefix_is_laid_out_exactly_as_in_the_full_list() {
        for list in random_trees(42, 60) {
            let n = list.len();
            let full = Layout::compute(&list);
            for k in 0..=n {
                let prefix = Layout::compute(&list[..k]);
                assert_eq!(prefix.nodes(), &full.nodes()[..k], "prefix {k} of {n}");
                let edges = full.edges().iter().take_while(|e| e.to < k);
                assert!(prefix.edges().iter().eq(edges));
                assert_eq!(prefix.lane_starts(), {
                    let opened = full.lane_starts().iter().take_while(|&&s| s < k).count();
                    &full.lane_starts()[..opened]
                });
            }
        }
    }

    #[test]
    fn hit_test_finds_each_node_at_its_centre() {
        let mut rng = Rng(3);
        let list = random_tree(&mut rng, 300);
        let l = Layout::compute(&list);
        for i in 0..l.len() {
            let c = l.center(i).unwrap();
            assert_eq!(l.hit_test(c.x, c.y), Some(i));
            assert_eq!(l.hit_test(c.x + NODE_RADIUS, c.y), Some(i));
            assert_eq!(l.hit_test(c.x, c.y - NODE_RADIUS), Some(i));
        }
    }

    #[test]
    fn hit_test_answers_only_near_a_centre() {
        let mut rng = Rng(5);
        let list = random_tree(&mut rng, 40);
        let l = Layout::compute(&list);
        let (w, h) = (l.width(), l.height());
        let mut y = -10.0;
        while y < h + 10.0 {
            let mut x = -10.0;
            while x < w + 10.0 {
                match l.hit_test(x, y) {
                    Some(i) => {
                        let d = l.center(i).unwrap().distance(Point::new(x, y));
                        assert!(d <= NODE_RADIUS + HIT_SLOP);
                    }
                    None => {
                        for i in 0..l.len() {
                            let d = l.center(i).unwrap().distance(Point::new(x, y));
                            assert!(d > NODE_RADIUS + HIT_SLOP, "missed {i} at {x},{y}");
                        }
                    }
                }
                x += 1.9;
            }
            y += 1.7;
        }
    }

    #[test]
    fn edge_geometry_and_path_data() {
        let l = Layout::compute(&ids(&["a", "b<a", "c<b", "d<a"]));
        let straight = &l.edges()[0];
        let (a, b) = (l.center(0).unwrap(), l.center(1).unwrap());
        assert!(straight.is_straight());
        assert_eq!(
            straight.path_d(),
            format!("M{} {} L{} {}", a.x, a.y, b.x, b.y)
        );

        let e = &l.edges()[2];
        assert_eq!((e.from, e.to), (0, 3));
        assert_eq!(e.points.len(), 3);
        let (a, bend, d) = (e.points[0], e.points[1], e.points[2]);
        assert_eq!(bend, Point::new(d.x, a.y + ROW_HEIGHT / 2.0));
        assert!(!e.is_straight());
        let mid = (a.y + bend.y) / 2.0;
        assert_eq!(
            e.path_d(),
            format!(
                "M{} {} C{} {mid} {} {mid} {} {} L{} {}",
                a.x, a.y, a.x, d.x, d.x, bend.y, d.x, d.y
            )
        );
        assert_eq!(
            Edge {
                from: 0,
                to: 0,
                points: vec![]
            }
            .path_d(),
            ""
        );
    }

    fn chain(n: usize) -> Vec<NodeIn> {
        // A busy thread: long runs with a replay every 25 checkpoints.
        let mut rng = Rng(11);
        (0..n)
            .map(|i| match i {
                0 => NodeIn::root("c0"),
                _ if i % 25 == 0 => NodeIn::child(format!("c{i}"), format!("c{}", rng.below(i))),
                _ => NodeIn::child(format!("c{i}"), format!("c{}", i - 1)),
            })
            .collect()
    }

    /// Lays `list` out and reports the time (no assertion on it: run with
    /// `cargo test -p chronograph-web --release -- --nocapture lays_out`).
    fn timed(list: &[NodeIn]) -> Layout {
        let start = std::time::Instant::now();
        let l = Layout::compute(list);
        eprintln!(
            "layout of {} checkpoints: {:?}",
            list.len(),
            start.elapsed()
        );
        l
    }

    #[test]
    fn lays_out_2000_checkpoints() {
        let list = chain(2_000);
        let l = timed(&list);
        assert_eq!(l.len(), 2_000);
        assert!(l.lane_count() > 1);
    }

    #[test]
    fn lays_out_10000_checkpoints() {
        let list = random_tree(&mut Rng(1), 10_000);
        let l = timed(&list);
        assert_eq!(l.len(), 10_000);
        check_rules(&list, &l);
    }
}
