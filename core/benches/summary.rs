//! One table for BENCHMARKS.md: medians of the issue-5 workloads on the core
//! alone (built-in spec nodes), the ratios the targets talk about, and memory
//! growth measured with a counting global allocator (live heap bytes).
//!
//! `cargo bench -p chronograph --bench summary` (full sizes);
//! `cargo bench -p chronograph --bench summary -- --smoke`, or without
//! `--bench` (`cargo test --benches`), runs tiny sizes once. Prints, never asserts.

mod common;

use cap::Cap;
use chronograph::CheckpointSaver;
use common::*;
use std::alloc::System;
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOC: Cap<System> = Cap::new(System, usize::MAX);

struct Sizes {
    w1_small: usize,
    w1_large: usize,
    w2_turns: usize,
    w2_window: usize,
    w3_supersteps: usize,
    w4_supersteps: usize,
    reps: usize,
}

const FULL: Sizes = Sizes {
    w1_small: 200,
    w1_large: 2000,
    w2_turns: 1000,
    w2_window: 100,
    w3_supersteps: 500,
    w4_supersteps: 200,
    reps: 7,
};

const SMOKE: Sizes = Sizes {
    w1_small: 20,
    w1_large: 200,
    w2_turns: 40,
    w2_window: 10,
    w3_supersteps: 20,
    w4_supersteps: 6,
    reps: 1,
};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Median of `reps` timed calls of `f`, each after its own untimed `setup`.
fn time<S, T>(reps: usize, mut setup: impl FnMut() -> S, mut f: impl FnMut(&S) -> T) -> Duration {
    let mut samples = Vec::with_capacity(reps);
    for _ in 0..reps {
        let input = setup();
        let start = Instant::now();
        let out = f(&input);
        samples.push(start.elapsed());
        drop(out);
        drop(input);
    }
    median(samples)
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Live heap bytes added by `f` and kept by what it returns.
fn retained<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOC.allocated();
    let out = f();
    (out, ALLOC.allocated().saturating_sub(before))
}

fn row(name: &str, value: String, note: &str) {
    println!("| {name:<52} | {value:>14} | {note} |");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--profile") {
        // One workload at full size and nothing else, for callgrind/perf.
        let size = args.get(i + 2).and_then(|n| n.parse().ok());
        profile(args.get(i + 1).map_or("w1", String::as_str), size);
        return;
    }
    let smoke = args.iter().any(|a| a == "--smoke") || !args.iter().any(|a| a == "--bench");
    let s = if smoke { &SMOKE } else { &FULL };
    println!(
        "chronograph core benches ({} sizes, median of {} runs)\n",
        if smoke { "smoke" } else { "full" },
        s.reps
    );
    println!("| {:<52} | {:>14} | note |", "workload", "value");
    println!("|{:-<54}|{:-<16}|------|", "", "");

    let run_step = w1_rows(s);
    w1_history_rows(s);
    w1_replay_rows(s, run_step);
    w2_rows(s);
    w3_rows(s);
    w4_rows(s);
    memory_rows(s);
    checkpoint_part_rows(s);
    w2_w3_memory_rows(s);
}

/// W1: time per superstep at both sizes; returns the large run's, which the replay rows compare with.
fn w1_rows(s: &Sizes) -> f64 {
    // W1: time per superstep at both sizes.
    let mut per_step = Vec::new();
    for &n in &[s.w1_small, s.w1_large] {
        let d = time(
            s.reps,
            || (Bench::new(&w1_spec(n)), thread("w1")),
            |(b, cfg)| run_w1(b, cfg),
        );
        let step = us(d) / w1_supersteps(n) as f64;
        per_step.push(step);
        row(
            &format!("W1 run, {} checkpoints: per superstep", 2 * n + 1),
            format!("{step:.2} µs"),
            &format!("whole run {:.2} ms", ms(d)),
        );
    }
    row(
        "W1 per-superstep ratio large/small run",
        format!("{:.2}x", per_step[1] / per_step[0]),
        "target ≤ 1.5x",
    );

    per_step[1]
}

