//! Spec §9 and §15.11–15.13, 15.18: static breakpoints
//! (`interrupt_before` / `interrupt_after`) and dynamic `interrupt(value)`
//! with `Command(resume=...)`.

mod common;

use chronograph::{
    CheckpointSaver, Command, CompileOptions, CompiledGraph, InMemorySaver, Interrupt, NodeContext,
    Reducer, Resume, RunInput, State, StateGraph, StreamEvent, END, NULL_TASK_ID, START,
};
use common::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::rc::Rc;

const T: &str = "t";

fn with_breakpoints(before: &[&str], after: &[&str]) -> (Rc<InMemorySaver>, CompiledGraph, Calls) {
    let saver = saver();
    let options = CompileOptions {
        interrupt_before: before.iter().map(|s| (*s).to_owned()).collect(),
        interrupt_after: after.iter().map(|s| (*s).to_owned()).collect(),
        ..opts(&saver)
    };
    let (app, calls) = booking_graph(&saver, options);
    (saver, app, calls)
}

fn resume(v: Value) -> RunInput {
    RunInput::Command(Command::resume(v))
}

fn resume_by_id(answers: &[(&str, Value)]) -> RunInput {
    RunInput::Command(Command {
        resume: Some(Resume::ById(
            answers
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect::<BTreeMap<_, _>>(),
        )),
        ..Default::default()
    })
}

fn xxh3_id(key: &str) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(key.as_bytes()))
}

/// `START -> a -> z -> END`; `a` asks `questions` in turn and logs the answers.
fn asking(questions: &'static [&'static str]) -> (Rc<InMemorySaver>, CompiledGraph, Calls) {
    let saver = saver();
    let calls = Calls::default();
    let mut g = StateGraph::new();
    let c = calls.clone();
    g.add_channel("log", Reducer::Append)
        .add_node("a", move |_: &State, ctx: &NodeContext| {
            c.push("a");
            let mut answers = Vec::new();
            for q in questions {
                let answer = ctx.interrupt(json!(q))?;
                answers.push(answer.as_str().unwrap_or_default().to_owned());
            }
            Ok(json!({"log": [format!("a:{}", answers.join(":"))]}))
        })
        .add_node("z", appender_to("log", &calls, "z"))
        .add_edge(START, "a")
        .add_edge("a", "z")
        .add_edge("z", END);
    let app = g.compile(opts(&saver)).unwrap();
    (saver, app, calls)
}

/// `START -> x`, `START -> y`: both ask at once.
fn two_askers() -> (Rc<InMemorySaver>, CompiledGraph, Calls) {
    let saver = saver();
    let calls = Calls::default();
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append);
    for name in ["x", "y"] {
        let c = calls.clone();
        g.add_node(name, move |_: &State, ctx: &NodeContext| {
            c.push(name);
            let answer = ctx.interrupt(json!(format!("{name}?")))?;
            Ok(json!({"log": [format!("{name}:{}", answer.as_str().unwrap_or_default())]}))
        })
        .add_edge(START, name);
    }
    let app = g.compile(opts(&saver)).unwrap();
    (saver, app, calls)
}

fn log(values: &Value) -> Vec<String> {
    strings(&values["log"])
}

// --- static breakpoints -----------------------------------------------------

#[test]
fn interrupt_before_writes_no_checkpoint() {
    let (saver, app, calls) = with_breakpoints(&["reply"], &[]);
    let out = app.invoke(say("hi"), &thread(T)).unwrap();
    assert_eq!(calls.take(), ["booking"]);
    assert!(out.interrupts.is_empty(), "no __interrupt__ in the result");
    assert!(out.clone().into_value().get("__interrupt__").is_none());
    // The latest checkpoint is the step that ran last; it already says what is next.
    assert_eq!(
        steps(&app, &thread(T)),
        [
            row(1, "loop", &["reply"]),
            row(0, "loop", &["booking"]),
            row(-1, "input", &["__start__"])
        ]
    );
    let snap = app.get_state(&thread(T)).unwrap();
    assert!(snap.interrupts.is_empty());
    assert!(snap.tasks[0].interrupts.is_empty());
    assert!(latest(&*saver, T).pending_writes.is_empty());
}

