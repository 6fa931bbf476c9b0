//! [`ChannelList`]: a list channel's items, as one version of an
//! append-only log shared by every version that grew from it.

use serde_json::Value;
use std::cell::{Cell, OnceCell, RefCell};
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

/// Slots in a log's first chunk; chunk `k` holds `FIRST_CHUNK << k`.
const FIRST_CHUNK: usize = 8;
/// Chunks per log: room for `FIRST_CHUNK · (2^CHUNKS − 1)` items (over 10^9).
const CHUNKS: usize = 27;

/// The cells of chunks 1 and up, allocated when a log outgrows its first.
type LaterChunks = [OnceCell<Chunk>; CHUNKS - 1];
/// A fork of a fork of ... this deep is copied into a fresh log, so reading
/// an item never walks more than this many logs.
const MAX_DEPTH: usize = 16;
/// A fork copies up to this many items of its top log rather than adding
/// a level (see [`ChannelList::fork`]).
const COPY_MAX: usize = 32;

/// A run of write-once slots.
type Chunk = Box<[OnceCell<Arc<Value>>]>;

/// One append-only run of items, after the items of its `base` version.
///
/// Slots are write-once cells in chunks that double in size, so items are
/// appended through a shared reference and never move: every version that
/// shares the log reads its own prefix while the newest one appends.
struct Log {
    /// The version this log continues (a fork point); `None` at the root.
    base: Option<ChannelList>,
    /// Items appended to this log so far (not counting `base`).
    filled: Cell<usize>,
    /// Chunk 0. The others sit behind one more allocation, made when the
    /// log outgrows this one: a short list (a barrier's names, an array in
    /// a `last_value` channel) then costs a small log, not a directory.
    first: OnceCell<Chunk>,
    later: OnceCell<Box<LaterChunks>>,
    /// Logs in the chain, this one included.
    depth: usize,
    /// Where each message id stands among this log's items, built the first
    /// time one is looked up and extended as the log grows (its slots are
    /// write-once, so what is indexed stays true): `add_messages` finds a
    /// given id in O(1) instead of scanning the whole list per message.
    ids: RefCell<Option<Box<IdIndex>>>,
}

/// A log's items by id (see `Log::ids`): log-local positions, ascending.
#[derive(Default)]
struct IdIndex {
    /// How many of the log's items are indexed.
    indexed: usize,
    positions: HashMap<Box<str>, Vec<usize>>,
}

impl Log {
    fn new(base: Option<ChannelList>) -> Rc<Log> {
        let depth = base
            .as_ref()
            .and_then(|b| b.log.as_ref())
            .map_or(0, |l| l.depth)
            + 1;
        Rc::new(Log {
            base,
            filled: Cell::new(0),
            first: OnceCell::new(),
            later: OnceCell::new(),
            depth,
            ids: RefCell::new(None),
        })
    }

    /// Index of the log's first item in the list.
    fn start(&self) -> usize {
        self.base.as_ref().map_or(0, |b| b.len)
    }

    /// Chunk and offset of the log's `i`-th slot.
    fn locate(i: usize) -> (usize, usize) {
        // Chunk k starts at FIRST_CHUNK · (2^k − 1).
        let k = (i / FIRST_CHUNK + 1).ilog2() as usize;
        (k, i - FIRST_CHUNK * ((1 << k) - 1))
    }

    /// The cell of chunk `k`, if its directory exists.
    fn chunk(&self, k: usize) -> Option<&OnceCell<Chunk>> {
        match k {
            0 => Some(&self.first),
            _ => self.later.get()?.get(k - 1),
        }
    }

    /// The log's `i`-th item, if appended.
    fn slot(&self, i: usize) -> Option<&Arc<Value>> {
        let (k, at) = Self::locate(i);
        self.chunk(k)?.get()?.get(at)?.get()
    }

    /// Appends `item` as the log's next slot.
    fn push(&self, item: Arc<Value>) {
        let i = self.filled.get();
        let (k, at) = Self::locate(i);
        let cell = match k {
            0 => &self.first,
            _ => &self
                .later
                .get_or_init(|| Box::new(std::array::from_fn(|_| OnceCell::new())))[k - 1],
        };
        let chunk = cell.get_or_init(|| {
            (0..FIRST_CHUNK << k)
                .map(|_| OnceCell::new())
                .collect::<Vec<_>>()
                .into_boxed_slice()
        });
        let fresh = chunk[at].set(item).is_ok();
        debug_assert!(fresh, "a log slot is written once");
        self.filled.set(i + 1);
    }
}

