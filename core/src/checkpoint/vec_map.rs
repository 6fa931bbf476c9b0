//! [`VecMap`]: a small map kept as one vector, in insertion order.

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt;
use std::marker::PhantomData;

/// A map kept as a vector of entries in insertion order (a key set again
/// keeps its place), allocated to exactly its length.
///
/// Why insertion order: LangGraph's checkpoints are Python dicts and
/// LangGraph.js's are objects, both listed in the order their keys were
/// first set (`channel_versions` in the order channels first got a
/// version, `versions_seen` in the order nodes first ran), and a saver
/// shows them so. Why not a `BTreeMap` or an `IndexMap`: every superstep
/// stores new version maps (`channel_versions`, one node's
/// `versions_seen`) of a handful of entries, and a B-tree leaf always
/// allocates room for 11 (an index map adds a hash table). A vector sized
/// to its entries keeps a W1 checkpoint's version maps in about a third of
/// the memory. Lookups scan the entries, which for the tens of channels a
/// graph has is as fast as a binary search. Equality is a map's: the same
/// entries, in any order.
#[derive(Clone, Eq)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> VecMap<K, V> {
    /// An empty map (allocates nothing).
    pub const fn new() -> Self {
        VecMap {
            entries: Vec::new(),
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries in insertion order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&K, &V)> + DoubleEndedIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// Keys in insertion order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &K> + DoubleEndedIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// Values in insertion order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &V> + DoubleEndedIterator {
        self.entries.iter().map(|(_, v)| v)
    }
}

impl<K: Eq, V> VecMap<K, V> {
    fn find<Q>(&self, key: &Q) -> Option<usize>
    where
        K: Borrow<Q>,
        Q: Eq + ?Sized,
    {
        self.entries.iter().position(|(k, _)| k.borrow() == key)
    }

    /// The value of `key`.
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Eq + ?Sized,
    {
        self.find(key).map(|at| &self.entries[at].1)
    }

    /// The stored key and value of `key` (to share the stored key).
    pub fn get_key_value<Q>(&self, key: &Q) -> Option<(&K, &V)>
    where
        K: Borrow<Q>,
        Q: Eq + ?Sized,
    {
        self.find(key).map(|at| {
            let (k, v) = &self.entries[at];
            (k, v)
        })
    }

    /// The value of `key`, to change it.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Eq + ?Sized,
    {
        self.find(key).map(|at| &mut self.entries[at].1)
    }

    /// Whether `key` has a value.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Eq + ?Sized,
    {
        self.find(key).is_some()
    }

    /// Sets `key` to `value` (a new key goes last); returns the value it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Some(at) => Some(std::mem::replace(&mut self.entries[at].1, value)),
            None => {
                // Exact growth: these maps are kept per checkpoint, and
                // doubling would leave unused slots in every one of them.
                self.entries.reserve_exact(1);
                self.entries.push((key, value));
                None
            }
        }
    }

    /// The value of `key`, inserting `V::default()` last first when it has none.
    pub fn get_or_insert_default(&mut self, key: K) -> &mut V
    where
        V: Default,
    {
        let at = match self.find(&key) {
            Some(at) => at,
            None => {
                self.entries.reserve_exact(1);
                self.entries.push((key, V::default()));
                self.entries.len() - 1
            }
        };
        &mut self.entries[at].1
    }

    /// Removes `key` (the entries after it keep their order); returns its value.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Eq + ?Sized,
    {
        self.find(key).map(|at| self.entries.remove(at).1)
    }
}

impl<K: Eq, V: PartialEq> PartialEq for VecMap<K, V> {
    /// A map's equality: the same keys with the same values, in any order.
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .entries
                .iter()
                .all(|(k, v)| other.get(k).is_some_and(|o| o == v))
    }
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Eq, V> FromIterator<(K, V)> for VecMap<K, V> {
    /// In the iterator's order; a repeated key keeps its first place and
    /// its last value (as a dict built from pairs).
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let iter = iter.into_iter();
        let mut out = VecMap {
            entries: Vec::with_capacity(iter.size_hint().0),
        };
        for (k, v) in iter {
            match out.find(&k) {
                Some(at) => out.entries[at].1 = v,
                None => out.entries.push((k, v)),
            }
        }
        out.entries.shrink_to_fit();
        out
    }
}

