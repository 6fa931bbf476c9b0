//! The inspector: the selected snapshot (values, next, tasks, metadata, diff
//! vs parent) and the actions that can start from it.

use leptos::prelude::*;

use crate::sample::{diff_messages, Checkpoint, DiffLine, Message};
use crate::state::AppState;

/// Selected snapshot on top, actions below.
#[component]
pub fn Inspector() -> impl IntoView {
    let state = expect_context::<AppState>();
    let body = move || match state.selected_checkpoint() {
        None => view! { <p class="empty">"Select a checkpoint in the tree."</p> }.into_any(),
        Some(c) => {
            let parent = c.parent.as_deref().and_then(|p| {
                state
                    .thread
                    .with(|t| t.iter().position(|x| x.id == p).map(|i| (i, t[i].clone())))
            });
            let is_head = state.head() == state.selected.get();
            snapshot(c, parent, is_head, state).into_any()
        }
    };
    view! {
        <aside class="panel inspector" aria-label="Inspector">
            <h2 class="panel-title">"Inspector"</h2>
            {body}
        </aside>
    }
}

fn snapshot(
    c: Checkpoint,
    parent: Option<(usize, Checkpoint)>,
    is_head: bool,
    state: AppState,
) -> impl IntoView {
    let src = c.source.as_str();
    let diff = diff_messages(
        parent.as_ref().map_or(&[][..], |(_, p)| &p.messages[..]),
        &c.messages,
    );
    let parent_link = match &parent {
        Some((i, p)) => {
            let i = *i;
            view! {
                <button type="button" class="link mono" on:click=move |_| state.selected.set(Some(i))>
                    {p.label.clone()}
                </button>
                <span class="muted mono">" " {p.short_id().to_owned()} "…"</span>
            }
            .into_any()
        }
        None if c.parent.is_some() => {
            view! { <span class="muted">"not in this thread"</span> }.into_any()
        }
        None => view! { <span class="muted">"none (first checkpoint)"</span> }.into_any(),
    };
    let tasks = if c.next.is_empty() {
        view! { <span class="muted">"none"</span> }.into_any()
    } else {
        c.next
            .iter()
            .map(|n| view! { <span class="chip mono">{n.clone()}</span> })
            .collect_view()
            .into_any()
    };
    let metadata = format!(
        "{{\"source\": \"{src}\", \"step\": {}, \"parents\": {{}}}}",
        c.step
    );
    let label = c.label.clone();

    view! {
        <div class="snapshot">
            <div class="snap-head">
                <span class=format!("badge src-{src}")>
                    <b>{c.source.letter()}</b>
                    " "
                    {src}
                </span>
                <span class="snap-label mono">{c.label.clone()}</span>
                <span class="muted mono">"step " {c.step}</span>
                {is_head.then(|| view! { <span class="head-pill" title="The newest checkpoint: a run without a checkpoint_id continues from here.">"HEAD"</span> })}
            </div>
            <dl class="fields">
                <dt>"id"</dt>
                <dd class="mono id">{c.id.clone()}</dd>
                <dt>"parent"</dt>
                <dd>{parent_link}</dd>
                <dt>"created"</dt>
                <dd class="mono">{c.created_at.clone()}</dd>
                <dt>"next"</dt>
                <dd class="mono">{if c.next.is_empty() { "() done".to_owned() } else { format!("({})", c.next.join(", ")) }}</dd>
                <dt>"tasks"</dt>
                <dd>{tasks}</dd>
            </dl>
            <h3>"values · messages"</h3>
            {messages(&c.messages)}
            <h3>"diff vs parent"</h3>
            {diff_view(diff)}
            <h3>"metadata"</h3>
            <pre class="mono code">{metadata}</pre>
        </div>
        {actions(label)}
    }
}

fn messages(list: &[Message]) -> impl IntoView {
    if list.is_empty() {
        return view! { <p class="muted">"(empty)"</p> }.into_any();
    }
    view! {
        <ol class="messages">
            {list
                .iter()
                .map(|m| {
                    view! {
                        <li class=format!("msg msg-{}", m.kind)>
                            <span class="who mono">{m.kind}</span>
                            <span class="text">{m.content.clone()}</span>
                        </li>
                    }
                })
                .collect_view()}
        </ol>
    }
    .into_any()
}

fn diff_view(diff: Vec<DiffLine>) -> impl IntoView {
    if diff.is_empty() {
        return view! { <p class="muted">"no change in values"</p> }.into_any();
    }
    view! {
        <ul class="diff mono">
            {diff
                .into_iter()
                .map(|d| {
                    let (class, sign, m) = match d {
                        DiffLine::Added(m) => ("add", "+", m),
                        DiffLine::Removed(m) => ("del", "−", m),
                    };
                    view! {
                        <li class=class>
                            <span class="sign">{sign}</span>
                            {format!("{}: {}", m.kind, m.content)}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
    .into_any()
}

fn actions(label: String) -> impl IntoView {
    let rows = [
        (
            "Replay",
            format!("invoke(None, {label})"),
            format!("a fork child of {label}, then the re-run steps"),
        ),
        (
            "Fork",
            format!("update_state({label}, values, as_node)"),
            format!("an update child of {label}, then run it"),
        ),
        (
            "Copy",
            format!("update_state({label}, None, as_node=\"__copy__\")"),
            format!("a fork sibling of {label}"),
        ),
    ];
    view! {
        <div class="actions">
            <h3>"actions"</h3>
            {rows
                .into_iter()
                .map(|(name, call, effect)| {
                    view! {
                        <div class="action">
                            <button type="button" disabled title="Runs once the engine is wired in">
                                {name}
                            </button>
                            <div>
                                <code>{call}</code>
                                <div class="muted">{effect}</div>
                            </div>
                        </div>
                    }
                })
                .collect_view()}
        </div>
    }
}
