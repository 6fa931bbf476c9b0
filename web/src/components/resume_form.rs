//! Resume, shown while a task of the selected checkpoint (or, inside a
//! subgraph, of the root checkpoint whose task ran it) waits on
//! `interrupt()`: the value to resume with, as JSON, and the call it makes.

use leptos::prelude::*;
use serde_json::Value;

use crate::i18n::fill;
use crate::session::Action;
use crate::state::AppState;

/// `invoke(Command(resume=value), at)` with a box for the value.
#[component]
pub fn ResumeForm() -> impl IntoView {
    let state = expect_context::<AppState>();
    let resume_text = RwSignal::new("true".to_owned());
    let in_subgraph = move || state.selected_view().is_some_and(|v| !v.ns.is_empty());
    // The label of the checkpoint a resume runs from, while it waits.
    let resume_at = Memo::new(move |_| {
        let v = state.selected_view()?;
        state.version.track();
        state.session.with_value(|s| {
            let target = s.resume_target(&v.id);
            let data = crate::inspect::snapshot(s, &target)?;
            let label = s.labels().get(&target).cloned().unwrap_or_default();
            // An imported history keeps the interrupt as LangGraph recorded it.
            (data.interrupted() || s.recorded_interrupt(&target)).then_some(label)
        })
    });
    let interrupted = Memo::new(move |_| resume_at.get().is_some());
    let resume = move || {
        let Some(v) = state.selected_view_untracked() else {
            return;
        };
        let value: Value = match serde_json::from_str(&resume_text.get_untracked()) {
            Ok(v) => v,
            Err(e) => {
                state.error.set(Some(fill(
                    state.t_untracked().invalid_resume,
                    &[("error", &e)],
                )));
                return;
            }
        };
        state.perform(Action::Resume { id: v.id, value }, |_| ());
    };
    let at = move || {
        resume_at.get().unwrap_or_else(|| {
            state
                .selected_view()
                .map(|v| v.label)
                .unwrap_or_else(|| "X".to_owned())
        })
    };
    view! {
        <Show when=move || interrupted.get()>
            <form class="action resume" on:submit=move |ev| { ev.prevent_default(); resume(); }>
                <button type="submit" class="primary" disabled=move || !state.idle() || state.needs_graph.get()>{move || state.t().resume}</button>
                <div class="grow">
                    <input class="mono grow-input" aria-label=move || state.t().resume_value
                        prop:value=move || resume_text.get()
                        on:input=move |ev| resume_text.set(event_target_value(&ev)) />
                    <code>{move || format!("invoke(Command(resume={}), {})", resume_text.get(), at())}</code>
                    <Show when=in_subgraph>
                        <div class="muted small">{move || state.t().resume_from_parent}</div>
                    </Show>
                </div>
            </form>
        </Show>
    }
}
