//! Times the Session calls the app makes on a big thread (a developer tool).
//!
//!   cargo run --release -q -p chronograph-web --example profile_big -- thread.json
use chronograph_web::scenarios;
use chronograph_web::session::Session;
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("a ThreadExport JSON file");
    let data =
        serde_json::from_str(&std::fs::read_to_string(path).expect("readable")).expect("an export");
    let mut s = Session::new(scenarios::by_id("counter").unwrap().graph().unwrap()).unwrap();
    let t = Instant::now();
    s.import(data).unwrap();
    println!("import: {:?}", t.elapsed());
    let t = Instant::now();
    let views = s.checkpoints();
    println!("checkpoints(): {:?} ({} views)", t.elapsed(), views.len());
    let t = Instant::now();
    let _ = s.head();
    println!("head(): {:?}", t.elapsed());
    let t = Instant::now();
    let _ = chronograph_web::inspect::snapshot(&s, &views[10].id);
    println!("snapshot(c10): {:?}", t.elapsed());
    let t = Instant::now();
    let _ = s.export();
    println!("export(): {:?}", t.elapsed());
    let t = Instant::now();
    let _ = s.labels();
    println!("labels(): {:?}", t.elapsed());
    let t = Instant::now();
    let id = views[100].id.clone();
    let _ = s.copy(&id);
    println!("copy(): {:?}", t.elapsed());
}