/// W1 history listing on the large thread.
fn w1_history_rows(s: &Sizes) {
    // W1 history listing on the large thread.
    let n = s.w1_large;
    let (b, cfg) = w1_thread(n);
    row(
        "W1 checkpoints stored (shape check)",
        format!("{}", checkpoints(&b, &cfg)),
        &format!("expected {}", 2 * n + 1),
    );
    let d = time(s.reps * 3, || (), |_| list_metadata(&b, &cfg));
    row(
        &format!("W1 list {} checkpoints, metadata (saver.list)", 2 * n + 1),
        format!("{:.3} ms", ms(d)),
        &format!("{:.2} µs per checkpoint", us(d) / (2 * n + 1) as f64),
    );
    let d = time(
        s.reps,
        || (),
        |_| {
            b.graph
                .get_state_history(&cfg, &Default::default())
                .expect("history")
                .len()
        },
    );
    row(
        &format!("W1 get_state_history {}, values not read", 2 * n + 1),
        format!("{:.3} ms", ms(d)),
        "snapshots convert values only when read",
    );
    let d = time(s.reps.min(3), || (), |_| list_values(&b, &cfg));
    row(
        &format!("W1 get_state_history {} + values.to_json()", 2 * n + 1),
        format!("{:.3} ms", ms(d)),
        "quadratic by nature: snapshot i has i trail items",
    );
}

/// W1 replay from the middle, and the last 10 supersteps of both sizes.
fn w1_replay_rows(s: &Sizes, run_step: f64) {
    let n = s.w1_large;
    // W1 replay: from the middle, and the last 10 supersteps of both sizes.
    let replay_time = |iterations: usize, rerun: usize| {
        let last = w1_supersteps(iterations) as i64 - 1;
        time(
            s.reps,
            || {
                let (b, cfg) = w1_thread(iterations);
                let id = checkpoint_at_step(&b, &cfg, last - rerun as i64);
                (b, cfg, id)
            },
            |(b, cfg, id)| replay(b, cfg, id),
        )
    };
    let mid = replay_time(n, n);
    row(
        &format!("W1 replay from the middle ({n} supersteps re-run)"),
        format!("{:.2} ms", ms(mid)),
        &format!(
            "{:.2} µs per re-run superstep (run: {:.2})",
            us(mid) / n as f64,
            run_step
        ),
    );
    let tail = 10.min(n);
    for &iters in &[s.w1_small, s.w1_large] {
        let d = replay_time(iters, tail);
        row(
            &format!(
                "W1 replay last {tail} supersteps of {} checkpoints",
                2 * iters + 1
            ),
            format!("{:.1} µs", us(d)),
            "should not depend on history length",
        );
    }
}

/// W2: per-invoke time, first vs last window.
fn w2_rows(s: &Sizes) {
    // W2: per-invoke time, first vs last window.
    let mut firsts = Vec::new();
    let mut lasts = Vec::new();
    for _ in 0..s.reps.min(3) {
        let b = Bench::new(&w2_spec());
        let cfg = thread("chat");
        let mut turns = Vec::with_capacity(s.w2_turns);
        for i in 0..s.w2_turns {
            let start = Instant::now();
            chat_turn(&b, &cfg, i);
            turns.push(start.elapsed());
        }
        firsts.push(median(turns[..s.w2_window].to_vec()));
        lasts.push(median(turns[s.w2_turns - s.w2_window..].to_vec()));
    }
    let (first, last) = (median(firsts), median(lasts));
    row(
        &format!("W2 chat invoke, first {}", s.w2_window),
        format!("{:.2} µs", us(first)),
        "median per invoke",
    );
    row(
        &format!("W2 chat invoke, last {} (of {})", s.w2_window, s.w2_turns),
        format!("{:.2} µs", us(last)),
        &format!("{:.2}x the first", us(last) / us(first)),
    );
}

