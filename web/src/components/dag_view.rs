//! The checkpoint tree panel: an SVG with pan (drag, wheel), zoom
//! (ctrl/⌘ + wheel, buttons, + and - keys), selection (click, arrow keys)
//! and Enter to replay. Hit testing and the screen transform come from
//! [`crate::layout`]; selection and HEAD go through per-key selectors so a
//! selection change touches two nodes, not the whole tree.

use leptos::ev;
use leptos::prelude::*;
use leptos::reactive::computed::Selector;
use wasm_bindgen::JsCast;

use super::dag_frames::Frames;
use super::dag_node::{DagNode, Marks, NodeView, LABEL_COLUMN_WIDTH};
use super::run_bar::RunBar;
use super::scrubber::Scrubber;
use crate::i18n::fill;
use crate::layout::{
    arrow_target, row_at, wheel_zoom_factor, Point, Viewport, PADDING, ROW_HEIGHT,
};
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
/// Threads longer than this draw only the rows in view (plus a margin).
const VIRTUALIZE_ABOVE: usize = 300;
/// Rows drawn above and below the visible ones, and the window's block size.
const ROW_MARGIN: usize = 40;
/// Margin kept around a checkpoint revealed by keyboard selection.
const REVEAL_MARGIN: f64 = 40.0;

