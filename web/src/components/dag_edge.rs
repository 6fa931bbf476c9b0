//! One parent-to-child line of the checkpoint tree.

use leptos::prelude::*;

use crate::layout::Edge;

/// Draws `edge` (world space). `on_chain` lights it when it leads to the
/// selected checkpoint.
#[component]
pub fn DagEdge(edge: Edge, #[prop(into)] on_chain: Signal<bool>) -> impl IntoView {
    let class = if edge.is_straight() {
        "edge"
    } else {
        "edge branch"
    };
    view! { <path class=class class:chain=move || on_chain.get() d=edge.path_d()></path> }
}
