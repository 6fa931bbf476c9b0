//! The conformance scenarios again, compiled to wasm32 and run under Node
//! (`wasm-pack test --node core -- --test wasm_conformance`): the engine the
//! npm package and the visualizer ship gives LangGraph's traces too. The
//! files are embedded because a wasm test cannot read the file system.

use chronograph::scenario::{compare_traces, Scenario};
use serde_json::Value;
use wasm_bindgen_test::wasm_bindgen_test;

macro_rules! scenario {
    ($name:ident) => {
        #[wasm_bindgen_test]
        fn $name() {
            let scenario = include_str!(concat!(
                "../../tests/conformance/scenarios/",
                stringify!($name),
                ".json"
            ));
            let expected = include_str!(concat!(
                "../../tests/conformance/expected/",
                stringify!($name),
                ".json"
            ));
            let expected: Value = serde_json::from_str(expected).expect("expected trace is JSON");
            let actual = Scenario::parse(scenario)
                .and_then(|s| s.run())
                .expect("scenario runs");
            if let Some(diff) = compare_traces(&expected, &actual) {
                panic!("{}: {diff}", stringify!($name));
            }
        }
    };
}

scenario!(docs_foo_bar);
scenario!(errors_basic);
scenario!(loop_router);
scenario!(parallel_fanout);
scenario!(seed_ab);
scenario!(seed_booking);