#[test]
fn a_breakpoint_streams_an_empty_interrupt() {
    let (_saver, app, _) = with_breakpoints(&["reply"], &[]);
    let (events, _) = app.stream(say("hi"), &thread(T)).unwrap();
    assert_eq!(events.last(), Some(&StreamEvent::Interrupted(vec![])));
}

#[test]
fn resuming_from_a_breakpoint_runs_the_paused_node_without_an_extra_checkpoint() {
    let (_saver, app, calls) = with_breakpoints(&["reply"], &[]);
    app.invoke(say("hi"), &thread(T)).unwrap();
    calls.take();
    app.invoke(Value::Null, &thread(T)).unwrap();
    assert_eq!(calls.take(), ["reply"]);
    let got: Vec<(i64, &str)> = steps(&app, &thread(T)).iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(got, [(2, "loop"), (1, "loop"), (0, "loop"), (-1, "input")]);
}

#[test]
fn interrupt_after_saves_the_step_then_stops() {
    let (_saver, app, calls) = with_breakpoints(&[], &["booking"]);
    app.invoke(say("hi"), &thread(T)).unwrap();
    assert_eq!(calls.take(), ["booking"]);
    assert_eq!(steps(&app, &thread(T))[0], row(1, "loop", &["reply"]));
    app.invoke(Value::Null, &thread(T)).unwrap();
    assert_eq!(calls.take(), ["reply"]);
}

#[test]
fn interrupt_before_star_advances_one_node_per_invoke_and_never_stops_at_start() {
    let (_saver, app, calls) = with_breakpoints(&["*"], &[]);
    app.invoke(say("hi"), &thread(T)).unwrap();
    assert!(calls.take().is_empty());
    assert_eq!(app.get_state(&thread(T)).unwrap().next, ["booking"]);
    app.invoke(Value::Null, &thread(T)).unwrap();
    assert_eq!(calls.take(), ["booking"]);
    app.invoke(Value::Null, &thread(T)).unwrap();
    assert_eq!(calls.take(), ["reply"]);
    assert!(app.get_state(&thread(T)).unwrap().next.is_empty());
}

#[test]
fn later_breakpoints_fire_normally_after_a_resume() {
    let (_saver, app, calls) = with_breakpoints(&["booking", "reply"], &[]);
    app.invoke(say("hi"), &thread(T)).unwrap();
    assert!(calls.take().is_empty());
    app.invoke(Value::Null, &thread(T)).unwrap();
    assert_eq!(calls.take(), ["booking"]);
    assert_eq!(app.get_state(&thread(T)).unwrap().next, ["reply"]);
    app.invoke(Value::Null, &thread(T)).unwrap();
    assert_eq!(calls.take(), ["reply"]);
}

#[test]
fn new_input_at_a_breakpoint_discards_the_pending_task_and_pauses_there_again() {
    let (_saver, app, calls) = with_breakpoints(&["reply"], &[]);
    app.invoke(say("hi 1"), &thread(T)).unwrap();
    calls.take();
    app.invoke(say("hi 2"), &thread(T)).unwrap();
    assert_eq!(
        calls.take(),
        ["booking"],
        "reply never ran for the first input"
    );
    let head = app.get_state(&thread(T)).unwrap();
    assert_eq!(head.next, ["reply"]);
    assert_eq!(
        contents(&head.values.to_json(), "messages"),
        ["hi 1", "booked (saw 1)", "hi 2", "booked (saw 3)"]
    );
    let input = history(&app, &thread(T))
        .into_iter()
        .find(|s| source_of(s) == "input" && step_of(s) == 2)
        .unwrap();
    assert_eq!(input.next, ["__start__"], "the pending reply was dropped");
}

