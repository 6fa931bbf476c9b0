//! Every scenario in tests/conformance produces exactly the trace LangGraph
//! produced for it. The folders are read at test time, so a scenario file
//! dropped into one (with its trace in the matching `expected/`) is checked
//! without touching this file:
//! - `scenarios/` + `expected/`: the public scenarios of FORMAT.md;
//! - `random/`: random scenarios with LangGraph as the oracle;
//! - `extensions/`: persistent subgraphs, `durability`, deferred nodes
//!   (`defer_*`) and node error handlers (`error_handler_*`; its own FORMAT.md);
//! - `regressions/`: generated scenarios that once failed, kept as regressions.
//!
//! `CONFORMANCE_DIR=path cargo test --test conformance extra_dir` checks
//! any other folder laid out the same way (`path/scenarios`, `path/expected`).

use chronograph_scenario::{compare_traces, Scenario};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance")
}

/// Scenario names (file stems) of `dir/scenarios`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir.join("scenarios")) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| {
            let path = e.ok()?.path();
            if path.extension()? != "json" {
                return None;
            }
            Some(path.file_stem()?.to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    names
}

/// The first difference between the expected and the actual trace of one
/// scenario, or `None` when they match.
fn check(dir: &Path, name: &str) -> Option<String> {
    let read = |sub: &str| std::fs::read_to_string(dir.join(sub).join(format!("{name}.json")));
    let scenario = match read("scenarios") {
        Ok(text) => text,
        Err(e) => return Some(format!("cannot read the scenario: {e}")),
    };
    let expected: Value = match read("expected").map(|t| serde_json::from_str(&t)) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => return Some(format!("bad expected trace: {e}")),
        Err(e) => return Some(format!("no expected trace: {e}")),
    };
    match Scenario::parse(&scenario).and_then(|s| s.run()) {
        Ok(actual) => compare_traces(&expected, &actual),
        Err(e) => Some(format!("the scenario did not run: {e}")),
    }
}

/// Checks every scenario of `dir`; fails listing each mismatch.
fn check_all(dir: &Path, at_least: usize) {
    check_matching(dir, |_| true, at_least);
}

/// Checks the scenarios of `dir` whose names `pick` selects; fails listing
/// each mismatch.
fn check_matching(dir: &Path, pick: impl Fn(&str) -> bool, at_least: usize) {
    let names: Vec<String> = names(dir).into_iter().filter(|n| pick(n)).collect();
    assert!(
        names.len() >= at_least,
        "{}: expected at least {at_least} scenarios, found {}",
        dir.display(),
        names.len()
    );
    let failures: Vec<String> = names
        .iter()
        .filter_map(|n| check(dir, n).map(|diff| format!("{n}: {diff}")))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} scenarios in {} differ from LangGraph:\n{}",
        failures.len(),
        names.len(),
        dir.display(),
        failures.join("\n")
    );
}

#[test]
fn public_scenarios_match_langgraph() {
    check_all(&conformance_dir(), 11);
}

#[test]
fn random_scenarios_match_langgraph() {
    check_all(&conformance_dir().join("random"), 40);
}

#[test]
fn extension_scenarios_match_langgraph() {
    // Persistent subgraphs and `durability` (extensions/FORMAT.md).
    check_matching(
        &conformance_dir().join("extensions"),
        |n| {
            !n.starts_with("defer_")
                && !n.starts_with("error_handler_")
                && !n.starts_with("overwrite_")
                && !n.starts_with("untracked_")
        },
        10,
    );
}

#[test]
fn a_failed_node_runs_its_error_handler_in_the_same_superstep() {
    // `add_node(error_handler=...)`, `set_node_defaults(error_handler=...)`
    // (extensions/FORMAT.md, "Error handlers").
    check_matching(
        &conformance_dir().join("extensions"),
        |n| n.starts_with("error_handler_"),
        8,
    );
}

#[test]
fn deferred_nodes_run_when_the_run_would_end() {
    // `add_node(defer=True)` (extensions/FORMAT.md, "Deferred nodes").
    check_matching(
        &conformance_dir().join("extensions"),
        |n| n.starts_with("defer_"),
        8,
    );
}

#[test]
fn an_overwrite_replaces_a_reducer_channel_value() {
    // LangGraph's `Overwrite` in its wire form, `{"__overwrite__": v}`
    // (extensions/FORMAT.md, "Overwrite").
    check_matching(
        &conformance_dir().join("extensions"),
        |n| n.starts_with("overwrite_"),
        4,
    );
}

#[test]
fn an_untracked_value_is_never_checkpointed() {
    // `Annotated[Any, UntrackedValue(Any)]` (extensions/FORMAT.md, "UntrackedValue").
    check_matching(
        &conformance_dir().join("extensions"),
        |n| n.starts_with("untracked_"),
        3,
    );
}

#[test]
fn regression_scenarios_match_langgraph() {
    check_all(&conformance_dir().join("regressions"), 28);
}

#[test]
fn extra_dir() {
    if let Ok(dir) = std::env::var("CONFORMANCE_DIR") {
        check_all(Path::new(&dir), 1);
    }
}

#[test]
fn every_scenario_has_an_expected_trace() {
    for dir in [
        conformance_dir(),
        conformance_dir().join("random"),
        conformance_dir().join("extensions"),
        conformance_dir().join("regressions"),
    ] {
        for n in names(&dir) {
            assert!(
                dir.join("expected").join(format!("{n}.json")).exists(),
                "{}: {n} has no expected trace",
                dir.display()
            );
        }
    }
}

/// `wasm_conformance.rs` embeds the scenarios by name (a wasm test cannot
/// read the file system): it must name every public and random one. To
/// regenerate its list:
/// `for f in tests/conformance/scenarios/*.json; do echo "scenario!($(basename $f .json));"; done`
/// and the same over `random/scenarios` with `scenario!(random NAME);`.
#[test]
fn every_scenario_runs_in_wasm_too() {
    let listed = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("wasm/tests/wasm_conformance.rs"),
    )
    .expect("core/wasm/tests/wasm_conformance.rs");
    let listed: String = listed.split_whitespace().collect::<Vec<_>>().join(" ");
    for (dir, prefix) in [
        (conformance_dir(), ""),
        (conformance_dir().join("random"), "random "),
    ] {
        for n in names(&dir) {
            let wanted = format!("{prefix}{n}");
            assert!(
                listed.contains(&format!("scenario!({wanted});"))
                    || listed.contains(&format!("scenario!( {wanted},")),
                "core/wasm/tests/wasm_conformance.rs does not run {wanted}"
            );
        }
    }
}
