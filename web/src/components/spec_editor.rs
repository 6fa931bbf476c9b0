//! The spec editor: paste or edit a graph in the JSON graph format. Loading
//! validates it (errors name the path, e.g. `edges[2]`) and starts a new,
//! empty thread; an invalid spec is an inline error and changes nothing.
//! On a thread imported from a history, "Attach to this thread" keeps the
//! thread and runs it on the spec when its node names fit.

use leptos::prelude::*;

use super::error_line::ErrorLine;
use crate::i18n::fill;
use crate::state::{AppState, AttachError, CUSTOM};

/// A collapsible editor for the current graph's spec.
#[component]
pub fn SpecEditor() -> impl IntoView {
    let state = expect_context::<AppState>();
    let text = RwSignal::new(state.spec_text.get_untracked());
    let error = RwSignal::new(None::<String>);
    let attached = RwSignal::new(false);
    let textarea = NodeRef::<leptos::html::Textarea>::new();
    Effect::new(move |_| {
        text.set(state.spec_text.get());
        error.set(None);
    });
    // "Attach a graph spec…" opens the editor and puts the focus in it.
    Effect::new(move |_| {
        if state.spec_open.get() {
            if let Some(t) = textarea.get() {
                let _ = t.focus();
            }
        }
    });
    let attach = move || {
        attached.set(false);
        match state.attach_spec(&text.get_untracked()) {
            Ok(()) => {
                error.set(None);
                attached.set(true);
            }
            Err(AttachError::Invalid(e)) => error.set(Some(e)),
            Err(AttachError::Missing(missing, nodes)) => error.set(Some(fill(
                state.t_untracked().attach_missing,
                &[
                    ("missing", &missing.join(", ")),
                    ("nodes", &nodes.join(", ")),
                ],
            ))),
        }
    };
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
        <details class="spec-editor" prop:open=move || state.spec_open.get()
            on:toggle=move |ev| {
                let open = ev.target().and_then(|t| {
                    use wasm_bindgen::JsCast;
                    t.dyn_into::<web_sys::HtmlDetailsElement>().ok()
                }).is_some_and(|d| d.open());
                if state.spec_open.get_untracked() != open {
                    state.spec_open.set(open);
                }
            }>
            <summary class="panel-title">{move || state.t().spec_title}</summary>
            <textarea node_ref=textarea class="mono" rows="14" aria-label=move || state.t().spec_title spellcheck="false"
                prop:value=move || text.get()
                on:input=move |ev| { text.set(event_target_value(&ev)); error.set(None); attached.set(false); }></textarea>
            {move || error.get().map(|e| view! { <ErrorLine text=e/> })}
            <Show when=move || attached.get() && !state.needs_graph.get()>
                <p class="small ok" role="status">{move || state.t().attach_done}</p>
            </Show>
            <Show when=move || state.needs_graph.get()>
                <div class="row">
                    <button type="button" class="primary" disabled=move || !state.idle() on:click=move |_| attach()>{move || state.t().spec_attach}</button>
                    <span class="muted small">{move || state.t().spec_attach_note}</span>
                </div>
            </Show>
            <div class="row">
                <button type="button" disabled=move || !state.idle() on:click=move |_| load()>{move || state.t().spec_load}</button>
                <span class="muted small">{move || state.t().spec_note}</span>
            </div>
        </details>
    }
}
