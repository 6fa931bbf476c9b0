//! Every scenario in tests/conformance/scenarios produces exactly the trace
//! LangGraph produced for it (tests/conformance/expected).

use chronograph::scenario::{compare_traces, Scenario};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance")
}

fn check(name: &str) {
    let dir = conformance_dir();
    let scenario =
        std::fs::read_to_string(dir.join("scenarios").join(format!("{name}.json"))).unwrap();
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("expected").join(format!("{name}.json"))).unwrap(),
    )
    .unwrap();
    let actual = Scenario::parse(&scenario).and_then(|s| s.run()).unwrap();
    if let Some(diff) = compare_traces(&expected, &actual) {
        panic!("{name}: {diff}");
    }
}

#[test]
fn every_scenario_file_has_an_expected_trace_and_is_listed_here() {
    let mut names: Vec<String> = std::fs::read_dir(conformance_dir().join("scenarios"))
        .unwrap()
        .map(|e| {
            e.unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "docs_foo_bar",
            "errors_basic",
            "loop_router",
            "parallel_fanout",
            "seed_ab",
            "seed_booking"
        ]
    );
    for n in &names {
        assert!(conformance_dir()
            .join("expected")
            .join(format!("{n}.json"))
            .exists());
    }
}

#[test]
fn docs_foo_bar() {
    check("docs_foo_bar");
}

#[test]
fn errors_basic() {
    check("errors_basic");
}

#[test]
fn loop_router() {
    check("loop_router");
}

#[test]
fn parallel_fanout() {
    check("parallel_fanout");
}

#[test]
fn seed_ab() {
    check("seed_ab");
}

#[test]
fn seed_booking() {
    check("seed_booking");
}
