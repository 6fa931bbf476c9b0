//! Actions on the selected checkpoint: Replay, Fork (opens the dialog),
//! Copy, and Resume when a task is waiting on `interrupt()`. A preview (a dry
//! run on a copy of the thread) says what each would create before it runs
//! and lights the nodes that would run in the topology view. On a thread
//! imported from a history (no graph yet), Replay explains why it waits and
//! offers to attach a graph spec.

use leptos::prelude::*;
use serde_json::Value;

use super::error_line::ErrorLine;
use crate::i18n::{fill, pieces, Piece, Strings};
use crate::session::{Preview, Session};
use crate::state::AppState;

/// Above this many checkpoints the preview is computed on hover/focus only.
const AUTO_PREVIEW_LIMIT: usize = 400;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Replay,
    Copy,
}

/// Describes a preview in one sentence, in the language of `t`.
pub fn describe(t: &Strings, p: &Preview) -> String {
    if let Some(e) = &p.error {
        // The app's own refusal (an imported thread without its graph) is in the catalogue.
        let e = if e.contains(crate::session::NEEDS_GRAPH) {
            t.needs_graph
        } else {
            e
        };
        return fill(t.would_fail, &[("error", &e)]);
    }
    if p.checkpoints.is_empty() {
        return t.creates_none.into();
    }
    let first = &p.checkpoints[0];
    let root = p.checkpoints.len() - p.in_subgraphs;
    let parent = first.parent_label.clone().unwrap_or_else(|| t.root.into());
    let next = crate::inspect::next_shown(t, &first.view.next);
    let mut s = fill(
        if root == 0 {
            t.new_checkpoint_sub
        } else {
            t.new_checkpoint
        },
        &[
            ("source", &first.view.source.as_str()),
            ("parent", &parent),
            ("step", &first.view.step),
            ("next", &next),
        ],
    );
    if root > 1 {
        s.push_str(&fill(t.then_more, &[("n", &(root - 1))]));
    }
    if root > 0 && p.in_subgraphs > 0 {
        s.push_str(&fill(t.and_in_subgraphs, &[("n", &p.in_subgraphs)]));
    } else if root == 0 && p.in_subgraphs > 1 {
        s.push_str(&fill(t.then_more, &[("n", &(p.in_subgraphs - 1))]));
    }
    s.push_str(t.period);
    if p.will_run.is_empty() {
        s.push_str(t.nothing_runs);
    } else {
        s.push_str(&fill(t.runs, &[("nodes", &p.will_run.join(", "))]));
    }
    s
}

