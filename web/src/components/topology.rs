//! The topology panel: the graph's nodes and edges (layered, loops as arcs,
//! conditional edges dashed, Send fan-outs thick and labelled, goto
//! destinations as dashed arrows), subgraph nodes as boxes that open to show
//! their own nodes, the selected checkpoint's `next` lit (inside the
//! subgraph it belongs to), the nodes a previewed action would run
//! outlined, and the legend of sources.

use std::collections::BTreeSet;

use leptos::prelude::*;

use crate::i18n::{fill, Strings};
use crate::layout::{draw_graph, spec_graph, EdgeKind, TopoDrawing, OPEN_TITLE_H};
use crate::state::{letter, AppState, SOURCES};
use chronograph::Source;

/// What a drawing lights: the selection's `next` in the graph at a path.
#[derive(Clone, Copy)]
struct Lights {
    /// `(path of the selection's graph, its next)`: `""` is the root graph,
    /// `research/` the research subgraph.
    next: Memo<(String, Vec<String>)>,
    will_run: RwSignal<Vec<String>>,
    open: RwSignal<BTreeSet<String>>,
}

/// The graph path of a namespace: `a:1|b:2` → `a/b/`.
fn graph_path(ns: &str) -> String {
    ns.split('|')
        .filter(|l| !l.is_empty())
        .map(|l| format!("{}/", l.split(':').next().unwrap_or(l)))
        .collect()
}

/// The topology drawing and the legend.
#[component]
pub fn TopologyPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let next = Memo::new(move |_| {
        state
            .selected_view()
            .map(|c| (graph_path(&c.ns), c.next))
            .unwrap_or_default()
    });
    let lights = Lights {
        next,
        will_run: state.will_run,
        open: RwSignal::new(BTreeSet::new()),
    };
    let graph = Memo::new(move |_| {
        state.topology.track();
        state.session.with_value(|s| spec_graph(s.spec()))
    });
    let drawing = move || {
        let d = graph.with(|g| draw_graph(g, &lights.open.get(), ""));
        let (w, h) = (d.layout.width, d.layout.height);
        view! {
            <svg class="topology" role="img" aria-label=move || state.t().topology_graph
                viewBox=format!("0 0 {w} {h}") width=w.to_string() height=h.to_string()>
                <defs>
                    <marker id="arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M0 0 L8 4 L0 8 z" class="topo-arrow"></path>
                    </marker>
                </defs>
                {draw(&d, String::new(), lights)}
            </svg>
        }
    };
    view! {
        <section class="topology-panel" aria-label=move || state.t().topology>
            <h2 class="panel-title">{move || state.t().topology}</h2>
            {drawing}
            <p class="muted small">
                <span class="key lit-key"></span>" "{move || state.t().legend_next}" · "
                <span class="key run-key"></span>" "{move || state.t().legend_will_run}
                {move || graph.with(|g| !g.subgraphs.is_empty()).then_some(state.t().topology_open_hint)}
            </p>
            <h2 class="panel-title">{move || state.t().sources}</h2>
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
                                <span class="muted">{move || legend_text(state.t(), *s)}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}

fn legend_text(t: &'static Strings, s: Source) -> &'static str {
    match s {
        Source::Input => t.source_input,
        Source::Loop => t.source_loop,
        Source::Update => t.source_update,
        Source::Fork => t.source_fork,
    }
}

/// One graph's edges and boxes, and inside each open subgraph box its own
/// drawing (recursively). `prefix` is the graph's path (`""`, `research/`).
fn draw(d: &TopoDrawing, prefix: String, lights: Lights) -> AnyView {
    let edges = d
        .layout
        .edges
        .iter()
        .map(|e| {
            let class = match e.kind {
                EdgeKind::Plain => "topo-edge",
                EdgeKind::Conditional => "topo-edge conditional",
                EdgeKind::Send => "topo-edge send",
                EdgeKind::Goto => "topo-edge goto",
            };
            let label = d
                .send_labels
                .get(&(e.from.clone(), e.to.clone()))
                .filter(|_| e.kind == EdgeKind::Send)
                .map(|l| {
                    view! {
                        <text class="topo-edge-label" x=(e.mid.x + 4.0).to_string() y=e.mid.y.to_string() dy="0.34em">{l.clone()}</text>
                    }
                });
            view! {
                <path class=class class:back=e.back d=e.d.clone() marker-end="url(#arrow)"
                    data-from=e.from.clone() data-to=e.to.clone()></path>
                {label}
            }
        })
        .collect_view();
    let nodes = d
        .layout
        .nodes
        .iter()
        .map(|n| {
            let name = n.name.clone();
            let special = name.starts_with("__");
            let path = format!("{prefix}{name}");
            let is_sub = d.subgraphs.contains(&name);
            let open_path = path.clone();
            let is_open = move || lights.open.with(|o| o.contains(&open_path));
            let (lit_name, run_name, here) = (name.clone(), name.clone(), prefix.clone());
            // A subgraph box is lit too when the selection is inside it.
            let inside = format!("{path}/");
            let lit = move || {
                lights.next.with(|(p, x)| {
                    (*p == here && x.contains(&lit_name)) || (is_sub && p.starts_with(&inside))
                })
            };
            let runs = move || lights.will_run.with(|x| x.contains(&run_name));
            let (x, y, w, h) = (n.at.x, n.at.y, n.w, n.h);
            let toggle_path = path.clone();
            let toggle = move |_| {
                if is_sub {
                    lights.open.update(|o| {
                        if !o.remove(&toggle_path) {
                            o.insert(toggle_path.clone());
                        }
                    });
                }
            };
            let open_now = is_open();
            // An open box shows its name in a title bar; a closed one centred.
            let text_y = if open_now {
                y + OPEN_TITLE_H / 2.0 + 1.0
            } else {
                y + h / 2.0
            };
            let title = if is_sub {
                format!("{} {name}", if open_now { "▾" } else { "▸" })
            } else {
                name.clone()
            };
            view! {
                <g class="topo-node" class:special=special class:subgraph=is_sub class:open=open_now
                    class:lit=lit class:will-run=runs data-node=path.clone()
                    role=is_sub.then_some("button")
                    aria-label={
                        let (name, state) = (name.clone(), expect_context::<AppState>());
                        move || is_sub.then(|| fill(state.t().subgraph_box, &[("name", &name)]))
                    }
                    on:click=toggle>
                    <rect x=x.to_string() y=y.to_string() width=w.to_string()
                        height=h.to_string() rx=if special { "13" } else { "6" }></rect>
                    <text x=(x + w / 2.0).to_string() y=text_y.to_string()
                        dy="0.36em" text-anchor="middle">{title}</text>
                </g>
            }
        })
        .collect_view();
    let inner = d
        .inner
        .iter()
        .map(|(name, at, sub)| {
            let path = format!("{prefix}{name}/");
            view! {
                <g class="topo-inner" transform=format!("translate({} {})", at.x, at.y)>
                    {draw(sub, path, lights)}
                </g>
            }
        })
        .collect_view();
    view! { {edges} {nodes} {inner} }.into_any()
}