/// The main panel: one column per branch, newest checkpoint at the bottom.
#[component]
pub fn DagView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();
    let press = StoredValue::new(None::<Press>);
    let marks = Marks {
        selected: Selector::new(move || state.selected.get()),
        head: Selector::new(move || state.head.get()),
        pinned: Selector::new(move || state.pinned.get()),
    };

    let view_size = move || {
        let rect = svg_ref.get_untracked()?.get_bounding_client_rect();
        Some((rect.width(), rect.height()))
    };
    // Rows drawn: every row of a small thread; on a big one, the rows in
    // view plus a margin (the DOM stays small, so selection and panning stay fast).
    let window = Memo::new(move |_| {
        let len = state.layout.with(|l| l.len());
        if len <= VIRTUALIZE_ABOVE {
            return (0, len);
        }
        let v = state.viewport.get();
        let h = view_size().map_or(900.0, |(_, h)| if h > 0.0 { h } else { 900.0 });
        let top = v.to_world(Point::new(0.0, 0.0)).y;
        let bottom = v.to_world(Point::new(0.0, h)).y;
        let first = row_at(top).unwrap_or(0).saturating_sub(ROW_MARGIN);
        let last = (row_at(bottom).unwrap_or(0) + ROW_MARGIN).min(len);
        // Snap to blocks so small pans do not change the window.
        let first = first / ROW_MARGIN * ROW_MARGIN;
        let last = (last.div_ceil(ROW_MARGIN) * ROW_MARGIN).min(len);
        (first, last.max(first))
    });
    let nodes = Memo::new(move |_| {
        let (first, last) = window.get();
        state.layout.with(|l| {
            state.checkpoints.with(|t| {
                t.iter()
                    .zip(l.nodes())
                    .enumerate()
                    .skip(first)
                    .take(last - first)
                    .map(|(i, (c, n))| NodeView {
                        index: i,
                        id: c.id.clone(),
                        label: c.label.clone(),
                        source: c.source,
                        step: c.step,
                        next: c.next.clone(),
                        created_at: c.created_at.clone(),
                        center: l.center(i).unwrap_or_default(),
                        dangling: n.dangling,
                        ns: c.ns.clone(),
                        runs: state.runs.with(|r| {
                            r.get(&c.id)
                                .map(|ns| ns.iter().map(|n| n.node.clone()).collect())
                                .unwrap_or_default()
                        }),
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    let edges = Memo::new(move |_| {
        let (first, last) = window.get();
        state.layout.with(|l| {
            l.edges()
                .iter()
                .filter(|e| e.from < last && e.to >= first)
                .map(|e| (e.to, e.path_d(), e.is_straight()))
                .collect::<Vec<_>>()
        })
    });
    // The selected checkpoint's chain back to the root, as one path.
    let chain_d = Memo::new(move |_| {
        state.layout.with(|l| {
            let mut d = String::new();
            let mut cur = state.selected.get().filter(|&i| i < l.len());
            while let Some(i) = cur {
                // Edges are appended with their child, so they are sorted by `to`.
                if let Some(e) = l
                    .edges()
                    .binary_search_by_key(&i, |e| e.to)
                    .ok()
                    .and_then(|k| l.edges().get(k))
                {
                    d.push_str(&e.path_d());
                    d.push(' ');
                }
                cur = l.node(i).and_then(|n| n.parent);
            }
            d
        })
    });
    // Bumped when the window is resized (the view's width is read from the DOM).
    let resized = RwSignal::new(0u32);
    let _ = window_event_listener(ev::resize, move |_| resized.update(|n| *n += 1));
    // The label column sits right of the lanes; on a tree wider than the view
    // it sticks to the view's right edge (over the lanes, on a backdrop), so
    // labels stay readable wherever the tree is panned.
    // Right of the lanes and of every subgraph frame.
    let natural_label_x = Memo::new(move |_| {
        let frames_right = state.frames.with(|f| {
            f.iter()
                .map(|f| f.rect().x + f.rect().w + 8.0)
                .fold(0.0, f64::max)
        });
        state
            .layout
            .with(|l| l.width() - PADDING + 8.0)
            .max(frames_right)
    });
    let label_x_memo = Memo::new(move |_| {
        resized.track();
        let natural = natural_label_x.get();
        let width = view_size().map_or(0.0, |(w, _)| w);
        state
            .viewport
            .get()
            .sticky_x(natural, LABEL_COLUMN_WIDTH + 8.0, width)
    });
    let label_x: Signal<f64> = label_x_memo.into();
    let labels_pinned = Memo::new(move |_| label_x_memo.get() < natural_label_x.get() - 0.5);
    let stats = move || {
        // A subgraph group's first lane is not a branch: the group starts there.
        let groups = state.frames.with(Vec::len);
        state.layout.with(|l| {
            let n = l.len();
            let b = if groups == 0 {
                l.lane_count()
            } else {
                l.nodes().iter().filter(|p| p.opens_lane).count() - groups
            };
            let t = state.t();
            let count = |one: &str, many: &str, k: usize| {
                if k == 1 {
                    one.to_owned()
                } else {
                    fill(many, &[("n", &k)])
                }
            };
            let mut text = format!(
                "{} · {}",
                count(t.checkpoints_one, t.checkpoints_many, n),
                count(t.branches_one, t.branches_many, b)
            );
            if groups > 0 {
                text.push_str(&count(t.groups_open_one, t.groups_open_many, groups));
            }
            text
        })
    };

    let local = move |client_x: i32, client_y: i32| {
        let rect = svg_ref.get_untracked()?.get_bounding_client_rect();
        Some(Point::new(
            client_x as f64 - rect.left(),
            client_y as f64 - rect.top(),
        ))
    };
    let pick = move |screen: Point| {
        let w = state.viewport.get_untracked().to_world(screen);
        let lx = label_x_memo.get_untracked();
        state.layout.with_untracked(|l| {
            // The label column first: when it sticks over the lanes, a click
            // there means the row, not a node hidden under it.
            let in_labels = w.x >= lx - 8.0 && w.x <= lx + LABEL_COLUMN_WIDTH;
            in_labels
                .then(|| row_at(w.y))
                .flatten()
                .filter(|&r| r < l.len())
                .or_else(|| l.hit_test(w.x, w.y))
        })
    };
    let zoom_by = move |factor: f64| {
        let (w, h) = view_size().unwrap_or((0.0, 0.0));
        state
            .viewport
            .update(|v| *v = v.zoom_at(Point::new(w / 2.0, h / 2.0), factor));
    };
    let focus_now = move |i: usize| {
        let Some(svg) = svg_ref.get_untracked() else {
            return;
        };
        let el: &web_sys::Element = svg.unchecked_ref();
        if let Ok(Some(node)) =
            el.query_selector(&format!("g.node[data-index=\"{i}\"] > .node-button"))
        {
            if let Ok(node) = node.dyn_into::<web_sys::SvgElement>() {
                let _ = node.focus();
            }
        }
    };

    // Focus after the selection is revealed and its row drawn.
    let focus_node = move |i: usize| {
        focus_now(i);
        set_timeout(
            move || {
                // Only if the selection has not moved on meanwhile.
                if state.selected.get_untracked() == Some(i) {
                    focus_now(i);
                }
            },
            std::time::Duration::from_millis(30),
        );
    };

    // Keep the selected checkpoint in view; remember it (storage and URL).
    Effect::new(move |_| {
        let Some(i) = state.selected.get() else {
            state.persist_selection();
            return;
        };
        state.persist_selection();
        let Some(c) = state.layout.with_untracked(|l| l.center(i)) else {
            return;
        };
        if let Some((w, h)) = view_size() {
            if w > 0.0 && h > 0.0 {
                // Keep the node left of the label column (which may stick to
                // the right edge), so it is never hidden under the labels.
                state.viewport.update(|v| {
                    let labels = (LABEL_COLUMN_WIDTH + 8.0) * v.zoom;
                    let room = (w - labels).max(w / 2.0);
                    *v = v.reveal(c, REVEAL_MARGIN, room, h);
                });
            }
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
        if let Some(i) = local(ev.client_x(), ev.client_y()).and_then(pick) {
            state.selected.set(Some(i));
            focus_node(i);
        }
    };
    let on_wheel = move |ev: ev::WheelEvent| {
        ev.prevent_default();
        let unit = match ev.delta_mode() {
            1 => 16.0,
            2 => 400.0,
            _ => 1.0,
        };
        if ev.ctrl_key() || ev.meta_key() {
            if let Some(s) = local(ev.client_x(), ev.client_y()) {
                let factor = wheel_zoom_factor(ev.delta_y() * unit);
                state.viewport.update(|v| *v = v.zoom_at(s, factor));
            }
        } else {
            let (dx, dy) = (-ev.delta_x() * unit, -ev.delta_y() * unit);
            state.viewport.update(|v| *v = v.pan_by(dx, dy));
        }
    };
    let on_keydown = move |ev: ev::KeyboardEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let key = ev.key();
        match key.as_str() {
            "+" | "=" => zoom_by(1.25),
            "-" | "_" => zoom_by(0.8),
            "0" => state.viewport.set(Viewport::default()),
            "Enter" => {
                if let Some(id) = state.selected_view_untracked().map(|v| v.id) {
                    let _ = state.act(|s| s.replay(&id));
                    if let Some(i) = state.selected.get_untracked() {
                        focus_node(i);
                    }
                }
            }
            _ => {
                let cur = state.selected.get_untracked();
                let target = state.layout.with_untracked(|l| {
                    state
                        .frames
                        .with_untracked(|f| arrow_target(l, f, cur, &key))
                });
                let known = matches!(
                    key.as_str(),
                    "ArrowUp"
                        | "ArrowDown"
                        | "ArrowLeft"
                        | "ArrowRight"
                        | "j"
                        | "k"
                        | "Home"
                        | "End"
                );
                if !known {
                    return;
                }
                if let Some(t) = target {
                    state.selected.set(Some(t));
                    focus_node(t);
                }
            }
        }
        ev.prevent_default();
    };

    let on_select = Callback::new(move |i: usize| {
        if state.selected.get_untracked() != Some(i) {
            state.selected.set(Some(i));
        }
    });

    let band_y = move || {
        state.selected.get().map_or_else(
            || "-1000".to_owned(),
            |i| (PADDING + ROW_HEIGHT * i as f64).to_string(),
        )
    };
    let band_width = move || (label_x.get() + LABEL_COLUMN_WIDTH).to_string();

    view! {
        <section class="panel tree-panel" aria-label=move || state.t().tree>
            <RunBar/>
            <div class="panel-head">
                <h2 class="panel-title">{move || state.t().tree_title}</h2>
                <span class="muted" data-testid="tree-stats">{stats}</span>
                <span class="grow"></span>
                <div class="zoom" role="group" aria-label=move || state.t().zoom>
                    <button type="button" title=move || state.t().zoom_out_title aria-label=move || state.t().zoom_out on:click=move |_| zoom_by(0.8)>
                        "−"
                    </button>
                    <span class="zoom-level">
                        {move || format!("{:.0}%", state.viewport.get().zoom * 100.0)}
                    </span>
                    <button type="button" title=move || state.t().zoom_in_title aria-label=move || state.t().zoom_in on:click=move |_| zoom_by(1.25)>
                        "+"
                    </button>
                    <button
                        type="button"
                        title=move || state.t().zoom_reset_title
                        on:click=move |_| state.viewport.set(Viewport::default())
                    >
                        "1:1"
                    </button>
                </div>
            </div>
            <svg
                node_ref=svg_ref
                class="dag"
                class:labels-pinned=move || labels_pinned.get()
                tabindex="0"
                role="group"
                aria-label=move || state.t().tree_keys
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
                    <Frames label_x/>
                    <g class="edges">
                        <For each=move || edges.get() key=|e| (e.0, e.1.clone()) let:edge>
                            <path class=if edge.2 { "edge" } else { "edge branch" } d=edge.1></path>
                        </For>
                        <path class="edge chain" d=move || chain_d.get()></path>
                    </g>
                    <g class="nodes">
                        // Keyed by position and toggle too: opening a group moves rows
                        // and lanes, and a node drawn once keeps its coordinates.
                        <For each=move || nodes.get() key=|n| (n.index, n.id.clone(), n.center.x as i64, n.runs.len()) let:node>
                            {
                                let id = node.id.clone();
                                let fresh = Signal::derive(move || {
                                    state.fresh.with(|f| f.contains(&id))
                                });
                                view! { <DagNode node marks=marks.clone() label_x fresh on_select/> }
                            }
                        </For>
                    </g>
                </g>
            </svg>
            <Scrubber/>
            <p class="hint">
                {move || state.t().tree_hint}
            </p>
        </section>
    }
}
