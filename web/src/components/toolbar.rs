//! The toolbar: scenario picker, the session actions (export, import,
//! reset) and the language switch. Import opens the Import dialog
//! (`import_dialog.rs`); after an import the toolbar says what was opened.

use chronograph::ImportFormat;
use leptos::prelude::*;

use crate::browser;
use crate::i18n::{fill, Lang, Strings};
use crate::import::Origin;
use crate::scenarios::{self, ALL};
use crate::state::{AppState, CUSTOM, IMPORTED};

/// Where a thread came from, in the language of `t` (`server`: the URL of
/// the server a server thread came from).
pub fn format_name(t: &Strings, origin: Origin, server: Option<&str>) -> String {
    match origin {
        Origin::Chronograph => t.format_chronograph.into(),
        Origin::LangGraph(ImportFormat::AgentServerHistory) => t.format_server.into(),
        Origin::LangGraph(ImportFormat::PythonStateHistory) => t.format_python.into(),
        Origin::LangGraph(ImportFormat::SaverList) => t.format_js.into(),
        Origin::Server => fill(t.format_live_server, &[("url", &server.unwrap_or(""))]),
    }
}

/// Scenario ▾ | Lesson | Export | Import | Reset | … | Language ▾.
#[component]
pub fn Toolbar() -> impl IntoView {
    let state = expect_context::<AppState>();
    // An error is kept with the words it needs, so it follows a language switch.
    let error = RwSignal::new(None::<String>);
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
        if id == IMPORTED {
            return state.t().imported_about;
        }
        scenarios::by_id(&id)
            .map(|s| s.about(state.t()))
            .unwrap_or(state.t().custom_about)
    };
    view! {
        <header class="toolbar">
            <h1 class="brand">
                <span class="brand-mark" aria-hidden="true"></span>
                <span class="brand-name">"Chronograph"</span>
                <span class="brand-sub">{move || state.t().brand_sub}</span>
            </h1>
            <label class="field">
                <span>{move || state.t().scenario}</span>
                <select aria-label=move || state.t().scenario disabled=move || !state.idle() on:change=on_pick prop:value=move || state.scenario.get()>
                    {ALL.iter().map(|s| view! {
                        <option value=s.id selected=move || state.scenario.get() == s.id>{move || s.title(state.t())}</option>
                    }).collect_view()}
                    <Show when=move || state.scenario.get() == CUSTOM>
                        <option value=CUSTOM selected>{move || state.t().custom_spec}</option>
                    </Show>
                    <Show when=move || state.scenario.get() == IMPORTED>
                        <option value=IMPORTED selected>{move || state.t().imported_scenario}</option>
                    </Show>
                </select>
            </label>
            <button type="button" aria-pressed=move || state.lesson_open.get().to_string()
                on:click=move |_| state.lesson_open.update(|o| *o = !*o)>
                {move || if state.lesson_open.get() { state.t().lesson_close } else { state.t().lesson_open }}
            </button>
            <button type="button" aria-pressed=move || state.storage_open.get().to_string()
                on:click=move |_| state.storage_open.update(|o| *o = !*o)>
                {move || if state.storage_open.get() { state.t().storage_close } else { state.t().storage_open }}
            </button>
            <span class="sep" aria-hidden="true"></span>
            <button type="button" on:click=export title=move || state.t().export_title>{move || state.t().export}</button>
            <button type="button" id="import-button" aria-haspopup="dialog" disabled=move || !state.idle()
                on:click=move |_| state.import_open.set(true)>{move || state.t().import}</button>
            <button type="button" id="connect-button" aria-haspopup="dialog" disabled=move || !state.idle()
                on:click=move |_| state.server.show_dialog()>{move || state.t().connect}</button>
            <button type="button" disabled=move || !state.idle() on:click=reset title=move || state.t().reset_title>{move || state.t().reset}</button>
            <select class="lang" aria-label=move || state.t().language title=move || state.t().language
                on:change=move |ev| {
                    if let Some(l) = Lang::parse(&event_target_value(&ev)) {
                        state.choose_lang(l);
                    }
                }
                prop:value=move || state.lang.get().code()>
                {Lang::ALL.iter().map(|l| view! {
                    <option value=l.code() lang=l.html_tag() selected=move || state.lang.get() == *l>{l.native_name()}</option>
                }).collect_view()}
            </select>
            {move || state.busy.get().map(|b| view! { <span class="busy" role="status">{format!("{b}…")}</span> })}
            {move || error.get().map(|text| view! { <span class="error" role="alert">{text}</span> })}
            <WatchStatus/>
            <span class="imported" role="status">{move || state.imported.get().map(|(n, origin)| {
                let t = state.t();
                let url = state.server.opened.with(|o| o.as_ref().map(|(u, _)| u.clone()));
                fill(t.import_opened, &[("n", &n), ("format", &format_name(t, origin, url.as_deref()))])
            })}</span>
            <Show when=move || state.storage_full.get()>
                <span class="storage-warning" role="alert">{move || state.t().storage_full}</span>
            </Show>
            <span class="grow"></span>
            <span class="note">{about}</span>
        </header>
    }
}

/// Whether the opened server thread is watched, and whether someone's run
/// is being followed on it (nothing when no server thread is open).
#[component]
fn WatchStatus() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        state.server.watching.get().map(|following| {
            let t = state.t();
            let text = if following {
                t.watch_following
            } else {
                t.watch_idle
            };
            view! {
                <span class="watch" class:following=following role="status" aria-label=t.watch_label
                    data-testid="watch-status">{text}</span>
            }
        })
    }
}
