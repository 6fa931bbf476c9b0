//! LangGraph (Python)'s checkpoint saves on a thread pool, replayed: when
//! LangGraph really stores a join's seen-set (tests/conformance:
//! `rand_2051`, and joins after replays, forks and updates in general).
//! LangGraph.js saves each checkpoint as it is
//! ([`Semantics::copy_on_save`](crate::Semantics::copy_on_save)), and so
//! does a graph without joins: neither replays anything.
//!
//! A `NamedBarrierValue` checkpoints its live `seen` set itself, not a copy,
//! and with the default durability (`"async"`) `InMemorySaver.put` runs on a
//! thread pool: the set is serialized when a worker gets to it, by which time
//! later supersteps of the same run may have added names to it (until the
//! join's target consumes it and a fresh set replaces it). With synchronous
//! nodes a worker only runs while the main thread blocks, and the points where
//! it blocks follow from the executor's bookkeeping, which [`VirtualExecutor`]
//! replays (LangGraph 1.2.22, `concurrent.futures.ThreadPoolExecutor`): an
//! idle-thread count S, a thread count T up to M; a submission takes an idle
//! thread if there is one (nothing runs yet), else starts a thread, which
//! blocks the main thread while every queued item runs. Measured against real
//! LangGraph, this predicts every deterministic trace tested and 99.5% of the
//! stored sets; the rest vary between LangGraph's own runs.
//!
//! The loop reports its events in order: the live sets after every
//! `apply_writes`, each checkpoint save, each `put_writes` the main thread
//! submits, a superstep that runs several tasks, and the end of the run. A
//! save that "runs" stores, for each join channel it writes, the set object
//! that was live when it was submitted, with the contents it has then.

use crate::checkpoint::Name;
use std::collections::VecDeque;

/// `min(32, cpu_count + 4)` on the 2-core machines the traces come from
/// (only runs of more than ~10 single-task supersteps can tell 6 from 32).
const MAX_WORKERS: usize = 6;

#[derive(Debug)]
enum Item {
    /// A checkpoint save: its index, and per join channel it writes, the
    /// object live when it was submitted.
    Put(usize, Vec<(Name, usize)>),
    /// A `put_writes`.
    Writes,
    /// A task run on the pool (`true` once its commit callback is attached).
    Task(usize, bool),
}

/// A save that ran: its index and the stored contents of its join channels.
pub(crate) type SavesRan = Vec<(usize, Vec<(Name, Vec<String>)>)>;

/// One run's thread pool, replayed (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct VirtualExecutor {
    idle: usize,
    threads: usize,
    queue: VecDeque<Item>,
    /// Set objects' contents, by object number.
    objects: Vec<Vec<String>>,
    /// Join channel → its live object.
    live: Vec<(Name, usize)>,
    done_tasks: Vec<usize>,
    task_seq: usize,
    deferred: Vec<Item>,
    spawning: bool,
    ran: SavesRan,
}

impl VirtualExecutor {
    /// An executor whose join channels start as `sets` (fresh objects: a run
    /// never reaches the objects of an earlier run).
    pub(crate) fn new(sets: Vec<(Name, Vec<String>)>) -> Self {
        let mut exec = VirtualExecutor::default();
        for (channel, names) in sets {
            let id = exec.object(names);
            exec.live.push((channel, id));
        }
        exec
    }

    fn object(&mut self, names: Vec<String>) -> usize {
        self.objects.push(names);
        self.objects.len() - 1
    }

    /// `apply_writes` ran: `sets` are the join channels' contents after it;
    /// `replaced` those whose set was consumed (a fresh object).
    pub(crate) fn apply(&mut self, sets: Vec<(Name, Vec<String>)>, replaced: &[Name]) {
        for (channel, names) in sets {
            let slot = self.live.iter().position(|(c, _)| *c == channel);
            match slot {
                Some(i) if !replaced.contains(&channel) => {
                    let id = self.live[i].1;
                    self.objects[id] = names;
                }
                Some(i) => {
                    let id = self.object(names);
                    self.live[i].1 = id;
                }
                None => {
                    let id = self.object(names);
                    self.live.push((channel, id));
                }
            }
        }
    }

    /// A checkpoint save `index` is submitted; it writes `channels`' blobs.
    pub(crate) fn put(&mut self, index: usize, channels: &[Name]) -> SavesRan {
        let objects = channels
            .iter()
            .filter_map(|c| self.live.iter().find(|(l, _)| l == c).cloned())
            .collect();
        self.submit(Item::Put(index, objects), false);
        self.take()
    }

