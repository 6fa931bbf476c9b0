//! The toggle in a checkpoint's row that expands the subgraph runs its
//! tasks wrote in place (`▸ research`), a button of its own beside the
//! checkpoint's.

use leptos::prelude::*;

use crate::i18n::fill;
use crate::inspect::next_text;
use crate::layout::RUNS_DX;
use crate::state::AppState;

/// Expands or collapses checkpoint `id`'s subgraph runs.
#[component]
pub fn RunToggle(
    /// The checkpoint id.
    id: String,
    /// Its label (`c2`).
    label: String,
    /// The subgraph nodes its tasks ran.
    runs: Vec<String>,
    /// World y of the row.
    y: f64,
    /// World x of the label column.
    label_x: Signal<f64>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let open = {
        let id = id.clone();
        Signal::derive(move || state.expanded.with(|e| e.contains(&id)))
    };
    let at = move |dx: f64| move || (label_x.get() + dx).to_string();
    let what = next_text(&runs);
    let text = {
        let what = what.clone();
        move || format!("{} {what}", if open.get() { "▾" } else { "▸" })
    };
    let name = {
        let (what, label) = (what.clone(), label.clone());
        // The visible text (`▸ research`) leads the name, so what a sighted
        // user reads is what a speech-input user says.
        move || fill(state.t().expand_run, &[("what", &what), ("label", &label)])
    };
    let title = move || fill(state.t().expand_run_title, &[("what", &what)]);
    let click_id = id.clone();
    view! {
        <g class="expand" role="button" tabindex="0" aria-label=name
            aria-expanded=move || if open.get() { "true" } else { "false" }
            data-expand=label
            on:click=move |ev| { ev.stop_propagation(); state.toggle_expanded(&click_id); }
            // Enter and Space toggle it; they must not reach the tree, where Enter replays.
            on:keydown=move |ev| if ev.key() == "Enter" || ev.key() == " " {
                ev.prevent_default();
                ev.stop_propagation();
                state.toggle_expanded(&id);
            }>
            <title>{title}</title>
            <rect x=at(RUNS_DX) y=(y - 9.0).to_string() width="92" height="18" rx="4"></rect>
            <text x=at(RUNS_DX + 6.0) y=y.to_string() dy="0.36em">{text}</text>
        </g>
    }
}