#[test]
fn editing_at_a_breakpoint_infers_the_last_node_and_keeps_next() {
    let (_saver, app, calls) = with_breakpoints(&["reply"], &[]);
    app.invoke(say("hi"), &thread(T)).unwrap();
    calls.take();
    app.update_state(&thread(T), Some(json!({"messages": [ai("booked!")]})), None)
        .unwrap();
    assert_eq!(steps(&app, &thread(T))[0], row(2, "update", &["reply"]));
    app.invoke(Value::Null, &thread(T)).unwrap();
    assert_eq!(calls.take(), ["reply"], "no second pause");
    assert_eq!(
        steps(&app, &thread(T))[..3],
        [
            row(3, "loop", &[]),
            row(2, "update", &["reply"]),
            row(1, "loop", &["reply"])
        ]
    );
}

// --- dynamic interrupt() ----------------------------------------------------

#[test]
fn interrupt_writes_no_checkpoint_until_the_node_completes() {
    let (saver, app, calls) = asking(&["approve?"]);
    let out = app.invoke(json!({"log": []}), &thread(T)).unwrap();
    assert_eq!(calls.take(), ["a"]);
    assert_eq!(out.interrupts.len(), 1);
    let raised = out.interrupts[0].clone();
    assert_eq!(raised.value, json!("approve?"));
    assert_eq!(
        out.into_value()["__interrupt__"],
        json!([{"value": "approve?", "id": raised.id}])
    );
    assert_eq!(steps(&app, &thread(T))[0], row(0, "loop", &["a"]));

    let live = app.get_state(&thread(T)).unwrap();
    assert_eq!(live.tasks[0].interrupts, std::slice::from_ref(&raised));
    assert_eq!(live.interrupts, std::slice::from_ref(&raised));
    assert_eq!(live.tasks[0].result, None);
    let rows = latest(&*saver, T).pending_writes;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].channel, "__interrupt__");
    assert_eq!(rows[0].task_id, live.tasks[0].id);
}

#[test]
fn the_interrupt_id_is_the_xxh3_of_the_task_namespace() {
    let (_saver, app, _) = asking(&["first?", "second?"]);
    let out = app.invoke(json!({"log": []}), &thread(T)).unwrap();
    let task = app.get_state(&thread(T)).unwrap().tasks[0].id.clone();
    assert_eq!(out.interrupts[0].id, xxh3_id(&format!("a:{task}")));
    let out = app.invoke(resume(json!("yes")), &thread(T)).unwrap();
    assert_eq!(out.interrupts[0].id, xxh3_id(&format!("a:{task}|1")));
}

#[test]
fn a_resume_answers_the_interrupt_and_reruns_the_node_from_the_top() {
    let (_saver, app, calls) = asking(&["approve?"]);
    app.invoke(json!({"log": []}), &thread(T)).unwrap();
    calls.take();
    let out = app.invoke(resume(json!("yes")), &thread(T)).unwrap();
    assert_eq!(calls.take(), ["a", "z"]);
    assert!(out.interrupts.is_empty());
    assert_eq!(log(&out.values.to_json()), ["a:yes", "z"]);
    assert_eq!(
        steps(&app, &thread(T))[..3],
        [
            row(2, "loop", &[]),
            row(1, "loop", &["z"]),
            row(0, "loop", &["a"])
        ]
    );
}

#[test]
fn a_node_with_two_interrupts_needs_two_resumes() {
    let (saver, app, calls) = asking(&["first?", "second?"]);
    app.invoke(json!({"log": []}), &thread(T)).unwrap();
    let out = app.invoke(resume(json!("yes")), &thread(T)).unwrap();
    assert_eq!(calls.take(), ["a", "a"]);
    assert_eq!(out.interrupts[0].value, json!("second?"));
    assert_eq!(
        steps(&app, &thread(T))[0],
        row(0, "loop", &["a"]),
        "still no checkpoint"
    );
    let task = app.get_state(&thread(T)).unwrap().tasks[0].id.clone();
    let rows: Vec<(String, String, Value)> = latest(&*saver, T)
        .pending_writes
        .into_iter()
        .map(|w| (w.task_id, w.channel, w.value))
        .collect();
    assert_eq!(
        rows,
        [
            (
                NULL_TASK_ID.to_owned(),
                "__resume__".to_owned(),
                json!("yes")
            ),
            (task.clone(), "__resume__".to_owned(), json!(["yes"])),
            (
                task.clone(),
                "__interrupt__".to_owned(),
                json!([{"value": "second?", "id": out.interrupts[0].id}])
            ),
        ]
    );

    let out = app.invoke(resume(json!("ok2")), &thread(T)).unwrap();
    assert_eq!(calls.take(), ["a", "z"]);
    assert_eq!(log(&out.values.to_json()), ["a:yes:ok2", "z"]);
    assert_eq!(
        steps(&app, &thread(T))[..2],
        [row(2, "loop", &[]), row(1, "loop", &["z"])]
    );
    // In history that step's task shows the last interrupt it raised and its result.
    let step0 = history(&app, &thread(T))
        .into_iter()
        .find(|s| step_of(s) == 0)
        .unwrap();
    let a = &step0.tasks[0];
    assert_eq!(
        a.interrupts
            .iter()
            .map(|i| i.value.clone())
            .collect::<Vec<_>>(),
        [json!("second?")]
    );
    assert_eq!(a.result, Some(json!({"log": ["a:yes:ok2"]})));
}

