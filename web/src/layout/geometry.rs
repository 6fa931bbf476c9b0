//! World-space geometry of the checkpoint tree: one column per lane, one row
//! per checkpoint, and the projection between a (lane, row) cell and a point.
//!
//! [`node_center`] maps a cell to a point; [`lane_at`] and [`row_at`] are its
//! inverses (tested both ways below, like leptos-chartistry's `projection.rs`).
//! World units are CSS pixels at zoom 1; see [`super::viewport`] for the
//! screen transform.

/// Horizontal distance between the centres of two neighbouring lanes.
pub const LANE_WIDTH: f64 = 28.0;
/// Vertical distance between the centres of two neighbouring rows.
pub const ROW_HEIGHT: f64 = 34.0;
/// Radius of a checkpoint's circle.
pub const NODE_RADIUS: f64 = 10.0;
/// Extra distance around a node's circle that still counts as a hit, so a
/// small target stays easy to click.
pub const HIT_SLOP: f64 = 3.0;
/// Empty margin around the drawing, on every side.
pub const PADDING: f64 = 16.0;

// A node's hit area stays inside its own cell, so two nodes never compete
// for one click and an edge bend half a row below a node clears the next row.
const _: () = assert!(NODE_RADIUS + HIT_SLOP <= LANE_WIDTH / 2.0);
const _: () = assert!(NODE_RADIUS + HIT_SLOP <= ROW_HEIGHT / 2.0);

/// A point in world space (x grows to the right, y grows downward).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    /// Horizontal coordinate.
    pub x: f64,
    /// Vertical coordinate.
    pub y: f64,
}

impl Point {
    /// A point from its two coordinates.
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// Euclidean distance to `other`.
    pub fn distance(self, other: Point) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }
}

/// Centre of the cell at `lane` (column, 0 = left-most) and `row`
/// (0 = top, the oldest checkpoint).
pub fn node_center(lane: usize, row: usize) -> Point {
    Point {
        x: PADDING + LANE_WIDTH * (lane as f64 + 0.5),
        y: PADDING + ROW_HEIGHT * (row as f64 + 0.5),
    }
}

/// The lane whose column contains `x`, or `None` left of the first lane (or
/// for a non-finite `x`). Inverse of [`node_center`]'s x: for every lane `l`,
/// `lane_at(node_center(l, _).x) == Some(l)`. There is no upper bound; the
/// caller compares with its lane count.
pub fn lane_at(x: f64) -> Option<usize> {
    cell_at(x, LANE_WIDTH)
}

/// The row whose band contains `y`, or `None` above the first row (or for a
/// non-finite `y`). Inverse of [`node_center`]'s y: for every row `r`,
/// `row_at(node_center(_, r).y) == Some(r)`. There is no upper bound; the
/// caller compares with its row count.
pub fn row_at(y: f64) -> Option<usize> {
    cell_at(y, ROW_HEIGHT)
}

fn cell_at(v: f64, size: f64) -> Option<usize> {
    let cell = ((v - PADDING) / size).floor();
    // `as` saturates, and the bound keeps far-away points from becoming
    // huge indices that a caller might try to allocate for.
    (cell.is_finite() && cell >= 0.0 && cell < u32::MAX as f64).then_some(cell as usize)
}

/// Width of a drawing with `lanes` lanes, padding included.
pub fn canvas_width(lanes: usize) -> f64 {
    2.0 * PADDING + LANE_WIDTH * lanes as f64
}

/// Height of a drawing with `rows` rows, padding included.
pub fn canvas_height(rows: usize) -> f64 {
    2.0 * PADDING + ROW_HEIGHT * rows as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn center_then_cell_is_identity() {
        for lane in 0..50 {
            for row in 0..200 {
                let p = node_center(lane, row);
                assert_eq!(lane_at(p.x), Some(lane));
                assert_eq!(row_at(p.y), Some(row));
            }
        }
    }

    #[test]
    fn cell_then_center_is_within_half_a_cell() {
        let mut x = -5.0;
        while x < 1_000.0 {
            match lane_at(x) {
                Some(l) => assert!((node_center(l, 0).x - x).abs() <= LANE_WIDTH / 2.0 + 1e-9),
                None => assert!(x < PADDING),
            }
            x += 0.37;
        }
        let mut y = -5.0;
        while y < 2_000.0 {
            match row_at(y) {
                Some(r) => assert!((node_center(0, r).y - y).abs() <= ROW_HEIGHT / 2.0 + 1e-9),
                None => assert!(y < PADDING),
            }
            y += 0.41;
        }
    }

    #[test]
    fn non_finite_coordinates_hit_nothing() {
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1.0, 1e300] {
            assert_eq!(lane_at(v), None, "{v}");
            assert_eq!(row_at(v), None, "{v}");
        }
    }

    #[test]
    fn canvas_holds_every_cell_with_padding() {
        let c = node_center(3, 9);
        assert!((canvas_width(4) - (c.x + LANE_WIDTH / 2.0 + PADDING)).abs() < 1e-9);
        assert!((canvas_height(10) - (c.y + ROW_HEIGHT / 2.0 + PADDING)).abs() < 1e-9);
    }
}
