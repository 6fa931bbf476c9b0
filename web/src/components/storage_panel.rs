//! The storage view: what the thread costs to keep, estimated for
//! LangGraph's SQLite and PostgreSQL savers and for Chronograph's store
//! (`session/storage.rs` has the models), the running total along the
//! selected branch, and a preview of a prune: the checkpoints it would
//! drop are dimmed in the tree, and nothing is deleted.

use chronograph::{plan_prune, Retention};
use leptos::prelude::*;
use std::collections::{BTreeSet, HashMap};

use super::storage_chart::{bytes, StorageChart};
use crate::i18n::fill;
use crate::session::{branch_series, prune_candidates, total, Cost, StoredCheckpoint};
use crate::state::AppState;

/// The retention a picker value and its number describe (`None`: no prune).
pub fn retention(mode: &str, n: u32, now_ms: i64) -> Option<Retention> {
    match mode {
        "latest" => Some(Retention::Latest),
        "last" => Some(Retention::Last(n as usize)),
        "lineage" => Some(Retention::Lineage),
        "newer" => Some(Retention::NewerThan {
            since_ms: now_ms - i64::from(n) * 60_000,
        }),
        _ => None,
    }
}

/// The root-namespace branch ending at `tip`, oldest first.
fn branch_to(stored: &[StoredCheckpoint], tip: &str) -> Vec<String> {
    let parent: HashMap<&str, Option<&str>> = stored
        .iter()
        .filter(|c| c.ns.is_empty())
        .map(|c| (c.id.as_str(), c.parent.as_deref()))
        .collect();
    let mut out = Vec::new();
    let mut at = Some(tip);
    while let Some(id) = at.filter(|id| parent.contains_key(id) && !out.iter().any(|o| o == id)) {
        out.push(id.to_owned());
        at = parent[id];
    }
    out.reverse();
    out
}

/// The three totals of one [`Cost`], in the catalogue's words.
fn cost_args(c: &Cost) -> [(&'static str, String); 3] {
    [
        ("sqlite", bytes(c.sqlite)),
        ("postgres", bytes(c.postgres)),
        ("chronograph", bytes(c.chronograph)),
    ]
}

/// The storage panel (shown while `storage_open`).
#[component]
pub fn StoragePanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let stored = Memo::new(move |_| {
        state.version.track();
        state.session.with_value(|s| s.stored_checkpoints())
    });
    // The branch's tip: the selected root checkpoint, else HEAD.
    let tip = move || {
        state
            .selected_view()
            .filter(|c| c.ns.is_empty())
            .or_else(|| state.head.get().and_then(|i| state.view(i)))
    };
    let series = Signal::derive(move || {
        let ids = tip()
            .map(|t| stored.with(|s| branch_to(s, &t.id)))
            .unwrap_or_default();
        stored.with(|s| branch_series(s, &ids))
    });
    let caption = move || {
        let last = series.get().last().copied().unwrap_or_default();
        let label = tip().map(|t| t.label).unwrap_or_default();
        let [a, b, c] = cost_args(&last);
        fill(
            state.t().storage_chart,
            &[("label", &label), (a.0, &a.1), (b.0, &b.1), (c.0, &c.1)],
        )
    };
    let totals = move || {
        let (count, all) = stored.with(|s| (s.len(), total(s, |_| true)));
        let rows = [
            ("sqlite", state.t().storage_sqlite, all.sqlite),
            ("postgres", state.t().storage_postgres, all.postgres),
            (
                "chronograph",
                state.t().storage_chronograph,
                all.chronograph,
            ),
        ];
        view! {
            <p class="small">{fill(state.t().storage_thread, &[("count", &count)])}</p>
            <ul class="storage-legend">
                {rows.into_iter().map(|(class, name, value)| view! {
                    <li class=class><span class="swatch" aria-hidden="true"></span><span>{name}</span><strong>{bytes(value)}</strong></li>
                }).collect_view()}
            </ul>
        }
    };
    view! {
        <section class="panel-section storage" aria-label=move || state.t().storage_panel>
            <h2>{move || state.t().storage_title}</h2>
            <Show when=move || stored.with(|s| !s.is_empty()) fallback=move || view! { <p class="small">{move || state.t().storage_empty}</p> }>
                {totals}
                <StorageChart series/>
                <p class="small caption">{caption}</p>
                <PrunePreview stored/>
            </Show>
            <p class="small note">{move || state.t().storage_note}</p>
        </section>
    }
}

