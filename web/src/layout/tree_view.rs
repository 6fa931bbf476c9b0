//! What the checkpoint-tree panel draws and where a pointer lands, as pure
//! functions of the layout and the viewport: the window of rows drawn on a
//! long thread, where the label column sits, the selected checkpoint's
//! ancestor path, and what a click picks. The panel (`components/dag_view`)
//! only feeds them DOM sizes and draws what they return.

use std::ops::Range;

use super::frames::Frame;
use super::geometry::{row_at, Point, PADDING};
use super::lanes::Layout;
use super::viewport::Viewport;

/// Threads longer than this draw only the rows in view (plus a margin).
pub const VIRTUALIZE_ABOVE: usize = 300;
/// Rows drawn above and below the visible ones, and the window's block size.
pub const ROW_MARGIN: usize = 40;
/// Gap between the right-most lane or frame and the label column, and
/// between the column and a view edge it sticks to.
pub const LABEL_GAP: f64 = 8.0;
/// Where the fields of a row's label sit, from the column's left edge
/// (the checkpoint's label itself is at 0): its step.
pub const STEP_DX: f64 = 48.0;
/// Where a row's `next` sits in the label column.
pub const NEXT_DX: f64 = 124.0;
/// Where a row's HEAD badge sits in the label column.
pub const HEAD_DX: f64 = 200.0;
/// Where a row's subgraph-run toggle sits in the label column.
pub const RUNS_DX: f64 = 248.0;
/// Width of the label column's content: the selection band and the
/// backdrop of a pinned column reach its end.
pub const LABEL_COLUMN_WIDTH: f64 = RUNS_DX + 96.0;
/// View height assumed before the panel has been measured.
const DEFAULT_VIEW_HEIGHT: f64 = 900.0;

/// The rows to draw: all of a short thread; on a long one, those a
/// `view_height`-pixel view shows plus [`ROW_MARGIN`] on each side, snapped
/// to blocks of that size so small pans keep the window (and the DOM) as is.
pub fn visible_rows(len: usize, viewport: &Viewport, view_height: Option<f64>) -> Range<usize> {
    if len <= VIRTUALIZE_ABOVE {
        return 0..len;
    }
    let h = view_height
        .filter(|h| *h > 0.0)
        .unwrap_or(DEFAULT_VIEW_HEIGHT);
    let top = viewport.to_world(Point::new(0.0, 0.0)).y;
    let bottom = viewport.to_world(Point::new(0.0, h)).y;
    let first = row_at(top).unwrap_or(0).saturating_sub(ROW_MARGIN);
    let last = (row_at(bottom).unwrap_or(0) + ROW_MARGIN).min(len);
    // Panned past the end, the window is empty at the end, not beyond it.
    let first = (first / ROW_MARGIN * ROW_MARGIN).min(len);
    let last = (last.div_ceil(ROW_MARGIN) * ROW_MARGIN).min(len);
    first..last.max(first)
}

/// Where the label column is drawn (world x).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelColumn {
    /// Right of every lane and every subgraph frame.
    pub natural: f64,
    /// Where it is drawn: `natural`, or stuck to the view's edge when the
    /// tree is wider than the view (over the lanes, on a backdrop).
    pub x: f64,
    /// Width of the column's content (world units).
    pub width: f64,
}

impl LabelColumn {
    /// Places a `width`-wide column right of `layout`'s lanes and of
    /// `frames`, kept inside a `view_width`-pixel view (when known).
    pub fn place(
        layout: &Layout,
        frames: &[Frame],
        viewport: &Viewport,
        view_width: Option<f64>,
        width: f64,
    ) -> Self {
        let frames_right = frames
            .iter()
            .map(|f| f.rect().x + f.rect().w + LABEL_GAP)
            .fold(0.0, f64::max);
        let natural = (layout.width() - PADDING + LABEL_GAP).max(frames_right);
        let x = viewport.sticky_x(natural, width + LABEL_GAP, view_width.unwrap_or(0.0));
        LabelColumn { natural, x, width }
    }

