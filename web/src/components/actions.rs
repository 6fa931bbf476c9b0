//! Actions on the selected checkpoint: Replay, Fork (opens the dialog),
//! Copy, and Resume when a task is waiting on `interrupt()`. A preview (a dry
//! run on a copy of the thread) says what each would create before it runs
//! and lights the nodes that would run in the topology view. On a thread
//! imported from a history (no graph yet), Replay explains why it waits and
//! offers to attach a graph spec. On a server thread the same buttons run
//! on the server ([`AppState::perform`]), and "Fork into a new thread"
//! makes a copy of the thread there whose latest checkpoint is the selected one's.

use leptos::prelude::*;

use super::action_row::ActionRow;
use super::error_line::ErrorLine;
use super::resume_form::ResumeForm;
use super::sentence::mono_sentence;
use crate::i18n::fill;
use crate::inspect::describe;
use crate::session::{short_ns, Action, Preview, Session};
use crate::state::AppState;

/// Above this many checkpoints the preview is computed on hover/focus only.
const AUTO_PREVIEW_LIMIT: usize = 400;

/// The actions a preview is shown for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Replay,
    Copy,
}

/// The actions box under the inspector.
#[component]
pub fn Actions() -> impl IntoView {
    let state = expect_context::<AppState>();
    let hovered = RwSignal::new(None::<Kind>);
    // Inside a subgraph, replay and copy are the parent's business; resume
    // runs from the root checkpoint whose task ran the subgraph.
    let in_subgraph = move || state.selected_view().is_some_and(|v| !v.ns.is_empty());
    let preview = Memo::new(move |_| preview(state, hovered));
    Effect::new(move |_| {
        let run = preview.with(|p| {
            p.as_ref()
                .map(|(_, p)| p.will_run.clone())
                .unwrap_or_default()
        });
        state.will_run.set(run);
    });
    let run = move |kind: Kind| {
        if let Some(v) = state.selected_view_untracked() {
            let action = match kind {
                Kind::Replay => Action::Replay(v.id),
                Kind::Copy => Action::Copy(v.id),
            };
            state.perform(action, |_| ());
        }
    };
    // With nothing selected the calls read as templates on "X".
    let label = move || {
        state
            .selected_view()
            .map(|v| v.label)
            .unwrap_or_else(|| "X".to_owned())
    };
    let none = move || state.selected.get().is_none();
    // Disabled with nothing selected, and while something is in flight.
    let off = move || none() || !state.idle();
    let root_only = move || off() || in_subgraph();
    // Runs wait for the graph on a thread imported from a history.
    let runs_off = move || root_only() || state.needs_graph.get();
    let nodes = move || {
        state.version.track();
        state.history_nodes().join(", ")
    };
    view! {
        <section class="actions" aria-label=move || state.t().actions>
            <h3>{move || if none() {
                state.t().actions_none.into_any()
            } else {
                mono_sentence(state.t().actions_on, &label()).into_any()
            }}</h3>
            <ActionRow call=move || format!("invoke(None, {})", label()) note=move || state.t().replay_note>
                <button type="button" class="primary" disabled=runs_off
                    aria-describedby=move || state.needs_graph.get().then_some("needs-graph")
                    on:mouseenter=move |_| hovered.set(Some(Kind::Replay))
                    on:focus=move |_| hovered.set(Some(Kind::Replay))
                    on:click=move |_| run(Kind::Replay)>{move || state.t().replay}</button>
            </ActionRow>
            <Show when=move || state.needs_graph.get()>
                <div class="needs-graph" data-testid="needs-graph">
                    <p id="needs-graph" class="small">{move || fill(state.t().needs_graph, &[("nodes", &nodes())])}</p>
                    <button type="button" on:click=move |_| state.spec_open.set(true)>{move || state.t().attach_spec_open}</button>
                </div>
            </Show>
            <Show when=in_subgraph>
                <p class="small muted" data-testid="subgraph-note">
                    {move || {
                        let ns = state.selected_view().map(|v| short_ns(&v.ns)).unwrap_or_default();
                        mono_sentence(state.t().subgraph_note, &ns)
                    }}
                </p>
            </Show>
            <ActionRow call=move || format!("update_state({}, values, as_node)", label())
                note=move || if in_subgraph() { state.t().fork_note_sub } else { state.t().fork_note }>
                <button type="button" disabled=off on:click=move |_| state.fork_open.set(true)>{move || state.t().fork}</button>
            </ActionRow>
            <ActionRow call=move || format!("update_state({}, None, as_node=\"__copy__\")", label()) note=move || state.t().copy_note>
                <button type="button" disabled=root_only
                    on:mouseenter=move |_| hovered.set(Some(Kind::Copy))
                    on:focus=move |_| hovered.set(Some(Kind::Copy))
                    on:click=move |_| run(Kind::Copy)>{move || state.t().copy}</button>
            </ActionRow>
            <Show when=move || state.on_server()>
                <ActionRow call=move || format!("POST /threads/…/copy; update_state({}, None, as_node=\"__copy__\")", label())
                    note=move || state.t().fork_new_thread_note>
                    <button type="button" disabled=root_only
                        on:click=move |_| {
                            if let Some(v) = state.selected_view_untracked() {
                                state.perform(Action::NewThread(v.id), |_| ());
                            }
                        }>{move || state.t().fork_new_thread}</button>
                </ActionRow>
            </Show>
            <ResumeForm/>
            <div class="preview" aria-live="polite" data-testid="preview">
                {move || preview.get().map(|(kind, p)| {
                    let t = state.t();
                    let name = match kind { Kind::Replay => t.replay, Kind::Copy => t.copy };
                    view! { <p><b>{fill(t.preview_of, &[("action", &name)])}</b>{describe(t, &p)}</p> }
                })}
            </div>
            {move || state.error.get().map(|e| view! { <ErrorLine text=e/> })}
        </section>
    }
}

/// The preview of the hovered action (Replay when none is and the thread
/// is small enough to preview on every selection), on a root checkpoint.
fn preview(state: AppState, hovered: RwSignal<Option<Kind>>) -> Option<(Kind, Preview)> {
    let v = state.selected_view()?;
    if !v.ns.is_empty() {
        return None;
    }
    // A server thread's runs are the server's: the page's copy of its graph
    // has no code to dry-run.
    if state.on_server() {
        return None;
    }
    let many = state.checkpoints.with(Vec::len) > AUTO_PREVIEW_LIMIT;
    let kind = match hovered.get() {
        Some(k) => k,
        None if !many && !state.needs_graph.get() => Kind::Replay,
        None => return None,
    };
    let id = v.id;
    let p = state.session.with_value(|s: &Session| match kind {
        Kind::Replay => s.preview(move |c| c.replay(&id)),
        Kind::Copy => s.preview(move |c| c.copy(&id)),
    });
    Some((kind, p))
}
