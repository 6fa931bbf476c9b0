//! What the Fork dialog's update would do, computed by dry runs on a copy
//! of the thread as the values and `as_node` change: the new checkpoint,
//! the resulting `next`, and (at the root, with the graph's code) which
//! nodes the run after it skips and runs.

use leptos::prelude::*;
use serde_json::Value;

use super::error_line::ErrorLine;
use crate::inspect::{describe, next_shown};
use crate::session::Preview;
use crate::state::AppState;

/// The live explanation of `update_state(id, values, as_node)`.
#[component]
pub fn ForkExplanation(
    /// The checkpoint the update forks from.
    id: String,
    /// The values typed so far, or why they do not parse.
    values: Memo<Result<Value, String>>,
    /// The chosen `as_node` (`""`: inferred).
    as_node: RwSignal<String>,
    /// The checkpoint is inside a subgraph: no run follows (its parent resumes it).
    in_subgraph: bool,
    /// The thread was imported without its graph: no run follows.
    needs_graph: bool,
    /// The thread lives on a LangGraph server: its run is the server's,
    /// which the page's copy of the graph cannot dry-run.
    on_server: bool,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let explanation = Memo::new(move |_| {
        let values = values.get().ok()?;
        let node = as_node.get();
        let node = (!node.is_empty()).then_some(node);
        Some(previews(
            state,
            &id,
            values,
            node,
            in_subgraph || needs_graph || on_server,
        ))
    });
    let t = move || state.t();
    view! {
        <div class="explain" aria-live="polite" data-testid="fork-explanation">
            {move || explanation.get().map(|(update, run, replay)| {
                if let Some(e) = update.error.clone() {
                    return view! { <ErrorLine text=e/> }.into_any();
                }
                let next = update.checkpoints.first().map(|c| next_shown(t(), &c.view.next)).unwrap_or_default();
                let resulting = if in_subgraph && !needs_graph { t().resulting_next_sub } else { t().resulting_next };
                let then = if on_server {
                    view! { <li>{t().fork_run_on_server}</li> }.into_any()
                } else if needs_graph {
                    view! { <li>{t().fork_run_needs_graph}</li> }.into_any()
                } else if in_subgraph {
                    view! { <li>{t().then_resume}</li> }.into_any()
                } else {
                    let skipped: Vec<String> = replay.will_run.iter().filter(|n| !run.will_run.contains(n)).cloned().collect();
                    view! {
                        <li>{t().skipped} <span class="mono">{if skipped.is_empty() { t().nothing.to_owned() } else { skipped.join(", ") }}</span></li>
                        <li>{t().apply_run_effect} {describe(t(), &run)}</li>
                    }.into_any()
                };
                view! {
                    <ul>
                        <li>{t().apply_effect} {describe(t(), &update)}</li>
                        <li>{resulting} <b class="mono">{next}</b></li>
                        {then}
                    </ul>
                }.into_any()
            })}
        </div>
    }
}

/// Dry runs of the update, of the update and a run after it, and of a
/// replay from `id` (what the run would have done without the update).
/// With `no_run` (a paused subgraph resumes from its parent, and an
/// imported history has no nodes' code), the update's alone, three times.
fn previews(
    state: AppState,
    id: &str,
    values: Value,
    node: Option<String>,
    no_run: bool,
) -> (Preview, Preview, Preview) {
    state.session.with_value(|s| {
        let update = s.preview(|c| c.update(id, Some(values.clone()), node.as_deref()));
        if no_run {
            return (update.clone(), update.clone(), update);
        }
        let run = s.preview(|c| c.fork_and_run(id, values, node.as_deref()));
        let replay = s.preview(|c| c.replay(id));
        (update, run, replay)
    })
}