    /// Whether the column sits over the lanes (stuck to the view's edge).
    pub fn pinned(&self) -> bool {
        self.x < self.natural - 0.5
    }

    /// Whether world x `x` falls inside the column.
    pub fn contains(&self, x: f64) -> bool {
        x >= self.x - LABEL_GAP && x <= self.x + self.width
    }
}

/// The checkpoint a click at world point `at` picks: in the label column,
/// the row (the column may hide a node under it when it sticks over the
/// lanes); elsewhere, the node under the pointer.
pub fn pick(layout: &Layout, labels: &LabelColumn, at: Point) -> Option<usize> {
    labels
        .contains(at.x)
        .then(|| row_at(at.y))
        .flatten()
        .filter(|&r| r < layout.len())
        .or_else(|| layout.hit_test(at.x, at.y))
}

/// The SVG path of `selected`'s chain back to the root (its ancestors'
/// edges), empty when nothing is selected.
pub fn ancestor_path(layout: &Layout, selected: Option<usize>) -> String {
    let mut d = String::new();
    let mut cur = selected.filter(|&i| i < layout.len());
    while let Some(i) = cur {
        // Edges are appended with their child, so they are sorted by `to`.
        if let Ok(k) = layout.edges().binary_search_by_key(&i, |e| e.to) {
            d.push_str(&layout.edges()[k].path_d());
            d.push(' ');
        }
        cur = layout.node(i).and_then(|n| n.parent);
    }
    d
}

/// How many branches the tree has, not counting the lane each of `groups`
/// open subgraph groups starts with (that lane is a namespace, not a branch).
pub fn branch_count(layout: &Layout, groups: usize) -> usize {
    if groups == 0 {
        return layout.lane_count();
    }
    let opened = layout.nodes().iter().filter(|p| p.opens_lane).count();
    opened.saturating_sub(groups)
}

