//! The chat view (graphs with a `messages` channel): the transcript of the
//! HEAD chain (or of the branch picked with ‹ i/n ›), with "regenerate" on AI
//! messages, "edit" on human messages and branch switchers, each doing the
//! engine calls of [`crate::chat`].

use leptos::prelude::*;

use crate::chat::{self, ChatMessage};
use crate::i18n::fill;
use crate::state::AppState;

/// The transcript panel.
#[component]
pub fn ChatView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let editing = RwSignal::new(None::<(usize, String)>);
    let tip = Memo::new(move |_| state.chat_tip.get().or_else(|| state.head_id()));
    let transcript = Memo::new(move |_| {
        state.version.track();
        let Some(tip) = tip.get() else {
            return Vec::new();
        };
        state.session.with_value(|s| chat::transcript(s, &tip))
    });
    let switch = move |index: usize, step: isize| {
        let Some(t) = tip.get_untracked() else { return };
        let target = state
            .session
            .with_value(|s| chat::switch_branch(s, &t, index, step));
        if let Some(target) = target {
            state.selected.set(state.index_of(&target));
            state.chat_tip.set(Some(target));
        }
    };
    let regenerate = move |index: usize| {
        let Some(t) = tip.get_untracked() else { return };
        let _ = state.act(|s| chat::regenerate(s, &t, index));
    };
    let save_edit = move || {
        let Some((index, text)) = editing.get_untracked() else {
            return;
        };
        let Some(t) = tip.get_untracked() else { return };
        if state.act(|s| chat::edit(s, &t, index, &text)).is_ok() {
            editing.set(None);
        }
    };
    let row = move |m: ChatMessage| {
        let index = m.index;
        let is_ai = m.kind == "ai";
        let switcher = m.branch.map(|(p, n)| view! {
            <span class="switcher" role="group" aria-label=move || fill(state.t().chat_branches_of, &[("n", &(index + 1))])>
                <button type="button" class="tiny" aria-label=move || state.t().chat_prev_branch on:click=move |_| switch(index, -1)>"‹"</button>
                <span class="mono">{format!("{}/{}", p + 1, n)}</span>
                <button type="button" class="tiny" aria-label=move || state.t().chat_next_branch on:click=move |_| switch(index, 1)>"›"</button>
            </span>
        });
        let is_editing = move || editing.with(|e| e.as_ref().is_some_and(|(i, _)| *i == index));
        let content = m.content.clone();
        view! {
            <li class=format!("msg msg-{}", m.kind)>
                <div class="msg-head">
                    <span class="who mono">{m.kind.clone()}</span>
                    {switcher}
                    <span class="grow"></span>
                    {if is_ai {
                        view! { <button type="button" class="tiny" title=move || state.t().chat_regenerate_title
                            on:click=move |_| regenerate(index)>{move || state.t().chat_regenerate}</button> }.into_any()
                    } else {
                        let c = content.clone();
                        view! { <button type="button" class="tiny" title=move || state.t().chat_edit_title
                            on:click=move |_| editing.set(Some((index, c.clone())))>{move || state.t().chat_edit}</button> }.into_any()
                    }}
                </div>
                <Show when=is_editing fallback=move || view! { <div class="text">{content.clone()}</div> }>
                    <form class="edit-row" on:submit=move |ev| { ev.prevent_default(); save_edit(); }>
                        <input aria-label=move || state.t().chat_edited class="grow-input"
                            prop:value=move || editing.get().map(|e| e.1).unwrap_or_default()
                            on:input=move |ev| { let v = event_target_value(&ev); editing.update(|e| if let Some(e) = e { e.1 = v; }); } />
                        <button type="submit" class="tiny">{move || state.t().save}</button>
                        <button type="button" class="tiny" on:click=move |_| editing.set(None)>{move || state.t().cancel}</button>
                    </form>
                </Show>
            </li>
        }
    };
    view! {
        <section class="chat" aria-label=move || state.t().chat>
            <h2 class="panel-title">{move || {
                let t = state.t();
                let chain = if state.chat_tip.get().is_some() { t.chat_other_branch } else { t.chat_head_chain };
                fill(t.chat_title, &[("chain", &chain)])
            }}</h2>
            <ol class="messages">
                {move || transcript.get().into_iter().map(row).collect_view()}
            </ol>
            <Show when=move || transcript.with(Vec::is_empty)>
                <p class="muted">{move || state.t().chat_empty}</p>
            </Show>
        </section>
    }
}