/// W3: fan-out.
fn w3_rows(s: &Sizes) {
    // W3: fan-out.
    let fan = Bench::new(&w3_spec(s.w3_supersteps));
    let fan_cfg = thread("fan");
    run_w3(&fan, &fan_cfg);
    row(
        "W3 checkpoints stored (shape check)",
        format!("{}", checkpoints(&fan, &fan_cfg)),
        &format!("expected {}", s.w3_supersteps + 2),
    );
    drop(fan);
    let d = time(
        s.reps,
        || (Bench::new(&w3_spec(s.w3_supersteps)), thread("fan")),
        |(b, cfg)| run_w3(b, cfg),
    );
    row(
        &format!("W3 fan-out {FANOUT} × {} supersteps", s.w3_supersteps),
        format!("{:.2} µs", us(d) / s.w3_supersteps as f64),
        &format!("per superstep; whole run {:.2} ms", ms(d)),
    );
}

/// W4: Send fan-out into a subgraph.
fn w4_rows(s: &Sizes) {
    // W4: Send fan-out into a subgraph.
    let w4 = Bench::w4(s.w4_supersteps);
    let w4_cfg = thread("w4");
    let results = run_w4(&w4, &w4_cfg);
    let (loops, sub) = w4_checkpoints(&w4, &w4_cfg);
    row(
        "W4 supersteps run (root \"loop\" checkpoints)",
        format!("{loops}"),
        &format!(
            "expected {}; {sub} subgraph checkpoints (expected {}), {results} results (expected {})",
            s.w4_supersteps,
            4 * FANOUT * (s.w4_supersteps - 2),
            FANOUT * (s.w4_supersteps - 2)
        ),
    );
    drop(w4);
    let d = time(
        s.reps,
        || (Bench::w4(s.w4_supersteps), thread("w4")),
        |(b, cfg)| run_w4(b, cfg),
    );
    row(
        &format!(
            "W4 Send ×{FANOUT} into a 2-node subgraph × {} supersteps",
            s.w4_supersteps
        ),
        format!("{:.2} µs", us(d) / s.w4_supersteps as f64),
        &format!("per superstep; whole run {:.2} ms", ms(d)),
    );
}

/// Memory: live heap bytes kept after W1 (graph + saver + thread).
fn memory_rows(s: &Sizes) {
    // Memory: live heap bytes kept after each workload (graph + saver + thread).
    println!();
    println!(
        "| {:<52} | {:>14} | note |",
        "memory (live heap growth)", "bytes"
    );
    println!("|{:-<54}|{:-<16}|------|", "", "");
    let mut growth = Vec::new();
    for &iters in &[s.w1_small, s.w1_large] {
        let (kept, bytes) = retained(|| w1_thread(iters));
        let checkpoints = 2 * iters + 1;
        growth.push(bytes as f64);
        row(
            &format!("after W1, {checkpoints} checkpoints"),
            format!("{bytes}"),
            &format!("{:.0} B per checkpoint", bytes as f64 / checkpoints as f64),
        );
        drop(kept);
    }
    row(
        "W1 memory ratio large/small",
        format!("{:.2}x", growth[1] / growth[0]),
        &format!(
            "linear would be {:.2}x",
            (2 * s.w1_large + 1) as f64 / (2 * s.w1_small + 1) as f64
        ),
    );
}

