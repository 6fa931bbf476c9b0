//! The mark of a checkpoint in the tree, by source: a circle, a square for
//! an update, a diamond for a fork (a second cue besides colour, with the
//! letter drawn over it).

use leptos::prelude::*;

use crate::layout::{Point, NODE_RADIUS};
use chronograph::Source;

/// The checkpoint's shape, centred on `center`.
#[component]
pub fn NodeShape(
    /// What created the checkpoint.
    source: Source,
    /// World-space centre.
    center: Point,
) -> impl IntoView {
    let Point { x, y } = center;
    match source {
        Source::Update => view! {
            <rect class="dot" x=(x - NODE_RADIUS + 1.0).to_string() y=(y - NODE_RADIUS + 1.0).to_string()
                width=(2.0 * NODE_RADIUS - 2.0).to_string() height=(2.0 * NODE_RADIUS - 2.0).to_string() rx="3"></rect>
        }
        .into_any(),
        Source::Fork => view! {
            <path class="dot" d=format!("M{x} {} L{} {y} L{x} {} L{} {y} Z", y - NODE_RADIUS - 1.0, x + NODE_RADIUS + 1.0, y + NODE_RADIUS + 1.0, x - NODE_RADIUS - 1.0)></path>
        }
        .into_any(),
        _ => view! { <circle class="dot" cx=x.to_string() cy=y.to_string() r=NODE_RADIUS.to_string()></circle> }
            .into_any(),
    }
}
