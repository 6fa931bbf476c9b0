//! The Fork dialog's prediction on a server thread: what the assistant's
//! graph (as the server exposes it) runs after an update written as the
//! chosen node, labelled as a prediction, and where the page cannot know
//! (a conditional edge, whose router runs on the server: its possible
//! targets are listed). After "Apply and run" the log says whether the
//! server did as predicted.

use leptos::prelude::*;

use crate::i18n::fill;
use crate::server::ServerGraph;
use crate::state::AppState;

/// The prediction for `update_state(..., as_node)` from `graph` (the level
/// of the checkpoint's namespace).
#[component]
pub fn ServerPrediction(
    /// The assistant's graph at the checkpoint's level.
    graph: ServerGraph,
    /// The chosen `as_node` (`""`: inferred by the server).
    as_node: RwSignal<String>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let lines = move || {
        let t = state.t();
        let node = as_node.get();
        if node.is_empty() {
            return vec![t.server_prediction_auto.to_owned()];
        }
        let after = graph.next_after(&node);
        // `?` stands for what a router picks, which the next line lists.
        let mut shown = after.certain.clone();
        if !after.possible.is_empty() {
            shown.push("?".to_owned());
        }
        let mut out = vec![fill(t.server_prediction, &[("next", &shown.join(", "))])];
        if !after.possible.is_empty() {
            out.push(fill(
                t.server_prediction_router,
                &[("node", &node), ("targets", &after.possible.join(", "))],
            ));
        }
        out
    };
    view! {
        <div class="explain prediction" aria-live="polite" data-testid="server-prediction">
            <ul>{move || lines().into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
        </div>
    }
}
