//! The inspector: the selected snapshot (values as a collapsible tree, next,
//! tasks and interrupts, metadata, ids, parent link, created time), a
//! per-channel diff against the parent or a pinned checkpoint, and the
//! actions that start from it.

use leptos::prelude::*;

use super::actions::Actions;
use super::json_tree::json_tree;
use crate::inspect::{diff, ChannelDiff, SnapshotData};
use crate::session::compact;
use crate::state::{letter, AppState};

/// Selected snapshot on top, actions below.
#[component]
pub fn Inspector() -> impl IntoView {
    let state = expect_context::<AppState>();
    let snap = Memo::new(move |_| state.selected.get().and_then(|i| state.snapshot(i)));
    let body = move || {
        let Some(view) = state.selected_view() else {
            return view! { <p class="empty">"Select a checkpoint in the tree, or send input to start the thread."</p> }
                .into_any();
        };
        let Some(data) = snap.get() else {
            return view! { <p class="error">"This checkpoint is not in the thread."</p> }
                .into_any();
        };
        let i = state.selected.get().unwrap_or_default();
        let src = view.source.as_str();
        let is_head = state.head.get() == Some(i);
        let parent_index = data.parent.as_deref().and_then(|p| state.index_of(p));
        let parent_link = match (parent_index, &data.parent) {
            (Some(pi), _) => {
                let label = state.view(pi).map(|v| v.label).unwrap_or_default();
                view! {
                    <button type="button" class="link mono" aria-label=format!("Go to parent {label}")
                        on:click=move |_| state.selected.set(Some(pi))>
                        {label.clone()}
                    </button>
                }
                .into_any()
            }
            (None, Some(p)) => {
                view! { <span class="muted mono">{p.clone()} " (not in this thread)"</span> }
                    .into_any()
            }
            (None, None) => {
                view! { <span class="muted">"none (first checkpoint)"</span> }.into_any()
            }
        };
        let pinned = state.pinned.get().filter(|&p| p != i);
        let (base_label, base) = match pinned {
            Some(p) => (
                format!(
                    "pinned {}",
                    state.view(p).map(|v| v.label).unwrap_or_default()
                ),
                state.snapshot(p),
            ),
            None => (
                format!(
                    "parent {}",
                    parent_index
                        .and_then(|p| state.view(p))
                        .map(|v| v.label)
                        .unwrap_or_else(|| "(none)".into())
                ),
                parent_index.and_then(|p| state.snapshot(p)),
            ),
        };
        let changes = diff(
            base.as_ref()
                .map_or(&serde_json::Value::Null, |b| &b.values),
            &data.values,
        );
        let pin_button = if state.pinned.get() == Some(i) {
            view! { <button type="button" class="small-btn" on:click=move |_| state.pinned.set(None)>"Unpin"</button> }.into_any()
        } else {
            view! {
                <button type="button" class="small-btn" title="Pin this checkpoint, then select another to compare the two"
                    on:click=move |_| state.pinned.set(Some(i))>"Pin for diff"</button>
            }
            .into_any()
        };
        view! {
            <div class="snapshot">
                <div class="snap-head">
                    <span class=format!("badge src-{src}")><b>{letter(view.source)}</b>" "{src}</span>
                    <span class="snap-label mono">{view.label.clone()}</span>
                    <span class="muted mono">"step " {view.step}</span>
                    {is_head.then(|| view! { <span class="head-pill" title=super::dag_node::HEAD_NOTE>"HEAD"</span> })}
                    <span class="grow"></span>
                    {pin_button}
                </div>
                <dl class="fields">
                    <dt>"id"</dt>
                    <dd class="mono id">{data.id.clone()}</dd>
                    <dt>"ns"</dt>
                    <dd class="mono" data-testid="namespace" title="checkpoint_ns: \"\" at the root, node:task_id inside a subgraph">
                        {if view.ns.is_empty() { "\"\" (root)".to_owned() } else { view.ns.clone() }}
                    </dd>
                    <dt>"parent"</dt>
                    <dd>{parent_link}</dd>
                    <dt>"created"</dt>
                    <dd class="mono">{data.created_at.clone()}</dd>
                    <dt>"next"</dt>
                    <dd class="mono" data-testid="next">{format!("({})", data.next.join(", "))} {data.next.is_empty().then_some(" done")}</dd>
                    <dt>"tasks"</dt>
                    <dd>{tasks(&data)}</dd>
                </dl>
                <h3>"values"</h3>
                <div class="values mono">{json_tree("values".into(), &data.values, 0)}</div>
                <h3>"diff vs " {base_label}</h3>
                {diff_view(changes)}
                <h3>"metadata"</h3>
                <pre class="mono code">{serde_json::to_string(&data.metadata).unwrap_or_default()}</pre>
            </div>
        }
        .into_any()
    };
    view! {
        <aside class="panel inspector" aria-label="Inspector">
            <h2 class="panel-title">"Inspector"</h2>
            {body}
            <Actions/>
        </aside>
    }
}

