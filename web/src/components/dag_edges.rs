//! The tree's edges: each checkpoint's link to its parent (straight down a
//! lane, or a branch off it), and the selected checkpoint's ancestor path
//! drawn over them.

use std::ops::Range;

use leptos::prelude::*;

use crate::layout::ancestor_path;
use crate::state::AppState;

/// The edges that touch the rows drawn, and the selection's path to the root.
#[component]
pub fn DagEdges(
    /// The rows drawn.
    rows: Memo<Range<usize>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let edges = Memo::new(move |_| {
        let rows = rows.get();
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
    view! {
        <g class="edges">
            <For each=move || edges.get() key=|e| (e.0, e.1.clone()) let:edge>
                <path class=if edge.2 { "edge" } else { "edge branch" } d=edge.1></path>
            </For>
            <path class="edge chain" d=move || chain_d.get()></path>
        </g>
    }
}
