//! One checkpoint of the tree: a focusable button (role, accessible name
//! "Checkpoint c3, step 2, loop, next: reply") with its circle (colour and
//! letter by source) and its row's text (label, step, next, HEAD badge).

use leptos::prelude::*;
use leptos::reactive::computed::Selector;

use super::node_shape::NodeShape;
use super::node_text::NodeText;
use super::run_toggle::RunToggle;
use crate::inspect::{checkpoint_aria, checkpoint_tooltip};
use crate::layout::{Point, LABEL_COLUMN_WIDTH, NODE_RADIUS, ROW_HEIGHT};
use crate::session::CheckpointView;

/// Everything a node draws, as plain data.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeView {
    /// Index in the thread (= row).
    pub index: usize,
    /// The checkpoint.
    pub checkpoint: CheckpointView,
    /// World-space centre.
    pub center: Point,
    /// The parent is not in the thread.
    pub dangling: bool,
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

impl Marks {
    /// The selectors over `state`'s selection, HEAD and pin.
    pub fn new(state: crate::state::AppState) -> Self {
        Marks {
            selected: Selector::new(move || state.selected.get()),
            head: Selector::new(move || state.head.get()),
            pinned: Selector::new(move || state.pinned.get()),
        }
    }
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
    let is_selected = Signal::derive(move || sel.selected(&Some(i)));
    let is_head = Signal::derive(move || head.selected(&Some(i)));
    let c = node.checkpoint;
    let Point { x, y } = node.center;
    let will_prune = {
        let id = c.id.clone();
        Signal::derive(move || state.pruned.with(|p| p.contains(&id)))
    };
    let aria = {
        let c = c.clone();
        move || {
            let name = checkpoint_aria(state.t(), &c, is_head.get());
            if will_prune.get() {
                name + state.t().prune_aria
            } else {
                name
            }
        }
    };
    let tooltip = {
        let c = c.clone();
        move || checkpoint_tooltip(state.t(), &c, is_head.get())
    };
    let dangling = node.dangling.then(|| {
        view! {
            <path
                class="edge dangling"
                d=format!("M{x} {} L{x} {}", y - NODE_RADIUS, y - ROW_HEIGHT / 2.0)
            ></path>
        }
    });
    let (class, data_label, data_ns) = (
        format!("node src-{}", c.source.as_str()),
        c.label.clone(),
        c.ns.clone(),
    );
    let toggle = (!node.runs.is_empty()).then(|| {
        view! { <RunToggle id=c.id.clone() label=c.label.clone() runs=node.runs y label_x/> }
    });

    // The row is three layers: the checkpoint's button (its accessible name
    // says everything, so it holds no text of its own: a screen reader and
    // axe then agree on what it is called), the text drawn over it (hidden
    // from assistive technology, transparent to the pointer), and the
    // subgraph toggle, a button of its own and not one nested in another.
    view! {
        <g
            class=class
            class:selected=move || is_selected.get()
            class:head=move || is_head.get()
            class:pinned=move || pin.selected(&Some(i))
            class:fresh=move || fresh.get()
            class:pruned=move || will_prune.get()
            data-index=i.to_string()
            data-label=data_label
            data-ns=data_ns
        >
            <g
                class="node-button"
                role="button"
                tabindex=move || if is_selected.get() { "0" } else { "-1" }
                aria-label=aria
                aria-pressed=move || if is_selected.get() { "true" } else { "false" }
                on:click=move |_| on_select.run(i)
                on:focus=move |_| on_select.run(i)
            >
                <title>{tooltip}</title>
                <rect class="hit" x=(x - NODE_RADIUS - 2.0).to_string() y=(y - ROW_HEIGHT / 2.0).to_string()
                    width=move || (label_x.get() + LABEL_COLUMN_WIDTH - x + NODE_RADIUS + 2.0).max(0.0).to_string()
                    height=ROW_HEIGHT.to_string()></rect>
                {dangling}
                <circle class="head-ring" cx=x.to_string() cy=y.to_string() r=(NODE_RADIUS + 4.0).to_string()></circle>
                <NodeShape source=c.source center=node.center/>
            </g>
            <NodeText checkpoint=c center=node.center label_x is_head/>
            {toggle}
        </g>
    }
}
