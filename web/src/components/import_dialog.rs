//! The Import dialog: paste a thread's JSON or open a file. Chronograph's
//! own export and LangGraph's three formats are accepted
//! ([`crate::import::open`]). An error names where it is (line, column,
//! JSON path), selects that spot in the text, and replaces nothing.
//! Escape closes; Ctrl+Enter imports the pasted text.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::error_line::ErrorLine;
use crate::browser;
use crate::i18n::fill;
use crate::import::{utf16_offset, Problem};
use crate::state::AppState;

/// The modal Import dialog (rendered while `import_open`).
#[component]
pub fn ImportDialog() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <Show when=move || state.import_open.get()>
            <ImportBody/>
        </Show>
    }
}

/// An import error, with the file it came from (`None`: pasted text).
#[derive(Clone)]
struct Failure {
    file: Option<String>,
    problem: Problem,
}

#[component]
fn ImportBody() -> impl IntoView {
    let state = expect_context::<AppState>();
    let text = RwSignal::new(String::new());
    let failure = RwSignal::new(None::<Failure>);
    let textarea = NodeRef::<leptos::html::Textarea>::new();
    let file_ref = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(t) = textarea.get() {
            let _ = t.focus();
        }
    });
    let close = move || {
        state.import_open.set(false);
        browser::focus("import-button");
    };
    // Shows the failure and selects where it is in the text.
    let fail = move |file: Option<String>, problem: Problem, source: &str| {
        if let (Some(at), Some(t)) = (&problem.at, textarea.get_untracked()) {
            let pos = utf16_offset(source, at.line, at.column) as u32;
            // A file's text is shown in the box: put it there now, before selecting in it.
            if t.value() != source {
                t.set_value(source);
            }
            let _ = t.focus();
            let _ = t.set_selection_range(pos.saturating_sub(1), pos);
        }
        failure.set(Some(Failure { file, problem }));
    };
    let submit = move || {
        let t = text.get_untracked();
        match state.import_text(&t) {
            Ok(_) => close(),
            Err(p) => fail(None, p, &t),
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
        let name = file.name();
        // Reading the file is the app's one asynchronous step: every action
        // waits (disabled) until the thread is replaced or the import failed.
        state
            .busy
            .set(Some(fill(state.t().importing, &[("name", &name)])));
        browser::read_file(&file, move |result| {
            state.busy.set(None);
            input.set_value("");
            match result {
                Err(e) => failure.set(Some(Failure {
                    file: Some(name),
                    problem: Problem::new(e),
                })),
                Ok(content) => match state.import_text(&content) {
                    Ok(_) => close(),
                    Err(p) => {
                        // The file's text goes into the box, the mistake selected.
                        text.set(content.clone());
                        fail(Some(name), p, &content);
                    }
                },
            }
        });
    };
    let t = move || state.t();
    view! {
        <div class="backdrop" on:click=move |_| close()></div>
        <div class="dialog import-dialog" role="dialog" aria-modal="true" aria-labelledby="import-title"
            aria-describedby="import-intro"
            on:keydown=move |ev| {
                if ev.key() == "Escape" {
                    ev.prevent_default();
                    close();
                } else if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                    ev.prevent_default();
                    submit();
                }
            }>
            <h2 id="import-title">{move || t().import_title}</h2>
            <p id="import-intro" class="muted small">{move || t().import_intro}</p>
            <label class="stack">
                <span>{move || t().import_paste}</span>
                <textarea node_ref=textarea class="mono" rows="12" spellcheck="false"
                    aria-label=move || t().import_paste
                    aria-invalid=move || failure.with(|f| f.is_some()).to_string()
                    prop:value=move || text.get()
                    on:input=move |ev| { text.set(event_target_value(&ev)); failure.set(None); }></textarea>
            </label>
            {move || failure.get().map(|f| {
                let at = f.problem.at.clone();
                view! {
                    <div class="import-error" data-testid="import-error">
                        <p class="error-where">
                            {f.file.map(|name| view! { <b>{fill(t().import_error_file, &[("name", &name)])}</b>" " })}
                            {at.map(|at| view! {
                                <span>{fill(t().import_error_at, &[("line", &at.line), ("column", &at.column)])}</span>
                                {at.path.map(|p| view! { " " <span class="mono">{fill(t().import_error_path, &[("path", &p)])}</span> })}
                            })}
                        </p>
                        <ErrorLine text=f.problem.message.clone()/>
                        <p class="muted small">{t().import_kept}</p>
                    </div>
                }
            })}
            <div class="dialog-buttons">
                <button type="button" class="left" disabled=move || !state.idle()
                    on:click=move |_| { if let Some(f) = file_ref.get() { f.click(); } }>{move || t().import_open_file}</button>
                <input node_ref=file_ref type="file" accept="application/json,.json" class="sr-only"
                    aria-label=move || t().import_file tabindex="-1" on:change=on_file />
                <span class="grow"></span>
                <button type="button" on:click=move |_| close()>{move || t().cancel}</button>
                <button type="button" class="primary"
                    disabled=move || !state.idle() || text.with(|t| t.trim().is_empty())
                    on:click=move |_| submit()>{move || t().import_submit}</button>
            </div>
        </div>
    }
}