/// What one stored W1 checkpoint is made of.
fn checkpoint_part_rows(s: &Sizes) {
    // What one stored W1 checkpoint is made of: live bytes of a clone of
    // each part of a mid-run checkpoint's tuple (same allocations as stored).
    {
        let (b, cfg) = w1_thread(s.w1_small);
        let id = checkpoint_at_step(&b, &cfg, s.w1_small as i64);
        let t = b
            .saver
            .get_tuple(&chronograph::CheckpointConfig {
                thread_id: "w1".into(),
                checkpoint_ns: String::new(),
                checkpoint_id: Some(id),
            })
            .expect("tuple")
            .expect("stored");
        let cp = &t.checkpoint;
        let parts = [
            ("versions_seen", retained(|| cp.versions_seen.clone()).1),
            (
                "channel_versions",
                retained(|| cp.channel_versions.clone()).1,
            ),
            (
                "id + ts + updated_channels",
                retained(|| (cp.id.clone(), cp.ts.clone(), cp.updated_channels.clone())).1,
            ),
            ("metadata", retained(|| t.metadata.clone()).1),
            ("pending writes", retained(|| t.pending_writes.clone()).1),
        ];
        for (part, bytes) in parts {
            row(
                &format!("one W1 checkpoint: {part}"),
                format!("{bytes}"),
                "live bytes of a clone",
            );
        }
    }
}

/// Memory kept after W2 and W3.
fn w2_w3_memory_rows(s: &Sizes) {
    let mut chat = Vec::new();
    let (kept, total) = retained(|| {
        let b = Bench::new(&w2_spec());
        let cfg = thread("chat");
        for i in 0..s.w2_turns {
            if i == s.w2_turns / 2 {
                chat.push(ALLOC.allocated());
            }
            chat_turn(&b, &cfg, i);
        }
        b
    });
    row(
        &format!(
            "after W2, {} turns ({} messages)",
            s.w2_turns,
            2 * s.w2_turns
        ),
        format!("{total}"),
        &format!("{:.0} B per turn", total as f64 / s.w2_turns as f64),
    );
    let half = chat[0] as f64 - (ALLOC.allocated() - total) as f64;
    row(
        "W2 memory ratio all turns / first half",
        format!("{:.2}x", total as f64 / half),
        "linear would be 2.00x",
    );
    drop(kept);
    let (kept, bytes) = retained(|| {
        let b = Bench::new(&w3_spec(s.w3_supersteps));
        run_w3(&b, &thread("fan"));
        b
    });
    row(
        &format!("after W3, {} supersteps", s.w3_supersteps),
        format!("{bytes}"),
        &format!(
            "{:.0} B per superstep",
            bytes as f64 / s.w3_supersteps as f64
        ),
    );
    drop(kept);
}

/// Runs one workload once (`--profile w1|w1-list|w1-history|w1-values|w1-replay-tail|w2|w3|w4 [W1 iterations or W4 supersteps]`).
fn profile(which: &str, size: Option<usize>) {
    let n = size.unwrap_or(FULL.w1_large);
    match which {
        "w1" => drop(w1_thread(n)),
        "w1-list" => {
            let (b, cfg) = w1_thread(n);
            for _ in 0..20 {
                list_metadata(&b, &cfg);
            }
        }
        "w1-history" => {
            let (b, cfg) = w1_thread(n);
            for _ in 0..5 {
                let history = b.graph.get_state_history(&cfg, &Default::default());
                std::hint::black_box(history.expect("history").len());
            }
        }
        "w1-values" => {
            let (b, cfg) = w1_thread(FULL.w1_large);
            list_values(&b, &cfg);
        }
        "w1-replay-tail" => {
            let (b, cfg) = w1_thread(n);
            let last = w1_supersteps(n) as i64 - 1;
            let id = checkpoint_at_step(&b, &cfg, last - 10);
            for _ in 0..20 {
                replay(&b, &cfg, &id);
            }
        }
        "w2" => {
            let b = Bench::new(&w2_spec());
            let cfg = thread("chat");
            for i in 0..FULL.w2_turns {
                chat_turn(&b, &cfg, i);
            }
        }
        "w3" => {
            let b = Bench::new(&w3_spec(FULL.w3_supersteps));
            run_w3(&b, &thread("fan"));
        }
        "w4" => {
            let supersteps = size.unwrap_or(FULL.w4_supersteps);
            let b = Bench::w4(supersteps);
            run_w4(&b, &thread("w4"));
        }
        other => eprintln!("unknown workload {other}"),
    }
}
