//! Prints the trace of a scenario file (tests/conformance/FORMAT.md):
//! `cargo run -q -p chronograph --example conformance -- FILE.json`

use chronograph_scenario::Scenario;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: conformance FILE.json");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    match Scenario::parse(&text).and_then(|s| s.run()) {
        Ok(trace) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&trace).unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
