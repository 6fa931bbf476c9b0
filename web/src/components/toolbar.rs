//! The toolbar: scenario picker and the session actions.

use leptos::prelude::*;

const NOT_YET: &str = "Available once the engine is wired in";

/// Scenario ▾ | Lesson ▸ | Export | Import | Reset.
#[component]
pub fn Toolbar() -> impl IntoView {
    view! {
        <header class="toolbar">
            <div class="brand">
                <span class="brand-mark" aria-hidden="true"></span>
                <span class="brand-name">"Chronograph"</span>
                <span class="brand-sub">"checkpoint time travel"</span>
            </div>
            <label class="field">
                <span>"Scenario"</span>
                <select aria-label="Scenario">
                    <option selected>"Chat: booking → reply (sample)"</option>
                </select>
            </label>
            <span class="sep" aria-hidden="true"></span>
            <button type="button" disabled title=NOT_YET>"Lesson ▸"</button>
            <button type="button" disabled title=NOT_YET>"Export"</button>
            <button type="button" disabled title=NOT_YET>"Import"</button>
            <button type="button" disabled title=NOT_YET>"Reset"</button>
            <span class="grow"></span>
            <span class="note">"Sample thread · engine not wired in yet"</span>
        </header>
    }
}
