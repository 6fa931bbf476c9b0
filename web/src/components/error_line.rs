//! An error shown to the user. LangGraph's error texts stay as LangGraph
//! writes them (a learner searches for them); in a language other than
//! English, a line beside an untranslated engine text says what it is.

use leptos::prelude::*;

use crate::i18n::Lang;
use crate::session::NEEDS_GRAPH;
use crate::state::AppState;

/// `<p role="alert">` with the error, and the explanation when it is the
/// engine's own (English) wording on a page in another language.
#[component]
pub fn ErrorLine(
    /// The error text.
    #[prop(into)]
    text: String,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    // The app's own refusal to run an imported thread travels as an engine
    // error, but it is the app's text: shown from the catalogue.
    let ours = text.contains(NEEDS_GRAPH);
    // Catalogue texts are already in the page's language; engine texts are
    // ASCII (LangGraph's wording, names and values from the graph).
    let engine = !ours && text.is_ascii();
    let shown = move || {
        if ours {
            state.t().run_needs_graph.to_owned()
        } else {
            text.clone()
        }
    };
    view! {
        <p class="error" role="alert">{shown}</p>
        {move || (engine && state.lang.get() != Lang::En).then(|| view! {
            <p class="muted small error-note">{state.t().engine_error_note}</p>
        })}
    }
}
