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

use super::step_button::StepButton;
use crate::layout::scrub::{branch_path, position, step};
use crate::state::AppState;

/// Steps per second offered by the speed menu.
const SPEEDS: [(&str, f64); 4] = [("0.5×", 0.5), ("1×", 1.0), ("2×", 2.0), ("4×", 4.0)];

/// The branch being walked and the timer that walks it.
#[derive(Clone, Copy)]
struct Player {
    state: AppState,
    /// The checkpoints of the branch, root to tip (indices).
    path: RwSignal<Vec<usize>>,
    playing: RwSignal<bool>,
    /// Steps per second.
    speed: RwSignal<f64>,
    timer: StoredValue<Option<IntervalHandle>>,
}

impl Player {
    fn new(state: AppState) -> Self {
        let player = Player {
            state,
            path: RwSignal::new(Vec::new()),
            playing: RwSignal::new(false),
            speed: RwSignal::new(1.0),
            timer: StoredValue::new(None),
        };
        player.follow_selection();
        on_cleanup(move || {
            if let Some(h) = player.timer.get_value() {
                h.clear();
            }
        });
        player
    }

    /// Keeps the branch fixed while the selection moves along it (a
    /// root-side ancestor would otherwise pick its own branch); it follows
    /// the selection when the user selects off the branch, and grows when
    /// the thread grows at its tip.
    fn follow_selection(self) {
        let (state, path) = (self.state, self.path);
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
    }

    fn stop(self) {
        if let Some(h) = self.timer.get_value() {
            h.clear();
        }
        self.timer.set_value(None);
        self.playing.set(false);
    }

    /// Selects the checkpoint `delta` steps along the branch (clamped to it).
    fn go(self, delta: isize) {
        let selected = self.state.selected.get_untracked();
        let target = self.path.with_untracked(|p| step(p, selected, delta));
        if target.is_some() {
            self.state.selected.set(target);
        }
    }

    fn at_tip(self) -> bool {
        self.path.with_untracked(|p| p.last().copied()) == self.state.selected.get_untracked()
    }

    fn tick(self) {
        if self.at_tip() {
            self.stop();
        } else {
            self.go(1);
        }
    }

    fn start(self) {
        self.stop();
        // Play from the tip starts over at the root, as a video player does.
        if self.at_tip() {
            self.go(-(isize::MAX));
        }
        let every = Duration::from_secs_f64(1.0 / self.speed.get_untracked());
        if let Ok(h) = set_interval_with_handle(move || self.tick(), every) {
            self.timer.set_value(Some(h));
            self.playing.set(true);
        }
    }
}

/// Play ▸ / pause, step ◂ ▸, jump to root / tip, and a slider over the branch.
#[component]
pub fn Scrubber() -> impl IntoView {
    let state = expect_context::<AppState>();
    let player = Player::new(state);
    let (path, playing) = (player.path, player.playing);
    let len = move || path.with(Vec::len);
    let pos = move || path.with(|p| position(p, state.selected.get()));
    let disabled = Signal::derive(move || len() < 2 || state.busy.get().is_some());
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
        player
            .speed
            .set(event_target_value(&ev).parse().unwrap_or(1.0));
        if playing.get_untracked() {
            player.start();
        }
    };
    let jump = move |delta: isize| {
        Callback::new(move |()| {
            player.stop();
            player.go(delta);
        })
    };

    view! {
        <div class="scrubber" role="group" aria-label=move || state.t().scrub>
            <StepButton name=|t| t.scrub_root glyph="⇤" disabled on_click=jump(-(isize::MAX))/>
            <StepButton name=|t| t.scrub_back glyph="◂" disabled on_click=jump(-1)/>
            <button type="button" class="play"
                title=move || if playing.get() { state.t().scrub_pause } else { state.t().scrub_play_title }
                aria-label=move || if playing.get() { state.t().scrub_pause } else { state.t().scrub_play }
                aria-pressed=move || playing.get().to_string()
                disabled=disabled
                on:click=move |_| if playing.get_untracked() { player.stop() } else { player.start() }>
                {move || if playing.get() { "❚❚" } else { "▶" }}
            </button>
            <StepButton name=|t| t.scrub_forward glyph="▸" disabled on_click=jump(1)/>
            <StepButton name=|t| t.scrub_tip glyph="⇥" disabled on_click=jump(isize::MAX)/>
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
