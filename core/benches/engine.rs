//! Timing benches for the core alone (issue 5), with built-in spec nodes.
//!
//! `cargo bench -p chronograph --bench engine` (full);
//! `cargo bench -p chronograph --bench engine -- --test` runs each once.
//! Divan prints time per iteration and, where a counter is set, the rate
//! per superstep / per invoke / per checkpoint (median column = the median).

mod common;

use common::*;
use divan::counter::ItemsCount;
use divan::Bencher;

fn main() {
    divan::main();
}

/// W1 at 200 and 2,000 iterations (401 and 4,001 checkpoints): one whole
/// run per iteration; the counter is supersteps, so `item/s` gives the
/// time per superstep.
#[divan::bench(args = [200, 2000], sample_count = 20, sample_size = 1)]
fn w1_run(bencher: Bencher, iterations: usize) {
    bencher
        .counter(ItemsCount::new(w1_supersteps(iterations)))
        .with_inputs(|| (Bench::new(&w1_spec(iterations)), thread("w1")))
        .bench_local_values(|(b, cfg)| {
            run_w1(&b, &cfg);
            b // dropped outside the timed region
        });
}

/// Listing every checkpoint of a W1 thread, reading metadata only
/// (`saver.list`). Counter: checkpoints.
#[divan::bench(args = [200, 2000], sample_count = 30)]
fn w1_list_metadata(bencher: Bencher, iterations: usize) {
    let (b, cfg) = w1_thread(iterations);
    bencher
        .counter(ItemsCount::new(2 * iterations + 1))
        .bench_local(|| list_metadata(&b, &cfg));
}

/// Listing every snapshot of a W1 thread with its values as JSON
/// (`get_state_history` + `values.to_json()`). Quadratic by nature: the
/// i-th snapshot's `trail` has i items. Counter: checkpoints.
#[divan::bench(args = [200, 2000], sample_count = 10)]
fn w1_list_values(bencher: Bencher, iterations: usize) {
    let (b, cfg) = w1_thread(iterations);
    bencher
        .counter(ItemsCount::new(2 * iterations + 1))
        .bench_local(|| list_values(&b, &cfg));
}

/// `get_state_history` without converting values (snapshots are lazy).
#[divan::bench(args = [200, 2000], sample_count = 20)]
fn w1_history_lazy(bencher: Bencher, iterations: usize) {
    let (b, cfg) = w1_thread(iterations);
    bencher
        .counter(ItemsCount::new(2 * iterations + 1))
        .bench_local(|| {
            b.graph
                .get_state_history(&cfg, &Default::default())
                .expect("history")
                .len()
        });
}

/// Replay of a 2,000-iteration thread from the checkpoint `rerun`
/// supersteps before its end (2,000 = the middle checkpoint; 10 = near the
/// end). Counter: re-run supersteps, so the rate compares with `w1_run`.
#[divan::bench(args = [10, 200, 2000], sample_count = 10, sample_size = 1)]
fn w1_replay_4001(bencher: Bencher, rerun: usize) {
    replay_bench(bencher, 2000, rerun);
}

/// The same on a 200-iteration thread (401 checkpoints): replaying the
/// last 10 supersteps should cost the same as on the 4,001-checkpoint thread.
#[divan::bench(args = [10, 200], sample_count = 10, sample_size = 1)]
fn w1_replay_401(bencher: Bencher, rerun: usize) {
    replay_bench(bencher, 200, rerun);
}

fn replay_bench(bencher: Bencher, iterations: usize, rerun: usize) {
    let last_step = w1_supersteps(iterations) as i64 - 1;
    bencher
        .counter(ItemsCount::new(rerun))
        .with_inputs(|| {
            let (b, cfg) = w1_thread(iterations);
            let id = checkpoint_at_step(&b, &cfg, last_step - rerun as i64);
            (b, cfg, id)
        })
        .bench_local_values(|(b, cfg, id)| {
            replay(&b, &cfg, &id);
            b
        });
}

/// W2: 100 chat turns on a thread that already has `before` turns
/// (0: the first hundred; 900: the last hundred of 1,000). Counter: invokes.
#[divan::bench(args = [0, 900], sample_count = 10, sample_size = 1)]
fn w2_chat_hundred(bencher: Bencher, before: usize) {
    bencher
        .counter(ItemsCount::new(100usize))
        .with_inputs(|| {
            let b = Bench::new(&w2_spec());
            let cfg = thread("chat");
            for i in 0..before {
                chat_turn(&b, &cfg, i);
            }
            (b, cfg)
        })
        .bench_local_values(|(b, cfg)| {
            for i in before..before + 100 {
                chat_turn(&b, &cfg, i);
            }
            b
        });
}

/// W3: 8 parallel nodes per superstep for 500 supersteps. Counter: supersteps.
#[divan::bench(args = [500], sample_count = 10, sample_size = 1)]
fn w3_fanout(bencher: Bencher, supersteps: usize) {
    bencher
        .counter(ItemsCount::new(supersteps))
        .with_inputs(|| (Bench::new(&w3_spec(supersteps)), thread("fan")))
        .bench_local_values(|(b, cfg)| {
            run_w3(&b, &cfg);
            b
        });
}

/// W4: a `Send` fan-out of 8 tasks into a 2-node subgraph in every
/// superstep, 200 supersteps (198 fan-outs, 1,584 subgraph runs). Counter:
/// supersteps.
#[divan::bench(args = [200], sample_count = 10, sample_size = 1)]
fn w4_send_subgraph(bencher: Bencher, supersteps: usize) {
    bencher
        .counter(ItemsCount::new(supersteps))
        .with_inputs(|| (Bench::w4(supersteps), thread("w4")))
        .bench_local_values(|(b, cfg)| {
            run_w4(&b, &cfg);
            b
        });
}
