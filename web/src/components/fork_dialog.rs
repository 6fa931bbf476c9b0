//! The Fork dialog: a JSON editor ("State update (JSON)") prefilled from the
//! selected state, an "As node" select, a live explanation (computed by a
//! dry run on a copy of the thread) of the resulting `next`, which nodes are
//! skipped and which will run, and "Apply" (update only) / "Apply and run".
//! Escape closes it. Bad JSON or an unknown node is an inline error. On a
//! thread imported from a history the `as_node` choices are the nodes the
//! history names, and only Apply (`update_state`) is offered until a graph
//! spec is attached.

use leptos::prelude::*;
use serde_json::Value;

use super::actions::describe;
use super::error_line::ErrorLine;
use crate::i18n::{fill, pieces, Piece};
use crate::inspect::next_shown;
use crate::state::AppState;

/// The modal Fork dialog (rendered while `fork_open`).
#[component]
pub fn ForkDialog() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <Show when=move || state.fork_open.get()>
            <ForkBody/>
        </Show>
    }
}

#[component]
fn ForkBody() -> impl IntoView {
    let state = expect_context::<AppState>();
    let Some(target) = state.selected_view_untracked() else {
        state.fork_open.set(false);
        return ().into_any();
    };
    let prefill = state
        .selected
        .get_untracked()
        .and_then(|i| state.snapshot(i))
        .map(|d| serde_json::to_string_pretty(&d.values).unwrap_or_default())
        .unwrap_or_else(|| "{}".into());
    let text = RwSignal::new(prefill);
    let as_node = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    // Inside a subgraph the update goes through the subgraph's config, so
    // as_node names one of the subgraph's nodes.
    let in_subgraph = !target.ns.is_empty();
    let needs_graph = state.needs_graph.get_untracked();
    let nodes: Vec<String> = state.session.with_value(|s| {
        s.spec_at(&target.ns)
            .map(|g| g.nodes.keys().cloned().collect())
            .unwrap_or_default()
    });
    let textarea = NodeRef::<leptos::html::Textarea>::new();
    Effect::new(move |_| {
        if let Some(t) = textarea.get() {
            let _ = t.focus();
        }
    });
    let parsed = Memo::new(move |_| {
        serde_json::from_str::<Value>(&text.get())
            .map_err(|e| fill(state.t().invalid_json, &[("error", &e)]))
    });
    let id = target.id.clone();
    let explanation = Memo::new(move |_| {
        let values = parsed.get().ok()?;
        let node = as_node.get();
        let node = (!node.is_empty()).then_some(node);
        let (id1, id2, id3) = (id.clone(), id.clone(), id.clone());
        let (v1, v2, n1, n2) = (values.clone(), values, node.clone(), node);
        state.session.with_value(|s| {
            let update = s.preview(move |c| c.update(&id1, Some(v1), n1.as_deref()));
            if in_subgraph || needs_graph {
                // No run from here: a paused subgraph resumes from its parent,
                // and an imported history has no nodes' code.
                return Some((update.clone(), update.clone(), update));
            }
            let run = s.preview(move |c| c.fork_and_run(&id2, Some(v2), n2.as_deref()));
            let replay = s.preview(move |c| c.replay(&id3));
            Some((update, run, replay))
        })
    });
    let id = target.id.clone();
    let apply = move |and_run: bool| {
        let values = match parsed.get_untracked() {
            Ok(v) => v,
            Err(e) => {
                error.set(Some(e));
                return;
            }
        };
        let node = as_node.get_untracked();
        let node = (!node.is_empty()).then_some(node);
        let id = id.clone();
        let result = state.act(move |s| {
            if and_run {
                s.fork_and_run(&id, Some(values), node.as_deref())
            } else {
                s.update(&id, Some(values), node.as_deref())
            }
        });
        match result {
            Ok(_) => {
                state.error.set(None);
                state.fork_open.set(false);
            }
            Err(e) => error.set(Some(e)),
        }
    };
    let apply2 = apply.clone();
    let close = move || state.fork_open.set(false);
    let label = target.label.clone();
    // The dialog is rebuilt when it opens; a language switch while it is open
    // re-renders these closures.
    let t = move || state.t();
    let ns = crate::session::short_ns(&target.ns);
    let call = format!("update_state({label}, values, as_node)");
    view! {
        <div class="backdrop" on:click=move |_| close()></div>
        <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="fork-title"
            on:keydown=move |ev| if ev.key() == "Escape" { ev.prevent_default(); close(); }>
            <h2 id="fork-title">{
                let label = label.clone();
                move || pieces(t().fork_title).into_iter().map(|p| match p {
                    Piece::Text(s) => s.into_any(),
                    Piece::Slot(_) => view! { <span class="mono">{label.clone()}</span> }.into_any(),
                }).collect_view()
            }
                {in_subgraph.then(|| {
                    let ns = ns.clone();
                    view! { <span class="muted small">{move || pieces(t().fork_through_sub).into_iter().map(|p| match p {
                        Piece::Text(s) => s.into_any(),
                        Piece::Slot(_) => view! { <span class="mono">{ns.clone()}</span> }.into_any(),
                    }).collect_view()}</span> }
                })}
            </h2>
            <p class="muted small">
                {
                    let label = label.clone();
                    move || pieces(t().fork_intro).into_iter().map(|p| match p {
                        Piece::Text(s) => s.into_any(),
                        Piece::Slot("call") => view! { <code>{call.clone()}</code> }.into_any(),
                        Piece::Slot(_) => view! { <span class="mono">{label.clone()}</span> }.into_any(),
                    }).collect_view()
                }
            </p>
            <label class="stack">
                <span>{move || t().state_update}</span>
                <textarea node_ref=textarea class="mono" rows="9" aria-label=move || t().state_update
                    prop:value=move || text.get()
                    on:input=move |ev| { text.set(event_target_value(&ev)); error.set(None); }></textarea>
            </label>
            {move || parsed.get().err().map(|e| view! { <ErrorLine text=e/> })}
            <label class="stack">
                <span>{move || t().as_node}</span>
                <select aria-label=move || t().as_node on:change=move |ev| as_node.set(event_target_value(&ev))>
                    <option value="" selected>{move || t().as_node_auto}</option>
                    {nodes.into_iter().map(|n| view! { <option value=n.clone()>{n.clone()}</option> }).collect_view()}
                </select>
            </label>
            <div class="explain" aria-live="polite" data-testid="fork-explanation">
                {move || explanation.get().map(|(update, run, replay)| {
                    if let Some(e) = update.error.clone() {
                        return view! { <ErrorLine text=e/> }.into_any();
                    }
                    let next = update.checkpoints.first().map(|c| next_shown(t(), &c.view.next)).unwrap_or_default();
                    let skipped: Vec<String> = replay.will_run.iter().filter(|n| !run.will_run.contains(n)).cloned().collect();
                    if needs_graph {
                        return view! {
                            <ul>
                                <li>{t().apply_effect} {describe(t(), &update)}</li>
                                <li>{t().resulting_next} <b class="mono">{next}</b></li>
                                <li>{t().fork_run_needs_graph}</li>
                            </ul>
                        }.into_any();
                    }
                    if in_subgraph {
                        return view! {
                            <ul>
                                <li>{t().apply_effect} {describe(t(), &update)}</li>
                                <li>{t().resulting_next_sub} <b class="mono">{next}</b></li>
                                <li>{t().then_resume}</li>
                            </ul>
                        }.into_any();
                    }
                    view! {
                        <ul>
                            <li>{t().apply_effect} {describe(t(), &update)}</li>
                            <li>{t().resulting_next} <b class="mono">{next}</b></li>
                            <li>{t().skipped} <span class="mono">{if skipped.is_empty() { t().nothing.to_owned() } else { skipped.join(", ") }}</span></li>
                            <li>{t().apply_run_effect} {describe(t(), &run)}</li>
                        </ul>
                    }.into_any()
                })}
            </div>
            {move || error.get().map(|e| view! { <ErrorLine text=e/> })}
            <div class="dialog-buttons">
                <button type="button" on:click=move |_| close()>{move || t().cancel}</button>
                <button type="button" disabled=move || parsed.get().is_err() on:click=move |_| apply(false)>{move || t().apply}</button>
                {(!in_subgraph && !needs_graph).then(|| view! {
                    <button type="button" class="primary" disabled=move || parsed.get().is_err() on:click=move |_| apply2(true)>{move || t().apply_and_run}</button>
                })}
            </div>
        </div>
    }
    .into_any()
}