/// Whether two JSON values are the same value, down to what serializes
/// differently: `==`, except that `0.0` and `-0.0` differ and object keys
/// must come in the same order (a shared slot must read back exactly as
/// what was appended).
fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y && x.as_f64().map(f64::is_sign_negative) == y.as_f64().map(f64::is_sign_negative)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| identical(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kp, p), (kq, q))| kp == kq && identical(p, q))
        }
        _ => a == b,
    }
}

/// A list channel's items: the first `len` items of an append-only log
/// chain, shared with every other version of the list.
///
/// Appending to the newest version writes one slot of the shared log (a
/// pointer, amortized): keeping a version per checkpoint costs memory in
/// proportion to what was written, not to the list's length. Appending
/// something else to an older version (a fork) starts a new log, so
/// branches share their common prefix. Replacing or removing items
/// (`add_messages` with a known id) rebuilds the list: O(length).
/// Items are behind an `Arc`: copies of a list never copy an item.
#[derive(Clone, Default)]
pub struct ChannelList {
    /// `None` for the empty list.
    log: Option<Rc<Log>>,
    len: usize,
}

impl ChannelList {
    /// The empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of items. O(1).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list has no items.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether both are the same version: one log, one length (so the
    /// same items). O(1).
    pub fn ptr_eq(&self, other: &ChannelList) -> bool {
        self.len == other.len
            && match (&self.log, &other.log) {
                (Some(a), Some(b)) => Rc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }

    /// The `i`-th item. O(number of forks in this version's history, at most 16).
    pub fn get(&self, i: usize) -> Option<&Arc<Value>> {
        if i >= self.len {
            return None;
        }
        let mut log = self.log.as_deref()?;
        loop {
            let start = log.start();
            if i >= start {
                return log.slot(i - start);
            }
            log = log.base.as_ref()?.log.as_deref()?;
        }
    }

    /// The last item.
    pub fn last(&self) -> Option<&Arc<Value>> {
        self.len.checked_sub(1).and_then(|i| self.get(i))
    }

    /// The position of the last item whose id (as `id_of` reads it) is
    /// `id`, like `iter().rposition(..)` but O(number of logs) once the
    /// logs are indexed: each log indexes its items by id the first time
    /// it is asked (O(its length), once) and then only its new items.
    /// `id_of` must be the same function for every call on lists that
    /// share logs (`add_messages`' message id is the only caller).
    pub fn rposition_id(&self, id: &str, id_of: fn(&Value) -> Option<&str>) -> Option<usize> {
        for (log, start, end) in self.levels().into_iter().rev() {
            let own_end = end - start;
            let mut cell = log.ids.borrow_mut();
            let index = cell.get_or_insert_with(Default::default);
            while index.indexed < own_end {
                if let Some(item_id) = log.slot(index.indexed).and_then(|item| id_of(item)) {
                    index
                        .positions
                        .entry(item_id.into())
                        .or_default()
                        .push(index.indexed);
                }
                index.indexed += 1;
            }
            let found = index
                .positions
                .get(id)
                .and_then(|ps| ps.iter().rev().find(|p| **p < own_end));
            if let Some(p) = found {
                return Some(start + p);
            }
        }
        None
    }

    /// The items in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            levels: self.levels(),
            front: 0,
            back: self.len,
        }
    }

    /// The logs this version reads, root first, as `(log, first index, end)`.
    fn levels(&self) -> Vec<(&Log, usize, usize)> {
        let mut levels = Vec::new();
        let mut end = self.len;
        let mut next = self.log.as_deref();
        while let Some(log) = next {
            let start = log.start();
            if end > start {
                levels.push((log, start, end));
            }
            end = end.min(start);
            next = log.base.as_ref().and_then(|b| b.log.as_deref());
        }
        levels.reverse();
        levels
    }

    /// Appends one item. O(1) amortized when this is the newest version of
    /// its log, or when the log's next item equals `item` (then that slot
    /// is shared: a router's fresh read and the superstep's own apply write
    /// the same update, and a replay re-runs the same writes). Otherwise
    /// this version forks: it moves onto a new log (see the type's docs).
    pub fn push_back(&mut self, item: Arc<Value>) {
        if let Some(log) = &self.log {
            // Invariant: a non-empty version has items in its top log.
            let own = self.len - log.start();
            match log.slot(own) {
                None => {
                    log.push(item);
                    self.len += 1;
                    return;
                }
                Some(next) if Arc::ptr_eq(next, &item) || identical(next, &item) => {
                    self.len += 1;
                    return;
                }
                Some(_) => {}
            }
        }
        self.fork();
        if let Some(log) = &self.log {
            log.push(item);
        }
        self.len += 1;
    }

    /// Moves this version onto a new log it can append to (another version
    /// already appended past it). A few items of its top log are copied
    /// into a log that continues the same base (the cost of a small copy
    /// instead of one more level); more start a log that continues this
    /// version; a chain of [`MAX_DEPTH`] logs is copied into one.
    fn fork(&mut self) {
        let log = match &self.log {
            None => Log::new(None),
            Some(top) => {
                let own = self.len - top.start();
                if own <= COPY_MAX {
                    let log = Log::new(top.base.clone());
                    for i in 0..own {
                        log.push(top.slot(i).expect("below the length").clone());
                    }
                    log
                } else if top.depth >= MAX_DEPTH {
                    let log = Log::new(None);
                    for item in self.iter() {
                        log.push(item.clone());
                    }
                    log
                } else {
                    Log::new(Some(self.clone()))
                }
            }
        };
        self.log = Some(log);
    }

    /// Appends every item of `other`.
    pub fn append(&mut self, other: ChannelList) {
        self.extend(other.iter().cloned());
    }

    /// Replaces the `i`-th item (rebuilds the list: O(length)). Panics when
    /// `i` is out of range, like slice indexing.
    pub fn set(&mut self, i: usize, item: Arc<Value>) {
        let mut items: Vec<Arc<Value>> = self.iter().cloned().collect();
        items[i] = item;
        *self = items.into_iter().collect();
    }

    /// Keeps only the items `keep` accepts (called once per item, in
    /// order); rebuilds the list when any goes, else keeps this version.
    pub fn retain(&mut self, mut keep: impl FnMut(&Arc<Value>) -> bool) {
        let kept: Vec<Arc<Value>> = self.iter().filter(|v| keep(v)).cloned().collect();
        if kept.len() != self.len {
            *self = kept.into_iter().collect();
        }
    }

    /// Keeps the first `len` items (a shorter version of the same log).
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
        // Keep the invariant: a version has items in its top log (or none).
        while let Some(log) = self.log.clone() {
            if self.len > log.start() {
                break;
            }
            self.log = log.base.as_ref().and_then(|b| b.log.clone());
        }
    }

    /// How many leading items `self` and `other` share (the very same
    /// `Arc`s). Versions of one log share their common prefix by
    /// construction, so that part is O(number of logs); only items of
    /// different logs are compared one by one.
    pub fn shared_prefix(&self, other: &ChannelList) -> usize {
        let n = self.len.min(other.len);
        let (a, b) = (self.levels(), other.levels());
        let mut i = 0;
        for ((la, _, ea), (lb, _, eb)) in a.iter().zip(&b) {
            if !std::ptr::eq(*la, *lb) {
                break;
            }
            i = (*ea).min(*eb);
            if ea != eb {
                break;
            }
        }
        let i = i.min(n);
        i + self
            .iter()
            .skip(i)
            .zip(other.iter().skip(i))
            .take_while(|(p, q)| Arc::ptr_eq(p, q))
            .count()
    }
}

