//! One checkpoint of the tree: a focusable button (role, accessible name
//! "Checkpoint c3, step 2, loop, next: reply") with its circle (colour and
//! letter by source) and its row's text (label, step, next, HEAD badge).

use leptos::prelude::*;
use leptos::reactive::computed::Selector;

use crate::i18n::fill;
use crate::inspect::{checkpoint_name, next_shown, next_text, short_id};
use crate::layout::{Point, NODE_RADIUS, ROW_HEIGHT};
use crate::state::letter;
use chronograph::Source;

/// Offsets of the label column's fields from its left edge (world units).
const STEP_DX: f64 = 48.0;
const NEXT_DX: f64 = 124.0;
const HEAD_DX: f64 = 200.0;
const RUNS_DX: f64 = 248.0;

/// Everything a node draws, as plain data.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeView {
    /// Index in the thread (= row).
    pub index: usize,
    /// The checkpoint id.
    pub id: String,
    /// `c0`, `c1`, …
    pub label: String,
    /// What created the checkpoint.
    pub source: Source,
    /// `metadata.step`.
    pub step: i64,
    /// `next` names.
    pub next: Vec<String>,
    /// Creation time.
    pub created_at: String,
    /// World-space centre.
    pub center: Point,
    /// The parent is not in the thread.
    pub dangling: bool,
    /// Its checkpoint namespace (`""` at the root).
    pub ns: String,
    /// The subgraph nodes its tasks ran (one per namespace), for the
    /// expand toggle; empty when none ran.
    pub runs: Vec<String>,
}

/// Selection, HEAD, pin and "just created" as per-key selectors, so a change
/// touches only the nodes it concerns.
#[derive(Clone)]
pub struct Marks {
    /// Selected index.
    pub selected: Selector<Option<usize>>,
    /// HEAD index.
    pub head: Selector<Option<usize>>,
    /// Pinned index.
    pub pinned: Selector<Option<usize>>,
}

