//! The checkpoint tree panel: an SVG with pan and zoom (the
//! [`use_pan_zoom`] hook; + and - keys, buttons), selection (click, arrow
//! keys) and Enter to replay. What is drawn where (the window of rows, the
//! label column, the ancestor path, what a click picks, where an arrow key
//! goes) comes from pure [`crate::layout`] functions; selection and HEAD go
//! through per-key selectors so a selection change touches two nodes, not
//! the whole tree.

use leptos::ev;
use leptos::prelude::*;
use leptos::reactive::computed::Selector;
use wasm_bindgen::JsCast;

use super::dag_frames::Frames;
use super::dag_node::{DagNode, Marks, NodeView, LABEL_COLUMN_WIDTH};
use super::pan_zoom::{use_pan_zoom, view_size};
use super::run_bar::RunBar;
use super::scrubber::Scrubber;
use crate::i18n::fill;
use crate::layout::{
    ancestor_path, arrow_target, branch_count, keep_in_view, pick, visible_rows, LabelColumn,
    Point, Viewport, PADDING, ROW_HEIGHT, TREE_KEYS,
};
use crate::state::AppState;

/// Margin kept around a checkpoint revealed by keyboard selection.
const REVEAL_MARGIN: f64 = 40.0;

/// The main panel: one column per branch, newest checkpoint at the bottom.
#[component]
pub fn DagView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();
    let marks = Marks {
        selected: Selector::new(move || state.selected.get()),
        head: Selector::new(move || state.head.get()),
        pinned: Selector::new(move || state.pinned.get()),
    };
    // Bumped when the window is resized (the view's width is read from the DOM).
    let resized = RwSignal::new(0u32);
    let _ = window_event_listener(ev::resize, move |_| resized.update(|n| *n += 1));
    let labels = Memo::new(move |_| {
        resized.track();
        let viewport = state.viewport.get();
        let width = view_size(svg_ref).map(|(w, _)| w);
        state.frames.with(|f| {
            state
                .layout
                .with(|l| LabelColumn::place(l, f, &viewport, width, LABEL_COLUMN_WIDTH))
        })
    });
    let on_click = Callback::new(move |screen: Point| {
        let world = state.viewport.get_untracked().to_world(screen);
        let labels = labels.get_untracked();
        if let Some(i) = state.layout.with_untracked(|l| pick(l, &labels, world)) {
            state.selected.set(Some(i));
            focus_node(svg_ref, state, i);
        }
    });
    let pz = use_pan_zoom(svg_ref, state.viewport, on_click);

    // Rows drawn: every row of a small thread; on a big one, the rows in
    // view plus a margin (the DOM stays small, so selection and panning stay fast).
    let window = Memo::new(move |_| {
        let len = state.layout.with(|l| l.len());
        let height = pz.view_size().map(|(_, h)| h);
        visible_rows(len, &state.viewport.get(), height)
    });
    let nodes = Memo::new(move |_| {
        let rows = window.get();
        state.layout.with(|l| {
            state.checkpoints.with(|t| {
                t.iter()
                    .zip(l.nodes())
                    .enumerate()
                    .skip(rows.start)
                    .take(rows.len())
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
        let rows = window.get();
        state.layout.with(|l| {
            l.edges()
                .iter()
                .filter(|e| e.from < rows.end && e.to >= rows.start)
                .map(|e| (e.to, e.path_d(), e.is_straight()))
                .collect::<Vec<_>>()
        })
    });
    let chain_d = Memo::new(move |_| {
        state
            .layout
            .with(|l| ancestor_path(l, state.selected.get()))
    });
    let label_x: Signal<f64> = Signal::derive(move || labels.get().x);
    let stats = move || {
        let groups = state.frames.with(Vec::len);
        let (n, b) = state.layout.with(|l| (l.len(), branch_count(l, groups)));
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
    };

    // Keep the selected checkpoint in view; remember it (storage and URL).
    Effect::new(move |_| {
        let selected = state.selected.get();
        state.persist_selection();
        let Some(c) = selected.and_then(|i| state.layout.with_untracked(|l| l.center(i))) else {
            return;
        };
        if let Some(size) = pz.view_size().filter(|(w, h)| *w > 0.0 && *h > 0.0) {
            state.viewport.update(|v| {
                *v = keep_in_view(v, c, REVEAL_MARGIN, size, LABEL_COLUMN_WIDTH);
            });
        }
    });

    let on_keydown = move |ev: ev::KeyboardEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let key = ev.key();
        match key.as_str() {
            "+" | "=" => pz.zoom_by(1.25),
            "-" | "_" => pz.zoom_by(0.8),
            "0" => state.viewport.set(Viewport::default()),
            "Enter" => {
                if let Some(id) = state.selected_view_untracked().map(|v| v.id) {
                    let _ = state.act(|s| s.replay(&id));
                    if let Some(i) = state.selected.get_untracked() {
                        focus_node(svg_ref, state, i);
                    }
                }
            }
            k if TREE_KEYS.contains(&k) => {
                let cur = state.selected.get_untracked();
                let target = state.layout.with_untracked(|l| {
                    state.frames.with_untracked(|f| arrow_target(l, f, cur, k))
                });
                if let Some(t) = target {
                    state.selected.set(Some(t));
                    focus_node(svg_ref, state, t);
                }
            }
            _ => return,
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
                    <button type="button" title=move || state.t().zoom_out_title aria-label=move || state.t().zoom_out on:click=move |_| pz.zoom_by(0.8)>
                        "−"
                    </button>
                    <span class="zoom-level">
                        {move || format!("{:.0}%", state.viewport.get().zoom * 100.0)}
                    </span>
                    <button type="button" title=move || state.t().zoom_in_title aria-label=move || state.t().zoom_in on:click=move |_| pz.zoom_by(1.25)>
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
                class:labels-pinned=move || labels.with(LabelColumn::pinned)
                tabindex="0"
                role="group"
                aria-label=move || state.t().tree_keys
                on:pointerdown=move |e| pz.down.run(e)
                on:pointermove=move |e| pz.moved.run(e)
                on:pointerup=move |e| pz.up.run(e)
                on:pointercancel=move |e| pz.cancel.run(e)
                on:wheel=move |e| pz.wheel.run(e)
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

/// Focuses checkpoint `i`'s button, now and again once its row is drawn
/// (revealing it may move the window of rows), unless the selection has
/// moved on meanwhile.
fn focus_node(svg: NodeRef<leptos::svg::Svg>, state: AppState, i: usize) {
    let focus_now = move || {
        let Some(el) = svg.get_untracked() else {
            return;
        };
        let el: &web_sys::Element = el.unchecked_ref();
        let button = el
            .query_selector(&format!("g.node[data-index=\"{i}\"] > .node-button"))
            .ok()
            .flatten()
            .and_then(|n| n.dyn_into::<web_sys::SvgElement>().ok());
        if let Some(button) = button {
            let _ = button.focus();
        }
    };
    focus_now();
    set_timeout(
        move || {
            if state.selected.get_untracked() == Some(i) {
                focus_now();
            }
        },
        std::time::Duration::from_millis(30),
    );
}
