//! The toolbar: scenario picker and the session actions (export, import,
//! reset). Import errors are shown inline and change nothing.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::browser;
use crate::scenarios::{self, ALL};
use crate::state::{AppState, CUSTOM};

/// Scenario ▾ | Export | Import | Reset.
#[component]
pub fn Toolbar() -> impl IntoView {
    let state = expect_context::<AppState>();
    let error = RwSignal::new(None::<String>);
    let file_ref = NodeRef::<leptos::html::Input>::new();
    let on_pick = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if let Some(s) = scenarios::by_id(&id) {
            match state.load_spec(s.id, s.spec) {
                Ok(()) => error.set(None),
                Err(e) => error.set(Some(e)),
            }
        }
    };
    let export = move |_| {
        let text = state.export_text();
        if let Err(e) = browser::download("chronograph-thread.json", &text) {
            error.set(Some(e));
        }
    };
    let on_file = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        // Reading the file is the app's one asynchronous step: every action
        // waits (disabled) until the thread is replaced or the import failed.
        state.busy.set(Some(format!("importing {}", file.name())));
        let input2 = input.clone();
        browser::read_file(&file, move |result| {
            state.busy.set(None);
            let r = result.and_then(|text| state.import_text(&text));
            error.set(r.err().map(|e| format!("Import failed: {e}")));
            input2.set_value("");
        });
    };
    let reset = move |_| {
        let (id, spec) = (
            state.scenario.get_untracked(),
            state.spec_text.get_untracked(),
        );
        let _ = state.load_spec(&id, &spec);
        error.set(None);
    };
    let about = move || {
        let id = state.scenario.get();
        scenarios::by_id(&id)
            .map(|s| s.about)
            .unwrap_or("A graph from the spec editor.")
    };
    view! {
        <header class="toolbar">
            <h1 class="brand">
                <span class="brand-mark" aria-hidden="true"></span>
                <span class="brand-name">"Chronograph"</span>
                <span class="brand-sub">"checkpoint time travel"</span>
            </h1>
            <label class="field">
                <span>"Scenario"</span>
                <select aria-label="Scenario" disabled=move || !state.idle() on:change=on_pick prop:value=move || state.scenario.get()>
                    {ALL.iter().map(|s| view! {
                        <option value=s.id selected=move || state.scenario.get() == s.id>{s.title}</option>
                    }).collect_view()}
                    <Show when=move || state.scenario.get() == CUSTOM>
                        <option value=CUSTOM selected>"Custom spec"</option>
                    </Show>
                </select>
            </label>
            <button type="button" aria-pressed=move || state.lesson_open.get().to_string()
                on:click=move |_| state.lesson_open.update(|o| *o = !*o)>
                {move || if state.lesson_open.get() { "Lesson ▾" } else { "Lesson ▸" }}
            </button>
            <span class="sep" aria-hidden="true"></span>
            <button type="button" on:click=export title="Download the thread as JSON (the npm package's export format)">"Export"</button>
            <button type="button" disabled=move || !state.idle()
                on:click=move |_| { if let Some(f) = file_ref.get() { f.click(); } }>"Import"</button>
            <input node_ref=file_ref type="file" accept="application/json,.json" class="sr-only"
                aria-label="Import thread file" tabindex="-1" on:change=on_file />
            <button type="button" disabled=move || !state.idle() on:click=reset title="Start an empty thread on this graph">"Reset"</button>
            {move || state.busy.get().map(|b| view! { <span class="busy" role="status">{format!("{b}…")}</span> })}
            {move || error.get().map(|e| view! { <span class="error" role="alert">{e}</span> })}
            {move || state.storage_warning.get().map(|w| view! {
                <span class="storage-warning" role="alert">{w}</span>
            })}
            <span class="grow"></span>
            <span class="note">{about}</span>
        </header>
    }
}
