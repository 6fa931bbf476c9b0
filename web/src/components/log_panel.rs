//! The log: the exact engine calls of every action, newest last.

use leptos::prelude::*;

use crate::state::AppState;

/// A numbered list of engine calls, scrolled so the newest is in view.
#[component]
pub fn LogPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let panel = NodeRef::<leptos::html::Section>::new();
    Effect::new(move |_| {
        state.log.track();
        if let Some(el) = panel.get() {
            el.set_scroll_top(el.scroll_height());
        }
    });
    view! {
        <section class="panel log" aria-label=move || state.t().log node_ref=panel>
            <h2 class="panel-title">{move || state.t().log_title}</h2>
            <ol class="log-list">
                {move || {
                    state
                        .log
                        .get()
                        .into_iter()
                        .map(|e| view! { <li class:failed=e.failed><code>{e.text}</code></li> })
                        .collect_view()
                }}
            </ol>
            <Show when=move || state.log.with(Vec::is_empty)>
                <p class="muted">{move || state.t().log_empty}</p>
            </Show>
        </section>
    }
}