impl<K: Eq, V, const N: usize> From<[(K, V); N]> for VecMap<K, V> {
    fn from(entries: [(K, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl<K: Eq + Borrow<Q>, Q: Eq + ?Sized, V> std::ops::Index<&Q> for VecMap<K, V> {
    type Output = V;

    /// Panics when `key` is missing, like `BTreeMap`'s index.
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry found for key")
    }
}

impl<'a, K, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: Serialize, V: Serialize> Serialize for VecMap<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, K: Eq + Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for VecMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct MapVisitor<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Eq + Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for MapVisitor<K, V> {
            type Value = VecMap<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::with_capacity(access.size_hint().unwrap_or(0));
                while let Some(entry) = access.next_entry()? {
                    entries.push(entry);
                }
                Ok(entries.into_iter().collect())
            }
        }
        d.deserialize_map(MapVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_entries_in_insertion_order_and_replaces_in_place() {
        let mut m = VecMap::new();
        assert_eq!(m.insert("b", 2), None);
        assert_eq!(m.insert("a", 1), None);
        assert_eq!(m.insert("c", 3), None);
        assert_eq!(m.insert("b", 20), Some(2));
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), ["b", "a", "c"]);
        assert_eq!(m["b"], 20);
        assert_eq!(m.remove("a"), Some(1));
        assert!(!m.contains_key("a"));
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), ["b", "c"]);
        *m.get_or_insert_default("a") += 5;
        assert_eq!(
            m.iter().collect::<Vec<_>>(),
            [(&"b", &20), (&"c", &3), (&"a", &5)]
        );
    }

    #[test]
    fn collecting_keeps_the_first_place_and_last_value_of_a_repeated_key() {
        let m: VecMap<&str, i32> = [("x", 1), ("y", 2), ("x", 3)].into();
        assert_eq!(m.iter().collect::<Vec<_>>(), [(&"x", &3), (&"y", &2)]);
    }

    #[test]
    fn equality_ignores_order() {
        let a: VecMap<&str, i32> = [("x", 1), ("y", 2)].into();
        let b: VecMap<&str, i32> = [("y", 2), ("x", 1)].into();
        let c: VecMap<&str, i32> = [("y", 2), ("x", 3)].into();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, [("x", 1)].into());
    }

    #[test]
    fn serializes_and_debugs_as_a_map_in_insertion_order() {
        let m: VecMap<String, u32> = [("b".to_owned(), 2), ("a".to_owned(), 1)].into();
        assert_eq!(serde_json::to_string(&m).unwrap(), r#"{"b":2,"a":1}"#);
        assert_eq!(format!("{m:?}"), r#"{"b": 2, "a": 1}"#);
        let back: VecMap<String, u32> = serde_json::from_str(r#"{"b":2,"a":1}"#).unwrap();
        assert_eq!(back.keys().collect::<Vec<_>>(), ["b", "a"]);
        assert_eq!(back, m);
    }

    #[test]
    fn grows_to_exactly_its_length() {
        let mut m = VecMap::new();
        for i in 0..5 {
            m.insert(i, i);
        }
        assert_eq!(m.entries.capacity(), 5);
        m.get_or_insert_default(9);
        assert_eq!(m.entries.capacity(), 6);
    }

    #[test]
    fn random_operations_match_an_insertion_ordered_map() {
        let mut x: u64 = 7;
        let mut below = |n: u64| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) % n
        };
        let mut m: VecMap<u64, u64> = VecMap::new();
        // A reference: a BTreeMap of values and a list of keys in insertion order.
        let mut b = std::collections::BTreeMap::new();
        let mut order: Vec<u64> = Vec::new();
        for step in 0..5_000 {
            let k = below(40);
            match below(3) {
                0 => {
                    if !b.contains_key(&k) {
                        order.push(k);
                    }
                    assert_eq!(m.insert(k, step), b.insert(k, step));
                }
                1 => {
                    order.retain(|o| *o != k);
                    assert_eq!(m.remove(&k), b.remove(&k));
                }
                _ => {
                    if !b.contains_key(&k) {
                        order.push(k);
                    }
                    *m.get_or_insert_default(k) += 1;
                    *b.entry(k).or_default() += 1;
                }
            }
            assert_eq!(m.get(&k), b.get(&k));
            assert_eq!(m.contains_key(&k), b.contains_key(&k));
            assert_eq!(m.len(), b.len());
        }
        assert!(m.keys().eq(order.iter()));
        assert!(m.iter().all(|(k, v)| b.get(k) == Some(v)));
    }
}