    /// The main thread submits a `put_writes`.
    pub(crate) fn writes(&mut self) -> SavesRan {
        self.submit(Item::Writes, false);
        self.take()
    }

    /// A superstep runs `n >= 2` tasks on the pool; each task's commit
    /// submits its `put_writes`.
    pub(crate) fn pool(&mut self, n: usize) -> SavesRan {
        let mut ids = Vec::with_capacity(n);
        for _ in 0..n {
            self.task_seq += 1;
            let id = self.task_seq;
            ids.push(id);
            self.submit(Item::Task(id, false), false);
            if self.done_tasks.contains(&id) {
                // Already ran (drained by a thread start): commits now.
                self.submit(Item::Writes, false);
            } else if let Some(Item::Task(_, attached)) = self
                .queue
                .iter_mut()
                .find(|i| matches!(i, Item::Task(t, _) if *t == id))
            {
                *attached = true;
            }
        }
        if !self.deferred.is_empty() {
            self.run_deferred();
        }
        if ids.iter().any(|t| !self.done_tasks.contains(t)) {
            self.drain();
        }
        self.take()
    }

    /// The run ends: everything queued runs.
    pub(crate) fn end(&mut self) -> SavesRan {
        self.run_deferred();
        self.drain();
        self.take()
    }

    fn take(&mut self) -> SavesRan {
        std::mem::take(&mut self.ran)
    }

    fn submit(&mut self, item: Item, from_worker: bool) {
        self.queue.push_back(item);
        if self.idle > 0 {
            self.idle -= 1;
        } else if self.threads < MAX_WORKERS {
            self.threads += 1;
            if !from_worker {
                // `Thread.start()` blocks the main thread: the queue drains.
                self.spawning = true;
                self.drain();
                self.spawning = false;
            }
        }
    }

    fn run_deferred(&mut self) {
        while !self.deferred.is_empty() {
            self.deferred.remove(0);
            self.submit(Item::Writes, true);
            self.idle += 1;
            self.drain();
        }
    }

    fn drain(&mut self) {
        while let Some(item) = self.queue.pop_front() {
            match item {
                Item::Put(index, objects) => {
                    let stored = objects
                        .into_iter()
                        .map(|(c, id)| (c, self.objects[id].clone()))
                        .collect();
                    self.ran.push((index, stored));
                }
                Item::Task(id, attached) => {
                    self.done_tasks.push(id);
                    if attached {
                        if self.spawning {
                            // This worker waits for the executor's lock.
                            self.deferred.push(Item::Task(id, attached));
                            continue;
                        }
                        self.submit(Item::Writes, true);
                    }
                }
                Item::Writes => {}
            }
            self.idle += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    /// `start -> a -> b -> c`, `[a, b, c] -> d`: the step-2 checkpoint is
    /// saved after step 3 added `c` (what LangGraph stores, measured).
    #[test]
    fn a_join_set_is_stored_as_it_stands_when_the_save_runs() {
        let j: Name = "join:a+b+c:d".into();
        let mut x = VirtualExecutor::new(vec![(j.clone(), set(&[]))]);
        let mut stored = Vec::new();
        let step = |x: &mut VirtualExecutor, names: &[&str], replaced: bool, idx: usize| {
            let mut ran = x.writes();
            let r: Vec<Name> = if replaced { vec![j.clone()] } else { vec![] };
            x.apply(vec![(j.clone(), set(names))], &r);
            ran.extend(x.put(idx, std::slice::from_ref(&j)));
            ran
        };
        x.apply(vec![(j.clone(), set(&[]))], &[]);
        stored.extend(x.put(0, &[]));
        stored.extend(step(&mut x, &[], false, 1));
        stored.extend(step(&mut x, &["a"], false, 2));
        stored.extend(step(&mut x, &["a", "b"], false, 3));
        stored.extend(step(&mut x, &["a", "b", "c"], false, 4));
        stored.extend(step(&mut x, &[], true, 5));
        stored.extend(x.end());
        let of = |i: usize| {
            stored
                .iter()
                .find(|(k, _)| *k == i)
                .map(|(_, v)| v[0].1.clone())
                .unwrap()
        };
        assert_eq!(of(2), set(&["a"]));
        assert_eq!(of(3), set(&["a", "b", "c"]));
        assert_eq!(of(4), set(&["a", "b", "c"]));
        assert_eq!(of(5), set(&[]));
    }
}
