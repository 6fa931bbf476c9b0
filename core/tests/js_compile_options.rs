//! Compile options that follow LangGraph.js where it differs from LangGraph
//! (Python); the JS bindings set them, the engine's defaults follow Python:
//! `refuse_unreachable` (LangGraph.js's `UnreachableNodeError` at compile
//! time), `derived_update_ids` (an update's task id never reuses a
//! pending task's), `commit_as_settled` (tasks commit as they settle, in
//! the order LangGraph.js's promises settle), `routes_write_source` (a
//! route writes its source node's name) and `resumed_not_next` (a task
//! paused again after a resume is not `next`).

mod common;

use chronograph::{
    CompileOptions, NodeContext, Reducer, RunInput, Semantics, State, StateGraph, StreamEvent, END,
    START,
};
use common::*;
use serde_json::json;

fn with_orphan() -> StateGraph {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    g.add_node("a", |_: &State, _: &NodeContext| {
        Ok(json!({ "log": ["a"] }))
    });
    g.add_node("orphan", |_: &State, _: &NodeContext| Ok(json!({})));
    g.add_edge(START, "a").add_edge("a", END);
    g
}

#[test]
fn an_unreachable_node_compiles_unless_refused_as_langgraph_js_does() {
    assert!(with_orphan().compile(opts_without_saver()).is_ok());
    let e = with_orphan()
        .compile(CompileOptions {
            semantics: Semantics {
                refuse_unreachable: true,
                ..Semantics::langgraph()
            },
            ..opts_without_saver()
        })
        .unwrap_err();
    assert_eq!(e.code(), "UNREACHABLE_NODE");
    assert!(e.message().starts_with("Node `orphan` is not reachable."));
}

#[test]
fn a_graph_without_an_entry_reports_its_unreachable_node_first_when_refused() {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    g.add_node("a", |_: &State, _: &NodeContext| Ok(json!({})));
    let python = g.compile(opts_without_saver()).unwrap_err();
    assert!(python
        .message()
        .starts_with("Graph must have an entrypoint"));
    let js = g
        .compile(CompileOptions {
            semantics: Semantics {
                refuse_unreachable: true,
                ..Semantics::langgraph()
            },
            ..opts_without_saver()
        })
        .unwrap_err();
    assert_eq!(js.code(), "UNREACHABLE_NODE");
}

#[test]
fn a_node_a_router_without_a_path_map_may_pick_counts_as_reachable() {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    g.add_node("a", |_: &State, _: &NodeContext| Ok(json!({})));
    g.add_node("b", |_: &State, _: &NodeContext| Ok(json!({})));
    g.add_edge(START, "a");
    g.add_conditional_edges("a", |_: &State| Ok(vec!["b".into()]), None);
    let options = CompileOptions {
        semantics: Semantics {
            refuse_unreachable: true,
            ..Semantics::langgraph()
        },
        ..opts_without_saver()
    };
    assert!(g.compile(options).is_ok());
}

/// `START -> plan -> act -> END`, paused before `act`.
fn paused_before_act(
    options: impl Fn(CompileOptions) -> CompileOptions,
) -> chronograph::CompiledGraph {
    let s = saver();
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    g.add_node("plan", |_: &State, _: &NodeContext| {
        Ok(json!({ "log": ["plan"] }))
    });
    g.add_node("act", |_: &State, _: &NodeContext| {
        Ok(json!({ "log": ["act"] }))
    });
    g.add_edge(START, "plan")
        .add_edge("plan", "act")
        .add_edge("act", END);
    let app = g
        .compile(options(CompileOptions {
            interrupt_before: vec!["act".into()],
            ..opts(&s)
        }))
        .unwrap();
    app.invoke(RunInput::Values(json!({ "log": [] })), &thread("t"))
        .unwrap();
    app
}

