//! The text of a checkpoint's row: the letter in its mark, then in the
//! label column its label, step, `next` and the HEAD badge. Drawn over the
//! checkpoint's button, hidden from assistive technology (the button's
//! accessible name says all of it) and transparent to the pointer.

use leptos::prelude::*;

use crate::i18n::fill;
use crate::inspect::next_shown;
use crate::layout::{Point, HEAD_DX, LABEL_COLUMN_WIDTH, NEXT_DX, ROW_HEIGHT, STEP_DX};
use crate::session::CheckpointView;
use crate::state::{letter, AppState};

/// The row's text. `label_x` is the world x of the label column.
#[component]
pub fn NodeText(
    /// The checkpoint.
    checkpoint: CheckpointView,
    /// World-space centre of its mark.
    center: Point,
    /// World x of the label column.
    label_x: Signal<f64>,
    /// Whether it is HEAD.
    is_head: Signal<bool>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let Point { x, y } = center;
    let at = move |dx: f64| move || (label_x.get() + dx).to_string();
    let step = checkpoint.step;
    let done = checkpoint.next.is_empty();
    let next = checkpoint.next;
    view! {
        <g class="node-text" aria-hidden="true">
            <text class="letter" x=x.to_string() y=y.to_string() dy="0.36em" text-anchor="middle">
                {letter(checkpoint.source)}
            </text>
            <rect class="label-bg" x=at(-8.0) y=(y - ROW_HEIGHT / 2.0).to_string()
                width=(LABEL_COLUMN_WIDTH + 8.0).to_string() height=ROW_HEIGHT.to_string()></rect>
            <text class="row-text" x=at(0.0) y=y.to_string() dy="0.36em">
                <tspan class="name">{checkpoint.label}</tspan>
                <tspan class="step" x=at(STEP_DX)>{move || fill(state.t().step_n, &[("n", &step)])}</tspan>
                <tspan class="next" x=at(NEXT_DX) class:done=done>
                    {move || next_shown(state.t(), &next)}
                </tspan>
            </text>
            <Show when=move || is_head.get()>
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
