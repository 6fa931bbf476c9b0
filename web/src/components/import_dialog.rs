//! The Import dialog: paste a thread's JSON or open a file. Chronograph's
//! own export and LangGraph's three formats are accepted
//! ([`crate::import::open`]). An error names where it is (line, column,
//! JSON path), selects that spot in the text, and replaces nothing.
//! Escape closes; Ctrl+Enter imports the pasted text.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::error_line::ErrorLine;
use super::modal::Modal;
use crate::browser;
use crate::i18n::fill;
use crate::import::{utf16_offset, Problem};
use crate::state::AppState;

/// An import error, with the file it came from (`None`: pasted text).
#[derive(Clone)]
struct Failure {
    file: Option<String>,
    problem: Problem,
}

/// The dialog's state and what its buttons do.
#[derive(Clone, Copy)]
struct Importer {
    state: AppState,
    /// The pasted text (or the text of a file that failed).
    text: RwSignal<String>,
    failure: RwSignal<Option<Failure>>,
    textarea: NodeRef<leptos::html::Textarea>,
    close: Callback<()>,
}

impl Importer {
    /// Shows the failure and selects where it is in the text.
    fn fail(self, file: Option<String>, problem: Problem, source: &str) {
        if let (Some(at), Some(t)) = (&problem.at, self.textarea.get_untracked()) {
            let pos = utf16_offset(source, at.line, at.column) as u32;
            // A file's text is shown in the box: put it there now, before selecting in it.
            if t.value() != source {
                t.set_value(source);
            }
            let _ = t.focus();
            let _ = t.set_selection_range(pos.saturating_sub(1), pos);
        }
        self.failure.set(Some(Failure { file, problem }));
    }

    /// Imports the pasted text.
    fn submit(self) {
        let t = self.text.get_untracked();
        match self.state.import_text(&t) {
            Ok(_) => self.close.run(()),
            Err(p) => self.fail(None, p, &t),
        }
    }

    /// Imports the file chosen in the file input that sent `ev`.
    fn open_file(self, ev: &leptos::ev::Event) {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        let (state, name) = (self.state, file.name());
        // Reading the file is the app's one asynchronous step: every action
        // waits (disabled) until the thread is replaced or the import failed.
        state
            .busy
            .set(Some(fill(state.t().importing, &[("name", &name)])));
        browser::read_file(&file, move |result| {
            state.busy.set(None);
            input.set_value("");
            match result {
                Err(e) => self.failure.set(Some(Failure {
                    file: Some(name),
                    problem: Problem::new(e),
                })),
                Ok(content) => match state.import_text(&content) {
                    Ok(_) => self.close.run(()),
                    Err(p) => {
                        // The file's text goes into the box, the mistake selected.
                        self.text.set(content.clone());
                        self.fail(Some(name), p, &content);
                    }
                },
            }
        });
    }
}

/// The modal Import dialog (the app renders it while `import_open`; it is
/// built anew each time it opens).
#[component]
pub fn ImportDialog() -> impl IntoView {
    let state = expect_context::<AppState>();
    let importer = Importer {
        state,
        text: RwSignal::new(String::new()),
        failure: RwSignal::new(None),
        textarea: NodeRef::new(),
        close: Callback::new(move |()| {
            state.import_open.set(false);
            browser::focus("import-button");
        }),
    };
    let Importer {
        text,
        failure,
        textarea,
        close,
        ..
    } = importer;
    let file_ref = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(t) = textarea.get() {
            let _ = t.focus();
        }
    });
    let submit = move || importer.submit();
    // Ctrl+Enter imports the pasted text.
    let on_key = Callback::new(move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            submit();
        }
    });
    let t = move || state.t();
    view! {
        <Modal labelled_by="import-title" class="import-dialog" described_by="import-intro"
            on_close=close on_key=on_key>
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
                    aria-label=move || t().import_file tabindex="-1" on:change=move |ev| importer.open_file(&ev) />
                <span class="grow"></span>
                <button type="button" on:click=move |_| close.run(())>{move || t().cancel}</button>
                <button type="button" class="primary"
                    disabled=move || !state.idle() || text.with(|t| t.trim().is_empty())
                    on:click=move |_| submit()>{move || t().import_submit}</button>
            </div>
        </Modal>
    }
}
