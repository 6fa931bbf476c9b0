//! The Fork dialog's heading (`Fork from c3`, and the subgraph it goes
//! through) and its introduction, which names the call it makes.

use leptos::prelude::*;

use super::sentence::{mono_sentence, sentence};
use crate::state::AppState;

/// The `<h2 id="fork-title">` that names the dialog, and the intro under it.
#[component]
pub fn ForkHeading(
    /// The checkpoint's label.
    label: String,
    /// The subgraph namespace the update goes through (short form), if any.
    ns: Option<String>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let t = move || state.t();
    let call = format!("update_state({label}, values, as_node)");
    let title_label = label.clone();
    view! {
        <h2 id="fork-title">{move || mono_sentence(t().fork_title, &title_label)}
            {ns.map(|ns| {
                view! { <span class="muted small">{move || mono_sentence(t().fork_through_sub, &ns)}</span> }
            })}
        </h2>
        <p class="muted small">
            {move || sentence(t().fork_intro, |slot| match slot {
                "call" => view! { <code>{call.clone()}</code> }.into_any(),
                _ => view! { <span class="mono">{label.clone()}</span> }.into_any(),
            })}
        </p>
    }
}