/// The items of a [`ChannelList`], front to back (or back to front).
pub struct Iter<'a> {
    levels: Vec<(&'a Log, usize, usize)>,
    front: usize,
    back: usize,
}

impl<'a> Iter<'a> {
    fn at(&self, i: usize) -> Option<&'a Arc<Value>> {
        let (log, start, _) = self.levels.iter().rev().find(|(_, start, _)| i >= *start)?;
        log.slot(i - start)
    }
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a Arc<Value>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.front >= self.back {
            return None;
        }
        let item = self.at(self.front);
        self.front += 1;
        item
    }

    /// Skips in O(1): `iter().skip(n)` does not walk the skipped items.
    fn nth(&mut self, n: usize) -> Option<Self::Item> {
        self.front = self.front.saturating_add(n).min(self.back);
        self.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back.saturating_sub(self.front);
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front >= self.back {
            return None;
        }
        self.back -= 1;
        self.at(self.back)
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a ChannelList {
    type Item = &'a Arc<Value>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl Extend<Arc<Value>> for ChannelList {
    fn extend<I: IntoIterator<Item = Arc<Value>>>(&mut self, items: I) {
        for item in items {
            self.push_back(item);
        }
    }
}

impl FromIterator<Arc<Value>> for ChannelList {
    fn from_iter<I: IntoIterator<Item = Arc<Value>>>(items: I) -> Self {
        let mut list = ChannelList::new();
        list.extend(items);
        list
    }
}

impl PartialEq for ChannelList {
    /// Item by item, by value (shared items compare by pointer first).
    fn eq(&self, other: &Self) -> bool {
        self.ptr_eq(other)
            || self.len == other.len
                && self
                    .iter()
                    .zip(other.iter())
                    .all(|(a, b)| Arc::ptr_eq(a, b) || a == b)
    }
}

impl fmt::Debug for ChannelList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn list(n: usize) -> ChannelList {
        (0..n).map(|i| Arc::new(json!(i))).collect()
    }

    fn values(l: &ChannelList) -> Vec<i64> {
        l.iter().map(|v| v.as_i64().unwrap()).collect()
    }

    fn id_field(v: &Value) -> Option<&str> {
        v.get("id").and_then(Value::as_str)
    }

    /// `rposition_id` against the scan it replaces, on every id and a missing one.
    fn same_as_scan(l: &ChannelList, ids: usize) {
        for i in 0..=ids {
            let id = format!("m{i}");
            let scanned = l.iter().rposition(|m| id_field(m) == Some(id.as_str()));
            assert_eq!(
                l.rposition_id(&id, id_field),
                scanned,
                "id {id} in a list of {}",
                l.len()
            );
        }
    }

    #[test]
    fn an_id_is_found_where_a_scan_finds_it_across_forks_truncations_and_growth() {
        let msg = |i: usize| Arc::new(json!({ "type": "human", "id": format!("m{}", i % 40) }));
        let mut a: ChannelList = (0..30).map(msg).collect();
        same_as_scan(&a, 40);
        // The newest version grows after its log was indexed: only new items are indexed.
        for i in 30..100 {
            a.push_back(msg(i));
        }
        same_as_scan(&a, 40);
        // An older version reads only its own prefix of the shared, further-indexed log.
        let mut old = a.clone();
        old.truncate(35);
        same_as_scan(&old, 40);
        // Forks: small (copied) and large (a new level over the base).
        let mut small = old.clone();
        small.push_back(Arc::new(json!({ "id": "m3" })));
        same_as_scan(&small, 40);
        let mut large = a.clone();
        large.truncate(90);
        large.push_back(Arc::new(json!({ "id": "m7" })));
        for i in 0..50 {
            large.push_back(msg(i * 3));
        }
        same_as_scan(&large, 40);
        same_as_scan(&a, 40);
        // Items without an id are skipped.
        let plain = list(10);
        assert_eq!(plain.rposition_id("m1", id_field), None);
    }

    #[test]
    fn slots_cover_every_index_once() {
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..10_000 {
            let (k, at) = Log::locate(i);
            assert!(at < FIRST_CHUNK << k, "slot {i} fits its chunk");
            assert!(seen.insert((k, at)), "slot {i} is its own");
        }
    }

    #[test]
    fn older_versions_keep_their_items_while_the_newest_appends() {
        let mut versions = vec![ChannelList::new()];
        for i in 0..300 {
            let mut next = versions.last().unwrap().clone();
            next.push_back(Arc::new(json!(i)));
            versions.push(next);
        }
        for (n, v) in versions.iter().enumerate() {
            assert_eq!(values(v), (0..n as i64).collect::<Vec<_>>());
        }
        // All of them share one log.
        let tip = versions.last().unwrap();
        assert!(versions[1..]
            .iter()
            .all(|v| Rc::ptr_eq(v.log.as_ref().unwrap(), tip.log.as_ref().unwrap())));
    }

    #[test]
    fn appending_to_an_older_version_forks_without_changing_the_others() {
        let base = list(20);
        let mut a = base.clone();
        a.push_back(Arc::new(json!(100)));
        let mut b = base.clone();
        b.push_back(Arc::new(json!(200)));
        b.push_back(Arc::new(json!(201)));
        assert_eq!(values(&base), (0..20).collect::<Vec<_>>());
        assert_eq!(a.last().unwrap().as_i64(), Some(100));
        assert_eq!(values(&b)[19..], [19, 200, 201]);
        assert_eq!(b.get(5).unwrap().as_i64(), Some(5));
        assert_eq!(a.shared_prefix(&b), 20);
        assert_eq!(
            b.iter().rev().map(|v| v.as_i64().unwrap()).next(),
            Some(201)
        );
    }

    fn depth(l: &ChannelList) -> usize {
        l.log.as_ref().map_or(0, |log| log.depth)
    }

    #[test]
    fn deep_fork_chains_are_flattened() {
        let mut v = list(40);
        let mut depths = Vec::new();
        for round in 0..(3 * MAX_DEPTH as i64) {
            // Another version takes the next slot, so `v` must fork.
            let mut other = v.clone();
            other.push_back(Arc::new(json!(-2)));
            let mut fork = v.clone();
            fork.extend((0..40).map(|_| Arc::new(json!(round))));
            depths.push(depth(&fork));
            assert_eq!(
                fork.get(39 + 40 * round as usize + 1).unwrap().as_i64(),
                Some(round)
            );
            v = fork;
        }
        assert!(depths.iter().all(|d| *d <= MAX_DEPTH), "{depths:?}");
        assert!(
            depths.contains(&MAX_DEPTH) && depths.contains(&1),
            "{depths:?}"
        );
        assert_eq!(v.len(), 40 + 40 * 3 * MAX_DEPTH);
        assert_eq!(values(&v)[..40], values(&list(40))[..]);
    }

    #[test]
    fn a_fork_with_few_items_of_its_own_copies_them_instead_of_adding_a_level() {
        let base = list(100);
        let mut taken0 = base.clone();
        taken0.push_back(Arc::new(json!("z")));
        // `a` continues `base` in a log of its own, with 5 items there.
        let mut a = base.clone();
        a.extend((0..5).map(|i| Arc::new(json!(1000 + i))));
        assert_eq!(depth(&a), 2);
        let mut taken = a.clone();
        taken.push_back(Arc::new(json!("x")));
        let mut b = a.clone();
        b.push_back(Arc::new(json!("y")));
        assert_eq!(depth(&b), depth(&a));
        assert_eq!(b.shared_prefix(&a), 105);
        assert_eq!(**b.last().unwrap(), json!("y"));
    }

    #[test]
    fn appending_an_item_equal_to_the_next_one_shares_its_slot() {
        let base = list(10);
        let mut first = base.clone();
        first.push_back(Arc::new(json!({"m": 1})));
        // The same update again (as a superstep after its router's fresh read).
        let mut again = base.clone();
        again.push_back(Arc::new(json!({"m": 1})));
        assert!(again.ptr_eq(&first));
        assert!(Rc::ptr_eq(
            again.log.as_ref().unwrap(),
            base.log.as_ref().unwrap()
        ));
        let mut other = base.clone();
        other.push_back(Arc::new(json!({"m": 2})));
        assert!(!Rc::ptr_eq(
            other.log.as_ref().unwrap(),
            base.log.as_ref().unwrap()
        ));
        assert_eq!(values(&base), (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn a_slot_is_shared_only_with_a_value_that_reads_back_the_same() {
        assert!(identical(
            &json!({"a": [1, 2.5, "x"]}),
            &json!({"a": [1, 2.5, "x"]})
        ));
        assert!(
            !identical(&json!(0.0), &json!(-0.0)),
            "-0.0 serializes differently"
        );
        assert!(!identical(&json!([1]), &json!([1.0])));
        let base = list(3);
        let mut first = base.clone();
        first.push_back(Arc::new(json!(0.0)));
        let mut second = base.clone();
        second.push_back(Arc::new(json!(-0.0)));
        assert_eq!(
            serde_json::to_string(&**second.last().unwrap()).unwrap(),
            "-0.0"
        );
        assert_eq!(
            serde_json::to_string(&**first.last().unwrap()).unwrap(),
            "0.0"
        );
    }

    #[test]
    fn truncating_into_the_base_then_appending_keeps_every_version_intact() {
        let base = list(50);
        let mut taken = base.clone();
        taken.push_back(Arc::new(json!(-1)));
        let mut fork = base.clone();
        fork.extend((0..50).map(|i| Arc::new(json!(100 + i))));
        let mut short = fork.clone();
        short.truncate(20);
        short.push_back(Arc::new(json!(-9)));
        assert_eq!(values(&short)[..20], values(&base)[..20]);
        assert_eq!(**short.last().unwrap(), json!(-9));
        assert_eq!(fork.len(), 100);
        assert_eq!(values(&base), (0..50).collect::<Vec<_>>());
        assert_eq!(**taken.last().unwrap(), json!(-1));
    }

    #[test]
    fn set_retain_and_truncate_make_new_versions() {
        let old = list(10);
        let mut new = old.clone();
        new.set(3, Arc::new(json!(-3)));
        new.retain(|v| v.as_i64() != Some(5));
        assert_eq!(values(&new), [0, 1, 2, -3, 4, 6, 7, 8, 9]);
        assert_eq!(values(&old), (0..10).collect::<Vec<_>>());
        new.truncate(2);
        assert_eq!(values(&new), [0, 1]);
        assert_eq!(new, list(2));
        assert_ne!(new, list(3));
    }

    /// A tiny deterministic generator (no test-only dependency).
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((self.0 >> 33) as usize) % n.max(1)
        }
    }

    #[test]
    fn random_histories_of_versions_match_a_vec_model() {
        // Versions are kept forever (as checkpoints keep them) and any of
        // them may be extended, truncated, edited or compared later: every
        // version must keep reading exactly its own items.
        for seed in 0..20 {
            let mut rng = Lcg(seed);
            let mut versions: Vec<(ChannelList, Vec<i64>)> = vec![(ChannelList::new(), vec![])];
            let mut next = 0_i64;
            for _ in 0..400 {
                let (list, model) = versions[rng.below(versions.len())].clone();
                let (mut list, mut model) = (list, model);
                match rng.below(10) {
                    // Mostly appends, often of the value another version
                    // appended at the same place (the shared-slot path).
                    0..=5 => {
                        let n = 1 + rng.below(3);
                        for _ in 0..n {
                            let v = if rng.below(3) == 0 {
                                model.len() as i64
                            } else {
                                next += 1;
                                1000 + next
                            };
                            list.push_back(Arc::new(json!(v)));
                            model.push(v);
                        }
                    }
                    6 => {
                        let len = rng.below(model.len() + 1);
                        list.truncate(len);
                        model.truncate(len);
                    }
                    7 if !model.is_empty() => {
                        let at = rng.below(model.len());
                        list.set(at, Arc::new(json!(-7)));
                        model[at] = -7;
                    }
                    8 => {
                        list.retain(|v| v.as_i64().unwrap() % 3 != 0);
                        model.retain(|v| v % 3 != 0);
                    }
                    _ => {
                        let (other, other_model) = &versions[rng.below(versions.len())];
                        let shared = list.shared_prefix(other);
                        let equal = model
                            .iter()
                            .zip(other_model)
                            .take_while(|(a, b)| a == b)
                            .count();
                        assert!(
                            shared <= equal,
                            "seed {seed}: shared {shared} > equal {equal}"
                        );
                        assert_eq!(list == *other, model == *other_model, "seed {seed}");
                    }
                }
                versions.push((list, model));
            }
            for (list, model) in &versions {
                assert_eq!(values(list), *model, "seed {seed}");
                assert_eq!(list.len(), model.len());
                assert_eq!(
                    list.last().map(|v| v.as_i64().unwrap()),
                    model.last().copied()
                );
                let back: Vec<i64> = list.iter().rev().map(|v| v.as_i64().unwrap()).collect();
                assert!(back.iter().rev().eq(model.iter()), "seed {seed}: reversed");
                assert!(list.log.as_ref().map_or(0, |l| l.depth) <= MAX_DEPTH);
            }
        }
    }
}
