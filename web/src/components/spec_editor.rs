//! The spec editor: paste or edit a graph in the JSON graph format. Loading
//! validates it (errors name the path, e.g. `edges[2]`) and starts a new,
//! empty thread; an invalid spec is an inline error and changes nothing.

use leptos::prelude::*;

use super::error_line::ErrorLine;
use crate::state::{AppState, CUSTOM};

/// A collapsible editor for the current graph's spec.
#[component]
pub fn SpecEditor() -> impl IntoView {
    let state = expect_context::<AppState>();
    let text = RwSignal::new(state.spec_text.get_untracked());
    let error = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        text.set(state.spec_text.get());
        error.set(None);
    });
    let load = move || {
        let t = text.get_untracked();
        if let Err(e) = chronograph::GraphSpec::parse(&t) {
            error.set(Some(e.to_string()));
            return;
        }
        let same = t == state.spec_text.get_untracked();
        let id = if same {
            state.scenario.get_untracked()
        } else {
            CUSTOM.to_owned()
        };
        match state.load_spec(&id, &t) {
            Ok(()) => error.set(None),
            Err(e) => error.set(Some(e)),
        }
    };
    view! {
        <details class="spec-editor">
            <summary class="panel-title">{move || state.t().spec_title}</summary>
            <textarea class="mono" rows="14" aria-label=move || state.t().spec_title spellcheck="false"
                prop:value=move || text.get()
                on:input=move |ev| { text.set(event_target_value(&ev)); error.set(None); }></textarea>
            {move || error.get().map(|e| view! { <ErrorLine text=e/> })}
            <div class="row">
                <button type="button" disabled=move || !state.idle() on:click=move |_| load()>{move || state.t().spec_load}</button>
                <span class="muted small">{move || state.t().spec_note}</span>
            </div>
        </details>
    }
}
