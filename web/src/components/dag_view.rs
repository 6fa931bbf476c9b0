//! The checkpoint tree panel: an SVG with pan (drag, wheel), zoom
//! (ctrl/⌘ + wheel, buttons, + and - keys) and selection (click, arrow keys).
//! Hit testing and the screen transform come from [`crate::layout`].

use leptos::ev;
use leptos::prelude::*;

use super::dag_edge::DagEdge;
use super::dag_node::{DagNode, NodeView, LABEL_COLUMN_WIDTH};
use crate::layout::{row_at, wheel_zoom_factor, Point, Viewport, PADDING, ROW_HEIGHT};
use crate::state::AppState;

/// A pointer press that may become a drag (pan) or stay a click (select).
#[derive(Clone, Copy)]
struct Press {
    pointer: i32,
    start: Point,
    last: Point,
    dragging: bool,
}

/// Screen distance a press must travel before it pans instead of clicking.
const DRAG_THRESHOLD: f64 = 4.0;
/// Margin kept around a checkpoint revealed by keyboard selection.
const REVEAL_MARGIN: f64 = 40.0;

/// The main panel: one column per branch, newest checkpoint at the bottom.
#[component]
pub fn DagView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();
    let press = StoredValue::new(None::<Press>);

    let nodes = Memo::new(move |_| {
        state.layout.with(|l| {
            state.thread.with(|t| {
                t.iter()
                    .zip(l.nodes())
                    .enumerate()
                    .map(|(i, (c, n))| NodeView {
                        index: i,
                        id: c.id.clone(),
                        label: c.label.clone(),
                        source: c.source,
                        step: c.step,
                        next: c.next_text(),
                        short_id: c.short_id().to_owned(),
                        created_at: c.created_at.clone(),
                        center: l.center(i).unwrap_or_default(),
                        dangling: n.dangling,
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    let edges = Memo::new(move |_| state.layout.with(|l| l.edges().to_vec()));
    // Checkpoints on the selected one's chain back to the root.
    let chain = Memo::new(move |_| {
        state.layout.with(|l| {
            let mut on = vec![false; l.len()];
            let mut cur = state.selected.get().filter(|&i| i < l.len());
            while let Some(i) = cur {
                on[i] = true;
                cur = l.node(i).and_then(|n| n.parent);
            }
            on
        })
    });
    let label_x = Signal::derive(move || state.layout.with(|l| l.width() - PADDING + 8.0));
    let stats = move || {
        state.layout.with(|l| {
            let (n, b) = (l.len(), l.lane_count());
            format!(
                "{n} checkpoint{} · {b} branch{}",
                if n == 1 { "" } else { "s" },
                if b == 1 { "" } else { "es" }
            )
        })
    };

    // Screen point (relative to the SVG) and the SVG's size.
    let local = move |client_x: i32, client_y: i32| {
        let rect = svg_ref.get_untracked()?.get_bounding_client_rect();
        Some((
            Point::new(client_x as f64 - rect.left(), client_y as f64 - rect.top()),
            rect.width(),
            rect.height(),
        ))
    };
    let view_size = move || {
        let rect = svg_ref.get_untracked()?.get_bounding_client_rect();
        Some((rect.width(), rect.height()))
    };
    // The checkpoint under a screen point: its circle, or anywhere on its row
    // in the label column.
    let pick = move |screen: Point| {
        let w = state.viewport.get_untracked().to_world(screen);
        state.layout.with_untracked(|l| {
            l.hit_test(w.x, w.y).or_else(|| {
                let in_labels = w.x >= l.width() - PADDING
                    && w.x <= l.width() - PADDING + 8.0 + LABEL_COLUMN_WIDTH;
                in_labels
                    .then(|| row_at(w.y))
                    .flatten()
                    .filter(|&r| r < l.len())
            })
        })
    };
    let zoom_by = move |factor: f64| {
        let (w, h) = view_size().unwrap_or((0.0, 0.0));
        state
            .viewport
            .update(|v| *v = v.zoom_at(Point::new(w / 2.0, h / 2.0), factor));
    };

    // Keep the selected checkpoint in view.
    Effect::new(move |_| {
        let Some(i) = state.selected.get() else {
            return;
        };
        let Some(c) = state.layout.with_untracked(|l| l.center(i)) else {
            return;
        };
        if let Some((w, h)) = view_size() {
            state
                .viewport
                .update(|v| *v = v.reveal(c, REVEAL_MARGIN, w, h));
        }
    });

    let on_pointerdown = move |ev: ev::PointerEvent| {
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
    };
    let on_pointermove = move |ev: ev::PointerEvent| {
        let Some(mut p) = press.get_value().filter(|p| p.pointer == ev.pointer_id()) else {
            return;
        };
        let now = Point::new(ev.client_x() as f64, ev.client_y() as f64);
        if !p.dragging && now.distance(p.start) > DRAG_THRESHOLD {
            p.dragging = true;
            if let Some(svg) = svg_ref.get_untracked() {
                let _ = svg.set_pointer_capture(p.pointer);
            }
        }
        if p.dragging {
            let (dx, dy) = (now.x - p.last.x, now.y - p.last.y);
            state.viewport.update(|v| *v = v.pan_by(dx, dy));
            p.last = now;
        }
        press.set_value(Some(p));
    };
    let on_pointerup = move |ev: ev::PointerEvent| {
        let Some(p) = press.get_value() else {
            return;
        };
        press.set_value(None);
        if p.dragging {
            return;
        }
        if let Some(i) = local(ev.client_x(), ev.client_y()).and_then(|(s, _, _)| pick(s)) {
            state.selected.set(Some(i));
        }
    };
    let on_wheel = move |ev: ev::WheelEvent| {
        ev.prevent_default();
        // deltaMode 1 = lines, 2 = pages.
        let unit = match ev.delta_mode() {
            1 => 16.0,
            2 => 400.0,
            _ => 1.0,
        };
        if ev.ctrl_key() || ev.meta_key() {
            if let Some((s, _, _)) = local(ev.client_x(), ev.client_y()) {
                let factor = wheel_zoom_factor(ev.delta_y() * unit);
                state.viewport.update(|v| *v = v.zoom_at(s, factor));
            }
        } else {
            let (dx, dy) = (-ev.delta_x() * unit, -ev.delta_y() * unit);
            state.viewport.update(|v| *v = v.pan_by(dx, dy));
        }
    };
    let on_keydown = move |ev: ev::KeyboardEvent| {
        let len = state.layout.with_untracked(|l| l.len());
        if len == 0 {
            return;
        }
        let cur = state.selected.get_untracked();
        let target = match ev.key().as_str() {
            "ArrowDown" | "j" => Some(cur.map_or(0, |c| (c + 1).min(len - 1))),
            "ArrowUp" | "k" => Some(cur.map_or(0, |c| c.saturating_sub(1))),
            "ArrowLeft" | "h" => cur.and_then(|c| {
                state
                    .layout
                    .with_untracked(|l| l.node(c).and_then(|n| n.parent))
            }),
            "ArrowRight" | "l" => cur.and_then(|c| {
                state
                    .layout
                    .with_untracked(|l| l.nodes().iter().position(|n| n.parent == Some(c)))
            }),
            "Home" => Some(0),
            "End" => Some(len - 1),
            "+" | "=" => {
                zoom_by(1.25);
                None
            }
            "-" | "_" => {
                zoom_by(0.8);
                None
            }
            "0" => {
                state.viewport.set(Viewport::default());
                None
            }
            _ => return,
        };
        ev.prevent_default();
        if target.is_some() {
            state.selected.set(target);
        }
    };

    let band_y = move || {
        state.selected.get().map_or_else(
            || "-1000".to_owned(),
            |i| (PADDING + ROW_HEIGHT * i as f64).to_string(),
        )
    };
    let band_width = move || (label_x.get() + LABEL_COLUMN_WIDTH).to_string();

    view! {
        <section class="panel tree-panel" aria-label="Checkpoint tree">
            <div class="panel-head">
                <h2 class="panel-title">"Checkpoint tree"</h2>
                <span class="muted">{stats}</span>
                <span class="grow"></span>
                <div class="zoom" role="group" aria-label="Zoom">
                    <button type="button" title="Zoom out (-)" on:click=move |_| zoom_by(0.8)>
                        "−"
                    </button>
                    <span class="zoom-level">
                        {move || format!("{:.0}%", state.viewport.get().zoom * 100.0)}
                    </span>
                    <button type="button" title="Zoom in (+)" on:click=move |_| zoom_by(1.25)>
                        "+"
                    </button>
                    <button
                        type="button"
                        title="Reset pan and zoom (0)"
                        on:click=move |_| state.viewport.set(Viewport::default())
                    >
                        "1:1"
                    </button>
                </div>
            </div>
            <svg
                node_ref=svg_ref
                class="dag"
                tabindex="0"
                role="group"
                aria-label="Checkpoint tree. Arrow keys move the selection; drag to pan; ctrl + wheel to zoom."
                on:pointerdown=on_pointerdown
                on:pointermove=on_pointermove
                on:pointerup=on_pointerup
                on:pointercancel=move |_| press.set_value(None)
                on:wheel=on_wheel
                on:keydown=on_keydown
            >
                <g transform=move || state.viewport.get().svg_transform()>
                    <rect
                        class="sel-band"
                        x="0"
                        y=band_y
                        width=band_width
                        height=ROW_HEIGHT.to_string()
                        rx="6"
                    ></rect>
                    <g class="edges">
                        <For each=move || edges.get() key=|e| (e.to, e.path_d()) let:edge>
                            {
                                let to = edge.to;
                                let on_chain = Signal::derive(move || {
                                    chain.with(|c| c.get(to).copied().unwrap_or(false))
                                });
                                view! { <DagEdge edge on_chain/> }
                            }
                        </For>
                    </g>
                    <g class="nodes">
                        <For each=move || nodes.get() key=|n| (n.index, n.id.clone()) let:node>
                            <DagNode node label_x/>
                        </For>
                    </g>
                </g>
            </svg>
            <p class="hint">
                "Click a checkpoint or use ↑ ↓ (← parent, → first child). Drag to pan, ctrl + wheel to zoom."
            </p>
        </section>
    }
}