/// Draws one checkpoint. `label_x` is the world x of the label column.
#[component]
pub fn DagNode(
    node: NodeView,
    marks: Marks,
    #[prop(into)] label_x: Signal<f64>,
    #[prop(into)] fresh: Signal<bool>,
    on_select: Callback<usize>,
) -> impl IntoView {
    let state = expect_context::<crate::state::AppState>();
    let i = node.index;
    let (sel, head, pin) = (marks.selected, marks.head, marks.pinned);
    let selected = Signal::derive(move || sel.selected(&Some(i)));
    let headed = Signal::derive(move || head.selected(&Some(i)));
    let is_selected = move || selected.get();
    let is_head = move || headed.get();
    let is_pinned = move || pin.selected(&Some(i));
    let Point { x, y } = node.center;
    let next = {
        let next = node.next.clone();
        move || next_shown(state.t(), &next)
    };
    let name = {
        let (label, step, src, next) = (
            node.label.clone(),
            node.step,
            node.source.as_str(),
            node.next.clone(),
        );
        move || checkpoint_name(state.t(), &label, step, src, &next)
    };
    let aria = {
        let name = name.clone();
        move || {
            if is_head() {
                format!("{}, HEAD", name())
            } else {
                name()
            }
        }
    };
    let tooltip = {
        let (id, created) = (short_id(&node.id), node.created_at.clone());
        move || {
            let t = state.t();
            let base = format!(
                "{}\n{}",
                name(),
                fill(t.checkpoint_tip, &[("id", &id), ("created", &created)])
            );
            if is_head() {
                format!("{base}\n{}", t.head_note)
            } else {
                base
            }
        }
    };
    let at = move |dx: f64| move || (label_x.get() + dx).to_string();
    let dangling = node.dangling.then(|| {
        view! {
            <path
                class="edge dangling"
                d=format!("M{x} {} L{x} {}", y - NODE_RADIUS, y - ROW_HEIGHT / 2.0)
            ></path>
        }
    });
    let toggle = (!node.runs.is_empty()).then(|| {
        let id = node.id.clone();
        let open_id = id.clone();
        let open = Signal::derive(move || state.expanded.with(|e| e.contains(&open_id)));
        let open = move || open.get();
        let what = next_text(&node.runs);
        let text = {
            let what = what.clone();
            move || format!("{} {what}", if open() { "▾" } else { "▸" })
        };
        let name = {
            let (what, label) = (what.clone(), node.label.clone());
            // The visible text (`▸ research`) leads the name, so what a sighted
            // user reads is what a speech-input user says.
            move || fill(state.t().expand_run, &[("what", &what), ("label", &label)])
        };
        let title = move || fill(state.t().expand_run_title, &[("what", &what)]);
        view! {
            <g class="expand" role="button" tabindex="0" aria-label=name
                aria-expanded=move || if open() { "true" } else { "false" }
                data-expand=node.label.clone()
                on:click={ let id = id.clone(); move |ev| { ev.stop_propagation(); state.toggle_expanded(&id); } }
                // Enter and Space toggle it; they must not reach the tree, where Enter replays.
                on:keydown=move |ev| if ev.key() == "Enter" || ev.key() == " " {
                    ev.prevent_default();
                    ev.stop_propagation();
                    state.toggle_expanded(&id);
                }>
                <title>{title}</title>
                <rect x=at(RUNS_DX) y=(y - 9.0).to_string() width="92" height="18" rx="4"></rect>
                <text x=at(RUNS_DX + 6.0) y=y.to_string() dy="0.36em">{text}</text>
            </g>
        }
    });
    let src = node.source.as_str();
    let step = node.step;
    let done = node.next.is_empty();
    // A second cue besides colour: the letter, and a square for updates and
    // a diamond for forks.
    let shape = match node.source {
        Source::Update => view! {
            <rect class="dot" x=(x - NODE_RADIUS + 1.0).to_string() y=(y - NODE_RADIUS + 1.0).to_string()
                width=(2.0 * NODE_RADIUS - 2.0).to_string() height=(2.0 * NODE_RADIUS - 2.0).to_string() rx="3"></rect>
        }
        .into_any(),
        Source::Fork => view! {
            <path class="dot" d=format!("M{x} {} L{} {y} L{x} {} L{} {y} Z", y - NODE_RADIUS - 1.0, x + NODE_RADIUS + 1.0, y + NODE_RADIUS + 1.0, x - NODE_RADIUS - 1.0)></path>
        }
        .into_any(),
        _ => view! { <circle class="dot" cx=x.to_string() cy=y.to_string() r=NODE_RADIUS.to_string()></circle> }
            .into_any(),
    };

    // The row is three layers: the checkpoint's button (its accessible name
    // says everything, so it holds no text of its own: a screen reader and
    // axe then agree on what it is called), the text drawn over it (hidden
    // from assistive technology, transparent to the pointer), and the
    // subgraph toggle, a button of its own and not one nested in another.
    view! {
        <g
            class=format!("node src-{src}")
            class:selected=is_selected
            class:head=is_head
            class:pinned=is_pinned
            class:fresh=move || fresh.get()
            data-index=i.to_string()
            data-label=node.label.clone()
            data-ns=node.ns.clone()
        >
            <g
                class="node-button"
                role="button"
                tabindex=move || if is_selected() { "0" } else { "-1" }
                aria-label=aria
                aria-pressed=move || if is_selected() { "true" } else { "false" }
                on:click=move |_| on_select.run(i)
                on:focus=move |_| on_select.run(i)
            >
                <title>{tooltip}</title>
                <rect class="hit" x=(x - NODE_RADIUS - 2.0).to_string() y=(y - ROW_HEIGHT / 2.0).to_string()
                    width=move || (label_x.get() + LABEL_COLUMN_WIDTH - x + NODE_RADIUS + 2.0).max(0.0).to_string()
                    height=ROW_HEIGHT.to_string()></rect>
                {dangling}
                <circle class="head-ring" cx=x.to_string() cy=y.to_string() r=(NODE_RADIUS + 4.0).to_string()></circle>
                {shape}
            </g>
            <g class="node-text" aria-hidden="true">
                <text class="letter" x=x.to_string() y=y.to_string() dy="0.36em" text-anchor="middle">
                    {letter(node.source)}
                </text>
                <rect class="label-bg" x=at(-8.0) y=(y - ROW_HEIGHT / 2.0).to_string()
                    width=(LABEL_COLUMN_WIDTH + 8.0).to_string() height=ROW_HEIGHT.to_string()></rect>
                <text class="row-text" x=at(0.0) y=y.to_string() dy="0.36em">
                    <tspan class="name">{node.label.clone()}</tspan>
                    <tspan class="step" x=at(STEP_DX)>{move || fill(state.t().step_n, &[("n", &step)])}</tspan>
                    <tspan class="next" x=at(NEXT_DX) class:done=done>
                        {next}
                    </tspan>
                </text>
                <Show when=is_head>
                    <g class="head-badge">
                        <rect x=at(HEAD_DX) y=(y - 8.5).to_string() width="40" height="17" rx="8.5"></rect>
                        <text x=at(HEAD_DX + 20.0) y=y.to_string() dy="0.36em" text-anchor="middle">
                            "HEAD"
                        </text>
                    </g>
                </Show>
            </g>
            {toggle}
        </g>
    }
}

/// Width of the label column's content, for the selection band.
pub const LABEL_COLUMN_WIDTH: f64 = RUNS_DX + 96.0;
