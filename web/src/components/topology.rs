//! The topology panel: the graph's nodes and edges (layered, loops as arcs,
//! conditional edges dashed), the selected checkpoint's `next` lit, the nodes
//! a previewed action would run outlined, and the legend of sources.

use leptos::prelude::*;

use crate::layout::{layout_topology, TOPO_BOX_H, TOPO_BOX_W};
use crate::state::{letter, AppState, SOURCES};
use chronograph::Source;

/// The topology drawing and the legend.
#[component]
pub fn TopologyPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let next = Memo::new(move |_| state.selected_view().map(|c| c.next).unwrap_or_default());
    let drawing = move || {
        let t = state.topology.with(|t| {
            let edges: Vec<(String, String, bool)> = t
                .edges
                .iter()
                .map(|e| (e.from.clone(), e.to.clone(), e.conditional))
                .collect();
            layout_topology(&t.nodes, &edges)
        });
        let edges = t
            .edges
            .iter()
            .map(|e| {
                view! {
                    <path class="topo-edge" class:conditional=e.conditional class:back=e.back
                        d=e.d.clone() marker-end="url(#arrow)"></path>
                }
            })
            .collect_view();
        let nodes = t
            .nodes
            .iter()
            .map(|n| {
                let name = n.name.clone();
                let special = name.starts_with("__");
                let (lit_name, run_name) = (name.clone(), name.clone());
                let lit = move || next.with(|x| x.contains(&lit_name));
                let runs = move || state.will_run.with(|x| x.contains(&run_name));
                let (x, y) = (n.at.x, n.at.y);
                view! {
                    <g class="topo-node" class:special=special class:lit=lit class:will-run=runs data-node=name.clone()>
                        <rect x=x.to_string() y=y.to_string() width=TOPO_BOX_W.to_string()
                            height=TOPO_BOX_H.to_string() rx=if special { "13" } else { "6" }></rect>
                        <text x=(x + TOPO_BOX_W / 2.0).to_string() y=(y + TOPO_BOX_H / 2.0).to_string()
                            dy="0.36em" text-anchor="middle">{name.clone()}</text>
                    </g>
                }
            })
            .collect_view();
        view! {
            <svg class="topology" role="img" aria-label="Graph topology"
                viewBox=format!("0 0 {} {}", t.width, t.height)
                width=t.width.to_string() height=t.height.to_string()>
                <defs>
                    <marker id="arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M0 0 L8 4 L0 8 z" class="topo-arrow"></path>
                    </marker>
                </defs>
                {edges}
                {nodes}
            </svg>
        }
    };
    view! {
        <section class="topology-panel" aria-label="Topology">
            <h2 class="panel-title">"Topology"</h2>
            {drawing}
            <p class="muted small">
                <span class="key lit-key"></span>" next of the selection · "
                <span class="key run-key"></span>" will run (preview)"
            </p>
            <h2 class="panel-title">"Sources"</h2>
            <ul class="legend">
                {SOURCES
                    .iter()
                    .map(|s| {
                        view! {
                            <li class=format!("src-{}", s.as_str())>
                                <svg width="22" height="22" viewBox="0 0 22 22" aria-hidden="true">
                                    <circle class="dot" cx="11" cy="11" r="9"></circle>
                                    <text class="letter" x="11" y="11" dy="0.36em" text-anchor="middle">
                                        {letter(*s)}
                                    </text>
                                </svg>
                                <span class="mono">{s.as_str()}</span>
                                <span class="muted">{legend_text(*s)}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}

fn legend_text(s: Source) -> &'static str {
    match s {
        Source::Input => "input to a run",
        Source::Loop => "a step of the run",
        Source::Update => "update_state",
        Source::Fork => "replay or copy",
    }
}
