//! The inspector: the selected snapshot (values as a collapsible tree, next,
//! tasks and interrupts, metadata, ids, parent link, created time), a
//! per-channel diff against the parent or a pinned checkpoint, and the
//! actions that start from it.

use leptos::prelude::*;

use super::actions::Actions;
use super::json_tree::json_tree;
use crate::i18n::{fill, Strings};
use crate::inspect::{diff, ChannelDiff, SnapshotData, TaskStatus};
use crate::session::compact;
use crate::state::{letter, AppState};

/// Selected snapshot on top, actions below.
#[component]
pub fn Inspector() -> impl IntoView {
    let state = expect_context::<AppState>();
    let snap = Memo::new(move |_| state.selected.get().and_then(|i| state.snapshot(i)));
    // Everything below reads signals as it is built: the closure draws the
    // snapshot again when the selection, HEAD, the pin or the language change.
    let body = move || {
        let Some(view) = state.selected_view() else {
            return view! { <p class="empty">{move || state.t().inspector_empty}</p> }.into_any();
        };
        let Some(data) = snap.get() else {
            return view! { <p class="error">{move || state.t().not_in_thread}</p> }.into_any();
        };
        let i = state.selected.get().unwrap_or_default();
        let src = view.source.as_str();
        let is_head = state.head.get() == Some(i);
        let parent_index = data.parent.as_deref().and_then(|p| state.index_of(p));
        let (base_label, base) = diff_base(state, i, parent_index);
        let changes = diff(
            base.as_ref()
                .map_or(&serde_json::Value::Null, |b| &b.values),
            &data.values,
        );
        let t = state.t();
        view! {
            <div class="snapshot">
                <div class="snap-head">
                    <span class=format!("badge src-{src}")><b>{letter(view.source)}</b>" "{src}</span>
                    <span class="snap-label mono">{view.label.clone()}</span>
                    <span class="muted mono">{fill(t.step_n, &[("n", &view.step)])}</span>
                    {is_head.then(|| view! { <span class="head-pill" title=move || state.t().head_note>"HEAD"</span> })}
                    <span class="grow"></span>
                    {pin_button(state, i)}
                </div>
                <dl class="fields">
                    <dt>"id"</dt>
                    <dd class="mono id">{data.id.clone()}</dd>
                    <dt>{t.field_ns}</dt>
                    <dd class="mono" data-testid="namespace" title=t.ns_field_title>
                        {if view.ns.is_empty() { t.ns_root.to_owned() } else { view.ns.clone() }}
                    </dd>
                    <dt>{t.field_parent}</dt>
                    <dd>{parent_link(state, parent_index, data.parent.as_deref())}</dd>
                    <dt>{t.field_created}</dt>
                    <dd class="mono">{data.created_at.clone()}</dd>
                    <dt>"next"</dt>
                    <dd class="mono" data-testid="next">{format!("({})", data.next.join(", "))} {data.next.is_empty().then_some(" ").map(|s| format!("{s}{}", t.done))}</dd>
                    <dt>{t.field_tasks}</dt>
                    <dd>{tasks(t, &data)}</dd>
                </dl>
                <h3>{t.values}</h3>
                <div class="values mono">{json_tree("values".into(), &data.values, 0)}</div>
                <h3>{fill(t.diff_vs, &[("base", &base_label)])}</h3>
                {diff_view(t, changes)}
                <h3>{t.metadata}</h3>
                <pre class="mono code">{serde_json::to_string(&data.metadata).unwrap_or_default()}</pre>
            </div>
        }
        .into_any()
    };
    view! {
        <aside class="panel inspector" aria-label=move || state.t().inspector>
            <h2 class="panel-title">{move || state.t().inspector}</h2>
            {body}
            <Actions/>
        </aside>
    }
}

