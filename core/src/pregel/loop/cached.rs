//! Node caching in the loop (LangGraph's `match_cached_writes` and the
//! cache half of `put_writes`, see [`crate::cache`]): before a superstep's
//! tasks start, those of nodes with a cache policy look their input up; a
//! hit gives the task its stored writes, so it does not run, and its
//! update is reported marked cached once the tasks have been reported
//! started. A task that finishes stores its writes under its key.

use super::super::algo::Task;
use super::Loop;
use crate::cache::CacheKey;
use crate::error::Result;
use crate::graph::State;
use crate::types::StreamEvent;
use serde_json::Value;

/// The cache key of a task of this superstep that will run, and the ttl
/// its writes are stored with: (task id, key, ttl).
pub(super) type PendingKey = (String, CacheKey, Option<f64>);

impl Loop<'_> {
    /// Looks the superstep's cacheable tasks up (those without writes
    /// whose node has a cache policy, when the graph has a cache). Gives
    /// each hit its stored writes and returns their indexes; remembers the
    /// keys of the others, to store their writes when they finish. Two
    /// tasks with one key: the later one gets the hit (LangGraph keys its
    /// lookup by cache key).
    pub(super) async fn match_cached_writes(&mut self, tasks: &mut [Task]) -> Result<Vec<usize>> {
        self.cache_keys.clear();
        let Some(cache) = self.graph.cache.clone() else {
            return Ok(Vec::new());
        };
        let mut state: Option<State> = None;
        let mut keys: Vec<(usize, CacheKey, Option<f64>)> = Vec::new();
        for (i, task) in tasks.iter().enumerate() {
            let node = &self.graph.nodes[&*task.name];
            let Some(policy) = node
                .cache_policy
                .as_ref()
                .filter(|_| task.writes.is_empty())
            else {
                continue;
            };
            let input = match &task.arg {
                Some(arg) => State::from_arg(arg.clone()),
                None => node.read(state.get_or_insert_with(|| self.state())),
            };
            keys.push((i, policy.key(&task.name, &input)?, policy.ttl));
        }
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let found = cache
            .get(keys.iter().map(|(_, k, _)| k.clone()).collect())
            .await?;
        let mut hits = Vec::new();
        for (key, writes) in found {
            if let Some((i, _, _)) = keys.iter().rev().find(|(_, k, _)| *k == key) {
                if !hits.contains(i) {
                    tasks[*i].writes = writes;
                    hits.push(*i);
                }
            }
        }
        hits.sort_unstable();
        self.cache_keys = keys
            .into_iter()
            .filter(|(i, _, _)| !hits.contains(i))
            .map(|(i, k, ttl)| (tasks[i].id.clone(), k, ttl))
            .collect();
        Ok(hits)
    }

    /// The tasks served from the cache, once every task was reported
    /// started: their writes are stored on the checkpoint, as a task's
    /// are, and their updates reported marked cached (LangGraph's
    /// `put_writes(..., cached=True)`).
    pub(super) fn report_cached(&mut self, tasks: &[Task], hits: &[usize]) -> Result<()> {
        for &i in hits {
            let task = &tasks[i];
            self.put_writes(&task.id, &task.path, &task.writes)?;
            self.submitted_writes()?;
            self.emit(|run| StreamEvent::CachedUpdates {
                node: String::from(&*task.name),
                update: super::tick::update_chunk(run.graph, &task.writes),
            });
        }
        Ok(())
    }

    /// Stores the writes of a task that finished under its cache key, if
    /// it has one this superstep.
    pub(super) fn cache_writes(&mut self, task_id: &str, writes: &[(String, Value)]) -> Result<()> {
        let (Some(cache), Some(at)) = (
            &self.graph.cache,
            self.cache_keys.iter().position(|(id, _, _)| id == task_id),
        ) else {
            return Ok(());
        };
        let (_, key, ttl) = self.cache_keys.swap_remove(at);
        cache.set(vec![(key, writes.to_vec(), ttl)])
    }
}