fn tasks(data: &SnapshotData) -> AnyView {
    if data.tasks.is_empty() {
        return view! { <span class="muted">"none"</span> }.into_any();
    }
    let sends = data.tasks.iter().filter(|t| t.arg.is_some()).count();
    // A Send fan-out: say how many tasks the one checkpoint holds.
    let fan_out = (sends > 1).then(|| {
        view! {
            <div class="small muted" data-testid="fan-out">
                {format!("Send fan-out: {sends} tasks from one checkpoint, each run with its own argument")}
            </div>
        }
    });
    let list = data
        .tasks
        .iter()
        .map(|t| {
            let status = if !t.interrupts.is_empty() {
                format!(
                    "interrupted: {}",
                    t.interrupts.iter().map(compact).collect::<Vec<_>>().join(", ")
                )
            } else if let Some(e) = &t.error {
                format!("error: {e}")
            } else if let Some(r) = &t.result {
                format!("done: {}", compact(r))
            } else {
                "pending".to_owned()
            };
            let arg = t.arg.as_ref().map(|a| {
                view! { <span class="mono small task-arg" title="The Send's argument: this task's whole input">{format!("Send arg {}", compact(a))}</span> }
            });
            let ns = t.ns.as_ref().map(|ns| {
                view! { <span class="mono small task-ns" title=format!("runs a subgraph; its checkpoints go to namespace {ns}")>{format!("subgraph ns {}", crate::session::short_ns(ns))}</span> }
            });
            view! {
                <div class="task">
                    <span class="chip mono">{t.name.clone()}</span>
                    {arg}
                    {ns}
                    <span class="mono small" class:interrupt=!t.interrupts.is_empty()>{status}</span>
                </div>
            }
        })
        .collect_view();
    view! { {fan_out} {list} }.into_any()
}

fn diff_view(changes: Vec<ChannelDiff>) -> AnyView {
    if changes.is_empty() {
        return view! { <p class="muted">"no change in values"</p> }.into_any();
    }
    view! {
        <ul class="diff mono">
            {changes
                .into_iter()
                .map(|d| {
                    let ch = d.channel().to_owned();
                    match d {
                        ChannelDiff::Added(_, v) => view! { <li class="add"><b>{ch}</b>" + "{compact(&v)}</li> }.into_any(),
                        ChannelDiff::Removed(_, v) => view! { <li class="del"><b>{ch}</b>" − "{compact(&v)}</li> }.into_any(),
                        ChannelDiff::Appended(_, items) => items
                            .iter()
                            .map(|v| view! { <li class="add"><b>{ch.clone()}</b>" += "{compact(v)}</li> })
                            .collect_view()
                            .into_any(),
                        ChannelDiff::Changed(_, a, b) => view! {
                            <li class="chg"><b>{ch}</b>" "<span class="del">{compact(&a)}</span>" → "<span class="add">{compact(&b)}</span></li>
                        }
                        .into_any(),
                    }
                })
                .collect_view()}
        </ul>
    }
    .into_any()
}
