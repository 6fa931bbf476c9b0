//! One row of the actions box: the action's button, the engine call it
//! makes, and a note on what that does.

use leptos::prelude::*;

/// The button (`children`), then the call as code and the note.
#[component]
pub fn ActionRow(
    /// The engine call, e.g. `invoke(None, c3)`.
    #[prop(into)]
    call: Signal<String>,
    /// What the call does, from the catalogue.
    #[prop(into)]
    note: Signal<&'static str>,
    /// The action's button.
    children: Children,
) -> impl IntoView {
    view! {
        <div class="action">
            {children()}
            <div>
                <code>{move || call.get()}</code>
                <div class="muted">{move || note.get()}</div>
            </div>
        </div>
    }
}
