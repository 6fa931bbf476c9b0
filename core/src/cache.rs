//! Node caching (LangGraph's `CachePolicy`, `BaseCache`, `InMemoryCache`):
//! a node with a cache policy, in a graph compiled with a cache, looks its
//! input up before it runs; a hit gives the task the writes a run of the
//! node on the same input made before, and the node does not run (its
//! update is streamed marked `cached`, its writes are stored on the
//! checkpoint as any task's). A task that finishes (no error, no
//! interrupt) stores its writes under its key, for `ttl` seconds.

use crate::clock::{default_clock, Clock};
use crate::error::Result;
use crate::graph::State;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

/// The first part of every node cache namespace (LangGraph's `CACHE_NS_WRITES`).
pub const CACHE_NS_WRITES: &str = "__pregel_ns_writes";

/// The second part: what LangGraph names a node without an identifier of its own.
const DYNAMIC: &str = "__dynamic__";

/// A task's writes as a cache stores them: `(channel, value)` in order.
pub type CachedWrites = Vec<(String, Value)>;

/// A future of a cache operation.
pub type CacheFuture<T> = Pin<Box<dyn Future<Output = Result<T>>>>;

/// Where a task's writes are cached: a namespace (`[CACHE_NS_WRITES,
/// "__dynamic__", node]`) and the hash of the node's input.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CacheKey {
    /// The namespace.
    pub ns: Vec<String>,
    /// The key within it (32 hex digits).
    pub key: String,
}

/// The namespace of node `node`'s cached writes.
pub fn node_namespace(node: &str) -> Vec<String> {
    vec![
        CACHE_NS_WRITES.to_owned(),
        DYNAMIC.to_owned(),
        node.to_owned(),
    ]
}

/// How a node's input becomes the text its cache key hashes.
pub type KeyFn = dyn Fn(&State) -> Result<String>;

/// A node's cache policy (LangGraph's `CachePolicy(key_func, ttl)`).
#[derive(Clone, Default)]
pub struct CachePolicy {
    /// The text hashed into the key, from the node's input (the state it
    /// reads, or a `Send`'s argument); `None`: the JSON text of `[input]`
    /// (LangGraph.js's `JSON.stringify([input])`; LangGraph pickles it).
    pub key_func: Option<Rc<KeyFn>>,
    /// Seconds an entry lives; `None`: it never expires.
    pub ttl: Option<f64>,
}

impl fmt::Debug for CachePolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CachePolicy")
            .field("key_func", &self.key_func.as_ref().map(|_| "<fn>"))
            .field("ttl", &self.ttl)
            .finish()
    }
}

impl CachePolicy {
    /// A policy whose entries live `ttl` seconds, keyed by the default key.
    pub fn with_ttl(ttl: f64) -> Self {
        CachePolicy {
            key_func: None,
            ttl: Some(ttl),
        }
    }

    /// The key of node `node`'s task on `input`: the xxh3-128 hex digest
    /// of the key function's text (LangGraph's and LangGraph.js's
    /// `xxh3_128_hexdigest(key_func(input))`).
    pub(crate) fn key(&self, node: &str, input: &State) -> Result<CacheKey> {
        let text = match &self.key_func {
            Some(f) => f(input)?,
            None => Value::Array(vec![input.to_json()]).to_string(),
        };
        Ok(CacheKey {
            ns: node_namespace(node),
            key: format!("{:032x}", xxhash_rust::xxh3::xxh3_128(text.as_bytes())),
        })
    }
}

/// A cache of task writes (LangGraph's `BaseCache`). `get` may wait (a
/// JavaScript cache answers with a Promise); `set` starts the store and
/// returns (LangGraph submits it in the background).
pub trait BaseCache {
    /// The entries of `keys` that are stored and not expired.
    fn get(&self, keys: Vec<CacheKey>) -> CacheFuture<Vec<(CacheKey, CachedWrites)>>;
    /// Stores each entry for its `ttl` seconds (`None`: for ever).
    fn set(&self, entries: Vec<(CacheKey, CachedWrites, Option<f64>)>) -> Result<()>;
    /// Drops the entries of `namespaces`, or every entry for `None`.
    fn clear(&self, namespaces: Option<Vec<Vec<String>>>) -> CacheFuture<()>;
}

/// An entry of [`InMemoryCache`]: the writes and when they expire
/// (Unix nanoseconds).
type Entry = (CachedWrites, Option<u128>);

/// LangGraph's `InMemoryCache`: entries kept in memory, expiring by the
/// given clock.
pub struct InMemoryCache {
    clock: Rc<dyn Clock>,
    entries: RefCell<BTreeMap<Vec<String>, BTreeMap<String, Entry>>>,
}