/// The viewport that shows world point `center` with `margin` pixels to
/// spare in a `width` x `height` view, left of a label column `column`
/// world units wide (which may stick to the right edge and would hide it).
pub fn keep_in_view(
    viewport: &Viewport,
    center: Point,
    margin: f64,
    (width, height): (f64, f64),
    column: f64,
) -> Viewport {
    let labels = (column + LABEL_GAP) * viewport.zoom;
    let room = (width - labels).max(width / 2.0);
    viewport.reveal(center, margin, room, height)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::geometry::ROW_HEIGHT;
    use crate::layout::lanes::NodeIn;

    /// A chain of `n` checkpoints; `forks` are `(child, parent)` overrides.
    fn tree(n: usize, forks: &[(usize, usize)]) -> Layout {
        let input: Vec<NodeIn> = (0..n)
            .map(|i| match forks.iter().find(|(c, _)| *c == i) {
                Some((_, p)) => NodeIn::child(format!("c{i}"), format!("c{p}")),
                None if i == 0 => NodeIn::root("c0"),
                None => NodeIn::child(format!("c{i}"), format!("c{}", i - 1)),
            })
            .collect();
        Layout::compute(&input)
    }

    #[test]
    fn a_short_thread_draws_every_row() {
        assert_eq!(visible_rows(12, &Viewport::default(), Some(300.0)), 0..12);
        assert_eq!(
            visible_rows(VIRTUALIZE_ABOVE, &Viewport::default(), None),
            0..VIRTUALIZE_ABOVE
        );
    }

    #[test]
    fn a_long_thread_draws_the_rows_in_view_plus_a_margin_in_blocks() {
        let v = Viewport::default();
        let r = visible_rows(5_000, &v, Some(400.0));
        assert_eq!(r.start, 0);
        let shown = (400.0 / ROW_HEIGHT) as usize;
        assert!(r.end >= shown + ROW_MARGIN, "{r:?}");
        assert_eq!(r.end % ROW_MARGIN, 0);
        // Scrolled to row ~1000: the window moves with it, in blocks.
        let down = v.pan_by(0.0, -(1_000.0 * ROW_HEIGHT));
        let r2 = visible_rows(5_000, &down, Some(400.0));
        assert!(
            r2.start <= 1_000 && r2.start >= 1_000 - 2 * ROW_MARGIN,
            "{r2:?}"
        );
        assert_eq!((r2.start % ROW_MARGIN, r2.end % ROW_MARGIN), (0, 0));
        // A small pan keeps the same window.
        assert_eq!(
            visible_rows(5_000, &down.pan_by(0.0, -3.0), Some(400.0)),
            r2
        );
    }

    #[test]
    fn the_window_never_runs_past_the_thread() {
        let far = Viewport::default().pan_by(0.0, -1e7);
        let r = visible_rows(500, &far, Some(400.0));
        assert!(r.start <= r.end && r.end <= 500, "{r:?}");
    }

    #[test]
    fn the_label_column_sits_right_of_lanes_and_sticks_to_a_narrow_view() {
        let l = tree(6, &[(3, 1), (5, 0)]);
        let v = Viewport::default();
        let wide = LabelColumn::place(&l, &[], &v, Some(5_000.0), 340.0);
        assert_eq!(wide.x, wide.natural);
        assert!(!wide.pinned());
        assert_eq!(wide.natural, l.width() - PADDING + LABEL_GAP);
        // A view narrower than lanes + column: the column sticks to its right edge.
        let narrow = LabelColumn::place(&l, &[], &v, Some(200.0), 340.0);
        assert!(narrow.pinned());
        assert!(narrow.x < narrow.natural);
        // Unmeasured: where it belongs.
        assert_eq!(LabelColumn::place(&l, &[], &v, None, 340.0).x, wide.natural);
    }

    #[test]
    fn a_click_in_the_label_column_picks_the_row_elsewhere_the_node() {
        let l = tree(4, &[]);
        let labels = LabelColumn::place(&l, &[], &Viewport::default(), None, 340.0);
        let row2_y = l.center(2).unwrap().y;
        assert_eq!(
            pick(&l, &labels, Point::new(labels.x + 20.0, row2_y)),
            Some(2)
        );
        assert_eq!(pick(&l, &labels, l.center(1).unwrap()), Some(1));
        // Past the last row, and in empty space: nothing.
        let below = l.center(3).unwrap().y + 10.0 * ROW_HEIGHT;
        assert_eq!(pick(&l, &labels, Point::new(labels.x + 20.0, below)), None);
        assert_eq!(pick(&l, &labels, Point::new(-500.0, row2_y)), None);
    }

    #[test]
    fn the_ancestor_path_follows_parents_to_the_root_not_siblings() {
        // c0 - c1 - c2 ; c3 forks from c1.
        let l = tree(4, &[(3, 1)]);
        let d = ancestor_path(&l, Some(3));
        let edge = |to: usize| l.edges().iter().find(|e| e.to == to).unwrap().path_d();
        assert!(d.contains(&edge(3)) && d.contains(&edge(1)), "{d}");
        assert!(
            !d.contains(&edge(2)),
            "a sibling's edge is not an ancestor's: {d}"
        );
        assert_eq!(ancestor_path(&l, Some(0)), "", "the root has no edge");
        assert_eq!(ancestor_path(&l, None), "");
        assert_eq!(ancestor_path(&l, Some(99)), "");
    }

    #[test]
    fn branches_are_lanes_without_the_lanes_subgraph_groups_open() {
        let l = tree(5, &[(3, 1), (4, 1)]);
        assert_eq!(branch_count(&l, 0), l.lane_count());
        assert_eq!(branch_count(&l, 1), l.lane_count() - 1);
    }

    #[test]
    fn a_selected_node_is_brought_into_view_left_of_the_labels() {
        let v = Viewport::default();
        let far = Point::new(2_000.0, 50.0);
        let shown = keep_in_view(&v, far, 40.0, (800.0, 600.0), 340.0);
        let s = shown.to_screen(far);
        assert!(s.x <= 800.0 - 340.0 - LABEL_GAP, "{s:?}");
        // Already in view: unchanged.
        let near = Point::new(60.0, 60.0);
        assert_eq!(keep_in_view(&v, near, 40.0, (800.0, 600.0), 340.0), v);
    }
}
