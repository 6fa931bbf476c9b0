//! Writes a generated thread of at least N checkpoints (default 2,000) on the
//! counter scenario, with a replay branch every few rounds, as a
//! `ThreadExport` JSON to stdout. The end-to-end suite imports it to check
//! that a 2,000-checkpoint tree renders and stays interactive.
//!
//!   cargo run -q -p chronograph-web --example big_thread -- 2000 > thread.json

use chronograph_web::scenarios;
use chronograph_web::session::Session;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let scenario = scenarios::by_id("counter").expect("built-in");
    let mut s = Session::new(scenario.graph().expect("valid")).expect("compiles");
    let mut round = 0usize;
    let mut count = 0usize;
    while count < n {
        round += 1;
        s.invoke(serde_json::json!({"step": round}), None)
            .expect("runs");
        count += 4;
        if round % 6 == 0 && count < n {
            // Replay a checkpoint from a few rounds back: a new branch.
            let views = s.checkpoints();
            let at = views[views.len().saturating_sub(11)].id.clone();
            let out = s.replay(&at).expect("replays");
            count += out.created.len();
        }
    }
    let data = s.export().expect("the thread exists");
    println!("{}", serde_json::to_string(&data).expect("serializes"));
}
