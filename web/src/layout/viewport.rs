//! Pan and zoom: the transform between screen space (CSS pixels inside the
//! tree panel, origin at its top-left corner) and world space (the layout's
//! coordinates).
//!
//! `screen = world * zoom + pan`. [`Viewport::to_screen`] and
//! [`Viewport::to_world`] are inverses (tested both ways), and
//! [`Viewport::zoom_at`] keeps the world point under the cursor in place.

use super::geometry::Point;

/// Smallest zoom factor [`Viewport`] allows.
pub const MIN_ZOOM: f64 = 0.25;
/// Largest zoom factor [`Viewport`] allows.
pub const MAX_ZOOM: f64 = 4.0;

/// A pan/zoom state. Small and `Copy`: every operation returns a new value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Scale from world to screen, within [`MIN_ZOOM`]..=[`MAX_ZOOM`].
    pub zoom: f64,
    /// Screen position of the world origin.
    pub pan: Point,
}

impl Default for Viewport {
    fn default() -> Self {
        Self {
            zoom: 1.0,
            pan: Point::new(0.0, 0.0),
        }
    }
}

impl Viewport {
    /// A viewport with the given zoom (clamped to the allowed range; a
    /// non-finite zoom becomes 1) and pan.
    pub fn new(zoom: f64, pan: Point) -> Self {
        Self {
            zoom: clamp_zoom(zoom),
            pan,
        }
    }

    /// Screen position of a world point.
    pub fn to_screen(&self, world: Point) -> Point {
        Point::new(
            world.x * self.zoom + self.pan.x,
            world.y * self.zoom + self.pan.y,
        )
    }

    /// World position under a screen point. Inverse of [`Viewport::to_screen`].
    pub fn to_world(&self, screen: Point) -> Point {
        Point::new(
            (screen.x - self.pan.x) / self.zoom,
            (screen.y - self.pan.y) / self.zoom,
        )
    }

    /// Multiplies the zoom by `factor` (then clamps it) while the world point
    /// under `screen` stays under `screen`.
    pub fn zoom_at(&self, screen: Point, factor: f64) -> Self {
        let anchor = self.to_world(screen);
        let zoom = if factor.is_finite() && factor > 0.0 {
            clamp_zoom(self.zoom * factor)
        } else {
            self.zoom
        };
        Self {
            zoom,
            pan: Point::new(screen.x - anchor.x * zoom, screen.y - anchor.y * zoom),
        }
    }

    /// Moves the drawing by `(dx, dy)` screen pixels.
    pub fn pan_by(&self, dx: f64, dy: f64) -> Self {
        Self {
            zoom: self.zoom,
            pan: Point::new(self.pan.x + dx, self.pan.y + dy),
        }
    }

    /// The smallest pan that brings `world` at least `margin` screen pixels
    /// inside a `width` x `height` view (unchanged when it already is).
    pub fn reveal(&self, world: Point, margin: f64, width: f64, height: f64) -> Self {
        let s = self.to_screen(world);
        let shift = |v: f64, size: f64| {
            if v < margin {
                margin - v
            } else if v > size - margin {
                (size - margin - v).max(margin - v)
            } else {
                0.0
            }
        };
        self.pan_by(shift(s.x, width), shift(s.y, height))
    }

    /// World x of a column `column` world units wide that sits at `natural`
    /// (the label column, right of every lane) but stays inside a `width`
    /// screen-pixel view: while `natural` is off to the right, the column
    /// sticks to the view's right edge (over the lanes there); off to the
    /// left, to its left edge. So a wide tree's labels stay readable
    /// wherever it is panned.
    pub fn sticky_x(&self, natural: f64, column: f64, width: f64) -> f64 {
        if width.is_nan() || width <= 0.0 || !natural.is_finite() {
            return natural;
        }
        let left = self.to_world(Point::new(0.0, 0.0)).x;
        let right = self.to_world(Point::new(width, 0.0)).x;
        natural.min(right - column).max(left)
    }

    /// SVG `transform` attribute value that applies this viewport to a group
    /// drawn in world space.
    pub fn svg_transform(&self) -> String {
        format!(
            "translate({} {}) scale({})",
            self.pan.x, self.pan.y, self.zoom
        )
    }
}

/// Zoom factor for one wheel event with this `deltaY` (in pixels): scrolling
/// down zooms out, up zooms in, smoothly for trackpads and mice alike.
pub fn wheel_zoom_factor(delta_y: f64) -> f64 {
    if delta_y.is_finite() {
        (-delta_y.clamp(-500.0, 500.0) * 0.002).exp()
    } else {
        1.0
    }
}