/// The parent: a link that selects it, its id when it is not in the
/// thread, or "none".
fn parent_link(state: AppState, index: Option<usize>, id: Option<&str>) -> AnyView {
    match (index, id) {
        (Some(pi), _) => {
            let label = state.view(pi).map(|v| v.label).unwrap_or_default();
            view! {
                <button type="button" class="link mono" aria-label=fill(state.t().go_to_parent, &[("label", &label)])
                    on:click=move |_| state.selected.set(Some(pi))>
                    {label.clone()}
                </button>
            }
            .into_any()
        }
        (None, Some(p)) => {
            view! { <span class="muted mono">{p.to_owned()} {state.t().parent_missing}</span> }
                .into_any()
        }
        (None, None) => view! { <span class="muted">{state.t().parent_none}</span> }.into_any(),
    }
}

/// What checkpoint `i` is compared with, named: the pinned checkpoint,
/// else its parent.
fn diff_base(
    state: AppState,
    i: usize,
    parent_index: Option<usize>,
) -> (String, Option<SnapshotData>) {
    let label = |p: usize| state.view(p).map(|v| v.label);
    match state.pinned.get().filter(|&p| p != i) {
        Some(p) => (
            fill(
                state.t().diff_pinned,
                &[("label", &label(p).unwrap_or_default())],
            ),
            state.snapshot(p),
        ),
        None => (
            fill(
                state.t().diff_parent,
                &[(
                    "label",
                    &parent_index
                        .and_then(label)
                        .unwrap_or_else(|| state.t().none_paren.into()),
                )],
            ),
            parent_index.and_then(|p| state.snapshot(p)),
        ),
    }
}

/// Pin (compare others with checkpoint `i`), or Unpin when it is pinned.
fn pin_button(state: AppState, i: usize) -> AnyView {
    if state.pinned.get() == Some(i) {
        view! { <button type="button" class="small-btn" on:click=move |_| state.pinned.set(None)>{state.t().unpin}</button> }.into_any()
    } else {
        view! {
            <button type="button" class="small-btn" title=state.t().pin_title
                on:click=move |_| state.pinned.set(Some(i))>{state.t().pin}</button>
        }
        .into_any()
    }
}

fn tasks(t: &'static Strings, data: &SnapshotData) -> AnyView {
    if data.tasks.is_empty() {
        return view! { <span class="muted">{t.tasks_none}</span> }.into_any();
    }
    let sends = data.tasks.iter().filter(|task| task.arg.is_some()).count();
    // A Send fan-out: say how many tasks the one checkpoint holds.
    let fan_out = (sends > 1).then(|| {
        view! {
            <div class="small muted" data-testid="fan-out">
                {fill(t.send_fan_out, &[("n", &sends)])}
            </div>
        }
    });
    let list = data
        .tasks
        .iter()
        .map(|task| {
            let interrupted = matches!(task.status, TaskStatus::Interrupted(_));
            let status = match &task.status {
                TaskStatus::Interrupted(values) => {
                    let values = values.iter().map(compact).collect::<Vec<_>>().join(", ");
                    fill(t.task_interrupted, &[("values", &values)])
                }
                TaskStatus::Failed(e) => fill(t.task_error, &[("error", e)]),
                TaskStatus::Done(r) => fill(t.task_done, &[("result", &compact(r))]),
                TaskStatus::Pending => t.task_pending.to_owned(),
            };
            let arg = task.arg.as_ref().map(|a| {
                view! { <span class="mono small task-arg" title=t.send_arg_title>{fill(t.send_arg, &[("arg", &compact(a))])}</span> }
            });
            let ns = task.ns.as_ref().map(|ns| {
                view! { <span class="mono small task-ns" title=fill(t.task_ns_title, &[("ns", ns)])>{fill(t.task_ns, &[("ns", &crate::session::short_ns(ns))])}</span> }
            });
            view! {
                <div class="task">
                    <span class="chip mono">{task.name.clone()}</span>
                    {arg}
                    {ns}
                    <span class="mono small" class:interrupt=interrupted>{status}</span>
                </div>
            }
        })
        .collect_view();
    view! { {fan_out} {list} }.into_any()
}

fn diff_view(t: &'static Strings, changes: Vec<ChannelDiff>) -> AnyView {
    if changes.is_empty() {
        return view! { <p class="muted">{t.no_change}</p> }.into_any();
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
