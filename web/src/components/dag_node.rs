//! One checkpoint of the tree: its circle (colour and letter by source), and
//! its row's text (label, step, next, HEAD badge) in the label column.

use leptos::prelude::*;

use crate::layout::{Point, NODE_RADIUS, ROW_HEIGHT};
use crate::sample::Source;
use crate::state::AppState;

/// Offsets of the label column's fields from its left edge (world units).
const STEP_DX: f64 = 36.0;
const NEXT_DX: f64 = 100.0;
const HEAD_DX: f64 = 178.0;

/// Everything a node draws, as plain data.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeView {
    /// Index in the thread (= row).
    pub index: usize,
    /// The checkpoint id.
    pub id: String,
    /// `c0`, `c1`, …
    pub label: String,
    /// What created the checkpoint.
    pub source: Source,
    /// `metadata.step`.
    pub step: i64,
    /// `next`, or `done`.
    pub next: String,
    /// A short prefix of the id.
    pub short_id: String,
    /// Creation time.
    pub created_at: String,
    /// World-space centre.
    pub center: Point,
    /// The parent is not in the thread.
    pub dangling: bool,
}

const HEAD_NOTE: &str = "HEAD: the newest checkpoint on any branch. A run without a \
checkpoint_id continues from here, so HEAD moves whenever a replay or fork creates \
something newer.";

/// Draws one checkpoint. `label_x` is the world x of the label column.
#[component]
pub fn DagNode(node: NodeView, #[prop(into)] label_x: Signal<f64>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let i = node.index;
    let is_selected = move || state.selected.get() == Some(i);
    let is_head = move || state.head() == Some(i);
    let Point { x, y } = node.center;
    let tooltip = {
        let base = format!(
            "{} · {} · step {} · next: {}\nid {}… · created {}",
            node.label,
            node.source.as_str(),
            node.step,
            node.next,
            node.short_id,
            node.created_at
        );
        move || {
            if is_head() {
                format!("{base}\n{HEAD_NOTE}")
            } else {
                base.clone()
            }
        }
    };
    let at = move |dx: f64| move || (label_x.get() + dx).to_string();
    let dangling = node.dangling.then(|| {
        view! {
            <path
                class="edge dangling"
                d=format!("M{x} {} L{x} {}", y - NODE_RADIUS, y - ROW_HEIGHT / 2.0)
            ></path>
        }
    });

    view! {
        <g
            class=format!("node src-{}", node.source.as_str())
            class:selected=is_selected
            class:head=is_head
            data-label=node.label.clone()
        >
            <title>{tooltip}</title>
            {dangling}
            <circle class="head-ring" cx=x.to_string() cy=y.to_string() r=(NODE_RADIUS + 3.5).to_string()></circle>
            <circle class="dot" cx=x.to_string() cy=y.to_string() r=NODE_RADIUS.to_string()></circle>
            <text class="letter" x=x.to_string() y=y.to_string() dy="0.36em" text-anchor="middle">
                {node.source.letter()}
            </text>
            <text class="row-text" x=at(0.0) y=y.to_string() dy="0.36em">
                <tspan class="name">{node.label.clone()}</tspan>
                <tspan class="step" x=at(STEP_DX)>"step " {node.step}</tspan>
                <tspan class="next" x=at(NEXT_DX) class:done=node.next == "done">
                    {node.next.clone()}
                </tspan>
            </text>
            <Show when=is_head>
                <g class="head-badge">
                    <rect x=at(HEAD_DX) y=(y - 8.5).to_string() width="40" height="17" rx="8.5"></rect>
                    <text x=at(HEAD_DX + 20.0) y=y.to_string() dy="0.36em" text-anchor="middle">
                        "HEAD"
                    </text>
                </g>
            </Show>
        </g>
    }
}

/// Width of the label column's content, for the selection band.
pub const LABEL_COLUMN_WIDTH: f64 = HEAD_DX + 52.0;