/// The prune picker and what the chosen prune would do; the checkpoints
/// it would drop go to [`AppState::pruned`] (cleared when it closes).
#[component]
fn PrunePreview(
    /// The thread's checkpoints, sized.
    stored: Memo<Vec<StoredCheckpoint>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let mode = RwSignal::new("none".to_owned());
    let n = RwSignal::new(3_u32);
    on_cleanup(move || state.pruned.set(BTreeSet::new()));
    let plan = Memo::new(move |_| {
        let now = (crate::clock::browser_clock().now_unix_nanos() / 1_000_000) as i64;
        let r = retention(&mode.get(), n.get(), now)?;
        Some(stored.with(|s| plan_prune(&prune_candidates(s), &r)))
    });
    Effect::new(move |_| {
        let drop = plan.with(|p| {
            p.as_ref()
                .map(|p| p.drop.iter().cloned().collect())
                .unwrap_or_default()
        });
        state.pruned.set(drop);
    });
    let result = move || {
        let p = plan.get()?;
        let keep: BTreeSet<&String> = p.keep.iter().collect();
        let after = stored.with(|s| total(s, |c| keep.contains(&c.id)));
        let [a, b, c] = cost_args(&after);
        let (drop, all) = (p.drop.len(), p.drop.len() + p.keep.len());
        Some(fill(
            state.t().prune_result,
            &[
                ("drop", &drop),
                ("all", &all),
                (a.0, &a.1),
                (b.0, &b.1),
                (c.0, &c.1),
            ],
        ))
    };
    let options = move || {
        let t = state.t();
        [("none", t.prune_none), ("latest", t.prune_latest), ("last", t.prune_last), ("lineage", t.prune_lineage), ("newer", t.prune_newer)]
            .into_iter()
            .map(|(value, name)| view! { <option value=value selected=move || mode.get() == value>{name}</option> })
            .collect_view()
    };
    let needs_n = move || matches!(mode.get().as_str(), "last" | "newer");
    view! {
        <div class="prune-picker">
            <label class="field">
                <span>{move || state.t().prune_preview}</span>
                <select aria-label=move || state.t().prune_preview on:change=move |ev| mode.set(event_target_value(&ev)) prop:value=move || mode.get()>
                    {options}
                </select>
            </label>
            <Show when=needs_n>
                <label class="field">
                    <span>{move || state.t().prune_n}</span>
                    <input type="number" min="1" aria-label=move || state.t().prune_n prop:value=move || n.get().to_string()
                        on:input=move |ev| n.set(event_target_value(&ev).parse().unwrap_or(1).max(1))/>
                </label>
            </Show>
        </div>
        <Show when=move || plan.with(Option::is_some)>
            <p class="small prune-result" role="status">{result}</p>
            <p class="small">{move || state.t().prune_rule}</p>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picker_names_each_retention() {
        assert_eq!(retention("none", 3, 0), None);
        assert_eq!(retention("latest", 3, 0), Some(Retention::Latest));
        assert_eq!(retention("last", 3, 0), Some(Retention::Last(3)));
        assert_eq!(retention("lineage", 3, 0), Some(Retention::Lineage));
        assert_eq!(
            retention("newer", 2, 600_000),
            Some(Retention::NewerThan { since_ms: 480_000 })
        );
    }
}