#[test]
fn parallel_interrupts_must_be_resumed_by_id() {
    let (saver, app, calls) = two_askers();
    let out = app.invoke(json!({"log": []}), &thread(T)).unwrap();
    let mut ran = calls.take();
    ran.sort();
    assert_eq!(ran, ["x", "y"]);
    let ids: BTreeMap<String, String> = out
        .interrupts
        .iter()
        .map(|i| (i.value.as_str().unwrap().to_owned(), i.id.clone()))
        .collect();
    assert_eq!(ids.len(), 2);

    fails_cleanly(
        &saver,
        T,
        "RuntimeError: When there are multiple pending interrupts, you must specify the interrupt id when resuming. Docs: https://docs.langchain.com/oss/python/langgraph/interrupts#handling-multiple-interrupts.",
        || app.invoke(resume(json!("v")), &thread(T)),
    );
    assert!(calls.take().is_empty());

    let out = app
        .invoke(resume_by_id(&[(&ids["x?"], json!("X"))]), &thread(T))
        .unwrap();
    let mut ran = calls.take();
    ran.sort();
    assert_eq!(ran, ["x", "y"], "every unfinished task re-runs");
    assert_eq!(
        out.interrupts,
        [Interrupt {
            value: json!("y?"),
            id: ids["y?"].clone()
        }]
    );
    // Live: only y's unanswered interrupt. Record: each task's latest one.
    let live = app.get_state(&thread(T)).unwrap();
    assert_eq!(live.next, ["y"]);
    assert_eq!(live.interrupts, out.interrupts);
    assert!(live.tasks[0].interrupts.is_empty());
    let record = app.get_state(&at(T, &id_of(&live))).unwrap();
    assert_eq!(record.next, ["x", "y"]);
    let shown: Vec<Value> = record.interrupts.iter().map(|i| i.value.clone()).collect();
    assert_eq!(shown, [json!("x?"), json!("y?")]);

    let out = app
        .invoke(resume_by_id(&[(&ids["y?"], json!("Y"))]), &thread(T))
        .unwrap();
    assert_eq!(calls.take(), ["y"], "x finished and is not run again");
    assert_eq!(log(&out.values.to_json()), ["x:X", "y:Y"]);
    assert!(app.get_state(&thread(T)).unwrap().next.is_empty());
}

/// `START -> p`, `START -> q`, `START -> ask`: `p` and `q` both write the
/// `LastValue` channel `last` while `ask` calls `interrupt()`.
fn colliding_writers_beside_an_interrupt() -> (Rc<InMemorySaver>, CompiledGraph) {
    let saver = saver();
    let mut g = StateGraph::new();
    g.add_channel("last", Reducer::LastValue)
        .add_channel("answer", Reducer::LastValue)
        .add_node("p", |_: &State, _: &NodeContext| Ok(json!({"last": "p"})))
        .add_node("q", |_: &State, _: &NodeContext| Ok(json!({"last": "q"})))
        .add_node("ask", |_: &State, ctx: &NodeContext| {
            Ok(json!({"answer": ctx.interrupt(json!("ask?"))?}))
        });
    for name in ["p", "q", "ask"] {
        g.add_edge(START, name);
    }
    let app = g.compile(opts(&saver)).unwrap();
    (saver, app)
}

