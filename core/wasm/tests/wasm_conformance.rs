//! The conformance scenarios again, compiled to wasm32 and run under Node
//! (`wasm-pack test --node core/wasm --test wasm_conformance`): the engine the
//! npm package and the visualizer ship gives LangGraph's traces too. The
//! files are embedded because a wasm test cannot read the file system; the
//! native `conformance` test checks that this list names every scenario
//! (regenerate it with the command in `every_scenario_runs_in_wasm_too`).

use chronograph_scenario::{compare_traces, Scenario};
use serde_json::Value;
use wasm_bindgen_test::wasm_bindgen_test;

fn check(name: &str, scenario: &str, expected: &str) {
    let expected: Value = serde_json::from_str(expected).expect("expected trace is JSON");
    let actual = Scenario::parse(scenario)
        .and_then(|s| s.run())
        .expect("scenario runs");
    if let Some(diff) = compare_traces(&expected, &actual) {
        panic!("{name}: {diff}");
    }
}

/// `scenario!(name)` for `tests/conformance/`, `scenario!(random name)` for
/// `tests/conformance/random/`, `scenario!(random name, ignore = "why")` for
/// one that is run only on request (`-- --ignored`).
macro_rules! scenario {
    ($name:ident) => {
        scenario!(@ "../../../tests/conformance/", $name);
    };
    (random $name:ident) => {
        scenario!(@ "../../../tests/conformance/random/", $name);
    };
    (random $name:ident, ignore = $why:tt) => {
        scenario!(@ "../../../tests/conformance/random/", $name, #[ignore = $why]);
    };
    (@ $dir:literal, $name:ident $(, #[ignore = $why:tt])?) => {
        #[wasm_bindgen_test]
        $(#[ignore = $why])?
        fn $name() {
            check(
                stringify!($name),
                include_str!(concat!($dir, "scenarios/", stringify!($name), ".json")),
                include_str!(concat!($dir, "expected/", stringify!($name), ".json")),
            );
        }
    };
}

scenario!(command_goto);
scenario!(docs_foo_bar);
scenario!(errors_basic);
scenario!(loop_router);
scenario!(parallel_fanout);
scenario!(seed_ab);
scenario!(seed_booking);
scenario!(send_map_reduce);
scenario!(subgraph_basic);
scenario!(subgraph_interrupt);
scenario!(subgraph_update);

scenario!(random rand_2001);
scenario!(random rand_2002);
scenario!(random rand_2003);
scenario!(random rand_2004);
scenario!(random rand_2007);
scenario!(random rand_2008);
scenario!(random rand_2009);
scenario!(random rand_2010);
scenario!(random rand_2011);
scenario!(random rand_2012);
scenario!(random rand_2014);
scenario!(random rand_2015);
scenario!(random rand_2016);
scenario!(random rand_2017);
scenario!(random rand_2022);
scenario!(random rand_2023);
scenario!(random rand_2024);
scenario!(random rand_2025);
scenario!(random rand_2026);
scenario!(random rand_2027);
scenario!(random rand_2030);
scenario!(random rand_2031);
scenario!(random rand_2032);
scenario!(random rand_2033);
scenario!(random rand_2034);
scenario!(random rand_2036);
scenario!(random rand_2037);
scenario!(random rand_2038);
scenario!(random rand_2039);
scenario!(random rand_2040);
scenario!(random rand_2041);
scenario!(random rand_2044);
scenario!(random rand_2046);
scenario!(random rand_2047);
scenario!(random rand_2048);
scenario!(random rand_2051);
scenario!(random rand_2052);
scenario!(random rand_2053);
scenario!(random rand_2055);
scenario!(random rand_2056);