#[test]
fn an_update_as_a_pending_node_takes_its_task_id_unless_ids_are_derived() {
    let cfg = thread("t");
    // LangGraph: the update stands for the pending `act` task, whose
    // history entry then shows the update as its result.
    let python = paused_before_act(|o| o);
    python
        .update_state(&cfg, Some(json!({ "log": ["edited"] })), Some("act"))
        .unwrap();
    let base = &history(&python, &cfg)[1];
    assert_eq!(base.tasks[0].name, "act");
    assert_eq!(base.tasks[0].result, Some(json!({ "log": ["edited"] })));
    // LangGraph.js: the update's own id; the pending task shows no result.
    let js = paused_before_act(|o| CompileOptions {
        semantics: Semantics {
            derived_update_ids: true,
            ..Semantics::langgraph()
        },
        ..o
    });
    js.update_state(&cfg, Some(json!({ "log": ["edited"] })), Some("act"))
        .unwrap();
    let base = &history(&js, &cfg)[1];
    assert_eq!(base.tasks[0].name, "act");
    assert_eq!(base.tasks[0].result, None);
}

/// `START -> ask` (which calls `interrupt()`) and `START -> say` (which
/// returns), in parallel.
fn ask_and_say() -> StateGraph {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    g.add_node("ask", |_: &State, ctx: &NodeContext| {
        let answer = ctx.interrupt(json!("ok?"))?;
        Ok(json!({ "log": [answer] }))
    });
    g.add_node("say", |_: &State, _: &NodeContext| {
        Ok(json!({ "log": ["said"] }))
    });
    g.add_edge(START, "ask").add_edge(START, "say");
    g
}

/// `g` compiled (committing tasks as they settle, or not) and streamed
/// on a new thread from an empty log: its events.
fn streamed(g: StateGraph, commit_as_settled: bool) -> Vec<StreamEvent> {
    let saver = saver();
    let app = g
        .compile(CompileOptions {
            semantics: Semantics {
                commit_as_settled,
                ..Semantics::langgraph()
            },
            ..opts(&saver)
        })
        .unwrap();
    let (events, _) = app
        .stream(RunInput::Values(json!({ "log": [] })), &thread("t"))
        .unwrap();
    events
}

/// [`ask_and_say`] streamed on a new thread: the kinds of events.
fn parallel_ask_and_say(commit_as_settled: bool) -> Vec<String> {
    streamed(ask_and_say(), commit_as_settled)
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Updates { node, .. } if node != START => Some(format!("update:{node}")),
            StreamEvent::Interrupted(list) => Some(format!("interrupted:{}", list.len())),
            StreamEvent::Values(_) => Some("values".to_owned()),
            _ => None,
        })
        .collect()
}

#[test]
fn tasks_commit_in_task_order_unless_committed_as_settled_with_pauses_first() {
    // LangGraph: results in task order, the pause reported once all committed.
    assert_eq!(
        parallel_ask_and_say(false),
        ["values", "update:say", "interrupted:1", "values"]
    );
    // LangGraph.js: a task that throws settles first; its interrupt is reported as it commits.
    assert_eq!(
        parallel_ask_and_say(true),
        ["values", "interrupted:1", "update:say", "values"]
    );
}