#[test]
fn a_paused_step_whose_finished_writes_collide_fails_with_invalid_update_not_the_interrupt() {
    let (saver, app) = colliding_writers_beside_an_interrupt();
    let collide = "InvalidUpdateError: At key 'last': Can receive only one value per step.";
    let err = app.invoke(json!({"last": "0"}), &thread(T)).unwrap_err();
    assert!(err.to_string().starts_with(collide), "{err}");
    // The step was saved before its writes were applied for the returned
    // state: its checkpoint keeps the interrupt, and resuming it applies
    // the same colliding writes again.
    let head = latest(&*saver, T);
    assert_eq!(head.metadata.step, 0);
    assert!(head
        .pending_writes
        .iter()
        .any(|w| w.channel == "__interrupt__"));
    let err = app.invoke(resume(json!("yes")), &thread(T)).unwrap_err();
    assert!(err.to_string().starts_with(collide), "{err}");
}

#[test]
fn new_input_while_paused_inside_interrupt_discards_the_task_and_asks_again_with_a_new_id() {
    let (_saver, app, calls) = asking(&["approve?"]);
    let first = app.invoke(json!({"log": ["one"]}), &thread(T)).unwrap();
    let second = app.invoke(json!({"log": ["two"]}), &thread(T)).unwrap();
    assert_eq!(calls.take(), ["a", "a"]);
    assert_eq!(second.interrupts.len(), 1);
    assert_ne!(second.interrupts[0].id, first.interrupts[0].id);
    assert_eq!(log(&second.values.to_json()), ["one", "two"]);
    let got: Vec<(i64, &str)> = steps(&app, &thread(T)).iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(got, [(2, "loop"), (1, "input"), (0, "loop"), (-1, "input")]);
}

#[test]
fn replay_drops_resume_answers_so_interrupt_asks_again_with_a_new_id() {
    let (_saver, app, calls) = asking(&["approve?"]);
    let first = app.invoke(json!({"log": []}), &thread(T)).unwrap();
    app.invoke(resume(json!("yes")), &thread(T)).unwrap();
    calls.take();
    let step0 = history(&app, &thread(T))
        .into_iter()
        .find(|s| step_of(s) == 0)
        .unwrap();
    let out = app.invoke(Value::Null, &at(T, &id_of(&step0))).unwrap();
    assert_eq!(calls.take(), ["a"]);
    assert_eq!(out.interrupts.len(), 1);
    assert_ne!(out.interrupts[0].id, first.interrupts[0].id);
    assert_eq!(steps(&app, &thread(T))[0], row(1, "fork", &["a"]));
}

#[test]
fn resuming_a_superseded_interrupted_checkpoint_reuses_the_old_answers() {
    let (saver, app, calls) = two_askers();
    let out = app.invoke(json!({"log": []}), &thread(T)).unwrap();
    let ids: BTreeMap<String, String> = out
        .interrupts
        .iter()
        .map(|i| (i.value.as_str().unwrap().to_owned(), i.id.clone()))
        .collect();
    let asked = id_of(&app.get_state(&thread(T)).unwrap());
    app.invoke(
        resume_by_id(&[(&ids["x?"], json!("X")), (&ids["y?"], json!("Y"))]),
        &thread(T),
    )
    .unwrap();
    calls.take();
    let count = stored(&*saver, T).len();

    let out = app
        .invoke(
            resume_by_id(&[(&ids["x?"], json!("X3")), (&ids["y?"], json!("Y3"))]),
            &at(T, &asked),
        )
        .unwrap();
    let mut ran = calls.take();
    ran.sort();
    assert_eq!(ran, ["x", "y"]);
    assert_eq!(
        log(&out.values.to_json()),
        ["x:X", "y:Y"],
        "the recorded answers win"
    );
    let after = stored(&*saver, T);
    assert_eq!(after.len(), count + 1, "one loop checkpoint, no fork");
    assert_eq!(after[0].metadata.source.as_str(), "loop");
    assert_eq!(
        after[0]
            .parent_config
            .as_ref()
            .and_then(|p| p.checkpoint_id.clone()),
        Some(asked)
    );
}