fn clamp_zoom(z: f64) -> f64 {
    if z.is_finite() {
        z.clamp(MIN_ZOOM, MAX_ZOOM)
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Point, b: Point) -> bool {
        a.distance(b) < 1e-9
    }

    fn sample_viewports() -> Vec<Viewport> {
        let mut out = vec![Viewport::default()];
        for &z in &[0.25, 0.5, 0.8, 1.0, 1.7, 3.9] {
            for &(x, y) in &[(0.0, 0.0), (12.5, -40.0), (-300.0, 220.0)] {
                out.push(Viewport::new(z, Point::new(x, y)));
            }
        }
        out
    }

    fn sample_points() -> Vec<Point> {
        let mut out = Vec::new();
        for i in -5..6 {
            for j in -5..6 {
                out.push(Point::new(i as f64 * 37.3, j as f64 * 19.1));
            }
        }
        out
    }

    #[test]
    fn world_to_screen_to_world_is_identity() {
        for v in sample_viewports() {
            for p in sample_points() {
                assert!(close(v.to_world(v.to_screen(p)), p), "{v:?} {p:?}");
            }
        }
    }

    #[test]
    fn screen_to_world_to_screen_is_identity() {
        for v in sample_viewports() {
            for p in sample_points() {
                assert!(close(v.to_screen(v.to_world(p)), p), "{v:?} {p:?}");
            }
        }
    }

    #[test]
    fn zoom_at_keeps_the_point_under_the_cursor() {
        for v in sample_viewports() {
            for cursor in sample_points() {
                for factor in [0.5, 0.9, 1.1, 2.0, 100.0, 0.0001] {
                    let before = v.to_world(cursor);
                    let z = v.zoom_at(cursor, factor);
                    assert!(
                        close(z.to_world(cursor), before),
                        "{v:?} {cursor:?} {factor}"
                    );
                    assert!((MIN_ZOOM..=MAX_ZOOM).contains(&z.zoom));
                }
            }
        }
    }

    #[test]
    fn zoom_in_then_out_restores_the_viewport() {
        let v = Viewport::new(1.0, Point::new(10.0, 20.0));
        let c = Point::new(200.0, 150.0);
        let back = v.zoom_at(c, 1.5).zoom_at(c, 1.0 / 1.5);
        assert!((back.zoom - v.zoom).abs() < 1e-12);
        assert!(close(back.pan, v.pan));
    }

    #[test]
    fn zoom_is_clamped_and_bad_factors_are_ignored() {
        let v = Viewport::default();
        assert_eq!(v.zoom_at(Point::default(), 1e6).zoom, MAX_ZOOM);
        assert_eq!(v.zoom_at(Point::default(), 1e-6).zoom, MIN_ZOOM);
        for bad in [0.0, -2.0, f64::NAN, f64::INFINITY] {
            assert_eq!(v.zoom_at(Point::new(5.0, 5.0), bad), v);
        }
        assert_eq!(Viewport::new(f64::NAN, Point::default()).zoom, 1.0);
    }

    #[test]
    fn pan_moves_every_point_by_the_same_screen_offset() {
        let v = Viewport::new(2.0, Point::new(3.0, 4.0));
        let p = Point::new(10.0, 10.0);
        let moved = v.pan_by(5.0, -7.0).to_screen(p);
        assert!(close(
            moved,
            Point::new(v.to_screen(p).x + 5.0, v.to_screen(p).y - 7.0)
        ));
    }

    #[test]
    fn reveal_brings_a_point_into_view_and_leaves_visible_points_alone() {
        let v = Viewport::default();
        let inside = Point::new(100.0, 100.0);
        assert_eq!(v.reveal(inside, 20.0, 400.0, 300.0), v);
        for p in [
            Point::new(-50.0, 100.0),
            Point::new(900.0, 100.0),
            Point::new(100.0, 5_000.0),
            Point::new(100.0, -10.0),
        ] {
            let s = v.reveal(p, 20.0, 400.0, 300.0).to_screen(p);
            assert!(
                (20.0..=380.0).contains(&s.x) && (20.0..=280.0).contains(&s.y),
                "{s:?}"
            );
        }
    }

    #[test]
    fn wheel_zoom_direction_and_bounds() {
        assert!(wheel_zoom_factor(100.0) < 1.0);
        assert!(wheel_zoom_factor(-100.0) > 1.0);
        assert_eq!(wheel_zoom_factor(0.0), 1.0);
        assert_eq!(wheel_zoom_factor(f64::NAN), 1.0);
        assert!((wheel_zoom_factor(50.0) * wheel_zoom_factor(-50.0) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn svg_transform_text() {
        let v = Viewport::new(1.5, Point::new(10.0, -2.5));
        assert_eq!(v.svg_transform(), "translate(10 -2.5) scale(1.5)");
    }

    #[test]
    fn sticky_x_keeps_a_column_in_view() {
        let v = Viewport::default();
        // Fits: stays where it is.
        assert_eq!(v.sticky_x(100.0, 200.0, 800.0), 100.0);
        // Off to the right: sticks to the right edge.
        assert_eq!(v.sticky_x(2000.0, 200.0, 800.0), 600.0);
        // Panned far right (the column is left of the view): left edge.
        let panned = v.pan_by(-3000.0, 0.0);
        assert_eq!(panned.sticky_x(2000.0, 200.0, 800.0), 3000.0);
        // Panned so the column's natural place is in view: natural again.
        let near = v.pan_by(-1500.0, 0.0);
        assert_eq!(near.sticky_x(2000.0, 200.0, 800.0), 2000.0);
        // Zoomed out 2x: the view covers twice the world width.
        let zoomed = Viewport::new(0.5, Point::new(0.0, 0.0));
        assert_eq!(zoomed.sticky_x(2000.0, 200.0, 800.0), 1400.0);
        // No size yet: natural.
        assert_eq!(v.sticky_x(2000.0, 200.0, 0.0), 2000.0);
    }
}
