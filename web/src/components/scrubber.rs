//! The history player under the tree (Redux DevTools' slider, Replay.io's
//! timeline): it walks the selected branch from its root to its tip,
//! selecting each checkpoint in turn, so the inspector shows its values and
//! its diff against the parent. Play, pause, step and a slider, all
//! operable from the keyboard; the speed is chosen in steps per second.
//!
//! Which checkpoints make the branch is [`crate::layout::scrub`]'s pure code;
//! this component only holds the timer and the controls.

use leptos::leptos_dom::helpers::IntervalHandle;
use leptos::prelude::*;
use std::time::Duration;

use crate::layout::scrub::{branch_path, position, step};
use crate::state::AppState;

/// Steps per second offered by the speed menu.
const SPEEDS: [(&str, f64); 4] = [("0.5×", 0.5), ("1×", 1.0), ("2×", 2.0), ("4×", 4.0)];

/// Play ▸ / pause, step ◂ ▸, jump to root / tip, and a slider over the branch.
#[component]
pub fn Scrubber() -> impl IntoView {
    let state = expect_context::<AppState>();
    // The branch being walked. It stays fixed while the selection moves
    // along it (a root-side ancestor would otherwise pick its own branch);
    // it follows the selection when the user selects off the branch, and
    // grows when the thread grows at its tip.
    let path = RwSignal::new(Vec::<usize>::new());
    Effect::new(move |_| {
        let selected = state.selected.get();
        state.layout.with(|layout| {
            let anchor = match (selected, path.with_untracked(|p| position(p, selected))) {
                (Some(_), Some(_)) => path.with_untracked(|p| p.last().copied()),
                (sel, None) => sel,
                _ => None,
            };
            let next = anchor.map(|a| branch_path(layout, a)).unwrap_or_default();
            if path.with_untracked(|p| *p != next) {
                path.set(next);
            }
        });
    });

    let playing = RwSignal::new(false);
    let speed = RwSignal::new(1.0_f64);
    let timer = StoredValue::new(None::<IntervalHandle>);
    let stop = move || {
        if let Some(h) = timer.get_value() {
            h.clear();
        }
        timer.set_value(None);
        playing.set(false);
    };
    let go = move |delta: isize| {
        let target = path.with_untracked(|p| step(p, state.selected.get_untracked(), delta));
        if target.is_some() {
            state.selected.set(target);
        }
    };
    let at_tip =
        move || path.with_untracked(|p| p.last().copied()) == state.selected.get_untracked();
    let tick = move || {
        if at_tip() {
            stop();
        } else {
            go(1);
        }
    };
    let start = move || {
        stop();
        // Play from the tip starts over at the root, as a video player does.
        if at_tip() {
            go(-(isize::MAX));
        }
        let every = Duration::from_secs_f64(1.0 / speed.get_untracked());
        if let Ok(h) = set_interval_with_handle(tick, every) {
            timer.set_value(Some(h));
            playing.set(true);
        }
    };
    on_cleanup(move || {
        if let Some(h) = timer.get_value() {
            h.clear();
        }
    });

    let len = move || path.with(Vec::len);
    let pos = move || path.with(|p| position(p, state.selected.get()));
    let disabled = move || len() < 2 || state.busy.get().is_some();
    let pos_text = move || match pos() {
        Some(at) => format!("{} / {}", at + 1, len()),
        None => format!("– / {}", len()),
    };
    let value_text = move || {
        let label = state.selected_view().map(|v| v.label).unwrap_or_default();
        format!("{label}, {}", pos_text())
    };
    let on_slider = move |ev: leptos::ev::Event| {
        let at: usize = event_target_value(&ev).parse().unwrap_or(0);
        if let Some(i) = path.with_untracked(|p| p.get(at).copied()) {
            state.selected.set(Some(i));
        }
    };
    let on_speed = move |ev: leptos::ev::Event| {
        speed.set(event_target_value(&ev).parse().unwrap_or(1.0));
        if playing.get_untracked() {
            start();
        }
    };

    view! {
        <div class="scrubber" role="group" aria-label=move || state.t().scrub>
            <button type="button" title=move || state.t().scrub_root aria-label=move || state.t().scrub_root
                disabled=disabled on:click=move |_| { stop(); go(-(isize::MAX)); }>"⇤"</button>
            <button type="button" title=move || state.t().scrub_back aria-label=move || state.t().scrub_back
                disabled=disabled on:click=move |_| { stop(); go(-1); }>"◂"</button>
            <button type="button" class="play"
                title=move || if playing.get() { state.t().scrub_pause } else { state.t().scrub_play_title }
                aria-label=move || if playing.get() { state.t().scrub_pause } else { state.t().scrub_play }
                aria-pressed=move || playing.get().to_string()
                disabled=disabled
                on:click=move |_| if playing.get_untracked() { stop() } else { start() }>
                {move || if playing.get() { "❚❚" } else { "▶" }}
            </button>
            <button type="button" title=move || state.t().scrub_forward aria-label=move || state.t().scrub_forward
                disabled=disabled on:click=move |_| { stop(); go(1); }>"▸"</button>
            <button type="button" title=move || state.t().scrub_tip aria-label=move || state.t().scrub_tip
                disabled=disabled on:click=move |_| { stop(); go(isize::MAX); }>"⇥"</button>
            <input type="range" class="grow" min="0"
                max=move || len().saturating_sub(1).to_string()
                prop:value=move || pos().unwrap_or(0).to_string()
                aria-label=move || state.t().scrub_position aria-valuetext=value_text
                disabled=disabled on:input=on_slider/>
            <span class="muted mono" data-testid="scrub-position">{pos_text}</span>
            <select aria-label=move || state.t().scrub_speed title=move || state.t().scrub_speed_title on:change=on_speed>
                {SPEEDS.iter().map(|(name, v)| view! {
                    <option value=v.to_string() selected=*v == 1.0>{*name}</option>
                }).collect_view()}
            </select>
        </div>
    }
}
