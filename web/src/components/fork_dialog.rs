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

use super::error_line::ErrorLine;
use super::fork_explanation::ForkExplanation;
use super::fork_heading::ForkHeading;
use super::modal::Modal;
use super::server_prediction::ServerPrediction;
use crate::i18n::fill;
use crate::session::{short_ns, Action, Session};
use crate::state::AppState;

/// The selected checkpoint's state as JSON, to start the update from.
fn prefill(state: AppState) -> String {
    state
        .selected
        .get_untracked()
        .and_then(|i| state.snapshot(i))
        .map(|d| serde_json::to_string_pretty(&d.values).unwrap_or_default())
        .unwrap_or_else(|| "{}".into())
}

/// The "As node" choices at namespace `ns`, and the assistant's graph
/// there: a server thread's choices are its assistant's graph's nodes when
/// the server gave the graph, else those of the graph written from the history.
fn as_node_choices(
    state: AppState,
    ns: &str,
    on_server: bool,
) -> (Option<crate::server::ServerGraph>, Vec<String>) {
    let served = on_server
        .then(|| state.server.graph.get_untracked())
        .flatten()
        .and_then(|g| g.at(ns).cloned());
    let nodes = match &served {
        Some(g) => g.nodes.clone(),
        None => state.session.with_value(|s| {
            s.spec_at(ns)
                .map(|g| g.nodes.keys().cloned().collect())
                .unwrap_or_default()
        }),
    };
    (served, nodes)
}

/// The modal Fork dialog on the selected checkpoint (the app renders it
/// while `fork_open`; it is built anew each time it opens).
#[component]
pub fn ForkDialog() -> impl IntoView {
    let state = expect_context::<AppState>();
    let Some(target) = state.selected_view_untracked() else {
        state.fork_open.set(false);
        return ().into_any();
    };
    let text = RwSignal::new(prefill(state));
    let as_node = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    // Inside a subgraph the update goes through the subgraph's config, so
    // as_node names one of the subgraph's nodes.
    let in_subgraph = !target.ns.is_empty();
    let needs_graph = state.needs_graph.get_untracked();
    let on_server = state.session.with_value(Session::on_server);
    let (served, nodes) = as_node_choices(state, &target.ns, on_server);
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
    let served_run = served.clone();
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
        // What the server's graph says runs next, to check against the server.
        state.server.predicted.set(
            served_run
                .as_ref()
                .zip(node.as_ref())
                .filter(|_| and_run)
                .map(|(g, n)| g.next_after(n)),
        );
        let action = Action::Update {
            id: id.clone(),
            values,
            as_node: node,
            and_run,
        };
        // On a server thread the answer comes later; the dialog stays open
        // (its buttons off while the server works) and shows a refusal.
        state.perform(action, move |result| match result {
            Ok(()) => {
                state.error.set(None);
                state.fork_open.set(false);
            }
            Err(e) => {
                let _ = error.try_set(Some(e));
            }
        });
    };
    let apply2 = apply.clone();
    let close = Callback::new(move |()| state.fork_open.set(false));
    // The dialog is rebuilt when it opens; a language switch while it is open
    // re-renders these closures.
    let t = move || state.t();
    view! {
        <Modal labelled_by="fork-title" on_close=close>
            <ForkHeading label=target.label ns=in_subgraph.then(|| short_ns(&target.ns))/>
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
            <ForkExplanation id=target.id values=parsed as_node in_subgraph needs_graph on_server/>
            {served.clone().map(|g| view! { <ServerPrediction graph=g as_node/> })}
            {move || error.get().map(|e| view! { <ErrorLine text=e/> })}
            <div class="dialog-buttons">
                <button type="button" on:click=move |_| close.run(())>{move || t().cancel}</button>
                <button type="button" disabled=move || parsed.get().is_err() || !state.idle() on:click=move |_| apply(false)>{move || t().apply}</button>
                {(!in_subgraph && !needs_graph).then(|| view! {
                    <button type="button" class="primary" disabled=move || parsed.get().is_err() || !state.idle() on:click=move |_| apply2(true)>{move || t().apply_and_run}</button>
                })}
            </div>
        </Modal>
    }
    .into_any()
}
