//! New input for the thread: the message box (chat graphs) or a JSON input
//! box (the others). Both continue from HEAD (chat: from the branch the chat
//! view shows). Bad JSON is an inline error and nothing runs.

use leptos::prelude::*;
use serde_json::Value;

use super::error_line::ErrorLine;
use crate::chat;
use crate::i18n::fill;
use crate::scenarios;
use crate::state::AppState;

/// The input row above the tree.
#[component]
pub fn RunBar() -> impl IntoView {
    let state = expect_context::<AppState>();
    let message = RwSignal::new(String::new());
    let input = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    // Prefill the JSON box with the scenario's first input.
    Effect::new(move |_| {
        let id = state.scenario.get();
        let text = scenarios::by_id(&id)
            .map(|s| s.input.to_owned())
            .unwrap_or_else(|| "{}".into());
        input.set(text);
        error.set(None);
    });
    let send = move || {
        let text = message.get_untracked();
        if text.trim().is_empty() {
            error.set(Some(state.t().type_first.into()));
            return;
        }
        let tip = state.chat_tip.get_untracked();
        match state.act(|s| chat::send(s, tip.as_deref(), &text)) {
            Ok(_) => {
                message.set(String::new());
                error.set(None);
            }
            Err(e) => error.set(Some(e)),
        }
    };
    let run = move || {
        let text = input.get_untracked();
        let value: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                error.set(Some(fill(state.t().invalid_json, &[("error", &e)])));
                return;
            }
        };
        match state.act(|s| s.invoke(value, None)) {
            Ok(_) => error.set(None),
            Err(e) => error.set(Some(e)),
        }
    };
    view! {
        <div class="run-bar">
            <Show
                when=move || state.is_chat.get()
                fallback=move || {
                    view! {
                        <form class="run-row" on:submit=move |ev| { ev.prevent_default(); run(); }>
                            <label class="grow">
                                <span class="sr-only">{move || state.t().input_json}</span>
                                <input
                                    class="mono grow-input"
                                    aria-label=move || state.t().input_json
                                    prop:value=move || input.get()
                                    on:input=move |ev| input.set(event_target_value(&ev))
                                />
                            </label>
                            <button type="submit" class="primary" disabled=move || !state.idle()>{move || state.t().run}</button>
                        </form>
                    }
                }
            >
                <form class="run-row" on:submit=move |ev| { ev.prevent_default(); send(); }>
                    <input
                        class="grow-input"
                        aria-label=move || state.t().message
                        placeholder=move || state.t().message_placeholder
                        prop:value=move || message.get()
                        on:input=move |ev| message.set(event_target_value(&ev))
                    />
                    <button type="submit" class="primary" disabled=move || !state.idle()>{move || state.t().send}</button>
                </form>
            </Show>
            <p class="muted small run-note">
                {move || match state.chat_tip.get() {
                    Some(_) if state.is_chat.get() => state.t().sends_to_tip,
                    _ => state.t().continues_from_head,
                }}
            </p>
            {move || error.get().map(|e| view! { <ErrorLine text=e/> })}
        </div>
    }
}
