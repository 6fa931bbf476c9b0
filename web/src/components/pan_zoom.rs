//! Pan (drag, wheel) and zoom (ctrl/⌘ + wheel, buttons) of an SVG over a
//! [`Viewport`] signal, as a hook: the panel wires the returned handlers to
//! its `<svg>` and gets a callback for a press that stayed a click. The
//! transform arithmetic lives in [`crate::layout::viewport`].

use leptos::ev;
use leptos::prelude::*;

use crate::layout::{wheel_zoom_factor, Point, Viewport};

/// Screen distance a press must travel before it pans instead of clicking.
const DRAG_THRESHOLD: f64 = 4.0;

/// A pointer press that may become a drag (pan) or stay a click (select).
#[derive(Clone, Copy)]
struct Press {
    pointer: i32,
    start: Point,
    last: Point,
    dragging: bool,
}

/// The handlers [`use_pan_zoom`] returns, to wire to the SVG's events.
#[derive(Clone, Copy)]
pub struct PanZoom {
    svg: NodeRef<leptos::svg::Svg>,
    viewport: RwSignal<Viewport>,
    /// `pointerdown`: a press starts (left button only).
    pub down: Callback<ev::PointerEvent>,
    /// `pointermove`: past the threshold, the press pans.
    pub moved: Callback<ev::PointerEvent>,
    /// `pointerup`: a press that never panned is a click.
    pub up: Callback<ev::PointerEvent>,
    /// `pointercancel`: forget the press.
    pub cancel: Callback<ev::PointerEvent>,
    /// `wheel`: pans, or zooms at the pointer with ctrl/⌘.
    pub wheel: Callback<ev::WheelEvent>,
}

impl PanZoom {
    /// The SVG's size in pixels, once it is in the page.
    pub fn view_size(&self) -> Option<(f64, f64)> {
        view_size(self.svg)
    }

    /// Zooms by `factor` about the view's centre (the buttons and keys).
    pub fn zoom_by(&self, factor: f64) {
        let (w, h) = self.view_size().unwrap_or((0.0, 0.0));
        self.viewport
            .update(|v| *v = v.zoom_at(Point::new(w / 2.0, h / 2.0), factor));
    }
}

/// `svg`'s size in pixels, once it is in the page.
pub fn view_size(svg: NodeRef<leptos::svg::Svg>) -> Option<(f64, f64)> {
    let rect = svg.get_untracked()?.get_bounding_client_rect();
    Some((rect.width(), rect.height()))
}

/// Pan and zoom `svg` through `viewport`; a press that does not travel
/// [`DRAG_THRESHOLD`] pixels calls `on_click` with its SVG-local point.
pub fn use_pan_zoom(
    svg: NodeRef<leptos::svg::Svg>,
    viewport: RwSignal<Viewport>,
    on_click: Callback<Point>,
) -> PanZoom {
    let press = StoredValue::new(None::<Press>);
    let local = move |client_x: i32, client_y: i32| {
        let rect = svg.get_untracked()?.get_bounding_client_rect();
        Some(Point::new(
            client_x as f64 - rect.left(),
            client_y as f64 - rect.top(),
        ))
    };
    let down = Callback::new(move |ev: ev::PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        let p = Point::new(ev.client_x() as f64, ev.client_y() as f64);
        press.set_value(Some(Press {
            pointer: ev.pointer_id(),
            start: p,
            last: p,
            dragging: false,
        }));
    });
    let moved = Callback::new(move |ev: ev::PointerEvent| {
        let Some(mut p) = press.get_value().filter(|p| p.pointer == ev.pointer_id()) else {
            return;
        };
        let now = Point::new(ev.client_x() as f64, ev.client_y() as f64);
        if !p.dragging && now.distance(p.start) > DRAG_THRESHOLD {
            p.dragging = true;
            if let Some(el) = svg.get_untracked() {
                let _ = el.set_pointer_capture(p.pointer);
            }
        }
        if p.dragging {
            let (dx, dy) = (now.x - p.last.x, now.y - p.last.y);
            viewport.update(|v| *v = v.pan_by(dx, dy));
            p.last = now;
        }
        press.set_value(Some(p));
    });
    let up = Callback::new(move |ev: ev::PointerEvent| {
        let Some(p) = press.get_value() else {
            return;
        };
        press.set_value(None);
        if !p.dragging {
            if let Some(at) = local(ev.client_x(), ev.client_y()) {
                on_click.run(at);
            }
        }
    });
    let cancel = Callback::new(move |_: ev::PointerEvent| press.set_value(None));
    let wheel = Callback::new(move |ev: ev::WheelEvent| {
        ev.prevent_default();
        // Lines and pages, as some mice report them, in pixels.
        let unit = match ev.delta_mode() {
            1 => 16.0,
            2 => 400.0,
            _ => 1.0,
        };
        if ev.ctrl_key() || ev.meta_key() {
            if let Some(at) = local(ev.client_x(), ev.client_y()) {
                let factor = wheel_zoom_factor(ev.delta_y() * unit);
                viewport.update(|v| *v = v.zoom_at(at, factor));
            }
        } else {
            let (dx, dy) = (-ev.delta_x() * unit, -ev.delta_y() * unit);
            viewport.update(|v| *v = v.pan_by(dx, dy));
        }
    });
    PanZoom {
        svg,
        viewport,
        down,
        moved,
        up,
        cancel,
        wheel,
    }
}