/// The actions box under the inspector.
#[component]
pub fn Actions() -> impl IntoView {
    let state = expect_context::<AppState>();
    let hovered = RwSignal::new(None::<Kind>);
    let resume_text = RwSignal::new("true".to_owned());
    // Inside a subgraph, replay and copy are the parent's business; resume
    // runs from the root checkpoint whose task ran the subgraph.
    let in_subgraph = move || state.selected_view().is_some_and(|v| !v.ns.is_empty());
    let resume_at = Memo::new(move |_| {
        let v = state.selected_view()?;
        state.version.track();
        state.session.with_value(|s| {
            let target = s.resume_target(&v.id);
            let data = crate::inspect::snapshot(s, &target)?;
            let label = s.labels().get(&target).cloned().unwrap_or_default();
            data.interrupted().then_some(label)
        })
    });
    let interrupted = Memo::new(move |_| resume_at.get().is_some());
    let preview = Memo::new(move |_| {
        let v = state.selected_view()?;
        if !v.ns.is_empty() {
            return None;
        }
        state.version.track();
        let many = state.checkpoints.with(Vec::len) > AUTO_PREVIEW_LIMIT;
        let kind = match hovered.get() {
            Some(k) => k,
            None if !many && !state.needs_graph.get() => Kind::Replay,
            None => return None,
        };
        let id = v.id.clone();
        let p = state.session.with_value(|s: &Session| match kind {
            Kind::Replay => s.preview(move |c| c.replay(&id)),
            Kind::Copy => s.preview(move |c| c.copy(&id)),
        });
        Some((kind, p))
    });
    Effect::new(move |_| {
        let run = preview.with(|p| {
            p.as_ref()
                .map(|(_, p)| p.will_run.clone())
                .unwrap_or_default()
        });
        state.will_run.set(run);
    });
    let replay = move || {
        if let Some(v) = state.selected_view_untracked() {
            let _ = state.act(|s| s.replay(&v.id));
        }
    };
    let copy = move || {
        if let Some(v) = state.selected_view_untracked() {
            let _ = state.act(|s| s.copy(&v.id));
        }
    };
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
        let _ = state.act(|s| s.resume(value, Some(&v.id)));
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
                pieces(state.t().actions_on).into_iter().map(|p| match p {
                    Piece::Text(s) => s.into_any(),
                    Piece::Slot(_) => view! { <span class="mono">{label()}</span> }.into_any(),
                }).collect_view().into_any()
            }}</h3>
            <div class="action">
                <button type="button" class="primary" disabled=runs_off
                    aria-describedby=move || state.needs_graph.get().then_some("needs-graph")
                    on:mouseenter=move |_| hovered.set(Some(Kind::Replay))
                    on:focus=move |_| hovered.set(Some(Kind::Replay))
                    on:click=move |_| replay()>{move || state.t().replay}</button>
                <div>
                    <code>{move || format!("invoke(None, {})", label())}</code>
                    <div class="muted">{move || state.t().replay_note}</div>
                </div>
            </div>
            <Show when=move || state.needs_graph.get()>
                <div class="needs-graph" data-testid="needs-graph">
                    <p id="needs-graph" class="small">{move || fill(state.t().needs_graph, &[("nodes", &nodes())])}</p>
                    <button type="button" on:click=move |_| state.spec_open.set(true)>{move || state.t().attach_spec_open}</button>
                </div>
            </Show>
            <Show when=in_subgraph>
                <p class="small muted" data-testid="subgraph-note">
                    {move || pieces(state.t().subgraph_note).into_iter().map(|p| match p {
                        Piece::Text(s) => s.into_any(),
                        Piece::Slot(_) => view! { <span class="mono">{state.selected_view().map(|v| crate::session::short_ns(&v.ns)).unwrap_or_default()}</span> }.into_any(),
                    }).collect_view()}
                </p>
            </Show>
            <div class="action">
                <button type="button" disabled=off on:click=move |_| state.fork_open.set(true)>{move || state.t().fork}</button>
                <div>
                    <code>{move || format!("update_state({}, values, as_node)", label())}</code>
                    <div class="muted">{move || if in_subgraph() {
                        state.t().fork_note_sub
                    } else {
                        state.t().fork_note
                    }}</div>
                </div>
            </div>
            <div class="action">
                <button type="button" disabled=root_only
                    on:mouseenter=move |_| hovered.set(Some(Kind::Copy))
                    on:focus=move |_| hovered.set(Some(Kind::Copy))
                    on:click=move |_| copy()>{move || state.t().copy}</button>
                <div>
                    <code>{move || format!("update_state({}, None, as_node=\"__copy__\")", label())}</code>
                    <div class="muted">{move || state.t().copy_note}</div>
                </div>
            </div>
            <Show when=move || interrupted.get()>
                <form class="action resume" on:submit=move |ev| { ev.prevent_default(); resume(); }>
                    <button type="submit" class="primary" disabled=move || !state.idle() || state.needs_graph.get()>{move || state.t().resume}</button>
                    <div class="grow">
                        <input class="mono grow-input" aria-label=move || state.t().resume_value
                            prop:value=move || resume_text.get()
                            on:input=move |ev| resume_text.set(event_target_value(&ev)) />
                        <code>{move || format!("invoke(Command(resume={}), {})", resume_text.get(), resume_at.get().unwrap_or_else(label))}</code>
                        <Show when=in_subgraph>
                            <div class="muted small">{move || state.t().resume_from_parent}</div>
                        </Show>
                    </div>
                </form>
            </Show>
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
