//! An error shown to the user. LangGraph's error texts stay as LangGraph
//! writes them (a learner searches for them); in a language other than
//! English, a line beside an untranslated engine text says what it is.

use leptos::prelude::*;

use crate::i18n::Lang;
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
    // Catalogue texts are already in the page's language; engine texts are
    // ASCII (LangGraph's wording, names and values from the graph).
    let engine = text.is_ascii();
    view! {
        <p class="error" role="alert">{text}</p>
        {move || (engine && state.lang.get() != Lang::En).then(|| view! {
            <p class="muted small error-note">{state.t().engine_error_note}</p>
        })}
    }
}
