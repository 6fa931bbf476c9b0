//! The framed groups of expanded subgraph runs in the checkpoint tree. The
//! rows, lanes and borders come from [`crate::layout::frames`]; this only
//! draws them and wires the legend to collapse its group.

use crate::i18n::fill;
use leptos::prelude::*;

use crate::layout::LABEL_COLUMN_WIDTH;
use crate::state::AppState;

/// The framed groups of expanded subgraph runs: a border around each
/// namespace's lanes and rows (through the label column, so a group reads as
/// one block of rows), its namespace as a legend (click to collapse), and a
/// dashed link from the checkpoint whose task ran it.
#[component]
pub fn Frames(label_x: Signal<f64>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let frames = Memo::new(move |_| {
        state.layout.with(|l| {
            state.frames.with(|fs| {
                fs.iter()
                    .map(|f| {
                        let owner_lane = l.node(f.owner).map_or(0, |n| n.lane);
                        let owner_id = state
                            .checkpoints
                            .with(|c| c.get(f.owner).map(|v| v.id.clone()))
                            .unwrap_or_default();
                        (f.clone(), f.rect(), f.link_d(owner_lane), owner_id)
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    view! {
        <g class="frames">
            <For each=move || frames.get() key=|f| (f.0.ns.clone(), f.0.first, f.0.last, f.1.w as i64) let:f>
                {
                    let (frame, r, link, owner) = f;
                    let legend = format!("▾ {}", crate::session::short_ns(&frame.ns));
                    let width = 12.0 + 6.2 * legend.chars().count() as f64;
                    // Nested frames end a little further left than their parent's.
                    let inset = 4.0 * (frame.depth - 1) as f64;
                    let box_w = move || {
                        (label_x.get() + LABEL_COLUMN_WIDTH + 6.0 - inset - r.x).max(r.w).to_string()
                    };
                    view! {
                        <g class="frame" data-ns=frame.ns.clone() data-depth=frame.depth.to_string()>
                            <path class="frame-link" d=link></path>
                            <rect class="frame-box" x=r.x.to_string() y=r.y.to_string()
                                width=box_w height=r.h.to_string() rx="8"></rect>
                            <g class="frame-legend" role="button" aria-label={
                                    // The short namespace the legend shows, so the name holds the visible text.
                                    let ns = crate::session::short_ns(&frame.ns);
                                    move || fill(state.t().collapse_ns, &[("ns", &ns)])
                                }
                                tabindex="0"
                                on:click={ let owner = owner.clone(); move |_| state.toggle_expanded(&owner) }
                                // Enter and Space collapse it; they must not reach the tree, where Enter replays.
                                on:keydown=move |ev| if ev.key() == "Enter" || ev.key() == " " {
                                    ev.prevent_default();
                                    ev.stop_propagation();
                                    state.toggle_expanded(&owner);
                                }>
                                <title>{ let ns = frame.ns.clone(); move || fill(state.t().ns_title, &[("ns", &ns)]) }</title>
                                <rect x=(r.x + 6.0).to_string() y=(r.y - 7.0).to_string() width=width.to_string() height="14" rx="7"></rect>
                                <text x=(r.x + 12.0).to_string() y=r.y.to_string() dy="0.34em">{legend}</text>
                            </g>
                        </g>
                    }
                }
            </For>
        </g>
    }
}
