//! Node caching (LangGraph's `add_node(cache_policy=CachePolicy(...))` with
//! `compile(cache=InMemoryCache())`): a task whose input was seen before
//! gets the writes of that earlier run instead of running, streams its
//! update marked cached, and stores its writes on the checkpoint as a task
//! that ran does; entries expire after their ttl; failures and pauses are
//! not cached; `clear_cache` drops them.

mod common;

use chronograph::clock::ManualClock;
use chronograph::{
    Branch, CachePolicy, CompileOptions, CompiledGraph, Goto, InMemoryCache, InMemorySaver,
    NodeContext, Reducer, RouterFn, Send, State, StateGraph, StreamEvent, END, START,
};
use common::*;
use serde_json::{json, Value};
use std::rc::Rc;

/// `START -> double -> END`; `double` (cached with `policy`) logs its call
/// and writes `n * 2`; a node `fail` reached when `n` is negative fails.
fn doubling(
    saver: &Rc<InMemorySaver>,
    cache: &Rc<InMemoryCache>,
    policy: CachePolicy,
    calls: &Calls,
) -> CompiledGraph {
    let mut g = StateGraph::new();
    let log = calls.clone();
    g.add_channel("n", Reducer::LastValue)
        .add_channel("out", Reducer::LastValue)
        .add_node("double", move |s: &State, _: &NodeContext| {
            log.push("double");
            let n = s.get_json("n").and_then(|v| v.as_i64()).unwrap_or(0);
            if n < 0 {
                return Err(chronograph::Error::value(format!("negative: {n}")));
            }
            Ok(json!({ "out": n * 2 }))
        })
        .add_edge(START, "double")
        .add_edge("double", END);
    g.set_node_cache_policy("double", Some(policy));
    g.compile(CompileOptions {
        cache: Some(cache.clone()),
        ..opts(saver)
    })
    .unwrap()
}

fn clock_cache() -> (Rc<ManualClock>, Rc<InMemoryCache>) {
    let clock = Rc::new(ManualClock::starting_at(0, 0));
    (clock.clone(), Rc::new(InMemoryCache::with_clock(clock)))
}

#[test]
fn a_cached_task_does_not_run_again_on_the_same_input() {
    let (saver, (_, cache), calls) = (saver(), clock_cache(), Calls::default());
    let app = doubling(&saver, &cache, CachePolicy::default(), &calls);
    assert_eq!(
        app.invoke(json!({"n": 2}), &thread("a")).unwrap().to_json()["out"],
        json!(4)
    );
    assert_eq!(
        app.invoke(json!({"n": 2}), &thread("b")).unwrap().to_json()["out"],
        json!(4)
    );
    assert_eq!(
        calls.take(),
        ["double"],
        "the second run was served from the cache"
    );
    assert_eq!(
        app.invoke(json!({"n": 3}), &thread("c")).unwrap().to_json()["out"],
        json!(6)
    );
    assert_eq!(calls.take(), ["double"], "another input runs");
    assert_eq!(cache.len(), 2);
}

