//! A button of the history player that moves the selection along the
//! branch (to the root, back, forward, to the tip), named by its tooltip.

use leptos::prelude::*;

use crate::i18n::Strings;
use crate::state::AppState;

/// A symbol button whose tooltip is also its accessible name.
#[component]
pub fn StepButton(
    /// Its name in the catalogue.
    name: fn(&'static Strings) -> &'static str,
    /// The symbol it shows.
    glyph: &'static str,
    /// Whether it is disabled.
    disabled: Signal<bool>,
    /// What a click does.
    on_click: Callback<()>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <button type="button" title=move || name(state.t()) aria-label=move || name(state.t())
            disabled=disabled on:click=move |_| on_click.run(())>{glyph}</button>
    }
}
