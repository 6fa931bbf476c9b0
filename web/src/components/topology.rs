//! The topology panel: the graph's nodes and edges, with the selected
//! checkpoint's `next` lit, and the legend of checkpoint sources.

use leptos::prelude::*;

use crate::sample::Source;
use crate::state::AppState;

const BOX_W: f64 = 112.0;
const BOX_H: f64 = 28.0;
const GAP: f64 = 22.0;
const TOP: f64 = 8.0;
const WIDTH: f64 = 160.0;

/// A vertical drawing of the graph (this first version expects a chain, which
/// the sample graph is) and the source legend.
#[component]
pub fn TopologyPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let next = Memo::new(move |_| {
        state
            .selected_checkpoint()
            .map(|c| c.next)
            .unwrap_or_default()
    });
    let drawing = move || {
        state.topology.with(|t| {
            let y_of = |name: &str| {
                let i = t.nodes.iter().position(|n| *n == name).unwrap_or(0);
                TOP + i as f64 * (BOX_H + GAP)
            };
            let height = TOP * 2.0 + t.nodes.len() as f64 * (BOX_H + GAP) - GAP;
            let cx = WIDTH / 2.0;
            let edges = t
                .edges
                .iter()
                .map(|(a, b)| {
                    let (y1, y2) = (y_of(a) + BOX_H, y_of(b) - 3.0);
                    view! { <path class="topo-edge" d=format!("M{cx} {y1} L{cx} {y2}") marker-end="url(#arrow)"></path> }
                })
                .collect_view();
            let nodes = t
                .nodes
                .iter()
                .map(|&name| {
                    let y = y_of(name);
                    let special = name.starts_with("__");
                    let lit = move || next.with(|n| n.iter().any(|x| x == name));
                    view! {
                        <g class="topo-node" class:special=special class:lit=lit>
                            <rect
                                x=(cx - BOX_W / 2.0).to_string()
                                y=y.to_string()
                                width=BOX_W.to_string()
                                height=BOX_H.to_string()
                                rx=if special { "14" } else { "6" }
                            ></rect>
                            <text x=cx.to_string() y=(y + BOX_H / 2.0).to_string() dy="0.36em" text-anchor="middle">
                                {name}
                            </text>
                        </g>
                    }
                })
                .collect_view();
            view! {
                <svg class="topology" viewBox=format!("0 0 {WIDTH} {height}") width=WIDTH.to_string() height=height.to_string()>
                    <defs>
                        <marker id="arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                            <path d="M0 0 L8 4 L0 8 z" class="topo-arrow"></path>
                        </marker>
                    </defs>
                    {edges}
                    {nodes}
                </svg>
            }
        })
    };
    view! {
        <aside class="panel topology-panel" aria-label="Topology">
            <h2 class="panel-title">"Topology"</h2>
            {drawing}
            <p class="muted small">
                "Lit: the selected checkpoint's " <code>"next"</code> "."
            </p>
            <h2 class="panel-title">"Sources"</h2>
            <ul class="legend">
                {Source::ALL
                    .iter()
                    .map(|s| {
                        view! {
                            <li class=format!("src-{}", s.as_str())>
                                <svg width="22" height="22" viewBox="0 0 22 22" aria-hidden="true">
                                    <circle class="dot" cx="11" cy="11" r="9"></circle>
                                    <text class="letter" x="11" y="11" dy="0.36em" text-anchor="middle">
                                        {s.letter()}
                                    </text>
                                </svg>
                                <span class="mono">{s.as_str()}</span>
                                <span class="muted">{legend_text(*s)}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </aside>
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
