//! The checkpoint tree panel: an SVG with pan and zoom (the
//! [`use_pan_zoom`] hook; + and - keys, buttons), selection (click, arrow
//! keys) and Enter to replay. What is drawn where (the window of rows, the
//! label column, the ancestor path, what a click picks, where an arrow key
//! goes) comes from pure [`crate::layout`] functions; selection and HEAD go
//! through per-key selectors so a selection change touches two nodes, not
//! the whole tree.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use std::ops::Range;

use super::dag_edges::DagEdges;
use super::dag_frames::Frames;
use super::dag_node::{DagNode, Marks, NodeView};
use super::pan_zoom::{use_pan_zoom, view_size, PanZoom};
use super::run_bar::RunBar;
use super::scrubber::Scrubber;
use super::selection_band::SelectionBand;
use super::zoom_controls::ZoomControls;
use crate::i18n::count;
use crate::layout::{
    arrow_target, branch_count, keep_in_view, pick, visible_rows, LabelColumn, Point, Viewport,
    LABEL_COLUMN_WIDTH, TREE_KEYS,
};
use crate::state::AppState;

/// Margin kept around a checkpoint revealed by keyboard selection.
const REVEAL_MARGIN: f64 = 40.0;

/// The main panel: one column per branch, newest checkpoint at the bottom.
#[component]
pub fn DagView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();
    let marks = Marks::new(state);
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
    let nodes = Memo::new(move |_| node_views(state, window.get()));
    let label_x: Signal<f64> = Signal::derive(move || labels.get().x);

    keep_selection_in_view(state, pz);

    let on_select = Callback::new(move |i: usize| {
        if state.selected.get_untracked() != Some(i) {
            state.selected.set(Some(i));
        }
    });

    view! {
        <section class="panel tree-panel" aria-label=move || state.t().tree>
            // A thread imported (or read from a server) without its graph has
            // no nodes to run here: no run bar, not the scenario's before it.
            // A server thread's runs are the server's (its buttons).
            <Show when=move || !state.needs_graph.get() && !state.on_server()>
                <RunBar/>
            </Show>
            <div class="panel-head">
                <h2 class="panel-title">{move || state.t().tree_title}</h2>
                <span class="muted" data-testid="tree-stats">{move || tree_stats(state)}</span>
                <span class="grow"></span>
                <ZoomControls pz/>
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
                on:keydown=move |ev| on_tree_key(&ev, state, pz, svg_ref)
            >
                <g transform=move || state.viewport.get().svg_transform()>
                    <SelectionBand label_x/>
                    <Frames label_x/>
                    <DagEdges rows=window/>
                    <g class="nodes">
                        // Keyed by position and toggle too: opening a group moves rows
                        // and lanes, and a node drawn once keeps its coordinates.
                        <For each=move || nodes.get() key=|n| (n.index, n.checkpoint.id.clone(), n.center.x as i64, n.runs.len()) let:node>
                            {
                                let id = node.checkpoint.id.clone();
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

/// Keeps the selected checkpoint in view, and remembers it (storage and URL).
fn keep_selection_in_view(state: AppState, pz: PanZoom) {
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
}

/// The checkpoints of `rows`, as their nodes draw them.
fn node_views(state: AppState, rows: Range<usize>) -> Vec<NodeView> {
    state.layout.with(|l| {
        state.checkpoints.with(|t| {
            t.iter()
                .zip(l.nodes())
                .enumerate()
                .skip(rows.start)
                .take(rows.len())
                .map(|(i, (c, n))| NodeView {
                    index: i,
                    checkpoint: c.clone(),
                    center: l.center(i).unwrap_or_default(),
                    dangling: n.dangling,
                    runs: state.runs.with(|r| {
                        r.get(&c.id)
                            .map(|ns| ns.iter().map(|n| n.node.clone()).collect())
                            .unwrap_or_default()
                    }),
                })
                .collect()
        })
    })
}

/// `13 checkpoints · 2 branches`, and how many subgraph groups are open.
fn tree_stats(state: AppState) -> String {
    let groups = state.frames.with(Vec::len);
    let (n, b) = state.layout.with(|l| (l.len(), branch_count(l, groups)));
    let t = state.t();
    let mut text = format!(
        "{} · {}",
        count(t.checkpoints_one, t.checkpoints_many, n),
        count(t.branches_one, t.branches_many, b)
    );
    if groups > 0 {
        text.push_str(&count(t.groups_open_one, t.groups_open_many, groups));
    }
    text
}

/// A key in the tree: + and - zoom, 0 resets the view, Enter replays the
/// selection, the arrow keys (and Home, End, …) move it.
fn on_tree_key(
    ev: &ev::KeyboardEvent,
    state: AppState,
    pz: PanZoom,
    svg: NodeRef<leptos::svg::Svg>,
) {
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
                    focus_node(svg, state, i);
                }
            }
        }
        k if TREE_KEYS.contains(&k) => {
            let cur = state.selected.get_untracked();
            let target = state
                .layout
                .with_untracked(|l| state.frames.with_untracked(|f| arrow_target(l, f, cur, k)));
            if let Some(t) = target {
                state.selected.set(Some(t));
                focus_node(svg, state, t);
            }
        }
        _ => return,
    }
    ev.prevent_default();
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