impl Default for InMemoryCache {
    fn default() -> Self {
        Self::with_clock(default_clock())
    }
}

impl fmt::Debug for InMemoryCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InMemoryCache")
            .field(
                "entries",
                &self
                    .entries
                    .borrow()
                    .values()
                    .map(BTreeMap::len)
                    .sum::<usize>(),
            )
            .finish()
    }
}

impl InMemoryCache {
    /// An empty cache on the system clock.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty cache whose entries expire by `clock`.
    pub fn with_clock(clock: Rc<dyn Clock>) -> Self {
        InMemoryCache {
            clock,
            entries: RefCell::default(),
        }
    }

    /// The entries of `keys` that are stored and not expired (expired ones
    /// are dropped), as [`BaseCache::get`] gives them.
    pub fn get_now(&self, keys: &[CacheKey]) -> Vec<(CacheKey, CachedWrites)> {
        let now = self.clock.now_unix_nanos();
        let mut entries = self.entries.borrow_mut();
        let mut found = Vec::new();
        for k in keys {
            let Some(ns) = entries.get_mut(&k.ns) else {
                continue;
            };
            match ns.get(&k.key) {
                Some((writes, expiry)) if expiry.is_none_or(|e| now < e) => {
                    found.push((k.clone(), writes.clone()));
                }
                Some(_) => {
                    ns.remove(&k.key);
                }
                None => {}
            }
        }
        found
    }

    /// How many entries are stored (expired ones included until read).
    pub fn len(&self) -> usize {
        self.entries.borrow().values().map(BTreeMap::len).sum()
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl BaseCache for InMemoryCache {
    fn get(&self, keys: Vec<CacheKey>) -> CacheFuture<Vec<(CacheKey, CachedWrites)>> {
        let found = self.get_now(&keys);
        Box::pin(async move { Ok(found) })
    }

    fn set(&self, entries: Vec<(CacheKey, CachedWrites, Option<f64>)>) -> Result<()> {
        let now = self.clock.now_unix_nanos();
        let mut stored = self.entries.borrow_mut();
        for (k, writes, ttl) in entries {
            let expiry = ttl.map(|s| now + (s.max(0.0) * 1e9) as u128);
            stored
                .entry(k.ns)
                .or_default()
                .insert(k.key, (writes, expiry));
        }
        Ok(())
    }

    fn clear(&self, namespaces: Option<Vec<Vec<String>>>) -> CacheFuture<()> {
        let mut stored = self.entries.borrow_mut();
        match namespaces {
            None => stored.clear(),
            Some(namespaces) => {
                for ns in &namespaces {
                    stored.remove(ns);
                }
            }
        }
        Box::pin(async { Ok(()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;
    use serde_json::json;

    fn key(node: &str, key: &str) -> CacheKey {
        CacheKey {
            ns: node_namespace(node),
            key: key.into(),
        }
    }

    #[test]
    fn the_default_key_hashes_the_json_of_the_input_in_a_list_as_langgraph_js_does() {
        let state = State::from_arg(json!({"n": 1, "log": ["a1"]}));
        let k = CachePolicy::default().key("b", &state).unwrap();
        // LangGraph.js 1.7.3's key for node b on {n: 1, log: ["a1"]}:
        // XXH3(JSON.stringify([{"n":1,"log":["a1"]}])).
        assert_eq!(k.key, "cc32db0b1f950262b115ad4ef4cb07e4");
        assert_eq!(k.ns, ["__pregel_ns_writes", "__dynamic__", "b"]);
    }

    #[test]
    fn entries_expire_after_their_ttl_and_clear_drops_namespaces() {
        let clock = Rc::new(ManualClock::starting_at(0, 0));
        let cache = InMemoryCache::with_clock(clock.clone());
        let writes = vec![("log".to_owned(), json!(["a"]))];
        cache
            .set(vec![
                (key("a", "k"), writes.clone(), Some(2.0)),
                (key("b", "k"), writes.clone(), None),
            ])
            .unwrap();
        assert_eq!(cache.get_now(&[key("a", "k"), key("b", "k")]).len(), 2);
        clock.advance(2_000_000_000);
        assert_eq!(
            cache.get_now(&[key("a", "k"), key("b", "k")]),
            [(key("b", "k"), writes)]
        );
        assert_eq!(cache.len(), 1, "the expired entry was dropped when read");
        futures::executor::block_on(cache.clear(Some(vec![node_namespace("b")]))).unwrap();
        assert!(cache.is_empty());
    }
}
