//! Actions on the selected checkpoint: Replay, Fork (opens the dialog),
//! Copy, and Resume when a task is waiting on `interrupt()`. A preview (a dry
//! run on a copy of the thread) says what each would create before it runs
//! and lights the nodes that would run in the topology view.

use leptos::prelude::*;
use serde_json::Value;

use crate::session::{Preview, Session};
use crate::state::AppState;

/// Above this many checkpoints the preview is computed on hover/focus only.
const AUTO_PREVIEW_LIMIT: usize = 400;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Replay,
    Copy,
}

/// Describes a preview in one sentence.
pub fn describe(p: &Preview) -> String {
    if let Some(e) = &p.error {
        return format!("Would fail: {e}");
    }
    if p.checkpoints.is_empty() {
        return "Creates no checkpoint.".into();
    }
    let first = &p.checkpoints[0];
    let root = p.checkpoints.len() - p.in_subgraphs;
    let mut s = format!(
        "New checkpoint{}: {} under {}, step {}, next {}",
        if root == 0 {
            " inside the subgraph"
        } else {
            ""
        },
        first.1.as_str(),
        first.0.clone().unwrap_or_else(|| "(root)".into()),
        first.2,
        crate::inspect::next_text(&first.3),
    );
    if root > 1 {
        s.push_str(&format!("; then {} more", root - 1));
    }
    if root > 0 && p.in_subgraphs > 0 {
        s.push_str(&format!(", and {} inside subgraphs", p.in_subgraphs));
    } else if root == 0 && p.in_subgraphs > 1 {
        s.push_str(&format!("; then {} more", p.in_subgraphs - 1));
    }
    s.push_str(". ");
    if p.will_run.is_empty() {
        s.push_str("Nothing runs.");
    } else {
        s.push_str(&format!("Runs: {}.", p.will_run.join(", ")));
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
            None if !many => Kind::Replay,
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
                state
                    .error
                    .set(Some(format!("Invalid resume value (JSON): {e}")));
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
    view! {
        <section class="actions" aria-label="Actions">
            <h3>{move || if none() {
                view! { "actions: select a checkpoint first" }.into_any()
            } else {
                view! { "actions on " <span class="mono">{label()}</span> }.into_any()
            }}</h3>
            <div class="action">
                <button type="button" class="primary" disabled=root_only
                    on:mouseenter=move |_| hovered.set(Some(Kind::Replay))
                    on:focus=move |_| hovered.set(Some(Kind::Replay))
                    on:click=move |_| replay()>"Replay"</button>
                <div>
                    <code>{move || format!("invoke(None, {})", label())}</code>
                    <div class="muted">"Runs from here with no input: a fork child (step + 1), then the re-run steps. The old branch stays."</div>
                </div>
            </div>
            <Show when=in_subgraph>
                <p class="small muted" data-testid="subgraph-note">
                    "Inside a subgraph (namespace " <span class="mono">{move || state.selected_view().map(|v| crate::session::short_ns(&v.ns)).unwrap_or_default()}</span>
                    "). Fork edits it through the subgraph's config: an update checkpoint in this namespace. "
                    "Replay and Copy start from the parent's checkpoint: a replay there re-runs the subgraph from scratch, in a new namespace."
                </p>
            </Show>
            <div class="action">
                <button type="button" disabled=off on:click=move |_| state.fork_open.set(true)>"Fork"</button>
                <div>
                    <code>{move || format!("update_state({}, values, as_node)", label())}</code>
                    <div class="muted">{move || if in_subgraph() {
                        "Edit the subgraph's state as one of its nodes: an update child (step + 1) inside its namespace. Then Resume from the parent."
                    } else {
                        "Edit the state as a node: an update child (step + 1) whose next is that node's successors; then run it."
                    }}</div>
                </div>
            </div>
            <div class="action">
                <button type="button" disabled=root_only
                    on:mouseenter=move |_| hovered.set(Some(Kind::Copy))
                    on:focus=move |_| hovered.set(Some(Kind::Copy))
                    on:click=move |_| copy()>"Copy"</button>
                <div>
                    <code>{move || format!("update_state({}, None, as_node=\"__copy__\")", label())}</code>
                    <div class="muted">"A fork sibling (same parent), step + 1, same values. Nothing runs."</div>
                </div>
            </div>
            <Show when=move || interrupted.get()>
                <form class="action resume" on:submit=move |ev| { ev.prevent_default(); resume(); }>
                    <button type="submit" class="primary" disabled=move || !state.idle()>"Resume"</button>
                    <div class="grow">
                        <input class="mono grow-input" aria-label="Resume value (JSON)"
                            prop:value=move || resume_text.get()
                            on:input=move |ev| resume_text.set(event_target_value(&ev)) />
                        <code>{move || format!("invoke(Command(resume={}), {})", resume_text.get(), resume_at.get().unwrap_or_else(label))}</code>
                        <Show when=in_subgraph>
                            <div class="muted small">"Resumes from the parent: the paused subgraph continues in the same namespace, from its newest checkpoint."</div>
                        </Show>
                    </div>
                </form>
            </Show>
            <div class="preview" aria-live="polite" data-testid="preview">
                {move || preview.get().map(|(kind, p)| {
                    let name = match kind { Kind::Replay => "Replay", Kind::Copy => "Copy" };
                    view! { <p><b>"Preview · " {name} ": "</b>{describe(&p)}</p> }
                })}
            </div>
            {move || state.error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </section>
    }
}