#[test]
fn a_resume_on_the_latest_checkpoint_by_id_is_a_normal_resume() {
    let (_saver, app, calls) = asking(&["approve?"]);
    app.invoke(json!({"log": []}), &thread(T)).unwrap();
    calls.take();
    let head = id_of(&app.get_state(&thread(T)).unwrap());
    let out = app.invoke(resume(json!("yes")), &at(T, &head)).unwrap();
    assert_eq!(calls.take(), ["a", "z"]);
    assert_eq!(log(&out.values.to_json()), ["a:yes", "z"]);
    assert!(steps(&app, &thread(T)).iter().all(|r| r.1 != "fork"));
}

#[test]
fn a_resume_value_is_shown_to_the_saver_as_a_null_task_row() {
    let (saver, app, _) = asking(&["approve?"]);
    app.invoke(json!({"log": []}), &thread(T)).unwrap();
    let paused = latest(&*saver, T).config;
    app.invoke(resume(json!("yes")), &thread(T)).unwrap();
    let rows = saver.get_tuple(&paused).unwrap().unwrap().pending_writes;
    assert_eq!(rows[0].task_id, NULL_TASK_ID);
    assert_eq!(
        (rows[0].channel.as_str(), &rows[0].value),
        ("__resume__", &json!("yes"))
    );
}

#[test]
fn a_resume_records_the_versions_it_resumed_from_under_interrupt() {
    let (saver, app, _) = with_breakpoints(&["reply"], &[]);
    app.invoke(say("hi"), &thread(T)).unwrap();
    let paused = latest(&*saver, T).checkpoint;
    assert!(!paused.versions_seen.contains_key("__interrupt__"));
    app.invoke(Value::Null, &thread(T)).unwrap();
    let resumed = latest(&*saver, T).checkpoint;
    assert_eq!(
        resumed.versions_seen["__interrupt__"],
        paused.channel_versions
    );
}

// --- interrupts a node raises itself (LangGraph.js's NodeInterrupt) -----------

/// `START -> gate`: `gate` raises `Interrupt { value: "closed", id: "" }`
/// until the input says "open".
fn gate() -> (Rc<InMemorySaver>, CompiledGraph, Calls) {
    let saver = saver();
    let calls = Calls::default();
    let c = calls.clone();
    let mut g = StateGraph::new();
    g.add_channel("log", Reducer::Append)
        .add_channel("key", Reducer::LastValue)
        .add_node("gate", move |s: &State, ctx: &NodeContext| {
            c.push("gate");
            if s.get_json("key") != Some(json!("open")) {
                let raised = Interrupt {
                    value: json!("closed"),
                    id: String::new(),
                };
                return Err(ctx.raise(vec![raised]));
            }
            Ok(json!({"log": ["passed"]}))
        })
        .add_edge(START, "gate");
    let app = g.compile(opts(&saver)).unwrap();
    (saver, app, calls)
}

#[test]
fn a_raised_interrupt_pauses_with_its_value_and_no_id() {
    let (saver, app, calls) = gate();
    let out = app.invoke(json!({"key": "shut"}), &thread(T)).unwrap();
    assert_eq!(
        out.clone().into_value()["__interrupt__"],
        json!([{"value": "closed"}])
    );
    let stored = latest(&*saver, T).pending_writes;
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].channel, "__interrupt__");
    assert_eq!(stored[0].value, json!([{"value": "closed"}]));
    assert_eq!(app.get_state(&thread(T)).unwrap().next, ["gate"]);
    // It takes no resume value: the node raises again when it runs again.
    let again = app.invoke(resume(json!("ignored")), &thread(T)).unwrap();
    assert_eq!(again.interrupts, out.interrupts);
    assert_eq!(calls.take(), ["gate", "gate"]);
    let passed = app.invoke(json!({"key": "open"}), &thread(T)).unwrap();
    assert!(passed.interrupts.is_empty());
    assert_eq!(log(&passed.into_value()), ["passed"]);
}