#[test]
fn a_resumed_superstep_reports_the_updates_of_its_finished_tasks_as_cached() {
    let saver = saver();
    let app = ask_and_say().compile(opts(&saver)).unwrap();
    app.invoke(RunInput::Values(json!({ "log": [] })), &thread("t"))
        .unwrap();
    let resume = RunInput::Command(chronograph::Command::resume(json!("yes")));
    let (events, _) = app.stream(resume, &thread("t")).unwrap();
    let cached: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::CachedUpdates { node, update } => Some((node.clone(), update.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(cached, [("say".to_owned(), json!({ "log": ["said"] }))]);
}

#[test]
fn a_route_writes_its_source_node_name_when_routes_write_source() {
    let writes = |routes_write_source: bool| {
        let saver = saver();
        let mut g = StateGraph::new();
        g.add_channel("log", Reducer::Append)
            .add_node("a", |_: &State, _: &NodeContext| Ok(json!({})))
            .add_node("b", |_: &State, _: &NodeContext| Ok(json!({})))
            .add_node("c", |_: &State, _: &NodeContext| Ok(json!({})))
            .add_edge(START, "a")
            .add_edge("a", "c")
            .add_conditional_edges("a", |_: &State| Ok(vec!["b".into()]), None);
        let app = g
            .compile(CompileOptions {
                semantics: Semantics {
                    routes_write_source,
                    ..Semantics::langgraph()
                },
                ..opts(&saver)
            })
            .unwrap();
        app.invoke(json!({"log": []}), &thread("t")).unwrap();
        let step0 = stored(&*saver, "t")
            .into_iter()
            .find(|c| c.metadata.step == 0)
            .unwrap();
        step0
            .pending_writes
            .iter()
            .map(|w| (w.channel.clone(), w.value.clone()))
            .collect::<Vec<_>>()
    };
    // The static edge writes null in both; the router's pick: None, or "a".
    assert_eq!(
        writes(false),
        [
            ("branch:to:c".to_owned(), json!(null)),
            ("branch:to:b".to_owned(), json!(null))
        ]
    );
    assert_eq!(
        writes(true),
        [
            ("branch:to:c".to_owned(), json!(null)),
            ("branch:to:b".to_owned(), json!("a"))
        ]
    );
}

/// `START -> ask`, where `ask` calls `interrupt()` twice.
fn ask_twice(options: impl Fn(CompileOptions) -> CompileOptions) -> chronograph::CompiledGraph {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    g.add_node("ask", |_: &State, ctx: &NodeContext| {
        let name = ctx.interrupt(json!("name?"))?;
        let age = ctx.interrupt(json!("age?"))?;
        Ok(json!({ "log": [name, age] }))
    });
    g.add_edge(START, "ask").add_edge("ask", END);
    g.compile(options(opts(&saver()))).unwrap()
}

#[test]
fn a_task_paused_again_after_a_resume_is_next_unless_resumed_not_next() {
    let next = |app: &chronograph::CompiledGraph| {
        let cfg = thread("t");
        app.invoke(RunInput::Values(json!({ "log": [] })), &cfg)
            .unwrap();
        let resume = RunInput::Command(chronograph::Command::resume(json!("bob")));
        app.invoke(resume, &cfg).unwrap();
        let live = app.get_state(&cfg).unwrap();
        assert_eq!(live.interrupts.len(), 1);
        // The checkpoint addressed by id reads no stored writes: the task is next either way.
        let id = live.config.checkpoint_id.clone().unwrap();
        let at = app.get_state(&cfg.clone().at(&id)).unwrap();
        assert_eq!(at.next, ["ask"]);
        live.next
    };
    // LangGraph: the task holds no output, so it is next.
    assert_eq!(next(&ask_twice(|o| o)), ["ask"]);
    // LangGraph.js: its stored `__resume__` counts as a write.
    let js = ask_twice(|o| CompileOptions {
        semantics: Semantics {
            resumed_not_next: true,
            ..Semantics::langgraph()
        },
        ..o
    });
    assert!(next(&js).is_empty());
}

/// `START -> a`, then `a -> b` and `a -> c` in parallel: `b` has an edge
/// to `d`, `c` none; both return at once.
fn fan_out(commit_as_settled: bool) -> Vec<String> {
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    for name in ["a", "b", "c", "d"] {
        g.add_node(name, move |_: &State, _: &NodeContext| {
            Ok(json!({ "log": [name] }))
        });
    }
    g.add_edge(START, "a")
        .add_edge("a", "b")
        .add_edge("a", "c")
        .add_edge("b", "d");
    streamed(g, commit_as_settled)
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Updates { node, .. } if node != START => Some(node.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn tasks_that_settle_together_commit_in_the_order_langgraph_js_settles_them() {
    // LangGraph: task order.
    assert_eq!(fan_out(false), ["a", "b", "c", "d"]);
    // LangGraph.js: `b`'s edge writer makes its promise settle after `c`'s.
    assert_eq!(fan_out(true), ["a", "c", "b", "d"]);
}