#[test]
fn a_cached_task_streams_its_start_and_its_update_marked_cached_but_no_result() {
    let (saver, (_, cache), calls) = (saver(), clock_cache(), Calls::default());
    let app = doubling(&saver, &cache, CachePolicy::default(), &calls);
    let (first, _) = app.stream(json!({"n": 2}), &thread("a")).unwrap();
    let (second, _) = app.stream(json!({"n": 2}), &thread("b")).unwrap();
    let kinds = |events: &[StreamEvent]| -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match e {
                StreamEvent::Task { name, .. } if name == "double" => Some("task".into()),
                StreamEvent::TaskResult { name, .. } if name == "double" => Some("result".into()),
                StreamEvent::Updates { node, update } if node == "double" => {
                    Some(format!("update {update}"))
                }
                StreamEvent::CachedUpdates { node, update } => {
                    Some(format!("cached {node} {update}"))
                }
                _ => None,
            })
            .collect()
    };
    assert_eq!(kinds(&first), ["task", r#"update {"out":4}"#, "result"]);
    assert_eq!(kinds(&second), ["task", r#"cached double {"out":4}"#]);
}

#[test]
fn a_cached_task_leaves_the_same_history_and_stored_writes_as_a_run() {
    let (saver, (_, cache), calls) = (saver(), clock_cache(), Calls::default());
    let app = doubling(&saver, &cache, CachePolicy::default(), &calls);
    app.invoke(json!({"n": 2}), &thread("a")).unwrap();
    app.invoke(json!({"n": 2}), &thread("b")).unwrap();
    assert_eq!(steps(&app, &thread("a")), steps(&app, &thread("b")));
    let writes = |t: &str| -> Vec<(String, Value)> {
        stored(&*saver, t)
            .iter()
            .find(|c| c.metadata.step == 0)
            .unwrap()
            .pending_writes
            .iter()
            .map(|w| (w.channel.clone(), w.value.clone()))
            .collect()
    };
    assert_eq!(writes("b"), writes("a"));
    assert_eq!(writes("b"), [("out".to_owned(), json!(4))]);
}

#[test]
fn entries_expire_after_their_ttl_in_seconds() {
    let (saver, (clock, cache), calls) = (saver(), clock_cache(), Calls::default());
    let app = doubling(&saver, &cache, CachePolicy::with_ttl(10.0), &calls);
    app.invoke(json!({"n": 1}), &thread("a")).unwrap();
    clock.advance(9_999_000_000);
    app.invoke(json!({"n": 1}), &thread("b")).unwrap();
    assert_eq!(calls.take(), ["double"], "still cached after 9.999 s");
    clock.advance(1_000_000);
    app.invoke(json!({"n": 1}), &thread("c")).unwrap();
    assert_eq!(
        calls.take(),
        ["double"],
        "expired after 10 s: it runs again"
    );
}

#[test]
fn a_key_function_decides_which_inputs_share_an_entry() {
    let (saver, (_, cache), calls) = (saver(), clock_cache(), Calls::default());
    let parity = CachePolicy {
        key_func: Some(Rc::new(|s: &State| {
            let n = s.get_json("n").and_then(|v| v.as_i64()).unwrap_or(0);
            Ok(format!("parity {}", n % 2))
        })),
        ttl: None,
    };
    let app = doubling(&saver, &cache, parity, &calls);
    app.invoke(json!({"n": 2}), &thread("a")).unwrap();
    let out = app.invoke(json!({"n": 4}), &thread("b")).unwrap().to_json();
    assert_eq!(out["out"], json!(4), "the cached writes of n = 2");
    assert_eq!(calls.take(), ["double"]);
}

#[test]
fn failures_are_not_cached_and_clear_cache_drops_entries() {
    let (saver, (_, cache), calls) = (saver(), clock_cache(), Calls::default());
    let app = doubling(&saver, &cache, CachePolicy::default(), &calls);
    assert!(app.invoke(json!({"n": -1}), &thread("a")).is_err());
    assert!(app.invoke(json!({"n": -1}), &thread("b")).is_err());
    assert_eq!(calls.take(), ["double", "double"]);
    assert!(cache.is_empty());
    app.invoke(json!({"n": 5}), &thread("c")).unwrap();
    app.clear_cache(Some(&["other"])).unwrap();
    assert_eq!(cache.len(), 1, "another node's namespace");
    app.clear_cache(Some(&["double"])).unwrap();
    assert!(cache.is_empty());
    app.invoke(json!({"n": 5}), &thread("d")).unwrap();
    app.clear_cache(None).unwrap();
    assert!(cache.is_empty());
    assert_eq!(calls.take(), ["double", "double"]);
}

#[test]
fn send_tasks_are_keyed_by_their_argument() {
    let (saver, (_, cache), calls) = (saver(), clock_cache(), Calls::default());
    let mut g = StateGraph::new();
    let log = calls.clone();
    g.add_channel("out", Reducer::Append)
        .add_node("split", |_: &State, _: &NodeContext| Ok(json!({})))
        .add_node("work", move |s: &State, _: &NodeContext| {
            let x = s.get_json("x").unwrap_or(Value::Null);
            log.push(&format!("work {x}"));
            Ok(json!({ "out": [x] }))
        })
        .add_edge(START, "split")
        .add_edge("work", END);
    let sends = RouterFn::Sends(Rc::new(|_: State| {
        let to = |x: i64| Goto::Send(Send::new("work", json!({ "x": x })));
        Box::pin(async move { Ok(vec![to(1), to(2), to(1)]) })
    }));
    g.add_branch("split", Branch::new(sends, None));
    g.set_node_cache_policy("work", Some(CachePolicy::default()));
    let app = g
        .compile(CompileOptions {
            cache: Some(cache.clone()),
            ..opts(&saver)
        })
        .unwrap();
    let out = app.invoke(json!({}), &thread("a")).unwrap().to_json();
    assert_eq!(out["out"], json!([1, 2, 1]));
    assert_eq!(
        calls.take(),
        ["work 1", "work 2", "work 1"],
        "nothing cached yet in that step"
    );
    let out = app.invoke(json!({}), &thread("b")).unwrap().to_json();
    assert_eq!(out["out"], json!([1, 2, 1]));
    assert_eq!(
        calls.take(),
        ["work 1"],
        "one of the two x = 1 tasks got the entry"
    );
}

#[test]
fn without_a_cache_a_policy_does_nothing() {
    let (saver, calls) = (saver(), Calls::default());
    let mut g = StateGraph::new();
    let log = calls.clone();
    g.add_channel("n", Reducer::LastValue)
        .add_node("a", move |_: &State, _: &NodeContext| {
            log.push("a");
            Ok(json!({}))
        })
        .add_edge(START, "a")
        .add_edge("a", END);
    g.set_node_cache_policy("a", Some(CachePolicy::default()));
    let app = g.compile(opts(&saver)).unwrap();
    app.invoke(json!({"n": 1}), &thread("a")).unwrap();
    app.invoke(json!({"n": 1}), &thread("b")).unwrap();
    assert_eq!(calls.take(), ["a", "a"]);
    app.clear_cache(None).unwrap();
}
